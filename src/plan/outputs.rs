//! The output registry: every file a command will write, opened (or
//! refused, exit 2) before anything is spawned, for `check`, `tools`,
//! `call`, `bench`, `batch` and `scan` alike. `-` is stdout; a regular file
//! is created (or truncated, or appended to for the evidence and the step
//! summary); a FIFO, `/dev/stdout`, `/dev/fd/N` and process substitution
//! are written as streams. Nothing here can hang the guard: a FIFO that no
//! reader has opened is waited for at most `READER_WAIT`, and every wait
//! and every write returns when a signal arrives (the guard then exits
//! 128+N). A reader that went away (`guard | head`) is not an error.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::Error;
use crate::plan::evidence;
use crate::sys;

/// How long a FIFO nobody reads yet is waited for.
pub const READER_WAIT: Duration = Duration::from_secs(10);
/// How often a wait looks for a signal.
const POLL: Duration = Duration::from_millis(25);

/// What an output is, by the flag that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The report itself: text or JSON (`--output`, default stdout).
    Report,
    Transcript,
    Evidence,
    Junit,
    Sarif,
    ChecksJson,
    /// `GITHUB_STEP_SUMMARY` (appended), or `batch --summary`.
    Summary,
    /// `batch --out`: one JSON report per line.
    Jsonl,
    Badge,
    Html,
    /// `--write-baseline`.
    Baseline,
}

impl Kind {
    /// How the user named it, for messages.
    pub fn flag(self) -> &'static str {
        match self {
            Kind::Report => "--output",
            Kind::Transcript => "--transcript",
            Kind::Evidence => "--evidence",
            Kind::Junit => "--junit",
            Kind::Sarif => "--sarif",
            Kind::ChecksJson => "--checks-json",
            Kind::Summary => "--summary",
            Kind::Jsonl => "--out",
            Kind::Badge => "--badge",
            Kind::Html => "--html",
            Kind::Baseline => "--write-baseline",
        }
    }

    /// Whether a regular file is appended to rather than replaced.
    fn appends(self) -> bool {
        matches!(self, Kind::Evidence | Kind::Summary)
    }
}

/// One output asked for: what, and where (`-` is stdout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub kind: Kind,
    pub path: OsString,
    /// How to name it when it is not a flag of the user's
    /// (`GITHUB_STEP_SUMMARY`).
    pub label: Option<&'static str>,
}

impl Wanted {
    pub fn new(kind: Kind, path: impl Into<OsString>) -> Wanted {
        Wanted {
            kind,
            path: path.into(),
            label: None,
        }
    }

    fn name(&self) -> String {
        format!(
            "{} {}",
            self.label.unwrap_or(self.kind.flag()),
            Path::new(&self.path).display()
        )
    }
}

/// An open output.
#[derive(Debug)]
pub struct Sink {
    pub kind: Kind,
    /// `--junit out.xml`, as messages name it.
    pub shown: String,
    /// The absolute path of a regular file ("" for a stream).
    pub path: String,
    /// Where it goes, as the records name it: the absolute path, or `-`.
    pub target: String,
    /// `None` for the guard's own stdout (written on fd 1 itself).
    file: Option<File>,
    /// A regular file (seekable, lockable), not a stream.
    regular: bool,
    /// The reader went away: later writes are dropped.
    closed: bool,
}

impl Sink {
    /// Writes all of `bytes`, scrubbed of every secret. A regular file
    /// takes them whatever happens (its writes never block: a transcript
    /// stays whole through an interrupt); on a stream a signal stops the
    /// write (`Interrupted`, the caller exits as interrupted), and a reader
    /// that went away is not an error: nothing more is written.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let scrubbed = crate::redact::out_bytes(bytes);
        let mut rest: &[u8] = &scrubbed;
        while !rest.is_empty() && !self.closed {
            if let (false, Some(sig)) = (self.regular, sys::pending_interrupt()) {
                return Err(Error::interrupted(sig));
            }
            let written = match &mut self.file {
                Some(file) => file.write(rest),
                None => sys::write_stdout_once(rest),
            };
            match written {
                Ok(0) => return Err(self.error(io::ErrorKind::WriteZero.into())),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.closed = true,
                Err(e) => return Err(self.error(e)),
            }
        }
        Ok(())
    }

    fn error(&self, e: io::Error) -> Error {
        Error::io(format!("cannot write {}", self.shown), e)
    }

    /// Appends one evidence record: under the file's lock with its time
    /// bumped past the last record's on a regular file, stamped now on a
    /// stream. Returns the record as written.
    pub fn append_record(&mut self, record: Value) -> Result<(), Error> {
        if let (true, Some(file)) = (self.regular, &mut self.file) {
            let shown = self.shown.clone();
            evidence::append(file, &shown, record).map(|_| ())
        } else {
            self.write_all(&evidence::line_for_stream(record))
        }
    }

    /// A second handle on the same output (the transcript of each run).
    pub fn try_clone(&self) -> Result<Sink, Error> {
        Ok(Sink {
            kind: self.kind,
            shown: self.shown.clone(),
            path: self.path.clone(),
            target: self.target.clone(),
            file: match &self.file {
                Some(f) => Some(f.try_clone().map_err(|e| self.error(e))?),
                None => None,
            },
            regular: self.regular,
            closed: self.closed,
        })
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)
            .map(|()| buf.len())
            .map_err(|e| io::Error::other(e.to_string()))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Every output of one command, open.
#[derive(Debug, Default)]
pub struct Outputs {
    sinks: Vec<Sink>,
}

impl Outputs {
    /// Opens every wanted output, in order; the first that cannot be
    /// opened is the error, and nothing has been started.
    pub fn open(wanted: &[Wanted]) -> Result<Outputs, Error> {
        let mut sinks: Vec<Sink> = Vec::new();
        for w in wanted {
            let sink = open_one(w)?;
            if !sink.path.is_empty()
                && let Some(twin) = sinks.iter().find(|s| s.path == sink.path)
            {
                return Err(Error::usage(
                    format!("{} and {} name the same file", twin.shown, sink.shown),
                    "give each output a file of its own",
                ));
            }
            sinks.push(sink);
        }
        Ok(Outputs { sinks })
    }

    /// The output of this kind, when one was asked for.
    pub fn get(&mut self, kind: Kind) -> Option<&mut Sink> {
        self.sinks.iter_mut().find(|s| s.kind == kind)
    }

    /// Whether an output of this kind was asked for.
    pub fn wants(&self, kind: Kind) -> bool {
        self.sinks.iter().any(|s| s.kind == kind)
    }

    /// Writes `bytes` to the output of this kind, if there is one.
    pub fn write(&mut self, kind: Kind, bytes: &[u8]) -> Result<(), Error> {
        match self.get(kind) {
            Some(sink) => sink.write_all(bytes),
            None => Ok(()),
        }
    }

    /// Takes the output of this kind out of the registry.
    pub fn take(&mut self, kind: Kind) -> Option<Sink> {
        let at = self.sinks.iter().position(|s| s.kind == kind)?;
        Some(self.sinks.remove(at))
    }
}

/// Opens one output.
fn open_one(w: &Wanted) -> Result<Sink, Error> {
    let shown = w.name();
    if w.path == "-" {
        return Ok(Sink {
            kind: w.kind,
            shown,
            path: String::new(),
            target: "-".into(),
            file: None,
            regular: false,
            closed: false,
        });
    }
    let abs = std::path::absolute(&w.path).unwrap_or_else(|_| PathBuf::from(&w.path));
    let shown = format!(
        "{} {}",
        w.label.unwrap_or(w.kind.flag()),
        crate::plan::paths::normalize(&abs).display()
    );
    match std::fs::metadata(&abs) {
        Ok(m) if m.is_dir() => Err(Error::usage(
            format!("{shown} cannot be written: it is a directory"),
            "give a file path",
        )),
        Ok(m) if m.file_type().is_fifo() || m.file_type().is_socket() => {
            let file = open_stream(&abs, &shown)?;
            Ok(sink(w.kind, shown, abs.display().to_string(), file, false))
        }
        Ok(m) if m.file_type().is_char_device() || m.file_type().is_block_device() => {
            let file = OpenOptions::new()
                .write(true)
                .open(&abs)
                .map_err(|e| Error::io(format!("cannot write {shown}"), e))?;
            Ok(sink(w.kind, shown, abs.display().to_string(), file, false))
        }
        _ => {
            if !abs.parent().is_some_and(Path::is_dir) {
                return Err(Error::usage(
                    format!("{shown} cannot be written: its directory does not exist"),
                    "give a file path in an existing directory",
                ));
            }
            let mut o = OpenOptions::new();
            if w.kind.appends() {
                o.read(true).append(true).create(true);
            } else {
                o.write(true).truncate(true).create(true);
            }
            let file = o
                .open(&abs)
                .map_err(|e| Error::io(format!("cannot write {shown}"), e))?;
            Ok(sink(w.kind, shown, abs.display().to_string(), file, true))
        }
    }
}

fn sink(kind: Kind, shown: String, target: String, file: File, regular: bool) -> Sink {
    Sink {
        kind,
        shown,
        path: if regular {
            target.clone()
        } else {
            String::new()
        },
        target,
        file: Some(file),
        regular,
        closed: false,
    }
}

/// Opens a FIFO (or a pipe named by `/dev/fd/N`) for writing. With a
/// reader it opens at once; without one, a helper thread waits in the
/// blocking open while this thread watches for a signal and the deadline.
fn open_stream(path: &Path, shown: &str) -> Result<File, Error> {
    let nonblocking = OpenOptions::new()
        .write(true)
        .custom_flags(sys::O_NONBLOCK)
        .open(path);
    match nonblocking {
        Ok(file) => {
            sys::set_blocking(&file).map_err(|e| Error::io(format!("cannot write {shown}"), e))?;
            return Ok(file);
        }
        Err(e) if e.raw_os_error() != Some(sys::ENXIO) => {
            return Err(Error::io(format!("cannot write {shown}"), e));
        }
        Err(_) => {}
    }
    let (tx, rx) = mpsc::channel();
    let owned = path.to_path_buf();
    sys::with_interrupts_blocked(|| {
        std::thread::Builder::new()
            .name("fifo-open".into())
            .spawn(move || {
                let _ = tx.send(OpenOptions::new().write(true).open(owned));
            })
    })
    .map_err(|e| Error::io("cannot start a thread", e))?;
    let deadline = Instant::now() + READER_WAIT;
    loop {
        if let Some(sig) = sys::pending_interrupt() {
            return Err(Error::interrupted(sig));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Error::usage(
                format!(
                    "{shown}: no reader opened the FIFO within {} s",
                    READER_WAIT.as_secs()
                ),
                "start the reader first, or give a regular file",
            ));
        }
        match rx.recv_timeout(left.min(POLL)) {
            Ok(opened) => return opened.map_err(|e| Error::io(format!("cannot write {shown}"), e)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::io(
                    format!("cannot write {shown}"),
                    io::Error::other("the open stopped"),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("mcpguard-outputs-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_bad_path_is_refused_with_its_flag_before_anything_runs() {
        let e = Outputs::open(&[Wanted::new(Kind::Junit, "/nonexistent/dir/x.xml")])
            .expect_err("no directory");
        assert!(
            e.to_string().contains("--junit /nonexistent/dir/x.xml"),
            "{e}"
        );
        let dir = std::env::temp_dir();
        let e = Outputs::open(&[Wanted::new(Kind::Sarif, dir)]).expect_err("a directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
    }

    #[test]
    fn two_outputs_may_not_share_a_file() {
        let p = temp("twin");
        let e = Outputs::open(&[
            Wanted::new(Kind::Junit, p.clone()),
            Wanted::new(Kind::Sarif, p.clone()),
        ])
        .expect_err("twins");
        assert!(e.to_string().contains("name the same file"), "{e}");
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_regular_file_is_replaced_and_the_evidence_appended_to() {
        let (out, ev) = (temp("out"), temp("ev"));
        std::fs::write(&out, "old contents").expect("seed");
        std::fs::write(&ev, "{\"time\":\"x\"}\n").expect("seed");
        let mut o = Outputs::open(&[
            Wanted::new(Kind::Junit, out.clone()),
            Wanted::new(Kind::Evidence, ev.clone()),
        ])
        .expect("open");
        o.write(Kind::Junit, b"new").expect("write");
        o.get(Kind::Evidence)
            .expect("evidence")
            .append_record(serde_json::json!({"time": "", "n": 1}))
            .expect("append");
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "new");
        assert_eq!(
            std::fs::read_to_string(&ev).expect("read").lines().count(),
            2
        );
        let _ = (std::fs::remove_file(&out), std::fs::remove_file(&ev));
    }
}
