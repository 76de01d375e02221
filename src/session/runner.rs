//! The one way a command runs sessions. Every session, the check's and
//! every other a command starts (the other era, the unsupported-version
//! probe, the unbuffered look, each leg of the robustness probe), goes
//! through `Runner`: its own transcript, written to the transcript file as
//! it happens through a tap the command hands over (labelled, so each
//! line says which session it came from), the same `session::run` (so
//! custody, confinement and scrubbing hold for all of them), a fresh
//! process when the era probe cost one, an interrupt turned into the
//! error that ends the command, and a transcript file that could not be
//! written said so.
//!
//! `Runner::script` runs a list of operations over as many sessions as
//! crashes need: a crash starts the server again from the operation after
//! the one it died in; an operation whose key (its tool) crashed the
//! server `crashes` times, or timed out once, is not sent; nothing starts
//! past the deadline. It tells what came of each operation, judging
//! nothing.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::Value;

use crate::error::Error;
use crate::plan::{Launch, Opening, Operation, SessionConfig};
use crate::session::record::{Record, Recorder, Rules, Speaks, Stage, Stop, Target};
use crate::session::transcript::{EntryKind, Tap, Transcript};

/// Which session a transcript line belongs to.
#[derive(Debug, Clone, PartialEq)]
pub enum Label {
    /// A judged run (its number when there are several).
    Run(Option<usize>),
    /// Any other session: `robustness 2`, `unsupported-version probe`.
    Named(String),
}

/// Where sessions' traffic is written: the command's transcript file.
pub trait Taps {
    /// A tap for one session's lines.
    fn open(&self, label: &Label) -> Result<Box<dyn Tap>, Error>;
    /// The error for a tap that could not write everything.
    fn failed(&self, e: std::io::Error) -> Error;
}

/// What every session of a command shares.
#[derive(Clone, Copy)]
pub struct Runner<'a> {
    pub launch: &'a Launch,
    pub rules: &'a dyn Rules,
    pub taps: Option<&'a dyn Taps>,
}

/// A finished session: its transcript, the configuration it ran (the
/// opening the era probe chose), and why it stopped early if it did.
#[derive(Debug)]
pub struct Ran {
    pub tr: Transcript,
    pub cfg: SessionConfig,
    pub stop: Option<Stop>,
}

/// A transcript that shows each record to a watcher first.
struct Watched<'a> {
    tr: &'a mut Transcript,
    watch: &'a mut dyn FnMut(&Record),
}

impl Recorder for Watched<'_> {
    fn record(&mut self, at: u64, record: Record) {
        (self.watch)(&record);
        self.tr.record(at, record);
    }
}

impl std::fmt::Debug for Runner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("program", &self.launch.program)
            .field("taps", &self.taps.is_some())
            .finish_non_exhaustive()
    }
}

impl Runner<'_> {
    /// The same runner over another launch (the environment changed).
    pub fn with_launch<'b>(&self, launch: &'b Launch) -> Runner<'b>
    where
        Self: 'b,
    {
        Runner { launch, ..*self }
    }

    fn transcript(&self, cfg: &SessionConfig, label: &Label) -> Result<Transcript, Error> {
        let tr = Transcript::new(cfg);
        Ok(match self.taps {
            Some(taps) => tr.with_tap(taps.open(label)?),
            None => tr,
        })
    }

    /// Closes the transcript's tap; an interrupt or a tap that failed is
    /// the command's error.
    fn close(&self, tr: &mut Transcript, stop: Option<Stop>) -> Result<(), Error> {
        let closed = tr.take_tap().map(|tap| tap.close());
        if let Some(Stop::Interrupted(sig)) = stop {
            return Err(Error::interrupted(sig));
        }
        if let Some(sig) = crate::sys::pending_interrupt() {
            return Err(Error::interrupted(sig));
        }
        match (closed, self.taps) {
            (Some(Err(e)), Some(taps)) => Err(taps.failed(e)),
            _ => Ok(()),
        }
    }

    /// One session over `cfg`. When the era probe cost the process, the
    /// server is judged on a fresh one, on the same clock and transcript.
    pub fn session(
        &self,
        cfg: &SessionConfig,
        label: &Label,
        watch: &mut dyn FnMut(&Record),
    ) -> Result<Ran, Error> {
        let mut tr = self.transcript(cfg, label)?;
        let mut cfg = cfg.clone();
        let mut stop = self.once(&cfg, &mut tr, watch);
        if let Some(Stop::Restart(speaks)) = stop {
            cfg.opening = match speaks {
                Speaks::Legacy => Opening::Legacy,
                Speaks::Modern => Opening::Modern,
            };
            let probe = tr.era.take();
            let touched = tr.confinement.take();
            let tap = tr.take_tap();
            tr = Transcript::new(&cfg).continuing_after(tr.duration_ms);
            if let Some(tap) = tap {
                tr = tr.with_tap(tap);
            }
            tr.era_probe = probe;
            tr.confinement = touched;
            stop = self.once(&cfg, &mut tr, watch);
        }
        self.close(&mut tr, stop)?;
        Ok(Ran { tr, cfg, stop })
    }

    fn once(
        &self,
        cfg: &SessionConfig,
        tr: &mut Transcript,
        watch: &mut dyn FnMut(&Record),
    ) -> Option<Stop> {
        let mut rec = Watched { tr, watch };
        crate::session::run(self.launch, cfg, self.rules, &mut rec)
    }

    /// Runs `script`'s operations, a session per stretch between crashes.
    /// `answered(i)` is told as operation `i` is answered or given up on;
    /// `leg` sees each session's transcript when it is over (and may take
    /// what it wants of it). Returns what came of each operation, with the
    /// milliseconds from its request to the next (or the session's end).
    pub fn script(
        &self,
        script: &Script,
        answered: &mut dyn FnMut(usize),
        leg: &mut dyn FnMut(&mut Transcript),
    ) -> Result<Scripted, Error> {
        let ops = &script.operations;
        let mut ends: Vec<Option<(End, u64)>> = vec![None; ops.len()];
        let (mut sessions, mut restarts) = (0, 0);
        let mut crashes: HashMap<&str, u32> = HashMap::new();
        let mut timed_out: Vec<&str> = Vec::new();
        let mut next = 0;
        while next < ops.len() && Instant::now() < script.deadline {
            let indices: Vec<usize> = (next..ops.len())
                .filter(|&i| {
                    let key = script.keys[i].as_str();
                    !timed_out.contains(&key)
                        && crashes.get(key).is_none_or(|n| *n < script.crashes)
                })
                .collect();
            if indices.is_empty() {
                break;
            }
            sessions += 1;
            let cfg = SessionConfig {
                operations: indices.iter().map(|&i| ops[i].clone()).collect(),
                deadline: Some(script.deadline),
                ..script.cfg.clone()
            };
            let label = Label::Named(format!("{} {}", script.label, sessions));
            let mut watch = |r: &Record| {
                if let Some(k) = answer_to(r) {
                    answered(indices.get(k).copied().unwrap_or(k));
                }
            };
            let mut ran = self.session(&cfg, &label, &mut watch)?;
            let leg_ends = ends_of(&ran.tr, &indices);
            leg(&mut ran.tr);
            let mut crashed = None;
            for (i, end, ms) in leg_ends {
                let key = script.keys[i].as_str();
                match &end {
                    End::TimedOut if !timed_out.contains(&key) => timed_out.push(key),
                    End::Crashed { .. } => crashed = crashed.or(Some(i)),
                    _ => {}
                }
                ends[i] = Some((end, ms));
            }
            match crashed {
                Some(i) => {
                    *crashes.entry(script.keys[i].as_str()).or_default() += 1;
                    restarts += 1;
                    next = i + 1;
                }
                None => break,
            }
        }
        let ends = ends
            .into_iter()
            .zip(&script.keys)
            .map(|(end, key)| {
                end.unwrap_or_else(|| {
                    let key = key.as_str();
                    let crashed = crashes.get(key).is_some_and(|n| *n >= script.crashes);
                    (End::NotSent(unsent(timed_out.contains(&key), crashed)), 0)
                })
            })
            .collect();
        Ok(Scripted {
            ends,
            sessions,
            restarts,
        })
    }
}

/// Why an operation of a key that timed out, or crashed the server as
/// often as allowed, or neither, was not sent.
fn unsent(timed_out: bool, crashed: bool) -> Unsent {
    if timed_out {
        Unsent::TimedOut
    } else if crashed {
        Unsent::Crashed
    } else {
        Unsent::Deadline
    }
}

/// The operation a record answers or gives up on, by its index in the
/// session's operations.
fn answer_to(record: &Record) -> Option<usize> {
    match record {
        Record::Line(l) => match l.role {
            crate::session::Role::Reply(Target::Op(k)) => Some(k),
            _ => None,
        },
        Record::Timeout {
            target: Target::Op(k),
            ..
        } => Some(*k),
        _ => None,
    }
}

/// Operations sent over sessions that may crash.
#[derive(Debug)]
pub struct Script {
    /// The sessions' configuration (its operations are replaced).
    pub cfg: SessionConfig,
    pub operations: Vec<Operation>,
    /// One key per operation (the tool a call names).
    pub keys: Vec<String>,
    /// Crashes of one key after which its operations are not sent.
    pub crashes: u32,
    pub deadline: Instant,
    /// The sessions' label, numbered: `robustness` gives `robustness 1`.
    pub label: String,
}

/// What came of one operation.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    Result(Value),
    Error(Value),
    /// No answer within the timeout (the guard cancelled it).
    TimedOut,
    /// The server exited while it was open: how, and its stderr as kept.
    Crashed {
        exit: String,
        stderr: String,
    },
    NotSent(Unsent),
}

/// Why an operation was never sent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unsent {
    /// An earlier operation of its key timed out.
    TimedOut,
    /// Its key crashed the server as often as allowed.
    Crashed,
    /// The deadline came first.
    Deadline,
}

/// What a script gave: each operation's end and milliseconds, the sessions
/// it took and the restarts among them.
#[derive(Debug)]
pub struct Scripted {
    pub ends: Vec<(End, u64)>,
    pub sessions: u64,
    pub restarts: u64,
}

/// How the server left: its exit status, or its closed streams.
fn exit_text(tr: &Transcript) -> String {
    match tr.shutdown.exit {
        Some(e) => match (e.code, e.signal) {
            (Some(code), _) => format!("code {code}"),
            (None, Some(sig)) => format!("signal {}", crate::sys::signal_name(sig)),
            _ => "an unknown status".into(),
        },
        None => "it closed its streams".into(),
    }
}

/// What came of each operation a session sent: (index into the script's
/// operations, end, ms until the next request or the session's end).
fn ends_of(tr: &Transcript, indices: &[usize]) -> Vec<(usize, End, u64)> {
    let mut timed_out = Vec::new();
    let mut crashed_op = None;
    let mut sent = HashMap::new();
    for e in &tr.entries {
        match e.kind {
            EntryKind::Timeout {
                target: Target::Op(i),
                ..
            } => timed_out.push(i),
            EntryKind::Exited {
                stage: Stage::Operation(i),
                ..
            } => crashed_op = crashed_op.or(Some(i)),
            EntryKind::Sent { id: Some(id), .. } => {
                sent.insert(id, e.at_ms);
            }
            _ => {}
        }
    }
    let mut times: Vec<(usize, u64)> = tr
        .ops
        .iter()
        .enumerate()
        .filter_map(|(i, op)| op.id.and_then(|id| sent.get(&id)).map(|at| (i, *at)))
        .collect();
    crate::order::sort_by_key(&mut times, |t| t.1);
    let mut out = Vec::new();
    for (k, (i, at)) in times.iter().enumerate() {
        let op = &tr.ops[*i];
        let next = times.get(k + 1).map_or(tr.duration_ms, |t| t.1);
        let end = if let Some(result) = &op.result {
            End::Result(result.clone())
        } else if let Some(error) = &op.error {
            End::Error(error.clone())
        } else if timed_out.contains(i) {
            End::TimedOut
        } else if crashed_op == Some(*i) || tr.shutdown.exit.is_some() {
            End::Crashed {
                exit: exit_text(tr),
                stderr: tr.stderr.text(),
            }
        } else {
            continue;
        };
        if let Some(&index) = indices.get(*i) {
            out.push((index, end, next.saturating_sub(*at)));
        }
    }
    out
}
