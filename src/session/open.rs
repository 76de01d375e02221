//! How a session opens, in either protocol era. `Legacy` is the 2025
//! handshake (`initialize`, then `notifications/initialized`); `Modern` is
//! 2026-07-28 (`server/discover`, then `_meta` on every request); `Auto`
//! follows the spec's dual-era client rule: probe with `server/discover`,
//! and fall back to `initialize` on anything but a DiscoverResult or a
//! -32022 naming a 2026-07-28 version. A silent server gets `initialize` on
//! the same process once the era window passes, and whichever answer comes
//! first decides. When the probe cost the process (it exited, or a late
//! DiscoverResult came after `initialize` was sent), the session stops with
//! `Stop::Restart` and the caller judges the server on a fresh process.
//! Everything after the opening is shared by both eras.

use std::time::Instant;

use serde_json::Value;

use super::driver::{INTERRUPT_POLL, Outcome, ms};
use super::{EraFinding, Process, Record, Speaks, Stop, Target};
use crate::plan::{AdvProbe, OpSource, Opening};
use crate::{jsonrpc, mcp};

/// What the session learnt while opening.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    /// The server's capabilities object (empty when it had none).
    pub capabilities: Value,
}

/// How the discover probe went.
enum Probe {
    /// A DiscoverResult, or a -32022 naming a 2026-07-28 version.
    Modern(Value, Option<u64>),
    /// An answer that means "use initialize" (an error of any code, -32022
    /// listing only 2025-era versions, or a result that is no
    /// DiscoverResult): what it was, the versions it named, when.
    Legacy(String, Vec<String>, u64),
    /// Nothing within the window.
    Silent,
    /// The conversation ended (an exit, an interrupt, a fatal fault).
    Halted,
}

/// The versions a discover answer names.
fn supported(answer: &Value) -> Vec<String> {
    let list = answer
        .get("supportedVersions")
        .or_else(|| answer.get("data").and_then(|d| d.get("supported")));
    list.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

fn error_word(error: &Value) -> String {
    match error.get("code").and_then(Value::as_i64) {
        Some(code) => format!("error {code}"),
        None => "error".to_string(),
    }
}

impl<P: Process> super::driver::Driver<'_, P> {
    /// Opens the session. `None` when the conversation cannot go on (no
    /// answer, an error, an unusable result, an exit, a restart).
    pub(super) fn open(&mut self) -> Option<Opened> {
        match self.cfg.opening {
            Opening::Legacy => {
                self.emit(Record::Era(EraFinding {
                    speaks: Speaks::Legacy,
                    reason: "--era legacy: initialize, no discover probe".into(),
                    probe: "not-sent".into(),
                    probe_ms: None,
                    supported: Vec::new(),
                }));
                self.send_initialize();
                self.await_initialize()
            }
            Opening::Modern => self.open_modern(),
            Opening::Auto => self.open_auto(),
            Opening::VersionProbe => {
                self.version_probe();
                None
            }
        }
    }

    /// Sends `server/discover` with the 2026-07-28 envelope; returns when.
    fn send_discover(&mut self) -> Instant {
        let params = mcp::with_envelope(None, mcp::MODERN_VERSION);
        self.bare_next = true;
        self.send_request(
            Target::Discover,
            "server/discover",
            params.as_ref(),
            OpSource::CliRequest,
            None,
        );
        Instant::now()
    }

    /// Waits for the discover answer until `deadline`.
    fn await_discover(&mut self, sent: Instant, deadline: Instant) -> Probe {
        let answered = self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.requests.is_pending(Target::Discover) || d.halted()
        });
        if !answered {
            return Probe::Silent;
        }
        let took = ms(sent.elapsed());
        match self.take_reply(Target::Discover) {
            // A result without supportedVersions (a server that answers
            // every request with `{}`) is no DiscoverResult: the rule's
            // "anything else".
            Some(Outcome::Result(result))
                if self.cfg.opening == Opening::Auto
                    && !result.get("supportedVersions").is_some_and(Value::is_array) =>
            {
                Probe::Legacy(
                    "a result that is not a DiscoverResult".into(),
                    Vec::new(),
                    took,
                )
            }
            Some(Outcome::Result(result)) => Probe::Modern(result, Some(took)),
            Some(Outcome::Error(error)) => match mcp::unsupported_versions(&error) {
                Some(list) if list.iter().any(|v| mcp::is_modern(v)) => {
                    Probe::Modern(error, Some(took))
                }
                _ => Probe::Legacy(error_word(&error), supported(&error), took),
            },
            _ => Probe::Halted,
        }
    }

    /// `--era modern` (and the modern half of `--era both`): the server
    /// must answer `server/discover`.
    fn open_modern(&mut self) -> Option<Opened> {
        let sent = self.send_discover();
        let deadline = self.t0 + self.cfg.startup_timeout;
        match self.await_discover(sent, deadline) {
            Probe::Modern(answer, took) => {
                self.opened_modern(answer, took, "server/discover answered")
            }
            Probe::Legacy(what, versions, took) => {
                let then = "the server does not speak 2026-07-28";
                self.legacy_by_answer(what, versions, took, then);
                self.set_stop(Stop::ProtocolError);
                None
            }
            Probe::Silent => {
                self.requests.abandon(Target::Discover);
                self.emit(Record::Timeout {
                    target: Target::Discover,
                    ms: ms(self.cfg.startup_timeout),
                });
                self.set_stop(Stop::Timeout);
                None
            }
            Probe::Halted => None,
        }
    }

    /// The session speaks 2026-07-28 from here: every request carries the
    /// envelope, and the capabilities are discover's.
    fn opened_modern(&mut self, answer: Value, took: Option<u64>, reason: &str) -> Option<Opened> {
        let versions = supported(&answer);
        let is_result = answer.get("code").is_none();
        self.emit(Record::Era(EraFinding {
            speaks: Speaks::Modern,
            reason: reason.to_string(),
            probe: if is_result {
                "result".into()
            } else {
                error_word(&answer)
            },
            probe_ms: took,
            supported: versions,
        }));
        self.modern = true;
        if !is_result {
            // -32022 naming 2026-07-28: ask again, now that the version is
            // known to be one the server speaks.
            let sent = self.send_discover();
            let deadline = Instant::now() + self.cfg.request_timeout;
            return match self.await_discover(sent, deadline) {
                Probe::Modern(result, _) if result.get("code").is_none() => {
                    self.opened_with(&result)
                }
                _ => {
                    self.set_stop(Stop::ProtocolError);
                    None
                }
            };
        }
        self.opened_with(&answer)
    }

    fn opened_with(&mut self, result: &Value) -> Option<Opened> {
        if !result.is_object() {
            self.set_stop(Stop::ProtocolError);
            return None;
        }
        self.emit(Record::Handshake);
        Some(Opened {
            capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
        })
    }

    /// Records that the discover answer means 2025, and what follows.
    fn legacy_by_answer(&mut self, what: String, versions: Vec<String>, took: u64, then: &str) {
        self.emit(Record::Era(EraFinding {
            speaks: Speaks::Legacy,
            reason: format!("server/discover answered {what}: {then}"),
            probe: what,
            probe_ms: Some(took),
            supported: versions,
        }));
    }

    /// `--era auto`: the spec's dual-era client rule.
    fn open_auto(&mut self) -> Option<Opened> {
        let sent = self.send_discover();
        let startup_end = self.t0 + self.cfg.startup_timeout;
        let window_end = (sent + self.cfg.era_window).min(startup_end);
        match self.await_discover(sent, window_end) {
            Probe::Modern(answer, took) => self.opened_modern(
                answer,
                took,
                "server/discover answered: the server speaks 2026-07-28",
            ),
            Probe::Legacy(what, versions, took) => {
                let then = "falling back to initialize on the same process";
                self.legacy_by_answer(what, versions, took, then);
                self.send_initialize();
                self.await_initialize()
            }
            Probe::Halted => self.probe_cost_the_process(),
            Probe::Silent => self.race(sent),
        }
    }

    /// The probe ended the process (or its stdin): the legacy run needs a
    /// fresh one. An interrupt or a fatal fault is not the probe's doing.
    fn probe_cost_the_process(&mut self) -> Option<Opened> {
        if self.stop.is_some() {
            return None;
        }
        self.emit(Record::Era(EraFinding {
            speaks: Speaks::Legacy,
            reason: "the server exited on the server/discover probe: judged with initialize on a fresh process".into(),
            probe: "exit".into(),
            probe_ms: None,
            supported: Vec::new(),
        }));
        self.stop = Some(Stop::Restart(Speaks::Legacy));
        None
    }

    /// The probe window passed in silence: `initialize` goes out on the
    /// same process, and the first answer decides.
    fn race(&mut self, sent: Instant) -> Option<Opened> {
        self.send_initialize();
        let deadline = self.t0 + self.cfg.startup_timeout;
        self.wait_until(deadline, INTERRUPT_POLL, |d| {
            let discover_result =
                matches!(&d.last_reply, Some((Target::Discover, Outcome::Result(_))));
            discover_result || !d.requests.is_pending(Target::Initialize) || d.halted()
        });
        let reply = self.take_reply(Target::Discover);
        if let Some(Outcome::Result(result)) = reply
            && result.get("supportedVersions").is_some_and(Value::is_array)
        {
            // A late DiscoverResult: modern, but `initialize` may have
            // pinned this process to 2025. Judge on a fresh one.
            let versions = supported(&result);
            self.emit(Record::Era(EraFinding {
                speaks: Speaks::Modern,
                reason: format!(
                    "server/discover answered after the {} ms window, once initialize was sent: judged on a fresh process",
                    ms(self.cfg.era_window)
                ),
                probe: "result".into(),
                probe_ms: Some(ms(sent.elapsed())),
                supported: versions,
            }));
            self.stop = Some(Stop::Restart(Speaks::Modern));
            return None;
        }
        if self.leader_gone() && self.requests.is_pending(Target::Initialize) {
            // It exited before it answered anything: the probe may be why.
            return self.probe_cost_the_process();
        }
        // The discover probe is the guard's own: stop waiting for it
        // quietly; a late answer to it is not judged.
        self.requests.abandon(Target::Discover);
        self.emit(Record::Era(EraFinding {
            speaks: Speaks::Legacy,
            reason: format!(
                "no answer to server/discover within the {} ms window; initialize decided",
                ms(self.cfg.era_window)
            ),
            probe: "silence".into(),
            probe_ms: None,
            supported: Vec::new(),
        }));
        self.await_initialize()
    }

    fn send_initialize(&mut self) {
        let params = mcp::initialize_params(&self.cfg.protocol);
        self.send_request(
            Target::Initialize,
            "initialize",
            Some(&params),
            OpSource::CliRequest,
            None,
        );
    }

    /// Waits for the initialize answer and completes the 2025 handshake.
    fn await_initialize(&mut self) -> Option<Opened> {
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

    /// The unsupported-version probe's process: one `server/discover`
    /// asking for a version no server supports, as the opening message
    /// (SDKs pin the version a connection opened with). The reply is
    /// judged as the probe's.
    fn version_probe(&mut self) {
        let probe = AdvProbe::Builtin(crate::args::words::Probe::UnsupportedVersion);
        self.bare_next = true;
        let params = probe.params();
        self.send_request(
            Target::Adversarial(0),
            probe.method(),
            params.as_ref(),
            OpSource::AdversarialProbe,
            None,
        );
        let deadline = self.t0 + self.cfg.startup_timeout;
        self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.requests.is_pending(Target::Adversarial(0)) || d.halted()
        });
    }
}
