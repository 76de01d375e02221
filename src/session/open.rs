//! How a session opens, in either protocol era. `Legacy` is the 2025
//! handshake (`initialize`, then `notifications/initialized`); `Modern` is
//! 2026-07-28 (`server/discover`, then `_meta` on every request); `Auto`
//! follows the spec's dual-era client rule: probe with `server/discover`,
//! and fall back to `initialize` on anything but a DiscoverResult or a
//! -32022 naming a 2026-07-28 version.
//!
//! A server that says nothing is watched, not timed: while the probe's
//! bytes sit unread in its stdin the server is still starting (an `npx`
//! download, Python imports) and the guard waits; once it has read them, a
//! server whose every thread sleeps with no CPU spent and nothing written
//! is silent on purpose (a 2025 server ignoring what comes before
//! `initialize`), and `initialize` goes out on the same process at once. A
//! server that keeps working gets the era window; where the process cannot
//! be seen (no `/proc`), the window counts from the probe. Whichever answer
//! comes first decides. Only when the probe cost the process (it exited on
//! it, or a dual-era server answered both and `initialize` pinned 2025)
//! does the session stop with `Stop::Restart`, and the caller judges the
//! server on a fresh process. Everything after the opening is shared by
//! both eras.

use std::time::{Duration, Instant};

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
    /// An answer that means "use initialize" (an error of any code, or
    /// -32022 listing only 2025-era versions): what it was, the versions it
    /// named, when.
    Legacy(String, Vec<String>, u64),
    /// A result that is no DiscoverResult: `initialize` decides whether the
    /// server is a 2025 one or a 2026-07-28 one with a broken result.
    NotDiscover(u64),
    /// No answer: why `initialize` goes out now.
    Silent(String),
    /// The conversation ended (an exit, an interrupt, a fatal fault).
    Halted,
}

/// How often a silent server is looked at.
const SAMPLE: Duration = Duration::from_millis(10);
/// Looks in a row that must find it idle before it counts as silent.
const IDLE_SAMPLES: u32 = 3;
/// CPU time a look may find spent and still call the server idle.
const IDLE_CPU_NS: u64 = 300_000;

/// What the guard saw of a server that has not answered the probe.
#[derive(Default)]
struct Watch {
    /// When the server had read the probe (its stdin pipe empty).
    read_at: Option<Instant>,
    idle_looks: u32,
    last_cpu: Option<u64>,
    last_heard: u64,
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

/// A DiscoverResult: an object with a `supportedVersions` array.
fn is_discover_result(result: &Value) -> bool {
    result.get("supportedVersions").is_some_and(Value::is_array)
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
            return Probe::Silent(String::new());
        }
        self.probe_answer(sent)
    }

    /// What the discover answer, now in, means.
    fn probe_answer(&mut self, sent: Instant) -> Probe {
        let took = ms(sent.elapsed());
        match self.take_reply(Target::Discover) {
            // A result without supportedVersions (a server that answers
            // every request with `{}`, or a 2026-07-28 server with a broken
            // result) is no DiscoverResult: `initialize` tells which.
            Some(Outcome::Result(result))
                if self.cfg.opening == Opening::Auto && !is_discover_result(&result) =>
            {
                Probe::NotDiscover(took)
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
            Probe::Silent(_) => {
                self.requests.abandon(Target::Discover);
                self.timed_out(Target::Discover, ms(self.cfg.startup_timeout));
                self.set_stop(Stop::Timeout);
                None
            }
            // A result is always Modern here (NotDiscover is auto's).
            Probe::NotDiscover(_) | Probe::Halted => None,
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
        match self.watch_probe(sent) {
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
            Probe::NotDiscover(took) => self.not_discover(took),
            Probe::Halted => self.probe_cost_the_process(),
            Probe::Silent(why) => self.race(sent, why),
        }
    }

    /// Waits for the probe's answer while watching the server: until it
    /// answers, it is seen silent, the era window passes, or it halts.
    fn watch_probe(&mut self, sent: Instant) -> Probe {
        let startup_end = self.t0 + self.cfg.startup_timeout;
        let mut w = Watch::default();
        loop {
            let look = (Instant::now() + SAMPLE).min(startup_end);
            let answered = self.wait_until(look, SAMPLE, |d| {
                !d.requests.is_pending(Target::Discover) || d.halted()
            });
            if answered {
                return self.probe_answer(sent);
            }
            let now = Instant::now();
            if now >= startup_end {
                return Probe::Silent(format!(
                    "no answer to server/discover within the {} ms startup timeout",
                    ms(self.cfg.startup_timeout)
                ));
            }
            if let Some(why) = self.silent_yet(&mut w, sent, now) {
                return Probe::Silent(why);
            }
        }
    }

    /// One look at a server that has not answered: why it counts as silent
    /// now, if it does.
    fn silent_yet(&mut self, w: &mut Watch, sent: Instant, now: Instant) -> Option<String> {
        let window = self.cfg.era_window;
        let unread = self.writer.as_ref().and_then(|s| s.unread());
        let activity = self.server.activity();
        let (Some(unread), Some(activity)) = (unread, activity) else {
            // Blind (no /proc): the window counts from the probe.
            return (now >= sent + window).then(|| {
                format!(
                    "no answer to server/discover within the {} ms window",
                    ms(window)
                )
            });
        };
        if unread > 0 {
            // The probe waits unread: the server is still starting.
            *w = Watch::default();
            return None;
        }
        let read_at = *w.read_at.get_or_insert(now);
        let spent = w
            .last_cpu
            .map_or(u64::MAX, |c| activity.cpu_ns.saturating_sub(c));
        let quiet = !activity.working && spent <= IDLE_CPU_NS && self.heard == w.last_heard;
        w.idle_looks = if quiet { w.idle_looks + 1 } else { 0 };
        w.last_cpu = Some(activity.cpu_ns);
        w.last_heard = self.heard;
        if w.idle_looks >= IDLE_SAMPLES {
            return Some(format!(
                "the server read server/discover and went idle without an answer ({} ms after the probe)",
                ms(now.saturating_duration_since(sent))
            ));
        }
        (now >= read_at + window).then(|| {
            format!(
                "the server read server/discover and kept working for the {} ms window without an answer",
                ms(window)
            )
        })
    }

    /// Discover got a result that is no DiscoverResult: a 2025 server that
    /// answers anything, or a 2026-07-28 server with a broken result.
    /// `initialize` tells: served means 2025; refused means 2026-07-28,
    /// and the broken result is the root cause (the refusal follows from
    /// it).
    fn not_discover(&mut self, took: u64) -> Option<Opened> {
        let what = "a result that is not a DiscoverResult".to_string();
        let then = "falling back to initialize on the same process";
        self.legacy_by_answer(what, Vec::new(), took, then);
        self.send_initialize();
        let deadline = self.t0 + self.cfg.startup_timeout;
        self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.requests.is_pending(Target::Initialize) || d.halted()
        });
        if let Some((Target::Initialize, Outcome::Error(error))) = &self.last_reply {
            let versions = mcp::unsupported_versions(error).unwrap_or_default();
            self.emit(Record::Era(EraFinding {
                speaks: Speaks::Modern,
                reason: "server/discover answered a result that is not a DiscoverResult, and initialize was refused: a 2026-07-28 server whose DiscoverResult is broken".into(),
                probe: "result".into(),
                probe_ms: Some(took),
                supported: versions,
            }));
            self.set_stop(Stop::ProtocolError);
            return None;
        }
        self.await_initialize()
    }

    /// The probe ended the process (or its stdin): the legacy run needs a
    /// fresh one. An interrupt or a fatal fault is not the probe's doing,
    /// and neither is an exit before the server read the probe (it sits
    /// unread in the pipe, or could not even be written): a server that
    /// dies at once on its own is started once, and judged on that start.
    fn probe_cost_the_process(&mut self) -> Option<Opened> {
        if self.stop.is_some() {
            return None;
        }
        let unread = self.writer.as_ref().and_then(|s| s.unread());
        let on_its_own = self.stdin_broken
            || unread.is_some_and(|n| n > 0)
            || self.rules.failed_to_start(&self.stderr_start);
        if on_its_own {
            self.emit(Record::Era(EraFinding {
                speaks: Speaks::Legacy,
                reason: "the server exited before it read the server/discover probe, or said it failed to start: it ended on its own, and is judged on this start".into(),
                probe: "exit".into(),
                probe_ms: None,
                supported: Vec::new(),
            }));
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

    /// The server was silent: `initialize` goes out on the same process,
    /// and the first answer decides. A DiscoverResult that comes first (or
    /// an `initialize` refused with a -32022 naming 2026-07-28) means the
    /// server speaks 2026-07-28; its `initialize` answer tells whether this
    /// process is still fit to judge it in that era.
    fn race(&mut self, sent: Instant, why: String) -> Option<Opened> {
        self.send_initialize();
        let deadline = self.t0 + self.cfg.startup_timeout;
        self.wait_until(deadline, INTERRUPT_POLL, |d| {
            let discover_result =
                matches!(&d.last_reply, Some((Target::Discover, Outcome::Result(_))));
            discover_result || !d.requests.is_pending(Target::Initialize) || d.halted()
        });
        if let Some((Target::Discover, Outcome::Result(result))) = &self.last_reply
            && is_discover_result(result)
        {
            let result = result.clone();
            self.last_reply = None;
            return self.late_discover(sent, result);
        }
        let modern_refusal = matches!(
            &self.last_reply,
            Some((Target::Initialize, Outcome::Error(e)))
                if mcp::unsupported_versions(e).is_some_and(|l| l.iter().any(|v| mcp::is_modern(v)))
        );
        if modern_refusal {
            // Refused as a 2026-07-28 server refuses a 2025 client: its
            // discover answer is still coming, on a process nothing pinned.
            self.last_reply = None;
            let answer_by = Instant::now() + self.cfg.request_timeout;
            if let Probe::Modern(answer, took) = self.await_discover(sent, answer_by) {
                return self.opened_modern(
                    answer,
                    took,
                    "server/discover answered late, and initialize was refused with -32022: the server speaks 2026-07-28",
                );
            }
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
            reason: format!("{why}; initialize decided"),
            probe: "silence".into(),
            probe_ms: None,
            supported: Vec::new(),
        }));
        self.await_initialize()
    }

    /// A DiscoverResult came after `initialize` was sent. Wait for the
    /// `initialize` answer: refused (or never answered), the process is
    /// the 2026-07-28 server's and the session goes on in that era; served,
    /// a dual-era server has pinned this process to 2025, and it is judged
    /// in 2026-07-28 on a fresh one.
    fn late_discover(&mut self, sent: Instant, result: Value) -> Option<Opened> {
        let took = ms(sent.elapsed());
        let answer_by = Instant::now() + self.cfg.request_timeout;
        self.wait_until(answer_by, INTERRUPT_POLL, |d| {
            !d.requests.is_pending(Target::Initialize) || d.halted()
        });
        let served = matches!(
            self.take_reply(Target::Initialize),
            Some(Outcome::Result(_))
        );
        if !served {
            self.requests.abandon(Target::Initialize);
            return self.opened_modern(
                result,
                Some(took),
                "server/discover answered late, and initialize was not served: the server speaks 2026-07-28",
            );
        }
        self.emit(Record::Era(EraFinding {
            speaks: Speaks::Modern,
            reason: format!(
                "server/discover answered {took} ms after the probe, once initialize was sent, and initialize was served too: this process is pinned to 2025, so the server is judged in 2026-07-28 on a fresh process"
            ),
            probe: "result".into(),
            probe_ms: Some(took),
            supported: supported(&result),
        }));
        self.stop = Some(Stop::Restart(Speaks::Modern));
        None
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
            self.timed_out(Target::Initialize, timeout_ms);
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
