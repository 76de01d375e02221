//! The bench client: the server measured over its own pipes, the way a
//! host meets it. The cold start over fresh processes (spawn to the
//! opening answered); then, on one warm process, the liveness request
//! (`ping` in 2025, `server/discover` in 2026-07-28, where `ping` is gone),
//! `tools/list` and the named tool, one at a time; then a burst with
//! `--concurrency` requests in flight, matched by id. It measures; the
//! findings are `checks::bench`'s.
//!
//! The client writes from the calling thread and reads with `poll` and a
//! deadline, so the figures are the server's, not a queue in the guard;
//! the guard's own share (bytes readable to reply matched) is measured too.
//! Every wait is bounded by the timeout, the burst by `--requests` and
//! `--duration`, and `child::Server`'s drop kills and reaps the process on
//! every path.

use crate::obj;
use std::io::{Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::args::settings::BenchSpec;
use crate::error::Error;
use crate::plan::Launch;
use crate::progress::Progress;
use crate::session::Speaks;
use crate::session::child::Server;
use crate::{jsonrpc, mcp, sys};

/// Sequential samples of the liveness request.
const WARM_SAMPLES: usize = 200;
/// Sequential samples of `tools/list` and of the named tool.
const LIST_SAMPLES: usize = 50;
/// The one-at-a-time series of the burst's request, at most.
const SEQUENTIAL_MAX: u64 = 1000;
/// Sequential samples of `tools/list` and of the named tool, exported
/// for the side-effect warning.
pub const TOOL_SAMPLES: u64 = LIST_SAMPLES as u64;

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Latency figures of one series, in microseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub count: usize,
    pub p50_us: u64,
    pub p95_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
    pub mean_us: u64,
}

impl Stats {
    /// The figures of `samples` (sorted in place).
    pub fn of(samples: &mut Vec<u64>) -> Stats {
        if samples.is_empty() {
            return Stats::default();
        }
        crate::order::sort(samples);
        let n = samples.len();
        let at = |q: f64| samples[(((n - 1) as f64) * q).round() as usize];
        Stats {
            count: n,
            p50_us: at(0.50),
            p95_us: at(0.95),
            p99_us: at(0.99),
            max_us: samples[n - 1],
            mean_us: samples.iter().sum::<u64>() / n as u64,
        }
    }

    pub fn value(&self) -> Value {
        obj! {
            "count" => self.count,
            "p50Us" => self.p50_us,
            "p95Us" => self.p95_us,
            "p99Us" => self.p99_us,
            "maxUs" => self.max_us,
            "meanUs" => self.mean_us,
        }
    }
}

/// What one series of pipelined requests did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Burst {
    pub concurrency: u64,
    pub sent: u64,
    pub ok: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub wall_us: u64,
    pub latency: Stats,
}

impl Burst {
    /// Answered requests per second.
    pub fn rate(&self) -> f64 {
        if self.wall_us == 0 {
            return 0.0;
        }
        (self.ok + self.errors) as f64 * 1e6 / self.wall_us as f64
    }

    pub fn value(&self) -> Value {
        obj! {
            "concurrency" => self.concurrency,
            "sent" => self.sent,
            "ok" => self.ok,
            "errors" => self.errors,
            "timeouts" => self.timeouts,
            "wallUs" => self.wall_us,
            "requestsPerSecond" => (self.rate() * 10.0).round() / 10.0,
            "latency" => self.latency.value(),
        }
    }
}

/// Everything `bench` measured.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    pub speaks: Option<Speaks>,
    pub liveness: &'static str,
    pub method: String,
    pub cold_start: Stats,
    pub warm_liveness: Stats,
    pub tools_list: Stats,
    pub tool: Option<(String, Stats)>,
    /// The burst's method one at a time (concurrency 1).
    pub sequential: Burst,
    pub burst: Burst,
    /// The guard's own time per reply: bytes readable to reply matched.
    pub guard_share: Stats,
    /// The warm process opened its session (nothing after it was measured
    /// when it did not).
    pub warm_opened: bool,
}

/// How often the client asks whether a reply has come before it waits
/// (`benches/bench.rs`'s direct driver asks as often).
pub const READY_ASKS: u32 = 32;

/// The warm client: the server's pipes, read and written by this thread.
struct Client {
    _server: Server,
    stdin: ChildStdin,
    stdout: Source,
    buf: Vec<u8>,
    /// The read buffer, allocated once (zeroing 64 KiB on every read
    /// would cost more than a fast server's reply).
    chunk: Vec<u8>,
    /// Where the unread part of `buf` starts (the buffer is compacted
    /// before the next read, not after every line).
    read_at: usize,
    /// When the bytes in `buf` became readable.
    stamp: Instant,
    next_id: u64,
    timeout: Duration,
    envelope: bool,
    share: Vec<u64>,
    /// Requests queued for the next write.
    outbuf: Vec<u8>,
    /// The last request's bytes around its id, to send the same request
    /// again with a new id without serializing it again.
    template: Option<(String, Option<Value>, String, String)>,
}

/// A response's numeric id and whether it is an error: the top-level keys
/// read in one pass without building a tree (a reply is on the hot path of
/// the burst), or `None` for anything else (a request, a notification, a
/// line that is not a JSON object). Nested values and strings are skipped,
/// so an `"id"` inside a result is never taken for the response's.
fn parse_reply(line: &[u8]) -> Option<(u64, bool)> {
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    let (mut id, mut error, mut method) = (None, false, false);
    let mut key_start = None;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => {
                    in_str = false;
                    if let Some(start) = key_start.take() {
                        // A top-level key: what follows its colon?
                        let key = &line[start..i];
                        let rest = &line[i + 1..];
                        let colon = rest.iter().position(|c| !c.is_ascii_whitespace())?;
                        if rest[colon] == b':' {
                            let value = rest[colon + 1..].trim_ascii_start();
                            match key {
                                b"id" => {
                                    let n = value.iter().take_while(|c| c.is_ascii_digit()).count();
                                    id = std::str::from_utf8(&value[..n]).ok()?.parse().ok();
                                }
                                b"error" => error = true,
                                b"method" => method = true,
                                _ => {}
                            }
                        }
                    }
                }
                _ => {}
            }
        } else {
            match b {
                b'"' => {
                    in_str = true;
                    // A key at depth 1 starts after `{` or `,`.
                    let prev = line[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
                    if depth == 1 && matches!(prev, Some(b'{' | b',')) {
                        key_start = Some(i + 1);
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth = depth.checked_sub(1)?,
                _ => {}
            }
        }
        i += 1;
    }
    (line.first() == Some(&b'{') && !method).then_some(())?;
    Some((id?, error))
}

impl Client {
    fn start(launch: &Launch, timeout: Duration, envelope: bool) -> Result<Client, Error> {
        let (server, pipes) = Server::spawn(launch).map_err(|e| {
            Error::io(
                format!("cannot start {}", launch.program.to_string_lossy()),
                e,
            )
        })?;
        // stderr is drained on its own thread, so a chatty server never
        // blocks; it ends at the server's exit.
        let mut stderr = pipes.stderr;
        let _ = std::thread::Builder::new()
            .name("bench-stderr".into())
            .spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Ok(Client {
            _server: server,
            stdin: pipes.stdin,
            stdout: Source::new(pipes.stdout),
            buf: Vec::with_capacity(1 << 16),
            chunk: vec![0; 1 << 16],
            read_at: 0,
            stamp: Instant::now(),
            next_id: 1,
            timeout,
            envelope,
            share: Vec::new(),
            outbuf: Vec::with_capacity(4096),
            template: None,
        })
    }

    /// Adds one request (with the 2026-07-28 envelope when the era wants
    /// it) to the next write; returns its id. The writes are small, into a
    /// pipe the server reads: the burst never has more than `concurrency`
    /// requests unread.
    fn queue(&mut self, method: &str, params: Option<&Value>) -> Option<u64> {
        let id = self.next_id;
        self.next_id += 1;
        let fresh =
            !matches!(&self.template, Some((m, p, _, _)) if m == method && p.as_ref() == params);
        if fresh {
            let params_sent = if self.envelope {
                mcp::with_envelope(params, mcp::MODERN_VERSION)
            } else {
                params.cloned()
            };
            // The id is the only number the guard writes as `"id":0`.
            let text = String::from_utf8(jsonrpc::request(0, method, params_sent.as_ref())).ok()?;
            let (head, tail) = text.split_once("\"id\":0")?;
            self.template = Some((
                method.to_string(),
                params.cloned(),
                format!("{head}\"id\":"),
                tail.to_string(),
            ));
        }
        let (_, _, head, tail) = self.template.as_ref()?;
        self.outbuf.extend_from_slice(head.as_bytes());
        let _ = write!(self.outbuf, "{id}");
        self.outbuf.extend_from_slice(tail.as_bytes());
        Some(id)
    }

    /// Writes what `queue` gathered, in one write.
    fn flush(&mut self) -> Option<()> {
        let sent = self.stdin.write_all(&self.outbuf).ok();
        self.outbuf.clear();
        sent
    }

    /// Writes one request now; returns its id.
    fn send(&mut self, method: &str, params: Option<&Value>) -> Option<u64> {
        let id = self.queue(method, params)?;
        self.flush()?;
        Some(id)
    }

    /// The next response, read until `deadline`: its id, whether it is an
    /// error, and when its bytes became readable. `None` at the deadline,
    /// an interrupt, or EOF.
    fn next_reply(&mut self, deadline: Instant) -> Option<(u64, bool, Instant)> {
        loop {
            if let Some(reply) = self.buffered_reply() {
                return Some(reply);
            }
            self.buf.drain(..self.read_at);
            self.read_at = 0;
            if let Some(stamp) = self.stdout.read(&mut self.buf, &mut self.chunk, deadline)? {
                self.stamp = stamp;
            }
        }
    }

    /// A response already read, if a whole line of one is in the buffer.
    fn buffered_reply(&mut self) -> Option<(u64, bool, Instant)> {
        while let Some(len) = self.buf[self.read_at..].iter().position(|b| *b == b'\n') {
            let line = self.read_at..self.read_at + len;
            self.read_at += len + 1;
            if let Some((id, error)) = parse_reply(&self.buf[line]) {
                self.share.push(micros(self.stamp.elapsed()));
                return Some((id, error, self.stamp));
            }
        }
        None
    }

    /// One request, waited for: its latency in µs and whether it failed.
    fn round_trip(&mut self, method: &str, params: Option<&Value>) -> Option<(u64, bool)> {
        let started = Instant::now();
        let id = self.send(method, params)?;
        let deadline = started + self.timeout;
        loop {
            let (got, error, at) = self.next_reply(deadline)?;
            if got == id {
                return Some((micros(at.saturating_duration_since(started)), error));
            }
        }
    }

    /// Opens the session in the era found: the handshake, or discover.
    fn open(&mut self, speaks: Speaks, protocol: &str) -> Option<u64> {
        match speaks {
            Speaks::Legacy => {
                let params = mcp::initialize_params(protocol);
                let (us, error) = self.round_trip("initialize", Some(&params))?;
                self.stdin
                    .write_all(&jsonrpc::notification("notifications/initialized"))
                    .ok()?;
                (!error).then_some(us)
            }
            Speaks::Modern => {
                let (us, error) = self.round_trip("server/discover", None)?;
                (!error).then_some(us)
            }
        }
    }

    /// `n` requests in order, each waited for (until one gets no answer):
    /// their latencies.
    fn series(&mut self, n: usize, method: &str, params: Option<&Value>) -> Stats {
        let mut samples = Vec::with_capacity(n);
        while samples.len() < n {
            let Some((us, _)) = self.round_trip(method, params) else {
                break;
            };
            samples.push(us);
        }
        Stats::of(&mut samples)
    }

    /// Up to `total` requests, `c` in flight, within `wall`.
    fn burst(
        &mut self,
        c: u64,
        total: u64,
        wall: Duration,
        method: &str,
        params: Option<&Value>,
    ) -> Burst {
        let started = Instant::now();
        let end = started + wall;
        let mut in_flight: Vec<(u64, Instant)> = Vec::new();
        let mut b = Burst {
            concurrency: c,
            ..Burst::default()
        };
        let mut samples = Vec::new();
        loop {
            // Every free slot is filled in one write.
            let t = Instant::now();
            while (in_flight.len() as u64) < c && b.sent < total && t < end {
                let Some(id) = self.queue(method, params) else {
                    break;
                };
                in_flight.push((id, t));
                b.sent += 1;
            }
            if self.flush().is_none() {
                b.timeouts += in_flight.len() as u64;
                break;
            }
            let Some(&(_, oldest)) = in_flight.iter().min_by_key(|(_, t)| *t) else {
                break;
            };
            match self.next_reply(oldest + self.timeout) {
                Some(first) => {
                    // Every reply already read is matched before more
                    // requests go out: none waits behind the guard's sends.
                    let mut reply = Some(first);
                    while let Some((id, error, at)) = reply {
                        if let Some(i) = in_flight.iter().position(|(sent, _)| *sent == id) {
                            let (_, t) = in_flight.swap_remove(i);
                            samples.push(micros(at.saturating_duration_since(t)));
                            if error { b.errors += 1 } else { b.ok += 1 }
                        }
                        reply = self.buffered_reply();
                    }
                }
                None => {
                    // The oldest request timed out (or the server died):
                    // count it and stop waiting for what is in flight.
                    b.timeouts += in_flight.len() as u64;
                    in_flight.clear();
                    break;
                }
            }
        }
        b.wall_us = micros(started.elapsed());
        b.latency = Stats::of(&mut samples);
        b
    }
}

/// What the liveness request is in each era.
pub fn liveness(speaks: Speaks) -> &'static str {
    match speaks {
        Speaks::Legacy => "ping",
        Speaks::Modern => "server/discover",
    }
}

/// What to measure, once the normal session found the era.
#[derive(Debug, Clone)]
pub struct Target<'a> {
    pub launch: &'a Launch,
    pub speaks: Speaks,
    /// The version `initialize` asks for.
    pub protocol: &'a str,
    pub startup_timeout: Duration,
    pub timeout: Duration,
    /// The named tool and its `tools/call` params.
    pub call: Option<(String, Value)>,
}

/// Measures the server: the cold start over `--samples` fresh processes,
/// then one warm process one request at a time and in a burst. Stops early
/// (with what it has) on an interrupt.
pub fn measure(t: &Target, spec: &BenchSpec, progress: &mut Progress) -> Result<Measured, Error> {
    let mut report = Measured {
        speaks: Some(t.speaks),
        liveness: liveness(t.speaks),
        ..Measured::default()
    };
    let envelope = t.speaks == Speaks::Modern;
    let mut cold = Vec::new();
    let samples = usize::try_from(spec.samples).unwrap_or(usize::MAX);
    for n in 0..samples {
        progress.show(|| {
            format!(
                "bench: cold start {}",
                crate::progress::of(n, samples, "sample")
            )
        });
        let started = Instant::now();
        let mut client = Client::start(t.launch, t.startup_timeout, envelope)?;
        if client.open(t.speaks, t.protocol).is_some() {
            cold.push(micros(started.elapsed()));
        }
        if sys::pending_interrupt().is_some() {
            return Ok(report);
        }
    }
    report.cold_start = Stats::of(&mut cold);
    let mut client = Client::start(t.launch, t.timeout, envelope)?;
    if client.open(t.speaks, t.protocol).is_none() {
        return Ok(report);
    }
    report.warm_opened = true;
    let live = report.liveness;
    progress.now(|| format!("bench: warm {live}"));
    report.warm_liveness = client.series(WARM_SAMPLES, live, None);
    progress.now(|| "bench: tools/list".into());
    report.tools_list = client.series(LIST_SAMPLES, "tools/list", None);
    if let Some((name, params)) = &t.call {
        progress.now(|| format!("bench: tools/call {name}"));
        let stats = client.series(LIST_SAMPLES, "tools/call", Some(params));
        report.tool = Some((name.clone(), stats));
    }
    let (method, params) = match (&spec.method, &t.call) {
        (Some(m), _) => (m.clone(), None),
        (None, Some((_, p))) => ("tools/call".to_string(), Some(p.clone())),
        (None, None) => (live.to_string(), None),
    };
    let wall = Duration::from_millis(spec.duration_ms);
    let seq_total = spec.requests.min(SEQUENTIAL_MAX);
    progress.now(|| format!("bench: {method}, {seq_total} one at a time"));
    report.sequential = client.burst(1, seq_total, wall, &method, params.as_ref());
    progress.now(|| {
        format!(
            "bench: {method}, {} {} at a time",
            spec.requests, spec.concurrency
        )
    });
    report.burst = client.burst(
        spec.concurrency,
        spec.requests,
        wall,
        &method,
        params.as_ref(),
    );
    progress.clear();
    report.method = method;
    report.guard_share = Stats::of(&mut client.share);
    Ok(report)
}

/// How long one wait for stdout may last: `None` at the deadline or on
/// an interrupt, else at most 50 ms, so an interrupt is seen soon.
fn wait_left(deadline: Instant) -> Option<Duration> {
    let now = Instant::now();
    if now >= deadline || sys::pending_interrupt().is_some() {
        return None;
    }
    Some((deadline - now).min(Duration::from_millis(50)))
}

/// The server's stdout as the warm client reads it. On Unix the client
/// thread reads the pipe itself, asking whether bytes are there before it
/// waits in `poll`; elsewhere a reader thread hands over what it read,
/// stamped when it was read.
#[cfg(unix)]
struct Source(ChildStdout);

#[cfg(unix)]
impl Source {
    fn new(stdout: ChildStdout) -> Source {
        Source(stdout)
    }

    /// Appends what is readable to `buf`: `Some(Some(when))` when bytes
    /// came, `Some(None)` when a wait ended without bytes (ask again),
    /// `None` at the deadline, an interrupt, or EOF.
    fn read(
        &mut self,
        buf: &mut Vec<u8>,
        chunk: &mut [u8],
        deadline: Instant,
    ) -> Option<Option<Instant>> {
        use std::os::fd::AsRawFd;
        if !ready(self.0.as_raw_fd(), deadline)? {
            return Some(None);
        }
        // Bytes are there: this read does not block.
        let n = match self.0.read(chunk) {
            Ok(0) | Err(_) => return None,
            Ok(n) => n,
        };
        buf.extend_from_slice(&chunk[..n]);
        Some(Some(Instant::now()))
    }
}

/// Whether stdout has bytes to read: asked a few times first, giving the
/// processor away between asks (a fast server answers within
/// microseconds, and a sleeping reader's wake-up would cost tens of them on
/// a virtual machine), then waited for with `poll` until `deadline`.
/// `None` at the deadline or on an interrupt; `Some(false)` when a wait
/// ended without bytes (ask again).
#[cfg(unix)]
fn ready(fd: i32, deadline: Instant) -> Option<bool> {
    for _ in 0..READY_ASKS {
        if sys::pipe_unread(fd).is_ok_and(|n| n > 0) {
            return Some(true);
        }
        std::thread::yield_now();
    }
    sys::wait_readable(fd, wait_left(deadline)?).ok()
}

#[cfg(not(unix))]
struct Source(std::sync::mpsc::Receiver<(Vec<u8>, Instant)>);

#[cfg(not(unix))]
impl Source {
    /// Starts the reader thread; it ends at EOF or when the client is
    /// gone.
    fn new(mut stdout: ChildStdout) -> Source {
        let (tx, rx) = std::sync::mpsc::sync_channel(64);
        let _ = std::thread::Builder::new()
            .name("bench-stdout".into())
            .spawn(move || {
                let mut chunk = vec![0; 1 << 16];
                while let Ok(n) = stdout.read(&mut chunk) {
                    if n == 0 || tx.send((chunk[..n].to_vec(), Instant::now())).is_err() {
                        break;
                    }
                }
            });
        Source(rx)
    }

    fn read(
        &mut self,
        buf: &mut Vec<u8>,
        _chunk: &mut [u8],
        deadline: Instant,
    ) -> Option<Option<Instant>> {
        use std::sync::mpsc::RecvTimeoutError;
        match self.0.recv_timeout(wait_left(deadline)?) {
            Ok((bytes, at)) => {
                buf.extend_from_slice(&bytes);
                Some(Some(at))
            }
            Err(RecvTimeoutError::Timeout) => Some(None),
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_sorted_samples() {
        let mut s: Vec<u64> = (1..=100).rev().collect();
        let st = Stats::of(&mut s);
        assert_eq!(
            (st.count, st.p50_us, st.p95_us, st.p99_us, st.max_us),
            (100, 51, 95, 99, 100)
        );
        assert_eq!(st.mean_us, 50);
        assert_eq!(Stats::of(&mut Vec::new()), Stats::default());
    }

    #[test]
    fn a_response_is_told_from_a_request_by_its_method() {
        assert_eq!(
            parse_reply(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Some((3, false))
        );
        assert_eq!(
            parse_reply(br#"{"jsonrpc":"2.0","id":4,"error":{"code":1}}"#),
            Some((4, true))
        );
        assert_eq!(
            parse_reply(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#),
            None
        );
        assert_eq!(parse_reply(b"banner"), None);
        // Key order, spacing, and an id nested in the result.
        let r = br#"{ "result" : {"id": 99, "s": "\"id\": 7"}, "jsonrpc":"2.0", "id" : 12 }"#;
        assert_eq!(parse_reply(r), Some((12, false)));
        assert_eq!(
            parse_reply(br#"{"jsonrpc":"2.0","id":"x","result":{}}"#),
            None
        );
        assert_eq!(parse_reply(br#"[{"id":1}]"#), None);
    }
}
