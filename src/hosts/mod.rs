//! Every MCP server configured on this machine, found in each host's
//! configuration files (Claude Desktop, Claude Code, Cursor, VS Code,
//! Windsurf, Cline, Gemini CLI, LM Studio, Zed, Codex CLI, Continue,
//! Goose), without starting anything. Reads files only (bounded, a file
//! that cannot be read or parsed is a row with its reason); independent of
//! the runtime engine, like the static scanner.

use std::io::Read;
use std::path::{Path, PathBuf};

pub mod entry;
pub mod jsonc;
pub mod places;
pub mod toml;
pub mod tree;
pub mod vars;
pub mod yaml;

pub use entry::Found;
use places::{HOSTS, Host, Place, Roots, Scope, Syntax};
use tree::Refusal;

/// The most of one config file read: `~/.claude.json` keeps history and
/// grows to megabytes; past this a file is a row that says so.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// A file that could not be read or parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub host: &'static str,
    pub scope: Scope,
    pub file: String,
    pub line: Option<u32>,
    pub reason: String,
}

/// What discovery found: the servers in report order, the files it could
/// not read, and how many config files it read.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    pub servers: Vec<Found>,
    pub unread: Vec<Unread>,
    pub files_read: usize,
}

/// The hosts `names` picks (all when empty); an unknown name is an error
/// that lists the known ones.
pub fn pick(names: &[String]) -> Result<Vec<&'static Host>, String> {
    if let Some(bad) = names
        .iter()
        .find(|n| !HOSTS.iter().any(|h| h.id == n.as_str()))
    {
        let known: Vec<&str> = HOSTS.iter().map(|h| h.id).collect();
        return Err(format!(
            "unknown host '{bad}' (known: {})",
            known.join(", ")
        ));
    }
    Ok(HOSTS
        .iter()
        .filter(|h| names.is_empty() || names.iter().any(|n| n == h.id))
        .collect())
}

/// Finds the servers of `hosts` under `roots`; `var` reads the
/// environment the hosts would expand variables from.
pub fn discover(
    hosts: &[&'static Host],
    roots: &Roots,
    var: &dyn Fn(&str) -> Option<String>,
) -> Discovery {
    let mut d = Discovery::default();
    let mut seen: Vec<(&str, PathBuf)> = Vec::new();
    let home = roots.home.as_ref().map(|h| h.display().to_string());
    for host in hosts {
        for place in host.places {
            for dir in roots.of(place.root) {
                for file in expand(&dir, place.path) {
                    let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
                    if seen.iter().any(|(h, f)| *h == host.id && *f == key) {
                        continue;
                    }
                    let workspace =
                        (place.scope == Scope::Project).then(|| dir.display().to_string());
                    let reading = entry::Reading {
                        host,
                        place,
                        file: &file,
                        var,
                        home: home.as_deref(),
                        workspace: workspace.as_deref(),
                    };
                    if read_one(&reading, &mut d) {
                        seen.push((host.id, key));
                    }
                }
            }
        }
    }
    mark_duplicates(&mut d.servers);
    d
}

/// Reads one file into `d`; false when it does not exist.
fn read_one(r: &entry::Reading, d: &mut Discovery) -> bool {
    let unread = |line, reason: String| Unread {
        host: r.host.id,
        scope: r.place.scope,
        file: r.file.display().to_string(),
        line,
        reason,
    };
    let text = match bounded_read(r.file) {
        Ok(Some(t)) => t,
        Ok(None) => return false,
        Err(reason) => {
            d.unread.push(unread(None, reason));
            return true;
        }
    };
    d.files_read += 1;
    match parse(&text, r.place) {
        Ok(root) => d.servers.extend(entry::servers(&root, r)),
        Err(refusal) => d.unread.push(unread(Some(refusal.line), refusal.reason)),
    }
    true
}

fn parse(text: &str, place: &Place) -> Result<tree::Node, Refusal> {
    match place.syntax {
        Syntax::Json => jsonc::read(text),
        Syntax::Toml => toml::read(text),
        Syntax::Yaml => yaml::read(text),
    }
}

/// The file's text: `None` when there is no such file; an error (as the
/// row's reason) for one that is not a regular file, too large, not UTF-8
/// or not readable (a symlink loop, permissions).
fn bounded_read(path: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling symlink is a problem worth a row; a missing file
            // is just not there.
            return match std::fs::symlink_metadata(path) {
                Ok(_) => Err("a symbolic link to nothing".into()),
                Err(_) => Ok(None),
            };
        }
        Err(e) => return Err(format!("cannot read: {e}")),
    };
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "larger than {} MiB: not read",
            MAX_FILE_BYTES >> 20
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "larger than {} MiB: not read",
            MAX_FILE_BYTES >> 20
        ));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "not UTF-8 text".into())
}

/// The files a place's path names under `dir`: itself, or with one `*`
/// segment every matching entry, sorted.
fn expand(dir: &Path, path: &str) -> Vec<PathBuf> {
    let Some((before, after)) = path.split_once('*') else {
        return vec![dir.join(path)];
    };
    let parent = dir.join(before.trim_end_matches('/'));
    let Ok(entries) = std::fs::read_dir(&parent) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    crate::order::sort(&mut names);
    match after.strip_prefix('/') {
        Some(rest) => names.iter().map(|n| parent.join(n).join(rest)).collect(),
        None => names
            .iter()
            .filter(|n| n.ends_with(after) && !n.starts_with('.'))
            .map(|n| parent.join(n))
            .collect(),
    }
}

/// Names each stdio launch seen before (same command, arguments, working
/// directory and environment) by its first entry.
fn mark_duplicates(servers: &mut [Found]) {
    for i in 1..servers.len() {
        let (before, rest) = servers.split_at_mut(i);
        let s = &mut rest[0];
        if s.command.is_none() || s.problem.is_some() {
            continue;
        }
        let same = before.iter().find(|o| {
            o.duplicate_of.is_none()
                && o.problem.is_none()
                && (&o.command, &o.args, &o.cwd, &o.env) == (&s.command, &s.args, &s.cwd, &s.env)
        });
        s.duplicate_of = same.map(|o| format!("{}:{}", o.host, o.name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_host_is_named_with_the_known_ones() {
        let e = pick(&["cursr".to_string()]).expect_err("unknown");
        assert!(e.contains("'cursr'") && e.contains("cursor"), "{e}");
        assert_eq!(pick(&[]).map(|h| h.len()), Ok(HOSTS.len()));
    }
}
