//! Stopping the server, politely first, while still reading what it writes:
//! close stdin, wait the grace, SIGTERM the group, wait again, SIGKILL the
//! group, reap once. Then the group is probed for members that outlived
//! the leader (killed and reported), and the pipes are given a bounded
//! moment to close (a holder outside the group is reported, never waited
//! on without a deadline).

use std::time::{Duration, Instant};

use super::driver::{GROUP_POLL, INTERRUPT_POLL};
use super::{EndedBy, Process, Record, Stop};
use crate::sys;

/// How long group members may outlive the leader before they count as
/// orphans and are killed.
const ORPHAN_GRACE: Duration = Duration::from_millis(200);
/// Bound on waiting for the pipes to close once the group is gone.
const DRAIN_BOUND: Duration = Duration::from_millis(500);
/// Bound on waiting for the exit after SIGKILL.
const KILL_BOUND: Duration = Duration::from_millis(2000);

impl<P: Process> super::driver::Driver<'_, P> {
    fn interrupted(&self) -> bool {
        matches!(self.stop, Some(Stop::Interrupted(_)))
    }

    /// Closes stdin, then signals, until the server has exited.
    fn ladder(&mut self) {
        self.shutting_down = true;
        if !self.interrupted() {
            // Stamped before the close: what the server says in answer to
            // EOF can be read (and stamped) before this thread runs again,
            // and must not seem to come before the close.
            let closing = self.now_ms();
            self.writer = None;
            self.emit_at(closing, Record::StdinClosed);
            let grace = Instant::now() + self.cfg.grace;
            if self.wait_until(grace, INTERRUPT_POLL, |d| d.leader_gone()) {
                self.ended_by = Some(EndedBy::StdinClose);
            } else if !self.interrupted() {
                self.server.signal_group(sys::SIGTERM);
                self.emit(Record::Signalled {
                    signal: sys::SIGTERM,
                });
                let grace = Instant::now() + self.cfg.grace;
                if self.wait_until(grace, INTERRUPT_POLL, |d| d.leader_gone()) {
                    self.ended_by = Some(EndedBy::Sigterm);
                }
            }
        }
        if !self.leader_gone() {
            self.writer = None;
            self.server.signal_group(sys::SIGKILL);
            self.emit(Record::Signalled {
                signal: sys::SIGKILL,
            });
            let bound = Instant::now() + KILL_BOUND;
            if self.wait_until(bound, GROUP_POLL, |d| {
                d.poll_exit();
                d.leader_gone()
            }) {
                self.ended_by = Some(EndedBy::Sigkill);
            }
        }
        self.await_exit_judged();
    }

    pub(super) fn teardown(&mut self) {
        // An exit seen while the conversation ended is judged first.
        self.await_exit_judged();
        if !self.exited {
            self.ladder();
        }
        self.writer = None;
        let ended = self.ended_by.unwrap_or(EndedBy::Unknown);
        self.emit(Record::Ended(ended));
        if !self.exited {
            // Not reaped within the bounds: the Drop guard finishes the job.
            return;
        }
        // The leader is reaped; what is left of its processes outlived it.
        // They get a moment to exit with it, then they are killed.
        if !self.server.leftovers().is_empty() {
            let bound = Instant::now() + ORPHAN_GRACE;
            let mut left = Vec::new();
            if !self.wait_until(bound, GROUP_POLL, |d| {
                left = d.server.leftovers();
                left.is_empty()
            }) {
                let processes = left.iter().map(|p| (p.pid, p.cmdline.clone())).collect();
                self.emit(Record::Orphans { processes });
                self.server.kill_leftovers(&left);
                let bound = Instant::now() + KILL_BOUND;
                self.wait_until(bound, GROUP_POLL, |d| d.server.leftovers().is_empty());
            }
        }
        let bound = Instant::now() + DRAIN_BOUND;
        self.wait_until(bound, INTERRUPT_POLL, |d| !d.stdout_open && !d.stderr_open);
        if self.stdout_open || self.stderr_open {
            if self.stdout_open {
                self.flush_tail();
            }
            let (stdout, stderr) = (self.stdout_open, self.stderr_open);
            self.emit(Record::HeldOpen { stdout, stderr });
        }
    }
}
