//! The guard's own failures: bad input, unreadable files, reports it cannot
//! write, and a signal that stopped it. A server's misbehaviour is never an
//! `Error`; it becomes an issue in the report. Every variant prints as one
//! user-facing line.

use std::fmt;
use std::io;

/// Everything that stops the guard before or outside of judging a server.
#[derive(Debug)]
pub enum Error {
    /// Bad command-line input: the problem and a hint on what to do instead.
    Usage { problem: String, hint: String },
    /// An I/O operation of the guard itself failed.
    Io { context: String, source: io::Error },
    /// A signal stopped the guard (the server's processes were ended and
    /// reaped first).
    Interrupted(i32),
}

impl Error {
    pub fn usage(problem: impl Into<String>, hint: impl Into<String>) -> Error {
        Error::Usage {
            problem: problem.into(),
            hint: hint.into(),
        }
    }

    pub fn io(context: impl Into<String>, source: io::Error) -> Error {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    pub fn interrupted(signal: i32) -> Error {
        Error::Interrupted(signal)
    }

    /// Exit status for this failure: 2, "nothing was judged", or 128+N for
    /// signal N.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Interrupted(sig) => u8::try_from(128 + sig).unwrap_or(128),
            _ => 2,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage { problem, hint } if hint.is_empty() => write!(f, "{problem}"),
            Error::Usage { problem, hint } => write!(f, "{problem} (hint: {hint})"),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
            Error::Interrupted(sig) => write!(
                f,
                "interrupted by {}; the server's process group was killed",
                crate::sys::signal_name(*sig)
            ),
        }
    }
}

impl std::error::Error for Error {}
