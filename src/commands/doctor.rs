//! `doctor`: every enabled stdio server the hosts' configs name (`servers`),
//! each distinct launch checked once as its host would start it (command,
//! arguments, working directory, and its own environment entries on top
//! of the guard's allow-list), `--jobs` at a time through `batch`'s
//! machinery, under `--confine observe` where the kernel allows it. The
//! launches go to a private manifest (a 0700 directory, a 0600 file,
//! removed at the end): its environment values never reach an output.
//! Exit 1 when a checked server fails.

use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::args::settings::Settings;
use crate::commands::{batch, servers};
use crate::error::Error;
use crate::hosts::{Discovery, Found};
use crate::report;
use crate::sys;

/// The manifest entry name of each server `doctor` checks, in discovery
/// order (`None` for one it does not check).
fn entry_names(d: &Discovery) -> Vec<Option<String>> {
    let mut taken: Vec<String> = Vec::new();
    d.servers
        .iter()
        .map(|f| {
            report::servers::not_checked(f).is_none().then(|| {
                let base = format!("{}:{}", f.host, f.name);
                let mut name = base.clone();
                let mut n = 1;
                while taken.contains(&name) {
                    n += 1;
                    name = format!("{base}#{n}");
                }
                taken.push(name.clone());
                name
            })
        })
        .collect()
}

/// One launch as a manifest entry: a relative working directory is taken
/// from the config file's directory.
fn manifest_entry(f: &Found) -> Value {
    let mut entry = Map::new();
    entry.insert(
        "command".into(),
        f.command.clone().unwrap_or_default().into(),
    );
    entry.insert("args".into(), f.args.clone().into());
    if !f.env.is_empty() {
        let env: Map<String, Value> = f
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect();
        entry.insert("env".into(), Value::Object(env));
    }
    if let Some(cwd) = &f.cwd {
        let dir = servers::base_dir(f).join(cwd);
        entry.insert("cwd".into(), dir.display().to_string().into());
    }
    Value::Object(entry)
}

/// A private directory with the manifest in it, removed when dropped.
struct Private {
    dir: PathBuf,
    manifest: PathBuf,
    _temp: sys::custody::Temp,
}

impl Private {
    fn write(text: &str) -> Result<Private, Error> {
        let dir =
            std::env::temp_dir().join(format!(".mcp-stdio-guard-doctor-{}", std::process::id()));
        crate::plan::wrap::private_dir(&dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        let _temp = sys::custody::temp(&dir);
        let manifest = dir.join("servers.json");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options
            .open(&manifest)
            .map_err(|e| Error::io(format!("cannot create {}", manifest.display()), e))?;
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| Error::io(format!("cannot write {}", manifest.display()), e))?;
        Ok(Private {
            dir,
            manifest,
            _temp,
        })
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The options every check gets: `--confine observe` where the kernel can
/// observe and the user chose no confinement, then the user's.
fn check_args(user: &[OsString]) -> Vec<OsString> {
    let chose = user
        .iter()
        .any(|a| a.to_string_lossy().starts_with("--confine"));
    let mut args = Vec::new();
    if !chose && cfg!(target_os = "linux") && sys::confine::support().notify {
        args.extend(["--confine".into(), "observe".into()]);
    }
    args.extend(user.iter().cloned());
    args
}

/// Runs the doctor; returns the exit status.
pub fn run(s: &Settings) -> Result<u8, Error> {
    let found = servers::discover(s)?;
    let names = entry_names(&found);
    let mut manifest = Map::new();
    for (f, name) in found.servers.iter().zip(&names) {
        if let Some(name) = name {
            manifest.insert(name.clone(), manifest_entry(f));
        }
    }
    let doc = serde_json::json!({ "mcpServers": manifest });
    let private = Private::write(&doc.to_string())?;
    let mut settings = s.clone();
    settings.batch.check_args = check_args(&s.batch.check_args);
    let checked_names: Vec<String> = names.iter().flatten().cloned().collect();
    let mut checked = batch::check_all(&settings, &private.manifest, checked_names)?;
    let entry_of = |f: &Found| -> String {
        let at = found.servers.iter().position(|o| std::ptr::eq(o, f));
        at.and_then(|i| names[i].clone())
            .unwrap_or_else(|| format!("{}:{}", f.host, f.name))
    };
    let text = if s.json {
        report::servers::doctor_json(&found, &checked.rows, &entry_of)
    } else {
        report::servers::doctor_table(&found, &checked.rows, &entry_of)
    };
    batch::finish(&settings, &mut checked, &text)?;
    drop(private);
    Ok(u8::from(checked.rows.iter().any(|r| !r.ok)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_relative_working_directory_is_the_config_files() {
        let f = Found {
            host: "cursor",
            scope: crate::hosts::places::Scope::User,
            file: "/h/.cursor/mcp.json".into(),
            line: 3,
            name: "x".into(),
            transport: "stdio".into(),
            enabled: true,
            command: Some("node".into()),
            args: vec!["s.js".into()],
            env: vec![("K".into(), "v".into())],
            cwd: Some("srv".into()),
            url: None,
            needs: Vec::new(),
            duplicate_of: None,
            problem: None,
        };
        let e = manifest_entry(&f);
        assert_eq!(e["cwd"], Path::new("/h/.cursor/srv").display().to_string());
        assert_eq!(e["env"]["K"], "v");
    }
}
