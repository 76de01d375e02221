//! Paths made readable for reports and messages (`.` dropped and `a/..`
//! folded where that names the same file), and what kind of file a path
//! names where that differs by platform (FIFOs, devices, named pipes).

use std::path::{Component, Path, PathBuf};

/// A path made readable: `.` dropped and `a/..` folded where that names
/// the same file (`a` is not a symbolic link, whose `..` is elsewhere); a
/// `..` that would climb above the start is kept.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_))
                    if !std::fs::symlink_metadata(out.iter().collect::<PathBuf>())
                        .is_ok_and(|m| m.file_type().is_symlink()) =>
                {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// Whether a file type is a stream the guard must wait on (a FIFO or a
/// socket): Unix only, Windows has no such file type.
#[cfg(unix)]
pub fn is_stream(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_fifo() || kind.is_socket()
}

#[cfg(not(unix))]
pub fn is_stream(_kind: &std::fs::FileType) -> bool {
    false
}

/// Whether a file type is a character or block device (`/dev/null`).
#[cfg(unix)]
pub fn is_device(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_char_device() || kind.is_block_device()
}

#[cfg(not(unix))]
pub fn is_device(_kind: &std::fs::FileType) -> bool {
    false
}

/// Whether `path` names a Windows named pipe (`\\.\pipe\name`), which
/// is opened for writing as it is, like a FIFO.
pub fn is_named_pipe(path: &std::path::Path) -> bool {
    cfg!(windows)
        && path
            .to_str()
            .and_then(|p| p.get(..9).filter(|_| p.len() > 9))
            .is_some_and(|head| head.eq_ignore_ascii_case("\\\\.\\pipe\\"))
}

#[cfg(test)]
mod tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn config_relative_paths_are_shown_without_dot_segments() {
        assert_eq!(
            normalize(Path::new("cfg/../src_scan")),
            Path::new("src_scan")
        );
        assert_eq!(normalize(Path::new("/a/b/./c/../d")), Path::new("/a/b/d"));
        assert_eq!(normalize(Path::new("../x")), Path::new("../x"));
        assert_eq!(normalize(Path::new("/..")), Path::new("/"));
        assert_eq!(normalize(Path::new("a/..")), Path::new("."));
    }
}
