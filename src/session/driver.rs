//! The event pump: one loop that waits on the event channel with
//! `recv_timeout` until a condition holds or a deadline passes, turns each
//! event into records, classifies stdout lines, matches responses to
//! requests (`correlate`), answers the server's own requests, and notices
//! an interrupt of the guard. An exit of the server is judged only once
//! stdout has been drained to its end, so a reply written just before the
//! exit is never mistaken for a missing one.

use crate::obj;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::correlate::Requests;
use super::{
    Answer, EndedBy, Exit, Process, Record, Recorder, Request, Role, Rules, Stage, StdoutLine,
    Stop, Target,
};
use crate::jsonrpc::{self, Line, Message};
use crate::plan::{OpSource, SessionConfig};
use crate::session::wire::{Event, Stdin};
use crate::sys;

/// How long the session waits in one `recv_timeout` at most, so it notices
/// SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to the guard promptly.
pub const INTERRUPT_POLL: Duration = Duration::from_millis(50);
/// Poll interval while waiting for other group members to exit; there is no
/// event for "the group is empty".
pub const GROUP_POLL: Duration = Duration::from_millis(10);
/// How long stdout may stay open after the server's exit before the exit is
/// judged anyway (a descendant holds the pipe).
const EXIT_DRAIN: Duration = Duration::from_millis(500);

pub fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Bytes of stderr the session keeps to itself (to tell a failed start
/// from a reaction to the era probe).
const STDERR_KEPT: usize = 16 * 1024;
/// Bytes of a message too large to judge kept for its quote.
const OVERSIZE_HEAD: usize = 512;

/// The reply a finished exchange got.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Result(Value),
    Error(Value),
    TimedOut,
    /// The conversation ended (exit, stop or interrupt) before an answer.
    Halted,
}

pub struct Driver<'a, P: Process> {
    /// A real server's `Drop` kills and reaps the group on every path out
    /// of the session, a panic included.
    pub(super) server: P,
    rx: Receiver<Event>,
    /// The server's stdin; `None` once closed.
    pub(super) writer: Option<Stdin>,
    pub(super) t0: Instant,
    pub(super) cfg: &'a SessionConfig,
    pub(super) rules: &'a dyn Rules,
    rec: &'a mut dyn Recorder,
    pub(super) requests: Requests,
    /// The reply of the last request answered, for the script.
    pub(super) last_reply: Option<(Target, Outcome)>,
    /// When the server last sent `notifications/progress`: a request that
    /// asked for progress is waited for while it comes.
    pub(super) last_progress: Option<Instant>,
    /// A write to the server's stdin failed (it had closed it, or exited).
    pub(super) stdin_broken: bool,
    /// The first `STDERR_KEPT` bytes of stderr: what a server that fails
    /// at start says.
    pub(super) stderr_start: Vec<u8>,
    /// The session speaks 2026-07-28: requests carry the `_meta` envelope.
    pub(super) modern: bool,
    /// The next request goes out exactly as given (no envelope).
    pub(super) bare_next: bool,
    pub(super) stop: Option<Stop>,
    /// The adversarial probe whose window is open.
    pub(super) active_probe: Option<usize>,
    pub(super) shutting_down: bool,
    pub(super) stdout_open: bool,
    pub(super) stderr_open: bool,
    /// The leader exited; judged once stdout and stderr are drained or `EXIT_DRAIN`
    /// passed.
    exit_seen: Option<(Exit, Instant)>,
    pub(super) exited: bool,
    pub(super) ended_by: Option<EndedBy>,
    disconnected: bool,
    /// The unterminated end of stdout, for a pipe that never closes.
    pub(super) tail: crate::session::wire::Tail,
    /// Whether the executable was read again after the first stdout line.
    exe_settled: bool,
    /// Stdout lines and stderr chunks received so far: the server spoke.
    pub(super) heard: u64,
    /// Tools a robustness call timed out on: their later calls are not sent.
    pub(super) timed_out_tools: Vec<String>,
    /// Methods a request of went unanswered: a probe of the same method to
    /// the same silent server is not sent again.
    pub(super) silent_methods: Vec<String>,
    /// Stdout lines read so far.
    pub(super) spoke: u64,
    /// `spoke` when a request that went unanswered was sent: while it
    /// stays the same, the server has said nothing since (a silence, which
    /// no further probe waits on).
    pub(super) silent_since: Option<u64>,
}

impl<'a, P: Process> Driver<'a, P> {
    pub fn new(
        server: P,
        rx: Receiver<Event>,
        writer: Stdin,
        t0: Instant,
        cfg: &'a SessionConfig,
        rules: &'a dyn Rules,
        rec: &'a mut dyn Recorder,
    ) -> Self {
        Driver {
            server,
            rx,
            writer: Some(writer),
            t0,
            cfg,
            rules,
            rec,
            requests: Requests::default(),
            last_reply: None,
            last_progress: None,
            stdin_broken: false,
            stderr_start: Vec::new(),
            modern: false,
            bare_next: false,
            stop: None,
            active_probe: None,
            shutting_down: false,
            stdout_open: true,
            stderr_open: true,
            exit_seen: None,
            exited: false,
            ended_by: None,
            disconnected: false,
            tail: crate::session::wire::Tail::default(),
            exe_settled: false,
            heard: 0,
            timed_out_tools: Vec::new(),
            silent_methods: Vec::new(),
            spoke: 0,
            silent_since: None,
        }
    }

    pub fn now_ms(&self) -> u64 {
        ms(self.t0.elapsed())
    }

    fn at_ms(&self, at: Instant) -> u64 {
        ms(at.saturating_duration_since(self.t0))
    }

    pub(super) fn emit(&mut self, record: Record) {
        let at = self.now_ms();
        self.server.note(&record);
        self.rec.record(at, record);
    }

    pub(super) fn emit_at(&mut self, at: u64, record: Record) {
        self.server.note(&record);
        self.rec.record(at, record);
    }

    /// Gives up on `target`: records whether its request still sat unread
    /// in the stdin pipe (a server still starting), then the timeout.
    pub(super) fn timed_out(&mut self, target: Target, ms: u64) {
        let unread = self.writer.as_ref().and_then(|s| s.unread());
        if let Some(bytes) = unread.filter(|&n| n > 0) {
            self.emit(Record::Unread { target, bytes });
        }
        self.emit(Record::Timeout { target, ms });
    }

    pub(super) fn set_stop(&mut self, stop: Stop) {
        if self.stop.is_none() {
            self.stop = Some(stop);
            self.emit(Record::Stop(stop));
        }
    }

    /// The leader has exited (its exit may not be judged yet).
    pub(super) fn leader_gone(&self) -> bool {
        self.exited || self.exit_seen.is_some()
    }

    /// The conversation is over: an early stop, or the server exited.
    pub(super) fn halted(&self) -> bool {
        self.stop.is_some() || self.exited || self.exit_seen.is_some()
    }

    fn send(&mut self, bytes: Vec<u8>) {
        if let Some(writer) = &mut self.writer
            && let Err(error) = writer.send(bytes)
        {
            self.stdin_broken = true;
            self.emit(Record::WriteFailed { error });
        }
    }

    /// Sends a message and records its bytes.
    pub(super) fn send_recorded(&mut self, id: Option<u64>, method: &str, bytes: Vec<u8>) {
        self.emit(Record::Sent {
            id,
            method: method.to_string(),
            bytes: bytes.clone(),
        });
        self.send(bytes);
    }

    /// Sends a request and records it; returns its id.
    pub(super) fn send_request(
        &mut self,
        target: Target,
        method: &str,
        params: Option<&Value>,
        source: OpSource,
        cursor: Option<String>,
    ) -> u64 {
        let id = self.requests.issue(target, method);
        self.emit(Record::Request(Request {
            target,
            id,
            method: method.to_string(),
            params: params.cloned(),
            source,
            cursor,
        }));
        // The record keeps the caller's params; the wire gets the envelope.
        let bare = std::mem::take(&mut self.bare_next);
        let wire = if self.modern && !bare {
            crate::mcp::with_envelope(params, crate::mcp::MODERN_VERSION)
        } else {
            params.cloned()
        };
        let bytes = jsonrpc::request(id, method, wire.as_ref());
        self.send_recorded(Some(id), method, bytes);
        id
    }

    pub(super) fn send_notification(&mut self, method: &str, bytes: Vec<u8>) {
        self.send_recorded(None, method, bytes);
        self.requests.note_notification();
    }

    /// Takes the reply `target` got, once its exchange is over.
    pub(super) fn take_reply(&mut self, target: Target) -> Option<Outcome> {
        match self.last_reply.take() {
            Some((t, outcome)) if t == target => Some(outcome),
            other => {
                self.last_reply = other;
                None
            }
        }
    }

    /// Where the session is, for an exit: what it waits for, else the
    /// probe window that is open, else after initialize.
    fn stage(&self) -> Stage {
        if self.shutting_down {
            return Stage::Shutdown;
        }
        match self.requests.first_pending() {
            Some((Target::Initialize | Target::Discover, _)) => Stage::Initialize,
            Some((Target::Op(i), _)) => Stage::Operation(i),
            Some((Target::Probe(i), _)) => Stage::Probe(i),
            Some((Target::Adversarial(i), _)) => Stage::Adversarial(i),
            None => match self.active_probe {
                Some(i) => Stage::Adversarial(i),
                None => Stage::PostInitialize,
            },
        }
    }

    /// Handles events until `done` holds or `deadline` passes. Returns
    /// whether `done` held.
    pub(super) fn wait_until(
        &mut self,
        deadline: Instant,
        slice: Duration,
        mut done: impl FnMut(&mut Self) -> bool,
    ) -> bool {
        loop {
            self.settle_exit();
            if done(self) {
                return true;
            }
            if let Some(sig) = sys::pending_interrupt()
                && self.stop != Some(Stop::Interrupted(sig))
            {
                self.stop = None;
                self.set_stop(Stop::Interrupted(sig));
                return done(self);
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let mut wait = deadline.saturating_duration_since(now).min(slice);
            if let Some((_, drain_end)) = self.exit_seen {
                wait = wait.min(drain_end.saturating_duration_since(now));
            }
            if !sys::EXIT_WAIT_BLOCKS && !self.exited {
                wait = wait.min(GROUP_POLL);
                self.poll_exit();
            }
            if self.disconnected {
                // Every source has finished; only time-based conditions (a
                // group member's exit) can still change. Poll them.
                std::thread::sleep(wait.min(GROUP_POLL));
                continue;
            }
            match self.rx.recv_timeout(wait) {
                Ok(event) => self.handle(event),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.disconnected = true,
            }
        }
    }

    pub(super) fn poll_exit(&mut self) {
        if !self.exited
            && self.exit_seen.is_none()
            && let Some(exit) = self.server.try_wait()
        {
            self.exit_seen = Some((exit, Instant::now() + EXIT_DRAIN));
        }
    }

    /// Waits (within the drain bound) until a seen exit has been judged.
    pub(super) fn await_exit_judged(&mut self) {
        if let Some((_, drain_end)) = self.exit_seen {
            self.wait_until(drain_end + GROUP_POLL, GROUP_POLL, |d| {
                d.exit_seen.is_none()
            });
        }
    }

    /// Judges a seen exit once stdout and stderr are drained (or the drain
    /// bound passed): what a server says as it dies (a crash on the way out)
    /// is read however late its reader thread runs on a loaded machine.
    fn settle_exit(&mut self) {
        let Some((exit, drain_end)) = self.exit_seen else {
            return;
        };
        if (self.stdout_open || self.stderr_open) && Instant::now() < drain_end {
            return;
        }
        self.exit_seen = None;
        self.exited = true;
        let stage = self.stage();
        self.emit(Record::Exited { exit, stage });
        if !self.shutting_down {
            self.ended_by = Some(EndedBy::ItsOwnExit);
        }
    }

    fn handle(&mut self, event: Event) {
        if matches!(event, Event::StdoutLine { .. } | Event::Stderr { .. }) {
            self.heard += 1;
        }
        if matches!(
            event,
            Event::StdoutLine { .. } | Event::StdoutOversize { .. }
        ) {
            self.spoke += 1;
        }
        match event {
            Event::StdoutLine {
                at,
                number,
                offset,
                bytes,
                terminated,
            } => self.on_line(at, number, offset, bytes, terminated),
            Event::StdoutOversize {
                at,
                number,
                offset,
                head,
                len,
            } => {
                let at = self.at_ms(at);
                self.emit_at(
                    at,
                    Record::Oversize {
                        number,
                        offset,
                        head,
                        len,
                    },
                );
                self.set_stop(Stop::OutputLimit);
            }
            Event::StdoutLimit { at, total } => {
                let at = self.at_ms(at);
                self.emit_at(at, Record::StdoutLimit { total });
                self.set_stop(Stop::OutputLimit);
            }
            Event::StdoutClosed { total } => {
                self.stdout_open = false;
                self.emit(Record::StdoutClosed { total });
            }
            Event::Stderr { at, bytes } => {
                let at = self.at_ms(at);
                let room = STDERR_KEPT.saturating_sub(self.stderr_start.len());
                self.stderr_start
                    .extend_from_slice(&bytes[..bytes.len().min(room)]);
                self.emit_at(at, Record::Stderr { bytes });
            }
            Event::StderrClosed => {
                self.stderr_open = false;
                self.emit(Record::StderrClosed);
            }
            Event::WriteFailed { error } => {
                self.stdin_broken = true;
                self.emit(Record::WriteFailed { error });
            }
            Event::Exited => self.poll_exit(),
        }
    }

    /// The bytes after stdout's last newline, when the pipe never closed
    /// (a descendant holds it): judged as the unterminated line they are.
    pub(super) fn flush_tail(&mut self) {
        if let Some((number, offset, head, _len)) = self.tail.take() {
            self.on_line(Instant::now(), number, offset, head, false);
        }
    }

    fn on_line(&mut self, at: Instant, number: u64, offset: u64, bytes: Vec<u8>, terminated: bool) {
        if !self.exe_settled && !self.leader_gone() {
            self.exe_settled = true;
            if let Some(exe) = self.server.executable() {
                self.emit(Record::Executable(exe));
            }
        }
        let at = self.at_ms(at);
        let class = jsonrpc::classify(&bytes);
        let mut bytes = bytes;
        let role = match &class.line {
            Line::TooLarge { .. } => {
                // Not judged: only its head is kept, for the quote, and the
                // run stops as at any limit.
                bytes.truncate(OVERSIZE_HEAD);
                bytes.shrink_to_fit();
                self.set_stop(Stop::OutputLimit);
                Role::NotAMessage
            }
            Line::Message(msg) => self.match_message(msg),
            Line::ContentLength => {
                self.set_stop(Stop::ProtocolError);
                Role::NotAMessage
            }
            Line::Invalid { batch: true, .. } => {
                // Batches are wrong on today's wire (the checks say so), but
                // the responses inside still answer our requests: a client
                // of 2025-03-26 would read them, and waiting for them would
                // only add a timeout to the report.
                self.unpack_batch(&bytes, at);
                Role::NotAMessage
            }
            _ => Role::NotAMessage,
        };
        let reply = match (&role, class.value) {
            (Role::Reply(target), Some(value)) => Some((*target, value)),
            _ => None,
        };
        self.emit_at(
            at,
            Record::Line(StdoutLine {
                number,
                offset,
                bytes,
                terminated,
                line: class.line,
                crlf: class.crlf,
                quirks: class.quirks,
                role,
            }),
        );
        if let Some((target, value)) = reply {
            self.record_reply(target, value, at);
        }
    }

    fn unpack_batch(&mut self, bytes: &[u8], at: u64) {
        let text = std::str::from_utf8(bytes).unwrap_or("");
        let Ok((Value::Array(items), _)) = crate::jsontext::parse(text) else {
            return;
        };
        for item in items {
            if let Ok(msg) = jsonrpc::validate(&item)
                && let Role::Reply(target) = self.match_message(&msg)
            {
                self.record_reply(target, item, at);
            }
        }
    }

    /// Decides which request a message answers, answers server requests,
    /// and stops the conversation on the faults a client cannot get past.
    fn match_message(&mut self, msg: &Message) -> Role {
        match msg {
            Message::Notification { method } => {
                if method == "notifications/progress" {
                    self.last_progress = Some(Instant::now());
                }
                Role::Notification
            }
            Message::Request { id, method } => {
                if let Some(target) = self.requests.echoed(id, method) {
                    self.set_stop(Stop::ProtocolError);
                    return Role::EchoedRequest(target);
                }
                Role::ServerRequest(self.answer_server_request(id, method))
            }
            Message::Response { id, error_code } => {
                let role = self.requests.response(id.as_ref(), *error_code);
                match role {
                    Role::IdTypeMismatch { .. } | Role::UnknownId { pending: Some(_) } => {
                        // The client would wait forever for the real answer.
                        self.set_stop(Stop::ProtocolError);
                    }
                    _ => {}
                }
                role
            }
        }
    }

    /// `ping` gets `{}`; anything else -32601 (the guard declares no client
    /// capability).
    fn answer_server_request(&mut self, id: &Value, method: &str) -> Answer {
        if self.writer.is_none() {
            return Answer::NotAnswered;
        }
        if method == "ping" {
            self.send_recorded(None, "", jsonrpc::result_response(id, obj! {}));
            Answer::Pong
        } else {
            let answer = jsonrpc::error_response(id, -32601, "Method not found");
            self.send_recorded(None, "", answer);
            Answer::MethodNotFound
        }
    }

    fn record_reply(&mut self, target: Target, mut value: Value, at: u64) {
        let result = value.get_mut("result").map(Value::take);
        let error = value.get_mut("error").map(Value::take);
        if target == Target::Initialize && error.is_some() {
            self.set_stop(Stop::ProtocolError);
        }
        // The opening's answer is read whole by the session (it is small);
        // of any other only what the session goes on from (the cursor, and
        // the tools' names and schemas when it will call one): the record
        // holds the rest, and a large listing is never copied.
        let opening = matches!(target, Target::Initialize | Target::Discover);
        let outcome = match (&result, &error) {
            (_, Some(e)) if opening => Outcome::Error(e.clone()),
            (_, Some(_)) => Outcome::Error(Value::Null),
            (r, None) if opening => Outcome::Result(r.clone().unwrap_or(Value::Null)),
            (r, None) => Outcome::Result(self.slim(r.as_ref())),
        };
        self.last_reply = Some((target, outcome));
        self.emit_at(
            at,
            Record::Reply {
                target,
                result,
                error,
            },
        );
    }

    /// What the session keeps of a list or call result: its `nextCursor`,
    /// and, when it will call a tool, each listed tool's name, schemas and
    /// annotations.
    fn slim(&self, result: Option<&Value>) -> Value {
        let Some(result) = result else {
            return Value::Null;
        };
        let mut out = serde_json::Map::new();
        if let Some(cursor) = result.get("nextCursor") {
            out.insert("nextCursor".into(), cursor.clone());
        }
        if self.cfg.tool_call.is_some()
            && let Some(tools) = result.get("tools").and_then(Value::as_array)
        {
            let keep = ["name", "inputSchema", "outputSchema", "annotations"];
            let tools = tools
                .iter()
                .map(|t| {
                    let kept = keep
                        .iter()
                        .filter_map(|k| Some(((*k).to_string(), t.get(*k)?.clone())));
                    Value::Object(kept.collect())
                })
                .collect();
            out.insert("tools".into(), Value::Array(tools));
        }
        Value::Object(out)
    }

    /// Emits the last records and says why the conversation stopped early.
    pub fn finish(mut self) -> Option<Stop> {
        if let Some(log) = self.server.confinement() {
            self.emit(Record::Confined(log));
        }
        self.emit(Record::Finished);
        self.stop
    }
}
