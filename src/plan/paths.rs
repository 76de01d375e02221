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

/// Where Windows finds a program named without an extension: the first
/// `dir\name.ext` that is a file, for each directory of `path_var` (or
/// the program's own directory when it names one) and each extension of
/// `pathext` in order (`.COM;.EXE;.BAT;.CMD` when unset), so `npx` is
/// found as `npx.cmd`. `None` when the name has an extension or nothing
/// matches (std then searches as it does).
pub fn with_pathext(
    program: &std::ffi::OsStr,
    path_var: Option<&std::ffi::OsStr>,
    pathext: Option<&std::ffi::OsStr>,
) -> Option<PathBuf> {
    let named = Path::new(program);
    if named.extension().is_some() || program.is_empty() {
        return None;
    }
    let exts: Vec<String> = pathext
        .and_then(|p| p.to_str())
        .unwrap_or(".COM;.EXE;.BAT;.CMD")
        .split(';')
        .map(str::trim)
        .filter(|x| x.starts_with('.') && x.len() > 1)
        .map(str::to_string)
        .collect();
    let dirs: Vec<PathBuf> = if named.components().count() > 1 {
        vec![named.parent().map(Path::to_path_buf).unwrap_or_default()]
    } else {
        std::env::split_paths(path_var?).collect()
    };
    let name = named.file_name()?;
    dirs.iter().find_map(|dir| {
        exts.iter().find_map(|ext| {
            let mut file = name.to_os_string();
            file.push(ext);
            let candidate = dir.join(file);
            candidate.is_file().then_some(candidate)
        })
    })
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
        && path.to_str().is_some_and(|p| {
            p.len() > 9
                && p.get(..9)
                    .is_some_and(|head| head.eq_ignore_ascii_case("\\\\.\\pipe\\"))
        })
}

#[cfg(test)]
mod tests {
    use super::{normalize, with_pathext};
    use std::ffi::OsStr;
    use std::path::Path;

    #[test]
    fn a_program_without_extension_is_found_through_pathext_dir_by_dir() {
        let root = std::env::temp_dir().join(format!("mcpguard-pathext-{}", std::process::id()));
        let (a, b) = (root.join("a"), root.join("b"));
        std::fs::create_dir_all(&a).expect("dir a");
        std::fs::create_dir_all(&b).expect("dir b");
        std::fs::write(b.join("npx.cmd"), "").expect("npx.cmd");
        std::fs::write(b.join("npx.exe"), "").expect("npx.exe");
        // Upper case as PATHEXT spells it (Windows ignores case; this
        // file system does not).
        std::fs::write(a.join("npx.BAT"), "").expect("npx.BAT");
        let path = std::env::join_paths([&a, &b]).expect("PATH");
        let exts = OsStr::new(".exe;.cmd");
        // a holds only npx.BAT, which this PATHEXT does not name: b's .EXE wins
        // over its .CMD, in PATHEXT's order.
        let found = with_pathext(OsStr::new("npx"), Some(&path), Some(exts));
        assert_eq!(found, Some(b.join("npx.exe")));
        std::fs::remove_file(b.join("npx.exe")).expect("rm");
        let found = with_pathext(OsStr::new("npx"), Some(&path), Some(exts));
        assert_eq!(found, Some(b.join("npx.cmd")));
        // With the default PATHEXT, a comes first and .BAT is named.
        let found = with_pathext(OsStr::new("npx"), Some(&path), None);
        assert_eq!(found, Some(a.join("npx.BAT")));
        // A name with an extension, or nothing found: std searches.
        assert_eq!(with_pathext(OsStr::new("npx.cmd"), Some(&path), None), None);
        assert_eq!(with_pathext(OsStr::new("uvx"), Some(&path), None), None);
        // A path with a directory looks only there.
        let direct = b.join("npx");
        assert_eq!(
            with_pathext(direct.as_os_str(), None, Some(exts)),
            Some(b.join("npx.cmd"))
        );
        std::fs::remove_dir_all(&root).expect("cleanup");
    }

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
