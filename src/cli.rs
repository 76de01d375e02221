//! Command-line parsing: argv in, plain validated data out. No I/O happens
//! here (the filesystem and the environment are consulted later, in `plan`),
//! so every rule is unit-testable with `parse(["..."])`.
//!
//! Everything after the first literal `--` is the server's argv, verbatim: the
//! guard never splits a command string and never guesses whose flag a flag is.

use std::ffi::OsString;

use lexopt::prelude::*;
use serde_json::Value;

use crate::error::Error;

/// Default MCP protocol version sent in `initialize`.
pub const DEFAULT_PROTOCOL: &str = "2025-11-25";
/// Smallest accepted `--timeout` / `--startup-timeout`, in milliseconds.
pub const MIN_TIMEOUT_MS: u64 = 100;

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Check(Box<CheckArgs>),
    /// `scan PATH...`: the static scanner alone, no server.
    Scan(ScanArgs),
    Demo(DemoArgs),
    Help(HelpTopic),
    Version,
    /// Hidden: run one of the built-in demo servers on this process's stdio.
    Serve(DemoServer),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpTopic {
    Main,
    Check,
    Demo,
    Scan,
    Tools,
    Call,
    /// `help codes`: every issue code with its class and severity.
    Codes,
}

/// Options of `scan`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanArgs {
    pub json: bool,
    pub paths: Vec<OsString>,
    pub color: ColorChoice,
}

/// The built-in servers `demo` runs (and the overhead benchmark reuses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoServer {
    /// A well-behaved server: initialize, tools/list, ping, exit on EOF.
    Clean,
    /// The same server, but it prints a banner on stdout before speaking.
    Banner,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// One `--env` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvSpec {
    /// `--env NAME`: forward NAME from the guard's environment.
    Forward(String),
    /// `--env NAME=VALUE`: set NAME to VALUE in the server's environment.
    Set(String, String),
}

impl EnvSpec {
    pub fn name(&self) -> &str {
        match self {
            EnvSpec::Forward(name) | EnvSpec::Set(name, _) => name,
        }
    }
}

/// What a session is for: a full check, a tool listing, or one tool call.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Mode {
    #[default]
    Check,
    /// `tools`: every page of tools/list, shown as a table or as JSON.
    Tools,
    /// `call TOOL`: list the tools, then call one.
    Call(CallSpec),
}

/// The tool `call` calls and the arguments as given.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSpec {
    pub tool: String,
    /// `--arg NAME=VALUE`, in order; typed later from the tool's schema.
    pub args: Vec<(String, String)>,
    /// `--args JSON`: an object merged under the `--arg` values.
    pub args_json: Option<serde_json::Map<String, Value>>,
}

/// The deterministic presets of the 1.0 tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// The flags as given (the default).
    #[default]
    Custom,
    /// Initialize only (and --request): no capability probes.
    Smoke,
    /// Capability probes and two runs for cold/warm consistency.
    Registry,
    /// JSON output; static findings fail when --scan is used.
    Ci,
    /// ci + registry + every built-in adversarial probe.
    Strict,
}

impl Profile {
    pub const NAMES: [&'static str; 5] = ["custom", "smoke", "registry", "ci", "strict"];

    pub fn parse(name: &str) -> Option<Profile> {
        Some(match name {
            "custom" => Profile::Custom,
            "smoke" => Profile::Smoke,
            "registry" => Profile::Registry,
            "ci" => Profile::Ci,
            "strict" => Profile::Strict,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Profile::NAMES[self as usize]
    }
}

/// The built-in adversarial probes, in the order they run.
pub const ADVERSARIAL_PROBES: [&str; 4] = [
    "invalid-method",
    "invalid-params",
    "notification",
    "malformed-json",
];

/// Options of `check`, `tools` and `call`, validated but not yet resolved
/// against the system.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckArgs {
    pub mode: Mode,
    /// Flags given on the command line (`--timeout`, ...): they override
    /// the config file and the profile.
    pub explicit: Vec<&'static str>,
    pub profile: Profile,
    /// `--config FILE`.
    pub config: Option<OsString>,
    /// `--server NAME`: the entry of a client config (`mcpServers`).
    pub server: Option<String>,
    /// Fresh runs of the whole check.
    pub repeat: u32,
    /// Built-in adversarial probes to run, by name, in order.
    pub adversarial: Vec<String>,
    /// `--evidence FILE`: append one record per run.
    pub evidence: Option<OsString>,
    /// `--against FILE`: compare with the newest record for this command.
    pub against: Option<OsString>,
    /// `--transcript FILE`: every message and stderr line, as JSON lines.
    pub transcript: Option<OsString>,
    /// Show every check, skipped ones with their reason, in the text report.
    pub verbose: bool,
    pub json: bool,
    pub protocol: String,
    pub timeout_ms: u64,
    pub startup_timeout_ms: Option<u64>,
    pub request: Option<String>,
    pub params: Option<Value>,
    pub cwd: Option<OsString>,
    pub env: Vec<EnvSpec>,
    pub inherit_env: bool,
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
    pub settle_ms: u64,
    pub shutdown_grace_ms: u64,
    /// List what initialize advertised (on unless --no-capability-probes).
    pub capability_probes: bool,
    /// `--scan` paths, scanned before the server starts.
    pub scan: Vec<OsString>,
    /// Static findings are errors, not warnings.
    pub fail_on_static: bool,
    pub color: ColorChoice,
    /// The server argv: program first. Never empty after parsing.
    pub command: Vec<OsString>,
}

impl Default for CheckArgs {
    fn default() -> Self {
        CheckArgs {
            mode: Mode::Check,
            explicit: Vec::new(),
            profile: Profile::Custom,
            config: None,
            server: None,
            repeat: 1,
            adversarial: Vec::new(),
            evidence: None,
            against: None,
            transcript: None,
            verbose: false,
            json: false,
            protocol: DEFAULT_PROTOCOL.to_string(),
            timeout_ms: 5000,
            startup_timeout_ms: None,
            request: None,
            params: None,
            cwd: None,
            env: Vec::new(),
            inherit_env: false,
            max_stdout_bytes: 1_048_576,
            max_stdout_line_bytes: 262_144,
            max_stderr_bytes: 1_048_576,
            settle_ms: 50,
            shutdown_grace_ms: 2000,
            capability_probes: true,
            scan: Vec::new(),
            fail_on_static: false,
            color: ColorChoice::Auto,
            command: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoArgs {
    pub color: ColorChoice,
}

const HELP_HINT: &str = "run 'mcp-stdio-guard --help' for the options";

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, Error>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let command = match args.iter().position(|a| a == "--") {
        Some(at) => {
            let rest = args.split_off(at + 1);
            args.pop();
            Some(rest)
        }
        None => None,
    };
    let sub = args.first().and_then(|a| a.to_str()).and_then(|a| match a {
        "check" | "tools" | "call" | "scan" | "demo" | "help" | "__serve" => Some(a.to_string()),
        _ => None,
    });
    if sub.is_some() {
        args.remove(0);
    }
    match sub.as_deref() {
        None | Some("check") => parse_check(args, command, Mode::Check),
        Some("tools") => parse_check(args, command, Mode::Tools),
        Some("call") => parse_check(
            args,
            command,
            Mode::Call(CallSpec {
                tool: String::new(),
                args: Vec::new(),
                args_json: None,
            }),
        ),
        Some("demo") => parse_demo(args, command),
        Some("scan") => parse_scan(args, command),
        Some("help") => Ok(Command::Help(match args.first().and_then(|a| a.to_str()) {
            Some("check") => HelpTopic::Check,
            Some("demo") => HelpTopic::Demo,
            Some("scan") => HelpTopic::Scan,
            Some("tools") => HelpTopic::Tools,
            Some("call") => HelpTopic::Call,
            Some("codes") => HelpTopic::Codes,
            _ => HelpTopic::Main,
        })),
        Some(_) => parse_serve(args),
    }
}

fn parse_check(
    args: Vec<OsString>,
    command: Option<Vec<OsString>>,
    mode: Mode,
) -> Result<Command, Error> {
    let help = match &mode {
        Mode::Check => HelpTopic::Check,
        Mode::Tools => HelpTopic::Tools,
        Mode::Call(_) => HelpTopic::Call,
    };
    let mut a = CheckArgs {
        mode,
        ..CheckArgs::default()
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        if let Long(name) = &arg
            && let Some(flag) = CHECK_FLAGS.iter().find(|f| f[2..] == **name)
            && !a.explicit.contains(flag)
        {
            a.explicit.push(flag);
        }
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help(help)),
            Long("profile") => {
                let name = string(&mut parser, "--profile")?;
                a.profile = Profile::parse(&name).ok_or_else(|| {
                    Error::usage(
                        format!("unknown profile '{name}'"),
                        format!("profiles: {}", Profile::NAMES.join(", ")),
                    )
                })?;
            }
            Long("config") => a.config = Some(string(&mut parser, "--config")?.into()),
            Long("server") => a.server = Some(string(&mut parser, "--server")?),
            Long("repeat") => {
                let n = number(&mut parser, "--repeat", 1)?;
                a.repeat = u32::try_from(n.min(100)).unwrap_or(100);
            }
            Long("adversarial-probe") => {
                let name = string(&mut parser, "--adversarial-probe")?;
                let probes = probe_list(&name, "--adversarial-probe")?;
                for p in probes {
                    if !a.adversarial.contains(&p) {
                        a.adversarial.push(p);
                    }
                }
            }
            Long("adversarial-probes") => {
                let list = string(&mut parser, "--adversarial-probes")?;
                a.adversarial = probe_list(&list, "--adversarial-probes")?;
            }
            Long("evidence") => a.evidence = Some(string(&mut parser, "--evidence")?.into()),
            Long("against") => a.against = Some(string(&mut parser, "--against")?.into()),
            Long("transcript") => a.transcript = Some(string(&mut parser, "--transcript")?.into()),
            Long("verbose") => a.verbose = true,
            Long("arg") => {
                let value = string(&mut parser, "--arg")?;
                let Mode::Call(spec) = &mut a.mode else {
                    return Err(Error::usage(
                        "--arg belongs to the call command",
                        "as in: mcp-stdio-guard call echo --arg text=hi -- node server.js",
                    ));
                };
                let Some((name, v)) = value.split_once('=').filter(|(n, _)| !n.is_empty()) else {
                    return Err(Error::usage(
                        format!("--arg must be NAME=VALUE, not '{value}'"),
                        "as in: --arg text=hello",
                    ));
                };
                spec.args.push((name.to_string(), v.to_string()));
            }
            Long("args") => {
                let text = string(&mut parser, "--args")?;
                let Mode::Call(spec) = &mut a.mode else {
                    return Err(Error::usage(
                        "--args belongs to the call command",
                        "as in: mcp-stdio-guard call echo --args '{\"text\":\"hi\"}' -- node server.js",
                    ));
                };
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(map)) => spec.args_json = Some(map),
                    Ok(_) => {
                        return Err(Error::usage(
                            "--args must be a JSON object",
                            "tool arguments are named: '{\"text\":\"hi\"}'",
                        ));
                    }
                    Err(e) => {
                        return Err(Error::usage(
                            format!("--args must be valid JSON: {e}"),
                            "quote it for your shell",
                        ));
                    }
                }
            }
            Short('V') | Long("version") => return Ok(Command::Version),
            Long("json") => a.json = true,
            Long("inherit-env") => a.inherit_env = true,
            Long("no-capability-probes") => a.capability_probes = false,
            Long("scan") => a.scan.push(string(&mut parser, "--scan")?.into()),
            Long("fail-on-static") => a.fail_on_static = true,
            Long("protocol") => a.protocol = protocol_value(&mut parser)?,
            Long("timeout") => a.timeout_ms = number(&mut parser, "--timeout", MIN_TIMEOUT_MS)?,
            Long("startup-timeout") => {
                a.startup_timeout_ms =
                    Some(number(&mut parser, "--startup-timeout", MIN_TIMEOUT_MS)?)
            }
            Long("request") => a.request = Some(request_value(&mut parser)?),
            Long("params") => a.params = Some(params_value(&mut parser)?),
            Long("cwd") => a.cwd = Some(string(&mut parser, "--cwd")?.into()),
            Long("env") => a.env.push(env_value(&mut parser)?),
            Long("max-stdout-bytes") => {
                a.max_stdout_bytes = number(&mut parser, "--max-stdout-bytes", 1)?
            }
            Long("max-stdout-line-bytes") => {
                a.max_stdout_line_bytes = number(&mut parser, "--max-stdout-line-bytes", 1)?
            }
            Long("max-stderr-bytes") => {
                a.max_stderr_bytes = number(&mut parser, "--max-stderr-bytes", 1)?
            }
            Long("settle") => a.settle_ms = number(&mut parser, "--settle", 0)?,
            Long("shutdown-grace") => {
                a.shutdown_grace_ms = number(&mut parser, "--shutdown-grace", 0)?
            }
            Long("color") => a.color = color_value(&mut parser)?,
            Value(v) => match &mut a.mode {
                Mode::Call(spec) if spec.tool.is_empty() => {
                    spec.tool = v
                        .into_string()
                        .map_err(|_| Error::usage("the tool name is not valid UTF-8", HELP_HINT))?;
                }
                _ => {
                    return Err(Error::usage(
                        format!("unexpected argument '{}'", v.to_string_lossy()),
                        "put the server command after --, as in: mcp-stdio-guard -- node server.js",
                    ));
                }
            },
            other => return Err(unknown_option(other)),
        }
    }
    if let Mode::Call(spec) = &a.mode
        && spec.tool.is_empty()
    {
        return Err(Error::usage(
            "call needs the name of the tool to call",
            "as in: mcp-stdio-guard call echo --arg text=hi -- node server.js",
        ));
    }
    if a.params.is_some() && a.request.is_none() {
        return Err(Error::usage(
            "--params can only be used with --request",
            "add --request METHOD, for example --request tools/list",
        ));
    }
    if a.server.is_some() && a.config.is_none() {
        return Err(Error::usage(
            "--server picks an entry of a --config file",
            "as in: mcp-stdio-guard --config claude_desktop_config.json --server weather",
        ));
    }
    match command {
        Some(cmd) if !cmd.is_empty() => a.command = cmd,
        // The config file may name the command.
        _ if a.config.is_some() => {}
        _ => {
            return Err(Error::usage(
                "missing server command",
                "put it after --, as in: mcp-stdio-guard -- node server.js",
            ));
        }
    }
    Ok(Command::Check(Box::new(a)))
}

/// A probe list: `all`, `none`, or names separated by commas.
pub fn probe_list(text: &str, flag: &str) -> Result<Vec<String>, Error> {
    match text {
        "all" => return Ok(ADVERSARIAL_PROBES.iter().map(|p| p.to_string()).collect()),
        "none" => return Ok(Vec::new()),
        _ => {}
    }
    let mut out: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !ADVERSARIAL_PROBES.contains(&name) {
            return Err(Error::usage(
                format!("{flag}: unknown probe '{name}'"),
                format!("probes: {}, or all, or none", ADVERSARIAL_PROBES.join(", ")),
            ));
        }
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

fn parse_demo(args: Vec<OsString>, command: Option<Vec<OsString>>) -> Result<Command, Error> {
    if command.is_some() {
        return Err(Error::usage(
            "demo takes no server command",
            "it checks two servers built into the binary; use 'mcp-stdio-guard -- <command>' for yours",
        ));
    }
    let mut demo = DemoArgs {
        color: ColorChoice::Auto,
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help(HelpTopic::Demo)),
            Long("color") => demo.color = color_value(&mut parser)?,
            Value(v) => {
                return Err(Error::usage(
                    format!("unexpected argument '{}'", v.to_string_lossy()),
                    "demo takes only --color",
                ));
            }
            other => return Err(unknown_option(other)),
        }
    }
    Ok(Command::Demo(demo))
}

fn parse_scan(args: Vec<OsString>, command: Option<Vec<OsString>>) -> Result<Command, Error> {
    let mut scan = ScanArgs {
        json: false,
        paths: Vec::new(),
        color: ColorChoice::Auto,
    };
    // Paths after `--` are paths too (a path that starts with a dash).
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help(HelpTopic::Scan)),
            Long("json") => scan.json = true,
            Long("color") => scan.color = color_value(&mut parser)?,
            Value(v) => scan.paths.push(v),
            other => return Err(unknown_option(other)),
        }
    }
    scan.paths.extend(command.unwrap_or_default());
    if scan.paths.is_empty() {
        return Err(Error::usage(
            "scan needs at least one path",
            "as in: mcp-stdio-guard scan src",
        ));
    }
    Ok(Command::Scan(scan))
}

fn parse_serve(args: Vec<OsString>) -> Result<Command, Error> {
    match args.first().and_then(|a| a.to_str()) {
        Some("clean") if args.len() == 1 => Ok(Command::Serve(DemoServer::Clean)),
        Some("banner") if args.len() == 1 => Ok(Command::Serve(DemoServer::Banner)),
        _ => Err(Error::usage("__serve takes 'clean' or 'banner'", "")),
    }
}

fn lexopt_error(err: lexopt::Error) -> Error {
    Error::usage(err.to_string(), HELP_HINT)
}

fn unknown_option(arg: lexopt::Arg<'_>) -> Error {
    let name = match arg {
        Short(c) => format!("-{c}"),
        Long(l) => format!("--{l}"),
        Value(v) => v.to_string_lossy().into_owned(),
    };
    let hint = match suggest(&name) {
        Some(s) => format!("did you mean {s}? {HELP_HINT}"),
        None => HELP_HINT.to_string(),
    };
    Error::usage(format!("unknown option {name}"), hint)
}

/// Every long option of `check`, for typo suggestions.
const CHECK_FLAGS: &[&str] = &[
    "--profile",
    "--config",
    "--server",
    "--repeat",
    "--adversarial-probe",
    "--adversarial-probes",
    "--json",
    "--protocol",
    "--timeout",
    "--startup-timeout",
    "--request",
    "--params",
    "--cwd",
    "--env",
    "--inherit-env",
    "--max-stdout-bytes",
    "--max-stdout-line-bytes",
    "--max-stderr-bytes",
    "--settle",
    "--shutdown-grace",
    "--no-capability-probes",
    "--evidence",
    "--against",
    "--transcript",
    "--verbose",
    "--arg",
    "--args",
    "--scan",
    "--fail-on-static",
    "--color",
    "--help",
    "--version",
];

/// The closest known flag to a mistyped one, when it is close enough.
fn suggest(name: &str) -> Option<&'static str> {
    CHECK_FLAGS
        .iter()
        .map(|flag| (edit_distance(name, flag), *flag))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, flag)| flag)
}

/// Levenshtein distance over bytes; flags are ASCII.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// Reads a flag's value as UTF-8 text. A value that is empty or looks like
/// another long flag means the user forgot the value.
fn string(parser: &mut lexopt::Parser, flag: &str) -> Result<String, Error> {
    let missing = || Error::usage(format!("{flag} requires a value"), HELP_HINT);
    let value = parser.value().map_err(|_| missing())?;
    let value = value
        .into_string()
        .map_err(|_| Error::usage(format!("{flag} value is not valid UTF-8"), HELP_HINT))?;
    if value.is_empty() || value.starts_with("--") {
        return Err(missing());
    }
    Ok(value)
}

fn number(parser: &mut lexopt::Parser, flag: &str, min: u64) -> Result<u64, Error> {
    let text = string(parser, flag)?;
    let value: u64 = text.parse().map_err(|_| {
        Error::usage(
            format!("{flag} must be a whole number, not '{text}'"),
            format!("for example {flag} {}", min.max(1000)),
        )
    })?;
    if value < min {
        return Err(Error::usage(
            format!("{flag} must be at least {min}, not {value}"),
            HELP_HINT,
        ));
    }
    Ok(value)
}

fn protocol_value(parser: &mut lexopt::Parser) -> Result<String, Error> {
    let value = string(parser, "--protocol")?;
    if value.chars().any(char::is_control) {
        return Err(Error::usage(
            "--protocol must be a version string such as 2025-11-25",
            HELP_HINT,
        ));
    }
    Ok(value)
}

fn request_value(parser: &mut lexopt::Parser) -> Result<String, Error> {
    let value = string(parser, "--request")?;
    if value.trim() != value || value.chars().any(char::is_control) {
        return Err(Error::usage(
            format!("--request must be a method name such as tools/list, not '{value}'"),
            HELP_HINT,
        ));
    }
    Ok(value)
}

fn params_value(parser: &mut lexopt::Parser) -> Result<Value, Error> {
    let text = string(parser, "--params")?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        Error::usage(
            format!("--params must be valid JSON: {e}"),
            r#"quote it for your shell, for example --params '{"cursor":"abc"}'"#,
        )
    })?;
    if !value.is_object() && !value.is_array() {
        return Err(Error::usage(
            "--params must be a JSON object or array",
            "JSON-RPC params are structured; MCP methods take an object",
        ));
    }
    Ok(value)
}

fn env_value(parser: &mut lexopt::Parser) -> Result<EnvSpec, Error> {
    let text = string(parser, "--env")?;
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (text.as_str(), None),
    };
    if name.is_empty() || name.contains('\0') || value.is_some_and(|v| v.contains('\0')) {
        return Err(Error::usage(
            "--env takes NAME or NAME=VALUE with a non-empty NAME",
            "for example --env API_TOKEN or --env LOG_LEVEL=debug",
        ));
    }
    Ok(match value {
        Some(value) => EnvSpec::Set(name.to_string(), value.to_string()),
        None => EnvSpec::Forward(name.to_string()),
    })
}

fn color_value(parser: &mut lexopt::Parser) -> Result<ColorChoice, Error> {
    match string(parser, "--color")?.as_str() {
        "auto" => Ok(ColorChoice::Auto),
        "always" => Ok(ColorChoice::Always),
        "never" => Ok(ColorChoice::Never),
        other => Err(Error::usage(
            format!("--color must be auto, always or never, not '{other}'"),
            HELP_HINT,
        )),
    }
}

pub const HELP_MAIN: &str = "\
mcp-stdio-guard: run an MCP stdio server through a real session and judge every byte it writes.

MCP stdio output is expected as newline-delimited JSON-RPC on stdout; logs belong on stderr.

Usage:
  mcp-stdio-guard [check] [OPTIONS] -- <command> [args...]
  mcp-stdio-guard tools [OPTIONS] -- <command> [args...]
  mcp-stdio-guard call <tool> [--arg NAME=VALUE]... [--args JSON] [OPTIONS] -- <command>
  mcp-stdio-guard scan [--json] <path>...
  mcp-stdio-guard demo
  mcp-stdio-guard help [check|tools|call|scan|demo|codes]

Commands:
  check   start the server, run initialize, --request and the capability probes, judge
          every stdout line, report (default)
  tools   list the server's tools (every page): a table, or with --json the server's
          own tool objects; exit 0 when the list came without error issues
  call    call one tool: --arg values are typed from its inputSchema; the result is
          printed and checked; exit 1 when it is an error
  scan    find code that writes to stdout, without running anything: comments and
          strings are skipped; exit 1 when something is found, 2 for a missing path
  demo    check two servers built into this binary: one clean, one with a stdout banner

Options of check:
  --profile <name>            custom, smoke, registry, ci or strict [default: custom]
  --config <file>             a JSON config (this tool's, or a Claude Desktop / VS Code /
                              Cursor style mcpServers file with --server)
  --server <name>             the mcpServers/servers entry of --config to check
  --repeat <n>                n fresh runs, then drift between them [default: 1]
  --adversarial-probe <name>  opt into one probe: invalid-method, invalid-params,
                              notification, malformed-json (repeatable)
  --adversarial-probes <list> a comma-separated list, all, or none
  --json                      print the JSON report (schemaVersion 1)
  --protocol <version>        MCP protocol version to request [default: 2025-11-25]
  --timeout <ms>              per-request timeout, at least 100 [default: 5000]
  --startup-timeout <ms>      spawn until the initialize response [default: --timeout]
  --request <method>          one request after initialization, e.g. tools/list (id 2)
  --params <json>             params for --request (a JSON object or array)
  --cwd <path>                run the server in this directory
  --env <NAME>                forward NAME from this environment (repeatable)
  --env <NAME=VALUE>          set NAME for the server (repeatable)
  --inherit-env               pass this whole environment (default: a fixed allow-list)
  --max-stdout-bytes <n>      stop the run past this much stdout [default: 1048576]
  --max-stdout-line-bytes <n> longest stdout line accepted [default: 262144]
  --max-stderr-bytes <n>      stderr kept for the report (head and tail) [default: 1048576]
  --settle <ms>               keep observing after the last response [default: 50]
  --shutdown-grace <ms>       wait after closing stdin, and after SIGTERM [default: 2000]
  --no-capability-probes      do not list the advertised tools, resources, resource
                              templates and prompts (on by default, every page)
  --scan <path>               also scan this source directory or file for stdout
                              writes (repeatable); findings are warnings
  --fail-on-static            make static findings errors
  --evidence <file>           append one JSON record of this run to the file
  --against <file>            compare with the newest record for this command in the
                              file; report drift (server version, protocol, tools)
  --transcript <file>         write every message (both ways) and stderr line as JSON
                              lines, even when the run fails
  --verbose                   list every check in the text report, skipped ones with
                              their reason
  --color <when>              auto, always or never (NO_COLOR is honoured) [default: auto]
  -h, --help                  print this help
  -V, --version               print the version

Exit status: 0 no error issue, 1 at least one error issue, 2 usage or I/O error of the
guard, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.

Examples:
  mcp-stdio-guard -- node ./server.js
  mcp-stdio-guard --request tools/list -- python -u server.py
  mcp-stdio-guard --json --env API_TOKEN -- npx -y @scope/server
";

pub const HELP_SCAN: &str = "\
mcp-stdio-guard scan: find code that writes to stdout, without running it.

Usage:
  mcp-stdio-guard scan [--json] <path>...

Each path is a directory (walked, skipping .git node_modules dist build coverage
.next .cache target venv .venv __pycache__ vendor, never following a symlink) or
a source file. Read as code: JavaScript/TypeScript, Python, Go, Rust, Java,
Kotlin, C# and Ruby, with comments and strings skipped and calls followed over
lines. Files over 1 MiB and minified files are skipped and counted. A write whose
payload is a JSON serialization (a hand-rolled transport) is not flagged; a write
that runs at load time also carries the reason startup-output.

Options:
  --json          print the findings as JSON
  --color <when>  auto, always or never [default: auto]
  -h, --help      print this help

Exit status: 0 nothing found, 1 findings, 2 a path that does not exist.
";

pub const HELP_DEMO: &str = "\
mcp-stdio-guard demo: check two servers built into this binary.

The first answers correctly; the second prints a banner on stdout before it
speaks, which corrupts the MCP stream. Both reports are printed. The demo exits
0 when the clean server passes and the polluted one fails.

Usage:
  mcp-stdio-guard demo [--color auto|always|never]
";

#[cfg(test)]
mod tests {
    use super::*;

    fn check(args: &[&str]) -> CheckArgs {
        match parse(args.iter().copied()) {
            Ok(Command::Check(a)) => *a,
            other => panic!("expected check args, got {other:?}"),
        }
    }

    fn usage_error(args: &[&str]) -> String {
        match parse(args.iter().copied()) {
            Err(e) => e.to_string(),
            Ok(other) => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn command_after_double_dash_is_kept_verbatim() {
        let a = check(&["--json", "--", "node", "--json", "-h", "--"]);
        assert!(a.json);
        assert_eq!(a.command, ["node", "--json", "-h", "--"]);
    }

    #[test]
    fn check_subcommand_is_optional() {
        assert_eq!(check(&["check", "--", "srv"]), check(&["--", "srv"]));
    }

    #[test]
    fn both_value_forms_are_accepted() {
        let a = check(&["--timeout=250", "--settle", "0", "--", "srv"]);
        assert_eq!(a.timeout_ms, 250);
        assert_eq!(a.settle_ms, 0);
    }

    #[test]
    fn defaults_match_the_documented_values() {
        let a = check(&["--", "srv"]);
        assert_eq!(a.protocol, "2025-11-25");
        assert_eq!(a.timeout_ms, 5000);
        assert_eq!(a.startup_timeout_ms, None);
        assert_eq!(a.max_stdout_bytes, 1_048_576);
        assert_eq!(a.max_stdout_line_bytes, 262_144);
        assert_eq!(a.max_stderr_bytes, 1_048_576);
        assert_eq!(a.settle_ms, 50);
        assert_eq!(a.shutdown_grace_ms, 2000);
        assert!(!a.inherit_env);
    }

    #[test]
    fn env_forms_are_distinguished() {
        let a = check(&["--env", "A", "--env=B=x=y", "--env", "C=", "--", "srv"]);
        assert_eq!(
            a.env,
            [
                EnvSpec::Forward("A".into()),
                EnvSpec::Set("B".into(), "x=y".into()),
                EnvSpec::Set("C".into(), String::new())
            ]
        );
    }

    #[test]
    fn bad_input_is_a_usage_error_with_a_hint() {
        assert!(usage_error(&["--bogus", "--", "srv"]).contains("unknown option --bogus"));
        assert!(usage_error(&["--jsn", "--", "srv"]).contains("did you mean --json"));
        assert!(usage_error(&["--timeout", "--", "srv"]).contains("--timeout requires a value"));
        assert!(usage_error(&["--timeout", "abc", "--", "srv"]).contains("whole number"));
        assert!(usage_error(&["--timeout", "99", "--", "srv"]).contains("at least 100"));
        assert!(usage_error(&["--timeout", "--json", "--", "srv"]).contains("requires a value"));
        assert!(
            usage_error(&["--params", "{", "--request", "x", "--", "s"]).contains("valid JSON")
        );
        assert!(usage_error(&["--params", "5", "--request", "x", "--", "s"]).contains("object"));
        assert!(
            usage_error(&["--params", "{}", "--", "srv"]).contains("only be used with --request")
        );
        assert!(usage_error(&["--json"]).contains("missing server command"));
        assert!(usage_error(&["--json", "--"]).contains("missing server command"));
        assert!(usage_error(&["node", "server.js"]).contains("unexpected argument 'node'"));
        assert!(usage_error(&["--color", "blue", "--", "s"]).contains("auto, always or never"));
        assert!(usage_error(&["--env", "=x", "--", "s"]).contains("non-empty NAME"));
        assert!(usage_error(&["--json=yes", "--", "s"]).contains("hint:"));
    }

    #[test]
    fn help_and_version_win_over_a_missing_command() {
        assert_eq!(parse(["-h"]).ok(), Some(Command::Help(HelpTopic::Check)));
        assert_eq!(parse(["--version"]).ok(), Some(Command::Version));
        assert_eq!(parse(["help"]).ok(), Some(Command::Help(HelpTopic::Main)));
        assert_eq!(
            parse(["demo", "--help"]).ok(),
            Some(Command::Help(HelpTopic::Demo))
        );
    }

    #[test]
    fn demo_rejects_a_server_command() {
        assert!(parse(["demo"]).is_ok());
        assert!(parse(["demo", "--", "srv"]).is_err());
    }

    #[test]
    fn every_check_flag_is_in_the_help_text() {
        for flag in CHECK_FLAGS {
            assert!(HELP_MAIN.contains(flag), "{flag} missing from help");
        }
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("--jsn", "--json"), 1);
        assert_eq!(edit_distance("--timeuot", "--timeout"), 2);
        assert_eq!(edit_distance("", "ab"), 2);
    }
}
