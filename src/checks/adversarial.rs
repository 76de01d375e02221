//! Adversarial probes, judged: an unknown method and invalid params must get
//! a structured error, a notification no response, malformed JSON a parse
//! error or silence, an invalid-argument tool call an error (a JSON-RPC
//! error or `isError: true`); none of them may crash the server or put
//! anything but JSON-RPC on stdout. What the official SDKs do is accepted:
//! -32601 or -32602 for an unknown method, any structured error for invalid
//! params (a code other than -32602 is only a warning).

use serde_json::Value;

use crate::checks::{Issue, Severity};
use crate::jsonrpc::{self, Line};
use crate::transcript::{EntryKind, Role, Target, Transcript};

/// What each built-in probe expects, for the report.
pub fn expectation(name: &str) -> &'static str {
    match name {
        "invalid-method" => "a JSON-RPC error (-32601 or -32602), not a result",
        "invalid-params" => "a JSON-RPC error (-32602 preferred), not a result",
        "notification" => "no response at all",
        "malformed-json" => "a -32700 parse error or silence, and no crash",
        _ => "a JSON-RPC error or a result with isError: true",
    }
}

pub fn description(name: &str) -> &'static str {
    match name {
        "invalid-method" => {
            "calls a method the server cannot have (mcp-stdio-guard/no-such-method)"
        }
        "invalid-params" => "calls tools/list with a cursor that is a number, not a string",
        "notification" => "sends an unknown notification",
        "malformed-json" => "writes a request cut off in the middle of its JSON",
        _ => "calls a configured tool with invalid arguments",
    }
}

pub fn risk(name: &str) -> &'static str {
    match name {
        "tool-call" => "calls a real tool: configure only tools that are safe and idempotent",
        _ => "none: nothing is executed on the server's side",
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
    let mut out = Vec::new();
    let tag = |issue: Issue| issue.with("probe", rec.name.clone());
    let entries = tr.entries.get(rec.entries.clone()).unwrap_or_default();
    for e in entries {
        if let EntryKind::Exited { exit, .. } = &e.kind {
            out.push(tag(Issue::new(
                "adversarial-probe-crash",
                format!(
                    "the server exited during the {} probe (code {}, signal {})",
                    rec.name,
                    exit.code.map_or("null".into(), |c| c.to_string()),
                    exit.signal.map_or("null".into(), crate::sys::signal_name)
                ),
            )));
        }
    }
    let bad_line = entries.iter().find_map(|e| match &e.kind {
        EntryKind::Line {
            number,
            class,
            role: Role::NotAMessage,
            ..
        } if !matches!(class.line, Line::Blank) => Some(*number),
        EntryKind::Oversize { number, .. } => Some(*number),
        _ => None,
    });
    if let Some(n) = bad_line {
        out.push(tag(Issue::new(
            "adversarial-probe-invalid-stdout",
            format!(
                "stdout line {n}, written during the {} probe, is not a JSON-RPC message",
                rec.name
            ),
        )));
    }
    let messages: Vec<(&Role, &Value)> = entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Line { class, role, .. } => class.value.as_ref().map(|v| (role, v)),
            _ => None,
        })
        .collect();
    match rec.name.as_str() {
        "notification" => {
            if let Some((_, v)) = messages.iter().find(|(role, _)| {
                matches!(
                    role,
                    Role::NotificationReply | Role::ParseErrorReply | Role::UnknownId { .. }
                )
            }) {
                out.push(tag(Issue::new(
                    "adversarial-notification-response",
                    format!("the server answered a notification, which must get no response: {v}"),
                )));
            }
        }
        "malformed-json" => {
            let other = messages.iter().find(|(role, v)| {
                let parse_error = v.get("error").and_then(jsonrpc::error_code) == Some(-32700);
                let is_response = matches!(
                    role,
                    Role::ParseErrorReply | Role::UnknownId { .. } | Role::NotificationReply
                );
                is_response && !parse_error
            });
            if let Some((_, v)) = other {
                out.push(tag(Issue::new(
                    "adversarial-malformed-json-result",
                    format!("malformed JSON got an answer other than a -32700 parse error: {v}"),
                )));
            }
        }
        _ => {
            let name = rec.name.as_str();
            let timed_out = entries.iter().any(|e| {
                matches!(e.kind, EntryKind::Timeout { target: Target::Adversarial(j), .. } if j == i)
            });
            if timed_out {
                out.push(tag(Issue::new(
                    "adversarial-probe-timeout",
                    format!(
                        "no response to the {name} probe ({}) within the timeout",
                        rec.method
                    ),
                )));
            } else if let Some(error) = &rec.request.error {
                let code = jsonrpc::error_code(error);
                if name == "invalid-params" && code != Some(-32602) {
                    out.push(tag(Issue::new(
                        "adversarial-invalid-params-result",
                        format!(
                            "invalid params got error code {}, not -32602 (Invalid params)",
                            code.map_or("none".into(), |c| c.to_string())
                        ),
                    )
                    .at(Severity::Warning)));
                }
                if name == "invalid-method" && !matches!(code, Some(-32601 | -32602)) {
                    out.push(tag(Issue::new(
                        "adversarial-invalid-method-result",
                        format!(
                            "an unknown method got error code {}, not -32601 (Method not found)",
                            code.map_or("none".into(), |c| c.to_string())
                        ),
                    )
                    .at(Severity::Warning)));
                }
            } else if let Some(result) = &rec.request.result {
                let (code, what) = match name {
                    "invalid-method" => ("adversarial-invalid-method-result", "an unknown method"),
                    "invalid-params" => ("adversarial-invalid-params-result", "invalid params"),
                    _ => (
                        "adversarial-tool-call-result",
                        "a tool call with invalid arguments",
                    ),
                };
                let tool_error = result.get("isError") == Some(&Value::Bool(true));
                if !(name == "tool-call" && tool_error) {
                    out.push(tag(Issue::new(
                        code,
                        format!(
                            "{what} got a result instead of an error: {}",
                            crate::checks::quote(result.to_string().as_bytes())
                        ),
                    )));
                }
            }
        }
    }
    out
}
