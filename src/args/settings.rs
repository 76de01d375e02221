//! The settings in force for one run: what the command line says, else what
//! the config file says, else what the profile presets, else the default.
//! `resolve` is that rule, one line per setting, and nothing else: no I/O,
//! no path resolution (that is `plan`).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::args::cli::{CheckArgs, Mode};
use crate::args::config::{ConfigFile, Request, ToolCall};
use crate::args::words::{ColorChoice, EnvSpec, Era, Probe, Profile};
use crate::error::Error;

/// The protocol version requested when none is given.
pub const DEFAULT_PROTOCOL: &str = "2025-11-25";

/// The output limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
}

/// Every setting of a check, tools or call run, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub mode: Mode,
    pub profile: Profile,
    /// The config file read, as it was (the report echoes what it set).
    pub config: Option<ConfigFile>,
    /// The server argv, program first; never empty.
    pub command: Vec<OsString>,
    /// The working directory as given (a config's is already absolute).
    pub cwd: Option<PathBuf>,
    /// The config file's variables first, then `--env` (which wins).
    pub env: Vec<EnvSpec>,
    pub inherit_env: bool,
    /// Only the `--env` variables: no allow-list.
    pub env_clear: bool,
    pub protocol: String,
    pub era: Era,
    pub era_window_ms: u64,
    pub timeout_ms: u64,
    pub startup_timeout_ms: u64,
    pub settle_ms: u64,
    pub shutdown_grace_ms: u64,
    pub limits: Limits,
    pub repeat: u64,
    /// `--request` (with `--params`): the first operation.
    pub request: Option<Request>,
    /// The config file's `request` and `requests`, after it.
    pub requests: Vec<Request>,
    pub safe_tool_calls: Vec<ToolCall>,
    pub capability_probes: bool,
    pub adversarial: Vec<Probe>,
    pub adversarial_tool_calls: Vec<ToolCall>,
    pub scan: Vec<PathBuf>,
    pub fail_on_static: bool,
    pub json: bool,
    pub color: ColorChoice,
    pub verbose: bool,
    pub evidence: Option<PathBuf>,
    pub against: Option<PathBuf>,
    pub transcript: Option<PathBuf>,
    pub junit: Option<PathBuf>,
    pub sarif: Option<PathBuf>,
    pub checks_json: Option<PathBuf>,
    /// GitHub workflow commands and the step summary.
    pub annotations: bool,
}

/// What a profile sets when neither the command line nor the config does.
#[derive(Debug, Clone, Default, PartialEq)]
struct Preset {
    repeat: Option<u64>,
    capability_probes: Option<bool>,
    json: Option<bool>,
    fail_on_static: Option<bool>,
    adversarial: Option<Vec<Probe>>,
    era: Option<Era>,
}

fn preset(profile: Profile) -> Preset {
    match profile {
        Profile::Custom => Preset::default(),
        Profile::Smoke => Preset {
            capability_probes: Some(false),
            ..Preset::default()
        },
        Profile::Registry => Preset {
            repeat: Some(2),
            ..Preset::default()
        },
        Profile::Ci => Preset {
            json: Some(true),
            fail_on_static: Some(true),
            ..Preset::default()
        },
        Profile::Strict => Preset {
            repeat: Some(2),
            json: Some(true),
            fail_on_static: Some(true),
            adversarial: Some(Probe::ALL.to_vec()),
            era: Some(Era::Both),
            ..Preset::default()
        },
    }
}

fn limits(cli: &CheckArgs, file: &ConfigFile) -> Limits {
    Limits {
        max_stdout_bytes: cli
            .max_stdout_bytes
            .or(file.max_stdout_bytes)
            .unwrap_or(1 << 20),
        max_stdout_line_bytes: cli
            .max_stdout_line_bytes
            .or(file.max_stdout_line_bytes)
            .unwrap_or(256 << 10),
        max_stderr_bytes: cli
            .max_stderr_bytes
            .or(file.max_stderr_bytes)
            .unwrap_or(1 << 20),
    }
}

/// The settings in force: the command line, then the config file, then the
/// profile, then the default.
pub fn resolve(cli: &CheckArgs, config: Option<ConfigFile>) -> Result<Settings, Error> {
    let file = config.clone().unwrap_or_default();
    let profile = cli.profile.or(file.profile).unwrap_or(Profile::Custom);
    let p = preset(profile);
    let timeout_ms = cli.timeout_ms.or(file.timeout_ms).unwrap_or(5000);
    let command = if cli.command.is_empty() {
        file.command.clone().ok_or_else(|| no_command(&file))?
    } else {
        cli.command.clone()
    };
    let mut env = file.env_specs();
    env.extend(cli.env.iter().cloned());
    let scan = if cli.scan.is_empty() {
        file.scan.clone()
    } else {
        cli.scan.iter().map(PathBuf::from).collect()
    };
    Ok(Settings {
        mode: cli.mode.clone(),
        profile,
        command,
        cwd: cli.cwd.as_ref().map(PathBuf::from).or(file.cwd.clone()),
        env,
        inherit_env: cli.inherit_env,
        env_clear: cli.env_clear,
        protocol: cli
            .protocol
            .clone()
            .or(file.protocol.clone())
            .unwrap_or_else(|| DEFAULT_PROTOCOL.into()),
        era: cli.era.or(file.era).or(p.era).unwrap_or_default(),
        era_window_ms: cli.era_window_ms.or(file.era_window_ms).unwrap_or(800),
        timeout_ms,
        startup_timeout_ms: cli.startup_timeout_ms.unwrap_or(timeout_ms),
        settle_ms: cli.settle_ms.unwrap_or(50),
        shutdown_grace_ms: cli.shutdown_grace_ms.unwrap_or(2000),
        limits: limits(cli, &file),
        repeat: cli.repeat.or(file.repeat).or(p.repeat).unwrap_or(1),
        request: cli.request.clone().map(|method| Request {
            method,
            params: cli.params.clone(),
        }),
        requests: file.requests.clone(),
        safe_tool_calls: file.safe_tool_calls.clone(),
        capability_probes: cli
            .capability_probes
            .or(p.capability_probes)
            .unwrap_or(true),
        adversarial: cli
            .adversarial
            .clone()
            .or(file.adversarial.clone())
            .or(p.adversarial)
            .unwrap_or_default(),
        adversarial_tool_calls: file.adversarial_tool_calls.clone(),
        scan,
        fail_on_static: cli
            .fail_on_static
            .or(file.fail_on_static)
            .or(p.fail_on_static)
            .unwrap_or(false),
        json: cli.json.or(file.json).or(p.json).unwrap_or(false),
        color: cli.color,
        verbose: cli.verbose,
        evidence: cli.evidence.as_ref().map(PathBuf::from),
        against: cli.against.as_ref().map(PathBuf::from),
        transcript: cli.transcript.as_ref().map(PathBuf::from),
        junit: cli.junit.as_ref().map(PathBuf::from),
        sarif: cli.sarif.as_ref().map(PathBuf::from),
        checks_json: cli.checks_json.as_ref().map(PathBuf::from),
        annotations: match cli.annotations.unwrap_or_default() {
            crate::args::words::Annotations::Github => true,
            crate::args::words::Annotations::None => false,
            crate::args::words::Annotations::Auto => {
                std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
            }
        },
        config,
    })
}

fn no_command(file: &ConfigFile) -> Error {
    Error::usage(
        format!(
            "config {} names no command, and none was given after --",
            file.path
        ),
        "add \"command\" to the config, or put the command after --",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(args: &[&str]) -> CheckArgs {
        let mut v = args.to_vec();
        v.extend(["--", "srv"]);
        match crate::args::cli::parse(v) {
            Ok(crate::args::cli::Command::Check(a)) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_match_the_documented_values() {
        let s = resolve(&cli(&[]), None).expect("settings");
        assert_eq!(s.protocol, "2025-11-25");
        assert_eq!((s.timeout_ms, s.startup_timeout_ms), (5000, 5000));
        assert_eq!(
            s.limits,
            Limits {
                max_stdout_bytes: 1_048_576,
                max_stdout_line_bytes: 262_144,
                max_stderr_bytes: 1_048_576
            }
        );
        assert_eq!((s.settle_ms, s.shutdown_grace_ms), (50, 2000));
        assert_eq!(s.repeat, 1);
        assert!(s.capability_probes && !s.json && !s.fail_on_static);
    }

    #[test]
    fn the_command_line_beats_the_config_which_beats_the_profile() {
        let file = ConfigFile {
            profile: Some(Profile::Strict),
            timeout_ms: Some(800),
            repeat: Some(3),
            env: vec![("A".into(), "file".into())],
            ..ConfigFile::default()
        };
        let s = resolve(
            &cli(&["--timeout", "900", "--env", "A=flag"]),
            Some(file.clone()),
        )
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
            &cli(&["--repeat", "1", "--adversarial-probes", "none"]),
            Some(file),
        )
        .expect("settings");
        assert_eq!(s.repeat, 1);
        assert!(s.adversarial.is_empty());
    }

    #[test]
    fn profiles_preset_what_was_not_given() {
        let s = resolve(&cli(&["--profile", "smoke"]), None).expect("smoke");
        assert!(!s.capability_probes);
        let s = resolve(&cli(&["--profile", "registry"]), None).expect("registry");
        assert_eq!(s.repeat, 2);
        let s = resolve(&cli(&["--profile", "ci", "--timeout", "700"]), None).expect("ci");
        assert!(s.json && s.fail_on_static);
        assert_eq!(s.startup_timeout_ms, 700);
    }
}
