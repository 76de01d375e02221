//! How a session opens. Today that is the 2025 handshake: `initialize`,
//! then, when the result is usable, `notifications/initialized`. Everything
//! after the opening (operations, probes, shutdown) is shared by every way
//! of opening.

use serde_json::{Value, json};

use super::driver::{INTERRUPT_POLL, Outcome, ms};
use super::{Process, Record, Stop, Target};
use crate::jsonrpc;
use crate::plan::OpSource;

/// What the session learnt while opening.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    /// The server's capabilities object (empty when it had none).
    pub capabilities: Value,
}

impl<P: Process> super::driver::Driver<'_, P> {
    /// Opens the session. `None` when the conversation cannot go on (no
    /// answer, an error, an unusable result, an exit).
    pub(super) fn open(&mut self) -> Option<Opened> {
        let params = json!({
            "protocolVersion": self.cfg.protocol,
            "capabilities": {},
            "clientInfo": {"name": "mcp-stdio-guard", "version": env!("CARGO_PKG_VERSION")},
        });
        self.send_request(
            Target::Initialize,
            "initialize",
            Some(&params),
            OpSource::CliRequest,
            None,
        );
        // The startup timeout counts from the spawn: an `npx` download
        // spends it, requests never do.
        let deadline = self.t0 + self.cfg.startup_timeout;
        let answered = self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.requests.is_pending(Target::Initialize) || d.halted()
        });
        if !answered {
            self.requests.abandon(Target::Initialize);
            let timeout_ms = ms(self.cfg.startup_timeout);
            self.emit(Record::Timeout {
                target: Target::Initialize,
                ms: timeout_ms,
            });
            self.set_stop(Stop::Timeout);
            return None;
        }
        let reply = self.take_reply(Target::Initialize);
        if self.halted() {
            return None;
        }
        let Some(Outcome::Result(result)) = reply else {
            return None;
        };
        // A result the guard cannot work with (no usable protocol version or
        // capabilities) fails the run before `notifications/initialized`.
        if !self.rules.handshake_usable(&result, &self.cfg.protocol) {
            self.set_stop(Stop::ProtocolError);
            return None;
        }
        self.send_notification(
            "notifications/initialized",
            jsonrpc::notification("notifications/initialized"),
        );
        self.emit(Record::Handshake);
        Some(Opened {
            capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
        })
    }
}
