//! The threads that touch the server's pipes and its exit:
//!
//! - the stdout framer splits stdout into lines, keeping each line's physical
//!   number and byte offset, never buffering past the line limit, and stops
//!   forwarding once the total stdout limit is passed;
//! - the stderr drain never stops reading (a full pipe would block the
//!   server) and forwards chunks as they come;
//! - the stdin writer performs every write, so a server that never reads
//!   cannot block the session; dropping its `Sender` closes stdin;
//! - the exit watcher reports the leader's exit without reaping it.
//!
//! All of them send `Event`s on one bounded channel. The session holds no
//! `Sender`, so a disconnected channel means every source has finished.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Channel capacity. With a per-line cap and a total stdout cap this bounds
/// the memory in flight whatever the server writes.
const CHANNEL_CAPACITY: usize = 128;
const STDERR_CHUNK: usize = 8192;
/// Bytes of an oversized line kept for quoting.
const OVERSIZE_HEAD: usize = 512;

#[derive(Debug)]
pub enum Event {
    /// One stdout line, without its `\n`. `terminated` is false for bytes
    /// that ended at EOF without a newline.
    StdoutLine {
        at: Instant,
        number: u64,
        offset: u64,
        bytes: Vec<u8>,
        terminated: bool,
    },
    /// A stdout line longer than the line limit; its head, and how long it
    /// turned out to be (counted up to its newline or EOF).
    StdoutOversize {
        at: Instant,
        number: u64,
        offset: u64,
        head: Vec<u8>,
        len: u64,
    },
    /// The total stdout limit was passed; nothing more is forwarded, but the
    /// pipe is still drained and counted.
    StdoutLimit {
        at: Instant,
        total: u64,
    },
    /// stdout reached EOF (or failed); `total` counts every byte read.
    StdoutClosed {
        total: u64,
    },
    Stderr {
        at: Instant,
        bytes: Vec<u8>,
    },
    StderrClosed,
    /// A write to stdin failed: the server has closed it or exited.
    WriteFailed {
        error: String,
    },
    /// The server's leader process exited (not yet reaped).
    Exited,
}

pub fn channel() -> (SyncSender<Event>, Receiver<Event>) {
    mpsc::sync_channel(CHANNEL_CAPACITY)
}

fn spawn_named(name: &str, f: impl FnOnce() + Send + 'static) {
    // A thread that cannot be created leaves its source silent; the session
    // then ends by its deadlines, which is the safe failure. The thread
    // starts with the guard's interrupts blocked, so they reach the main
    // thread (whose blocking write must return).
    let builder = thread::Builder::new().name(name.to_string());
    let _ = crate::sys::with_interrupts_blocked(|| builder.spawn(f));
}

/// The unterminated bytes at the end of stdout so far (the start of a line
/// whose newline has not come), shared by the framer with the session: a
/// descendant that holds the pipe open keeps EOF from ever coming, and the
/// server's last bytes must still be judged.
#[derive(Debug, Clone, Default)]
pub struct Tail(Arc<Mutex<TailState>>);

#[derive(Debug, Default)]
struct TailState {
    /// The first `TAIL_KEEP` bytes of the pending line.
    head: Vec<u8>,
    number: u64,
    offset: u64,
    /// The pending line's length so far.
    len: u64,
}

/// Bytes of a pending line kept for the session.
const TAIL_KEEP: usize = 4096;

impl Tail {
    fn set(&self, number: u64, offset: u64, line: &[u8], len: u64) {
        if let Ok(mut t) = self.0.lock() {
            t.number = number;
            t.offset = offset;
            t.len = len;
            if t.head.len() < TAIL_KEEP.min(line.len()) || t.head.len() > line.len() {
                t.head.clear();
                t.head.extend_from_slice(&line[..line.len().min(TAIL_KEEP)]);
            }
        }
    }

    fn clear(&self) {
        if let Ok(mut t) = self.0.lock() {
            t.head.clear();
            t.len = 0;
        }
    }

    /// The pending bytes: (line number, offset, first bytes, length), when
    /// a line has started and not ended.
    pub fn take(&self) -> Option<(u64, u64, Vec<u8>, u64)> {
        let mut t = self.0.lock().ok()?;
        if t.len == 0 {
            return None;
        }
        let head = std::mem::take(&mut t.head);
        let len = std::mem::take(&mut t.len);
        Some((t.number, t.offset, head, len))
    }
}

/// Starts the stdout framer.
pub fn spawn_stdout_framer<R: Read + Send + 'static>(
    stdout: R,
    max_line: u64,
    max_total: u64,
    tx: SyncSender<Event>,
    tail: Tail,
) {
    spawn_named("stdout-framer", move || {
        frame_stdout(stdout, max_line, max_total, &tx, &tail);
    });
}

/// The framer's state between reads.
struct Framer<'a> {
    max_line: usize,
    max_total: u64,
    tx: &'a SyncSender<Event>,
    tail: &'a Tail,
    /// The current line's bytes (up to `max_line`).
    line: Vec<u8>,
    /// The current line's length so far (past `max_line` when oversize).
    len: u64,
    number: u64,
    offset: u64,
    total: u64,
    forwarding: bool,
}

impl Framer<'_> {
    /// Sends an event; false once the session is gone.
    fn send(&self, event: Event) -> bool {
        self.tx.send(event).is_ok()
    }

    /// The current line ended (at a newline, or at EOF when `terminated`
    /// is false).
    fn end_line(&mut self, terminated: bool) -> bool {
        let at = Instant::now();
        let event = if self.len > self.max_line as u64 {
            self.line.truncate(OVERSIZE_HEAD);
            Event::StdoutOversize {
                at,
                number: self.number,
                offset: self.offset,
                head: std::mem::take(&mut self.line),
                len: self.len + u64::from(terminated),
            }
        } else {
            Event::StdoutLine {
                at,
                number: self.number,
                offset: self.offset,
                bytes: std::mem::take(&mut self.line),
                terminated,
            }
        };
        self.tail.clear();
        let line_end = self.offset + self.len + u64::from(terminated);
        self.len = 0;
        if !self.forwarding {
            return true;
        }
        if !self.send(event) {
            return false;
        }
        // The line that crosses the limit is still forwarded (it is within
        // the line cap), so memory in flight stays below limit + one line.
        if line_end > self.max_total {
            self.forwarding = false;
            return self.send(Event::StdoutLimit {
                at,
                total: line_end,
            });
        }
        true
    }

    /// Takes in one chunk read from stdout.
    fn chunk(&mut self, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            if self.len == 0 {
                self.number += 1;
                self.offset = self.total;
            }
            let (piece, newline) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..i], true),
                None => (bytes, false),
            };
            let room = (self.max_line + 1).saturating_sub(self.line.len());
            self.line.extend_from_slice(&piece[..piece.len().min(room)]);
            self.len += piece.len() as u64;
            self.total += piece.len() as u64 + u64::from(newline);
            bytes = &bytes[piece.len() + usize::from(newline)..];
            if newline {
                if !self.end_line(true) {
                    return false;
                }
            } else if self.forwarding {
                self.tail
                    .set(self.number, self.offset, &self.line, self.len);
            }
        }
        true
    }
}

/// Splits `stdout` into line events until EOF or until the receiver is
/// gone. A line longer than `max_line` is never buffered past its head.
pub fn frame_stdout<R: Read>(
    mut stdout: R,
    max_line: u64,
    max_total: u64,
    tx: &SyncSender<Event>,
    tail: &Tail,
) {
    let mut f = Framer {
        max_line: usize::try_from(max_line).unwrap_or(usize::MAX - 1),
        max_total,
        tx,
        tail,
        line: Vec::new(),
        len: 0,
        number: 0,
        offset: 0,
        total: 0,
        forwarding: true,
    };
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if !f.chunk(&buf[..n]) {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if f.len > 0 && !f.end_line(false) {
        return;
    }
    let _ = tx.send(Event::StdoutClosed { total: f.total });
}

/// Starts the stderr drain: it reads until EOF, whatever happens.
pub fn spawn_stderr_drain<R: Read + Send + 'static>(mut stderr: R, tx: SyncSender<Event>) {
    spawn_named("stderr-drain", move || {
        let mut buf = vec![0u8; STDERR_CHUNK];
        let mut forwarding = true;
        loop {
            match stderr.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if forwarding {
                        let event = Event::Stderr {
                            at: Instant::now(),
                            bytes: buf[..n].to_vec(),
                        };
                        // The session is gone: keep draining so the server is
                        // never blocked on a full pipe while it is torn down.
                        forwarding = tx.send(event).is_ok();
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::StderrClosed);
    });
}

/// How many bytes the guard wrote to the server's stdin that the server has
/// not read yet. The writer thread owns the pipe; the descriptor is asked
/// only under the lock the writer takes before it closes it, so the number
/// never names another file.
#[derive(Debug, Clone, Default)]
pub struct StdinWatch(Arc<Mutex<Option<i32>>>);

impl StdinWatch {
    /// The unread bytes, or `None` once stdin is closed or where the pipe
    /// cannot be asked.
    pub fn unread(&self) -> Option<usize> {
        let fd = self.0.lock().ok()?;
        crate::sys::pipe_unread((*fd)?).ok()
    }
}

/// The writer's end of stdin: its descriptor leaves the watch before the
/// pipe closes.
struct Watched<W> {
    stdin: W,
    watch: StdinWatch,
}

impl<W> Drop for Watched<W> {
    fn drop(&mut self) {
        if let Ok(mut fd) = self.watch.0.lock() {
            *fd = None;
        }
        // `stdin` drops after this: the server sees EOF.
    }
}

/// Starts the stdin writer. Each message is written whole and flushed; the
/// first failure is reported once and ends the thread. Dropping the returned
/// `Sender` closes the server's stdin. `fd` is the pipe's descriptor, for
/// the watch.
pub fn spawn_stdin_writer<W: Write + Send + 'static>(
    stdin: W,
    fd: Option<i32>,
    tx: SyncSender<Event>,
) -> (Sender<Vec<u8>>, StdinWatch) {
    let (msg_tx, msg_rx) = mpsc::channel::<Vec<u8>>();
    let watch = StdinWatch(Arc::new(Mutex::new(fd)));
    let mut end = Watched {
        stdin,
        watch: watch.clone(),
    };
    spawn_named("stdin-writer", move || {
        for msg in msg_rx {
            if let Err(e) = end.stdin.write_all(&msg).and_then(|()| end.stdin.flush()) {
                let _ = tx.send(Event::WriteFailed {
                    error: e.to_string(),
                });
                return;
            }
        }
    });
    (msg_tx, watch)
}

/// Starts the exit watcher for the leader `pid`.
pub fn spawn_exit_watcher(pid: u32, tx: SyncSender<Event>) {
    if !crate::sys::EXIT_WAIT_BLOCKS {
        return;
    }
    spawn_named("exit-watcher", move || {
        crate::sys::wait_exit_no_reap(pid);
        let _ = tx.send(Event::Exited);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], max_line: u64, max_total: u64) -> Vec<Event> {
        let (tx, rx) = mpsc::sync_channel(1024);
        frame_stdout(
            io::Cursor::new(input.to_vec()),
            max_line,
            max_total,
            &tx,
            &Tail::default(),
        );
        drop(tx);
        rx.into_iter().collect()
    }

    fn lines(events: &[Event]) -> Vec<(u64, u64, String, bool)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::StdoutLine {
                    number,
                    offset,
                    bytes,
                    terminated,
                    ..
                } => Some((
                    *number,
                    *offset,
                    String::from_utf8_lossy(bytes).into_owned(),
                    *terminated,
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn lines_keep_their_number_and_offset() {
        let ev = frames(b"{\"a\":1}\n\nhello\r\ntail", 100, 1000);
        assert_eq!(
            lines(&ev),
            [
                (1, 0, "{\"a\":1}".to_string(), true),
                (2, 8, String::new(), true),
                (3, 9, "hello\r".to_string(), true),
                (4, 16, "tail".to_string(), false),
            ]
        );
        assert!(matches!(ev.last(), Some(Event::StdoutClosed { total: 20 })));
    }

    #[test]
    fn a_line_at_the_limit_passes_and_one_byte_more_is_oversize() {
        let ev = frames(b"12345\n123456\nok\n", 5, 1000);
        assert_eq!(lines(&ev)[0].2, "12345");
        let over = ev.iter().find_map(|e| match e {
            Event::StdoutOversize {
                number,
                offset,
                len,
                head,
                ..
            } => Some((*number, *offset, *len, head.len())),
            _ => None,
        });
        assert_eq!(over, Some((2, 6, 7, 6)));
        assert_eq!(lines(&ev)[1], (3, 13, "ok".to_string(), true));
    }

    #[test]
    fn an_oversized_line_is_never_buffered_whole() {
        let mut big = vec![b'x'; 3_000_000];
        big.push(b'\n');
        let ev = frames(&big, 1000, u64::MAX);
        match &ev[0] {
            Event::StdoutOversize { head, len, .. } => {
                assert_eq!(head.len(), OVERSIZE_HEAD);
                assert_eq!(*len, 3_000_001);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn the_total_limit_stops_forwarding_but_counts_everything() {
        let input = b"aaaa\nbbbb\ncccc\ndddd\n";
        let ev = frames(input, 100, 12);
        assert_eq!(lines(&ev).len(), 3);
        assert!(matches!(ev[3], Event::StdoutLimit { total: 15, .. }));
        assert!(matches!(ev.last(), Some(Event::StdoutClosed { total: 20 })));
    }
}
