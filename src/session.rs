//! The session: a state machine that speaks MCP to the server and writes the
//! transcript. It sends `initialize`, `notifications/initialized` and the
//! operations; matches every response to its request by id (value and type);
//! answers the server's own requests; enforces every deadline with
//! `recv_timeout`; and then stops the server politely (close stdin, grace,
//! SIGTERM the group, grace, SIGKILL the group) while it keeps reading, so
//! what the server writes while it shuts down is judged too.
//!
//! It never decides what is wrong: that is `checks`, over the transcript.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::checks::initialize;
use crate::child::{Exit, Launch, Server};
use crate::cli::CallSpec;
use crate::jsonrpc::{self, Line, Message};
use crate::transcript::{
    AdvRecord, Answer, EndedBy, Entry, EntryKind, OpRecord, Role, SpawnError, Stage, Stop, Target,
    Transcript,
};
use crate::wire::{self, Event};
use crate::{mcp, sys};

/// How long the session waits in one `recv_timeout` at most, so it notices
/// SIGINT/SIGTERM/SIGHUP sent to the guard promptly.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);
/// Poll interval while waiting for other group members to exit; there is no
/// event for "the group is empty".
const GROUP_POLL: Duration = Duration::from_millis(10);
/// How long the notification and malformed-JSON probes watch for an answer
/// (or a crash), at least; `--settle` can lengthen it, the request timeout
/// caps it.
const OBSERVE_WINDOW: Duration = Duration::from_millis(500);
/// The method the invalid-method probe calls.
const INVALID_METHOD: &str = "mcp-stdio-guard/no-such-method";
/// The notification the notification probe sends: unknown, so ignored.
const PROBE_NOTIFICATION: &str = "notifications/mcp-stdio-guard/probe";
/// A request cut off mid-object.
const MALFORMED_JSON: &str = "{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": \"tools/list\"\n";

/// How long group members may outlive the leader before they count as
/// orphans and are killed.
const ORPHAN_GRACE: Duration = Duration::from_millis(200);
/// Bound on waiting for the pipes to close once the group is gone.
const DRAIN_BOUND: Duration = Duration::from_millis(500);
/// Bound on waiting for the exit after SIGKILL.
const KILL_BOUND: Duration = Duration::from_millis(2000);

/// One post-initialize request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub method: String,
    pub params: Option<Value>,
    pub source: &'static str,
    /// The tool of a config `safeToolCalls` entry.
    pub safe_tool_call: Option<String>,
}

/// One adversarial probe: a built-in one by name, or a configured
/// invalid-argument tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum Probe {
    Builtin(String),
    ToolCall { name: String, arguments: Value },
}

#[derive(Debug, Clone)]
pub struct SessionConfig {
    pub protocol: String,
    pub startup_timeout: Duration,
    pub request_timeout: Duration,
    pub settle: Duration,
    pub grace: Duration,
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
    pub operations: Vec<Operation>,
    /// Whether to list what `initialize` advertised (tools, resources,
    /// resource templates, prompts), following every cursor.
    pub capability_probes: bool,
    /// List the tools even when `initialize` did not advertise them (the
    /// `tools` and `call` commands).
    pub force_tools_list: bool,
    /// Call this tool once the tools are listed (the `call` command).
    pub tool_call: Option<CallSpec>,
    /// Adversarial probes, run last, in order; the first failure stops them.
    pub adversarial: Vec<Probe>,
}

/// Spawns the server, runs the session, stops the server, and returns the
/// transcript. Never fails: a spawn failure is recorded in the transcript.
pub fn run(launch: &Launch, cfg: &SessionConfig) -> Transcript {
    let mut tr = empty_transcript(cfg);
    let t0 = Instant::now();
    let (server, pipes) = match Server::spawn(launch) {
        Ok(spawned) => spawned,
        Err(e) => {
            tr.spawn_error = Some(SpawnError {
                code: sys::errno_name(&e),
                message: format!("cannot start {}: {e}", launch.program.to_string_lossy()),
            });
            tr.duration_ms = ms(t0.elapsed());
            return tr;
        }
    };
    tr.pid = Some(server.pid());
    tr.executable = server.executable(&launch.program);
    let (tx, rx) = wire::channel();
    wire::spawn_stdout_framer(
        pipes.stdout,
        cfg.max_stdout_line_bytes,
        cfg.max_stdout_bytes,
        tx.clone(),
    );
    wire::spawn_stderr_drain(pipes.stderr, tx.clone());
    wire::spawn_exit_watcher(server.pid(), tx.clone());
    let writer = wire::spawn_stdin_writer(pipes.stdin, tx);
    drive(server, rx, writer, t0, cfg, tr)
}

/// What the session needs of the server process: `child::Server` in a real
/// run, a scripted stand-in in the unit tests.
pub trait Process {
    /// The exit status once the process has exited (reaped once).
    fn try_wait(&mut self) -> Option<Exit>;
    /// Signals the whole process group; false when it has no member left.
    fn signal_group(&mut self, sig: i32) -> bool;
    /// Whether any member of the process group is still alive.
    fn group_alive(&mut self) -> bool;
}

impl Process for Server {
    fn try_wait(&mut self) -> Option<Exit> {
        Server::try_wait(self)
    }

    fn signal_group(&mut self, sig: i32) -> bool {
        Server::signal_group(self, sig)
    }

    fn group_alive(&mut self) -> bool {
        Server::group_alive(self)
    }
}

/// Runs the session over a process and its event channel: converse, then
/// stop the process, then return the transcript.
fn drive<P: Process>(
    server: P,
    rx: Receiver<Event>,
    writer: Sender<Vec<u8>>,
    t0: Instant,
    cfg: &SessionConfig,
    tr: Transcript,
) -> Transcript {
    let mut driver = Driver {
        server,
        rx,
        writer: Some(writer),
        t0,
        cfg,
        tr,
        next_id: 1,
        pending: Vec::new(),
        abandoned: Vec::new(),
        answered: Vec::new(),
        notified: false,
        stage: Stage::Initialize,
        stdout_open: true,
        stderr_open: true,
        exited: false,
        disconnected: false,
        stderr_partial: Vec::new(),
        stderr_line_count: 0,
        stderr_budget: cfg.max_stderr_bytes,
    };
    driver.converse();
    driver.teardown();
    driver.tr.duration_ms = ms(t0.elapsed());
    driver.tr
}

/// The transcript a session starts from: its planned operations, unsent.
fn empty_transcript(cfg: &SessionConfig) -> Transcript {
    let ops = cfg
        .operations
        .iter()
        .map(|op| {
            let mut record = OpRecord::new(&op.method, op.params.is_some(), op.source);
            record.params = op.params.clone();
            record.safe_tool_call = op.safe_tool_call.clone();
            record
        })
        .collect();
    Transcript::new(ops, cfg.max_stderr_bytes)
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

struct Driver<'a, P: Process> {
    /// A real server's `Drop` kills and reaps the group on every path out
    /// of the session, a panic included.
    server: P,
    rx: Receiver<Event>,
    /// `None` once stdin is closed.
    writer: Option<Sender<Vec<u8>>>,
    t0: Instant,
    cfg: &'a SessionConfig,
    tr: Transcript,
    next_id: u64,
    /// Requests awaiting a response: (id, target).
    pending: Vec<(u64, Target)>,
    /// Requests the guard stopped waiting for.
    abandoned: Vec<(u64, Target)>,
    /// Requests already answered.
    answered: Vec<(u64, Target)>,
    /// Whether the guard has sent a notification (a response without an id
    /// after one is a response to the notification).
    notified: bool,
    stage: Stage,
    stdout_open: bool,
    stderr_open: bool,
    exited: bool,
    disconnected: bool,
    /// The start of a stderr line whose newline has not come yet.
    stderr_partial: Vec<u8>,
    stderr_line_count: u64,
    /// stderr bytes the transcript may still keep as lines.
    stderr_budget: u64,
}

impl<P: Process> Driver<'_, P> {
    fn now_ms(&self) -> u64 {
        ms(self.t0.elapsed())
    }

    fn at_ms(&self, at: Instant) -> u64 {
        ms(at.saturating_duration_since(self.t0))
    }

    fn push(&mut self, at_ms: u64, kind: EntryKind) {
        self.tr.entries.push(Entry { at_ms, kind });
    }

    /// The conversation ended (early stop, exit, or interrupt).
    fn halted(&self) -> bool {
        self.tr.stop.is_some() || self.exited
    }

    fn send(&mut self, bytes: Vec<u8>) {
        if let Some(writer) = &self.writer {
            // A send error means the writer thread has ended after a failed
            // write, which it reported as an event.
            let _ = writer.send(bytes);
        }
    }

    /// Sends a message and records its bytes.
    fn send_recorded(&mut self, id: Option<u64>, method: &str, bytes: Vec<u8>) {
        let at = self.now_ms();
        self.push(
            at,
            EntryKind::Sent {
                id,
                method: method.to_string(),
                bytes: bytes.clone(),
            },
        );
        self.send(bytes);
    }

    fn send_request(&mut self, target: Target, method: &str, params: Option<&Value>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send_recorded(Some(id), method, jsonrpc::request(id, method, params));
        self.pending.push((id, target));
        id
    }

    fn send_notification(&mut self, method: &str, msg: Vec<u8>) {
        self.send_recorded(None, method, msg);
        self.notified = true;
    }

    fn is_pending(&self, target: Target) -> bool {
        self.pending.iter().any(|(_, t)| *t == target)
    }

    /// Handles events until `done` holds or `deadline` passes. Returns
    /// whether `done` held.
    fn wait_until(
        &mut self,
        deadline: Instant,
        slice: Duration,
        mut done: impl FnMut(&mut Self) -> bool,
    ) -> bool {
        loop {
            if done(self) {
                return true;
            }
            if let Some(sig) = sys::pending_interrupt()
                && self.tr.stop != Some(Stop::Interrupted(sig))
            {
                self.tr.stop = Some(Stop::Interrupted(sig));
                return done(self);
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let mut wait = deadline.saturating_duration_since(now).min(slice);
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

    fn poll_exit(&mut self) {
        if !self.exited && self.server.try_wait().is_some() {
            self.on_exit();
        }
    }

    fn handle(&mut self, event: Event) {
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
                self.push(
                    at,
                    EntryKind::Oversize {
                        number,
                        offset,
                        head,
                        len,
                    },
                );
                self.tr.stop.get_or_insert(Stop::OutputLimit);
            }
            Event::StdoutLimit { at, total } => {
                let at = self.at_ms(at);
                self.push(at, EntryKind::StdoutLimit { total });
                self.tr.stop.get_or_insert(Stop::OutputLimit);
            }
            Event::StdoutClosed { total } => {
                self.tr.stdout_bytes = total;
                self.stdout_open = false;
            }
            Event::Stderr { at, bytes } => {
                self.tr.stderr.push(&bytes);
                let at = self.at_ms(at);
                self.stderr_lines(at, &bytes);
            }
            Event::StderrClosed => {
                if !self.stderr_partial.is_empty() {
                    let line = std::mem::take(&mut self.stderr_partial);
                    let at = self.now_ms();
                    self.stderr_line(at, line);
                }
                self.stderr_open = false;
            }
            Event::WriteFailed { error } => {
                let at = self.now_ms();
                self.push(at, EntryKind::WriteFailed { error });
            }
            Event::Exited => {
                if self.server.try_wait().is_some() {
                    self.on_exit();
                }
            }
        }
    }

    /// Splits a stderr chunk into lines for the transcript.
    fn stderr_lines(&mut self, at: u64, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.stderr_partial);
            line.extend_from_slice(&rest[..nl]);
            self.stderr_line(at, line);
            rest = &rest[nl + 1..];
        }
        // An endless line is kept only up to the budget.
        let room = self
            .stderr_budget
            .saturating_sub(self.stderr_partial.len() as u64);
        let keep = rest.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        self.stderr_partial.extend_from_slice(&rest[..keep]);
    }

    fn stderr_line(&mut self, at: u64, line: Vec<u8>) {
        self.stderr_line_count += 1;
        let cost = line.len() as u64 + 1;
        if cost > self.stderr_budget {
            self.stderr_budget = 0;
            self.tr.stderr_lines_dropped += 1;
            return;
        }
        self.stderr_budget -= cost;
        let number = self.stderr_line_count;
        self.push(
            at,
            EntryKind::StderrLine {
                number,
                bytes: line,
            },
        );
    }

    fn on_exit(&mut self) {
        let Some(exit) = self.server.try_wait() else {
            return;
        };
        self.exited = true;
        let at = self.now_ms();
        self.tr.shutdown.exit = Some(exit);
        self.tr.shutdown.exited_at_ms = Some(at);
        let stage = self.stage;
        self.push(at, EntryKind::Exited { exit, stage });
    }

    fn on_line(&mut self, at: Instant, number: u64, offset: u64, bytes: Vec<u8>, terminated: bool) {
        let at = self.at_ms(at);
        let class = jsonrpc::classify(&bytes);
        let role = match &class.line {
            Line::Message(msg) => self.match_message(msg),
            Line::ContentLength => {
                self.tr.stop.get_or_insert(Stop::ProtocolError);
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
        // A reply that ends the wait may carry the result the checks need.
        if let (Role::Reply(target), Some(value)) = (&role, &class.value) {
            self.record_reply(*target, value, at);
        }
        self.push(
            at,
            EntryKind::Line {
                number,
                offset,
                bytes,
                terminated,
                class: Box::new(class),
                role,
            },
        );
    }

    fn unpack_batch(&mut self, bytes: &[u8], at: u64) {
        let Ok(Value::Array(items)) = serde_json::from_slice::<Value>(bytes) else {
            return;
        };
        for item in &items {
            if let Ok(msg) = jsonrpc::validate(item)
                && let Role::Reply(target) = self.match_message(&msg)
            {
                self.record_reply(target, item, at);
            }
        }
    }

    /// Decides which request a message answers, answers server requests,
    /// and notes the faults that end the conversation.
    fn match_message(&mut self, msg: &Message) -> Role {
        match msg {
            Message::Notification { .. } => Role::Notification,
            Message::Request { id, method } => {
                if let Some(&(_, target)) = self.pending.iter().find(|(sent, _)| id_is(id, *sent))
                    && self.tr.method_of(target) == method
                {
                    self.tr.stop.get_or_insert(Stop::ProtocolError);
                    return Role::EchoedRequest(target);
                }
                let answer = if self.writer.is_none() {
                    Answer::NotAnswered
                } else if method == "ping" {
                    self.send_recorded(None, "", jsonrpc::result_response(id, json!({})));
                    Answer::Pong
                } else {
                    let answer = jsonrpc::error_response(id, -32601, "Method not found");
                    self.send_recorded(None, "", answer);
                    Answer::MethodNotFound
                };
                Role::ServerRequest(answer)
            }
            Message::Response { id, error } => {
                let usable = id.as_ref().filter(|id| !id.is_null());
                let Some(id) = usable else {
                    let code = error.as_ref().and_then(jsonrpc::error_code);
                    if matches!(code, Some(-32700) | Some(-32600)) {
                        return Role::ParseErrorReply;
                    }
                    if self.notified {
                        return Role::NotificationReply;
                    }
                    return self.unknown_id();
                };
                if let Some(pos) = self.pending.iter().position(|(sent, _)| id_is(id, *sent)) {
                    let (sent, target) = self.pending.remove(pos);
                    self.answered.push((sent, target));
                    return Role::Reply(target);
                }
                if let Some(&(sent, target)) = self
                    .pending
                    .iter()
                    .find(|(sent, _)| id_loosely_is(id, *sent))
                {
                    self.tr.stop.get_or_insert(Stop::ProtocolError);
                    return Role::IdTypeMismatch { target, sent };
                }
                if let Some(&(_, target)) = self.abandoned.iter().find(|(s, _)| id_is(id, *s)) {
                    return Role::LateReply(target);
                }
                if let Some(&(_, target)) = self.answered.iter().find(|(s, _)| id_is(id, *s)) {
                    return Role::DuplicateReply(target);
                }
                self.unknown_id()
            }
        }
    }

    fn unknown_id(&mut self) -> Role {
        let pending = self.pending.first().map(|&(id, t)| (t, id));
        if pending.is_some() {
            // The client would wait forever for the real answer.
            self.tr.stop.get_or_insert(Stop::ProtocolError);
        }
        Role::UnknownId { pending }
    }

    fn record_reply(&mut self, target: Target, value: &Value, at: u64) {
        let result = value.get("result").cloned();
        let error = value.get("error").cloned();
        match target {
            Target::Initialize => {
                self.tr.init_reply_at_ms = Some(at);
                self.tr.init_reply = Some(match (result, error) {
                    (_, Some(error)) => {
                        self.tr.stop.get_or_insert(Stop::ProtocolError);
                        Err(error)
                    }
                    (result, None) => Ok(result.unwrap_or(Value::Null)),
                });
                self.stage = Stage::PostInitialize;
            }
            Target::Op(_) | Target::Probe(_) | Target::Adversarial(_) => {
                if let Some(record) = self.tr.record_mut(target) {
                    record.responded = true;
                    record.result = result;
                    record.error = error;
                }
                self.stage = Stage::PostInitialize;
            }
        }
    }

    fn converse(&mut self) {
        let params = json!({
            "protocolVersion": self.cfg.protocol,
            "capabilities": {},
            "clientInfo": {"name": "mcp-stdio-guard", "version": env!("CARGO_PKG_VERSION")},
        });
        self.send_request(Target::Initialize, "initialize", Some(&params));
        let deadline = self.t0 + self.cfg.startup_timeout;
        let answered = self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.is_pending(Target::Initialize) || d.halted()
        });
        if !answered {
            let ms = ms(self.cfg.startup_timeout);
            self.timeout(Target::Initialize, ms);
            return;
        }
        if self.halted() {
            return;
        }
        // A result the guard cannot work with (no usable protocol version or
        // capabilities) fails the run before `notifications/initialized`.
        match self.tr.init_result() {
            Some(result) if !initialize::blocks_handshake(result, &self.cfg.protocol) => {}
            Some(_) => {
                self.tr.stop.get_or_insert(Stop::ProtocolError);
                return;
            }
            None => return,
        }
        self.send_notification(
            "notifications/initialized",
            jsonrpc::notification("notifications/initialized"),
        );
        self.tr.handshake = true;
        for i in 0..self.cfg.operations.len() {
            let op = &self.cfg.operations[i];
            let (method, params) = (op.method.clone(), op.params.clone());
            if !self.exchange(Target::Op(i), &method, params.as_ref()) {
                return;
            }
        }
        if (self.cfg.capability_probes || self.cfg.force_tools_list) && !self.probe_capabilities() {
            return;
        }
        if let Some(spec) = &self.cfg.tool_call
            && !self.call_tool(spec)
        {
            return;
        }
        if !self.cfg.adversarial.is_empty() && !self.adversarial() {
            return;
        }
        self.stage = Stage::PostInitialize;
        let settle_end = Instant::now() + self.cfg.settle;
        self.wait_until(settle_end, INTERRUPT_POLL, |d| d.halted());
    }

    /// Sends one post-initialize request and waits for its response under
    /// the request timeout. On timeout it tells the server it gave up (MCP:
    /// SHOULD) and goes on: one slow request does not end the session.
    /// Returns false when the session has halted.
    fn exchange(&mut self, target: Target, method: &str, params: Option<&Value>) -> bool {
        self.stage = match target {
            Target::Probe(i) => Stage::Probe(i),
            Target::Op(i) => Stage::Operation(i),
            Target::Adversarial(i) => Stage::Adversarial(i),
            Target::Initialize => Stage::Initialize,
        };
        let id = self.send_request(target, method, params);
        if let Some(record) = self.tr.record_mut(target) {
            record.id = Some(id);
        }
        let deadline = Instant::now() + self.cfg.request_timeout;
        let answered = self.wait_until(deadline, INTERRUPT_POLL, |d| {
            !d.is_pending(target) || d.halted()
        });
        if self.halted() {
            return false;
        }
        if !answered {
            let ms = ms(self.cfg.request_timeout);
            self.timeout(target, ms);
            let cancel = json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "timeout"},
            });
            let mut bytes = cancel.to_string().into_bytes();
            bytes.push(b'\n');
            self.send_notification("notifications/cancelled", bytes);
        }
        self.stage = Stage::PostInitialize;
        true
    }

    /// Lists everything `initialize` advertised, following `nextCursor`
    /// while it is a new string, for at most `mcp::MAX_PAGES` pages. A list
    /// an operation already fetched from its first page continues from that
    /// operation's cursor. Returns false when the session has halted.
    fn probe_capabilities(&mut self) -> bool {
        let advertised: Vec<String> = self
            .tr
            .init_result()
            .map(|r| mcp::advertised(r).into_iter().map(String::from).collect())
            .unwrap_or_default();
        for spec in &mcp::LISTS {
            let is_advertised = advertised.iter().any(|k| k == spec.capability);
            let wanted = (self.cfg.capability_probes && is_advertised)
                || (self.cfg.force_tools_list && spec.method == "tools/list");
            if !wanted {
                continue;
            }
            let mut cursor = None;
            let mut seen: Vec<String> = Vec::new();
            let mut pages = 0;
            if let Some(op) = self.tr.covering_op(spec.method) {
                match next_cursor(op.result.as_ref()) {
                    Some(next) => {
                        seen.push(next.clone());
                        cursor = Some(next);
                    }
                    None => continue,
                }
                pages = 1;
            }
            while pages < mcp::MAX_PAGES {
                let params = cursor.as_ref().map(|c| json!({"cursor": c}));
                let i = self.tr.probes.len();
                let mut record = OpRecord::new(spec.method, params.is_some(), "capability-probe");
                record.cursor = cursor.clone();
                self.tr.probes.push(record);
                if !self.exchange(Target::Probe(i), spec.method, params.as_ref()) {
                    return false;
                }
                pages += 1;
                match next_cursor(self.tr.probes[i].result.as_ref()) {
                    Some(next) if !seen.contains(&next) => {
                        seen.push(next.clone());
                        cursor = Some(next);
                    }
                    // The end, an error, a timeout, or a cursor seen before
                    // (a loop, which the checks report).
                    _ => break,
                }
            }
        }
        true
    }

    /// Calls the `call` command's tool, its arguments typed from the listed
    /// schema. A tool or argument that does not fit is recorded and nothing
    /// is called. Returns false when the session has halted.
    fn call_tool(&mut self, spec: &CallSpec) -> bool {
        let tools: Vec<Value> = self.tr.listed("tools/list").into_iter().cloned().collect();
        let arguments = match crate::call::arguments(&tools, spec) {
            Ok(arguments) => arguments,
            Err(problem) => {
                self.tr.call_problem = Some(problem);
                return true;
            }
        };
        let params = json!({"name": spec.tool, "arguments": arguments});
        let i = self.tr.ops.len();
        let mut record = OpRecord::new("tools/call", true, "cli-call");
        record.params = Some(params.clone());
        self.tr.ops.push(record);
        self.exchange(Target::Op(i), "tools/call", Some(&params))
    }

    /// Runs the adversarial probes in order. A probe that fails (judged by
    /// `checks::adversarial`, a pure function) stops the sequence: the rest
    /// stay `started: false`. Returns false when the session has halted.
    fn adversarial(&mut self) -> bool {
        for probe in &self.cfg.adversarial {
            let (name, source, method, tool) = match probe {
                Probe::Builtin(name) => {
                    let method = match name.as_str() {
                        "invalid-method" => INVALID_METHOD,
                        "invalid-params" => "tools/list",
                        "notification" => PROBE_NOTIFICATION,
                        _ => "",
                    };
                    (name.clone(), "builtin", method.to_string(), None)
                }
                Probe::ToolCall { name, .. } => (
                    "tool-call".to_string(),
                    "adversarial-tool-call",
                    "tools/call".to_string(),
                    Some(name.clone()),
                ),
            };
            let has_params = !matches!(name.as_str(), "notification" | "malformed-json");
            self.tr.adversarial.push(AdvRecord {
                name,
                source,
                method: method.clone(),
                tool,
                started: false,
                entries: 0..0,
                started_ms: 0,
                duration_ms: None,
                request: OpRecord::new(&method, has_params, "adversarial-probe"),
            });
        }
        // A longer --settle lengthens the window (a loaded machine).
        let observe = self
            .cfg
            .request_timeout
            .min(OBSERVE_WINDOW.max(self.cfg.settle));
        for i in 0..self.tr.adversarial.len() {
            let probe = self.cfg.adversarial[i].clone();
            let first = self.tr.entries.len();
            let t0 = Instant::now();
            self.tr.adversarial[i].started = true;
            self.tr.adversarial[i].started_ms = self.now_ms();
            self.stage = Stage::Adversarial(i);
            let still_going = match &probe {
                Probe::Builtin(name) if name == "invalid-method" => {
                    self.adversarial_request(i, INVALID_METHOD, json!({}))
                }
                Probe::Builtin(name) if name == "invalid-params" => {
                    self.adversarial_request(i, "tools/list", json!({"cursor": 5}))
                }
                Probe::ToolCall { name, arguments } => self.adversarial_request(
                    i,
                    "tools/call",
                    json!({"name": name, "arguments": arguments}),
                ),
                Probe::Builtin(name) => {
                    let bytes = if name == "notification" {
                        jsonrpc::notification(PROBE_NOTIFICATION)
                    } else {
                        MALFORMED_JSON.as_bytes().to_vec()
                    };
                    let method = if name == "notification" {
                        PROBE_NOTIFICATION
                    } else {
                        ""
                    };
                    self.send_notification(method, bytes);
                    let end = Instant::now() + observe;
                    self.wait_until(end, INTERRUPT_POLL, |d| d.halted());
                    !self.halted()
                }
            };
            let rec = &mut self.tr.adversarial[i];
            rec.duration_ms = Some(ms(t0.elapsed()));
            rec.entries = first..self.tr.entries.len();
            self.stage = Stage::PostInitialize;
            if !still_going {
                return false;
            }
            if crate::checks::adversarial::probe_issues(&self.tr, i)
                .iter()
                .any(|issue| issue.is_error())
            {
                break;
            }
        }
        true
    }

    /// One request probe. Returns false when the session has halted.
    fn adversarial_request(&mut self, i: usize, method: &str, params: Value) -> bool {
        self.tr.adversarial[i].request.params = Some(params.clone());
        self.exchange(Target::Adversarial(i), method, Some(&params))
    }

    fn timeout(&mut self, target: Target, ms: u64) {
        if let Some(pos) = self.pending.iter().position(|(_, t)| *t == target) {
            let entry = self.pending.remove(pos);
            self.abandoned.push(entry);
        }
        let at = self.now_ms();
        self.push(at, EntryKind::Timeout { target, ms });
        if target == Target::Initialize {
            self.tr.stop.get_or_insert(Stop::Timeout);
        } else if matches!(target, Target::Op(_))
            && self.tr.stop.is_none()
            && self.cfg.operations.len() == 1
        {
            // With a single operation the timeout is what ended the session.
            self.tr.stop = Some(Stop::Timeout);
        }
    }

    fn teardown(&mut self) {
        let interrupted = matches!(self.tr.stop, Some(Stop::Interrupted(_)));
        if self.exited {
            self.tr.shutdown.ended_by = EndedBy::ItsOwnExit;
        } else {
            self.stage = Stage::Shutdown;
            if !interrupted {
                self.writer = None;
                self.tr.shutdown.stdin_closed_at_ms = Some(self.now_ms());
                let grace = Instant::now() + self.cfg.grace;
                if self.wait_until(grace, INTERRUPT_POLL, |d| d.exited) {
                    self.tr.shutdown.ended_by = EndedBy::StdinClose;
                } else if !matches!(self.tr.stop, Some(Stop::Interrupted(_))) {
                    self.server.signal_group(sys::SIGTERM);
                    self.tr.shutdown.sigterm_at_ms = Some(self.now_ms());
                    let grace = Instant::now() + self.cfg.grace;
                    if self.wait_until(grace, INTERRUPT_POLL, |d| d.exited) {
                        self.tr.shutdown.ended_by = EndedBy::Sigterm;
                    }
                }
            }
            if !self.exited {
                self.writer = None;
                self.server.signal_group(sys::SIGKILL);
                self.tr.shutdown.sigkill_at_ms = Some(self.now_ms());
                let bound = Instant::now() + KILL_BOUND;
                if self.wait_until(bound, GROUP_POLL, |d| {
                    d.poll_exit();
                    d.exited
                }) {
                    self.tr.shutdown.ended_by = EndedBy::Sigkill;
                }
            }
        }
        self.writer = None;
        if !self.exited {
            // Not reaped within the bounds: the Drop guard finishes the job.
            return;
        }
        // The leader is reaped; anything left in its group outlived it.
        if self.server.group_alive() {
            let bound = Instant::now() + ORPHAN_GRACE;
            if !self.wait_until(bound, GROUP_POLL, |d| !d.server.group_alive()) {
                self.tr.shutdown.orphans = true;
                self.server.signal_group(sys::SIGKILL);
                let bound = Instant::now() + KILL_BOUND;
                self.wait_until(bound, GROUP_POLL, |d| !d.server.group_alive());
            }
        }
        let bound = Instant::now() + DRAIN_BOUND;
        self.wait_until(bound, INTERRUPT_POLL, |d| !d.stdout_open && !d.stderr_open);
        self.tr.shutdown.stdout_held_open = self.stdout_open;
        self.tr.shutdown.stderr_held_open = self.stderr_open;
    }
}

/// The `nextCursor` of a list result, when it is a string.
fn next_cursor(result: Option<&Value>) -> Option<String> {
    result?.get("nextCursor")?.as_str().map(String::from)
}

/// Whether a response id is exactly the id the guard sent (type included).
fn id_is(id: &Value, sent: u64) -> bool {
    id.as_u64() == Some(sent) && !id.is_f64()
}

/// Whether a response id equals the sent id only after a type change
/// (`"1"` for `1`).
fn id_loosely_is(id: &Value, sent: u64) -> bool {
    match id {
        Value::String(s) => s.trim() == sent.to_string(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{self, SyncSender};
    use std::sync::{Arc, Mutex};

    #[test]
    fn ids_match_by_value_and_type() {
        assert!(id_is(&json!(1), 1));
        assert!(!id_is(&json!("1"), 1));
        assert!(!id_is(&json!(2), 1));
        assert!(id_loosely_is(&json!("1"), 1));
        assert!(!id_loosely_is(&json!(1), 1));
        assert!(!id_loosely_is(&json!("01x"), 1));
    }

    /// The state shared by a scripted server and its stand-in process.
    #[derive(Default)]
    struct Shared {
        exit: Option<Exit>,
        signals: Vec<i32>,
        received: Vec<Value>,
    }

    /// A process that exits when signalled, reporting it on the channel.
    struct Scripted {
        shared: Arc<Mutex<Shared>>,
        tx: SyncSender<Event>,
    }

    fn ended(tx: &SyncSender<Event>) {
        let _ = tx.send(Event::Exited);
        let _ = tx.send(Event::StdoutClosed { total: 0 });
        let _ = tx.send(Event::StderrClosed);
    }

    impl Process for Scripted {
        fn try_wait(&mut self) -> Option<Exit> {
            self.shared.lock().expect("lock").exit
        }

        fn signal_group(&mut self, sig: i32) -> bool {
            let mut s = self.shared.lock().expect("lock");
            s.signals.push(sig);
            if s.exit.is_none() {
                s.exit = Some(Exit {
                    code: None,
                    signal: Some(sig),
                });
                ended(&self.tx);
            }
            true
        }

        fn group_alive(&mut self) -> bool {
            false
        }
    }

    fn config() -> SessionConfig {
        SessionConfig {
            protocol: "2025-11-25".into(),
            startup_timeout: Duration::from_millis(2000),
            request_timeout: Duration::from_millis(2000),
            settle: Duration::ZERO,
            grace: Duration::from_millis(500),
            max_stdout_bytes: 1 << 20,
            max_stdout_line_bytes: 1 << 16,
            max_stderr_bytes: 1 << 16,
            operations: Vec::new(),
            capability_probes: true,
            force_tools_list: false,
            tool_call: None,
            adversarial: Vec::new(),
        }
    }

    /// Runs a session against `respond`, which answers each message the
    /// guard writes with the lines the server writes back; closing stdin
    /// makes the scripted server exit 0. Returns the transcript and every
    /// message the server received.
    fn scripted(
        cfg: &SessionConfig,
        respond: impl FnMut(&Value) -> Vec<String> + Send + 'static,
    ) -> (Transcript, Shared) {
        scripted_with(cfg, false, respond)
    }

    /// As `scripted`; with `ignore_eof` the server does not exit when its
    /// stdin closes, only when signalled.
    fn scripted_with(
        cfg: &SessionConfig,
        ignore_eof: bool,
        mut respond: impl FnMut(&Value) -> Vec<String> + Send + 'static,
    ) -> (Transcript, Shared) {
        let (tx, rx) = wire::channel();
        let (writer, stdin) = mpsc::channel::<Vec<u8>>();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let (server_tx, server_shared) = (tx.clone(), Arc::clone(&shared));
        let server = std::thread::spawn(move || {
            let mut number = 0;
            while let Ok(bytes) = stdin.recv() {
                let Ok(msg) = serde_json::from_slice::<Value>(&bytes) else {
                    continue;
                };
                server_shared
                    .lock()
                    .expect("lock")
                    .received
                    .push(msg.clone());
                for line in respond(&msg) {
                    number += 1;
                    let event = Event::StdoutLine {
                        at: Instant::now(),
                        number,
                        offset: 0,
                        bytes: line.into_bytes(),
                        terminated: true,
                    };
                    if server_tx.send(event).is_err() {
                        return;
                    }
                }
            }
            // stdin closed: exit 0, unless a signal came first.
            let mut s = server_shared.lock().expect("lock");
            if s.exit.is_none() && !ignore_eof {
                s.exit = Some(Exit {
                    code: Some(0),
                    signal: None,
                });
                ended(&server_tx);
            }
        });
        let process = Scripted {
            shared: Arc::clone(&shared),
            tx,
        };
        let tr = drive(
            process,
            rx,
            writer,
            Instant::now(),
            cfg,
            empty_transcript(cfg),
        );
        server.join().expect("scripted server");
        let shared = std::mem::take(&mut *shared.lock().expect("lock"));
        (tr, shared)
    }

    fn reply(msg: &Value, result: Value) -> String {
        json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}).to_string()
    }

    fn init_result(caps: Value) -> Value {
        json!({"protocolVersion": "2025-11-25", "capabilities": caps,
            "serverInfo": {"name": "s", "version": "1"}})
    }

    fn methods(shared: &Shared) -> Vec<String> {
        shared
            .received
            .iter()
            .map(|m| m["method"].as_str().unwrap_or("(response)").to_string())
            .collect()
    }

    #[test]
    fn a_correct_server_is_initialized_listed_and_stopped_by_closing_stdin() {
        let (tr, shared) = scripted(&config(), |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"tools": {}})))],
            Some("tools/list") => vec![reply(m, json!({"tools": []}))],
            _ => vec![],
        });
        assert!(tr.initialized());
        assert_eq!(
            methods(&shared),
            ["initialize", "notifications/initialized", "tools/list"]
        );
        assert_eq!(tr.probes.len(), 1);
        assert_eq!(tr.shutdown.ended_by, EndedBy::StdinClose);
        assert!(shared.signals.is_empty());
    }

    #[test]
    fn every_page_is_followed_until_the_cursor_ends_or_repeats() {
        let (tr, shared) = scripted(&config(), |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"prompts": {}})))],
            Some("prompts/list") => {
                let next = match m.pointer("/params/cursor").and_then(Value::as_str) {
                    None => json!("p2"),
                    Some("p2") => json!("p3"),
                    _ => json!("p2"), // a loop back to page 2
                };
                vec![reply(m, json!({"prompts": [], "nextCursor": next}))]
            }
            _ => vec![],
        });
        let cursors: Vec<Option<String>> = tr.probes.iter().map(|p| p.cursor.clone()).collect();
        assert_eq!(cursors, [None, Some("p2".into()), Some("p3".into())]);
        assert_eq!(methods(&shared).len(), 5);
    }

    #[test]
    fn an_unusable_initialize_result_stops_before_initialized() {
        let (tr, shared) = scripted(&config(), |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, json!({"protocolVersion": "2025-11-25"}))],
            _ => vec![],
        });
        assert!(!tr.initialized());
        assert_eq!(tr.stop, Some(Stop::ProtocolError));
        assert_eq!(methods(&shared), ["initialize"]);
    }

    #[test]
    fn server_requests_are_answered_before_initialize_completes() {
        let (tr, shared) = scripted(&config(), |m| match m["method"].as_str() {
            Some("initialize") => vec![
                json!({"jsonrpc": "2.0", "id": "s1", "method": "ping"}).to_string(),
                json!({"jsonrpc": "2.0", "id": "s2", "method": "roots/list"}).to_string(),
                reply(m, init_result(json!({}))),
            ],
            _ => vec![],
        });
        assert!(tr.initialized());
        let answers: Vec<&Value> = shared
            .received
            .iter()
            .filter(|m| m.get("method").is_none())
            .collect();
        assert_eq!(
            answers[0],
            &json!({"jsonrpc": "2.0", "id": "s1", "result": {}})
        );
        assert_eq!(answers[1]["error"]["code"], -32601);
    }

    #[test]
    fn a_wrong_id_ends_the_wait_at_once() {
        let cfg = config();
        let t0 = Instant::now();
        let (tr, _) = scripted(&cfg, |m| match m["method"].as_str() {
            Some("initialize") => {
                vec![json!({"jsonrpc": "2.0", "id": 99, "result": {}}).to_string()]
            }
            _ => vec![],
        });
        assert_eq!(tr.stop, Some(Stop::ProtocolError));
        assert!(t0.elapsed() < cfg.startup_timeout, "{:?}", t0.elapsed());
    }

    #[test]
    fn a_probe_timeout_is_cancelled_and_the_session_goes_on() {
        let mut cfg = config();
        cfg.request_timeout = Duration::from_millis(100);
        let (tr, shared) = scripted(&cfg, |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"tools": {}, "prompts": {}})))],
            Some("prompts/list") => vec![reply(m, json!({"prompts": []}))],
            _ => vec![], // tools/list never answered
        });
        assert_eq!(
            methods(&shared),
            [
                "initialize",
                "notifications/initialized",
                "tools/list",
                "notifications/cancelled",
                "prompts/list"
            ]
        );
        assert_eq!(shared.received[3]["params"]["requestId"], 2);
        assert!(tr.probes[1].responded);
        assert_eq!(tr.stop, None);
    }

    #[test]
    fn a_server_that_ignores_stdin_close_gets_sigterm_after_the_grace() {
        let mut cfg = config();
        cfg.grace = Duration::from_millis(50);
        let (tr, shared) = scripted_with(&cfg, true, |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({})))],
            _ => vec![],
        });
        assert_eq!(tr.shutdown.ended_by, EndedBy::Sigterm);
        assert_eq!(shared.signals, [sys::SIGTERM]);
        assert!(tr.shutdown.stdin_closed_at_ms.is_some());
    }
}
