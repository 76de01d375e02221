//! The threads that touch the server's pipes and its exit:
//!
//! - the stdout framer splits stdout into lines, keeping each line's physical
//!   number and byte offset, never buffering past the line limit, and stops
//!   forwarding once the total stdout limit is passed;
//! - the stderr drain never stops reading (a full pipe would block the
//!   server) and forwards chunks as they come;
//! - stdin (`Stdin`) is written by the session itself while the pipe has
//!   room, and by a writer thread, started only when a write would block,
//!   so a server that never reads cannot block the session; dropping it
//!   closes stdin;
//! - the exit watcher reports the leader's exit without reaping it.
//!
//! All of them send `Event`s on one bounded channel. The session holds no
//! `Sender` but the one its open stdin keeps for a writer thread, so once
//! stdin is closed a disconnected channel means every source has finished.

use std::io::{self, Read, Write};
use std::process::ChildStdin;
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

/// Starts a named thread; false when it could not be created. A reader
/// that cannot be created leaves its source silent; the session then ends
/// by its deadlines, which is the safe failure. The thread starts with the
/// guard's interrupts blocked, so they reach the main thread (whose
/// blocking write must return).
fn spawn_named(name: &str, f: impl FnOnce() + Send + 'static) -> bool {
    let builder = thread::Builder::new().name(name.to_string());
    crate::sys::with_interrupts_blocked(|| builder.spawn(f)).is_ok()
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
        if self.len > self.max_line as u64 {
            self.line.truncate(OVERSIZE_HEAD);
        }
        // The line grew by doubling: what it holds is kept, not the room
        // it grew into (a 16 MiB line would otherwise keep 32 MiB).
        if self.line.capacity() > self.line.len() + self.line.len() / 8 + 64 {
            self.line.shrink_to_fit();
        }
        let event = if self.len > self.max_line as u64 {
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

/// The server's stdin. The session writes to the pipe itself while the pipe
/// has room (a non-blocking write: no thread between a request and the
/// server); a message that does not fit goes to a writer thread, started
/// then, which waits for room, so a server that never reads cannot block the
/// session. Messages leave in order: while the thread holds any, new ones
/// queue behind them. Dropping a `Stdin` closes the pipe, at once when
/// nothing is queued, else once the thread has written what it holds. An
/// in-memory session's stdin is a plain channel.
#[derive(Debug)]
pub struct Stdin(Sink);

#[derive(Debug)]
enum Sink {
    Pipe(PipeStdin),
    Channel(Sender<Vec<u8>>),
}

#[derive(Debug)]
struct PipeStdin {
    shared: Arc<Mutex<PipeState>>,
    /// The writer thread's queue, once the thread runs.
    queue: Option<Sender<Vec<u8>>>,
    /// The writer thread's way to report a failed write; it moves into
    /// the thread when the thread starts.
    events: Option<SyncSender<Event>>,
    /// The descriptor is non-blocking, so the session may write itself.
    direct: bool,
}

#[derive(Debug)]
struct PipeState {
    /// `None` once closed (by the session, the thread, or a failure).
    file: Option<ChildStdin>,
    /// Messages handed to the thread and not yet written whole. While any
    /// is, only the thread touches `file`.
    queued: usize,
}

/// How long the writer thread waits for room in one `poll`; it waits again
/// until the pipe has room or fails (a server that is killed fails it).
#[cfg(unix)]
const ROOM_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Writes as much of `bytes` as the pipe takes now: how many bytes that
/// was (less than all when it is full), or the write's error.
fn write_now(file: &mut ChildStdin, bytes: &[u8]) -> io::Result<usize> {
    let mut done = 0;
    while done < bytes.len() {
        match file.write(&bytes[done..]) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

impl Stdin {
    /// The stdin of a spawned server; `events` carries the writer thread's
    /// report of a failed write.
    pub fn pipe(stdin: ChildStdin, events: SyncSender<Event>) -> Stdin {
        #[cfg(unix)]
        let direct = {
            use std::os::fd::AsRawFd;
            crate::sys::set_nonblocking(stdin.as_raw_fd()).is_ok()
        };
        #[cfg(not(unix))]
        let direct = false;
        Stdin(Sink::Pipe(PipeStdin {
            shared: Arc::new(Mutex::new(PipeState {
                file: Some(stdin),
                queued: 0,
            })),
            queue: None,
            events: Some(events),
            direct,
        }))
    }

    /// The stdin of an in-memory server.
    pub fn channel(tx: Sender<Vec<u8>>) -> Stdin {
        Stdin(Sink::Channel(tx))
    }

    /// Sends one message. `Err` is a write that failed in the session's
    /// own hands (the caller reports it); the writer thread reports its
    /// failures as `Event::WriteFailed`. After a failure nothing more is
    /// written.
    pub fn send(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        match &mut self.0 {
            // A send error means the memory server has stopped reading.
            Sink::Channel(tx) => {
                let _ = tx.send(bytes);
                Ok(())
            }
            Sink::Pipe(pipe) => pipe.send(bytes),
        }
    }

    /// How many bytes the guard wrote that the server has not read yet;
    /// `None` once stdin is closed, for a channel, or where the pipe cannot
    /// be asked.
    pub fn unread(&self) -> Option<usize> {
        let Sink::Pipe(pipe) = &self.0 else {
            return None;
        };
        let state = pipe.shared.lock().ok()?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            crate::sys::pipe_unread(state.file.as_ref()?.as_raw_fd()).ok()
        }
        #[cfg(not(unix))]
        {
            drop(state);
            None
        }
    }
}

impl PipeStdin {
    fn send(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        let rest = {
            let Ok(mut state) = self.shared.lock() else {
                return Ok(());
            };
            let queued = state.queued;
            let Some(file) = state.file.as_mut() else {
                return Ok(());
            };
            if queued > 0 || !self.direct {
                state.queued += 1;
                bytes
            } else {
                match write_now(file, &bytes) {
                    Ok(n) if n == bytes.len() => return Ok(()),
                    Ok(n) => {
                        state.queued += 1;
                        bytes[n..].to_vec()
                    }
                    Err(e) => {
                        state.file = None;
                        return Err(e.to_string());
                    }
                }
            }
        };
        self.hand_over(rest)
    }

    /// Gives a message to the writer thread, starting it first if needed.
    fn hand_over(&mut self, message: Vec<u8>) -> Result<(), String> {
        if self.queue.is_none() {
            let (tx, rx) = mpsc::channel::<Vec<u8>>();
            let (shared, events) = (Arc::clone(&self.shared), self.events.take());
            let started = events.is_some_and(|events| {
                spawn_named("stdin-writer", move || write_queue(&shared, &rx, &events))
            });
            if !started {
                if let Ok(mut state) = self.shared.lock() {
                    state.file = None;
                    state.queued = 0;
                }
                return Err("cannot start the stdin writer thread".to_string());
            }
            self.queue = Some(tx);
        }
        if let Some(queue) = &self.queue {
            // A send error means the thread has ended after a failed write,
            // which it reported.
            let _ = queue.send(message);
        }
        Ok(())
    }
}

impl Drop for PipeStdin {
    fn drop(&mut self) {
        // The thread writes what it holds, then closes the pipe itself.
        self.queue = None;
        if let Ok(mut state) = self.shared.lock()
            && state.queued == 0
        {
            state.file = None;
        }
    }
}

/// The writer thread: each message written whole, waiting for room as long
/// as the pipe stays open; the first failure is reported once and closes
/// the pipe; when the session has closed stdin and the queue is written,
/// the pipe is closed.
fn write_queue(shared: &Mutex<PipeState>, rx: &Receiver<Vec<u8>>, events: &SyncSender<Event>) {
    for message in rx {
        let mut rest = &message[..];
        loop {
            let Ok(mut state) = shared.lock() else {
                return;
            };
            let Some(file) = state.file.as_mut() else {
                return;
            };
            match write_now(file, rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) => {
                    state.file = None;
                    state.queued = 0;
                    drop(state);
                    let _ = events.send(Event::WriteFailed {
                        error: e.to_string(),
                    });
                    return;
                }
            }
            if rest.is_empty() {
                state.queued = state.queued.saturating_sub(1);
                break;
            }
            #[cfg(unix)]
            let fd = {
                use std::os::fd::AsRawFd;
                file.as_raw_fd()
            };
            drop(state);
            // While this thread holds a queued message nobody else closes
            // the pipe, so the descriptor stays this pipe's.
            #[cfg(unix)]
            let _ = crate::sys::wait_writable(fd, ROOM_WAIT);
        }
    }
    if let Ok(mut state) = shared.lock() {
        state.file = None;
    }
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

    /// `cat` with both ends piped, and a thread that reads all it writes
    /// (after `hold` says go), with a deadline.
    #[cfg(unix)]
    fn cat() -> (
        std::process::Child,
        Stdin,
        Receiver<Event>,
        std::sync::mpsc::Sender<()>,
        Receiver<Vec<u8>>,
    ) {
        let mut child = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("cat");
        let (tx, rx) = channel();
        let stdin = Stdin::pipe(child.stdin.take().expect("stdin"), tx);
        let mut stdout = child.stdout.take().expect("stdout");
        let (go, hold) = mpsc::channel::<()>();
        let (out_tx, out_rx) = mpsc::channel();
        thread::spawn(move || {
            let _ = hold.recv();
            let mut all = Vec::new();
            let _ = stdout.read_to_end(&mut all);
            let _ = out_tx.send(all);
        });
        (child, stdin, rx, go, out_rx)
    }

    #[cfg(unix)]
    #[test]
    fn a_server_that_reads_nothing_never_blocks_a_send_and_order_is_kept() {
        let (mut child, mut stdin, _events, go, out) = cat();
        // 1 MiB: far more than both pipes hold while nobody reads. Every
        // send returns while the reader is held: were a send to wait for
        // it, the sending thread would never finish (the reader is
        // released only after it), which the deadline below fails.
        let (sent_tx, sent_rx) = mpsc::channel();
        thread::spawn(move || {
            let mut expected = Vec::new();
            for i in 0..256u32 {
                let message = format!("{i:04} {}\n", "x".repeat(4090)).into_bytes();
                expected.extend_from_slice(&message);
                assert_eq!(stdin.send(message), Ok(()));
            }
            let _ = sent_tx.send((stdin, expected));
        });
        let (stdin, expected) = sent_rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the sends waited for a reader that never read");
        let _ = go.send(());
        drop(stdin);
        let got = out
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("cat ended once its stdin was written and closed");
        assert_eq!(got.len(), expected.len());
        assert!(got == expected, "the messages arrived out of order");
        let _ = child.wait();
    }

    #[cfg(unix)]
    #[test]
    fn closing_with_nothing_queued_closes_at_once() {
        let (mut child, mut stdin, _events, go, out) = cat();
        let _ = go.send(());
        assert_eq!(stdin.send(b"one line\n".to_vec()), Ok(()));
        assert!(stdin.unread().is_some(), "an open pipe can be asked");
        drop(stdin);
        let got = out
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("EOF reached cat");
        assert_eq!(got, b"one line\n");
        let _ = child.wait();
    }

    #[cfg(unix)]
    #[test]
    fn a_write_to_a_closed_stdin_is_reported_once_and_nothing_more_is_written() {
        let mut child = std::process::Command::new("true")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("true");
        let (tx, _rx) = channel();
        let mut stdin = Stdin::pipe(child.stdin.take().expect("stdin"), tx);
        let _ = child.wait();
        let first = stdin.send(b"hello\n".to_vec());
        assert!(first.is_err(), "{first:?}");
        assert_eq!(stdin.send(b"again\n".to_vec()), Ok(()));
        assert_eq!(stdin.unread(), None, "the failed pipe is closed");
    }

    #[test]
    fn an_in_memory_stdin_is_a_channel() {
        let (tx, rx) = mpsc::channel();
        let mut stdin = Stdin::channel(tx);
        assert_eq!(stdin.send(b"x".to_vec()), Ok(()));
        assert_eq!(stdin.unread(), None);
        drop(stdin);
        assert_eq!(rx.iter().collect::<Vec<_>>(), [b"x".to_vec()]);
    }
}
