//! The walk: every source file under a root, in a deterministic order
//! (entries sorted by name at each level), without following a symlink.
//! Directories that hold dependencies, build output or caches are skipped
//! by name, as are files over `MAX_FILE_BYTES`; what was skipped is counted.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::scan::Skipped;
use crate::scan::lex::Language;

/// Files larger than this are not read.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Directory names never entered.
pub const SKIP_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "dist",
    "build",
    "coverage",
    ".next",
    ".cache",
    "target",
    "venv",
    ".venv",
    "__pycache__",
    "vendor",
];

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub path: PathBuf,
    /// Relative to the root, `/`-separated.
    pub relative: String,
    /// The path as the user would type it: root joined with `relative`.
    pub display: String,
    pub language: Language,
}

#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<Entry>,
    pub skipped: Vec<Skipped>,
    pub skipped_dirs: usize,
}

/// Every source file under `root`, in walk order, with what was skipped.
pub fn walk(root: &Path) -> Result<Listing, Error> {
    let mut files = Vec::new();
    let mut listing = walk_with(root, &mut |entry| files.push(entry))?;
    listing.files = files;
    Ok(listing)
}

/// The walk, handing each file to `found` as soon as it is met (so the
/// scan can start on it while the walk goes on); the listing holds what
/// was skipped, its `files` empty.
pub fn walk_with(root: &Path, found: &mut dyn FnMut(Entry)) -> Result<Listing, Error> {
    let mut listing = Listing::default();
    // A root named by the user is followed even when it is a link; links
    // met during the walk are not.
    let meta = std::fs::metadata(root)
        .map_err(|e| Error::io(format!("cannot read {}", root.display()), e))?;
    if meta.is_file() {
        // A file named on the command line is scanned whatever its size
        // class; its language still comes from its extension.
        let name = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if let Some(language) = Language::of(root) {
            push_file(
                &mut listing,
                found,
                root.to_path_buf(),
                name,
                root.display().to_string(),
                language,
                meta.len(),
            );
        }
        return Ok(listing);
    }
    let mut stack = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        if crate::sys::pending_interrupt().is_some() {
            break;
        }
        let Ok(read) = std::fs::read_dir(&dir) else {
            listing.skipped.push(Skipped {
                file: rel,
                reason: "unreadable",
            });
            continue;
        };
        let mut entries: Vec<_> = read.flatten().collect();
        crate::order::sort_by_key(&mut entries, |e| e.file_name());
        let mut subdirs = Vec::new();
        for entry in entries {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if kind.is_dir() {
                if SKIP_DIRS.contains(&name.as_str()) {
                    listing.skipped_dirs += 1;
                } else {
                    subdirs.push((entry.path(), relative));
                }
            } else if kind.is_file()
                && let Some(language) = Language::of(Path::new(&name))
            {
                let size = entry.metadata().map_or(0, |m| m.len());
                let display = root.join(&relative).display().to_string();
                push_file(
                    &mut listing,
                    found,
                    entry.path(),
                    relative,
                    display,
                    language,
                    size,
                );
            }
        }
        // Depth first, in name order.
        stack.extend(subdirs.into_iter().rev());
    }
    Ok(listing)
}

fn push_file(
    listing: &mut Listing,
    found: &mut dyn FnMut(Entry),
    path: PathBuf,
    relative: String,
    display: String,
    language: Language,
    size: u64,
) {
    if size > MAX_FILE_BYTES {
        listing.skipped.push(Skipped {
            file: relative,
            reason: "too-large",
        });
        return;
    }
    found(Entry {
        path,
        relative,
        display,
        language,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_in_name_order_and_skips_dependency_dirs_and_symlinks() {
        let dir = std::env::temp_dir().join(format!("mcpguard-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["b", "a/node_modules/x", "a/z"] {
            std::fs::create_dir_all(dir.join(d)).expect("mkdir");
        }
        for f in [
            "b/2.py",
            "a/z/1.js",
            "a/0.ts",
            "a/node_modules/x/i.js",
            "a/notes.txt",
        ] {
            std::fs::write(dir.join(f), "x").expect("write");
        }
        std::fs::write(
            dir.join("big.rs"),
            vec![b' '; (MAX_FILE_BYTES + 1) as usize],
        )
        .expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("b"), dir.join("c")).expect("symlink");
        let listing = walk(&dir).expect("walk");
        let names: Vec<&str> = listing.files.iter().map(|e| e.relative.as_str()).collect();
        assert_eq!(names, ["a/0.ts", "a/z/1.js", "b/2.py"]);
        assert_eq!(listing.skipped_dirs, 1);
        assert_eq!(
            listing.skipped,
            [Skipped {
                file: "big.rs".into(),
                reason: "too-large"
            }]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
