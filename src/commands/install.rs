//! `wrap --install HOST:NAME` and `--uninstall HOST:NAME`: one entry of a
//! host's JSON config rewritten to start its server through `wrap` (and
//! back), found by `servers`' discovery. Only the entry's `command` and
//! `args` values change; every other byte of the file (comments,
//! formatting, the other entries) stays as it was. The diff is shown, the
//! original is kept beside the file, the write is atomic (a temporary file
//! renamed over it, its mode kept), and it is refused when the entry is not
//! stdio, when the file is not JSON, or when the file changed since it was
//! read.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::args::settings::Settings;
use crate::commands::servers;
use crate::error::Error;
use crate::hosts::tree::{Node, Value};
use crate::hosts::{Found, jsonc};
use crate::plan::outputs::{Kind, Outputs, Wanted};

/// The suffix of the backup kept beside a rewritten config.
pub const BACKUP: &str = ".mcp-stdio-guard.bak";

fn usage(problem: String, hint: &str) -> Error {
    Error::usage(problem, hint)
}

/// The entry `HOST:NAME` names, found in its host's files.
fn entry(s: &Settings, spec: &str) -> Result<Found, Error> {
    let (host, name) = spec.split_once(':').ok_or_else(|| {
        usage(
            format!("'{spec}' is not HOST:NAME"),
            "as in: --install cursor:files (see 'mcp-stdio-guard servers')",
        )
    })?;
    let mut scoped = s.clone();
    scoped.batch.hosts = vec![host.to_string()];
    let found = servers::discover(&scoped)?;
    let names: Vec<&str> = found.servers.iter().map(|f| f.name.as_str()).collect();
    let f = found
        .servers
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| {
            usage(
                format!("{host} has no server named '{name}'"),
                &format!(
                    "its servers: {}",
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                ),
            )
        })?;
    if !f.file.ends_with(".json") {
        return Err(usage(
            format!(
                "{} is not JSON: --install rewrites JSON configs only",
                f.file
            ),
            "edit the entry by hand: command = mcp-stdio-guard, args = [\"wrap\", \"--\", <its command and args>]",
        ));
    }
    if f.transport != "stdio" || f.command.is_none() {
        return Err(usage(
            format!("{host}:{name} is not a stdio server ({})", f.transport),
            "only a server the host starts can be wrapped",
        ));
    }
    Ok(f.clone())
}

/// The text with `[start, end)` replaced.
fn splice(text: &str, (start, end): (usize, usize), with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

fn as_strings(node: Option<&Node>) -> Vec<String> {
    node.map(|n| {
        n.items()
            .iter()
            .filter_map(|a| a.as_str().map(String::from))
            .collect()
    })
    .unwrap_or_default()
}

/// The file's text with the entry's command and args rewritten: to run
/// through `wrap` (`install`), or back.
pub fn rewrite(
    text: &str,
    name: &str,
    line: u32,
    exe: &str,
    install: bool,
) -> Result<String, String> {
    let root = jsonc::read(text).map_err(|r| format!("line {}: {}", r.line, r.reason))?;
    let entry = root
        .find(name, line)
        .ok_or("the entry is no longer where it was")?;
    let command_node = entry.get("command").ok_or("the entry has no command")?;
    let command = command_node
        .as_str()
        .ok_or("the entry's command is not a string")?;
    let args = as_strings(entry.get("args"));
    let wrapped = Path::new(command)
        .file_stem()
        .is_some_and(|s| s.to_string_lossy().starts_with("mcp-stdio-guard"))
        && args.first().is_some_and(|a| a == "wrap");
    let (new_command, new_args) = if install {
        if wrapped {
            return Err("the entry already runs through wrap".into());
        }
        let mut a = vec![
            "wrap".to_string(),
            "--name".into(),
            name.to_string(),
            "--".into(),
            command.to_string(),
        ];
        a.extend(args);
        (exe.to_string(), a)
    } else {
        if !wrapped {
            return Err("the entry does not run through wrap".into());
        }
        let after = args
            .iter()
            .position(|a| a == "--")
            .ok_or("the wrapped entry has no --")?;
        let mut rest = args[after + 1..].to_vec();
        if rest.is_empty() {
            return Err("the wrapped entry names no server after --".into());
        }
        let command = rest.remove(0);
        (command, rest)
    };
    let command_json = Json::String(new_command).to_string();
    let args_json = Json::Array(new_args.into_iter().map(Json::String).collect())
        .to_string()
        .replace("\",\"", "\", \"");
    // The later span first, so the earlier one's offsets still hold.
    let mut edits: Vec<((usize, usize), String)> = vec![(command_node.span, command_json.clone())];
    match entry.get("args") {
        Some(a) if matches!(a.value, Value::List(_)) => edits.push((a.span, args_json)),
        Some(_) => return Err("the entry's args are not a list".into()),
        None => edits.push((
            (command_node.span.1, command_node.span.1),
            format!(", \"args\": {args_json}"),
        )),
    }
    crate::order::sort_by_key(&mut edits, |e| std::cmp::Reverse(e.0.0));
    Ok(edits
        .iter()
        .fold(text.to_string(), |t, (span, with)| splice(&t, *span, with)))
}

/// Writes `text` over `path` atomically, after keeping the original as
/// the backup; refused when the file changed since `before` was read.
fn replace(path: &Path, before: &[u8], text: &str) -> Result<PathBuf, Error> {
    let backup = PathBuf::from(format!("{}{BACKUP}", path.display()));
    std::fs::write(&backup, before)
        .map_err(|e| Error::io(format!("cannot back up {}", path.display()), e))?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&backup, meta.permissions());
    }
    write_over(path, before, text.as_bytes())?;
    Ok(backup)
}

/// Writes `bytes` over the file at `path` (a symbolic link's target)
/// atomically: a temporary file beside it, given its mode, renamed over
/// it. Refused when the file no longer holds `before`.
pub fn write_over(path: &Path, before: &[u8], bytes: &[u8]) -> Result<(), Error> {
    let io = |what: &str, e| Error::io(format!("{what} {}", path.display()), e);
    let path = &std::fs::canonicalize(path).map_err(|e| io("cannot read", e))?;
    let now = std::fs::read(path).map_err(|e| io("cannot read", e))?;
    if now != before {
        return Err(usage(
            format!("{} changed while it was being rewritten", path.display()),
            "run the command again",
        ));
    }
    let mode = std::fs::metadata(path)
        .map_err(|e| io("cannot read", e))?
        .permissions();
    let temp = PathBuf::from(format!(
        "{}.mcp-stdio-guard-{}.tmp",
        path.display(),
        std::process::id()
    ));
    std::fs::write(&temp, bytes).map_err(|e| io("cannot write beside", e))?;
    let _ = std::fs::set_permissions(&temp, mode);
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        io("cannot replace", e)
    })
}

/// `--install` (or `--uninstall`) of `HOST:NAME`; returns the exit status.
pub fn run(s: &Settings, spec: &str, install: bool) -> Result<u8, Error> {
    let f = entry(s, spec)?;
    let path = PathBuf::from(&f.file);
    let before =
        std::fs::read(&path).map_err(|e| Error::io(format!("cannot read {}", f.file), e))?;
    let text = String::from_utf8(before.clone())
        .map_err(|_| usage(format!("{} is not UTF-8", f.file), ""))?;
    let exe =
        std::env::current_exe().map_err(|e| Error::io("cannot find the guard's own path", e))?;
    let new =
        rewrite(&text, &f.name, f.line, &exe.display().to_string(), install).map_err(|why| {
            usage(
                format!("{spec} in {}: {why}", f.file),
                "see 'mcp-stdio-guard servers'",
            )
        })?;
    let backup = replace(&path, &before, &new)?;
    let mut outputs = Outputs::open(&[Wanted::new(Kind::Report, "-")], &[])?;
    let done = if install {
        "now runs through wrap"
    } else {
        "runs its server directly again"
    };
    let report = format!(
        "{}{spec} {done}; the original is kept as {}\n",
        String::from_utf8_lossy(&crate::report::diff::unified(
            &f.file,
            &f.file,
            text.as_bytes(),
            new.as_bytes()
        )),
        backup.display()
    );
    outputs.write(Kind::Report, report.as_bytes())?;
    outputs.commit()?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CURSOR: &str = "{\n  // my servers\n  \"mcpServers\": {\n    \"files\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"files-mcp\"]\n    },\n    \"other\": {\"command\": \"x\"}\n  }\n}\n";

    #[test]
    fn install_then_uninstall_changes_only_the_entry_and_comes_back() {
        let wrapped = rewrite(CURSOR, "files", 4, "/opt/mcp-stdio-guard", true).expect("install");
        assert!(
            wrapped.contains("\"command\": \"/opt/mcp-stdio-guard\""),
            "{wrapped}"
        );
        assert!(
            wrapped.contains(
                "[\"wrap\", \"--name\", \"files\", \"--\", \"npx\", \"-y\", \"files-mcp\"]"
            ),
            "{wrapped}"
        );
        assert!(
            wrapped.starts_with("{\n  // my servers\n")
                && wrapped.ends_with("\"other\": {\"command\": \"x\"}\n  }\n}\n")
        );
        let back = rewrite(&wrapped, "files", 4, "/opt/mcp-stdio-guard", false).expect("uninstall");
        assert_eq!(back, CURSOR);
        assert!(
            rewrite(&wrapped, "files", 4, "/opt/mcp-stdio-guard", true).is_err(),
            "twice"
        );
        let added = rewrite(CURSOR, "other", 8, "/g", true).expect("no args");
        assert!(
            added.contains(
                "{\"command\": \"/g\", \"args\": [\"wrap\", \"--name\", \"other\", \"--\", \"x\"]}"
            ),
            "{added}"
        );
    }
}
