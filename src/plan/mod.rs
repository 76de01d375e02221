//! From settings to a run plan: the one place that consults the filesystem
//! and the guard's environment before anything is spawned. It loads the
//! config file, resolves `--cwd` and the record-file paths, builds the
//! server's environment from the allow-list and `--env`, collects the
//! secret values every output must scrub, and derives what the session
//! needs (`Launch`, `SessionConfig`) from the `Settings`, which it keeps
//! once for the report.

pub mod confine;
pub mod evidence;
pub mod inputs;
pub mod outputs;
pub mod paths;
pub mod wrap;

use std::env;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::args::baseline::AcceptList;
use crate::args::call::CallSpec;
use crate::args::cli::Args;
use crate::args::expected::ExpectedFailures;
use crate::args::settings::{Cmd, Limits, Request, Settings};
use crate::args::words::{Annotations, ColorChoice, EnvSpec, Era, Probe};
use crate::error::Error;
use crate::plan::outputs::{Kind, Wanted};
use crate::plan::paths::normalize;
use crate::redact::{self, Redactor, Secret};

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

/// How to start the server.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub cwd: Option<PathBuf>,
    /// The complete environment of the child; nothing else is inherited.
    pub env: Vec<(OsString, OsString)>,
    /// `--confine`: what the server may touch, and what is recorded.
    pub confine: Option<std::sync::Arc<confine::Policy>>,
    /// Unix: a pipe the child writes `pgid N` to before its exec (`wrap`'s
    /// watcher, which kills the group if the wrapper dies).
    pub announce: Option<i32>,
}

/// Where a request the guard sends comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpSource {
    /// `--request`.
    CliRequest,
    /// The config file's `request` / `requests`.
    ConfigRequest,
    /// The config file's `safeToolCalls`.
    SafeToolCall,
    /// The `call` command's tool call.
    CliCall,
    /// A page of a capability probe.
    CapabilityProbe,
    /// An adversarial probe's request.
    AdversarialProbe,
    /// A call of the robustness probe (`--robustness`).
    RobustnessCall,
}

impl OpSource {
    pub fn as_str(self) -> &'static str {
        match self {
            OpSource::CliRequest => "cli-request",
            OpSource::ConfigRequest => "config-request",
            OpSource::SafeToolCall => "safe-tool-call",
            OpSource::CliCall => "cli-call",
            OpSource::CapabilityProbe => "capability-probe",
            OpSource::AdversarialProbe => "adversarial-probe",
            OpSource::RobustnessCall => "robustness-call",
        }
    }
}

/// One post-initialize request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub method: String,
    pub params: Option<Value>,
    pub source: OpSource,
    /// The tool of a config `safeToolCalls` entry.
    pub safe_tool_call: Option<String>,
}

/// One adversarial probe: a built-in one, or a configured invalid-argument
/// tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum AdvProbe {
    Builtin(Probe),
    ToolCall { name: String, arguments: Value },
}

/// The method the invalid-method probe calls.
pub const INVALID_METHOD: &str = "mcp-stdio-guard/no-such-method";
/// The notification the notification probe sends: unknown, so ignored.
pub const PROBE_NOTIFICATION: &str = "notifications/mcp-stdio-guard/probe";
/// The id inside the malformed-JSON probe: a string, so it can never be
/// taken for one of the guard's numbered requests.
pub const MALFORMED_ID: &str = "mcp-stdio-guard-malformed";

impl AdvProbe {
    /// The probe's name in reports (`tool-call` for configured calls).
    pub fn name(&self) -> &'static str {
        match self {
            AdvProbe::Builtin(p) => p.as_str(),
            AdvProbe::ToolCall { .. } => "tool-call",
        }
    }

    /// The method it sends (`""` for the malformed line).
    pub fn method(&self) -> &'static str {
        match self {
            AdvProbe::Builtin(Probe::InvalidMethod) => INVALID_METHOD,
            AdvProbe::Builtin(Probe::InvalidParams) => "tools/list",
            AdvProbe::Builtin(Probe::Notification) => PROBE_NOTIFICATION,
            AdvProbe::Builtin(Probe::MalformedJson) => "",
            AdvProbe::Builtin(Probe::MissingMeta) => "tools/list",
            AdvProbe::Builtin(Probe::UnsupportedVersion) => "server/discover",
            AdvProbe::ToolCall { .. } => "tools/call",
        }
    }

    /// The params of a request probe; `None` for the notification and the
    /// malformed line, which are not requests.
    pub fn params(&self) -> Option<Value> {
        match self {
            AdvProbe::Builtin(Probe::InvalidMethod) => Some(crate::obj! {}),
            AdvProbe::Builtin(Probe::InvalidParams) => Some(crate::obj! {"cursor" => 5}),
            AdvProbe::Builtin(Probe::MissingMeta) => Some(crate::obj! {}),
            AdvProbe::Builtin(Probe::UnsupportedVersion) => {
                Some(crate::obj! {"_meta" => crate::mcp::envelope(crate::mcp::BOGUS_VERSION)})
            }
            AdvProbe::ToolCall { name, arguments } => {
                Some(crate::obj! {"name" => name, "arguments" => arguments})
            }
            AdvProbe::Builtin(_) => None,
        }
    }

    /// Whether the probe's params go out exactly as given, without the
    /// 2026-07-28 envelope the session adds to every other request.
    pub fn bare(&self) -> bool {
        matches!(
            self,
            AdvProbe::Builtin(Probe::MissingMeta | Probe::UnsupportedVersion)
        )
    }

    /// Whether it runs only in a 2026-07-28 session.
    pub fn modern_only(&self) -> bool {
        matches!(self, AdvProbe::Builtin(p) if p.modern_only())
    }

    /// The bytes of a probe that is not a request.
    pub fn raw_line(&self) -> Option<Vec<u8>> {
        match self {
            AdvProbe::Builtin(Probe::Notification) => {
                Some(crate::jsonrpc::notification(PROBE_NOTIFICATION))
            }
            // A request cut off mid-object.
            AdvProbe::Builtin(Probe::MalformedJson) => Some(
                format!("{{\"jsonrpc\": \"2.0\", \"id\": \"{MALFORMED_ID}\", \"method\": \"tools/list\"\n")
                    .into_bytes(),
            ),
            _ => None,
        }
    }
}

/// How a session opens (`--era`; `both` opens as `auto`, then judges the
/// other era the server claims on a fresh process).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// Probe with `server/discover`; a DiscoverResult (or a -32022 naming a
    /// 2026-07-28 version) means 2026-07-28, anything else `initialize`.
    Auto,
    /// The 2025 handshake: `initialize`, `notifications/initialized`.
    Legacy,
    /// 2026-07-28: `server/discover`, then `_meta` on every request.
    Modern,
    /// The unsupported-version probe's fresh process: one `server/discover`
    /// asking for a version no server supports, and nothing else.
    VersionProbe,
}

/// Everything the session needs to know, and nothing it does not.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    pub protocol: String,
    pub opening: Opening,
    /// How long `Auto` waits for the discover probe alone.
    pub era_window: Duration,
    pub startup_timeout: Duration,
    pub request_timeout: Duration,
    pub settle: Duration,
    pub grace: Duration,
    pub limits: Limits,
    pub operations: Vec<Operation>,
    /// Whether to list what `initialize` advertised (tools, resources,
    /// resource templates, prompts), following every cursor.
    pub capability_probes: bool,
    /// List the tools even when `initialize` did not advertise them (the
    /// `tools` and `call` commands).
    pub force_tools_list: bool,
    /// Call this tool once the tools are listed (the `call` command).
    pub tool_call: Option<CallSpec>,
    /// Adversarial probes, run last, in order.
    pub adversarial: Vec<AdvProbe>,
    /// No operation starts after this instant (the robustness budget):
    /// the rest are left unsent.
    pub deadline: Option<std::time::Instant>,
}

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

/// One run, ready to start.
#[derive(Debug, Clone)]
pub struct Plan {
    pub settings: Settings,
    pub launch: Launch,
    pub session: SessionConfig,
    /// Whether text output is coloured.
    pub color: bool,
    /// The server argv as shown in reports: secret values redacted.
    pub shown_argv: Vec<String>,
    pub environment: EnvironmentReport,
    /// Names given with `--env` (or the config's `env`), sorted.
    pub explicit_env: Vec<String>,
    pub redactor: Redactor,
    /// The directory the server runs in (for the fingerprint).
    pub base_dir: PathBuf,
    /// `--expected-failures`: the file as given, and its entries.
    pub expected: Option<(String, ExpectedFailures)>,
    /// `--baseline`: the file as given, and its accepted findings.
    pub accepted: Option<(String, AcceptList)>,
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

/// Reads the config file the command line names, if any.
pub fn config_of(a: &Args) -> Result<Option<crate::args::config::ConfigFile>, Error> {
    let path = a.last("config").map(|v| v.path()).transpose();
    let Some(path) = path.map_err(crate::args::cli::flag_error)? else {
        return Ok(None);
    };
    let server = a.last("server").map(|v| v.json());
    let server = server.as_ref().and_then(Value::as_str);
    let shown = path.display().to_string();
    let resolved = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
    let text = inputs::read_text(&resolved, "--config")?;
    crate::args::config::parse_text(&text, &shown, &resolved, server).map(Some)
}

/// Reads the config file (if any), resolves the settings, and checks every
/// path before anything starts.
pub fn resolve(a: &Args) -> Result<Plan, Error> {
    let config = config_of(a)?;
    from_settings(crate::args::resolve::resolve(a, config.as_ref())?)
}

/// Installs the guard's own secret-named variables as secrets every output
/// scrubs, for every command (a server may try to read them, and a config
/// may name them).
pub fn install_own_secrets() {
    let secrets = env::vars_os()
        .filter(|(name, _)| redact::is_secret_name(&name.to_string_lossy()))
        .map(|(_, value)| Secret::named(value.to_string_lossy().into_owned()));
    redact::install(&Redactor::new(secrets));
}

/// The plan for resolved settings.
pub fn from_settings(mut settings: Settings) -> Result<Plan, Error> {
    settings.cwd = settings.cwd.as_deref().map(normalize);
    settings.scan = settings.scan.iter().map(|p| normalize(p)).collect();
    let cwd = settings.cwd.as_deref().map(checked_cwd).transpose()?;
    if settings.inherit_env && settings.env_clear {
        return Err(Error::usage(
            "--inherit-env and --env-clear contradict each other",
            "keep one: --env-clear passes only the --env variables",
        ));
    }
    let base = if settings.env_clear {
        EnvBase::Clear
    } else if settings.inherit_env {
        EnvBase::Inherit
    } else {
        EnvBase::AllowList
    };
    let (env_pairs, environment, secrets) = build_env(&settings.env, base);
    let program = program_of(&settings.command[0], cwd.is_some(), &env_pairs);
    let argv: Vec<String> = settings
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (shown_argv, argv_secrets) = redact::redact_argv(&argv);
    let redactor = Redactor::new(secrets.into_iter().chain(argv_secrets));
    // Every output scrubs these from here on, whatever writes it.
    redact::install(&redactor);
    let mut explicit_env: Vec<String> = settings.env.iter().map(|e| e.name().to_string()).collect();
    crate::order::sort(&mut explicit_env);
    explicit_env.dedup();
    crate::scan::validate_roots(&settings.scan)?;
    let expected = match &settings.expected_failures {
        Some(path) => Some(expected_of(path)?),
        None => None,
    };
    let accepted = match &settings.baseline {
        Some(path) => Some(accepted_of(path)?),
        None => None,
    };
    settings.against = readable_against(settings.against.as_deref())?;
    let base_dir = cwd
        .clone()
        .or_else(|| env::current_dir().ok())
        .unwrap_or_default();
    let confined = confine::policy(
        &settings.confine,
        &program,
        &settings.command[1..],
        &env_pairs,
        &base_dir,
    )?;
    Ok(Plan {
        launch: Launch {
            program,
            args: settings.command[1..].to_vec(),
            cwd,
            env: env_pairs,
            confine: confined.map(std::sync::Arc::new),
            announce: None,
        },
        session: session_config(&settings),
        color: use_color(settings.color),
        shown_argv,
        environment,
        explicit_env,
        redactor,
        base_dir,
        expected,
        accepted,
        settings,
    })
}

/// Reads an accepted-findings baseline before anything starts.
fn accepted_of(path: &Path) -> Result<(String, AcceptList), Error> {
    let shown = path.display().to_string();
    let text = inputs::read_text(path, "--baseline")?;
    let list = crate::args::baseline::parse(&text).map_err(|why| {
        Error::usage(
            format!("--baseline {shown}: {why}"),
            "give a file written by --write-baseline",
        )
    })?;
    Ok((shown, list))
}

/// Reads an expected-failures baseline before anything starts.
fn expected_of(path: &Path) -> Result<(String, ExpectedFailures), Error> {
    let shown = path.display().to_string();
    let text = inputs::read_text(path, "--expected-failures")?;
    let parsed = crate::args::expected::parse(&text).map_err(|why| {
        Error::usage(
            format!("--expected-failures {shown}: {why}"),
            "the official conformance suite's form: server: [scenario, scenario:check-id]",
        )
    })?;
    Ok((shown, parsed))
}

fn checked_cwd(dir: &Path) -> Result<PathBuf, Error> {
    let meta = std::fs::metadata(dir)
        .map_err(|e| Error::io(format!("cannot use --cwd {}", dir.display()), e))?;
    if !meta.is_dir() {
        return Err(Error::usage(
            format!("cannot use --cwd {}: not a directory", dir.display()),
            "give the directory the server should run in",
        ));
    }
    std::fs::canonicalize(dir)
        .map_err(|e| Error::io(format!("cannot use --cwd {}", dir.display()), e))
}

/// Whether GitHub workflow commands and the step summary are written:
/// `--annotations github`, or `auto` on a GitHub runner.
pub fn annotates(s: &Settings) -> bool {
    match s.annotations {
        Annotations::Github => true,
        Annotations::None => false,
        Annotations::Auto => env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true"),
    }
}

/// Every output the settings name, in the order they are written: the
/// formats, the step summary (with the GitHub annotations, when the runner
/// gives one), then the report itself.
pub fn wanted_outputs(s: &Settings) -> Vec<Wanted> {
    let mut out = Vec::new();
    let files = [
        (Kind::Transcript, &s.transcript),
        (Kind::Evidence, &s.evidence),
    ];
    for (kind, path) in files {
        if let Some(p) = path {
            out.push(Wanted::new(kind, p.clone()));
        }
    }
    for (format, path) in &s.formats {
        out.push(Wanted::new(Kind::Format(*format), path.clone()));
    }
    if annotates(s)
        && let Some(summary) = env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty())
    {
        out.push(Wanted {
            kind: Kind::Summary,
            path: summary,
            label: Some("GITHUB_STEP_SUMMARY"),
        });
    }
    out.push(Wanted::new(Kind::Report, s.output.clone()));
    out
}

/// Every file the command reads: no output may be one of them.
pub fn inputs_of(s: &Settings) -> Vec<outputs::InputPath> {
    let single = [
        ("--config", &s.config_path),
        ("--baseline", &s.baseline),
        ("--expected-failures", &s.expected_failures),
        ("--against", &s.against),
        ("batch", &s.batch.manifest),
    ];
    let single = single
        .into_iter()
        .filter_map(|(flag, p)| p.as_ref().map(|p| (flag, p)));
    let many = s
        .scan
        .iter()
        .map(|p| ("--scan", p))
        .chain(s.batch.merge.iter().map(|p| ("--merge", p)));
    single
        .chain(many)
        .map(|(flag, path)| outputs::InputPath {
            flag,
            path: path.clone(),
        })
        .collect()
}

/// `--against`: a file that does not exist yet holds no earlier record
/// (the first run of `--evidence F --against F`); one that exists must be
/// readable as a file or a stream.
fn readable_against(path: Option<&Path>) -> Result<Option<PathBuf>, Error> {
    let Some(path) = path else { return Ok(None) };
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if abs.exists() {
        drop(inputs::open(&abs, "--against")?);
    }
    Ok(Some(abs))
}

/// What the session needs, derived from the settings (no I/O).
pub fn session_config(s: &Settings) -> SessionConfig {
    let request = |r: &Request, source| Operation {
        method: r.method.clone(),
        params: r.params.clone(),
        source,
        safe_tool_call: None,
    };
    let cli_request = s.request.as_ref().map(|method| Request {
        method: method.clone(),
        params: s.params.clone(),
    });
    let mut operations: Vec<Operation> = cli_request
        .iter()
        .map(|r| request(r, OpSource::CliRequest))
        .collect();
    operations.extend(
        s.requests
            .iter()
            .map(|r| request(r, OpSource::ConfigRequest)),
    );
    operations.extend(s.safe_tool_calls.iter().map(|c| Operation {
        method: "tools/call".to_string(),
        params: Some(crate::obj! {"name" => c.name, "arguments" => c.arguments}),
        source: OpSource::SafeToolCall,
        safe_tool_call: Some(c.name.clone()),
    }));
    let mut adversarial: Vec<AdvProbe> = s
        .adversarial
        .iter()
        .map(|p| AdvProbe::Builtin(*p))
        .collect();
    adversarial.extend(s.adversarial_tool_calls.iter().map(|c| AdvProbe::ToolCall {
        name: c.name.clone(),
        arguments: c.arguments.clone(),
    }));
    SessionConfig {
        protocol: s.protocol.clone(),
        opening: match s.era {
            // `both` opens as `auto` does; the other era the server claims
            // gets its own fresh process afterwards.
            Era::Auto | Era::Both => Opening::Auto,
            Era::Legacy => Opening::Legacy,
            Era::Modern => Opening::Modern,
        },
        era_window: Duration::from_millis(s.era_window_ms),
        startup_timeout: Duration::from_millis(s.startup_timeout_ms()),
        request_timeout: Duration::from_millis(s.timeout_ms),
        settle: Duration::from_millis(s.settle_ms),
        grace: Duration::from_millis(s.shutdown_grace_ms),
        limits: s.limits,
        operations,
        capability_probes: !s.no_capability_probes && s.cmd == Cmd::Check,
        force_tools_list: s.cmd != Cmd::Check,
        tool_call: (s.cmd == Cmd::Call).then(|| s.call.clone()),
        adversarial,
        deadline: None,
    }
}

/// The program to start. A relative path with a separator would be
/// resolved against the child's cwd (`--cwd`); the user meant ours. On
/// Windows a name without an extension is found through `PATHEXT` (`npx`
/// is `npx.cmd`, which std does not look for).
fn program_of(named: &OsString, own_cwd: bool, env: &[(OsString, OsString)]) -> OsString {
    if own_cwd
        && is_relative_path(named)
        && let Ok(abs) = std::fs::canonicalize(named)
    {
        return abs.into_os_string();
    }
    if cfg!(windows)
        && let Some(found) = crate::plan::paths::with_pathext(
            named,
            child_var(env, "PATH").as_deref(),
            child_var(env, "PATHEXT").as_deref(),
        )
    {
        return found.into_os_string();
    }
    named.clone()
}

/// A variable of the server's environment (names compared as Windows
/// does, ignoring case), else the guard's own.
fn child_var(env: &[(OsString, OsString)], name: &str) -> Option<OsString> {
    env.iter()
        .find(|(k, _)| k.to_str().is_some_and(|k| k.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v.clone())
        .or_else(|| env::var_os(name))
}

fn is_relative_path(program: &OsString) -> bool {
    let p = Path::new(program);
    p.is_relative() && p.components().count() > 1
}

type EnvPairs = Vec<(OsString, OsString)>;

/// The server's environment, the report of it, and the values to scrub:
/// every value handed to the server, and every secret-named variable of the
/// guard's own environment (a server can read its parent's environment).
/// What the server's environment starts from, before `--env`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EnvBase {
    /// The fixed allow-list (the default).
    AllowList,
    /// The guard's whole environment (`--inherit-env`).
    Inherit,
    /// Nothing (`--env-clear`).
    Clear,
}

fn build_env(specs: &[EnvSpec], base: EnvBase) -> (EnvPairs, EnvironmentReport, Vec<Secret>) {
    let mut pairs: EnvPairs = Vec::new();
    let mut secrets = Vec::new();
    let upsert = |pairs: &mut EnvPairs, name: OsString, value: OsString| match pairs
        .iter_mut()
        .find(|(k, _)| *k == name)
    {
        Some(slot) => slot.1 = value,
        None => pairs.push((name, value)),
    };
    for (name, value) in env::vars_os() {
        let name_text = name.to_string_lossy();
        if redact::is_secret_name(&name_text) {
            secrets.push(Secret::named(value.to_string_lossy().into_owned()));
        }
        let wanted = match base {
            EnvBase::Inherit => true,
            EnvBase::AllowList => BASE_ENV.contains(&name_text.as_ref()),
            EnvBase::Clear => false,
        };
        if wanted {
            upsert(&mut pairs, name, value);
        }
    }
    let mut set = Vec::new();
    let mut forwarded = Vec::new();
    let mut missing = Vec::new();
    for spec in specs {
        match spec {
            EnvSpec::Set(name, value) => {
                secrets.extend(Secret::of_variable(name, value));
                set.push(name.clone());
                upsert(&mut pairs, name.into(), value.into());
            }
            EnvSpec::Forward(name) => {
                forwarded.push(name.clone());
                match env::var_os(name) {
                    Some(value) => {
                        secrets.extend(Secret::of_variable(name, &value.to_string_lossy()));
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
        crate::order::sort(list);
        list.dedup();
    }
    let report = EnvironmentReport {
        mode: match base {
            EnvBase::Inherit => "inherit",
            EnvBase::AllowList => "allow-list",
            EnvBase::Clear => "clear",
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
        .settings
        .cwd
        .as_ref()
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_else(|| resolved_text.clone());
    let exists = resolved.as_ref().is_some_and(|p| p.is_dir());
    (requested, resolved_text, exists)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> Args {
        let mut v: Vec<&str> = extra.to_vec();
        v.extend(["--", "server", "--token", "argv-canary-123"]);
        match crate::args::cli::parse(v) {
            Ok(crate::args::cli::Command::Run(a)) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_default_environment_is_the_allow_list_plus_named_variables() {
        let a = args(&[
            "--env",
            "MCP_GUARD_TEST_SET=plain-setting-789",
            "--env",
            "MCP_GUARD_TEST_TOKEN=env-canary-456",
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
                BASE_ENV.contains(&name.as_str()) || name.starts_with("MCP_GUARD_TEST_"),
                "{name} leaked into the server environment"
            );
        }
        assert!(names.contains(&"MCP_GUARD_TEST_SET".to_string()));
        assert_eq!(plan.environment.mode, "allow-list");
        assert_eq!(
            plan.environment.set,
            ["MCP_GUARD_TEST_SET", "MCP_GUARD_TEST_TOKEN"]
        );
        assert_eq!(plan.environment.missing, ["MCP_GUARD_TEST_UNSET_X"]);
        assert_eq!(
            plan.explicit_env,
            [
                "MCP_GUARD_TEST_SET",
                "MCP_GUARD_TEST_TOKEN",
                "MCP_GUARD_TEST_UNSET_X"
            ]
        );
        // A secret-named value and an argv secret are scrubbed; a plain
        // setting is not.
        let scrubbed = plan
            .redactor
            .scrub("env-canary-456 argv-canary-123 plain-setting-789");
        assert_eq!(scrubbed, "<redacted> <redacted> plain-setting-789");
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

    #[test]
    fn the_request_flag_comes_first_then_the_config_requests() {
        let mut s =
            crate::args::resolve::resolve(&args(&["--request", "tools/list"]), None).expect("s");
        s.requests.push(Request {
            method: "prompts/list".into(),
            params: None,
        });
        let cfg = session_config(&s);
        let sources: Vec<&str> = cfg.operations.iter().map(|o| o.source.as_str()).collect();
        assert_eq!(sources, ["cli-request", "config-request"]);
    }
}
