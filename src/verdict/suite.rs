//! A judged report as the test-report formats see it (JUnit, SARIF): one
//! suite per server with its checks (status, the codes behind each, the
//! skip reason) and its issues. A check's report makes one; so does each
//! line of a batch's JSONL results, read back, so `check` and `batch`
//! write those formats with the same writers. Pure.

use serde_json::{Map, Value};

use crate::checks::{Code, Severity};
use crate::verdict::check::Status;
use crate::verdict::report::Report;

/// One issue of a suite.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteIssue {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Its details (`file`, `line`, `checkId`, ...), in order.
    pub details: Map<String, Value>,
}

impl SuiteIssue {
    pub fn of(i: &crate::checks::Issue) -> SuiteIssue {
        SuiteIssue {
            code: i.code,
            severity: i.severity,
            message: i.message.clone(),
            details: i
                .details
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// One check of a suite.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteCheck {
    pub name: String,
    pub status: Status,
    pub codes: Vec<String>,
    pub reason: Option<String>,
    /// A robustness check of one tool: only that tool's issues.
    pub tool: Option<String>,
}

/// One server's judged report.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// The test suite's name: the command line, or the batch entry.
    pub name: String,
    /// What test reporters group cases by.
    pub classname: String,
    /// The server argv as shown, joined.
    pub command: String,
    /// The program that ran (an absolute path where known).
    pub program: String,
    /// The script (or `python -m` module) the command's interpreter runs,
    /// where it names one.
    pub script: Option<crate::session::fingerprint::Entry>,
    /// The package (npm, PyPI) or image the command runs, where it names
    /// one.
    pub package: Option<String>,
    /// The batch entry, for a batch's suites.
    pub entry: Option<String>,
    pub duration_ms: u64,
    pub checks: Vec<SuiteCheck>,
    pub issues: Vec<SuiteIssue>,
}

/// The name of the package (or the image) a fingerprint's package block
/// names.
fn package_name(package: &Value) -> Option<String> {
    let name = package.get("name").or_else(|| package.get("image"));
    name.and_then(Value::as_str).map(String::from)
}

impl Suite {
    /// The issues behind a check: those whose code it names.
    pub fn issues_of<'a>(&'a self, check: &'a SuiteCheck) -> impl Iterator<Item = &'a SuiteIssue> {
        self.issues.iter().filter(|i| {
            check.codes.iter().any(|c| c == i.code.as_str())
                && check.tool.as_deref().is_none_or(|t| {
                    i.details.get("toolName").and_then(Value::as_str) == Some(t)
                        && i.details.get("phase").and_then(Value::as_str) == Some("robustness")
                })
        })
    }

    /// One testcase per tool the robustness phase called: its findings.
    fn add_robustness(&mut self, tools: &[String]) {
        for tool in tools {
            let mine: Vec<&SuiteIssue> = self
                .issues
                .iter()
                .filter(|i| {
                    i.details.get("toolName").and_then(Value::as_str) == Some(tool.as_str())
                        && i.details.get("phase").and_then(Value::as_str) == Some("robustness")
                })
                .collect();
            let mut codes: Vec<String> = mine.iter().map(|i| i.code.as_str().to_string()).collect();
            crate::order::sort(&mut codes);
            codes.dedup();
            let status = if mine.iter().any(|i| i.is_error()) {
                Status::Fail
            } else if mine.is_empty() {
                Status::Pass
            } else {
                Status::Warning
            };
            self.checks.push(SuiteCheck {
                name: format!("robustness: {tool}"),
                status,
                codes,
                reason: None,
                tool: Some(tool.clone()),
            });
        }
    }

    /// The suite of a check's report.
    pub fn of_report(r: &Report) -> Suite {
        let mut checks: Vec<SuiteCheck> = r
            .checks
            .named()
            .iter()
            .map(|(name, _, c)| SuiteCheck {
                name: (*name).to_string(),
                status: c.status,
                codes: c.codes.iter().map(|c| c.as_str().to_string()).collect(),
                reason: c.reason.map(String::from),
                tool: None,
            })
            .collect();
        if let Some(repeat) = &r.repeat {
            checks.push(SuiteCheck {
                name: "repeat".into(),
                status: repeat.check.status,
                codes: repeat
                    .check
                    .codes
                    .iter()
                    .map(|c| c.as_str().to_string())
                    .collect(),
                reason: None,
                tool: None,
            });
        }
        let command = r.subject.command.join(" ");
        let mut suite = Suite {
            name: command.clone(),
            classname: format!("mcp-stdio-guard.{}", r.subject.mode),
            program: r
                .first()
                .executable
                .clone()
                .or_else(|| r.subject.command.first().cloned())
                .unwrap_or_default(),
            script: crate::session::fingerprint::script_of(&r.subject.command),
            package: package_name(&r.subject.package),
            command,
            entry: None,
            duration_ms: r.first().duration_ms,
            checks,
            issues: r.issues.iter().map(SuiteIssue::of).collect(),
        };
        if let Some(rb) = &r.robustness {
            let tools: Vec<String> = rb.tools.iter().map(|t| t.name.clone()).collect();
            suite.add_robustness(&tools);
        }
        suite
    }

    /// The suite of a `scan` run: its findings as `static-stdout-write`
    /// errors (each with its `fix`), no checks.
    pub fn of_scan(r: &crate::scan::ScanReport) -> Suite {
        let issues = crate::checks::static_scan(r, true)
            .iter()
            .map(SuiteIssue::of)
            .collect();
        Suite {
            name: "mcp-stdio-guard scan".into(),
            classname: "mcp-stdio-guard.scan".into(),
            command: r.roots.join(" "),
            program: String::new(),
            script: None,
            package: None,
            entry: None,
            duration_ms: 0,
            checks: Vec::new(),
            issues,
        }
    }

    /// The suite of one line of a batch's results (`check --json` with its
    /// `batch` tag), or `None` for a line that is not one. A run that
    /// produced no report counts as one failed check.
    pub fn of_batch_line(v: &Value) -> Option<Suite> {
        let entry = v.get("batch")?.get("entry")?.as_str()?.to_string();
        let argv: Vec<&str> = v
            .get("command")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut issues: Vec<SuiteIssue> = v
            .get("issues")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(issue_of)
            .collect();
        let mut checks: Vec<SuiteCheck> = v
            .get("checks")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, c)| check_of(name, c))
            .collect();
        if let Some(error) = v.get("error").and_then(Value::as_str) {
            // The guard refused the entry or could not run: no report.
            issues.push(SuiteIssue {
                code: Code::BatchRunFailed,
                severity: Severity::Error,
                message: error.to_string(),
                details: Map::new(),
            });
            checks.push(SuiteCheck {
                name: "run".into(),
                status: Status::Fail,
                codes: vec![Code::BatchRunFailed.as_str().into()],
                reason: None,
                tool: None,
            });
        }
        let mut suite = Suite {
            name: entry.clone(),
            classname: entry.clone(),
            command: argv.join(" "),
            program: argv.first().map(|p| p.to_string()).unwrap_or_default(),
            script: crate::session::fingerprint::script_of(
                &argv.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            ),
            package: package_name(&v["fingerprint"]["package"]),
            entry: Some(entry),
            duration_ms: v["batch"]["durationMs"].as_u64().unwrap_or(0),
            checks,
            issues,
        };
        let tools: Vec<String> = v
            .pointer("/robustness/tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(String::from))
            .collect();
        suite.add_robustness(&tools);
        Some(suite)
    }
}

fn check_of(name: &str, c: &Value) -> SuiteCheck {
    let status = match c.get("status").and_then(Value::as_str) {
        Some("fail") => Status::Fail,
        Some("warning") => Status::Warning,
        Some("skipped") => Status::Skipped,
        _ => Status::Pass,
    };
    SuiteCheck {
        name: name.to_string(),
        status,
        codes: c
            .get("issueCodes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        reason: c.get("reason").and_then(Value::as_str).map(String::from),
        tool: None,
    }
}

fn issue_of(i: &Value) -> Option<SuiteIssue> {
    let obj = i.as_object()?;
    let code = Code::parse(obj.get("code")?.as_str()?)?;
    let severity = match obj.get("severity")?.as_str()? {
        "error" => Severity::Error,
        _ => Severity::Warning,
    };
    let details: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "severity" | "code" | "message" | "class"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(SuiteIssue {
        code,
        severity,
        message: obj.get("message")?.as_str().unwrap_or("").to_string(),
        details,
    })
}
