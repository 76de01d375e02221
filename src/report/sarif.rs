//! `--sarif FILE`: SARIF 2.1.0, the format code-scanning tools read.
//! Static findings (`--scan`) are results with a file, line and column
//! region; runtime issues are results located on the server command (its
//! program as the artifact, the argv as a logical location; a batch's also
//! name their entry). Each code used is a rule with its meaning, its help
//! text, the force of the spec rule it enforces (`MUST`, `SHOULD`, …) and,
//! where one exists, the official conformance check id.

use crate::obj;
use serde_json::{Map, Value};

use crate::checks::{Code, Severity};
use crate::verdict::catalog;
use crate::verdict::suite::{Suite, SuiteIssue};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule(code: Code) -> Value {
    let info = code.info();
    let mut props = Map::new();
    props.insert("class".into(), info.class.as_str().into());
    props.insert("rule".into(), code.level().into());
    if let Some(id) = catalog::check_id(code) {
        props.insert("checkId".into(), id.into());
    }
    obj! {
        "id" => info.code,
        "name" => info.code,
        "shortDescription" => obj! {"text" => info.meaning},
        "fullDescription" => obj! {"text" => info.meaning},
        "help" => obj! {
            "text" => format!("{} ({} rule; `mcp-stdio-guard help codes` lists every code)", info.meaning, code.level()),
        },
        "defaultConfiguration" => obj! {"level" => level(info.severity)},
        "properties" => Value::Object(props),
    }
}

/// Where an issue is: a source region for a static finding, else the
/// server command.
fn locations(suite: &Suite, issue: &SuiteIssue) -> Value {
    if let (Some(file), Some(line)) = (issue.details.get("file"), issue.details.get("line")) {
        let mut region = obj! {"startLine" => line};
        if let Some(col) = issue.details.get("column") {
            region["startColumn"] = col.clone();
        }
        let uri = file.as_str().unwrap_or("").replace('\\', "/");
        return Value::Array(vec![obj! {"physicalLocation" => obj! {
            "artifactLocation" => obj! {"uri" => uri},
            "region" => region,
        }}]);
    }
    let uri = if suite.program.starts_with('/') {
        format!("file://{}", suite.program)
    } else {
        suite.program.clone()
    };
    let mut logical = obj! {"fullyQualifiedName" => suite.command, "kind" => "module"};
    if let Some(entry) = &suite.entry {
        logical["name"] = entry.clone().into();
    }
    Value::Array(vec![obj! {
        "physicalLocation" => obj! {"artifactLocation" => obj! {"uri" => uri}},
        "logicalLocations" => vec![logical],
    }])
}

/// The SARIF document of one or more suites; `command_line` is the
/// invocation (the server command, or the batch).
pub fn render(suites: &[Suite], command_line: &str) -> Value {
    let mut codes: Vec<Code> = Vec::new();
    let mut results = Vec::new();
    for suite in suites {
        for issue in &suite.issues {
            let index = codes
                .iter()
                .position(|c| *c == issue.code)
                .unwrap_or_else(|| {
                    codes.push(issue.code);
                    codes.len() - 1
                });
            let text = match &suite.entry {
                Some(entry) => format!("{entry}: {}", issue.message),
                None => issue.message.clone(),
            };
            results.push(obj! {
                "ruleId" => issue.code.as_str(),
                "ruleIndex" => index,
                "level" => level(issue.severity),
                "message" => obj! {"text" => text},
                "locations" => locations(suite, issue),
                "properties" => Value::Object(issue.details.clone()),
            });
        }
    }
    obj! {
        "$schema" => "https://json.schemastore.org/sarif-2.1.0.json",
        "version" => "2.1.0",
        "runs" => vec![obj! {
            "tool" => obj! {
                "driver" => obj! {
                    "name" => "mcp-stdio-guard",
                    "version" => env!("CARGO_PKG_VERSION"),
                    "informationUri" => "https://crates.io/crates/mcp-stdio-guard",
                    "rules" => codes.iter().map(|c| rule(*c)).collect::<Vec<_>>(),
                },
            },
            "invocations" => vec![obj! {"executionSuccessful" => true, "commandLine" => command_line}],
            "results" => results,
        }],
    }
}
