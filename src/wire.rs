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

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
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
    // then ends by its deadlines, which is the safe failure.
    let _ = thread::Builder::new().name(name.to_string()).spawn(f);
}

/// Starts the stdout framer.
pub fn spawn_stdout_framer<R: Read + Send + 'static>(
    stdout: R,
    max_line: u64,
    max_total: u64,
    tx: SyncSender<Event>,
) {
    spawn_named("stdout-framer", move || {
        frame_stdout(stdout, max_line, max_total, &tx);
    });
}

/// Splits `stdout` into line events until EOF or until the receiver is gone.
pub fn frame_stdout<R: Read>(stdout: R, max_line: u64, max_total: u64, tx: &SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    let mut number = 0u64;
    let mut total = 0u64;
    let mut forwarding = true;
    loop {
        line.clear();
        let offset = total;
        let read = (&mut reader)
            .take(max_line + 1)
            .read_until(b'\n', &mut line);
        let n = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => n as u64,
        };
        total += n;
        if !forwarding {
            if !line.ends_with(b"\n") {
                total += skip_line(&mut reader);
            }
            continue;
        }
        number += 1;
        let at = Instant::now();
        let event = if line.ends_with(b"\n") {
            line.pop();
            Event::StdoutLine {
                at,
                number,
                offset,
                bytes: line.clone(),
                terminated: true,
            }
        } else if n > max_line {
            let rest = skip_line(&mut reader);
            total += rest;
            line.truncate(OVERSIZE_HEAD);
            Event::StdoutOversize {
                at,
                number,
                offset,
                head: line.clone(),
                len: n + rest,
            }
        } else {
            Event::StdoutLine {
                at,
                number,
                offset,
                bytes: line.clone(),
                terminated: false,
            }
        };
        if tx.send(event).is_err() {
            return;
        }
        // The line that crosses the limit is still forwarded (it is within the
        // line cap), so memory in flight stays below limit + one line.
        if total > max_total {
            forwarding = false;
            if tx.send(Event::StdoutLimit { at, total }).is_err() {
                return;
            }
        }
    }
    let _ = tx.send(Event::StdoutClosed { total });
}

/// Discards bytes up to and including the next `\n` (or EOF) and returns
/// how many were discarded. Never buffers more than the reader's buffer.
fn skip_line<R: BufRead>(reader: &mut R) -> u64 {
    let mut skipped = 0u64;
    loop {
        let (used, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => return skipped,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            },
        };
        reader.consume(used);
        skipped += used as u64;
        if done {
            return skipped;
        }
    }
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

/// Starts the stdin writer. Each message is written whole and flushed; the
/// first failure is reported once and ends the thread. Dropping the returned
/// `Sender` closes the server's stdin.
pub fn spawn_stdin_writer<W: Write + Send + 'static>(
    mut stdin: W,
    tx: SyncSender<Event>,
) -> Sender<Vec<u8>> {
    let (msg_tx, msg_rx) = mpsc::channel::<Vec<u8>>();
    spawn_named("stdin-writer", move || {
        for msg in msg_rx {
            if let Err(e) = stdin.write_all(&msg).and_then(|()| stdin.flush()) {
                let _ = tx.send(Event::WriteFailed {
                    error: e.to_string(),
                });
                return;
            }
        }
        // `stdin` drops here: the server sees EOF.
    });
    msg_tx
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
        frame_stdout(io::Cursor::new(input.to_vec()), max_line, max_total, &tx);
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
