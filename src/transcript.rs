//! The record of one session: every line the server wrote, what the session
//! made of it (which request a response answers), what the guard sent, the
//! timeouts, the exit and the shutdown. The session writes it; the checks and
//! the report only read it. It holds facts, never verdicts.

use serde_json::Value;

use crate::child::Exit;
use crate::jsonrpc::Classified;
use crate::wire::StderrCapture;

/// A request the guard sent and waits (or waited) for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Initialize,
    /// The operation at this index of `Transcript::ops`.
    Op(usize),
    /// The capability-probe page at this index of `Transcript::probes`.
    Probe(usize),
    /// The adversarial probe at this index of `Transcript::adversarial`.
    Adversarial(usize),
}

/// Where the session was when something happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the initialize response.
    Initialize,
    /// Waiting for the response to operation `n`.
    Operation(usize),
    /// Waiting for the response to capability-probe page `n`.
    Probe(usize),
    /// Running adversarial probe `n`.
    Adversarial(usize),
    /// Initialized, nothing outstanding (including the settle window).
    PostInitialize,
    /// The guard has begun to stop the server (stdin closed or signalled).
    Shutdown,
}

/// How a server request was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `ping`, answered with `{}`.
    Pong,
    /// Anything else, answered with -32601.
    MethodNotFound,
    /// stdin was already closed: no answer could be sent.
    NotAnswered,
}

/// What a stdout message was, in the exchange.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// Not a message (a framing fault); judged from its classification.
    NotAMessage,
    /// The response to one of our requests.
    Reply(Target),
    /// A response to a request the guard had given up on (timed out).
    LateReply(Target),
    /// A second response to a request already answered.
    DuplicateReply(Target),
    /// A response whose id equals one we sent in value but not in type
    /// (`"1"` for `1`).
    IdTypeMismatch {
        target: Target,
        sent: u64,
    },
    /// A response to an id the guard never sent; `pending` is what the guard
    /// was waiting for at the time, if anything.
    UnknownId {
        pending: Option<(Target, u64)>,
    },
    /// A response without a usable id after the guard sent a notification.
    NotificationReply,
    /// An error response with a null or missing id and code -32700/-32600.
    ParseErrorReply,
    /// A request that carries the id and method of the guard's own pending
    /// request: the server echoed our message instead of answering it.
    EchoedRequest(Target),
    /// A request from the server, and how the guard answered it.
    ServerRequest(Answer),
    Notification,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EntryKind {
    /// The guard wrote a request (`id`), a notification, or an answer to
    /// a server request (`method` empty) to stdin: the exact bytes.
    Sent {
        id: Option<u64>,
        method: String,
        bytes: Vec<u8>,
    },
    /// One stderr line (without its newline), while the transcript's
    /// stderr budget lasts.
    StderrLine { number: u64, bytes: Vec<u8> },
    /// One stdout line.
    Line {
        number: u64,
        offset: u64,
        bytes: Vec<u8>,
        terminated: bool,
        class: Box<Classified>,
        role: Role,
    },
    /// A stdout line longer than the limit (only its head is kept).
    Oversize {
        number: u64,
        offset: u64,
        head: Vec<u8>,
        len: u64,
    },
    /// The total stdout limit was passed.
    StdoutLimit { total: u64 },
    /// No response within the timeout.
    Timeout { target: Target, ms: u64 },
    /// The server's leader exited.
    Exited { exit: Exit, stage: Stage },
    /// Writing to the server's stdin failed.
    WriteFailed { error: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Milliseconds since the spawn.
    pub at_ms: u64,
    pub kind: EntryKind,
}

/// One post-initialize request: an operation or a capability-probe page.
#[derive(Debug, Clone, PartialEq)]
pub struct OpRecord {
    pub method: String,
    pub has_params: bool,
    pub source: &'static str,
    /// The pagination cursor sent with a probe page.
    pub cursor: Option<String>,
    /// The params sent.
    pub params: Option<Value>,
    /// The tool of a config `safeToolCalls` entry.
    pub safe_tool_call: Option<String>,
    pub id: Option<u64>,
    pub responded: bool,
    pub result: Option<Value>,
    pub error: Option<Value>,
}

impl OpRecord {
    /// An operation not yet sent.
    pub fn new(method: &str, has_params: bool, source: &'static str) -> OpRecord {
        OpRecord {
            method: method.to_string(),
            has_params,
            source,
            cursor: None,
            params: None,
            safe_tool_call: None,
            id: None,
            responded: false,
            result: None,
            error: None,
        }
    }
}

/// One adversarial probe as it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct AdvRecord {
    /// `invalid-method`, `invalid-params`, `notification`, `malformed-json`,
    /// or `tool-call` for a configured invalid-argument call.
    pub name: String,
    /// `builtin` or `adversarial-tool-call`.
    pub source: &'static str,
    /// The method sent (`""` for malformed JSON).
    pub method: String,
    pub tool: Option<String>,
    pub started: bool,
    /// The transcript entries written while the probe ran.
    pub entries: std::ops::Range<usize>,
    pub started_ms: u64,
    pub duration_ms: Option<u64>,
    /// The request sent, and its response (request probes only).
    pub request: OpRecord,
}

/// Why the conversation ended before its natural end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Timeout,
    ProtocolError,
    OutputLimit,
    Interrupted(i32),
}

/// The step of the shutdown sequence that ended the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndedBy {
    /// It exited before the guard began to stop it.
    ItsOwnExit,
    /// It exited after stdin was closed.
    StdinClose,
    Sigterm,
    Sigkill,
    /// It did not die even after SIGKILL within the bound (or could not be
    /// reaped); the Drop guard reaps it.
    Unknown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Shutdown {
    pub ended_by: EndedBy,
    pub stdin_closed_at_ms: Option<u64>,
    pub sigterm_at_ms: Option<u64>,
    pub sigkill_at_ms: Option<u64>,
    /// The exit status, however the server ended.
    pub exit: Option<Exit>,
    pub exited_at_ms: Option<u64>,
    /// Other members of the server's process group were alive after the
    /// leader exited, and were killed.
    pub orphans: bool,
    /// A stream stayed open after the group was gone: a process outside the
    /// group (setsid, double fork) holds it.
    pub stdout_held_open: bool,
    pub stderr_held_open: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SpawnError {
    pub code: String,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Transcript {
    pub pid: Option<u32>,
    /// The absolute path of the program that ran, as the kernel saw it.
    pub executable: Option<String>,
    /// stderr lines not kept as entries once the budget was spent.
    pub stderr_lines_dropped: u64,
    pub spawn_error: Option<SpawnError>,
    pub entries: Vec<Entry>,
    /// The initialize response: `Ok(result)` or `Err(error object)`.
    pub init_reply: Option<Result<Value, Value>>,
    pub init_reply_at_ms: Option<u64>,
    /// Whether `notifications/initialized` was sent: the handshake is done.
    pub handshake: bool,
    pub ops: Vec<OpRecord>,
    /// Why the `call` command's tool was not called (unknown tool or
    /// argument, a value that does not fit its type).
    pub call_problem: Option<String>,
    /// The capability-probe pages, in the order they were sent.
    pub probes: Vec<OpRecord>,
    /// The adversarial probes, every one planned (`started` false for
    /// those a failure skipped).
    pub adversarial: Vec<AdvRecord>,
    pub stop: Option<Stop>,
    pub stdout_bytes: u64,
    pub stderr: StderrCapture,
    pub shutdown: Shutdown,
    pub duration_ms: u64,
}

impl Transcript {
    pub fn new(ops: Vec<OpRecord>, stderr_cap: u64) -> Transcript {
        Transcript {
            pid: None,
            executable: None,
            stderr_lines_dropped: 0,
            spawn_error: None,
            entries: Vec::new(),
            init_reply: None,
            init_reply_at_ms: None,
            handshake: false,
            ops,
            call_problem: None,
            probes: Vec::new(),
            adversarial: Vec::new(),
            stop: None,
            stdout_bytes: 0,
            stderr: StderrCapture::new(stderr_cap),
            shutdown: Shutdown {
                ended_by: EndedBy::Unknown,
                stdin_closed_at_ms: None,
                sigterm_at_ms: None,
                sigkill_at_ms: None,
                exit: None,
                exited_at_ms: None,
                orphans: false,
                stdout_held_open: false,
                stderr_held_open: false,
            },
            duration_ms: 0,
        }
    }

    /// Whether the handshake completed: initialize answered with a result
    /// the guard accepted, and `notifications/initialized` was sent.
    pub fn initialized(&self) -> bool {
        self.handshake
    }

    /// The initialize result, when initialize answered with one.
    pub fn init_result(&self) -> Option<&Value> {
        match &self.init_reply {
            Some(Ok(result)) => Some(result),
            _ => None,
        }
    }

    /// The protocol version the server answered with, or "".
    pub fn negotiated_protocol(&self) -> &str {
        self.init_result()
            .and_then(|r| r.get("protocolVersion"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub fn method_of(&self, target: Target) -> &str {
        match target {
            Target::Initialize => "initialize",
            Target::Op(i) => self.ops.get(i).map_or("request", |op| op.method.as_str()),
            Target::Probe(i) => self.probes.get(i).map_or("request", |p| p.method.as_str()),
            Target::Adversarial(i) => self
                .adversarial
                .get(i)
                .map_or("request", |a| a.method.as_str()),
        }
    }

    pub fn record(&self, target: Target) -> Option<&OpRecord> {
        match target {
            Target::Initialize => None,
            Target::Op(i) => self.ops.get(i),
            Target::Probe(i) => self.probes.get(i),
            Target::Adversarial(i) => self.adversarial.get(i).map(|a| &a.request),
        }
    }

    /// The operation that listed `method` from its first page (no cursor)
    /// and got a result: the probe of that list continues from it.
    pub fn covering_op(&self, method: &str) -> Option<&OpRecord> {
        self.ops.iter().find(|op| {
            op.method == method && op.cursor.is_none() && !op.has_params && op.result.is_some()
        })
    }

    /// The items of one list over all its pages (`tools` of tools/list,
    /// `prompts` of prompts/list, ...), in order.
    pub fn listed(&self, method: &str) -> Vec<&Value> {
        let key = crate::mcp::list_spec(method).map_or("", |s| s.items);
        self.list_chain(method)
            .into_iter()
            .filter_map(|p| p.result.as_ref()?.get(key)?.as_array())
            .flatten()
            .collect()
    }

    /// How many items one list has over its pages, or `None` when no page
    /// held an item array.
    pub fn list_item_count(&self, method: &str) -> Option<usize> {
        let key = crate::mcp::list_spec(method).map_or("", |s| s.items);
        let pages: Vec<usize> = self
            .list_chain(method)
            .iter()
            .filter_map(|p| p.result.as_ref()?.get(key)?.as_array().map(Vec::len))
            .collect();
        (!pages.is_empty()).then(|| pages.iter().sum())
    }

    /// The `call` command's tool call, once it was made.
    pub fn cli_call(&self) -> Option<&OpRecord> {
        self.ops.iter().find(|op| op.source == "cli-call")
    }

    pub fn record_mut(&mut self, target: Target) -> Option<&mut OpRecord> {
        match target {
            Target::Initialize => None,
            Target::Op(i) => self.ops.get_mut(i),
            Target::Probe(i) => self.probes.get_mut(i),
            Target::Adversarial(i) => self.adversarial.get_mut(i).map(|a| &mut a.request),
        }
    }

    /// Every page of one list, in order: the covering operation's result
    /// first (if any), then the probe pages.
    pub fn list_chain(&self, method: &str) -> Vec<&OpRecord> {
        let mut chain: Vec<&OpRecord> = self.covering_op(method).into_iter().collect();
        chain.extend(self.probes.iter().filter(|p| p.method == method));
        chain
    }

    /// Every valid JSON-RPC message the server wrote, in order.
    pub fn frames(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().filter_map(|e| match &e.kind {
            EntryKind::Line { class, .. } => class.value.as_ref(),
            _ => None,
        })
    }

    /// stdout lines that were not valid JSON-RPC messages.
    pub fn invalid_line_count(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| match &e.kind {
                EntryKind::Line { class, .. } => class.value.is_none(),
                EntryKind::Oversize { .. } => true,
                _ => false,
            })
            .count()
    }
}
