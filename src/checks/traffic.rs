//! What the server starts on its own: its requests (ids never reused, only
//! `ping` before the initialize response, nothing for a capability the guard
//! did not declare) and its notifications (`notifications/message` only
//! with the `logging` capability, progress only for a token the guard sent,
//! which it never does).

use serde_json::Value;

use crate::checks::{Code, Issue, Severity};
use crate::mcp;
use crate::session::transcript::Transcript;
use crate::session::{Answer, Role, Target};

/// The client capability each server request needs.
fn capability_for(method: &str) -> &str {
    match method {
        "roots/list" => "roots",
        "sampling/createMessage" => "sampling",
        "elicitation/create" => "elicitation",
        m if m.starts_with("tasks/") => "tasks",
        _ => "",
    }
}

/// State carried from line to line.
#[derive(Debug, Default)]
pub struct Traffic {
    /// Ids of the server's requests so far.
    ids: Vec<Value>,
    /// Whether the initialize response has been seen.
    init_answered: bool,
}

impl Traffic {
    /// The issues of one stdout message, given its role and parsed value.
    /// `version` is the protocol version whose rules apply; `provoked`
    /// says the message came while an adversarial probe was feeding the
    /// server invalid input.
    pub fn line(
        &mut self,
        tr: &Transcript,
        version: &str,
        n: u64,
        role: &Role,
        value: &Value,
        provoked: bool,
    ) -> Vec<Issue> {
        let method = value.get("method").and_then(Value::as_str).unwrap_or("");
        if tr.modern() {
            return crate::checks::modern::traffic(n, role, method, value)
                .into_iter()
                .collect();
        }
        match role {
            Role::Reply(Target::Initialize) => {
                self.init_answered = true;
                Vec::new()
            }
            Role::ServerRequest(answer) => self.request(version, n, method, value, *answer),
            Role::Notification => notification(tr, n, method, value, provoked)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A request the server sent: its id, its timing, its capability.
    fn request(
        &mut self,
        version: &str,
        n: u64,
        method: &str,
        value: &Value,
        answer: Answer,
    ) -> Vec<Issue> {
        let mut out = Vec::new();
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        if self.ids.contains(&id) {
            out.push(Issue::new(
                Code::ServerRequestIdReused,
                format!(
                    "the server's {method} request (stdout line {n}) reuses id {id}, which it already used in this session"
                ),
            ));
        } else {
            self.ids.push(id.clone());
        }
        if method == "ping" {
            return out;
        }
        if !self.init_answered {
            out.push(Issue::new(
                Code::ServerRequestBeforeInitialize,
                format!(
                    "the server sent a {method} request (stdout line {n}) before it answered initialize; only ping may come first"
                ),
            ));
        }
        let answered = match answer {
            Answer::NotAnswered => "stdin was already closed, so it was not answered",
            _ => "the guard answered -32601 (method not found)",
        };
        let needs = match capability_for(method) {
            "" => "a capability".to_string(),
            cap => format!("the {cap} capability"),
        };
        let severity = if mcp::at_least(version, mcp::CAPABILITIES_MUST_FROM) {
            Severity::Error
        } else {
            Severity::Warning
        };
        out.push(
            Issue::new(
                Code::ServerRequestUndeclaredCapability,
                format!(
                    "the server sent a {method} request (id {id}, stdout line {n}), which needs {needs} the guard did not declare; {answered}"
                ),
            )
            .at(severity)
            .with("method", method),
        );
        out
    }
}

/// A notification the server sent on its own.
fn notification(
    tr: &Transcript,
    n: u64,
    method: &str,
    value: &Value,
    provoked: bool,
) -> Option<Issue> {
    match method {
        "notifications/message" if !advertises_logging(tr) => {
            // The Python SDK logs the error a malformed request caused this
            // way: still wrong, but provoked by the guard's own invalid
            // input, so a warning.
            let (severity, why) = if provoked {
                (
                    Severity::Warning,
                    ", in reaction to an adversarial probe's invalid input",
                )
            } else {
                (Severity::Error, "")
            };
            Some(
                Issue::new(
                    Code::LoggingWithoutCapability,
                    format!(
                        "the server sent notifications/message (stdout line {n}) without advertising the logging capability{why}; log to stderr instead"
                    ),
                )
                .at(severity)
                .with("method", method),
            )
        }
        "notifications/progress" => {
            let token = value
                .pointer("/params/progressToken")
                .map_or("(none)".to_string(), Value::to_string);
            Some(
                Issue::new(
                    Code::ProgressUnknownToken,
                    format!(
                        "the server sent progress for token {token} (stdout line {n}), but the guard sent no progress token"
                    ),
                )
                .with("method", method),
            )
        }
        _ => None,
    }
}

fn advertises_logging(tr: &Transcript) -> bool {
    tr.init_result()
        .is_some_and(|r| mcp::advertised(r).contains(&"logging"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(
        version: &str,
        lines: &[(Role, Value)],
        init: Value,
    ) -> Vec<(&'static str, &'static str)> {
        let mut tr = Transcript::for_tests();
        tr.init_reply = Some(Ok(init));
        let mut t = Traffic::default();
        let mut out = Vec::new();
        for (n, (role, value)) in lines.iter().enumerate() {
            out.extend(t.line(&tr, version, n as u64 + 1, role, value, false));
        }
        out.iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect()
    }

    fn request(id: Value, method: &str) -> (Role, Value) {
        (
            Role::ServerRequest(Answer::MethodNotFound),
            json!({"jsonrpc": "2.0", "id": id, "method": method}),
        )
    }

    fn init_reply() -> (Role, Value) {
        (
            Role::Reply(Target::Initialize),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
        )
    }

    #[test]
    fn ping_is_always_fine_and_ids_must_not_repeat() {
        let lines = [
            request(json!(1), "ping"),
            init_reply(),
            request(json!(1), "ping"),
        ];
        assert_eq!(
            run("2025-11-25", &lines, json!({})),
            [("server-request-id-reused", "error")]
        );
    }

    #[test]
    fn undeclared_capability_requests_are_errors_from_2025_06_18() {
        let lines = [init_reply(), request(json!("s1"), "sampling/createMessage")];
        assert_eq!(
            run("2025-06-18", &lines, json!({})),
            [("server-request-undeclared-capability", "error")]
        );
        assert_eq!(
            run("2025-03-26", &lines, json!({})),
            [("server-request-undeclared-capability", "warning")]
        );
    }

    #[test]
    fn a_request_before_the_initialize_response_is_a_warning() {
        let lines = [request(json!(7), "roots/list"), init_reply()];
        assert_eq!(
            run("2025-11-25", &lines, json!({})),
            [
                ("server-request-before-initialize", "warning"),
                ("server-request-undeclared-capability", "error"),
            ]
        );
    }

    #[test]
    fn logging_needs_the_capability_and_progress_needs_a_token() {
        let log = (
            Role::Notification,
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}),
        );
        let progress = (
            Role::Notification,
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}),
        );
        let lines = [log.clone(), progress];
        assert_eq!(
            run("2025-11-25", &lines, json!({"capabilities": {}})),
            [
                ("logging-without-capability", "error"),
                ("progress-unknown-token", "error")
            ]
        );
        assert!(
            run(
                "2025-11-25",
                &[log],
                json!({"capabilities": {"logging": {}}})
            )
            .is_empty()
        );
    }
}
