//! The byte relay of `wrap`: the host's stdin to the server's, the
//! server's stdout and stderr to the host's, each on its own thread, byte
//! for byte, in order, as read (no line is assembled on the forwarding
//! path). Each chunk is forwarded first and then offered, as a copy with
//! the time it was read, to whoever judges the session (the copies of the
//! two directions may reach the judge out of order: an answer's copy can
//! come before its request's); when the judge falls behind by more than a
//! bound, copies are dropped and counted rather than the relay slowed or
//! memory grown.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// Copies waiting for the judge, at most.
const QUEUED: usize = 8 << 20;
/// Spent copies kept for the next chunks, at most (a buffer reused costs
/// no allocation and no fresh pages; freeing and allocating 64 KiB at the
/// top of the heap costs both, chunk after chunk).
const SPARE: usize = 16;
/// One read.
const CHUNK: usize = 64 << 10;

/// Which stream a chunk came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// The host's stdin, forwarded to the server.
    HostIn,
    ServerOut,
    ServerErr,
}

/// What the relay saw.
#[derive(Debug)]
pub enum Flow {
    /// A chunk forwarded, `at` when it was read.
    Chunk(Stream, Vec<u8>, Instant),
    /// Copies of this stream were dropped from here on (the judge was too
    /// far behind): the line under way cannot be judged. `Copies::dropped`
    /// counts the bytes.
    Gap(Stream),
    /// A stream reached its end (`HostIn`: the host closed the server's
    /// stdin, which is then closed too).
    End(Stream, Instant),
    /// Writing to the host failed (it went away): the bytes are read and
    /// judged, no longer forwarded.
    HostGone(Stream),
}

/// The copies' bound, shared by the three threads.
#[derive(Clone)]
struct Queue {
    tx: Sender<Flow>,
    queued: Arc<AtomicUsize>,
    dropped: Arc<AtomicUsize>,
    /// Per stream: copies are being dropped now.
    gap: Arc<[std::sync::atomic::AtomicBool; 3]>,
    spare: Spare,
}

/// Buffers the judge is done with, for the relay's next copies.
type Spare = Arc<std::sync::Mutex<Vec<Vec<u8>>>>;

impl Queue {
    /// Offers a copy of `bytes`, counted by the memory it takes (a spare
    /// buffer is used only for a chunk that fills most of it).
    fn offer(&self, s: Stream, bytes: &[u8], at: Instant) {
        let spare = (bytes.len() >= CHUNK / 2)
            .then(|| self.spare.lock().ok().and_then(|mut v| v.pop()))
            .flatten();
        let mut copy = spare.unwrap_or_else(|| Vec::with_capacity(bytes.len()));
        copy.clear();
        copy.extend_from_slice(bytes);
        let size = copy.capacity();
        if self.queued.fetch_add(size, Ordering::SeqCst) + size > QUEUED {
            self.queued.fetch_sub(size, Ordering::SeqCst);
            // The first byte dropped after a taken copy tells the judge of
            // the gap (the line it was in cannot be judged); the rest are
            // only counted.
            if !self.gap[s as usize].swap(true, Ordering::SeqCst) {
                let _ = self.tx.send(Flow::Gap(s));
            }
            self.dropped.fetch_add(bytes.len(), Ordering::SeqCst);
            recycle(&self.spare, copy);
            return;
        }
        self.gap[s as usize].store(false, Ordering::SeqCst);
        let _ = self.tx.send(Flow::Chunk(s, copy, at));
    }
}

/// Keeps a spent buffer for a later copy, up to `SPARE` of them.
fn recycle(spare: &Spare, buf: Vec<u8>) {
    if buf.capacity() == CHUNK
        && let Ok(mut spare) = spare.lock()
        && spare.len() < SPARE
    {
        spare.push(buf);
    }
}

/// The judge's end: the flows, and the release of what it took.
pub struct Copies {
    pub rx: Receiver<Flow>,
    queued: Arc<AtomicUsize>,
    dropped: Arc<AtomicUsize>,
    spare: Spare,
}

impl std::fmt::Debug for Copies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Copies").finish_non_exhaustive()
    }
}

impl Copies {
    /// Hands a chunk's buffer back once it is judged: its memory is no
    /// longer queued, and the buffer may hold a later copy.
    pub fn done(&self, buf: Vec<u8>) {
        self.queued.fetch_sub(buf.capacity(), Ordering::SeqCst);
        recycle(&self.spare, buf);
    }

    /// Bytes forwarded whose copies were dropped, so far.
    pub fn dropped(&self) -> usize {
        self.dropped.load(Ordering::SeqCst)
    }
}

/// Starts the three relay threads (with the interrupt signals blocked, so
/// they reach the main thread): `host_in` and `out`/`err` are the host's
/// ends, `to_server` and `from_*` the server's pipes.
pub fn start(
    host_in: impl Read + Send + 'static,
    to_server: impl Write + Send + 'static,
    from_out: impl Read + Send + 'static,
    from_err: impl Read + Send + 'static,
) -> std::io::Result<Copies> {
    let (tx, rx) = channel();
    let queued = Arc::new(AtomicUsize::new(0));
    let dropped = Arc::new(AtomicUsize::new(0));
    let spare: Spare = Arc::default();
    let q = Queue {
        tx,
        queued: Arc::clone(&queued),
        dropped: Arc::clone(&dropped),
        gap: Arc::new(Default::default()),
        spare: Arc::clone(&spare),
    };
    crate::sys::with_interrupts_blocked(|| -> std::io::Result<()> {
        let (a, b, c) = (q.clone(), q.clone(), q);
        spawn("relay-in", move || {
            pump(host_in, Some(to_server), Stream::HostIn, &a)
        })?;
        spawn("relay-out", move || {
            pump(from_out, None::<std::fs::File>, Stream::ServerOut, &b)
        })?;
        spawn("relay-err", move || {
            pump(from_err, None::<std::fs::File>, Stream::ServerErr, &c)
        })?;
        Ok(())
    })?;
    Ok(Copies {
        rx,
        queued,
        dropped,
        spare,
    })
}

fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(f)
        .map(|_| ())
}

/// Reads `from` until its end, forwarding each chunk (to `to`, or to the
/// host's stdout or stderr), then offering a copy.
fn pump<W: Write>(mut from: impl Read, mut to: Option<W>, s: Stream, q: &Queue) {
    let mut buf = vec![0u8; CHUNK];
    let mut forwarding = true;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let at = Instant::now();
        let bytes = &buf[..n];
        if forwarding {
            let sent = match (&mut to, s) {
                (Some(w), _) => w.write_all(bytes).and_then(|()| w.flush()),
                (None, Stream::ServerErr) => std::io::stderr().write_all(bytes),
                (None, _) => write_stdout(bytes),
            };
            if sent.is_err() {
                forwarding = false;
                let _ = q.tx.send(Flow::HostGone(s));
            }
        }
        q.offer(s, bytes, at);
    }
    // Said before the server's stdin is closed, so the judge knows of the
    // host's EOF before the server can act on it.
    let _ = q.tx.send(Flow::End(s, Instant::now()));
    drop(to);
}

/// Every byte to the guard's own stdout, unbuffered (a partial line goes
/// out as it came).
fn write_stdout(mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        match crate::sys::write_stdout_once(bytes) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
