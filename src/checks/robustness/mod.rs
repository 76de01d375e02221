//! The robustness probe's verdict: every generated call (`generate`) and
//! what came back, judged. Input its schema rejects must be refused (a
//! -32602 error or an `isError` result) within the timeout, without a
//! crash; valid input must be answered with a well-formed result whose
//! `structuredContent` fits the tool's `outputSchema` (an `isError` answer
//! is the tool's own domain answer, recorded, not a finding). Every finding
//! names the tool, the arguments sent, what came back, and a command that
//! replays the call. Pure.

pub mod generate;
pub mod records;

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
    /// The valid calls' latency, median and 95th percentile (ms).
    pub p50_ms: u64,
    pub p95_ms: u64,
    /// The largest answer: bytes, and tokens estimated as the context
    /// cost estimates them (bytes/4).
    pub largest_bytes: u64,
    pub largest_tokens: u64,
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
    /// The run's `--timeout`, given to the replay too.
    pub timeout_ms: u64,
    /// The values of the variables the guard forwarded to the server
    /// (`--env`): an answer holding one leaks it.
    pub secrets: Vec<String>,
}

/// The SDK whose own request validation wrote an error, told by the
/// error's shape (its message and data): zod's issues (the TypeScript SDK),
/// pydantic's (the Python SDK), serde's (rmcp). The deviation is the
/// SDK's, not the tool's code: the finding names it.
fn sdk_check(error: &Value) -> Option<&'static str> {
    let text = format!(
        "{} {}",
        error.get("message").and_then(Value::as_str).unwrap_or(""),
        error.get("data").map(Value::to_string).unwrap_or_default()
    );
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if has(&[
        "invalid_type",
        "Expected object, received",
        "ZodError",
        "\"code\": \"invalid_",
    ]) {
        Some("the TypeScript SDK")
    } else if has(&[
        "validation error for",
        "Input should be a valid",
        "Field required",
        "pydantic",
    ]) {
        Some("the Python SDK")
    } else if has(&["invalid type:", "failed to deserialize", "missing field `"]) {
        Some("rmcp")
    } else {
        None
    }
}

/// What in a tool's answer says the tool ran and failed, rather than
/// refused its input: a runtime's traceback or error, by its words.
const RUNTIME_FAILURES: &[(&str, &str)] = &[
    ("Traceback (most recent call last)", "a Python traceback"),
    ("object has no attribute", "a Python attribute error"),
    ("object is not subscriptable", "a Python type error"),
    ("unsupported operand type", "a Python type error"),
    (
        "TypeError: Cannot read properties of",
        "a JavaScript type error",
    ),
    ("is not a function", "a JavaScript type error"),
    ("[object Object]", "a JavaScript object turned to text"),
    ("is not defined\n    at ", "a JavaScript reference error"),
    ("\n    at ", "a JavaScript stack trace"),
    ("goroutine ", "a Go panic"),
    ("panic: runtime error", "a Go panic"),
    (
        "invalid memory address or nil pointer dereference",
        "a Go panic",
    ),
    ("java.lang.", "a Java exception"),
    ("Exception in thread", "a Java exception"),
    ("\tat ", "a Java stack trace"),
    ("NullReferenceException", "a .NET exception"),
    ("   at System.", "a .NET stack trace"),
    ("panicked at", "a Rust panic"),
    (
        "called `Option::unwrap()` on a `None` value",
        "a Rust panic",
    ),
];

/// The runtime failure an answer's text shows, if any.
pub fn runtime_failure(text: &str) -> Option<&'static str> {
    RUNTIME_FAILURES
        .iter()
        .find(|(needle, _)| text.contains(needle))
        .map(|(_, what)| *what)
}

/// The text of an answer (a result's text, an error's message and data).
fn answer_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Result(r) => crate::checks::toolcall::text_of(r),
        Outcome::Error(e) => {
            let data = e.get("data").map(|d| d.to_string()).unwrap_or_default();
            format!("{} {data}", jsonrpc::error_message(e))
        }
        _ => String::new(),
    }
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

/// The command that sends exactly the same request again: `--raw-args`
/// skips the client-side checks the probe's input was built to break.
fn replay(call: &PlannedCall, judging: &Judging) -> String {
    format!(
        "mcp-stdio-guard call {} --raw-args {} --timeout {} -- {}",
        shell_quote(&call.tool),
        shell_quote(&call.arguments.to_string()),
        judging.timeout_ms.max(100),
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

/// The most of an answer a finding keeps (its JSON, cut on a character).
const EXCERPT: usize = 4096;

fn finding(code: Code, rec: &CallRecord, judging: &Judging, message: String) -> Issue {
    let request = serde_json::json!({"name": rec.call.tool, "arguments": rec.call.arguments});
    let excerpt = match &rec.outcome {
        Outcome::Result(v) | Outcome::Error(v) => {
            let text = v.to_string();
            let mut end = text.len().min(EXCERPT);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            Value::from(&text[..end])
        }
        _ => Value::Null,
    };
    Issue::new(code, message)
        .with("toolName", rec.call.tool.clone())
        .with("arguments", rec.call.arguments.to_string())
        .with("tried", rec.call.what.clone())
        .with("answer", answer_of(&rec.outcome))
        .with("request", request.to_string())
        .with("answerExcerpt", excerpt)
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
    let ran = runtime_failure(&answer_text(&rec.outcome));
    let (code, message) = match &rec.outcome {
        Outcome::Result(r) if ran.is_some() => (
            Code::ToolInvalidInputRan,
            format!(
                "tool {tool} ran on input its own inputSchema rejects ({what}) and failed: its {} answer shows {}",
                if is_error_result(r) {
                    "isError"
                } else {
                    "success"
                },
                ran.unwrap_or_default()
            ),
        ),
        Outcome::Result(r) if is_error_result(r) => return None,
        Outcome::Error(e) if jsonrpc::error_code(e) == Some(-32602) => return None,
        // An unknown tool may also be an unknown method to a server.
        Outcome::Error(e)
            if *tool == generate::NO_SUCH_TOOL && jsonrpc::error_code(e) == Some(-32601) =>
        {
            return None;
        }
        Outcome::Result(_) if *tool == generate::NO_SUCH_TOOL => (
            Code::ToolInvalidInputAccepted,
            format!(
                "the server answered a call of a tool it does not list ({tool}) with a success, not an error"
            ),
        ),
        Outcome::Result(_) => (
            Code::ToolInvalidInputAccepted,
            format!(
                "tool {tool} accepted input its own inputSchema rejects ({what}) and answered with a success"
            ),
        ),
        Outcome::Error(e) => (
            Code::ToolInvalidInputInternalError,
            format!(
                "tool {tool} answered input its own inputSchema rejects ({what}) with error {}{} instead of -32602 or an isError result",
                jsonrpc::error_code(e).map_or("without a code".into(), |c| c.to_string()),
                sdk_check(e).map_or(String::new(), |sdk| format!(
                    " from {sdk}'s own request validation, before the tool ran"
                ))
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
    if let Outcome::Error(e) = &rec.outcome
        && let Some(sdk) = sdk_check(e)
    {
        issue.details.push(("sdk", sdk.into()));
    }
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

/// A result without the base64 of its binary content (an image's or an
/// audio clip's `data`, an embedded resource's `blob`): bytes the spec
/// puts there, not a credential however random they look.
fn without_binary(result: &Value) -> Value {
    match result {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, v)| {
                    let binary = (*k == "blob" || *k == "data")
                        && v.is_string()
                        && (m.contains_key("mimeType") || m.contains_key("uri"));
                    !binary
                })
                .map(|(k, v)| (k.clone(), without_binary(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_binary).collect()),
        other => other.clone(),
    }
}

/// Whether a credential-shaped word is an identifier a tool shows as a
/// matter of course: a UUID (a record's id, a client id), or a name made of
/// words (`rcu_exp_par_gp_kthread_worker/0`: every part between `_`, `-`,
/// `.` or `/` lower-case letters, digits, or four characters at most). A
/// key's parts mix cases and digits (`wJalrXUtnFEMI/K7MDENG/…`).
fn an_identifier(w: &str) -> bool {
    let uuid = w.len() == 36
        && w.split('-').map(str::len).eq([8, 4, 4, 4, 12])
        && w.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit());
    let words = w.split(['_', '-', '.', '/']).all(|part| {
        part.len() <= 4
            || part.bytes().all(|b| b.is_ascii_lowercase())
            || part.bytes().all(|b| b.is_ascii_digit())
    });
    uuid || words
}

/// An answer that holds a forwarded variable's value (an error) or a
/// credential-shaped string (a warning). The value itself is never put in
/// the finding (and every output scrubs it).
fn leak(rec: &CallRecord, judging: &Judging) -> Option<Issue> {
    let text = match &rec.outcome {
        Outcome::Result(r) => r.to_string(),
        Outcome::Error(e) => e.to_string(),
        _ => return None,
    };
    let tool = &rec.call.tool;
    if judging
        .secrets
        .iter()
        .any(|s| s.len() >= 6 && text.contains(s.as_str()))
    {
        let message =
            format!("tool {tool}'s answer holds the value of a variable forwarded to the server");
        return Some(finding(Code::ToolAnswerSecret, rec, judging, message));
    }
    let text = match &rec.outcome {
        Outcome::Result(r) => without_binary(r).to_string(),
        _ => text,
    };
    let words = text.split(|c: char| c.is_whitespace() || "\"'`,;()[]{}<>=:".contains(c));
    if words
        .filter(|w| w.len() >= 20)
        .any(|w| crate::redact::looks_like_credential(w) && !an_identifier(w))
    {
        let message = format!("tool {tool}'s answer holds a string shaped like a credential");
        return Some(finding(Code::ToolAnswerSecret, rec, judging, message).at(Severity::Warning));
    }
    None
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
        let mut found: Vec<Issue> = match rec.call.expect {
            Expect::Refusal => refused(rec, judging).into_iter().collect(),
            Expect::Answer => answered(rec, tool, judging),
        };
        // One leak a tool is enough to say.
        let told = issues.iter().any(|i: &Issue| {
            i.code == Code::ToolAnswerSecret
                && i.detail("toolName").and_then(Value::as_str) == Some(rec.call.tool.as_str())
        });
        if !told {
            found.extend(leak(rec, judging));
        }
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
        count(line, rec, found.len());
        issues.extend(found);
    }
    latencies(&mut lines, records);
    (fold(issues), lines)
}

/// One call counted on its tool's line.
fn count(line: &mut ToolSummary, rec: &CallRecord, found: usize) {
    line.findings += found as u64;
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
    let size = match &rec.outcome {
        Outcome::Result(v) | Outcome::Error(v) => v.to_string().len() as u64,
        _ => 0,
    };
    line.largest_bytes = line.largest_bytes.max(size);
    line.largest_tokens = line.largest_bytes.div_ceil(4);
}

/// Each tool's median and 95th-percentile latency of its answered valid
/// calls.
fn latencies(lines: &mut [ToolSummary], records: &[CallRecord]) {
    for line in lines.iter_mut() {
        let mut ms: Vec<u64> = records
            .iter()
            .filter(|r| r.call.tool == line.name && r.call.expect == Expect::Answer)
            .filter(|r| matches!(r.outcome, Outcome::Result(_) | Outcome::Error(_)))
            .map(|r| r.ms)
            .collect();
        crate::order::sort(&mut ms);
        let at = |q: usize| {
            ms.get((ms.len().saturating_sub(1) * q).div_ceil(100))
                .copied()
                .unwrap_or(0)
        };
        (line.p50_ms, line.p95_ms) = (at(50), at(95));
    }
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

/// `tool-annotations-contradict` from what a tool did (`--confine`): a
/// tool annotated `readOnlyHint: true` that wrote outside the write trees,
/// connected out or ran a program while its call was the one under way.
pub fn read_only_broken(tools: &[Value], logs: &[crate::session::confine::Log]) -> Vec<Issue> {
    use crate::session::confine::Kind;
    let mut out: Vec<Issue> = Vec::new();
    for tool in tools
        .iter()
        .filter(|t| t.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true)))
    {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let phase = format!("tools/call {name}");
        let acted = logs.iter().flat_map(|l| &l.events).find(|e| {
            e.phase == phase
                && matches!(
                    e.kind,
                    Kind::WriteOutside | Kind::Network | Kind::Exec | Kind::HiddenExec
                )
        });
        if let Some(e) = acted {
            out.push(
                Issue::new(
                    Code::ToolAnnotationsContradict,
                    format!(
                        "tool {name} is annotated readOnlyHint: true, but during its call the server did {} {}",
                        e.kind.as_str(),
                        crate::escape::quote(e.target.as_bytes())
                    ),
                )
                .with("toolName", name)
                .with("event", e.kind.as_str())
                .with("target", e.target.clone())
                .with("phase", "robustness"),
            );
        }
    }
    out
}

#[cfg(test)]
mod sdk_tests {
    use super::sdk_check;
    use serde_json::json;

    #[test]
    fn an_sdks_own_validation_error_is_told_by_its_shape() {
        let zod = json!({"code": -32603, "message": "[{\"code\": \"invalid_type\", \"expected\": \"object\", \"received\": \"array\", \"path\": [\"params\", \"arguments\"]}]"});
        assert_eq!(sdk_check(&zod), Some("the TypeScript SDK"));
        let pydantic = json!({"code": -32603, "message": "1 validation error for CallToolRequestParams\narguments\n  Input should be a valid dictionary"});
        assert_eq!(sdk_check(&pydantic), Some("the Python SDK"));
        let serde = json!({"code": -32603, "message": "invalid type: sequence, expected a map"});
        assert_eq!(sdk_check(&serde), Some("rmcp"));
        assert_eq!(
            sdk_check(&json!({"code": -32603, "message": "Internal error"})),
            None
        );
    }
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
            timeout_ms: 5000,
            secrets: Vec::new(),
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
    fn a_tool_that_ran_on_bad_input_is_told_from_one_that_refused_it() {
        let text = |t: &str, is_error: bool| {
            Outcome::Result(json!({"content": [{"type": "text", "text": t}], "isError": is_error}))
        };
        let traceback = "Traceback (most recent call last):\n  File \"s.py\", line 3\nAttributeError: 'dict' object has no attribute 'lower'";
        assert_eq!(
            codes(&[rec(Expect::Refusal, text(traceback, true))], false),
            [("tool-invalid-input-ran", true)]
        );
        assert_eq!(
            codes(
                &[rec(
                    Expect::Refusal,
                    text("GET /rooms/[object Object] failed", false)
                )],
                false
            ),
            [("tool-invalid-input-ran", true)]
        );
        assert!(
            codes(
                &[rec(Expect::Refusal, text("a must be a number", true))],
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn an_answer_holding_a_forwarded_value_or_a_credential_is_a_leak() {
        let judging = Judging {
            secrets: vec!["sk-live-forwarded-value-123".into()],
            ..Judging::default()
        };
        let answer =
            |t: &str| Outcome::Error(json!({"code": -32602, "message": format!("bad key {t}")}));
        let (issues, _) = judge(
            &[rec(Expect::Refusal, answer("sk-live-forwarded-value-123"))],
            &[],
            &judging,
        );
        assert_eq!(
            (issues[0].code, issues[0].is_error()),
            (Code::ToolAnswerSecret, true)
        );
        assert!(
            !issues[0].message.contains("sk-live"),
            "the value is not in the message"
        );
        let (issues, _) = judge(
            &[rec(
                Expect::Refusal,
                answer("ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
            )],
            &[],
            &judging,
        );
        assert_eq!(
            (issues[0].code, issues[0].is_error()),
            (Code::ToolAnswerSecret, false)
        );
        let (issues, _) = judge(
            &[rec(
                Expect::Refusal,
                answer("/usr/local/share/some/long/path"),
            )],
            &[],
            &judging,
        );
        assert!(issues.is_empty(), "{issues:?}");
    }

    /// What real servers answer as a matter of course is not a leak: a
    /// UUID, kernel thread names, an embedded resource's base64 `blob`; a
    /// key is, in a result too.
    #[test]
    fn ids_names_and_binary_content_are_not_credentials() {
        let result = |content: Value| Outcome::Result(json!({"content": content}));
        let quiet = [
            json!([{"type": "text", "text": "clientId: 244783e4-3000-4a76-bdb8-196a19605ea0"}]),
            json!([{"type": "text", "text": "PID: 9, Command: [rcu_exp_par_gp_kthread_worker/0] [kworker/R-ipv6_addrconf] [0-ext4-rsv-conversion]"}]),
            json!([{"type": "resource", "resource": {"uri": "demo://resource/2", "mimeType": "text/plain",
                "blob": "UmVzb3VyY2UgMjogVGhpcyBpcyBhIGJhc2U2NCBibG9iIGNyZWF0ZWQgYXQgMTA6Mjk6MzUgQU0="}}]),
            json!([{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"}]),
        ];
        for content in quiet {
            let (issues, _) = judge(
                &[rec(Expect::Answer, result(content.clone()))],
                &[],
                &Judging::default(),
            );
            assert!(
                !issues.iter().any(|i| i.code == Code::ToolAnswerSecret),
                "{content}: {issues:?}"
            );
        }
        let key = json!([{"type": "text", "text": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY3XAMPLEKEY"}]);
        let (issues, _) = judge(
            &[rec(Expect::Answer, result(key))],
            &[],
            &Judging::default(),
        );
        assert!(
            issues.iter().any(|i| i.code == Code::ToolAnswerSecret),
            "{issues:?}"
        );
    }

    #[test]
    fn a_finding_carries_the_call_and_a_replay_command() {
        let judging = Judging {
            argv: "node 'my server.js'".into(),
            timeout_ms: 1500,
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
            Some(
                "mcp-stdio-guard call add --raw-args '{\"a\":\"x\"}' --timeout 1500 -- node 'my server.js'"
            )
        );
        assert_eq!(lines[0].invalid, 1);
        assert_eq!(lines[0].refused, 0);
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
