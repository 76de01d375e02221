//! Paths made readable for reports and messages: `.` dropped and `a/..`
//! folded where that names the same file.

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
