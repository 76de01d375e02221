//! The judge of a live session the guard does not drive (`wrap`): it reads
//! a copy of both directions as they pass, line by line, and finds what
//! `check` would, with the same codes, wherever they apply to a session
//! between a host and a server: stdout lines that are not JSON-RPC (quoted),
//! framing, responses to ids the host never sent, answers to notifications,
//! a second answer, requests unanswered past the timeout while the server
//! runs (the hang a host reports; progress notifications keep a request
//! alive), server requests for a capability the host did not declare, the
//! crash, and the shutdown. Pure: time comes in with each call; partial
//! lines and the pending table are bounded.

use std::collections::VecDeque;

use serde_json::Value;

use super::{Code, Issue, stdout};
use crate::escape::quote;
use crate::jsonrpc::{self, Line, Message};

/// Which way bytes went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Host to server (the server's stdin).
    In,
    /// Server to host (the server's stdout).
    Out,
}

impl Dir {
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::In => "in",
            Dir::Out => "out",
        }
    }
}

/// What the judge saw: a message, or a finding.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Message(Msg),
    Finding(Issue),
}

/// One message as the log records it (no contents).
#[derive(Debug, Clone, PartialEq)]
pub struct Msg {
    pub dir: Dir,
    /// `request`, `notification`, `response`, `error`, or `other` for a
    /// line that is no message.
    pub kind: &'static str,
    pub method: Option<String>,
    pub id: Option<String>,
    pub bytes: usize,
    /// For a response: how long after its request it came.
    pub latency_ms: Option<u64>,
    /// The line itself, when the judge keeps it (`Live::keep_text`: the
    /// log shows it only with `--log-content`).
    pub text: Vec<u8>,
}

/// The longest line kept whole; the rest of a longer one is counted.
const MAX_LINE: usize = 4 << 20;
/// Requests remembered while unanswered, and answered ids kept to tell a
/// second answer from an unknown id.
const MAX_PENDING: usize = 4096;
const MAX_ANSWERED: usize = 1024;
/// How long an answer to an id not (yet) seen waits for its request: the
/// two directions' copies reach the judge on their own threads, and an
/// answer's copy can come first.
const EARLY_MS: u64 = 1000;

#[derive(Debug, Clone)]
struct Pending {
    id: String,
    method: String,
    sent_ms: u64,
    /// When it was sent, or its last progress notification came.
    alive_ms: u64,
    token: Option<String>,
    reported: bool,
}

/// The judge of one live session.
#[derive(Debug)]
pub struct Live {
    timeout_ms: u64,
    partial: [Vec<u8>; 2],
    /// Bytes of an over-long line dropped, per direction.
    overlong: [usize; 2],
    /// Per direction: after a gap, bytes up to the next newline are not
    /// judged.
    skipping: [bool; 2],
    out_lines: u64,
    pending: Vec<Pending>,
    answered: VecDeque<String>,
    /// Answers whose request has not been seen yet: id, stdout line, when.
    early: VecDeque<(String, u64, u64)>,
    /// From the host's `initialize`: the version asked and the client's
    /// capabilities.
    version: String,
    client_caps: Option<Value>,
    stdin_closed_ms: Option<u64>,
    last_in_notification: Option<String>,
    pub messages: [u64; 2],
    pub bytes: [u64; 2],
    /// Each message keeps its bytes (`Msg::text`), for a log with contents.
    pub keep_text: bool,
}

fn idx(d: Dir) -> usize {
    match d {
        Dir::In => 0,
        Dir::Out => 1,
    }
}

fn id_key(id: &Value) -> String {
    id.to_string()
}

impl Live {
    pub fn new(timeout_ms: u64) -> Live {
        Live {
            timeout_ms,
            partial: [Vec::new(), Vec::new()],
            overlong: [0, 0],
            skipping: [false, false],
            out_lines: 0,
            pending: Vec::new(),
            answered: VecDeque::new(),
            early: VecDeque::new(),
            version: String::new(),
            client_caps: None,
            stdin_closed_ms: None,
            last_in_notification: None,
            messages: [0, 0],
            bytes: [0, 0],
            keep_text: false,
        }
    }

    /// Bytes that passed one way at `now_ms`: what they held.
    pub fn feed(&mut self, dir: Dir, bytes: &[u8], now_ms: u64) -> Vec<Seen> {
        let i = idx(dir);
        self.bytes[i] += bytes.len() as u64;
        let mut seen = Vec::new();
        let mut rest = bytes;
        if self.skipping[i] {
            let Some(at) = crate::jsontext::find_byte(rest, b'\n') else {
                return seen;
            };
            self.skipping[i] = false;
            rest = &rest[at + 1..];
        }
        while let Some(at) = crate::jsontext::find_byte(rest, b'\n') {
            let (head, tail) = rest.split_at(at);
            if self.partial[i].is_empty() && head.len() <= MAX_LINE {
                // A whole line in this chunk: judged where it is.
                self.line(dir, head, 0, now_ms, &mut seen);
            } else {
                self.take(i, head);
                let mut line = std::mem::take(&mut self.partial[i]);
                let cut = std::mem::take(&mut self.overlong[i]);
                self.line(dir, &line, cut, now_ms, &mut seen);
                // The buffer is kept for the next split line.
                line.clear();
                self.partial[i] = line;
            }
            rest = &tail[1..];
        }
        self.take(i, rest);
        seen
    }

    fn take(&mut self, i: usize, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.partial[i].len());
        let keep = bytes.len().min(room);
        self.partial[i].extend_from_slice(&bytes[..keep]);
        self.overlong[i] += bytes.len() - keep;
    }

    fn line(&mut self, dir: Dir, bytes: &[u8], cut: usize, now_ms: u64, seen: &mut Vec<Seen>) {
        let i = idx(dir);
        self.messages[i] += 1;
        if dir == Dir::Out {
            self.out_lines += 1;
        }
        let n = self.out_lines;
        // The envelope is all the live judge needs: a result is checked,
        // never built; a line it cannot read that way is read whole.
        let wanted = |m: &str| dir == Dir::In || m == "notifications/progress";
        let c =
            jsonrpc::classify_envelope(bytes, &wanted).unwrap_or_else(|| jsonrpc::classify(bytes));
        let mut msg = Msg {
            dir,
            kind: "other",
            method: None,
            id: None,
            bytes: bytes.len() + cut,
            latency_ms: None,
            text: if self.keep_text {
                bytes.to_vec()
            } else {
                Vec::new()
            },
        };
        let Line::Message(m) = &c.line else {
            if dir == Dir::Out
                && let Some(issue) = stdout::framing_issue(n, bytes, &c.line, &self.version)
            {
                seen.push(Seen::Finding(issue.with("line", n)));
            }
            seen.push(Seen::Message(msg));
            return;
        };
        if dir == Dir::Out && c.crlf {
            seen.push(Seen::Finding(
                Issue::new(
                    Code::StdoutCrlfLineEnding,
                    format!("stdout line {n} ends with CRLF instead of a bare newline"),
                )
                .with("line", n),
            ));
        }
        self.message(m, c.value.as_ref(), (n, bytes, now_ms), &mut msg, seen);
        seen.push(Seen::Message(msg));
    }

    /// What a well-formed message means for the exchange.
    fn message(
        &mut self,
        m: &Message,
        value: Option<&Value>,
        (n, bytes, now_ms): (u64, &[u8], u64),
        msg: &mut Msg,
        seen: &mut Vec<Seen>,
    ) {
        let dir = msg.dir;
        match (dir, m) {
            (Dir::In, Message::Request { id, method }) => {
                msg.kind = "request";
                self.host_request(id, method, value, now_ms);
                (msg.method, msg.id) = (Some(method.clone()), Some(id_key(id)));
            }
            (Dir::In, Message::Notification { method }) => {
                msg.kind = "notification";
                msg.method = Some(method.clone());
                self.last_in_notification = Some(method.clone());
                if method == "notifications/cancelled" {
                    let id = value
                        .and_then(|v| v.pointer("/params/requestId"))
                        .map(id_key);
                    self.pending.retain(|p| Some(&p.id) != id.as_ref());
                }
            }
            (Dir::Out, Message::Response { id, error_code }) => {
                msg.kind = if error_code.is_some() {
                    "error"
                } else {
                    "response"
                };
                msg.id = id.as_ref().map(id_key);
                msg.latency_ms =
                    self.server_response(id.as_ref(), *error_code, n, bytes, now_ms, seen);
            }
            (Dir::Out, Message::Request { id, method }) => {
                msg.kind = "request";
                (msg.method, msg.id) = (Some(method.clone()), Some(id_key(id)));
                self.server_request(method, n, seen);
            }
            (Dir::Out, Message::Notification { method }) => {
                msg.kind = "notification";
                msg.method = Some(method.clone());
                if method == "notifications/progress" {
                    let token = value
                        .and_then(|v| v.pointer("/params/progressToken"))
                        .map(id_key);
                    for p in self
                        .pending
                        .iter_mut()
                        .filter(|p| p.token.is_some() && p.token == token)
                    {
                        p.alive_ms = now_ms;
                    }
                }
            }
            (Dir::In, Message::Response { id, .. }) => {
                msg.kind = "response";
                msg.id = id.as_ref().map(id_key);
            }
        }
    }

    fn host_request(&mut self, id: &Value, method: &str, value: Option<&Value>, now_ms: u64) {
        if method == "initialize"
            && let Some(params) = value.and_then(|v| v.get("params"))
        {
            if let Some(v) = params.get("protocolVersion").and_then(Value::as_str) {
                self.version = v.to_string();
            }
            self.client_caps = params.get("capabilities").cloned();
        }
        let key = id_key(id);
        if let Some(at) = self.early.iter().position(|e| e.0 == key) {
            // Its answer's copy came first: answered.
            self.early.remove(at);
            self.remember_answered(key);
            return;
        }
        if self.pending.len() >= MAX_PENDING {
            self.pending.remove(0);
        }
        let token = value
            .and_then(|v| v.pointer("/params/_meta/progressToken"))
            .map(id_key);
        self.pending.push(Pending {
            id: id_key(id),
            method: method.to_string(),
            sent_ms: now_ms,
            alive_ms: now_ms,
            token,
            reported: false,
        });
    }

    /// A response from the server: its latency, or a finding.
    fn server_response(
        &mut self,
        id: Option<&Value>,
        error_code: Option<i64>,
        n: u64,
        bytes: &[u8],
        now_ms: u64,
        seen: &mut Vec<Seen>,
    ) -> Option<u64> {
        let key = id.map(id_key);
        if let Some(at) = self
            .pending
            .iter()
            .position(|p| Some(&p.id) == key.as_ref())
        {
            let p = self.pending.remove(at);
            let latency = now_ms.saturating_sub(p.sent_ms);
            self.remember_answered(p.id);
            return Some(latency);
        }
        if let Some(k) = key
            .as_ref()
            .filter(|k| *k != "null" && !self.answered.contains(k))
        {
            // Perhaps its request's copy is still on its way.
            if self.early.len() >= MAX_PENDING {
                self.early.pop_front();
            }
            self.early.push_back((k.clone(), n, now_ms));
            return None;
        }
        let shown = key.clone().unwrap_or_else(|| "(none)".into());
        let issue = if key.as_ref().is_some_and(|k| self.answered.contains(k)) {
            Issue::new(
                Code::ResponseDuplicate,
                format!(
                    "stdout line {n} is a second response to id {shown}, which was already answered"
                ),
            )
        } else if id.is_none_or(Value::is_null) && matches!(error_code, Some(-32700 | -32600)) {
            return None;
        } else if id.is_none_or(Value::is_null) && self.last_in_notification.is_some() {
            Issue::new(
                Code::NotificationResponse,
                format!(
                    "stdout line {n} answers a notification ({}); notifications must get no response: {}",
                    self.last_in_notification.as_deref().unwrap_or(""),
                    quote(bytes)
                ),
            )
        } else {
            Issue::new(
                Code::ResponseIdMismatch,
                format!(
                    "stdout line {n} is a response to id {shown}, which the host never sent (or had answered long ago)"
                ),
            )
        };
        seen.push(Seen::Finding(issue.with("line", n)));
        None
    }

    fn remember_answered(&mut self, id: String) {
        if self.answered.len() >= MAX_ANSWERED {
            self.answered.pop_front();
        }
        self.answered.push_back(id);
    }

    /// Answers whose request never came within `EARLY_MS` (all of them at
    /// the end): answers to ids the host never sent.
    fn unmatched(&mut self, now_ms: Option<u64>) -> Vec<Seen> {
        let mut out = Vec::new();
        while let Some((id, n, at)) = self.early.front().cloned() {
            if now_ms.is_some_and(|now| now.saturating_sub(at) < EARLY_MS) {
                break;
            }
            self.early.pop_front();
            out.push(Seen::Finding(
                Issue::new(
                    Code::ResponseIdMismatch,
                    format!("stdout line {n} is a response to id {id}, which the host never sent (or had answered long ago)"),
                )
                .with("line", n),
            ));
        }
        out
    }

    /// A request from the server: one for a capability the host did not
    /// declare is a finding.
    fn server_request(&mut self, method: &str, n: u64, seen: &mut Vec<Seen>) {
        let capability = match method {
            "roots/list" => "roots",
            "sampling/createMessage" => "sampling",
            "elicitation/create" => "elicitation",
            _ => return,
        };
        let declared = self
            .client_caps
            .as_ref()
            .is_some_and(|c| c.get(capability).is_some());
        if self.client_caps.is_some() && !declared {
            seen.push(Seen::Finding(
                Issue::new(
                    Code::ServerRequestUndeclaredCapability,
                    format!("stdout line {n}: the server sent {method}, but the host did not declare the {capability} capability"),
                )
                .with("line", n)
                .with("method", method),
            ));
        }
    }

    /// Copies of `dir` were dropped: the line under way is not judged, and
    /// the next one starts after the next newline.
    pub fn gap(&mut self, dir: Dir) {
        let i = idx(dir);
        self.partial[i].clear();
        self.overlong[i] = 0;
        self.skipping[i] = true;
    }

    /// The host closed the server's stdin.
    pub fn host_closed(&mut self, now_ms: u64) {
        self.stdin_closed_ms.get_or_insert(now_ms);
    }

    /// Requests unanswered past the timeout while the server runs: one
    /// finding each, with its age.
    pub fn tick(&mut self, now_ms: u64) -> Vec<Seen> {
        let mut seen = self.unmatched(Some(now_ms));
        let timeout = self.timeout_ms;
        let hangs = self.pending
            .iter_mut()
            .filter(|p| !p.reported && now_ms.saturating_sub(p.alive_ms) >= timeout)
            .map(|p| {
                p.reported = true;
                let age = now_ms.saturating_sub(p.sent_ms);
                Seen::Finding(
                    Issue::new(
                        Code::OperationTimeout,
                        format!(
                            "the {} request (id {}) has had no response for {age} ms while the server runs (the hang a host reports)",
                            p.method, p.id
                        ),
                    )
                    .with("detailCode", "live-hang")
                    .with("method", p.method.clone())
                    .with("ageMs", age)
                    .with("timeoutMs", timeout),
                )
            });
        seen.extend(hangs);
        seen
    }

    /// The requests still unanswered: method, id and age.
    pub fn unanswered(&self, now_ms: u64) -> Vec<(String, String, u64)> {
        self.pending
            .iter()
            .map(|p| {
                (
                    p.method.clone(),
                    p.id.clone(),
                    now_ms.saturating_sub(p.sent_ms),
                )
            })
            .collect()
    }

    /// The end of the session: what stayed in a partial line, the requests
    /// the exit left unanswered, and how the server ended.
    pub fn end(&mut self, ending: &Ending, now_ms: u64) -> Vec<Seen> {
        let mut seen = self.unmatched(None);
        if !self.partial[1].is_empty() {
            let n = self.out_lines + 1;
            let bytes = std::mem::take(&mut self.partial[1]);
            seen.push(Seen::Finding(
                Issue::new(
                    Code::StdoutWithoutNewline,
                    format!(
                        "stdout ended with {} bytes after the last newline: {}",
                        bytes.len(),
                        quote(&bytes)
                    ),
                )
                .with("line", n),
            ));
        }
        let closed = self.stdin_closed_ms.is_some();
        if !closed || ending.signal.is_some() || ending.code.is_some_and(|c| c != 0) {
            for (method, id, age) in self.unanswered(now_ms) {
                seen.push(Seen::Finding(Issue::new(
                    Code::OperationMissingResponse,
                    format!("the server exited while the {method} request (id {id}) had waited {age} ms for its response"),
                )));
            }
        }
        seen.extend(ending_issues(ending, closed).into_iter().map(Seen::Finding));
        seen
    }
}

/// How the server's process ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ending {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// Whether it needed SIGTERM or SIGKILL after the grace.
    pub forced: Option<&'static str>,
    /// Whether the wrapper itself was told to stop (a host's signal):
    /// then the end is the host's doing, not a crash.
    pub stopped_by_host: bool,
    /// The end of its stderr, quoted in a crash.
    pub stderr_tail: String,
    /// Processes of its group or descendants left after it exited.
    pub leftovers: Vec<String>,
    pub grace_ms: u64,
}

fn ending_issues(e: &Ending, stdin_closed: bool) -> Vec<Issue> {
    let mut out = Vec::new();
    let said = if e.stderr_tail.trim().is_empty() {
        String::new()
    } else {
        format!("; stderr ended: {}", quote(e.stderr_tail.trim().as_bytes()))
    };
    let how = match (e.code, e.signal) {
        (_, Some(sig)) => format!("signal {}", crate::sys::signal_name(sig)),
        (Some(code), None) => format!("code {code}"),
        (None, None) => "an unknown status".to_string(),
    };
    if let Some(sig) = e.forced {
        out.push(
            Issue::new(
                Code::ShutdownSignalRequired,
                format!("the server did not exit within {} ms after the host closed its stdin; it needed {sig}", e.grace_ms),
            )
            .with("signal", sig),
        );
    } else if !stdin_closed && !e.stopped_by_host {
        let failed = e.signal.is_some() || e.code.is_some_and(|c| c != 0);
        if failed {
            out.push(Issue::new(
                Code::ServerCrashed,
                format!("the server exited with {how} during the session{said}"),
            ));
        } else {
            out.push(Issue::new(
                Code::ServerExitedEarly,
                "the server exited with code 0 on its own while the host still had its stdin open",
            ));
        }
    } else if stdin_closed && e.code.is_some_and(|c| c != 0) {
        out.push(Issue::new(
            Code::ShutdownError,
            format!("after the host closed its stdin, the server exited with {how}{said}"),
        ));
    }
    if !e.leftovers.is_empty() {
        out.push(Issue::new(
            Code::OrphanedProcesses,
            format!(
                "{} of the server outlived it and were killed: {}",
                crate::plural::count(e.leftovers.len(), "process"),
                e.leftovers.join(", ")
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(seen: &[Seen]) -> Vec<&'static str> {
        seen.iter()
            .filter_map(|s| match s {
                Seen::Finding(i) => Some(i.code.as_str()),
                Seen::Message(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_clean_exchange_has_latencies_and_no_finding() {
        let mut j = Live::new(1000);
        let init = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#;
        let mut seen = j.feed(Dir::In, &[&init[..], b"\n"].concat(), 0);
        seen.extend(j.feed(Dir::Out, br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, 5));
        seen.extend(j.feed(Dir::Out, b"\n", 7));
        assert!(findings(&seen).is_empty(), "{seen:?}");
        let latency = seen.iter().find_map(|s| match s {
            Seen::Message(m) if m.kind == "response" => m.latency_ms,
            _ => None,
        });
        assert_eq!(latency, Some(7));
        j.host_closed(10);
        assert!(
            findings(&j.end(
                &Ending {
                    code: Some(0),
                    ..Ending::default()
                },
                12
            ))
            .is_empty()
        );
    }

    #[test]
    fn stray_lines_unknown_ids_and_hangs_are_found_with_checks_codes() {
        let mut j = Live::new(1000);
        let mut seen = j.feed(
            Dir::In,
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}\n",
            0,
        );
        seen.extend(j.feed(
            Dir::Out,
            b"Listening on stdio\n{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n",
            1,
        ));
        assert_eq!(findings(&seen), ["stdout-non-json"]);
        assert!(
            j.tick(500).is_empty(),
            "an answer may come before its request's copy"
        );
        let hang = j.tick(1500);
        assert_eq!(
            findings(&hang),
            ["response-id-mismatch", "operation-timeout"]
        );
        assert!(j.tick(3000).is_empty(), "a hang is reported once");
        let end = j.end(
            &Ending {
                signal: Some(9),
                ..Ending::default()
            },
            4000,
        );
        assert_eq!(
            findings(&end),
            ["operation-missing-response", "server-crashed"]
        );
    }

    #[test]
    fn an_answer_whose_request_copy_comes_later_is_matched() {
        let mut j = Live::new(1000);
        let seen = j.feed(
            Dir::Out,
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n",
            10,
        );
        assert!(findings(&seen).is_empty());
        j.feed(
            Dir::In,
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n",
            9,
        );
        assert!(j.tick(5000).is_empty(), "matched, not pending, not unknown");
        let again = j.feed(
            Dir::Out,
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n",
            5001,
        );
        assert_eq!(findings(&again), ["response-duplicate"]);
    }

    #[test]
    fn progress_keeps_a_request_alive_and_cancel_forgets_it() {
        let mut j = Live::new(1000);
        j.feed(Dir::In, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"_meta\":{\"progressToken\":\"t\"}}}\n", 0);
        j.feed(Dir::Out, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t\",\"progress\":1}}\n", 900);
        assert!(j.tick(1500).is_empty(), "progress at 900 ms");
        assert_eq!(findings(&j.tick(1900)), ["operation-timeout"]);
        j.feed(
            Dir::In,
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
            2000,
        );
        j.feed(Dir::In, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n", 2001);
        assert_eq!(j.unanswered(2002).len(), 1);
    }
}
