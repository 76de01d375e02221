//! The transcript file (`--transcript`): one JSON object per line for every
//! message the guard sent, every stdout and stderr line the server wrote
//! (scrubbed of secrets), and the spawn, timeouts, exit and end. It is a
//! `Tap` on the transcript, so each line is written as it happens (one
//! write, nothing buffered), never held in memory, and the file is whole
//! even for a failed or interrupted run.

use crate::obj;
use std::io;

use serde_json::Value;

use crate::escape;
use crate::plan::outputs::Sink;
use crate::session::runner::{Label, Taps};
use crate::session::transcript::{Entry, EntryKind, Tap, Transcript};

pub struct TranscriptFile {
    out: Sink,
    argv: Vec<String>,
    run: Option<usize>,
    /// The session's own label when it is not the check's (a robustness
    /// leg: `robustness 2`).
    session: Option<String>,
    sent: u64,
    error: Option<io::Error>,
}

impl TranscriptFile {
    /// Writes to `sink` (already open), marking each line with `run` when
    /// there are several.
    pub fn new(file: Sink, argv: Vec<String>, run: Option<usize>) -> TranscriptFile {
        TranscriptFile {
            out: file,
            argv,
            run,
            session: None,
            sent: 0,
            error: None,
        }
    }

    /// The same, each line marked with the session's label.
    pub fn labelled(file: Sink, argv: Vec<String>, label: String) -> TranscriptFile {
        TranscriptFile {
            session: Some(label),
            ..TranscriptFile::new(file, argv, None)
        }
    }

    fn write(&mut self, mut v: Value) {
        if self.error.is_some() {
            return;
        }
        if let (Some(n), Value::Object(m)) = (self.run, &mut v) {
            m.insert("run".into(), n.into());
        }
        if let (Some(label), Value::Object(m)) = (&self.session, &mut v) {
            m.insert("session".into(), label.clone().into());
        }
        let mut line = v.to_string();
        line.push('\n');
        if let Err(e) = self.out.write_all(line.as_bytes()) {
            self.error = Some(io::Error::other(e.to_string()));
        }
    }
}

/// The transcript file as the session runner's taps: each session's lines
/// go to the same open file, marked with the run or the session's label.
#[derive(Debug)]
pub struct TranscriptTaps {
    pub sink: Sink,
    pub argv: Vec<String>,
}

impl Taps for TranscriptTaps {
    fn open(&self, label: &Label) -> Result<Box<dyn Tap>, crate::error::Error> {
        let file = self.sink.try_clone()?;
        let argv = self.argv.clone();
        Ok(Box::new(match label {
            Label::Run(n) => TranscriptFile::new(file, argv, *n),
            Label::Named(name) => TranscriptFile::labelled(file, argv, name.clone()),
        }))
    }

    fn failed(&self, e: io::Error) -> crate::error::Error {
        crate::error::Error::io(format!("cannot write {}", self.sink.shown), e)
    }
}

impl std::fmt::Debug for TranscriptFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranscriptFile")
            .field("run", &self.run)
            .finish_non_exhaustive()
    }
}

impl Tap for TranscriptFile {
    fn spawned(&mut self, tr: &Transcript) {
        self.write(obj! {
            "ms" => tr.started_at_ms(), "direction" => "event", "event" => "spawn", "pid" => tr.pid,
            "executable" => tr.executable, "argv" => self.argv,
            "spawnError" => tr.spawn_error.as_ref().map(|e| e.message.clone()),
        });
    }

    fn entry(&mut self, tr: &Transcript, e: &Entry) {
        let ms = e.at_ms;
        let v = match &e.kind {
            EntryKind::Sent { bytes, .. } => {
                self.sent += 1;
                let text = escape::bytes(bytes.strip_suffix(b"\n").unwrap_or(bytes));
                let mut v = obj! {
                    "ms" => ms, "direction" => "out", "stream" => "stdin", "line" => self.sent,
                    "text" => text,
                };
                // A probe's calls carry their tool, to find them by it.
                if self.session.is_some()
                    && let Some(tool) = std::str::from_utf8(bytes)
                        .ok()
                        .and_then(|t| serde_json::from_str::<Value>(t).ok())
                        .and_then(|m| {
                            m.pointer("/params/name")
                                .and_then(Value::as_str)
                                .map(String::from)
                        })
                {
                    v["tool"] = tool.into();
                }
                v
            }
            EntryKind::Line(l) => {
                let mut v = obj! {
                    "ms" => ms, "direction" => "in", "stream" => "stdout", "line" => l.number,
                    "text" => escape::bytes(&l.bytes),
                };
                if !l.terminated {
                    v["unterminated"] = true.into();
                }
                v
            }
            EntryKind::Oversize {
                number, head, len, ..
            } => {
                obj! {
                    "ms" => ms, "direction" => "in", "stream" => "stdout", "line" => number,
                    "text" => escape::bytes(head), "truncated" => true, "bytes" => len,
                }
            }
            EntryKind::StderrLine { number, bytes } => {
                obj! {
                    "ms" => ms, "direction" => "in", "stream" => "stderr", "line" => number,
                    "text" => escape::bytes(bytes),
                }
            }
            EntryKind::Timeout { target, ms: limit } => {
                obj! {
                    "ms" => ms, "direction" => "event", "event" => "timeout",
                    "method" => tr.method_of(*target), "timeoutMs" => limit,
                }
            }
            EntryKind::Exited { exit, .. } => {
                obj! {
                    "ms" => ms, "direction" => "event", "event" => "exit", "exitCode" => exit.code,
                    "signal" => exit.signal.map(crate::sys::signal_name),
                }
            }
            EntryKind::StdoutLimit { total } => {
                obj! {
                    "ms" => ms, "direction" => "event", "event" => "stdout-limit", "bytes" => total,
                }
            }
            EntryKind::WriteFailed { error } => {
                obj! {
                    "ms" => ms, "direction" => "event", "event" => "stdin-write-failed",
                    "error" => error,
                }
            }
            // Folded lines are each seen before folding.
            EntryKind::Folded { .. } | EntryKind::MessagesFolded { .. } => return,
        };
        self.write(v);
    }

    fn finished(&mut self, tr: &Transcript) {
        if tr.stderr_lines_dropped > 0 {
            self.write(obj! {
                "ms" => tr.duration_ms, "direction" => "event", "event" => "stderr-lines-dropped",
                "count" => tr.stderr_lines_dropped,
            });
        }
        self.write(obj! {
            "ms" => tr.duration_ms, "direction" => "event", "event" => "end",
            "stdoutBytes" => tr.stdout_bytes, "stderrBytes" => tr.stderr.total(),
        });
    }

    fn close(self: Box<Self>) -> io::Result<()> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
