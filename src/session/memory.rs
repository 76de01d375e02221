//! The session over channels instead of a process, in the manner of
//! rust-analyzer's `lsp-server` `Connection::memory()`: a test (or a tool)
//! writes the server's side as a closure that reads what the guard sent
//! and writes stdout lines back, and the real driver runs against it:
//! correlation, deadlines, probes and the shutdown ladder included. A
//! signal from the guard ends the stand-in process, as it would a real
//! one.
//!
//! ```
//! use mcp_stdio_guard::session::{self, memory, Record};
//! let cfg = memory::config();
//! let mut records: Vec<(u64, Record)> = Vec::new();
//! session::memory::run(&cfg, &session::Lenient, &mut records, |mut server| {
//!     while let Some(msg) = server.recv() {
//!         if msg["method"] == "initialize" {
//!             server.reply(&msg, serde_json::json!({
//!                 "protocolVersion": "2025-11-25", "capabilities": {},
//!                 "serverInfo": {"name": "s", "version": "1"}}));
//!         }
//!     }
//!     memory::AfterEof::Exit(0)
//! });
//! assert!(records.iter().any(|(_, r)| *r == Record::Handshake));
//! ```

use crate::obj;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Exit, Process, Recorder, Rules, Stop};
use crate::args::settings::Limits;
use crate::plan::SessionConfig;
use crate::session::wire::{self, Event};

/// What the stand-in process does once its stdin is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterEof {
    /// Exit with this code.
    Exit(i32),
    /// Stay alive until signalled (a server that ignores EOF).
    Linger,
}

#[derive(Debug, Default)]
struct Shared {
    exit: Option<Exit>,
    signals: Vec<i32>,
    stdout_total: u64,
}

/// Marks the process as exited (once) and closes its streams.
fn end(shared: &Mutex<Shared>, events: &SyncSender<Event>, exit: Exit) {
    let mut s = shared
        .lock()
        .expect("invariant: no holder of the lock panics");
    if s.exit.is_some() {
        return;
    }
    s.exit = Some(exit);
    let total = s.stdout_total;
    drop(s);
    let _ = events.send(Event::Exited);
    let _ = events.send(Event::StdoutClosed { total });
    let _ = events.send(Event::StderrClosed);
}

/// The server's side of an in-memory session.
#[derive(Debug)]
pub struct MemoryServer {
    incoming: Receiver<Vec<u8>>,
    events: SyncSender<Event>,
    shared: Arc<Mutex<Shared>>,
    number: u64,
}

impl MemoryServer {
    /// The next line the guard wrote (without its newline); `None` once the
    /// guard closed stdin.
    pub fn recv_line(&mut self) -> Option<Vec<u8>> {
        let mut bytes = self.incoming.recv().ok()?;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        Some(bytes)
    }

    /// The next message the guard wrote that parses as JSON (broken lines,
    /// such as the malformed-JSON probe, are skipped); `None` at EOF.
    pub fn recv(&mut self) -> Option<Value> {
        loop {
            let line = self.recv_line()?;
            if let Some(v) = std::str::from_utf8(&line)
                .ok()
                .and_then(|t| serde_json::from_str(t).ok())
            {
                return Some(v);
            }
        }
    }

    /// Writes one stdout line (a newline is added). False once the guard
    /// has gone.
    pub fn write_line(&mut self, line: &str) -> bool {
        self.number += 1;
        let mut s = self
            .shared
            .lock()
            .expect("invariant: no holder of the lock panics");
        let offset = s.stdout_total;
        s.stdout_total += line.len() as u64 + 1;
        drop(s);
        let event = Event::StdoutLine {
            at: Instant::now(),
            number: self.number,
            offset,
            bytes: line.as_bytes().to_vec(),
            terminated: true,
        };
        self.events.send(event).is_ok()
    }

    /// Writes a result response to `request`.
    pub fn reply(&mut self, request: &Value, result: Value) -> bool {
        let line = obj! {"jsonrpc" => "2.0", "id" => request["id"], "result" => result};
        self.write_line(&line.to_string())
    }

    /// Writes an error response to `request`.
    pub fn reply_error(&mut self, request: &Value, code: i64, message: &str) -> bool {
        let line = obj! {
            "jsonrpc" => "2.0",
            "id" => request["id"],
            "error" => obj! {"code" => code, "message" => message},
        };
        self.write_line(&line.to_string())
    }

    /// Writes to stderr.
    pub fn write_stderr(&mut self, text: &str) -> bool {
        let event = Event::Stderr {
            at: Instant::now(),
            bytes: text.as_bytes().to_vec(),
        };
        self.events.send(event).is_ok()
    }

    /// Exits now with `code`, as a crash or a clean exit would.
    pub fn exit(&mut self, code: i32) {
        end(
            &self.shared,
            &self.events,
            Exit {
                code: Some(code),
                signal: None,
            },
        );
    }
}

/// The stand-in process: it exits when signalled.
struct MemoryProcess {
    shared: Arc<Mutex<Shared>>,
    events: SyncSender<Event>,
}

impl Process for MemoryProcess {
    fn try_wait(&mut self) -> Option<Exit> {
        self.shared.lock().ok()?.exit
    }

    fn signal_group(&mut self, sig: i32) -> bool {
        if let Ok(mut s) = self.shared.lock() {
            s.signals.push(sig);
        }
        end(
            &self.shared,
            &self.events,
            Exit {
                code: None,
                signal: Some(sig),
            },
        );
        true
    }

    fn leftovers(&mut self) -> Vec<super::Proc> {
        Vec::new()
    }

    fn kill_leftovers(&mut self, _left: &[super::Proc]) {}
}

/// A session configuration for in-memory runs: `check`'s declared
/// defaults (so a new setting needs nothing here), with the legacy
/// opening, short timeouts, no settle window, small limits and no
/// adversarial probes.
pub fn config() -> SessionConfig {
    use crate::args::settings::{Cmd, Settings};
    let mut cfg = crate::plan::session_config(&Settings::defaults(Cmd::Check));
    cfg.opening = crate::plan::Opening::Legacy;
    cfg.era_window = Duration::from_millis(800);
    cfg.startup_timeout = Duration::from_millis(2000);
    cfg.request_timeout = Duration::from_millis(2000);
    cfg.settle = Duration::ZERO;
    cfg.grace = Duration::from_millis(500);
    cfg.limits = Limits {
        max_stdout_bytes: 1 << 20,
        max_stdout_line_bytes: 1 << 16,
        max_stderr_bytes: 1 << 16,
    };
    cfg.adversarial = Vec::new();
    cfg
}

/// What happened to the stand-in process.
#[derive(Debug, Clone, PartialEq)]
pub struct Ending {
    pub stop: Option<Stop>,
    /// The signals the guard sent, in order.
    pub signals: Vec<i32>,
}

/// Runs a session against `server`, which runs on its own thread and must
/// return once `recv` gives `None` (the guard closed stdin or is gone).
pub fn run<F>(cfg: &SessionConfig, rules: &dyn Rules, rec: &mut dyn Recorder, server: F) -> Ending
where
    F: FnOnce(MemoryServer) -> AfterEof + Send + 'static,
{
    let (tx, rx) = wire::channel();
    let (writer, incoming) = mpsc::channel::<Vec<u8>>();
    let shared = Arc::new(Mutex::new(Shared::default()));
    let side = MemoryServer {
        incoming,
        events: tx.clone(),
        shared: Arc::clone(&shared),
        number: 0,
    };
    let (events, state) = (tx.clone(), Arc::clone(&shared));
    let thread = std::thread::spawn(move || {
        if let AfterEof::Exit(code) = server(side) {
            end(
                &state,
                &events,
                Exit {
                    code: Some(code),
                    signal: None,
                },
            );
        }
    });
    let process = MemoryProcess {
        shared: Arc::clone(&shared),
        events: tx,
    };
    let stop = super::drive(process, rx, writer, Instant::now(), cfg, rules, rec);
    // The driver dropped its writer: the server's `recv` has returned None.
    let _ = thread.join();
    let signals = shared.lock().map(|s| s.signals.clone()).unwrap_or_default();
    Ending { stop, signals }
}
