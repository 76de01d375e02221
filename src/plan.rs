//! From validated arguments to a run plan: the one place that consults the
//! filesystem and the guard's environment before anything is spawned. It
//! resolves `--cwd`, builds the server's environment from the allow-list and
//! `--env`, collects the secret values the report must never show, and fixes
//! every duration and limit.

use std::env;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::checks::Context;
use crate::child::Launch;
use crate::cli::{CheckArgs, ColorChoice, EnvSpec, Profile};
use crate::error::Error;
use crate::redact::{self, Redactor};
use crate::session::{Operation, Probe, SessionConfig};

/// Variables every server gets, when they are set: enough to find an
/// interpreter, a home, a temp dir, a locale and the certificate bundles
/// (file paths, not secrets; without them `npx`/`uvx` behind a corporate CA
/// fail in confusing ways). Proxy variables can carry credentials and pass
/// only when named with `--env`.
pub const BASE_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "TMPDIR",
    "TEMP",
    "TMP",
    "LANG",
    "LC_ALL",
    "TZ",
    "SystemRoot",
    "COMSPEC",
    "PATHEXT",
    #[cfg(windows)]
    "USERPROFILE",
    #[cfg(windows)]
    "APPDATA",
    #[cfg(windows)]
    "LOCALAPPDATA",
    #[cfg(windows)]
    "windir",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
];

/// What the server was handed, as a statement: names only, never values.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvironmentReport {
    /// `allow-list` or `inherit`.
    pub mode: &'static str,
    /// Every variable name the server received, sorted.
    pub names: Vec<String>,
    /// Names set with `--env NAME=VALUE`.
    pub set: Vec<String>,
    /// Names forwarded with `--env NAME`.
    pub forwarded: Vec<String>,
    /// Names forwarded with `--env NAME` that were not set here.
    pub missing: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub launch: Launch,
    pub session: SessionConfig,
    pub context: Context,
    pub json: bool,
    pub color: bool,
    /// The server argv as shown in reports: secret values redacted.
    pub shown_argv: Vec<String>,
    pub cwd_requested: Option<String>,
    pub environment: EnvironmentReport,
    /// Names given with `--env`, sorted (the fingerprint's `env.names`).
    pub explicit_env: Vec<String>,
    pub inherit_env: bool,
    pub redactor: Redactor,
    pub protocol: String,
    pub timeout_ms: u64,
    /// `--scan` roots (checked to exist).
    pub scan: Vec<PathBuf>,
    pub fail_on_static: bool,
    pub mode: crate::cli::Mode,
    /// Absolute paths of the record files.
    pub evidence: Option<PathBuf>,
    pub against: Option<PathBuf>,
    pub transcript: Option<PathBuf>,
    pub verbose: bool,
    pub profile: Profile,
    /// Fresh runs of the whole session.
    pub repeat: u32,
    pub extras: Extras,
    /// The fingerprint's `package` and `runtimes` (runtime versions only
    /// for the registry and strict profiles: they start processes).
    pub package: serde_json::Value,
    pub runtimes: serde_json::Value,
}

/// Whether to colour output written to stdout.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
        }
    }
}

/// What a config file adds beyond the command-line options.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    pub config: Option<crate::config::Config>,
    pub requests: Vec<crate::config::Request>,
    pub safe_tool_calls: Vec<crate::config::ToolCall>,
    pub adversarial_tool_calls: Vec<crate::config::ToolCall>,
}

/// The options in force: command-line flags first, then the config file,
/// then the profile's presets, then the defaults.
pub fn merge(args: &CheckArgs) -> Result<(CheckArgs, Extras), Error> {
    let mut a = args.clone();
    let set = |flag: &str| args.explicit.contains(&flag);
    let mut extras = Extras::default();
    let mut config_repeat = false;
    let mut config_adversarial = false;
    let mut config_fail_on_static = None;
    if let Some(path) = &args.config {
        let c = crate::config::load(path, args.server.as_deref())?;
        if a.command.is_empty() {
            a.command = c.command.clone().ok_or_else(|| {
                Error::usage(
                    format!(
                        "config {} names no command, and none was given after --",
                        c.path
                    ),
                    "add \"command\" to the config, or put the command after --",
                )
            })?;
        }
        if !set("--cwd")
            && let Some(cwd) = &c.cwd
        {
            a.cwd = Some(cwd.clone().into_os_string());
        }
        // The file's variables first: a --env for the same name wins.
        let mut env: Vec<EnvSpec> = c
            .env
            .iter()
            .map(|(k, v)| EnvSpec::Set(k.clone(), v.clone()))
            .collect();
        env.append(&mut a.env);
        a.env = env;
        if !set("--profile")
            && let Some(p) = c.profile
        {
            a.profile = p;
        }
        if !set("--protocol")
            && let Some(p) = &c.protocol
        {
            a.protocol = p.clone();
        }
        if !set("--timeout")
            && let Some(t) = c.timeout_ms
        {
            a.timeout_ms = t;
        }
        if !set("--repeat")
            && let Some(n) = c.repeat
        {
            a.repeat = n;
            config_repeat = true;
        }
        if let Some(true) = c.json {
            a.json = true;
        }
        if !set("--max-stdout-bytes")
            && let Some(n) = c.max_stdout_bytes
        {
            a.max_stdout_bytes = n;
        }
        if !set("--max-stdout-line-bytes")
            && let Some(n) = c.max_stdout_line_bytes
        {
            a.max_stdout_line_bytes = n;
        }
        if !set("--max-stderr-bytes")
            && let Some(n) = c.max_stderr_bytes
        {
            a.max_stderr_bytes = n;
        }
        if !set("--scan") && !c.scan.is_empty() {
            a.scan = c.scan.iter().map(|p| p.clone().into_os_string()).collect();
        }
        if !set("--fail-on-static")
            && let Some(f) = c.fail_on_static
        {
            a.fail_on_static = f;
            config_fail_on_static = Some(f);
        }
        if !set("--adversarial-probe")
            && !set("--adversarial-probes")
            && let Some(list) = &c.adversarial
        {
            a.adversarial = list.clone();
            config_adversarial = true;
        }
        extras.requests = c.requests.clone();
        extras.safe_tool_calls = c.safe_tool_calls.clone();
        extras.adversarial_tool_calls = c.adversarial_tool_calls.clone();
        extras.config = Some(c);
    }
    let repeat_open = !set("--repeat") && !config_repeat;
    let adversarial_open =
        !set("--adversarial-probe") && !set("--adversarial-probes") && !config_adversarial;
    let strictish = matches!(a.profile, Profile::Ci | Profile::Strict);
    match a.profile {
        Profile::Custom | Profile::Ci => {}
        Profile::Smoke => {
            if !set("--no-capability-probes") {
                a.capability_probes = false;
            }
        }
        Profile::Registry | Profile::Strict => {
            if repeat_open {
                a.repeat = 2;
            }
        }
    }
    if strictish {
        a.json = true;
        if !set("--fail-on-static") && config_fail_on_static.is_none() {
            a.fail_on_static = true;
        }
    }
    if a.profile == Profile::Strict && adversarial_open {
        a.adversarial = crate::cli::ADVERSARIAL_PROBES
            .iter()
            .map(|p| p.to_string())
            .collect();
    }
    Ok((a, extras))
}

pub fn resolve(args: &CheckArgs) -> Result<Plan, Error> {
    let (merged, extras) = merge(args)?;
    let args = &merged;
    let cwd = match &args.cwd {
        None => None,
        Some(dir) => {
            let path = Path::new(dir);
            let meta = std::fs::metadata(path)
                .map_err(|e| Error::io(format!("cannot use --cwd {}", path.display()), e))?;
            if !meta.is_dir() {
                return Err(Error::usage(
                    format!("cannot use --cwd {}: not a directory", path.display()),
                    "give the directory the server should run in",
                ));
            }
            Some(
                std::fs::canonicalize(path)
                    .map_err(|e| Error::io(format!("cannot use --cwd {}", path.display()), e))?,
            )
        }
    };
    let mut program = args.command[0].clone();
    // A relative path with a separator would be resolved against the child's
    // cwd; the user meant ours.
    if cwd.is_some() && is_relative_path(&program) {
        if let Ok(abs) = std::fs::canonicalize(&program) {
            program = abs.into_os_string();
        }
    }

    let (env_pairs, environment, secrets) = build_env(args);
    let argv: Vec<String> = args
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (shown_argv, argv_secrets) = redact::redact_argv(&argv);
    let redactor = Redactor::new(secrets.into_iter().chain(argv_secrets));
    let mut explicit_env: Vec<String> = args.env.iter().map(|e| e.name().to_string()).collect();
    explicit_env.sort();
    explicit_env.dedup();

    let mut operations: Vec<Operation> = args
        .request
        .iter()
        .map(|method| Operation {
            method: method.clone(),
            params: args.params.clone(),
            source: "cli-request",
            safe_tool_call: None,
        })
        .collect();
    operations.extend(extras.requests.iter().map(|r| Operation {
        method: r.method.clone(),
        params: r.params.clone(),
        source: "config-request",
        safe_tool_call: None,
    }));
    operations.extend(extras.safe_tool_calls.iter().map(|c| Operation {
        method: "tools/call".to_string(),
        params: Some(serde_json::json!({"name": c.name, "arguments": c.arguments})),
        source: "safe-tool-call",
        safe_tool_call: Some(c.name.clone()),
    }));
    let mut adversarial: Vec<Probe> = args
        .adversarial
        .iter()
        .map(|name| Probe::Builtin(name.clone()))
        .collect();
    adversarial.extend(
        extras
            .adversarial_tool_calls
            .iter()
            .map(|c| Probe::ToolCall {
                name: c.name.clone(),
                arguments: c.arguments.clone(),
            }),
    );
    let session = SessionConfig {
        protocol: args.protocol.clone(),
        startup_timeout: Duration::from_millis(args.startup_timeout_ms.unwrap_or(args.timeout_ms)),
        request_timeout: Duration::from_millis(args.timeout_ms),
        settle: Duration::from_millis(args.settle_ms),
        grace: Duration::from_millis(args.shutdown_grace_ms),
        max_stdout_bytes: args.max_stdout_bytes,
        max_stdout_line_bytes: args.max_stdout_line_bytes,
        max_stderr_bytes: args.max_stderr_bytes,
        operations,
        capability_probes: args.capability_probes && args.mode == crate::cli::Mode::Check,
        adversarial,
        force_tools_list: args.mode != crate::cli::Mode::Check,
        tool_call: match &args.mode {
            crate::cli::Mode::Call(spec) => Some(spec.clone()),
            _ => None,
        },
    };
    let context = Context {
        argv: argv.clone(),
        env: env_pairs
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect(),
        max_stdout_bytes: args.max_stdout_bytes,
        max_stdout_line_bytes: args.max_stdout_line_bytes,
        max_stderr_bytes: args.max_stderr_bytes,
        grace_ms: args.shutdown_grace_ms,
        protocol: args.protocol.clone(),
    };
    let base_dir = cwd
        .clone()
        .or_else(|| env::current_dir().ok())
        .unwrap_or_default();
    let package = crate::fingerprint::package(&argv, &base_dir);
    let runtimes = if matches!(args.profile, Profile::Registry | Profile::Strict) {
        crate::fingerprint::runtimes(&argv, &env_pairs)
    } else {
        serde_json::json!({})
    };
    let scan: Vec<PathBuf> = args.scan.iter().map(PathBuf::from).collect();
    crate::scan::validate_roots(&scan)?;
    let writable = |flag: &str, path: &Option<OsString>| -> Result<Option<PathBuf>, Error> {
        let Some(path) = path else { return Ok(None) };
        let abs = crate::evidence::absolute(std::path::Path::new(path));
        let dir_ok = abs.parent().is_some_and(std::path::Path::is_dir);
        if !dir_ok || abs.is_dir() {
            return Err(Error::usage(
                format!(
                    "{flag} {} cannot be written: its directory does not exist or it is a directory",
                    abs.display()
                ),
                "give a file path in an existing directory",
            ));
        }
        Ok(Some(abs))
    };
    let evidence = writable("--evidence", &args.evidence)?;
    let transcript = writable("--transcript", &args.transcript)?;
    let against = match &args.against {
        None => None,
        Some(path) => {
            let abs = crate::evidence::absolute(std::path::Path::new(path));
            if !abs.is_file() {
                return Err(Error::usage(
                    format!("--against {} is not a file", abs.display()),
                    "give an evidence file written by --evidence",
                ));
            }
            Some(abs)
        }
    };
    Ok(Plan {
        launch: Launch {
            program,
            args: args.command[1..].to_vec(),
            cwd,
            env: env_pairs,
        },
        session,
        context,
        json: args.json,
        color: use_color(args.color),
        shown_argv,
        cwd_requested: args.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
        environment,
        explicit_env,
        inherit_env: args.inherit_env,
        redactor,
        protocol: args.protocol.clone(),
        timeout_ms: args.timeout_ms,
        scan,
        fail_on_static: args.fail_on_static,
        mode: args.mode.clone(),
        evidence,
        against,
        transcript,
        verbose: args.verbose,
        profile: args.profile,
        repeat: args.repeat,
        extras,
        package,
        runtimes,
    })
}

fn is_relative_path(program: &OsString) -> bool {
    let p = Path::new(program);
    p.is_relative() && p.components().count() > 1
}

type EnvPairs = Vec<(OsString, OsString)>;

/// The server's environment, the report of it, and the values to scrub.
fn build_env(args: &CheckArgs) -> (EnvPairs, EnvironmentReport, Vec<String>) {
    let mut pairs: EnvPairs = Vec::new();
    let mut secrets = Vec::new();
    let upsert = |pairs: &mut EnvPairs, name: OsString, value: OsString| match pairs
        .iter_mut()
        .find(|(k, _)| *k == name)
    {
        Some(slot) => slot.1 = value,
        None => pairs.push((name, value)),
    };
    if args.inherit_env {
        for (name, value) in env::vars_os() {
            if redact::is_secret_name(&name.to_string_lossy()) {
                secrets.push(value.to_string_lossy().into_owned());
            }
            upsert(&mut pairs, name, value);
        }
    } else {
        for name in BASE_ENV {
            if let Some(value) = env::var_os(name) {
                upsert(&mut pairs, (*name).into(), value);
            }
        }
    }
    let mut set = Vec::new();
    let mut forwarded = Vec::new();
    let mut missing = Vec::new();
    for spec in &args.env {
        match spec {
            EnvSpec::Set(name, value) => {
                secrets.push(value.clone());
                set.push(name.clone());
                upsert(&mut pairs, name.into(), value.into());
            }
            EnvSpec::Forward(name) => {
                forwarded.push(name.clone());
                match env::var_os(name) {
                    Some(value) => {
                        secrets.push(value.to_string_lossy().into_owned());
                        upsert(&mut pairs, name.into(), value);
                    }
                    None => missing.push(name.clone()),
                }
            }
        }
    }
    let mut names: Vec<String> = pairs
        .iter()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    for list in [&mut names, &mut set, &mut forwarded, &mut missing] {
        list.sort();
        list.dedup();
    }
    let report = EnvironmentReport {
        mode: if args.inherit_env {
            "inherit"
        } else {
            "allow-list"
        },
        names,
        set,
        forwarded,
        missing,
    };
    (pairs, report, secrets)
}

/// The cwd the fingerprint reports: requested, resolved, exists.
pub fn cwd_report(plan: &Plan) -> (String, String, bool) {
    let resolved: Option<PathBuf> = match &plan.launch.cwd {
        Some(dir) => Some(dir.clone()),
        None => env::current_dir().ok(),
    };
    let resolved_text = resolved
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let requested = plan
        .cwd_requested
        .clone()
        .unwrap_or_else(|| resolved_text.clone());
    let exists = resolved.as_ref().is_some_and(|p| p.is_dir());
    (requested, resolved_text, exists)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> CheckArgs {
        let mut v: Vec<&str> = extra.to_vec();
        v.extend(["--", "server", "--token", "argv-canary-123"]);
        match crate::cli::parse(v) {
            Ok(crate::cli::Command::Check(a)) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_default_environment_is_the_allow_list_plus_named_variables() {
        let a = args(&[
            "--env",
            "MCP_GUARD_TEST_SET=env-canary-456",
            "--env",
            "MCP_GUARD_TEST_UNSET_X",
        ]);
        let plan = resolve(&a).expect("plan");
        let names: Vec<String> = plan
            .launch
            .env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        for name in &names {
            assert!(
                BASE_ENV.contains(&name.as_str()) || name == "MCP_GUARD_TEST_SET",
                "{name} leaked into the server environment"
            );
        }
        assert!(names.contains(&"MCP_GUARD_TEST_SET".to_string()));
        assert_eq!(plan.environment.mode, "allow-list");
        assert_eq!(plan.environment.set, ["MCP_GUARD_TEST_SET"]);
        assert_eq!(plan.environment.missing, ["MCP_GUARD_TEST_UNSET_X"]);
        assert_eq!(
            plan.explicit_env,
            ["MCP_GUARD_TEST_SET", "MCP_GUARD_TEST_UNSET_X"]
        );
        let scrubbed = plan.redactor.scrub("env-canary-456 argv-canary-123");
        assert_eq!(scrubbed, "<redacted> <redacted>");
        assert_eq!(plan.shown_argv, ["server", "--token", "<redacted>"]);
    }

    #[test]
    fn a_missing_cwd_is_an_error_before_anything_runs() {
        let a = args(&["--cwd", "/definitely/not/here"]);
        let err = resolve(&a).expect_err("must fail");
        assert!(
            err.to_string()
                .contains("cannot use --cwd /definitely/not/here")
        );
    }

    #[test]
    fn startup_timeout_defaults_to_the_request_timeout() {
        let plan = resolve(&args(&["--timeout", "700"])).expect("plan");
        assert_eq!(plan.session.startup_timeout, Duration::from_millis(700));
        let plan =
            resolve(&args(&["--timeout", "700", "--startup-timeout", "9000"])).expect("plan");
        assert_eq!(plan.session.startup_timeout, Duration::from_millis(9000));
        assert_eq!(plan.session.request_timeout, Duration::from_millis(700));
    }
}
