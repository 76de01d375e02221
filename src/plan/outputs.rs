//! The output registry: every file a command will write, opened (or
//! refused, exit 2) before anything is spawned, for `check`, `tools`,
//! `call`, `bench`, `batch` and `scan` alike. `-` is stdout. A regular file
//! is written to a temporary file beside it and renamed over it once the
//! command is done (`commit`), so a failed or interrupted run leaves the
//! old file whole; the live outputs (the transcript, batch's JSONL) are
//! written in place as the run goes, and the evidence and the step summary
//! are appended to. Files are told apart by what they are, not how they
//! are spelled: two outputs that are one file (through a symlink or a hard
//! link), or an output that is one of the command's inputs, are refused
//! before anything is touched. A FIFO, `/dev/stdout`, `/dev/fd/N` and
//! process substitution are written as streams. Nothing here can hang the
//! guard: a FIFO that no reader has opened is waited for at most
//! `READER_WAIT`, and every wait and every write to a stream returns when a
//! signal arrives (the guard then exits 128+N). A reader that went away
//! (`guard | head`) is not an error.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::sync::mpsc;
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;

use serde_json::Value;

use crate::args::formats::Format;
use crate::error::Error;
use crate::plan::evidence;
use crate::sys;

/// How long a FIFO nobody reads yet is waited for.
pub const READER_WAIT: Duration = Duration::from_secs(10);
/// How often a wait looks for a signal.
#[cfg(unix)]
const POLL: Duration = Duration::from_millis(25);

/// What an output is, by the flag that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The report itself: text or JSON (`--output`, default stdout).
    Report,
    Transcript,
    Evidence,
    /// `GITHUB_STEP_SUMMARY` (appended), or `batch --summary`.
    Summary,
    /// `batch --out`: one JSON report per line.
    Jsonl,
    /// A format of the table (`--junit`, `--sarif`, `--html`, ...).
    Format(Format),
}

impl Kind {
    /// How the user named it, for messages.
    pub fn flag(self) -> String {
        match self {
            Kind::Report => "--output".into(),
            Kind::Transcript => "--transcript".into(),
            Kind::Evidence => "--evidence".into(),
            Kind::Summary => "--summary".into(),
            Kind::Jsonl => "--out".into(),
            Kind::Format(f) => format!("--{}", f.flag()),
        }
    }

    /// Whether a regular file is appended to rather than replaced.
    fn appends(self) -> bool {
        matches!(self, Kind::Evidence | Kind::Summary)
    }

    /// Whether a regular file is written in place as the run goes (it is
    /// read while the run lasts, and kept when the run is interrupted).
    fn live(self) -> bool {
        matches!(self, Kind::Transcript | Kind::Jsonl)
    }
}

/// What a path names: the file (device and inode) when it exists, else
/// the path it would be created at, its directory resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    #[cfg(unix)]
    File(u64, u64),
    Path(PathBuf),
}

fn identity(path: &Path) -> Option<Identity> {
    match std::fs::metadata(path) {
        #[cfg(unix)]
        Ok(m) => {
            use std::os::unix::fs::MetadataExt;
            Some(Identity::File(m.dev(), m.ino()))
        }
        #[cfg(not(unix))]
        Ok(_) => std::fs::canonicalize(path).ok().map(Identity::Path),
        Err(_) => {
            let dir = std::fs::canonicalize(path.parent()?).ok()?;
            Some(Identity::Path(dir.join(path.file_name()?)))
        }
    }
}

/// One input of a command (`--config`, `--baseline`, `batch`'s manifest,
/// ...): no output may be it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputPath {
    pub flag: &'static str,
    pub path: PathBuf,
}

/// A replaced file's new contents, written beside it until `commit`.
#[derive(Debug)]
struct Pending {
    temp: PathBuf,
    target: PathBuf,
    /// Registered for removal by an emergency exit.
    _registered: sys::custody::Temp,
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
            self.label.map_or_else(|| self.kind.flag(), String::from),
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
    /// Written to a temporary file, renamed over the target by `commit`.
    pending: Option<Pending>,
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
            pending: None,
        })
    }

    /// Renames the temporary file over the target: the output is done.
    fn commit(&mut self) -> Result<(), Error> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        std::fs::rename(&p.temp, &p.target).map_err(|e| {
            let _ = std::fs::remove_file(&p.temp);
            self.error(e)
        })
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        // Not committed: the run failed or was interrupted, and the old
        // file stays as it was.
        if let Some(p) = self.pending.take() {
            let _ = std::fs::remove_file(&p.temp);
        }
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
    /// opened is the error, and nothing has been started. No output may be
    /// another output or one of `inputs` (compared by what the files are),
    /// but an evidence file may be its own `--against`; this is checked
    /// before any file is created or truncated.
    pub fn open(wanted: &[Wanted], inputs: &[InputPath]) -> Result<Outputs, Error> {
        let mut seen: Vec<(String, Identity)> = Vec::new();
        for w in wanted.iter().filter(|w| w.path != "-") {
            let path = std::path::absolute(&w.path).unwrap_or_else(|_| PathBuf::from(&w.path));
            if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
                // A stream or a device: written as such, never replaced.
                continue;
            }
            let Some(id) = identity(&path) else { continue };
            if let Some((twin, _)) = seen.iter().find(|(_, other)| *other == id) {
                return Err(Error::usage(
                    format!("{twin} and {} name the same file", w.name()),
                    "give each output a file of its own",
                ));
            }
            for input in inputs {
                let allowed = w.kind == Kind::Evidence && input.flag == "--against";
                if !allowed && identity(&input.path).as_ref() == Some(&id) {
                    return Err(Error::usage(
                        format!(
                            "{} would overwrite the input {} {}",
                            w.name(),
                            input.flag,
                            input.path.display()
                        ),
                        "write the output to another file",
                    ));
                }
            }
            seen.push((w.name(), id));
        }
        let mut sinks = Vec::new();
        for w in wanted {
            sinks.push(open_one(w)?);
        }
        Ok(Outputs { sinks })
    }

    /// Every replaced output is done: each temporary file takes its
    /// target's place.
    pub fn commit(&mut self) -> Result<(), Error> {
        for sink in &mut self.sinks {
            sink.commit()?;
        }
        Ok(())
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
            pending: None,
        });
    }
    let abs = std::path::absolute(&w.path).unwrap_or_else(|_| PathBuf::from(&w.path));
    let shown = format!(
        "{} {}",
        w.label.map_or_else(|| w.kind.flag(), String::from),
        crate::plan::paths::normalize(&abs).display()
    );
    if crate::plan::paths::is_named_pipe(&abs) {
        let file = open_stream(&abs, &shown)?;
        return Ok(sink(w.kind, shown, abs.display().to_string(), file, false));
    }
    match std::fs::metadata(&abs) {
        Ok(m) if m.is_dir() => Err(Error::usage(
            format!("{shown} cannot be written: it is a directory"),
            "give a file path",
        )),
        Ok(m) if crate::plan::paths::is_stream(&m.file_type()) => {
            let file = open_stream(&abs, &shown)?;
            Ok(sink(w.kind, shown, abs.display().to_string(), file, false))
        }
        Ok(m) if crate::plan::paths::is_device(&m.file_type()) => {
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
            } else if w.kind.live() {
                o.write(true).truncate(true).create(true);
            } else {
                return replaced(w.kind, shown, &abs);
            }
            let file = o
                .open(&abs)
                .map_err(|e| Error::io(format!("cannot write {shown}"), e))?;
            Ok(sink(w.kind, shown, abs.display().to_string(), file, true))
        }
    }
}

/// A regular file whose new contents go to a temporary file beside it (of
/// the file a symlink names: the link stays a link), with the old file's
/// permissions, until `commit`.
fn replaced(kind: Kind, shown: String, abs: &Path) -> Result<Sink, Error> {
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let target = std::fs::canonicalize(abs).unwrap_or_else(|_| abs.to_path_buf());
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(
        ".{name}.{}-{n}.mcp-stdio-guard.tmp",
        std::process::id()
    ));
    let registered = sys::custody::temp(&temp);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(|e| Error::io(format!("cannot write {shown}"), e))?;
    if let Ok(old) = std::fs::metadata(&target) {
        let _ = std::fs::set_permissions(&temp, old.permissions());
    }
    let mut sink = sink(kind, shown, abs.display().to_string(), file, true);
    sink.pending = Some(Pending {
        temp,
        target,
        _registered: registered,
    });
    Ok(sink)
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
        pending: None,
    }
}

/// Opens a named pipe (`\\\\.\\pipe\\name`) for writing: the pipe's server
/// must be listening.
#[cfg(not(unix))]
fn open_stream(path: &Path, shown: &str) -> Result<File, Error> {
    OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| Error::io(format!("cannot write {shown}"), e))
}

/// Opens a FIFO (or a pipe named by `/dev/fd/N`) for writing. With a
/// reader it opens at once; without one, a helper thread waits in the
/// blocking open while this thread watches for a signal and the deadline.
#[cfg(unix)]
fn open_stream(path: &Path, shown: &str) -> Result<File, Error> {
    let nonblocking = std::os::unix::fs::OpenOptionsExt::custom_flags(
        OpenOptions::new().write(true),
        sys::O_NONBLOCK,
    )
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
        let e = Outputs::open(
            &[Wanted::new(
                Kind::Format(Format::Junit),
                "/nonexistent/dir/x.xml",
            )],
            &[],
        )
        .expect_err("no directory");
        assert!(
            e.to_string().contains("--junit /nonexistent/dir/x.xml"),
            "{e}"
        );
        let dir = std::env::temp_dir();
        let e = Outputs::open(&[Wanted::new(Kind::Format(Format::Sarif), dir)], &[])
            .expect_err("a directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
    }

    #[test]
    fn two_outputs_may_not_share_a_file() {
        let p = temp("twin");
        let e = Outputs::open(
            &[
                Wanted::new(Kind::Format(Format::Junit), p.clone()),
                Wanted::new(Kind::Format(Format::Sarif), p.clone()),
            ],
            &[],
        )
        .expect_err("twins");
        assert!(e.to_string().contains("name the same file"), "{e}");
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_regular_file_is_replaced_and_the_evidence_appended_to() {
        let (out, ev) = (temp("out"), temp("ev"));
        std::fs::write(&out, "old contents").expect("seed");
        std::fs::write(&ev, "{\"time\":\"x\"}\n").expect("seed");
        let mut o = Outputs::open(
            &[
                Wanted::new(Kind::Format(Format::Junit), out.clone()),
                Wanted::new(Kind::Evidence, ev.clone()),
            ],
            &[],
        )
        .expect("open");
        o.write(Kind::Format(Format::Junit), b"new").expect("write");
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "old contents");
        o.commit().expect("commit");
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
