//! JSON-RPC correlation: one table of every request the guard sent, by id,
//! with what became of it (pending, abandoned after a timeout, answered),
//! and the rule that tells a response to one of them from a late one, a
//! duplicate, an id of the wrong type, or an id the guard never sent.

use serde_json::Value;

use super::{Role, Target};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Pending,
    /// The guard stopped waiting (a timeout).
    Abandoned,
    Answered,
}

#[derive(Debug)]
struct Sent {
    id: u64,
    target: Target,
    method: String,
    state: State,
}

/// Every request of the session, in id order.
#[derive(Debug, Default)]
pub struct Requests {
    sent: Vec<Sent>,
    /// Whether the guard has sent a notification (a response without an id
    /// after one answers the notification).
    notified: bool,
}

/// Whether a response id is exactly the id the guard sent (type included).
pub fn id_is(id: &Value, sent: u64) -> bool {
    id.as_u64() == Some(sent) && !id.is_f64()
}

/// Whether a response id equals the sent id only after a type change
/// (`"1"` for `1`).
pub fn id_loosely_is(id: &Value, sent: u64) -> bool {
    match id {
        Value::String(s) => s.trim() == sent.to_string(),
        _ => false,
    }
}

impl Requests {
    /// Notes a request about to be sent and returns its id (1, 2, ...).
    pub fn issue(&mut self, target: Target, method: &str) -> u64 {
        let id = self.sent.len() as u64 + 1;
        self.sent.push(Sent {
            id,
            target,
            method: method.to_string(),
            state: State::Pending,
        });
        id
    }

    pub fn note_notification(&mut self) {
        self.notified = true;
    }

    pub fn is_pending(&self, target: Target) -> bool {
        self.sent
            .iter()
            .any(|s| s.target == target && s.state == State::Pending)
    }

    /// Stops waiting for `target`; a response that comes later is late.
    pub fn abandon(&mut self, target: Target) {
        for s in self
            .sent
            .iter_mut()
            .filter(|s| s.target == target && s.state == State::Pending)
        {
            s.state = State::Abandoned;
        }
    }

    /// The oldest request still awaited, if any.
    pub fn first_pending(&self) -> Option<(Target, u64)> {
        self.sent
            .iter()
            .find(|s| s.state == State::Pending)
            .map(|s| (s.target, s.id))
    }

    /// The pending request a server request echoes (same id and method).
    pub fn echoed(&self, id: &Value, method: &str) -> Option<Target> {
        self.sent
            .iter()
            .find(|s| s.state == State::Pending && id_is(id, s.id) && s.method == method)
            .map(|s| s.target)
    }

    /// What a response with this id (and error code) is. An exact match of
    /// a pending request answers it.
    pub fn response(&mut self, id: Option<&Value>, error_code: Option<i64>) -> Role {
        let Some(id) = id.filter(|id| !id.is_null()) else {
            if matches!(error_code, Some(-32700 | -32600)) {
                return Role::ParseErrorReply;
            }
            if self.notified {
                return Role::NotificationReply;
            }
            return Role::UnknownId {
                pending: self.first_pending(),
            };
        };
        if id.as_str() == Some(crate::plan::MALFORMED_ID) {
            return Role::MalformedReply;
        }
        if let Some(s) = self.sent.iter_mut().find(|s| id_is(id, s.id)) {
            return match s.state {
                State::Pending => {
                    s.state = State::Answered;
                    Role::Reply(s.target)
                }
                State::Abandoned => Role::LateReply(s.target),
                State::Answered => Role::DuplicateReply(s.target),
            };
        }
        if let Some(s) = self
            .sent
            .iter()
            .find(|s| s.state == State::Pending && id_loosely_is(id, s.id))
        {
            return Role::IdTypeMismatch {
                target: s.target,
                sent: s.id,
            };
        }
        Role::UnknownId {
            pending: self.first_pending(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_match_by_value_and_type() {
        assert!(id_is(&json!(1), 1));
        assert!(!id_is(&json!("1"), 1));
        assert!(!id_is(&json!(2), 1));
        assert!(!id_is(&json!(1.0), 1));
        assert!(id_loosely_is(&json!("1"), 1));
        assert!(!id_loosely_is(&json!(1), 1));
        assert!(!id_loosely_is(&json!("01x"), 1));
    }

    #[test]
    fn a_response_answers_once_then_is_a_duplicate_and_timeouts_make_it_late() {
        let mut r = Requests::default();
        let a = r.issue(Target::Initialize, "initialize");
        let b = r.issue(Target::Op(0), "tools/list");
        assert_eq!(
            r.response(Some(&json!(a)), None),
            Role::Reply(Target::Initialize)
        );
        assert_eq!(
            r.response(Some(&json!(a)), None),
            Role::DuplicateReply(Target::Initialize)
        );
        assert_eq!(
            r.response(Some(&json!("2")), None),
            Role::IdTypeMismatch {
                target: Target::Op(0),
                sent: b
            }
        );
        assert_eq!(
            r.response(Some(&json!(99)), None),
            Role::UnknownId {
                pending: Some((Target::Op(0), b))
            }
        );
        r.abandon(Target::Op(0));
        assert!(!r.is_pending(Target::Op(0)));
        assert_eq!(
            r.response(Some(&json!(b)), None),
            Role::LateReply(Target::Op(0))
        );
    }

    #[test]
    fn a_response_without_an_id_is_a_parse_error_or_a_notification_reply() {
        let mut r = Requests::default();
        assert_eq!(r.response(None, Some(-32700)), Role::ParseErrorReply);
        assert_eq!(
            r.response(Some(&Value::Null), None),
            Role::UnknownId { pending: None }
        );
        r.note_notification();
        assert_eq!(
            r.response(Some(&Value::Null), None),
            Role::NotificationReply
        );
    }
}
