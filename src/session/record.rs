//! The session's vocabulary: what the guard waits for (`Target`), where
//! the conversation is (`Stage`), what a stdout message was (`Role`), why
//! it stopped (`Stop`), the era (`Speaks`), and the `Record`s it emits, in
//! time order, to a `Recorder`; with the two things it needs of others: a
//! judge of the one question it cannot answer alone (`Rules`) and a
//! process to talk to (`Process`).

use serde_json::Value;

use crate::jsonrpc::Line;
use crate::plan::OpSource;
use crate::session::child::Exit;
use crate::sys::Proc;

/// A request the guard sent and waits (or waited) for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Initialize,
    /// `server/discover`: the era probe, or the 2026-07-28 opening.
    Discover,
    /// The operation at this index: the configured operations, then the
    /// `call` command's call.
    Op(usize),
    /// The capability-probe page at this index, in sending order.
    Probe(usize),
    /// The adversarial probe at this index of the configured probes.
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
    /// A response carrying the id written inside the guard's own
    /// malformed-JSON probe: the server read the broken line as a request.
    MalformedReply,
    /// A request that carries the id and method of the guard's own pending
    /// request: the server echoed our message instead of answering it.
    EchoedRequest(Target),
    /// A request from the server, and how the guard answered it.
    ServerRequest(Answer),
    Notification,
}

/// Why the conversation ended before its natural end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Timeout,
    ProtocolError,
    OutputLimit,
    Interrupted(i32),
    /// The era probe cost the process (it exited, or it may have pinned
    /// the wrong era): judge the server on a fresh process in this era.
    Restart(Speaks),
}

/// The protocol era a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaks {
    /// The 2025 handshake (`initialize`).
    Legacy,
    /// 2026-07-28: `server/discover` and `_meta` on every request.
    Modern,
}

impl Speaks {
    pub fn as_str(self) -> &'static str {
        match self {
            Speaks::Legacy => "legacy",
            Speaks::Modern => "modern",
        }
    }
}

/// How the session chose its era.
#[derive(Debug, Clone, PartialEq)]
pub struct EraFinding {
    pub speaks: Speaks,
    /// Which rule decided, in words.
    pub reason: String,
    /// What the discover probe got: `result`, `error <code>`, `silence`,
    /// `exit`, or `not-sent`.
    pub probe: String,
    /// When the probe was answered, in ms after it was sent.
    pub probe_ms: Option<u64>,
    /// The versions the server named (DiscoverResult or -32022 data).
    pub supported: Vec<String>,
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

/// One stdout line (without its newline) and what it was.
#[derive(Debug, Clone, PartialEq)]
pub struct StdoutLine {
    /// The physical line number, from 1.
    pub number: u64,
    /// The byte offset of its first byte in the stream.
    pub offset: u64,
    pub bytes: Vec<u8>,
    /// False for bytes that ended at EOF without a newline.
    pub terminated: bool,
    pub line: Line,
    pub crlf: bool,
    /// What was unusual about its JSON (a message's).
    pub quirks: crate::jsontext::Quirks,
    pub role: Role,
}

/// A request the guard sends: what for, with what, from where.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub target: Target,
    pub id: u64,
    pub method: String,
    pub params: Option<Value>,
    pub source: OpSource,
    /// The pagination cursor of a probe page.
    pub cursor: Option<String>,
}

/// One thing that happened in a session. Records arrive in time order,
/// each with the milliseconds since the spawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Spawned {
        pid: u32,
        executable: Option<String>,
    },
    /// The program that runs, read again once the server speaks (an
    /// `env`/shebang exec chain has settled by then).
    Executable(String),
    SpawnFailed {
        code: String,
        message: String,
    },
    /// The guard is about to send a request (its bytes follow as `Sent`).
    Request(Request),
    /// The exact bytes of a message the guard wrote to stdin: a request
    /// (`id`), a notification, or an answer to a server request (`method`
    /// empty).
    Sent {
        id: Option<u64>,
        method: String,
        bytes: Vec<u8>,
    },
    /// One stdout line and what it was.
    Line(StdoutLine),
    /// The result or error a request got.
    Reply {
        target: Target,
        result: Option<Value>,
        error: Option<Value>,
    },
    /// A stdout line longer than the limit (only its head is kept).
    Oversize {
        number: u64,
        offset: u64,
        head: Vec<u8>,
        len: u64,
    },
    /// The total stdout limit was passed.
    StdoutLimit {
        total: u64,
    },
    /// stdout closed (or was given up on); every byte read, counted.
    StdoutClosed {
        total: u64,
    },
    /// A chunk of stderr, as read.
    Stderr {
        bytes: Vec<u8>,
    },
    StderrClosed,
    /// No response within the timeout.
    Timeout {
        target: Target,
        ms: u64,
    },
    /// The server's leader exited.
    Exited {
        exit: Exit,
        stage: Stage,
    },
    /// Writing to the server's stdin failed.
    WriteFailed {
        error: String,
    },
    /// The session is open: `notifications/initialized` was sent (2025), or
    /// `server/discover` answered (2026-07-28).
    Handshake,
    /// The era the session speaks, and why.
    Era(EraFinding),
    /// An adversarial probe that does not apply to this era was skipped.
    ProbeSkipped {
        index: usize,
        reason: String,
    },
    /// A capability probe not sent: a request of the same method went
    /// unanswered earlier in the session (one silence, one wait).
    /// The guard gave up on a request while it still sat unread in the
    /// server's stdin pipe (`bytes` waiting): the server had not read it,
    /// so it was still starting or stuck, not holding an answer back.
    Unread {
        target: Target,
        bytes: usize,
    },
    ListSkipped {
        method: String,
    },
    /// The `call` command's tool or arguments did not fit; nothing was
    /// called.
    CallRefused {
        problem: String,
    },
    ProbeStarted {
        index: usize,
    },
    ProbeFinished {
        index: usize,
        duration_ms: u64,
    },
    /// Why the conversation ended early.
    Stop(Stop),
    /// The guard closed the server's stdin.
    StdinClosed,
    /// The guard signalled the server's process group.
    Signalled {
        signal: i32,
    },
    /// How the server ended.
    Ended(EndedBy),
    /// Processes that outlived the leader (live group members or, on
    /// Linux, any descendant) and were killed: their pid and command.
    Orphans {
        processes: Vec<(u32, String)>,
    },
    /// A stream stayed open after the group was gone.
    HeldOpen {
        stdout: bool,
        stderr: bool,
    },
    /// What the server touched (`--confine`), once its processes are gone.
    Confined(crate::session::confine::Log),
    /// The session is over.
    Finished,
}

/// Where a session's records go.
pub trait Recorder {
    fn record(&mut self, at_ms: u64, record: Record);
}

/// Records in memory, as they came (for tests and tools).
impl Recorder for Vec<(u64, Record)> {
    fn record(&mut self, at_ms: u64, record: Record) {
        self.push((at_ms, record));
    }
}

/// The judgements the session cannot go on without. `checks` implements
/// them; the session only asks.
pub trait Rules {
    /// Whether an initialize result is usable enough to send
    /// `notifications/initialized` and go on.
    fn handshake_usable(&self, result: &Value, requested: &str) -> bool;

    /// Whether what a server wrote on stderr before it exited says it
    /// failed to start (an error, a request for configuration): then its
    /// exit is its own, not the era probe's doing.
    fn failed_to_start(&self, _stderr: &[u8]) -> bool {
        false
    }
}

/// Accepts every initialize result (for callers without a judge).
#[derive(Debug, Clone, Copy, Default)]
pub struct Lenient;

impl Rules for Lenient {
    fn handshake_usable(&self, _result: &Value, _requested: &str) -> bool {
        true
    }
}

/// What the session needs of the server process: `child::Server` in a real
/// run, a stand-in in memory.
pub trait Process {
    /// The exit status once the process has exited (reaped once).
    fn try_wait(&mut self) -> Option<Exit>;
    /// Signals the whole process group; false when it has no member left.
    fn signal_group(&mut self, sig: i32) -> bool;
    /// What outlived the leader (once it is reaped): live members of its
    /// group and, where the guard can know, every live descendant.
    fn leftovers(&mut self) -> Vec<Proc>;
    /// Kills them.
    fn kill_leftovers(&mut self, left: &[Proc]);
    /// The program that runs now (after any `env`/shebang exec chain).
    fn executable(&self) -> Option<String> {
        None
    }
    /// What the process and its descendants show from outside now (CPU
    /// time, whether a thread works), where the guard can see it.
    fn activity(&mut self) -> Option<crate::sys::TreeActivity> {
        None
    }
    /// What the supervisor recorded (`--confine`), after the teardown.
    fn confinement(&mut self) -> Option<crate::session::confine::Log> {
        None
    }
    /// Sees each record as it is made (the supervisor's phase).
    fn note(&mut self, _record: &Record) {}
}
