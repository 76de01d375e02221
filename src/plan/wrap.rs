//! Where `wrap` keeps its session logs and what it calls a server: the
//! user's state directory (`$XDG_STATE_HOME`, else `~/.local/state`, on
//! Linux; `~/Library/Application Support` on macOS; `%LOCALAPPDATA%` on
//! Windows) under `mcp-stdio-guard/wrap/NAME/`, directories 0700 and files
//! 0600, the newest sessions kept. A host's working directory is often
//! `/`: nothing is written there.

use std::io;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Sessions kept per server; older logs are removed when one starts.
pub const SESSIONS_KEPT: usize = 20;
/// The most one session's log holds of messages; findings and the end are
/// written past it.
pub const LOG_BYTES: u64 = 8 << 20;

/// The root the `NAME/` directories are under.
pub fn root(given: Option<&Path>, var: &dyn Fn(&str) -> Option<String>) -> Result<PathBuf, Error> {
    if let Some(dir) = given {
        return Ok(dir.to_path_buf());
    }
    let path = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) {
        path("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        path("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        path("XDG_STATE_HOME").or_else(|| path("HOME").map(|h| h.join(".local/state")))
    };
    let base = base.ok_or_else(|| {
        Error::usage(
            "wrap finds no state directory (HOME, XDG_STATE_HOME or LOCALAPPDATA is unset)",
            "give one with --log-dir DIR",
        )
    })?;
    Ok(base.join("mcp-stdio-guard").join("wrap"))
}

/// Creates `dir` and its parents, the new ones 0700.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// A new file only this user can read (0600), failing if it exists.
pub fn private_file(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The session logs of a server directory, oldest first (their names
/// begin with the UTC time they started).
pub fn sessions(dir: &Path) -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect()
        })
        .unwrap_or_default();
    crate::order::sort(&mut logs);
    logs
}

/// Removes all but the newest `keep - 1` logs, making room for one more.
pub fn prune(dir: &Path, keep: usize) {
    let logs = sessions(dir);
    let extra = logs.len().saturating_sub(keep.saturating_sub(1));
    for old in &logs[..extra] {
        let _ = std::fs::remove_file(old);
    }
}

/// A session log's file name: the UTC start time (sortable) and the pid.
pub fn file_name(ms: u64, pid: u32) -> String {
    let stamp: String = crate::clock::rfc3339(ms)
        .chars()
        .take(23)
        .filter(|c| c.is_ascii_digit() || *c == 'T' || *c == '.')
        .collect();
    format!("{stamp}Z-{pid}.jsonl")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_directory_follows_the_platform_convention() {
        let var = |n: &str| match n {
            "HOME" => Some("/home/u".to_string()),
            _ => None,
        };
        let got = root(None, &var).expect("root");
        if cfg!(target_os = "linux") {
            assert_eq!(
                got,
                PathBuf::from("/home/u/.local/state/mcp-stdio-guard/wrap")
            );
        }
        assert_eq!(
            file_name(1_796_221_860_123, 42),
            "20261202T143100.123Z-42.jsonl"
        );
    }
}
