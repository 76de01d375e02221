//! Reading what the user hands the guard: the config, the batch manifest,
//! a baseline, the expected failures, an evidence file to compare with,
//! the JSONL files to merge. Each is bounded (a whole file by `LIMIT`, a
//! line-by-line file by its line bound) and refused past its bound, before
//! the guard holds it (exit 2). A regular file is read; a FIFO, a pipe or
//! process substitution (`--config <(jq …)`) is read as a stream, its
//! writer waited for at most `WRITER_WAIT` between two reads, and every
//! wait ends at a signal; a directory or a device (`/dev/zero`) is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;

use crate::error::Error;
use crate::sys;

/// The most a whole-file input may hold (config, manifest, baseline,
/// expected failures).
pub const LIMIT: u64 = 16 << 20;
/// How long a stream input's writer is waited for, for its first bytes and
/// between two reads.
pub const WRITER_WAIT: Duration = Duration::from_secs(10);
/// How often a wait looks for a signal.
#[cfg(unix)]
const POLL: Duration = Duration::from_millis(25);

/// An open input: a regular file, or a stream read without ever blocking
/// past a signal or `WRITER_WAIT`.
#[derive(Debug)]
pub struct Input {
    file: File,
    stream: bool,
    /// `--config c.json`, as messages name it.
    pub shown: String,
}

/// Opens `path`, which `flag` names (`--config`, `batch`): a regular file
/// or a stream; anything else is the user's error.
pub fn open(path: &Path, flag: &str) -> Result<Input, Error> {
    let shown = format!("{flag} {}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| Error::io(format!("cannot read {shown}"), e))?;
    let kind = meta.file_type();
    if meta.is_dir() {
        return Err(Error::usage(
            format!("{shown} is a directory"),
            "give a file",
        ));
    }
    let stream = crate::plan::paths::is_stream(&kind);
    if !meta.is_file() && !stream {
        return Err(Error::usage(
            format!("{shown} is a device, not a file"),
            "give a regular file, a FIFO or a pipe",
        ));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if stream {
        // A FIFO without a writer would block the open itself.
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, sys::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| Error::io(format!("cannot read {shown}"), e))?;
    Ok(Input {
        file,
        stream,
        shown,
    })
}

impl Input {
    /// Waits until the stream can be read (data, or its writer closed it
    /// after opening it): an interrupt or `WRITER_WAIT` without either is
    /// an error.
    #[cfg(unix)]
    fn wait(&self) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let deadline = Instant::now() + WRITER_WAIT;
        loop {
            if sys::pending_interrupt().is_some() {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("nothing was written within {} s", WRITER_WAIT.as_secs()),
                ));
            }
            if sys::wait_readable(self.file.as_raw_fd(), left.min(POLL))? {
                return Ok(());
            }
        }
    }

    #[cfg(not(unix))]
    fn wait(&self) -> io::Result<()> {
        Ok(())
    }

    /// The whole input as text, at most `limit` bytes: more is refused.
    pub fn text(mut self, limit: u64) -> Result<String, Error> {
        let mut bytes = Vec::new();
        (&mut self)
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| self.error(e))?;
        if bytes.len() as u64 > limit {
            return Err(Error::usage(
                format!("{} is larger than {}", self.shown, size(limit)),
                "give a smaller file",
            ));
        }
        String::from_utf8(bytes).map_err(|_| {
            Error::usage(
                format!("{} is not UTF-8 text", self.shown),
                "give a UTF-8 text file",
            )
        })
    }

    /// The guard's error for a failed read: an interrupt is the signal's.
    pub fn error(&self, e: io::Error) -> Error {
        match (e.kind(), sys::pending_interrupt()) {
            (io::ErrorKind::Interrupted, Some(sig)) => Error::interrupted(sig),
            _ => Error::io(format!("cannot read {}", self.shown), e),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.stream {
            return self.file.read(buf);
        }
        loop {
            self.wait()?;
            match self.file.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                other => return other,
            }
        }
    }
}

/// Discards the rest of an overlong line.
pub fn skip_line(reader: &mut impl io::BufRead) {
    loop {
        let (used, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            },
        };
        reader.consume(used);
        if done {
            return;
        }
    }
}

/// `16 MiB`, for messages.
pub fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// A whole-file input as text (`LIMIT` at most).
pub fn read_text(path: &Path, flag: &str) -> Result<String, Error> {
    open(path, flag)?.text(LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_and_a_directory_are_refused_and_a_large_file_too() {
        let e = read_text(Path::new("/dev/zero"), "--config").expect_err("a device");
        assert!(e.to_string().contains("is a device"), "{e}");
        let e = read_text(&std::env::temp_dir(), "--config").expect_err("a directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
        let path = std::env::temp_dir().join(format!("mcpguard-inputs-{}", std::process::id()));
        std::fs::write(&path, "x".repeat(2000)).expect("write");
        let e = open(&path, "--baseline")
            .expect("open")
            .text(1000)
            .expect_err("too large");
        assert!(e.to_string().contains("is larger than 1000 bytes"), "{e}");
        assert_eq!(read_text(&path, "--baseline").expect("read").len(), 2000);
        let _ = std::fs::remove_file(&path);
    }
}
