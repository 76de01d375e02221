//! The robustness probe's verdict: every generated call (`generate`) and
//! what came back, judged. Input its schema rejects must be refused (a
//! -32602 error or an `isError` result) within the timeout, without a
//! crash; valid input must be answered with a well-formed result whose
//! `structuredContent` fits the tool's `outputSchema` (an `isError` answer
//! is the tool's own domain answer, recorded, not a finding). Every finding
//! names the tool, the arguments sent, what came back, and a command that
//! replays the call. Pure.

pub mod generate;

use serde_json::Value;

use crate::checks::schema;
use crate::checks::{Code, Issue, Severity};
use crate::jsonrpc;
use generate::{Expect, NotCalled, PlannedCall};

/// What a call got.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Result(Value),
    Error(Value),
    /// No answer within the timeout (the guard cancelled it).
    TimedOut,
    /// The server exited while the call was open: how, and the line of its
    /// stderr that names the cause.
    Crashed {
        exit: String,
        said: Option<String>,
    },
    /// Never sent, and why (the budget, an earlier crash or timeout).
    NotSent(String),
}

/// One call and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord {
    pub call: PlannedCall,
    pub outcome: Outcome,
    /// From the request to its answer (or the end of the wait).
    pub ms: u64,
}

/// One tool's line of the `robustness` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolSummary {
    pub name: String,
    /// Calls sent (invalid, valid).
    pub invalid: u64,
    pub valid: u64,
    /// Invalid calls refused as they should be.
    pub refused: u64,
    /// Valid calls answered with a result (`isError` ones included).
    pub answered: u64,
    /// Valid calls the tool answered with its own error (`isError`).
    pub domain_errors: u64,
    pub findings: u64,
    pub ms: u64,
    /// Calls planned and not sent, with why.
    pub not_sent: Vec<String>,
}

/// The whole phase, for the report and the score.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Summary {
    pub seed: u64,
    pub budget_ms: u64,
    pub duration_ms: u64,
    /// Fresh processes after a crash.
    pub restarts: u64,
    /// Processes the phase started in all.
    pub sessions: u64,
    pub tools: Vec<ToolSummary>,
    pub not_called: Vec<NotCalled>,
    pub calls_sent: u64,
    pub findings: u64,
}

/// How findings are told.
#[derive(Debug, Clone, Default)]
pub struct Judging {
    /// `--profile strict`: accepted invalid input is an error.
    pub strict: bool,
    /// The session spoke 2026-07-28 (`structuredContent` may be any JSON).
    pub modern: bool,
    /// The server's command line, shell-quoted, for the replay command.
    pub argv: String,
}

/// `text` quoted for a POSIX shell (left bare when it is plainly safe).
pub fn shell_quote(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if safe {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The command that sends the same call again.
fn replay(call: &PlannedCall, judging: &Judging) -> String {
    format!(
        "mcp-stdio-guard call {} --args {} -- {}",
        shell_quote(&call.tool),
        shell_quote(&call.arguments.to_string()),
        judging.argv
    )
}

/// A short account of an answer: its error code and message, or its
/// result's first text.
fn answer_of(outcome: &Outcome) -> String {
    let cut = |s: String| -> String {
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.chars().count() > 200 {
            s.chars().take(200).chain("…".chars()).collect()
        } else {
            s
        }
    };
    match outcome {
        Outcome::Result(r) => {
            let text = crate::checks::toolcall::text_of(r);
            let flag = if r.get("isError") == Some(&Value::Bool(true)) {
                " (isError)"
            } else {
                ""
            };
            cut(format!(
                "a result{flag}: {}",
                crate::escape::quote(text.as_bytes())
            ))
        }
        Outcome::Error(e) => cut(format!(
            "error {}: {}",
            jsonrpc::error_code(e).map_or("?".into(), |c| c.to_string()),
            jsonrpc::error_message(e)
        )),
        Outcome::TimedOut => "no answer".into(),
        Outcome::Crashed { exit, said } => match said {
            Some(line) => format!(
                "the server exited ({exit}): {}",
                crate::escape::quote(line.as_bytes())
            ),
            None => format!("the server exited ({exit})"),
        },
        Outcome::NotSent(why) => format!("not sent: {why}"),
    }
}

fn finding(code: Code, rec: &CallRecord, judging: &Judging, message: String) -> Issue {
    Issue::new(code, message)
        .with("toolName", rec.call.tool.clone())
        .with("arguments", rec.call.arguments.to_string())
        .with("tried", rec.call.what.clone())
        .with("answer", answer_of(&rec.outcome))
        .with("replay", replay(&rec.call, judging))
        .with("phase", "robustness")
}

fn is_error_result(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// The finding of an invalid call, if it earned one.
fn refused(rec: &CallRecord, judging: &Judging) -> Option<Issue> {
    let tool = &rec.call.tool;
    let what = &rec.call.what;
    let (code, message) = match &rec.outcome {
        Outcome::Result(r) if is_error_result(r) => return None,
        Outcome::Error(e) if jsonrpc::error_code(e) == Some(-32602) => return None,
        // An unknown tool may also be an unknown method to a server.
        Outcome::Error(e)
            if *tool == generate::NO_SUCH_TOOL && jsonrpc::error_code(e) == Some(-32601) =>
        {
            return None;
        }
        Outcome::Result(_) => (
            Code::ToolInvalidInputAccepted,
            format!(
                "tool {tool} accepted input its own inputSchema rejects ({what}) and answered with a success"
            ),
        ),
        Outcome::Error(e) => (
            Code::ToolInvalidInputInternalError,
            format!(
                "tool {tool} answered input its own inputSchema rejects ({what}) with error {} instead of -32602 or an isError result",
                jsonrpc::error_code(e).map_or("without a code".into(), |c| c.to_string())
            ),
        ),
        Outcome::TimedOut => (
            Code::ToolInvalidInputTimeout,
            format!(
                "tool {tool} did not answer input its own inputSchema rejects ({what}) within the timeout"
            ),
        ),
        Outcome::Crashed { exit, .. } => (
            Code::ToolInvalidInputCrash,
            format!(
                "the server exited ({exit}) while tool {tool} handled input its own inputSchema rejects ({what})"
            ),
        ),
        Outcome::NotSent(_) => return None,
    };
    let mut issue = finding(code, rec, judging, message);
    if code == Code::ToolInvalidInputAccepted && judging.strict {
        issue = issue.at(Severity::Error);
        issue.details.push(("promotedBy", "strict".into()));
    }
    Some(issue)
}

/// The findings of a valid call's result: its shape, and its
/// `structuredContent` against the tool's `outputSchema`.
fn result_findings(
    rec: &CallRecord,
    tool: Option<&Value>,
    result: &Value,
    judging: &Judging,
) -> Vec<Issue> {
    let name = &rec.call.tool;
    let mut out = Vec::new();
    if !matches!(result.get("content"), Some(Value::Array(_))) {
        out.push(finding(
            Code::ToolCallInvalidResult,
            rec,
            judging,
            format!("tool {name} answered valid input with a result whose content is not an array"),
        ));
    }
    if result.get("isError").is_some_and(|v| !v.is_boolean()) {
        out.push(finding(
            Code::ToolCallInvalidResult,
            rec,
            judging,
            format!(
                "tool {name} answered valid input with a result whose isError is not a boolean"
            ),
        ));
    }
    let Some(output_schema) = tool.and_then(|t| t.get("outputSchema")) else {
        return out;
    };
    if is_error_result(result) {
        return out;
    }
    match result.get("structuredContent") {
        None => out.push(finding(
            Code::ToolCallStructuredContentMissing,
            rec,
            judging,
            format!("tool {name} declares an outputSchema but its result to valid input has no structuredContent"),
        )),
        Some(content) => {
            let mut errors = schema::validate(content, output_schema).errors;
            if !judging.modern && !content.is_object() {
                errors.insert(0, "$: before 2026-07-28 structuredContent must be an object".into());
            }
            if !errors.is_empty() {
                out.push(finding(
                    Code::ToolCallStructuredContentInvalid,
                    rec,
                    judging,
                    format!(
                        "tool {name} answered valid input with structuredContent that does not match its outputSchema: {}",
                        errors.join("; ")
                    ),
                ));
            }
        }
    }
    out
}

/// The findings of a valid call.
fn answered(rec: &CallRecord, tool: Option<&Value>, judging: &Judging) -> Vec<Issue> {
    let name = &rec.call.tool;
    match &rec.outcome {
        Outcome::Result(r) => result_findings(rec, tool, r, judging),
        // Generated input the schema subset could not fully check may
        // break a pattern or a format: a -32602 is a fair answer.
        Outcome::Error(e) if jsonrpc::error_code(e) == Some(-32602) => Vec::new(),
        Outcome::Error(e) => vec![finding(
            Code::ToolCallInternalError,
            rec,
            judging,
            format!(
                "tool {name} answered valid input with error {} instead of a result",
                jsonrpc::error_code(e).map_or("without a code".into(), |c| c.to_string())
            ),
        )],
        Outcome::TimedOut => vec![finding(
            Code::ToolCallTimeout,
            rec,
            judging,
            format!("tool {name} did not answer valid input within the timeout"),
        )],
        Outcome::Crashed { exit, .. } => vec![finding(
            Code::ToolCallCrash,
            rec,
            judging,
            format!("the server exited ({exit}) while tool {name} handled valid input"),
        )],
        Outcome::NotSent(_) => Vec::new(),
    }
}

/// The findings of every call, and each tool's line, in the order the
/// tools were called.
pub fn judge(
    records: &[CallRecord],
    tools: &[Value],
    judging: &Judging,
) -> (Vec<Issue>, Vec<ToolSummary>) {
    let mut issues = Vec::new();
    let mut lines: Vec<ToolSummary> = Vec::new();
    for rec in records {
        let tool = tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(rec.call.tool.as_str()));
        let found = match rec.call.expect {
            Expect::Refusal => refused(rec, judging).into_iter().collect(),
            Expect::Answer => answered(rec, tool, judging),
        };
        let line = match lines.iter_mut().position(|l| l.name == rec.call.tool) {
            Some(i) => &mut lines[i],
            None => {
                lines.push(ToolSummary {
                    name: rec.call.tool.clone(),
                    ..ToolSummary::default()
                });
                lines.last_mut().expect("invariant: just pushed")
            }
        };
        line.findings += found.len() as u64;
        line.ms += rec.ms;
        match (&rec.outcome, rec.call.expect) {
            (Outcome::NotSent(why), _) => {
                if !line.not_sent.contains(why) {
                    line.not_sent.push(why.clone());
                }
            }
            (outcome, Expect::Refusal) => {
                line.invalid += 1;
                let ok = match outcome {
                    Outcome::Result(r) => is_error_result(r),
                    Outcome::Error(e) => {
                        let code = jsonrpc::error_code(e);
                        code == Some(-32602)
                            || (rec.call.tool == generate::NO_SUCH_TOOL && code == Some(-32601))
                    }
                    _ => false,
                };
                line.refused += u64::from(ok);
            }
            (outcome, Expect::Answer) => {
                line.valid += 1;
                if let Outcome::Result(r) = outcome {
                    line.answered += 1;
                    line.domain_errors += u64::from(is_error_result(r));
                }
            }
        }
        issues.extend(found);
    }
    (fold(issues), lines)
}

/// One finding per tool and code: the first call's, with how many calls
/// earned it and what each tried (a tool that refuses nothing is one
/// finding, not twelve).
fn fold(issues: Vec<Issue>) -> Vec<Issue> {
    let key = |i: &Issue| {
        (
            i.code,
            i.detail("toolName")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        )
    };
    let mut out: Vec<Issue> = Vec::new();
    let mut tried: Vec<Vec<Value>> = Vec::new();
    for issue in issues {
        let what = issue.detail("tried").cloned().unwrap_or(Value::Null);
        match out.iter().position(|o| key(o) == key(&issue)) {
            Some(at) => tried[at].push(what),
            None => {
                out.push(issue);
                tried.push(vec![what]);
            }
        }
    }
    for (issue, tried) in out.iter_mut().zip(tried) {
        if tried.len() > 1 {
            issue.message.push_str(&format!(
                " (and {} more calls like it; the first is shown)",
                tried.len() - 1
            ));
        }
        issue.details.push(("calls", Value::from(tried.len())));
        issue.details.push(("allTried", Value::Array(tried)));
    }
    out
}

/// `tool-annotations-contradict`: read-only and destructive at once.
pub fn contradictions(tools: &[&Value]) -> Vec<Issue> {
    tools
        .iter()
        .copied()
        .filter(|t| {
            t.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true))
                && t.pointer("/annotations/destructiveHint") == Some(&Value::Bool(true))
        })
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .map(|name| {
            Issue::new(
                Code::ToolAnnotationsContradict,
                format!("tool {name} is annotated readOnlyHint: true and destructiveHint: true; a client cannot tell whether calling it is safe"),
            )
            .with("toolName", name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(expect: Expect, outcome: Outcome) -> CallRecord {
        CallRecord {
            call: PlannedCall {
                tool: "add".into(),
                arguments: json!({"a": "x"}),
                expect,
                what: "property \"a\" of the wrong type".into(),
            },
            outcome,
            ms: 3,
        }
    }

    fn codes(records: &[CallRecord], strict: bool) -> Vec<(&'static str, bool)> {
        let tools = [
            json!({"name": "add", "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}}),
        ];
        let judging = Judging {
            strict,
            modern: false,
            argv: "node server.js".into(),
        };
        judge(records, &tools, &judging)
            .0
            .iter()
            .map(|i| (i.code.as_str(), i.is_error()))
            .collect()
    }

    #[test]
    fn invalid_input_must_be_refused_without_a_crash() {
        let ok = [
            rec(
                Expect::Refusal,
                Outcome::Error(json!({"code": -32602, "message": "bad"})),
            ),
            rec(
                Expect::Refusal,
                Outcome::Result(json!({"content": [], "isError": true})),
            ),
        ];
        assert_eq!(codes(&ok, false), []);
        let bad = [
            rec(
                Expect::Refusal,
                Outcome::Error(json!({"code": -32603, "message": "boom"})),
            ),
            rec(Expect::Refusal, Outcome::Result(json!({"content": []}))),
            rec(Expect::Refusal, Outcome::TimedOut),
            rec(
                Expect::Refusal,
                Outcome::Crashed {
                    exit: "code 1".into(),
                    said: None,
                },
            ),
        ];
        assert_eq!(
            codes(&bad, false),
            [
                ("tool-invalid-input-internal-error", false),
                ("tool-invalid-input-accepted", false),
                ("tool-invalid-input-timeout", true),
                ("tool-invalid-input-crash", true),
            ]
        );
        assert_eq!(
            codes(&bad[1..2], true),
            [("tool-invalid-input-accepted", true)]
        );
    }

    #[test]
    fn valid_input_must_get_a_well_formed_answer() {
        let fine = [
            rec(
                Expect::Answer,
                Outcome::Result(json!({"content": [], "structuredContent": {"sum": 1}})),
            ),
            rec(
                Expect::Answer,
                Outcome::Result(
                    json!({"content": [{"type": "text", "text": "no such city"}], "isError": true}),
                ),
            ),
        ];
        assert_eq!(codes(&fine, false), []);
        let bad = [
            rec(
                Expect::Answer,
                Outcome::Result(json!({"content": [], "structuredContent": {"sum": "one"}})),
            ),
            rec(Expect::Answer, Outcome::Result(json!({"content": []}))),
            rec(Expect::Answer, Outcome::TimedOut),
            rec(
                Expect::Answer,
                Outcome::Error(json!({"code": -32603, "message": "boom"})),
            ),
        ];
        assert_eq!(
            codes(&bad, false),
            [
                ("tool-call-structured-content-invalid", true),
                ("tool-call-structured-content-missing", true),
                ("tool-call-timeout", false),
                ("tool-call-internal-error", false),
            ]
        );
    }

    #[test]
    fn a_finding_carries_the_call_and_a_replay_command() {
        let judging = Judging {
            argv: "node 'my server.js'".into(),
            ..Judging::default()
        };
        let (issues, lines) = judge(
            &[rec(
                Expect::Refusal,
                Outcome::Result(json!({"content": []})),
            )],
            &[],
            &judging,
        );
        assert_eq!(
            issues[0].detail("replay").and_then(Value::as_str),
            Some("mcp-stdio-guard call add --args '{\"a\":\"x\"}' -- node 'my server.js'")
        );
        assert_eq!(lines[0].invalid, 1);
        assert_eq!(lines[0].refused, 0);
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
