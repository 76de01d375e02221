//! `wrap -- <server>`: stands in for the server in a host's config. It
//! starts the server (its environment and working directory the host's,
//! untouched), relays the host's live session byte for byte
//! (`session::relay`), judges a copy as it passes (`checks::live`), writes
//! one JSONL log per session under the state directory (`plan::wrap`),
//! flushed per event, and exits with the server's status (128+N for
//! signal N), so the host sees what it would have seen. Custody as in
//! `check`: the server in its own process group, dying with the wrapper
//! (the parent-death signal for the leader, and on Unix a watcher process
//! that kills the group when the wrapper is gone, SIGKILL included); the
//! host's EOF forwarded, then the grace, then TERM and KILL.

use crate::obj;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::args::settings::Settings;
use crate::checks::live::{Dir, Ending, Live, Seen};
use crate::checks::{Code, Issue};
use crate::error::Error;
use crate::plan::wrap as place;
use crate::report::common::issue_value;
use crate::session::child::Server;
use crate::session::relay::{self, Flow, Stream};
use crate::sys;

/// The most of a message's text the log keeps with `--log-content`.
const CONTENT_BYTES: usize = 64 << 10;
/// The end of stderr kept for a crash.
const TAIL_BYTES: usize = 4096;
/// How long stdout may stay open after the server exited.
const DRAIN: Duration = Duration::from_millis(1000);

/// A server's name: `--name`, else its script's, package's or program's
/// file name without extension; made of `A-Za-z0-9._-` only (anything else
/// `_`), at most 64 characters, never `.` or `..`.
pub fn name_of(given: Option<&str>, argv: &[String]) -> String {
    use crate::session::fingerprint::{self, Entry};
    let derived = || {
        let script = fingerprint::script_of(argv).map(|e| match e {
            Entry::Script(s) | Entry::Module(s) => s,
        });
        let package = || {
            fingerprint::package(argv, Path::new("."))
                .get("name")
                .and_then(Value::as_str)
                .map(String::from)
        };
        let raw = script
            .or_else(package)
            .or_else(|| argv.first().cloned())
            .unwrap_or_default();
        let file = raw.rsplit(['/', '\\']).next().unwrap_or(&raw).to_string();
        match file.rsplit_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem.to_string(),
            _ => file,
        }
    };
    let raw = given.map_or_else(derived, String::from);
    let mut name: String = raw
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.chars().all(|c| c == '.') {
        name = "server".into();
    }
    name
}

/// One session's log: each event a line, scrubbed; a finding, the exit
/// and the end are written at once (the wrapper may be killed next), the
/// traffic as soon as the relay is idle and at least every 100 ms; past
/// `place::LOG_BYTES` only what is essential.
struct Log {
    file: std::io::BufWriter<std::fs::File>,
    flushed: Instant,
    written: u64,
    content: bool,
    truncated: bool,
    t0: Instant,
    /// The buffer each message's line is written in.
    line: String,
}

/// `s` as a JSON string (`null` for none), appended: as it is when nothing
/// in it needs an escape.
fn json_str(out: &mut String, s: Option<&str>) {
    match s {
        None => out.push_str("null"),
        Some(s) if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Some(s) => out.push_str(&Value::String(s.to_string()).to_string()),
    }
}

impl Log {
    fn ms(&self) -> u64 {
        u64::try_from(self.t0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn event(&mut self, mut v: Value, essential: bool) {
        if !essential && self.written >= place::LOG_BYTES {
            if !self.truncated {
                self.truncated = true;
                self.write(obj! {"event" => "truncated", "t" => self.ms(),
                    "why" => "the session log reached its bound; findings and the end are still written"});
            }
            return;
        }
        if v.get("t").is_none() {
            v["t"] = self.ms().into();
        }
        self.write(v);
        if essential {
            self.flush();
        }
    }

    fn write(&mut self, v: Value) {
        let mut line = crate::redact::out(&v.to_string()).into_owned();
        line.push('\n');
        self.written += line.len() as u64;
        let _ = self.file.write_all(line.as_bytes());
    }

    /// One message's line, written as text into a buffer kept from line to
    /// line (a flood of messages costs no JSON tree and no allocation
    /// each): the same keys the other events have.
    fn message(&mut self, m: &crate::checks::live::Msg) {
        use std::fmt::Write as _;
        if self.written >= place::LOG_BYTES {
            self.event(obj! {}, false);
            return;
        }
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let _ = write!(
            line,
            "{{\"event\":\"message\",\"dir\":\"{}\",\"kind\":\"{}\",\"method\":",
            m.dir.as_str(),
            m.kind
        );
        json_str(&mut line, m.method.as_deref());
        line.push_str(",\"id\":");
        json_str(&mut line, m.id.as_deref());
        let _ = write!(line, ",\"bytes\":{}", m.bytes);
        if let Some(l) = m.latency_ms {
            let _ = write!(line, ",\"latencyMs\":{l}");
        }
        if self.content {
            let text = String::from_utf8_lossy(&m.text[..m.text.len().min(CONTENT_BYTES)]);
            line.push_str(",\"text\":");
            json_str(&mut line, Some(&text));
        }
        let _ = writeln!(line, ",\"t\":{}}}", self.ms());
        let out = crate::redact::out(&line);
        self.written += out.len() as u64;
        let _ = self.file.write_all(out.as_bytes());
        drop(out);
        self.line = line;
    }

    /// Whether traffic is no longer logged (the session's bound).
    fn full(&self) -> bool {
        self.truncated
    }

    fn flush(&mut self) {
        let _ = self.file.flush();
        self.flushed = Instant::now();
    }

    /// Writes out what waits, when 100 ms have passed since the last time.
    fn flush_if_due(&mut self) {
        if self.flushed.elapsed() >= Duration::from_millis(100) {
            self.flush();
        }
    }
}

/// What the main loop knows of the session.
struct Session {
    live: Live,
    issues: Vec<Issue>,
    tail: Vec<u8>,
    stdin_closed: Option<Instant>,
    out_done: bool,
    err_done: bool,
    host_gone: bool,
    gap_logged: bool,
}

/// The server's argv and environment, as the host gave them.
fn launch(s: &Settings) -> crate::plan::Launch {
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let program = s.command.first().cloned().unwrap_or_default();
    let program = if cfg!(windows) {
        crate::plan::paths::with_pathext(
            &program,
            std::env::var_os("PATH").as_deref(),
            std::env::var_os("PATHEXT").as_deref(),
        )
        .map_or(program, PathBuf::into_os_string)
    } else {
        program
    };
    crate::plan::Launch {
        program,
        args: s.command.iter().skip(1).cloned().collect(),
        cwd: None,
        env,
        confine: None,
        announce: None,
    }
}

/// `wrap`: returns the exit status the host should see.
pub fn run(s: &Settings) -> Result<u8, Error> {
    if let Some(spec) = s.wrap.install.as_deref() {
        return crate::commands::install::run(s, spec, true);
    }
    if let Some(spec) = s.wrap.uninstall.as_deref() {
        return crate::commands::install::run(s, spec, false);
    }
    let argv: Vec<String> = s
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (shown, argv_secrets) = crate::redact::redact_argv(&argv);
    crate::redact::install(&crate::redact::Redactor::new(argv_secrets));
    let mut log = open_log(s, &argv)?;
    log.event(
        obj! {"event" => "start", "time" => crate::clock::rfc3339(crate::clock::now_ms()),
        "name" => name_of(s.wrap.name.as_deref(), &argv), "command" => shown,
        "guard" => env!("CARGO_PKG_VERSION"), "content" => s.wrap.content,
        "timeoutMs" => s.timeout_ms},
        true,
    );
    // The watcher first: it is ready before there is a group to kill.
    let watcher = Watcher::start();
    let mut launched = launch(s);
    launched.announce = watcher.as_ref().map(Watcher::fd);
    let (mut server, pipes) = match Server::spawn(&launched) {
        Ok(started) => started,
        Err(e) => {
            let issue = Issue::new(
                Code::SpawnFailed,
                format!("the server could not be started: {e}"),
            );
            log.event(finding(&issue), true);
            log.event(
                obj! {"event" => "end", "findings" => 1, "ok" => false},
                true,
            );
            eprintln!(
                "mcp-stdio-guard wrap: cannot start {}: {e}",
                argv.first().map_or("", String::as_str)
            );
            return Ok(127);
        }
    };
    log.event(obj! {"event" => "spawned", "pid" => server.pid()}, true);
    let copies = relay::start(std::io::stdin(), pipes.stdin, pipes.stdout, pipes.stderr)
        .map_err(|e| Error::io("cannot start the relay threads", e))?;
    // Judging yields to the relay (and to the host and the server) when
    // the CPU is contended: a flood is relayed at full speed, and what the
    // judge cannot keep up with is counted as unjudged.
    sys::lower_thread_priority();
    let mut session = Session {
        live: Live::new(s.timeout_ms),
        issues: Vec::new(),
        tail: Vec::new(),
        stdin_closed: None,
        out_done: false,
        err_done: false,
        host_gone: false,
        gap_logged: false,
    };
    session.live.keep_text = s.wrap.content;
    let ending = drive(s, &mut server, &copies, &mut session, &mut log);
    let code = finish(
        &mut server,
        ending,
        &mut session,
        &mut log,
        copies.dropped(),
    );
    if let Some(w) = watcher {
        w.done();
    }
    Ok(code)
}

fn open_log(s: &Settings, argv: &[String]) -> Result<Log, Error> {
    let root = place::root(s.wrap.log_dir.as_deref(), &|n| std::env::var(n).ok())?;
    let dir = root.join(name_of(s.wrap.name.as_deref(), argv));
    place::private_dir(&dir)
        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    place::prune(&dir, place::SESSIONS_KEPT);
    let path = dir.join(place::file_name(crate::clock::now_ms(), std::process::id()));
    let file = place::private_file(&path)
        .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
    Ok(Log {
        file: std::io::BufWriter::with_capacity(64 << 10, file),
        flushed: Instant::now(),
        written: 0,
        content: s.wrap.content,
        truncated: false,
        t0: Instant::now(),
        line: String::new(),
    })
}

fn finding(issue: &Issue) -> Value {
    let mut v = issue_value(issue);
    v["event"] = "finding".into();
    v
}

/// Relays until the server has exited and its streams are drained (or
/// held open past the drain): how it ended.
fn drive(
    s: &Settings,
    server: &mut Server,
    copies: &relay::Copies,
    ses: &mut Session,
    log: &mut Log,
) -> Ending {
    let grace = Duration::from_millis(s.shutdown_grace_ms);
    let t0 = log.t0;
    let mut ending = Ending {
        grace_ms: s.shutdown_grace_ms,
        ..Ending::default()
    };
    let mut deadline: Option<Instant> = None;
    let mut exited: Option<Instant> = None;
    let mut forwarded = false;
    loop {
        drain(copies, ses, log);
        let now = Instant::now();
        let ms = ms_since(t0, now);
        for seen in ses.live.tick(ms) {
            record(seen, ses, log);
        }
        if let (Some(sig), false) = (sys::pending_interrupt(), forwarded) {
            // The host stopped the wrapper: the server is stopped the same
            // way, then given the grace.
            forwarded = true;
            ending.stopped_by_host = true;
            server.signal_group(sig);
            log.event(
                obj! {"event" => "signal", "signal" => sys::signal_name(sig), "from" => "host"},
                true,
            );
            deadline = Some(now + grace);
        }
        if exited.is_none() && ses.stdin_closed.is_some() && deadline.is_none() {
            deadline = Some(now + grace);
        }
        if exited.is_none() && server.try_wait().is_some() {
            exited = Some(now);
        }
        if let (None, Some(d)) = (exited, deadline)
            && now >= d
        {
            escalate(server, &mut ending);
            deadline = Some(now + grace);
        }
        if let Some(at) = exited
            && ((ses.out_done && ses.err_done) || now >= at + DRAIN)
        {
            if !ses.out_done {
                ses.issues.push(Issue::new(
                    Code::StdoutHeldOpen,
                    "the server exited but its stdout stayed open: a process it started holds it",
                ));
            }
            break;
        }
    }
    if ending.stopped_by_host {
        // A forced end after the host's own signal is the host's doing.
        ending.forced = None;
    }
    ending
}

/// What the relay has copied, judged and logged; then the log written out
/// (the relay is idle).
fn drain(copies: &relay::Copies, ses: &mut Session, log: &mut Log) {
    let t0 = log.t0;
    if let Ok(flow) = copies.rx.recv_timeout(Duration::from_millis(50)) {
        take(flow, copies, ses, log, t0);
        while let Ok(flow) = copies.rx.try_recv() {
            take(flow, copies, ses, log, t0);
            log.flush_if_due();
        }
    }
    log.flush();
}

/// The next signal of a server that outlived its grace: SIGTERM, then
/// SIGKILL.
fn escalate(server: &mut Server, ending: &mut Ending) {
    let (sig, name) = match ending.forced {
        None => (sys::SIGTERM, "SIGTERM"),
        Some(_) => (sys::SIGKILL, "SIGKILL"),
    };
    ending.forced = Some(name);
    server.signal_group(sig);
}

fn ms_since(t0: Instant, at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(t0).as_millis()).unwrap_or(u64::MAX)
}

/// One flow of the relay: judged, logged.
fn take(flow: Flow, copies: &relay::Copies, ses: &mut Session, log: &mut Log, t0: Instant) {
    match flow {
        Flow::Chunk(stream, bytes, at) => {
            let ms = ms_since(t0, at);
            let dir = match stream {
                Stream::HostIn => Dir::In,
                Stream::ServerOut => Dir::Out,
                Stream::ServerErr => {
                    ses.tail.extend_from_slice(&bytes);
                    let cut = ses.tail.len().saturating_sub(TAIL_BYTES);
                    ses.tail.drain(..cut);
                    let mut v = obj! {"event" => "stderr", "t" => ms, "bytes" => bytes.len()};
                    if log.content {
                        v["text"] =
                            String::from_utf8_lossy(&bytes[..bytes.len().min(CONTENT_BYTES)])
                                .into();
                    }
                    log.event(v, false);
                    copies.done(bytes);
                    return;
                }
            };
            for seen in ses.live.feed(dir, &bytes, ms) {
                record(seen, ses, log);
            }
            copies.done(bytes);
        }
        Flow::Gap(stream) => {
            if let Some(dir) = match stream {
                Stream::HostIn => Some(Dir::In),
                Stream::ServerOut => Some(Dir::Out),
                Stream::ServerErr => None,
            } {
                ses.live.gap(dir);
            }
            if !ses.gap_logged {
                ses.gap_logged = true;
                log.event(
                    obj! {"event" => "unjudged",
                    "why" => "the judge fell behind: bytes were forwarded, not judged (counted at the end)"},
                    true,
                );
            }
        }
        Flow::End(Stream::HostIn, at) => {
            ses.stdin_closed = Some(at);
            ses.live.host_closed(ms_since(t0, at));
            log.event(
                obj! {"event" => "stdin-closed", "t" => ms_since(t0, at)},
                true,
            );
        }
        Flow::End(Stream::ServerOut, _) => ses.out_done = true,
        Flow::End(Stream::ServerErr, _) => ses.err_done = true,
        Flow::HostGone(stream) => {
            if !ses.host_gone {
                ses.host_gone = true;
                let which = if stream == Stream::ServerErr {
                    "stderr"
                } else {
                    "stdout"
                };
                log.event(obj! {"event" => "host-gone", "stream" => which}, true);
            }
        }
    }
}

/// A message or a finding, logged (findings kept for the end).
fn record(seen: Seen, ses: &mut Session, log: &mut Log) {
    match seen {
        Seen::Finding(issue) => {
            log.event(finding(&issue), true);
            ses.issues.push(issue);
        }
        Seen::Message(m) => {
            if log.full() {
                return;
            }
            log.message(&m);
        }
    }
}

/// After the drive: leftovers killed, the ending judged, the end written;
/// the status the host sees.
fn finish(
    server: &mut Server,
    mut ending: Ending,
    ses: &mut Session,
    log: &mut Log,
    unjudged: usize,
) -> u8 {
    let exit = server.try_wait();
    let left = server.leftovers();
    server.kill_leftovers(&left);
    ending.leftovers = left
        .iter()
        .map(|p| format!("{} ({})", p.cmdline, p.pid))
        .collect();
    ending.code = exit.as_ref().and_then(|e| e.code);
    ending.signal = exit.as_ref().and_then(|e| e.signal);
    ending.stderr_tail = String::from_utf8_lossy(&ses.tail).into_owned();
    let ms = log.ms();
    for seen in ses.live.end(&ending, ms) {
        record(seen, ses, log);
    }
    let issues = crate::checks::issue::fold(std::mem::take(&mut ses.issues));
    let errors = issues.iter().filter(|i| i.is_error()).count();
    log.event(
        obj! {"event" => "exit", "code" => ending.code, "signal" => ending.signal.map(sys::signal_name)},
        true,
    );
    log.event(
        obj! {"event" => "end", "durationMs" => ms, "ok" => errors == 0,
        "messages" => obj! {"in" => ses.live.messages[0], "out" => ses.live.messages[1]},
        "bytes" => obj! {"in" => ses.live.bytes[0], "out" => ses.live.bytes[1]},
        "findings" => issues.len(), "errors" => errors, "unjudgedBytes" => unjudged},
        true,
    );
    match (ending.code, ending.signal) {
        (_, Some(sig)) => u8::try_from(128 + sig).unwrap_or(255),
        (Some(code), None) => u8::try_from(code & 0xff).unwrap_or(1),
        (None, None) => 1,
    }
}

/// The process that kills the server's group when the wrapper is gone
/// (Unix): it reads a pipe on which the server's process announces its
/// group before its exec (so no window is left in which the group is
/// unknown), and on which the wrapper writes `done` at the end; the pipe's
/// end without `done` means the wrapper died.
struct Watcher {
    pipe: std::process::ChildStdin,
    child: std::process::Child,
}

impl Watcher {
    #[cfg(unix)]
    fn start() -> Option<Watcher> {
        let exe = std::env::current_exe().ok()?;
        let mut cmd = std::process::Command::new(exe);
        cmd.arg("__watch")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // Its own group: a host that kills the wrapper's group does not
        // take the watcher along before it has done its work.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().ok()?;
        crate::session::child::helper(child.id(), true);
        let pipe = child.stdin.take()?;
        Some(Watcher { pipe, child })
    }

    #[cfg(not(unix))]
    fn start() -> Option<Watcher> {
        // The job object ends every process of the server when the
        // wrapper's handle to it closes.
        None
    }

    /// The pipe the server's child side announces its group on.
    #[cfg(unix)]
    fn fd(&self) -> i32 {
        std::os::fd::AsRawFd::as_raw_fd(&self.pipe)
    }

    #[cfg(not(unix))]
    fn fd(&self) -> i32 {
        -1
    }

    /// The session ended in order: the watcher leaves the group alone.
    fn done(mut self) {
        let _ = self.pipe.write_all(b"done\n");
        drop(self.pipe);
        let _ = self.child.wait();
    }
}

/// `__watch`: reads the wrapper's pipe (`pgid N`, then `done`); when it
/// ends without `done`, the wrapper is gone: kills the server's group.
pub fn watch() -> u8 {
    let mut said = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut said);
    if said.lines().any(|l| l == "done") {
        return 0;
    }
    let pgid = said
        .lines()
        .find_map(|l| l.strip_prefix("pgid ")?.parse::<u32>().ok());
    if let Some(pgid) = pgid.filter(|p| *p > 1) {
        let _ = sys::signal_group(pgid, sys::SIGKILL);
        let _ = sys::signal_process(pgid, sys::SIGKILL);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_server_is_named_after_its_script_or_package() {
        assert_eq!(
            name_of(None, &argv("python3 -u /srv/weather/server.py")),
            "server"
        );
        assert_eq!(
            name_of(None, &argv("npx -y @scope/files-mcp@1.0")),
            "files-mcp"
        );
        assert_eq!(
            name_of(None, &argv("/usr/local/bin/my-server --stdio")),
            "my-server"
        );
        assert_eq!(name_of(Some("../../etc"), &argv("x")), ".._.._etc");
        assert_eq!(name_of(Some(".."), &argv("x")), "server");
    }
}
