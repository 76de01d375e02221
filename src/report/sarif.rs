//! `--sarif FILE`: SARIF 2.1.0, the format code-scanning tools read.
//! Static findings (`--scan`) are results with a file, line and column
//! region; runtime issues are results located on the server: its script as
//! the artifact when an interpreter runs one (`python server.py`), else its
//! program; the argv, and the package or `-m` module it runs, as logical
//! locations (a batch's also name their entry). Each code used is a rule with its meaning, its help
//! text, the force of the spec rule it enforces (`MUST`, `SHOULD`, …) and,
//! where one exists, the official conformance check id.

use crate::obj;
use serde_json::{Map, Value};

use crate::checks::{Code, Severity};
use crate::session::fingerprint::Entry;
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
            "text" => format!(
                "How to fix: {}. ({}; {} rule; `mcp-stdio-guard help codes` lists every code)",
                crate::checks::fix::fix(code),
                info.meaning,
                code.level()
            ),
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
        let column = issue.details.get("columnCodePoints");
        if let Some(col) = column.or_else(|| issue.details.get("column")) {
            region["startColumn"] = col.clone();
        }
        let uri = file_uri(file.as_str().unwrap_or(""));
        return Value::Array(vec![obj! {"physicalLocation" => obj! {
            "artifactLocation" => obj! {"uri" => uri},
            "region" => region,
        }}]);
    }
    // The server's own file where the command names one (an
    // interpreter's script), else the program that ran.
    let file = match &suite.script {
        Some(Entry::Script(path)) => path.as_str(),
        _ => suite.program.as_str(),
    };
    let mut logical = vec![{
        let mut command = obj! {"fullyQualifiedName" => suite.command, "kind" => "module"};
        if let Some(entry) = &suite.entry {
            command["name"] = entry.clone().into();
        }
        command
    }];
    let named = match &suite.script {
        Some(Entry::Module(m)) => Some(m),
        _ => suite.package.as_ref(),
    };
    if let Some(name) = named {
        logical.push(obj! {"name" => name, "fullyQualifiedName" => name, "kind" => "package"});
    }
    Value::Array(vec![obj! {
        "physicalLocation" => obj! {"artifactLocation" => obj! {"uri" => file_uri(file)}},
        "logicalLocations" => logical,
    }])
}

/// A static finding's `fix` as SARIF `fixes` (§3.55): one fix whose
/// artifact change replaces each edit's region (empty for an insertion)
/// with its text; `None` for a finding left to a person.
fn fixes(issue: &SuiteIssue, fix: &Value) -> Option<Value> {
    let edits = fix.get("edits")?.as_array()?;
    let uri = issue.details.get("file")?.as_str()?;
    let replacements: Vec<Value> = edits
        .iter()
        .map(|e| {
            obj! {
                "deletedRegion" => obj! {
                    "startLine" => e["line"],
                    "startColumn" => e["column"],
                    "endLine" => e["endLine"],
                    "endColumn" => e["endColumn"],
                },
                "insertedContent" => obj! {"text" => e["text"]},
            }
        })
        .collect();
    Some(Value::Array(vec![obj! {
        "description" => obj! {"text" => "Write to stderr instead of stdout (mcp-stdio-guard scan --fix)"},
        "artifactChanges" => vec![obj! {
            "artifactLocation" => obj! {"uri" => file_uri(uri)},
            "replacements" => replacements,
        }],
    }]))
}

/// A path as a SARIF artifact URI: an absolute path as a `file://` URI, a
/// relative one as written (code scanning resolves it from the
/// repository's root), backslashes as slashes, and the characters a URI
/// cannot hold bare (`%`, space, `#`, `?`) escaped.
fn file_uri(path: &str) -> String {
    let mut path = path.replace('\\', "/");
    for (c, escaped) in [("%", "%25"), (" ", "%20"), ("#", "%23"), ("?", "%3F")] {
        path = path.replace(c, escaped);
    }
    let bytes = path.as_bytes();
    let drive = bytes.len() > 2 && bytes[1] == b':' && bytes[2] == b'/';
    if path.starts_with('/') {
        format!("file://{path}")
    } else if drive {
        format!("file:///{path}")
    } else {
        path.trim_start_matches("./").to_string()
    }
}

/// One issue of a suite as a SARIF result; `index` is its rule's.
fn result(suite: &Suite, issue: &SuiteIssue, index: usize) -> Value {
    let text = match &suite.entry {
        Some(entry) => format!("{entry}: {}", issue.message),
        None => issue.message.clone(),
    };
    let mut properties = issue.details.clone();
    let fix = properties.remove("fix");
    let mut result = obj! {
        "ruleId" => issue.code.as_str(),
        "ruleIndex" => index,
        "level" => level(issue.severity),
        "message" => obj! {"text" => text},
        "locations" => locations(suite, issue),
    };
    if let Some(fixes) = fix.as_ref().and_then(|f| fixes(issue, f)) {
        result["fixes"] = fixes;
    } else if let Some(left) = fix.as_ref().and_then(|f| f.get("left")) {
        properties.insert("fixLeft".into(), left.clone());
    }
    result["properties"] = Value::Object(properties);
    result
}

/// The rules seen so far, in the order their results first named them.
#[derive(Debug, Default)]
pub struct Rules {
    codes: Vec<Code>,
}

impl Rules {
    /// The results of a suite's issues (each rule indexed as it comes).
    pub fn results(&mut self, suite: &Suite) -> Vec<Value> {
        suite
            .issues
            .iter()
            .map(|issue| {
                let index = self
                    .codes
                    .iter()
                    .position(|c| *c == issue.code)
                    .unwrap_or_else(|| {
                        self.codes.push(issue.code);
                        self.codes.len() - 1
                    });
                result(suite, issue, index)
            })
            .collect()
    }

    /// The run's members besides its results: the tool and its rules, the
    /// invocation, how columns are counted.
    fn run_members(&self, command_line: &str) -> Value {
        obj! {
            "tool" => obj! {
                "driver" => obj! {
                    "name" => "mcp-stdio-guard",
                    "version" => env!("CARGO_PKG_VERSION"),
                    "informationUri" => "https://crates.io/crates/mcp-stdio-guard",
                    "rules" => self.codes.iter().map(|c| rule(*c)).collect::<Vec<_>>(),
                },
            },
            "invocations" => vec![obj! {"executionSuccessful" => true, "commandLine" => command_line}],
            "columnKind" => "unicodeCodePoints",
        }
    }
}

/// The SARIF document of one or more suites; `command_line` is the
/// invocation (the server command, or the batch).
pub fn render(suites: &[Suite], command_line: &str) -> Value {
    let mut rules = Rules::default();
    let results: Vec<Value> = suites.iter().flat_map(|s| rules.results(s)).collect();
    let mut run = rules.run_members(command_line);
    run["results"] = Value::Array(results);
    obj! {
        "$schema" => "https://json.schemastore.org/sarif-2.1.0.json",
        "version" => "2.1.0",
        "runs" => vec![run],
    }
}

/// The same document written a suite at a time, so memory holds one
/// suite's results: `head`, then `suite` for each, then `tail` (the rules
/// follow the results; JSON does not order an object's members).
#[derive(Debug, Default)]
pub struct Stream {
    rules: Rules,
    written: usize,
}

/// `text` (pretty JSON) indented by `by` spaces after its first line.
fn indented(text: &str, by: usize) -> String {
    text.trim_end()
        .replace('\n', &format!("\n{}", " ".repeat(by)))
}

impl Stream {
    /// The document up to its run's first result.
    pub fn head() -> String {
        "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"results\": [".to_string()
    }

    /// A suite's results, each after a comma but the first.
    pub fn suite(&mut self, suite: &Suite) -> String {
        let mut out = String::new();
        for r in self.rules.results(suite) {
            out.push_str(if self.written == 0 {
                "\n        "
            } else {
                ",\n        "
            });
            out.push_str(&indented(&crate::report::common::pretty(&r), 8));
            self.written += 1;
        }
        out
    }

    /// The rest of the document: the run's tool, rules and invocation.
    pub fn tail(&self, command_line: &str) -> String {
        let members = crate::report::common::pretty(&self.rules.run_members(command_line));
        // The members without their object's braces, in the run's object.
        let inner = members
            .trim_end()
            .strip_prefix('{')
            .and_then(|m| m.strip_suffix('}'))
            .unwrap_or("")
            .trim_matches('\n');
        let close = if self.written == 0 { "]" } else { "\n      ]" };
        format!(
            "{close},\n      {}\n    }}\n  ]\n}}\n",
            indented(inner.trim_start(), 4)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::file_uri;
    use super::{Stream, render};
    use crate::checks::{Code, Issue};
    use crate::verdict::suite::{Suite, SuiteIssue};

    fn suite(name: &str, issues: &[Issue]) -> Suite {
        Suite {
            name: name.into(),
            classname: "mcp-stdio-guard.lint".into(),
            command: name.into(),
            program: "in.jsonl".into(),
            script: None,
            package: None,
            entry: Some(name.into()),
            duration_ms: 0,
            checks: Vec::new(),
            issues: issues.iter().map(SuiteIssue::of).collect(),
        }
    }

    #[test]
    fn the_streamed_document_is_the_rendered_one() {
        let a = Issue::new(Code::StdoutNonJson, "a \"quoted\"\nline").with("line", 3);
        let b = Issue::new(Code::ServerExited, "gone");
        for suites in [
            vec![],
            vec![suite("x", &[])],
            vec![
                suite("x", std::slice::from_ref(&a)),
                suite("y", &[]),
                suite("z", &[b, a]),
            ],
        ] {
            let mut stream = Stream::default();
            let mut text = Stream::head();
            for s in &suites {
                text.push_str(&stream.suite(s));
            }
            text.push_str(&stream.tail("lint in.jsonl"));
            let streamed: serde_json::Value = serde_json::from_str(&text).expect(&text);
            assert_eq!(streamed, render(&suites, "lint in.jsonl"), "{text}");
        }
    }

    #[test]
    fn paths_become_artifact_uris() {
        assert_eq!(
            file_uri("/srv/a b/server.py"),
            "file:///srv/a%20b/server.py"
        );
        assert_eq!(file_uri("./dist/index.js"), "dist/index.js");
        assert_eq!(file_uri("C:\\mcp\\srv.py"), "file:///C:/mcp/srv.py");
        assert_eq!(file_uri("100%#?.py"), "100%25%23%3F.py");
    }
}
