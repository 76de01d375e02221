//! `--sarif FILE`: the report as SARIF 2.1.0, the format code-scanning
//! tools read. Static findings (`--scan`) are results with a file, line and
//! column region; runtime issues are results located on the server command
//! (its executable as the artifact, the argv as a logical location). Each
//! code used is a rule with its meaning, its help text, the force of the
//! spec rule it enforces (`MUST`, `SHOULD`, …) and, where one exists, the
//! official conformance check id.

use serde_json::{Map, Value, json};

use crate::checks::{Code, Issue, Severity};
use crate::report::Report;

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
    if let Some(id) = crate::checks::modern::check_id(code) {
        props.insert("checkId".into(), id.into());
    }
    json!({
        "id": info.code,
        "name": info.code,
        "shortDescription": {"text": info.meaning},
        "fullDescription": {"text": info.meaning},
        "help": {
            "text": format!("{} ({} rule; `mcp-stdio-guard help codes` lists every code)", info.meaning, code.level()),
        },
        "defaultConfiguration": {"level": level(info.severity)},
        "properties": Value::Object(props),
    })
}

/// Where an issue is: a source region for a static finding, else the
/// server command.
fn locations(r: &Report, issue: &Issue) -> Value {
    if let (Some(file), Some(line)) = (issue.detail("file"), issue.detail("line")) {
        let mut region = json!({"startLine": line});
        if let Some(col) = issue.detail("column") {
            region["startColumn"] = col.clone();
        }
        return json!([{"physicalLocation": {
            "artifactLocation": {"uri": file.as_str().unwrap_or("").replace('\\', "/")},
            "region": region,
        }}]);
    }
    let program = r
        .first()
        .executable
        .clone()
        .or_else(|| r.plan.shown_argv.first().cloned())
        .unwrap_or_default();
    let uri = if program.starts_with('/') {
        format!("file://{program}")
    } else {
        program
    };
    json!([{
        "physicalLocation": {"artifactLocation": {"uri": uri}},
        "logicalLocations": [{"fullyQualifiedName": r.plan.shown_argv.join(" "), "kind": "module"}],
    }])
}

/// The SARIF document of a report.
pub fn render(r: &Report) -> Value {
    let mut codes: Vec<Code> = Vec::new();
    for issue in &r.issues {
        if !codes.contains(&issue.code) {
            codes.push(issue.code);
        }
    }
    let results: Vec<Value> = r
        .issues
        .iter()
        .map(|issue| {
            let index = codes.iter().position(|c| *c == issue.code).unwrap_or(0);
            let mut props = Map::new();
            for (k, v) in &issue.details {
                props.insert((*k).into(), v.clone());
            }
            json!({
                "ruleId": issue.code.as_str(),
                "ruleIndex": index,
                "level": level(issue.severity),
                "message": {"text": issue.message},
                "locations": locations(r, issue),
                "properties": Value::Object(props),
            })
        })
        .collect();
    document(&codes, results, &r.plan.shown_argv.join(" "))
}

/// A SARIF 2.1.0 document of one run: the rules of `codes` (a result's
/// `ruleIndex` points into them) and the results.
pub fn document(codes: &[Code], results: Vec<Value>, command_line: &str) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-stdio-guard",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://crates.io/crates/mcp-stdio-guard",
                "rules": codes.iter().map(|c| rule(*c)).collect::<Vec<_>>(),
            }},
            "invocations": [{
                "executionSuccessful": true,
                "commandLine": command_line,
            }],
            "results": results,
        }],
    })
}
