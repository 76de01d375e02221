//! Starting a session: the server spawned (its one owner is
//! `child::Server`), the pipe threads started (`wire`), the conversation
//! driven to its end and the server stopped (`driver`); or the same over a
//! stand-in process and channels (`drive`, for `memory`).

use std::sync::mpsc::{Receiver, Sender};
use std::time::Instant;

use crate::plan::{Launch, SessionConfig};
use crate::session::child::{Exit, Server};
use crate::session::driver;
use crate::session::record::{Process, Record, Recorder, Rules, Stop};
use crate::session::wire::{self, Event};
use crate::sys::Proc;

impl Process for Server {
    fn try_wait(&mut self) -> Option<Exit> {
        Server::try_wait(self)
    }

    fn signal_group(&mut self, sig: i32) -> bool {
        Server::signal_group(self, sig)
    }

    fn leftovers(&mut self) -> Vec<Proc> {
        Server::leftovers(self)
    }

    fn kill_leftovers(&mut self, left: &[Proc]) {
        Server::kill_leftovers(self, left)
    }

    fn executable(&self) -> Option<String> {
        Server::executable(self)
    }

    fn activity(&mut self) -> Option<crate::sys::TreeActivity> {
        crate::sys::tree_activity(self.pid())
    }

    fn confinement(&mut self) -> Option<crate::session::confine::Log> {
        Server::confinement(self)
    }

    fn note(&mut self, record: &Record) {
        let Some(phase) = self.phase() else { return };
        match record {
            Record::Sent {
                id: Some(_),
                method,
                bytes,
            } => {
                let tool = (method == "tools/call")
                    .then(|| {
                        std::str::from_utf8(bytes)
                            .ok()
                            .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
                    })
                    .flatten();
                let name = tool
                    .as_ref()
                    .and_then(|v| v.pointer("/params/name"))
                    .and_then(serde_json::Value::as_str);
                phase.sent(method, name);
            }
            Record::Line(_) | Record::Oversize { .. } => phase.spoke(),
            Record::StdinClosed => phase.closed(),
            _ => {}
        }
    }
}

/// Spawns the server, runs the session, stops the server. Everything is
/// recorded; a spawn failure too. Returns why the conversation stopped
/// early, if it did.
pub fn run(
    launch: &Launch,
    cfg: &SessionConfig,
    rules: &dyn Rules,
    rec: &mut dyn Recorder,
) -> Option<Stop> {
    let t0 = Instant::now();
    let (server, pipes) = match Server::spawn(launch) {
        Ok(spawned) => spawned,
        Err(e) => {
            rec.record(
                0,
                Record::SpawnFailed {
                    code: crate::sys::errno_name(&e),
                    message: format!("cannot start {}: {e}", launch.program.to_string_lossy()),
                },
            );
            rec.record(driver::ms(t0.elapsed()), Record::Finished);
            return None;
        }
    };
    rec.record(
        0,
        Record::Spawned {
            pid: server.pid(),
            executable: server.executable(),
        },
    );
    let (tx, rx) = wire::channel();
    let tail = wire::Tail::default();
    wire::spawn_stdout_framer(
        pipes.stdout,
        cfg.limits.max_stdout_line_bytes,
        cfg.limits.max_stdout_bytes,
        tx.clone(),
        tail.clone(),
    );
    wire::spawn_stderr_drain(pipes.stderr, tx.clone());
    wire::spawn_exit_watcher(server.pid(), tx.clone());
    let stdin = wire::Stdin::pipe(pipes.stdin, tx);
    let mut d = driver::Driver::new(server, rx, stdin, t0, cfg, rules, rec);
    d.tail = tail;
    d.converse();
    d.teardown();
    d.finish()
}

/// Runs the session over a process and its event channel: converse, then
/// stop the process. The caller holds no `Sender` of `rx`.
pub fn drive<P: Process>(
    process: P,
    rx: Receiver<Event>,
    writer: Sender<Vec<u8>>,
    t0: Instant,
    cfg: &SessionConfig,
    rules: &dyn Rules,
    rec: &mut dyn Recorder,
) -> Option<Stop> {
    let stdin = wire::Stdin::channel(writer);
    let mut d = driver::Driver::new(process, rx, stdin, t0, cfg, rules, rec);
    d.converse();
    d.teardown();
    d.finish()
}
