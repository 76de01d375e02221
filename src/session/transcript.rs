//! The record of one session, folded from the session's `Record`s: every
//! stdout line the server wrote and what the session made of it, what the
//! guard sent, the timeouts, the exit and the shutdown. The checks and the
//! report read it; it holds facts, never verdicts.
//!
//! It holds the server's bytes as written (the checks judge them raw;
//! secrets are scrubbed where the bytes leave the guard), cut only where no
//! piece of a secret can end a cut. Memory is bounded per line, not only
//! per byte: after `FOLD_AFTER` faulty lines of one kind, the rest are counted
//! in one `Folded` entry (a million empty lines cost one entry), and stderr
//! lines are kept only while a budget that charges each line's overhead
//! lasts. A `Tap` sees every entry before folding (the transcript file).

use std::collections::VecDeque;

use serde_json::Value;

use crate::jsonrpc::Line;
use crate::plan::{AdvProbe, OpSource, SessionConfig};
use crate::session::{
    EndedBy, EraFinding, Exit, Record, Recorder, Request, Speaks, Stage, StdoutLine, Stop, Target,
};

/// Faulty stdout lines of one kind kept whole before the rest are folded.
pub const FOLD_AFTER: u64 = 10;
/// What one kept stderr line costs the budget beyond its bytes.
const LINE_OVERHEAD: u64 = 64;
/// Messages that answer no request of the guard's kept whole per run;
/// past it they are counted (a flood of valid notifications costs one
/// entry, as a flood of faulty lines does).
pub const MESSAGES_KEPT: u64 = 1000;
/// The bytes a reply's entry keeps past this size: its head (the reply
/// itself is in its request's record and in the frames).
const REPLY_KEPT: usize = 1 << 20;
/// A stderr line longer than this is kept in pieces.
const STDERR_PIECE: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub enum EntryKind {
    /// The guard wrote a request (`id`), a notification, or an answer to
    /// a server request (`method` empty) to stdin: the exact bytes.
    Sent {
        id: Option<u64>,
        method: String,
        bytes: Vec<u8>,
    },
    /// One stderr line (without its newline), while the budget lasts.
    StderrLine { number: u64, bytes: Vec<u8> },
    /// One stdout line.
    Line(StdoutLine),
    /// Faulty stdout lines of one kind past `FOLD_AFTER`, counted: the
    /// first kept as an example.
    Folded {
        /// The kind, as the first folded line was classified.
        line: Line,
        example: Vec<u8>,
        first: u64,
        last: u64,
        count: u64,
        crlf: u64,
    },
    /// Messages past `MESSAGES_KEPT` that answered no request of the
    /// guard's (notifications, the server's requests, stray responses),
    /// counted: each was seen by the tap and kept in the frames.
    MessagesFolded { first: u64, last: u64, count: u64 },
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

impl Entry {
    /// The parsed message of a stdout line that is one.
    pub fn value(&self) -> Option<Value> {
        self.parsed().map(|(v, _)| v)
    }

    /// The parsed message of a stdout line that is one, with what was
    /// unusual about its JSON.
    pub fn parsed(&self) -> Option<(Value, crate::jsontext::Quirks)> {
        match &self.kind {
            EntryKind::Line(l) if matches!(l.line, Line::Message(_)) => {
                let text = l.bytes.strip_suffix(b"\r").unwrap_or(&l.bytes);
                crate::jsontext::parse(std::str::from_utf8(text).ok()?).ok()
            }
            _ => None,
        }
    }
}

/// One request after the opening: an operation or a capability-probe page.
#[derive(Debug, Clone, PartialEq)]
pub struct OpRecord {
    pub method: String,
    pub has_params: bool,
    pub source: OpSource,
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
    /// A request not yet sent.
    pub fn new(method: &str, params: Option<Value>, source: OpSource) -> OpRecord {
        OpRecord {
            method: method.to_string(),
            has_params: params.is_some(),
            source,
            cursor: None,
            params,
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
    pub probe: AdvProbe,
    /// The method sent (`""` for malformed JSON).
    pub method: String,
    pub started: bool,
    /// The transcript entries written while the probe ran.
    pub entries: std::ops::Range<usize>,
    pub started_ms: u64,
    pub duration_ms: Option<u64>,
    /// The request sent, and its response (request probes only).
    pub request: OpRecord,
    /// Why it did not run in this era.
    pub skipped: Option<String>,
}

impl AdvRecord {
    pub fn name(&self) -> &'static str {
        self.probe.name()
    }

    /// The tool a configured adversarial tool call names.
    pub fn tool(&self) -> Option<&str> {
        match &self.probe {
            AdvProbe::ToolCall { name, .. } => Some(name),
            AdvProbe::Builtin(_) => None,
        }
    }
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
    /// Processes that outlived the leader and were killed: pid and command.
    pub orphans: Vec<(u32, String)>,
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

/// What the report keeps of stderr: the first and the last bytes within the
/// cap, a count of every byte, and a count of non-blank lines.
#[derive(Debug, Clone)]
pub struct StderrCapture {
    cap: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
    lines: u64,
    line_has_text: bool,
}

impl StderrCapture {
    pub fn new(cap: u64) -> StderrCapture {
        StderrCapture {
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            head: Vec::new(),
            tail: VecDeque::new(),
            total: 0,
            lines: 0,
            line_has_text: false,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        for &b in bytes {
            if b == b'\n' {
                if self.line_has_text {
                    self.lines += 1;
                }
                self.line_has_text = false;
            } else if !b.is_ascii_whitespace() {
                self.line_has_text = true;
            }
        }
        let head_cap = self.cap / 2 + self.cap % 2;
        let tail_cap = self.cap / 2;
        let to_head = head_cap.saturating_sub(self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..to_head]);
        let rest = &bytes[to_head..];
        if tail_cap == 0 {
            return;
        }
        let rest = &rest[rest.len().saturating_sub(tail_cap)..];
        let overflow = (self.tail.len() + rest.len()).saturating_sub(tail_cap);
        self.tail.drain(..overflow);
        self.tail.extend(rest);
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// Non-blank lines seen, counting an unterminated last line.
    pub fn lines(&self) -> u64 {
        self.lines + u64::from(self.line_has_text)
    }

    pub fn truncated(&self) -> bool {
        self.total > (self.head.len() + self.tail.len()) as u64
    }

    /// The kept text, with a marker where bytes were dropped. Invalid UTF-8
    /// is replaced, never fatal.
    /// The last `n` lines of the kept text.
    pub fn tail_lines(&self, n: usize) -> Vec<String> {
        let text = self.text();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(n)..]
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    pub fn text(&self) -> String {
        let mut out = String::from_utf8_lossy(&self.head).into_owned();
        let kept = (self.head.len() + self.tail.len()) as u64;
        if self.total > kept {
            out.push_str(&format!(
                "\n[... {} bytes of stderr not kept ...]\n",
                self.total - kept
            ));
        }
        let (a, b) = self.tail.as_slices();
        let mut tail = a.to_vec();
        tail.extend_from_slice(b);
        out.push_str(&String::from_utf8_lossy(&tail));
        out
    }
}

/// Sees every entry as it is made, before folding, and the run's ends.
pub trait Tap {
    /// The process started (or could not); `pid` and `spawn_error` are set.
    fn spawned(&mut self, tr: &Transcript);
    fn entry(&mut self, tr: &Transcript, entry: &Entry);
    /// The session is over; every count is final.
    fn finished(&mut self, tr: &Transcript);
    /// Whether everything reached its destination.
    fn close(self: Box<Self>) -> std::io::Result<()> {
        Ok(())
    }
}

/// One kind of faulty line (in one probe window, or outside them).
#[derive(Debug, Clone)]
struct Fold {
    key: (u8, Option<usize>),
    /// Lines of the kind kept whole so far.
    kept: u64,
    /// The `Folded` entry, once lines are folded.
    entry: Option<usize>,
}

/// The fold of faulty lines: which kinds are folding, and where.
#[derive(Debug, Default, Clone)]
struct Folds {
    kinds: Vec<Fold>,
}

fn fold_kind(line: &Line) -> Option<u8> {
    Some(match line {
        Line::Blank => 0,
        Line::ContentLength => 1,
        Line::InvalidUtf8 { .. } => 2,
        Line::NotJson { .. } => 3,
        Line::Invalid { batch: false, .. } => 4,
        Line::Invalid { batch: true, .. } => 5,
        Line::TooLarge { .. } => 6,
        Line::Message(_) => return None,
    })
}

pub struct Transcript {
    pub pid: Option<u32>,
    /// The absolute path of the program that ran, as the kernel saw it.
    pub executable: Option<String>,
    pub spawn_error: Option<SpawnError>,
    pub entries: Vec<Entry>,
    /// The initialize response: `Ok(result)` or `Err(error object)`.
    pub init_reply: Option<Result<Value, Value>>,
    pub init_reply_at_ms: Option<u64>,
    /// Whether the session opened (`notifications/initialized` sent, or
    /// `server/discover` answered in 2026-07-28).
    pub handshake: bool,
    /// The era the session spoke, and why.
    pub era: Option<EraFinding>,
    /// The era probe of an earlier process the probe cost (this run is the
    /// fresh process it asked for).
    pub era_probe: Option<EraFinding>,
    /// The `server/discover` answer: `Ok(result)` or `Err(error object)`.
    pub discover_reply: Option<Result<Value, Value>>,
    pub discover_reply_at_ms: Option<u64>,
    pub ops: Vec<OpRecord>,
    /// Why the `call` command's tool was not called.
    pub call_problem: Option<String>,
    /// Capability probes not sent: their method went unanswered before.
    pub skipped_lists: Vec<String>,
    /// Requests given up on while they sat unread in the stdin pipe.
    pub unread_at_timeout: Vec<Target>,
    /// The capability-probe pages, in the order they were sent.
    pub probes: Vec<OpRecord>,
    /// The adversarial probes, every one planned.
    pub adversarial: Vec<AdvRecord>,
    pub stop: Option<Stop>,
    pub stdout_bytes: u64,
    pub stderr: StderrCapture,
    /// stderr lines not kept as entries once the budget was spent.
    pub stderr_lines_dropped: u64,
    pub shutdown: Shutdown,
    pub duration_ms: u64,
    /// `--confine`: what the server touched, each event with its phase.
    pub confinement: Option<crate::session::confine::Log>,
    /// Every message line, kept as written for the report.
    frames: crate::session::frames::Frames,
    /// Message lines that answered no request of the guard's, so far.
    unsought: u64,
    /// Milliseconds of the run before this process started (an era probe's
    /// process this one replaces): every time counts from the run's start.
    offset_ms: u64,
    /// The `MessagesFolded` entry, once there is one.
    messages_folded: Option<usize>,
    folds: Folds,
    stderr_partial: Vec<u8>,
    stderr_line_count: u64,
    stderr_budget: u64,
    active_probe: Option<usize>,
    tap: Option<Box<dyn Tap>>,
}

impl std::fmt::Debug for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transcript")
            .field("pid", &self.pid)
            .field("entries", &self.entries.len())
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

impl Transcript {
    /// An empty transcript for a session of `cfg`.
    pub fn new(cfg: &SessionConfig) -> Transcript {
        let ops = cfg
            .operations
            .iter()
            .map(|op| {
                let mut record = OpRecord::new(&op.method, op.params.clone(), op.source);
                record.safe_tool_call = op.safe_tool_call.clone();
                record
            })
            .collect();
        let adversarial = cfg
            .adversarial
            .iter()
            .map(|probe| {
                let method = probe.method();
                let params = probe.params();
                AdvRecord {
                    probe: probe.clone(),
                    method: method.to_string(),
                    started: false,
                    entries: 0..0,
                    started_ms: 0,
                    duration_ms: None,
                    request: OpRecord::new(method, params, OpSource::AdversarialProbe),
                    skipped: None,
                }
            })
            .collect();
        Transcript {
            pid: None,
            executable: None,
            spawn_error: None,
            entries: Vec::new(),
            init_reply: None,
            init_reply_at_ms: None,
            handshake: false,
            era: None,
            era_probe: None,
            discover_reply: None,
            discover_reply_at_ms: None,
            ops,
            call_problem: None,
            skipped_lists: Vec::new(),
            unread_at_timeout: Vec::new(),
            probes: Vec::new(),
            adversarial,
            stop: None,
            stdout_bytes: 0,
            stderr: StderrCapture::new(cfg.limits.max_stderr_bytes),
            stderr_lines_dropped: 0,
            shutdown: Shutdown {
                ended_by: EndedBy::Unknown,
                stdin_closed_at_ms: None,
                sigterm_at_ms: None,
                sigkill_at_ms: None,
                exit: None,
                exited_at_ms: None,
                orphans: Vec::new(),
                stdout_held_open: false,
                stderr_held_open: false,
            },
            duration_ms: 0,
            confinement: None,
            frames: crate::session::frames::Frames::default(),
            unsought: 0,
            offset_ms: 0,
            messages_folded: None,
            folds: Folds::default(),
            stderr_partial: Vec::new(),
            stderr_line_count: 0,
            stderr_budget: cfg.limits.max_stderr_bytes,
            active_probe: None,
            tap: None,
        }
    }

    /// An empty transcript of an in-memory session, for unit tests.
    #[cfg(test)]
    pub fn for_tests() -> Transcript {
        Transcript::new(&crate::session::memory::config())
    }

    /// As `for_tests`, with one planned operation (`--request method`).
    #[cfg(test)]
    pub fn with_op(method: &str) -> Transcript {
        let mut tr = Transcript::for_tests();
        tr.ops
            .push(OpRecord::new(method, None, OpSource::CliRequest));
        tr
    }

    /// Counts this transcript's times from `ms` before its process started
    /// (the run began with an earlier process).
    pub fn continuing_after(mut self, ms: u64) -> Transcript {
        self.offset_ms = ms;
        self
    }

    /// When this transcript's process started, in the run's milliseconds.
    pub fn started_at_ms(&self) -> u64 {
        self.offset_ms
    }

    /// Adds a tap that sees every entry as it is made.
    pub fn with_tap(mut self, tap: Box<dyn Tap>) -> Transcript {
        self.tap = Some(tap);
        self
    }

    /// Removes the tap (to finish writing it).
    pub fn take_tap(&mut self) -> Option<Box<dyn Tap>> {
        self.tap.take()
    }

    fn tapped(&mut self, call: impl FnOnce(&mut dyn Tap, &Transcript)) {
        if let Some(mut tap) = self.tap.take() {
            call(tap.as_mut(), self);
            self.tap = Some(tap);
        }
    }

    fn push(&mut self, at_ms: u64, kind: EntryKind) {
        self.push_entry(Entry { at_ms, kind });
    }

    fn push_entry(&mut self, mut entry: Entry) {
        self.tapped(|tap, tr| tap.entry(tr, &entry));
        // A long reply is judged from its request's record and shown from
        // the frames: its entry keeps the head a quote needs.
        if let EntryKind::Line(l) = &mut entry.kind
            && matches!(l.role, crate::session::Role::Reply(_))
            && l.bytes.len() > REPLY_KEPT
        {
            l.bytes.truncate(REPLY_KEPT);
            l.bytes.shrink_to_fit();
        }
        self.entries.push(entry);
    }

    /// A stdout line: kept whole, or counted in its kind's fold.
    fn stdout_line(&mut self, entry: Entry) {
        if let EntryKind::Line(l) = &entry.kind
            && matches!(l.line, Line::Message(_))
            && !matches!(l.role, crate::session::Role::Reply(_))
        {
            self.unsought += 1;
            if self.unsought > MESSAGES_KEPT {
                let number = l.number;
                self.tapped(|tap, tr| tap.entry(tr, &entry));
                return self.fold_message(entry.at_ms, number);
            }
        }
        let key = match &entry.kind {
            EntryKind::Line(l) if l.terminated => {
                fold_kind(&l.line).map(|k| (k, self.active_probe))
            }
            _ => None,
        };
        let Some(key) = key else {
            return self.push_entry(entry);
        };
        let slot = self.fold_slot(key);
        if self.folds.kinds[slot].kept < FOLD_AFTER {
            self.folds.kinds[slot].kept += 1;
            return self.push_entry(entry);
        }
        self.tapped(|tap, tr| tap.entry(tr, &entry));
        self.fold(slot, entry);
    }

    fn fold_slot(&mut self, key: (u8, Option<usize>)) -> usize {
        if let Some(i) = self.folds.kinds.iter().position(|f| f.key == key) {
            return i;
        }
        self.folds.kinds.push(Fold {
            key,
            kept: 0,
            entry: None,
        });
        self.folds.kinds.len() - 1
    }

    /// Counts a message past `MESSAGES_KEPT` in the one `MessagesFolded`
    /// entry (made at the first).
    fn fold_message(&mut self, at_ms: u64, number: u64) {
        if let Some(EntryKind::MessagesFolded { last, count, .. }) = self
            .messages_folded
            .and_then(|i| self.entries.get_mut(i))
            .map(|e| &mut e.kind)
        {
            *last = number;
            *count += 1;
            return;
        }
        self.messages_folded = Some(self.entries.len());
        self.entries.push(Entry {
            at_ms,
            kind: EntryKind::MessagesFolded {
                first: number,
                last: number,
                count: 1,
            },
        });
    }

    /// Counts a faulty line in its kind's `Folded` entry (made at the
    /// first one folded).
    fn fold(&mut self, slot: usize, entry: Entry) {
        let EntryKind::Line(StdoutLine {
            number,
            bytes,
            line,
            crlf,
            ..
        }) = entry.kind
        else {
            return;
        };
        if let Some(index) = self.folds.kinds[slot].entry {
            if let Some(EntryKind::Folded {
                last,
                count,
                crlf: c,
                ..
            }) = self.entries.get_mut(index).map(|e| &mut e.kind)
            {
                *last = number;
                *count += 1;
                *c += u64::from(crlf);
            }
            return;
        }
        self.folds.kinds[slot].entry = Some(self.entries.len());
        self.entries.push(Entry {
            at_ms: entry.at_ms,
            kind: EntryKind::Folded {
                line,
                example: bytes,
                first: number,
                last: number,
                count: 1,
                crlf: u64::from(crlf),
            },
        });
    }

    /// Splits stderr into lines, each kept in the capture and (while the
    /// budget lasts) as an entry.
    fn stderr_bytes(&mut self, at: u64, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.stderr_partial);
            line.extend_from_slice(&rest[..nl]);
            self.stderr_line(at, line, true);
            rest = &rest[nl + 1..];
        }
        self.stderr_partial.extend_from_slice(rest);
        if self.stderr_partial.len() > STDERR_PIECE {
            // A long line is kept in pieces; a secret that spans the cut is
            // carried whole into the next piece.
            let mut piece = std::mem::take(&mut self.stderr_partial);
            let keep = crate::redact::safe_cut(&piece);
            self.stderr_partial = piece.split_off(keep);
            self.stderr_line(at, piece, false);
        }
    }

    fn stderr_line(&mut self, at: u64, line: Vec<u8>, newline: bool) {
        self.stderr.push(&line);
        if newline {
            self.stderr.push(b"\n");
        }
        self.stderr_line_count += 1;
        let cost = line.len() as u64 + LINE_OVERHEAD;
        if cost > self.stderr_budget {
            self.stderr_budget = 0;
            self.stderr_lines_dropped += 1;
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

    fn flush_stderr(&mut self, at: u64) {
        if !self.stderr_partial.is_empty() {
            let line = std::mem::take(&mut self.stderr_partial);
            self.stderr_line(at, line, false);
        }
    }

    fn request(&mut self, r: Request) {
        let Request {
            target,
            id,
            method,
            params,
            source,
            cursor,
        } = r;
        match target {
            Target::Initialize | Target::Discover => {}
            Target::Op(i) if i < self.ops.len() => self.ops[i].id = Some(id),
            Target::Op(_) | Target::Probe(_) => {
                let mut record = OpRecord::new(&method, params, source);
                record.cursor = cursor;
                record.id = Some(id);
                match target {
                    Target::Op(_) => self.ops.push(record),
                    _ => self.probes.push(record),
                }
            }
            Target::Adversarial(i) => {
                if let Some(a) = self.adversarial.get_mut(i) {
                    a.request.id = Some(id);
                    a.request.has_params = params.is_some();
                    a.request.params = params;
                }
            }
        }
    }

    fn reply(&mut self, at: u64, target: Target, result: Option<Value>, error: Option<Value>) {
        if target == Target::Initialize {
            self.init_reply_at_ms = Some(at);
            self.init_reply = Some(match error {
                Some(error) => Err(error),
                None => Ok(result.unwrap_or(Value::Null)),
            });
            return;
        }
        if target == Target::Discover {
            self.discover_reply_at_ms = Some(at);
            self.discover_reply = Some(match error {
                Some(error) => Err(error),
                None => Ok(result.unwrap_or(Value::Null)),
            });
            return;
        }
        if let Some(record) = self.record_mut(target) {
            record.responded = true;
            record.result = result;
            record.error = error;
        }
    }

    fn probe_started(&mut self, at: u64, index: usize) {
        self.active_probe = Some(index);
        let first = self.entries.len();
        if let Some(a) = self.adversarial.get_mut(index) {
            a.started = true;
            a.started_ms = at;
            a.entries = first..first;
        }
    }

    fn probe_finished(&mut self, index: usize, duration_ms: u64) {
        self.active_probe = None;
        let end = self.entries.len();
        if let Some(a) = self.adversarial.get_mut(index) {
            a.duration_ms = Some(duration_ms);
            a.entries.end = end;
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

    /// Whether the session spoke 2026-07-28.
    pub fn modern(&self) -> bool {
        self.era
            .as_ref()
            .is_some_and(|e| e.speaks == Speaks::Modern)
    }

    /// The DiscoverResult, when discover answered with one.
    pub fn discover_result(&self) -> Option<&Value> {
        match &self.discover_reply {
            Some(Ok(result)) => Some(result),
            _ => None,
        }
    }

    /// What the opening returned: the initialize result (2025) or the
    /// DiscoverResult (2026-07-28). Its `capabilities` say what to list.
    pub fn opening_result(&self) -> Option<&Value> {
        if self.modern() {
            self.discover_result()
        } else {
            self.init_result()
        }
    }

    /// The server's name and version: `serverInfo` (2025), or the
    /// DiscoverResult's `_meta` serverInfo (2026-07-28).
    pub fn server_info(&self) -> Option<&Value> {
        if self.modern() {
            self.discover_result()?
                .get("_meta")?
                .get(crate::mcp::META_SERVER_INFO)
        } else {
            self.init_result()?.get("serverInfo")
        }
    }

    /// The protocol version the server answered with, or "".
    pub fn negotiated_protocol(&self) -> &str {
        if self.modern() && self.discover_result().is_some() {
            return crate::mcp::MODERN_VERSION;
        }
        self.init_result()
            .and_then(|r| r.get("protocolVersion"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub fn method_of(&self, target: Target) -> &str {
        match target {
            Target::Initialize => "initialize",
            Target::Discover => "server/discover",
            Target::Op(i) => self.ops.get(i).map_or("request", |op| op.method.as_str()),
            Target::Probe(i) => self.probes.get(i).map_or("request", |p| p.method.as_str()),
            Target::Adversarial(i) => self
                .adversarial
                .get(i)
                .map_or("request", |a| a.method.as_str()),
        }
    }

    /// The request record of `target`.
    pub fn op(&self, target: Target) -> Option<&OpRecord> {
        match target {
            Target::Initialize | Target::Discover => None,
            Target::Op(i) => self.ops.get(i),
            Target::Probe(i) => self.probes.get(i),
            Target::Adversarial(i) => self.adversarial.get(i).map(|a| &a.request),
        }
    }

    fn record_mut(&mut self, target: Target) -> Option<&mut OpRecord> {
        match target {
            Target::Initialize | Target::Discover => None,
            Target::Op(i) => self.ops.get_mut(i),
            Target::Probe(i) => self.probes.get_mut(i),
            Target::Adversarial(i) => self.adversarial.get_mut(i).map(|a| &mut a.request),
        }
    }

    /// The operation that listed `method` from its first page (no cursor)
    /// and got a result: the probe of that list continues from it.
    pub fn covering_op(&self, method: &str) -> Option<&OpRecord> {
        self.ops.iter().find(|op| {
            op.method == method && op.cursor.is_none() && !op.has_params && op.result.is_some()
        })
    }

    /// Every page of one list, in order: the covering operation's result
    /// first (if any), then the probe pages.
    pub fn list_chain(&self, method: &str) -> Vec<&OpRecord> {
        let mut chain: Vec<&OpRecord> = self.covering_op(method).into_iter().collect();
        chain.extend(self.probes.iter().filter(|p| p.method == method));
        chain
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

    /// The items of one list over all its pages, moved out of the records
    /// (which keep the rest of each result): for the report, which then
    /// holds the one copy.
    pub fn take_listed(&mut self, method: &str) -> Vec<Value> {
        let key = crate::mcp::list_spec(method).map_or("", |s| s.items);
        let covering = self.ops.iter().position(|op| {
            op.method == method && op.cursor.is_none() && !op.has_params && op.result.is_some()
        });
        let mut out = Vec::new();
        let mut take = |record: &mut OpRecord| {
            if let Some(Value::Array(items)) = record.result.as_mut().and_then(|r| r.get_mut(key)) {
                out.append(items);
            }
        };
        if let Some(i) = covering {
            take(&mut self.ops[i]);
        }
        for p in self.probes.iter_mut().filter(|p| p.method == method) {
            take(p);
        }
        out
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
        self.ops.iter().find(|op| op.source == OpSource::CliCall)
    }

    /// Every valid JSON-RPC message the server wrote, in order, as the
    /// lines it wrote (parsed again only when shown), for the report.
    pub fn take_frames(&mut self) -> crate::session::frames::Frames {
        std::mem::take(&mut self.frames)
    }

    /// How many stdout lines were valid JSON-RPC messages.
    pub fn frame_count(&self) -> usize {
        self.entries
            .iter()
            .map(|e| match &e.kind {
                EntryKind::Line(l) if matches!(l.line, Line::Message(_)) => 1,
                EntryKind::MessagesFolded { count, .. } => *count as usize,
                _ => 0,
            })
            .sum()
    }

    /// stdout lines that were not valid JSON-RPC messages.
    pub fn invalid_line_count(&self) -> u64 {
        self.entries
            .iter()
            .map(|e| match &e.kind {
                EntryKind::Line(l) => u64::from(!matches!(l.line, Line::Message(_))),
                EntryKind::Folded { count, .. } => *count,
                EntryKind::Oversize { .. } => 1,
                _ => 0,
            })
            .sum()
    }
}

impl Transcript {
    /// What the session sent and the server wrote.
    fn exchange(&mut self, at: u64, record: Record) {
        match record {
            Record::Request(r) => self.request(r),
            Record::Sent { id, method, bytes } => {
                self.push(at, EntryKind::Sent { id, method, bytes });
            }
            Record::Line(mut line) => {
                if matches!(line.line, Line::Message(_)) {
                    let bytes = line.bytes.strip_suffix(b"\r").unwrap_or(&line.bytes);
                    let q = line.quirks;
                    let quirky = q.lone_surrogate || q.huge_number || q.too_deep;
                    self.frames.push(bytes, quirky);
                }
                if !line.terminated {
                    // The last bytes may be cut (a pipe that never closed).
                    line.bytes.truncate(crate::redact::safe_cut(&line.bytes));
                }
                let kind = EntryKind::Line(line);
                self.stdout_line(Entry { at_ms: at, kind });
            }
            Record::Reply {
                target,
                result,
                error,
            } => self.reply(at, target, result, error),
            Record::Oversize {
                number,
                offset,
                mut head,
                len,
            } => {
                // The head is cut from a longer line: no piece of a secret
                // may end it.
                head.truncate(crate::redact::safe_cut(&head));
                self.push(
                    at,
                    EntryKind::Oversize {
                        number,
                        offset,
                        head,
                        len,
                    },
                );
            }
            Record::StdoutLimit { total } => self.push(at, EntryKind::StdoutLimit { total }),
            Record::StdoutClosed { total } => self.stdout_bytes = total,
            Record::Stderr { bytes } => self.stderr_bytes(at, &bytes),
            Record::StderrClosed => self.flush_stderr(at),
            Record::Timeout { target, ms } => self.push(at, EntryKind::Timeout { target, ms }),
            Record::WriteFailed { error } => self.push(at, EntryKind::WriteFailed { error }),
            _ => self.lifecycle(at, record),
        }
    }

    /// How the process and the session began, went and ended.
    fn lifecycle(&mut self, at: u64, record: Record) {
        match record {
            Record::Spawned { pid, executable } => {
                self.pid = Some(pid);
                self.executable = executable;
                self.tapped(|tap, tr| tap.spawned(tr));
            }
            Record::Executable(exe) => self.executable = Some(exe),
            Record::SpawnFailed { code, message } => {
                self.spawn_error = Some(SpawnError { code, message });
                self.tapped(|tap, tr| tap.spawned(tr));
            }
            Record::Exited { exit, stage } => {
                self.shutdown.exit = Some(exit);
                self.shutdown.exited_at_ms = Some(at);
                self.push(at, EntryKind::Exited { exit, stage });
            }
            Record::Handshake => self.handshake = true,
            Record::Era(finding) => self.era = Some(finding),
            Record::ProbeSkipped { index, reason } => {
                if let Some(a) = self.adversarial.get_mut(index) {
                    a.skipped = Some(reason);
                }
            }
            Record::CallRefused { problem } => self.call_problem = Some(problem),
            Record::ListSkipped { method } => self.skipped_lists.push(method),
            Record::Unread { target, .. } => self.unread_at_timeout.push(target),
            Record::ProbeStarted { index } => self.probe_started(at, index),
            Record::ProbeFinished { index, duration_ms } => self.probe_finished(index, duration_ms),
            // The first stop stays, unless an interrupt came after it.
            Record::Stop(stop) if self.stop.is_none() || matches!(stop, Stop::Interrupted(_)) => {
                self.stop = Some(stop)
            }
            Record::StdinClosed => self.shutdown.stdin_closed_at_ms = Some(at),
            Record::Signalled { signal } if signal == crate::sys::SIGTERM => {
                self.shutdown.sigterm_at_ms = Some(at)
            }
            Record::Signalled { .. } => self.shutdown.sigkill_at_ms = Some(at),
            Record::Ended(by) => self.shutdown.ended_by = by,
            Record::Orphans { processes } => self.shutdown.orphans = processes,
            Record::HeldOpen { stdout, stderr } => {
                self.shutdown.stdout_held_open = stdout;
                self.shutdown.stderr_held_open = stderr;
            }
            Record::Confined(log) => self.confined(log),
            Record::Finished => {
                self.flush_stderr(at);
                self.duration_ms = at;
                self.tapped(|tap, tr| tap.finished(tr));
            }
            _ => {}
        }
    }
}

impl Transcript {
    /// Keeps the supervisor's log (events of an earlier process this
    /// run replaced come first), on the run's clock.
    fn confined(&mut self, mut log: crate::session::confine::Log) {
        for ev in &mut log.events {
            ev.at_ms += self.offset_ms;
        }
        match &mut self.confinement {
            Some(earlier) => {
                earlier.events.extend(log.events);
                earlier.notifications += log.notifications;
                earlier.dropped += log.dropped;
                earlier.problem = earlier.problem.take().or(log.problem);
            }
            None => self.confinement = Some(log),
        }
    }
}

impl Recorder for Transcript {
    fn record(&mut self, at: u64, record: Record) {
        self.exchange(at + self.offset_ms, record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::classify;
    use crate::session::{Role, memory};

    fn line(n: u64, text: &str) -> Record {
        let c = classify(text.as_bytes());
        Record::Line(StdoutLine {
            number: n,
            offset: n,
            bytes: text.as_bytes().to_vec(),
            terminated: true,
            line: c.line,
            crlf: c.crlf,
            quirks: c.quirks,
            role: Role::NotAMessage,
        })
    }

    #[test]
    fn a_flood_of_empty_lines_costs_a_bounded_number_of_entries() {
        let mut tr = Transcript::new(&memory::config());
        for n in 1..=100_000 {
            tr.record(n, line(n, ""));
        }
        assert_eq!(tr.entries.len(), FOLD_AFTER as usize + 1);
        assert_eq!(tr.invalid_line_count(), 100_000);
        match &tr.entries.last().map(|e| &e.kind) {
            Some(EntryKind::Folded {
                first, last, count, ..
            }) => {
                assert_eq!((*first, *last, *count), (11, 100_000, 99_990));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stderr_lines_pay_for_their_overhead_and_are_kept_as_written() {
        let mut cfg = memory::config();
        cfg.limits.max_stderr_bytes = 1024;
        let mut tr = Transcript::new(&cfg);
        tr.record(
            1,
            Record::Stderr {
                bytes: b"key=s3cr3t-".to_vec(),
            },
        );
        tr.record(
            2,
            Record::Stderr {
                bytes: b"value\n".to_vec(),
            },
        );
        tr.record(
            3,
            Record::Stderr {
                bytes: vec![b'\n'; 50_000],
            },
        );
        tr.record(4, Record::Finished);
        assert!(tr.stderr.text().starts_with("key=s3cr3t-value\n"));
        let kept = tr
            .entries
            .iter()
            .filter(|e| matches!(e.kind, EntryKind::StderrLine { .. }))
            .count();
        assert!(kept <= 1024 / LINE_OVERHEAD as usize, "{kept}");
        assert!(tr.stderr_lines_dropped > 49_000);
    }
}
