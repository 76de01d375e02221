//! Adversarial probes, judged: an unknown method and invalid params must get
//! a structured error, a notification no response, malformed JSON a parse
//! error or silence, an invalid-argument tool call an error (a JSON-RPC
//! error or `isError: true`); none of them may crash the server or put
//! anything but JSON-RPC on stdout. What the official SDKs do is accepted:
//! -32601 or -32602 for an unknown method, any structured error for invalid
//! params (a code other than -32602 is only a warning). Every probe the
//! user opted into runs while the server lives; each is judged on its own.

use serde_json::Value;

use crate::args::words::Probe;
use crate::checks::{Code, Issue, Severity};
use crate::escape::quote;
use crate::jsonrpc::{self, Line};
use crate::plan::AdvProbe;
use crate::session::transcript::{AdvRecord, Entry, EntryKind, Transcript};
use crate::session::{Role, Target};

/// What each probe expects, for the report.
pub fn expectation(probe: &AdvProbe) -> &'static str {
    match probe {
        AdvProbe::Builtin(Probe::InvalidMethod) => {
            "a JSON-RPC error (-32601 or -32602), not a result"
        }
        AdvProbe::Builtin(Probe::InvalidParams) => {
            "a JSON-RPC error (-32602 preferred), not a result"
        }
        AdvProbe::Builtin(Probe::Notification) => "no response at all",
        AdvProbe::Builtin(Probe::MalformedJson) => "a -32700 parse error or silence, and no crash",
        AdvProbe::Builtin(Probe::MissingMeta) => "a -32602 error (the _meta envelope is required)",
        AdvProbe::Builtin(Probe::UnsupportedVersion) => {
            "a -32022 error whose data lists the supported versions and echoes the requested one"
        }
        AdvProbe::ToolCall { .. } => "a JSON-RPC error or a result with isError: true",
    }
}

pub fn description(probe: &AdvProbe) -> &'static str {
    match probe {
        AdvProbe::Builtin(Probe::InvalidMethod) => {
            "calls a method the server cannot have (mcp-stdio-guard/no-such-method)"
        }
        AdvProbe::Builtin(Probe::InvalidParams) => {
            "calls tools/list with a cursor that is a number, not a string"
        }
        AdvProbe::Builtin(Probe::Notification) => "sends an unknown notification",
        AdvProbe::Builtin(Probe::MalformedJson) => {
            "writes a request cut off in the middle of its JSON"
        }
        AdvProbe::Builtin(Probe::MissingMeta) => {
            "2026-07-28 only: calls tools/list without the required _meta envelope"
        }
        AdvProbe::Builtin(Probe::UnsupportedVersion) => {
            "2026-07-28 only: opens a fresh process with server/discover asking for version 1999-01-01"
        }
        AdvProbe::ToolCall { .. } => "calls a configured tool with invalid arguments",
    }
}

pub fn risk(probe: &AdvProbe) -> &'static str {
    match probe {
        AdvProbe::ToolCall { .. } => {
            "calls a real tool: configure only tools that are safe and idempotent"
        }
        AdvProbe::Builtin(_) => "none: nothing is executed on the server's side",
    }
}

pub fn check(tr: &Transcript, out: &mut Vec<Issue>) {
    for i in 0..tr.adversarial.len() {
        out.extend(probe_issues(tr, i));
    }
}

/// The issues of one probe (none when it did not run).
pub fn probe_issues(tr: &Transcript, i: usize) -> Vec<Issue> {
    let Some(rec) = tr.adversarial.get(i) else {
        return Vec::new();
    };
    if !rec.started {
        return Vec::new();
    }
    let name = rec.name();
    let tag = |issue: Issue| issue.with("probe", name);
    let entries = tr.entries.get(rec.entries.clone()).unwrap_or_default();
    let mut out: Vec<Issue> = Vec::new();
    if let Some(issue) = crash(rec, entries) {
        out.push(tag(issue));
    }
    if let Some(n) = bad_line(entries) {
        out.push(tag(Issue::new(
            Code::AdversarialProbeInvalidStdout,
            format!("stdout line {n}, written during the {name} probe, is not a JSON-RPC message"),
        )));
    }
    let messages: Vec<(&Role, Value)> = entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Line(l) => e.value().map(|v| (&l.role, v)),
            _ => None,
        })
        .collect();
    let verdict = match &rec.probe {
        AdvProbe::Builtin(Probe::Notification) => notification(&messages),
        AdvProbe::Builtin(Probe::MalformedJson) => malformed(&messages),
        _ => request(rec, i, entries),
    };
    out.extend(verdict.map(tag));
    out
}

fn crash(rec: &AdvRecord, entries: &[Entry]) -> Option<Issue> {
    entries.iter().find_map(|e| match &e.kind {
        EntryKind::Exited { exit, .. } => Some(
            Issue::new(
                Code::AdversarialProbeCrash,
                format!(
                    "the server exited during the {} probe (code {}, signal {})",
                    rec.name(),
                    exit.code.map_or("null".into(), |c| c.to_string()),
                    exit.signal.map_or("null".into(), crate::sys::signal_name)
                ),
            )
            .with("phase", "adversarial"),
        ),
        _ => None,
    })
}

/// The first stdout line of the window that was not a message.
fn bad_line(entries: &[Entry]) -> Option<u64> {
    entries.iter().find_map(|e| match &e.kind {
        EntryKind::Line(l) if l.role == Role::NotAMessage && !matches!(l.line, Line::Blank) => {
            Some(l.number)
        }
        EntryKind::Folded { line, first, .. } if !matches!(line, Line::Blank) => Some(*first),
        EntryKind::Oversize { number, .. } => Some(*number),
        _ => None,
    })
}

fn notification(messages: &[(&Role, Value)]) -> Option<Issue> {
    let (_, v) = messages.iter().find(|(role, _)| {
        matches!(
            role,
            Role::NotificationReply | Role::ParseErrorReply | Role::UnknownId { .. }
        )
    })?;
    Some(Issue::new(
        Code::AdversarialNotificationResponse,
        format!("the server answered a notification, which must get no response: {v}"),
    ))
}

fn malformed(messages: &[(&Role, Value)]) -> Option<Issue> {
    let (_, v) = messages.iter().find(|(role, v)| {
        let parse_error = v.get("error").and_then(jsonrpc::error_code) == Some(-32700);
        let is_response = matches!(
            role,
            Role::ParseErrorReply
                | Role::MalformedReply
                | Role::UnknownId { .. }
                | Role::NotificationReply
        );
        is_response && !parse_error
    })?;
    Some(Issue::new(
        Code::AdversarialMalformedJsonResult,
        format!("malformed JSON got an answer other than a -32700 parse error: {v}"),
    ))
}

/// A request probe: it must get an error (or, for a tool call, isError).
fn request(rec: &AdvRecord, i: usize, entries: &[Entry]) -> Option<Issue> {
    let name = rec.name();
    let timed_out = entries.iter().any(
        |e| matches!(e.kind, EntryKind::Timeout { target: Target::Adversarial(j), .. } if j == i),
    );
    if timed_out {
        return Some(Issue::new(
            Code::AdversarialProbeTimeout,
            format!(
                "no response to the {name} probe ({}) within the timeout",
                rec.method
            ),
        ));
    }
    if let AdvProbe::Builtin(Probe::UnsupportedVersion) = rec.probe {
        return unsupported_version(rec);
    }
    if let Some(error) = &rec.request.error {
        return error_verdict(rec, error);
    }
    let result = rec.request.result.as_ref()?;
    let (code, what) = match &rec.probe {
        AdvProbe::Builtin(Probe::InvalidMethod) => {
            (Code::AdversarialInvalidMethodResult, "an unknown method")
        }
        AdvProbe::Builtin(Probe::InvalidParams) => {
            (Code::AdversarialInvalidParamsResult, "invalid params")
        }
        AdvProbe::Builtin(Probe::MissingMeta) => (
            Code::AdversarialMissingMetaResult,
            "a request without the required _meta envelope",
        ),
        _ => (
            Code::AdversarialToolCallResult,
            "a tool call with invalid arguments",
        ),
    };
    let tool_error = result.get("isError") == Some(&Value::Bool(true));
    if matches!(rec.probe, AdvProbe::ToolCall { .. }) && tool_error {
        return None;
    }
    // The default severity is the table's: a SHOULD (invalid cursors) is a
    // warning, a MUST an error.
    Some(Issue::new(
        code,
        format!(
            "{what} got a result instead of an error: {}",
            quote(result.to_string().as_bytes())
        ),
    ))
}

/// The unsupported-version probe (MUST: -32022 listing the supported
/// versions; echoing the requested one is what the error's shape holds).
fn unsupported_version(rec: &AdvRecord) -> Option<Issue> {
    let issue = |message: String| Issue::new(Code::ModernUnsupportedVersionError, message);
    if let Some(result) = &rec.request.result {
        return Some(issue(format!(
            "server/discover asking for version {} got a result instead of a -32022 error: {}",
            crate::mcp::BOGUS_VERSION,
            quote(result.to_string().as_bytes())
        )));
    }
    let Some(error) = &rec.request.error else {
        return Some(issue(format!(
            "no answer to server/discover asking for version {}",
            crate::mcp::BOGUS_VERSION
        )));
    };
    let code = jsonrpc::error_code(error);
    if code != Some(crate::mcp::UNSUPPORTED_VERSION) {
        let code_text = code.map_or("none".into(), |c| c.to_string());
        return Some(issue(format!(
            "an unsupported version got error code {code_text}, not -32022 (Unsupported protocol version)"
        )));
    }
    match crate::mcp::unsupported_versions(error) {
        Some(list) if !list.is_empty() => {}
        _ => {
            return Some(issue(
                "the -32022 error does not list the supported versions in data.supported".into(),
            ));
        }
    }
    let echoed = error
        .get("data")
        .and_then(|d| d.get("requested"))
        .and_then(Value::as_str);
    if echoed != Some(crate::mcp::BOGUS_VERSION) {
        return Some(
            issue("the -32022 error does not echo the requested version in data.requested".into())
                .at(Severity::Warning),
        );
    }
    None
}

/// A request probe answered with an error: the right code, or a warning.
fn error_verdict(rec: &AdvRecord, error: &Value) -> Option<Issue> {
    let code = jsonrpc::error_code(error);
    let code_text = code.map_or("none".into(), |c| c.to_string());
    match &rec.probe {
        // MUST: "the server MUST reject it with JSON-RPC error code -32602".
        AdvProbe::Builtin(Probe::MissingMeta) if code != Some(-32602) => Some(Issue::new(
            Code::AdversarialMissingMetaResult,
            format!(
                "a request without _meta got error code {code_text}, not -32602 (Invalid params)"
            ),
        )),
        AdvProbe::Builtin(Probe::InvalidParams) if code != Some(-32602) => Some(
            Issue::new(
                Code::AdversarialInvalidParamsResult,
                format!("invalid params got error code {code_text}, not -32602 (Invalid params)"),
            )
            .at(Severity::Warning),
        ),
        AdvProbe::Builtin(Probe::InvalidMethod) if !matches!(code, Some(-32601 | -32602)) => Some(
            Issue::new(
                Code::AdversarialInvalidMethodResult,
                format!(
                    "an unknown method got error code {code_text}, not -32601 (Method not found)"
                ),
            )
            .at(Severity::Warning),
        ),
        _ => None,
    }
}
