//! The settings in force for one run, in one rule: the declared defaults,
//! then the profile's presets, then the config file, then the command
//! line, each applied to the same struct in that order; then the operands
//! (the tool of `call`, the paths of `scan`, the manifest of `batch`) and
//! the server's argv. No I/O.

use std::path::PathBuf;

use crate::args::cli::{Args, flag_error};
use crate::args::config::ConfigFile;
use crate::args::settings::{self, Cmd, Settings, apply_layer};
use crate::args::words::Profile;
use crate::error::Error;

/// The settings of a command line over a config file (already read).
pub fn resolve(a: &Args, config: Option<&ConfigFile>) -> Result<Settings, Error> {
    let mut s = Settings::defaults(a.cmd);
    let profile = match a.last("profile") {
        Some(v) => v.word::<Profile>().map_err(flag_error)?,
        None => config.and_then(|c| c.profile).unwrap_or_default(),
    };
    let fixed = |e: settings::Problem| {
        Error::usage(e.text, "a profile preset did not apply; please report this")
    };
    apply_layer(&mut s, &settings::preset_layer(profile)).map_err(fixed)?;
    if let Some(c) = config {
        apply_layer(&mut s, &c.values).map_err(|p| {
            Error::usage(
                format!("config {}: {}", c.source.path, p.text),
                "fix the config file; nothing was started",
            )
        })?;
        s.config = Some(c.source.clone());
    }
    apply_layer(&mut s, &a.flags).map_err(flag_error)?;
    operands(&mut s, a)?;
    if a.cmd.runs_a_session() && s.command.is_empty() {
        let path = config.map_or("", |c| c.source.path.as_str());
        return Err(Error::usage(
            format!("config {path} names no command, and none was given after --"),
            "add \"command\" to the config, or put the command after --",
        ));
    }
    Ok(s)
}

/// The operands and what followed `--`, by command.
fn operands(s: &mut Settings, a: &Args) -> Result<(), Error> {
    let text = |o: &std::ffi::OsString, what: &str| {
        o.clone()
            .into_string()
            .map_err(|_| Error::usage(format!("the {what} is not valid UTF-8"), ""))
    };
    match a.cmd {
        Cmd::Call => {
            if let Some(tool) = a.operands.first() {
                s.call.tool = text(tool, "tool name")?;
            }
        }
        Cmd::Scan | Cmd::Lint => {
            let paths = a.operands.iter().chain(&a.after).map(PathBuf::from);
            if a.cmd == Cmd::Scan {
                s.scan = paths.collect();
            } else {
                s.lint = paths.collect();
            }
            return Ok(());
        }
        Cmd::Doctor => {
            s.batch.check_args = a.after.clone();
            return Ok(());
        }
        Cmd::Log => {
            if let Some(o) = a.operands.first() {
                s.wrap.log = Some(text(o, "log name or file")?);
            }
            return Ok(());
        }
        Cmd::Batch => {
            if s.batch.merge.is_empty() {
                s.batch.manifest = a.operands.first().map(PathBuf::from);
            } else {
                s.batch.merge.extend(a.operands.iter().map(PathBuf::from));
            }
            s.batch.check_args = a.after.clone();
            return Ok(());
        }
        _ => {}
    }
    if !a.after.is_empty() {
        s.command = a.after.clone();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::cli::{Command, parse};
    use crate::args::words::{EnvSpec, Probe};

    fn args(v: &[&str]) -> Args {
        let mut v = v.to_vec();
        v.extend(["--", "srv"]);
        match parse(v) {
            Ok(Command::Run(a)) => *a,
            other => panic!("{other:?}"),
        }
    }

    fn config(text: &str) -> ConfigFile {
        crate::args::config::parse_text(text, "c.json", std::path::Path::new("/c.json"), None)
            .expect("config")
    }

    #[test]
    fn the_command_line_beats_the_config_which_beats_the_profile() {
        let file =
            config(r#"{"profile": "strict", "timeoutMs": 800, "repeat": 3, "env": {"A": "file"}}"#);
        let s = resolve(&args(&["--timeout", "900", "--env", "A=flag"]), Some(&file))
            .expect("settings");
        assert_eq!(s.profile, Profile::Strict);
        assert_eq!(s.timeout_ms, 900);
        assert_eq!(s.repeat, 3);
        assert_eq!(s.adversarial, Probe::ALL);
        assert!(s.json && s.fail_on_static);
        // The file's variable comes first; the flag's later entry wins.
        assert_eq!(
            s.env,
            [
                EnvSpec::Set("A".into(), "file".into()),
                EnvSpec::Set("A".into(), "flag".into())
            ]
        );
        let s = resolve(
            &args(&["--repeat", "1", "--adversarial-probes", "none"]),
            Some(&file),
        )
        .expect("settings");
        assert_eq!(s.repeat, 1);
        assert!(s.adversarial.is_empty());
    }

    #[test]
    fn profiles_preset_what_was_not_given() {
        let s = resolve(&args(&["--profile", "smoke"]), None).expect("smoke");
        assert!(s.no_capability_probes);
        let s = resolve(&args(&["--profile", "registry"]), None).expect("registry");
        assert_eq!(s.repeat, 2);
        let s = resolve(&args(&["--profile", "ci", "--timeout", "700"]), None).expect("ci");
        assert!(s.json && s.fail_on_static);
        assert_eq!(s.startup_timeout_ms(), 700);
    }

    #[test]
    fn a_config_scan_is_replaced_by_the_flags_and_the_command_line_names_the_server() {
        let file = config(r#"{"scan": ["a", "b"], "command": ["node", "x.js"]}"#);
        let s = resolve(&args(&[]), Some(&file)).expect("settings");
        assert_eq!(s.scan.len(), 2);
        assert_eq!(s.command, ["srv"]);
        let s = resolve(&args(&["--scan", "c"]), Some(&file)).expect("settings");
        assert_eq!(s.scan, [PathBuf::from("c")]);
    }
}
