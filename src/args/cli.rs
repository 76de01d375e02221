//! Command-line parsing: argv in, plain validated data out. No I/O happens
//! here (the filesystem and the environment are consulted later, in
//! `plan`), so every rule is unit-testable with `parse(["..."])`.
//!
//! A setting the user may leave to a config file or a profile is an
//! `Option` here: `None` means "not given on the command line", and
//! `settings::resolve` decides what applies. `OPTIONS` is the one table of
//! flags: the parser's suggestions, `--help`, the man page and the shell
//! completions are all made from it.
//!
//! Everything after the first literal `--` is the server's argv, verbatim:
//! the guard never splits a command string and never guesses whose flag a
//! flag is.

use std::ffi::OsString;

use lexopt::prelude::*;
use serde_json::Value;

use crate::args::call::CallSpec;
use crate::args::words::{self, Bound, ColorChoice, EnvSpec, Probe, Profile};
use crate::error::Error;

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Check(Box<CheckArgs>),
    /// `scan PATH...`: the static scanner alone, no server.
    Scan(ScanArgs),
    Demo(DemoArgs),
    Help(HelpTopic),
    Version,
    /// `completions SHELL`: a completion script.
    Completions(words::Shell),
    /// `batch MANIFEST`: every server of a manifest, N at a time.
    Batch(Box<BatchArgs>),
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
    /// `help --man`: the manual page, roff.
    Man,
}

/// One slice of a sharded batch: the `index`-th (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// Options of `batch`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchArgs {
    pub manifest: Option<OsString>,
    pub jobs: u64,
    pub shard: Option<Shard>,
    pub out: Option<OsString>,
    /// `--merge`: JSONL files of earlier batches to join instead.
    pub merge: Vec<OsString>,
    pub junit: Option<OsString>,
    pub sarif: Option<OsString>,
    pub summary: Option<OsString>,
    pub json: bool,
    /// Options after `--`, given to every check.
    pub check_args: Vec<OsString>,
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoArgs {
    pub color: ColorChoice,
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
    /// `bench`: the server's performance.
    Bench(BenchSpec),
}

/// What `bench` measures, and within which bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchSpec {
    /// Fresh processes for the cold start.
    pub samples: u64,
    /// Requests in flight in the burst.
    pub concurrency: u64,
    /// Requests of the burst, at most.
    pub requests: u64,
    /// Wall time of the burst, at most (ms).
    pub duration_ms: u64,
    /// The burst's method (default: the era's liveness request).
    pub method: Option<String>,
    /// The tool to time, with its arguments (`--tool NAME --arg ...`).
    pub call: Option<CallSpec>,
    /// A tool not marked read-only may be called.
    pub allow_side_effects: bool,
}

impl Default for BenchSpec {
    fn default() -> Self {
        BenchSpec {
            samples: 5,
            concurrency: 8,
            requests: 2000,
            duration_ms: 10_000,
            method: None,
            call: None,
            allow_side_effects: false,
        }
    }
}

impl Mode {
    /// The command's name, as the evidence record spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Check => "check",
            Mode::Tools => "tools",
            Mode::Call(_) => "call",
            Mode::Bench(_) => "bench",
        }
    }
}

/// Options of `check`, `tools` and `call` as given on the command line.
/// `None` (or an empty list) means "not given": the config file, the
/// profile or the default decides (`settings::resolve`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckArgs {
    pub mode: Mode,
    pub profile: Option<Profile>,
    /// `--config FILE`.
    pub config: Option<OsString>,
    /// `--server NAME`: the entry of a client config (`mcpServers`).
    pub server: Option<String>,
    pub repeat: Option<u64>,
    /// Built-in adversarial probes: `--adversarial-probe` adds one,
    /// `--adversarial-probes` sets the list.
    pub adversarial: Option<Vec<Probe>>,
    pub evidence: Option<OsString>,
    pub against: Option<OsString>,
    pub transcript: Option<OsString>,
    pub junit: Option<OsString>,
    pub sarif: Option<OsString>,
    pub checks_json: Option<OsString>,
    pub annotations: Option<words::Annotations>,
    pub verbose: bool,
    pub json: Option<bool>,
    pub protocol: Option<String>,
    pub era: Option<words::Era>,
    pub era_window_ms: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub startup_timeout_ms: Option<u64>,
    pub request: Option<String>,
    pub params: Option<Value>,
    pub cwd: Option<OsString>,
    pub env: Vec<EnvSpec>,
    pub inherit_env: bool,
    /// `--env-clear`: only the `--env` variables, no allow-list.
    pub env_clear: bool,
    pub max_stdout_bytes: Option<u64>,
    pub max_stdout_line_bytes: Option<u64>,
    pub max_stderr_bytes: Option<u64>,
    pub settle_ms: Option<u64>,
    pub shutdown_grace_ms: Option<u64>,
    /// `--no-capability-probes` gives `Some(false)`.
    pub capability_probes: Option<bool>,
    /// `--scan` paths, scanned before the server starts.
    pub scan: Vec<OsString>,
    pub fail_on_static: Option<bool>,
    pub color: ColorChoice,
    /// The server argv, program first; empty when a config names it.
    pub command: Vec<OsString>,
}

/// Which commands accept an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `check`, `tools` and `call`.
    Session,
    /// `call` only.
    Call,
    /// `scan` only.
    Scan,
    /// `bench` only.
    Bench,
    /// Every command.
    All,
}

/// One option: its spelling, its value, its help text and its default.
#[derive(Debug, Clone, Copy)]
pub struct OptSpec {
    pub long: &'static str,
    pub short: Option<char>,
    /// The value's placeholder (`<ms>`), or `None` for a switch.
    pub value: Option<&'static str>,
    /// One or more lines; continuation lines are indented in `--help`.
    pub help: &'static str,
    pub default: Option<&'static str>,
    pub scope: Scope,
    /// The words the value may be, for completions.
    pub choices: &'static [&'static str],
}

const fn opt(long: &'static str, value: Option<&'static str>, help: &'static str) -> OptSpec {
    OptSpec {
        long,
        short: None,
        value,
        help,
        default: None,
        scope: Scope::Session,
        choices: &[],
    }
}

const fn with_default(mut o: OptSpec, default: &'static str) -> OptSpec {
    o.default = Some(default);
    o
}

const fn with_choices(mut o: OptSpec, choices: &'static [&'static str]) -> OptSpec {
    o.choices = choices;
    o
}

const fn in_scope(mut o: OptSpec, scope: Scope) -> OptSpec {
    o.scope = scope;
    o
}

/// Every option, in `--help` order.
pub const OPTIONS: &[OptSpec] = &[
    with_choices(
        with_default(
            opt(
                "profile",
                Some("<name>"),
                "custom, smoke, registry, ci or strict",
            ),
            "custom",
        ),
        Profile::NAMES,
    ),
    opt(
        "config",
        Some("<file>"),
        "a JSON config (this tool's, or a Claude Desktop / VS Code /\nCursor style mcpServers file with --server)",
    ),
    opt(
        "server",
        Some("<name>"),
        "the mcpServers/servers entry of --config to check",
    ),
    with_default(
        opt(
            "repeat",
            Some("<n>"),
            "n fresh runs (1 to 100), then drift between them",
        ),
        "1",
    ),
    with_choices(
        opt(
            "adversarial-probe",
            Some("<name>"),
            "opt into one probe: invalid-method, invalid-params,\nnotification, malformed-json (repeatable)",
        ),
        Probe::NAMES,
    ),
    with_choices(
        opt(
            "adversarial-probes",
            Some("<list>"),
            "a comma-separated list, all, or none",
        ),
        words::PROBE_LIST_WORDS,
    ),
    opt("json", None, "print the JSON report (schemaVersion 1)"),
    with_default(
        opt(
            "protocol",
            Some("<version>"),
            "MCP protocol version to request (YYYY-MM-DD)",
        ),
        "2025-11-25",
    ),
    with_choices(
        with_default(
            opt(
                "era",
                Some("<era>"),
                "auto|legacy|modern|both: which protocol era to speak;\nauto probes server/discover (2026-07-28) and falls\nback to initialize (2025)",
            ),
            "auto",
        ),
        words::Era::NAMES,
    ),
    with_default(
        opt(
            "era-window",
            Some("<ms>"),
            "how long auto waits for the discover probe before it\nalso sends initialize (50 to 10000)",
        ),
        "800",
    ),
    with_default(
        opt(
            "timeout",
            Some("<ms>"),
            "per-request timeout, 100 to 3600000",
        ),
        "5000",
    ),
    with_default(
        opt(
            "startup-timeout",
            Some("<ms>"),
            "spawn until the initialize response",
        ),
        "--timeout",
    ),
    opt(
        "request",
        Some("<method>"),
        "one request after initialization, e.g. tools/list (id 2)",
    ),
    opt(
        "params",
        Some("<json>"),
        "params for --request (a JSON object or array)",
    ),
    opt("cwd", Some("<path>"), "run the server in this directory"),
    opt(
        "env",
        Some("<NAME[=VALUE]>"),
        "forward NAME from this environment, or set NAME=VALUE for\nthe server (repeatable)",
    ),
    opt(
        "inherit-env",
        None,
        "pass this whole environment (default: a fixed allow-list)",
    ),
    opt(
        "env-clear",
        None,
        "pass only the variables named with --env: no allow-list,\nnot even PATH",
    ),
    with_default(
        opt(
            "max-stdout-bytes",
            Some("<n>"),
            "stop the run past this much stdout (at most 1 GiB)",
        ),
        "1048576",
    ),
    with_default(
        opt(
            "max-stdout-line-bytes",
            Some("<n>"),
            "longest stdout line accepted (at most 256 MiB)",
        ),
        "262144",
    ),
    with_default(
        opt(
            "max-stderr-bytes",
            Some("<n>"),
            "stderr kept for the report, head and tail (at most 256 MiB)",
        ),
        "1048576",
    ),
    with_default(
        opt(
            "settle",
            Some("<ms>"),
            "keep observing after the last response (at most 60000)",
        ),
        "50",
    ),
    with_default(
        opt(
            "shutdown-grace",
            Some("<ms>"),
            "wait after closing stdin, and after SIGTERM (at most 60000)",
        ),
        "2000",
    ),
    opt(
        "no-capability-probes",
        None,
        "do not list the advertised tools, resources, resource\ntemplates and prompts (on by default, every page)",
    ),
    opt(
        "scan",
        Some("<path>"),
        "also scan this source directory or file for stdout\nwrites (repeatable); findings are warnings",
    ),
    opt("fail-on-static", None, "make static findings errors"),
    opt(
        "evidence",
        Some("<file>"),
        "append one JSON record of this run to the file",
    ),
    opt(
        "against",
        Some("<file>"),
        "compare with the newest record for this command in the\nfile; report drift (server version, protocol, tools)",
    ),
    opt(
        "transcript",
        Some("<file>"),
        "write every message (both ways) and stderr line as JSON\nlines, even when the run fails",
    ),
    opt(
        "junit",
        Some("<file>"),
        "also write the report as JUnit XML (one testcase per check)",
    ),
    opt(
        "sarif",
        Some("<file>"),
        "also write the report as SARIF 2.1.0 (static findings with\nregions, runtime issues on the server command)",
    ),
    opt(
        "checks-json",
        Some("<file>"),
        "also write the official conformance suite's per-check records",
    ),
    with_choices(
        with_default(
            opt(
                "annotations",
                Some("<kind>"),
                "github or none: GitHub workflow commands on stderr and a\nMarkdown summary in GITHUB_STEP_SUMMARY (auto when\nGITHUB_ACTIONS=true)",
            ),
            "auto",
        ),
        words::Annotations::NAMES,
    ),
    opt(
        "verbose",
        None,
        "list every check in the text report, skipped ones with\ntheir reason",
    ),
    in_scope(
        opt(
            "arg",
            Some("<NAME=VALUE>"),
            "call: one tool argument, typed from the tool's inputSchema",
        ),
        Scope::Call,
    ),
    in_scope(
        opt(
            "args",
            Some("<json>"),
            "call: a JSON object of arguments (--arg values win)",
        ),
        Scope::Call,
    ),
    in_scope(
        with_default(
            opt(
                "samples",
                Some("<n>"),
                "bench: fresh processes for the cold start",
            ),
            "5",
        ),
        Scope::Bench,
    ),
    in_scope(
        with_default(
            opt(
                "concurrency",
                Some("<n>"),
                "bench: requests in flight in the burst",
            ),
            "8",
        ),
        Scope::Bench,
    ),
    in_scope(
        with_default(
            opt(
                "requests",
                Some("<n>"),
                "bench: the burst's requests, at most",
            ),
            "2000",
        ),
        Scope::Bench,
    ),
    in_scope(
        with_default(
            opt(
                "duration",
                Some("<s>"),
                "bench: the burst's wall time, at most",
            ),
            "10",
        ),
        Scope::Bench,
    ),
    in_scope(
        opt(
            "method",
            Some("<method>"),
            "bench: the burst's request (default: the liveness request)",
        ),
        Scope::Bench,
    ),
    in_scope(
        opt(
            "tool",
            Some("<name>"),
            "bench: time this tool (with --arg/--args)",
        ),
        Scope::Bench,
    ),
    in_scope(
        opt(
            "allow-side-effects",
            None,
            "bench: call a tool not marked read-only",
        ),
        Scope::Bench,
    ),
    with_choices(
        in_scope(
            with_default(
                opt(
                    "color",
                    Some("<when>"),
                    "auto, always or never (NO_COLOR is honoured)",
                ),
                "auto",
            ),
            Scope::All,
        ),
        ColorChoice::NAMES,
    ),
    in_scope(
        OptSpec {
            short: Some('h'),
            ..opt("help", None, "print this help")
        },
        Scope::All,
    ),
    in_scope(
        OptSpec {
            short: Some('V'),
            ..opt("version", None, "print the version")
        },
        Scope::All,
    ),
];

/// The subcommands, for help and completions.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "check",
        "start the server, run initialize, --request and the capability probes, judge\nevery stdout line, report (default)",
    ),
    (
        "tools",
        "list the server's tools (every page): a table, or with --json the server's\nown tool objects; exit 0 when the list came without error issues",
    ),
    (
        "call",
        "call one tool: --arg values are typed from its inputSchema; the result is\nprinted and checked; exit 1 when it is an error",
    ),
    (
        "bench",
        "measure the server: cold start, warm latency, tools/list, and a burst with\n--concurrency requests in flight (--samples, --requests, --duration,\n--method or --tool NAME --arg ..., --allow-side-effects)",
    ),
    (
        "batch",
        "check every server of a manifest (mcpServers/servers map), --jobs at a time:\nJSONL results (--out), --shard K/N, --merge, --junit, --sarif, --summary",
    ),
    (
        "completions",
        "print a completion script: completions bash|zsh|fish",
    ),
    (
        "scan",
        "find code that writes to stdout, without running anything: comments and\nstrings are skipped; exit 1 when something is found, 2 for a missing path",
    ),
    (
        "demo",
        "check two servers built into this binary: one clean, one with a stdout banner",
    ),
    (
        "help",
        "print help for a command, or the issue-code table (help codes)",
    ),
];

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
        "check" | "tools" | "call" | "bench" | "scan" | "demo" | "help" | "completions"
        | "batch" | "__serve" => Some(a.to_string()),
        _ => None,
    });
    if sub.is_some() {
        args.remove(0);
    }
    match sub.as_deref() {
        None | Some("check") => parse_check(args, command, Mode::Check),
        Some("tools") => parse_check(args, command, Mode::Tools),
        Some("call") => parse_check(args, command, Mode::Call(CallSpec::default())),
        Some("bench") => parse_check(args, command, Mode::Bench(BenchSpec::default())),
        Some("demo") => parse_demo(args, command),
        Some("scan") => parse_scan(args, command),
        Some("help") => Ok(Command::Help(help_topic(&args))),
        Some("batch") => parse_batch(args, command),
        Some("completions") => {
            let shell = args.first().and_then(|a| a.to_str()).unwrap_or("");
            shell.parse().map(Command::Completions).map_err(|_| {
                Error::usage(
                    format!("completions needs a shell: bash, zsh or fish, not '{shell}'"),
                    "as in: mcp-stdio-guard completions bash > /etc/bash_completion.d/mcp-stdio-guard",
                )
            })
        }
        Some(_) => parse_serve(args),
    }
}

fn help_topic(args: &[OsString]) -> HelpTopic {
    match args.first().and_then(|a| a.to_str()) {
        Some("check") => HelpTopic::Check,
        Some("demo") => HelpTopic::Demo,
        Some("scan") => HelpTopic::Scan,
        Some("tools") => HelpTopic::Tools,
        Some("call") => HelpTopic::Call,
        Some("codes") => HelpTopic::Codes,
        Some("--man" | "man") => HelpTopic::Man,
        _ => HelpTopic::Main,
    }
}

/// What one flag did to the parse.
enum Flow {
    Continue,
    Stop(Command),
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
        Mode::Bench(_) => HelpTopic::Main,
    };
    let mut a = CheckArgs {
        mode,
        ..CheckArgs::default()
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        // The flag as text, so the parser is free to read its value.
        let flag: Result<String, OsString> = match arg {
            Short(c) => Ok(format!("-{c}")),
            Long(l) => Ok(format!("--{l}")),
            Value(v) => Err(v),
        };
        if let Flow::Stop(cmd) = check_flag(&mut a, flag, &mut parser, help)? {
            return Ok(cmd);
        }
    }
    finish_check(a, command)
}

/// Applies one argument of `check`, `tools` or `call`.
fn check_flag(
    a: &mut CheckArgs,
    flag: Result<String, OsString>,
    p: &mut lexopt::Parser,
    help: HelpTopic,
) -> Result<Flow, Error> {
    let flag = match flag {
        Ok(text) => text,
        Err(v) => {
            tool_name(a, v)?;
            return Ok(Flow::Continue);
        }
    };
    match flag.as_str() {
        "-h" | "--help" => return Ok(Flow::Stop(Command::Help(help))),
        "-V" | "--version" => return Ok(Flow::Stop(Command::Version)),
        "--profile" => a.profile = Some(word(p, "--profile")?),
        "--config" => a.config = Some(string(p, "--config")?.into()),
        "--server" => a.server = Some(string(p, "--server")?),
        "--repeat" => a.repeat = Some(number(p, "--repeat", words::REPEAT)?),
        "--adversarial-probe" => {
            let added = probes(p, "--adversarial-probe")?;
            let list = a.adversarial.get_or_insert_with(Vec::new);
            for probe in added {
                if !list.contains(&probe) {
                    list.push(probe);
                }
            }
        }
        "--adversarial-probes" => a.adversarial = Some(probes(p, "--adversarial-probes")?),
        "--evidence" | "--against" | "--transcript" | "--junit" | "--sarif" | "--checks-json"
        | "--annotations" => record_flag(a, flag.as_str(), p)?,
        "--verbose" => a.verbose = true,
        "--samples"
        | "--concurrency"
        | "--requests"
        | "--duration"
        | "--method"
        | "--tool"
        | "--allow-side-effects" => bench_flag(a, flag.as_str(), p)?,
        "--arg" => call_arg(a, p)?,
        "--args" => call_args(a, p)?,
        "--json" => a.json = Some(true),
        "--inherit-env" => a.inherit_env = true,
        "--env-clear" => a.env_clear = true,
        "--no-capability-probes" => a.capability_probes = Some(false),
        "--scan" => a.scan.push(string(p, "--scan")?.into()),
        "--fail-on-static" => a.fail_on_static = Some(true),
        "--protocol" => a.protocol = Some(protocol_value(p)?),
        "--era" => a.era = Some(word(p, "--era")?),
        "--era-window"
        | "--timeout"
        | "--startup-timeout"
        | "--max-stdout-bytes"
        | "--max-stdout-line-bytes"
        | "--max-stderr-bytes"
        | "--settle"
        | "--shutdown-grace" => bound_flag(a, flag.as_str(), p)?,
        "--request" => a.request = Some(request_value(p)?),
        "--params" => a.params = Some(params_value(p)?),
        "--cwd" => a.cwd = Some(string(p, "--cwd")?.into()),
        "--env" => a.env.push(env_value(p)?),
        "--color" => a.color = word(p, "--color")?,
        "--token" | "--auth" | "--header" | "-H" | "--bearer" | "--api-key" => {
            return Err(Error::usage(
                format!("{flag} is not an option of the guard: a stdio pipe carries no credential"),
                "pass it to the server: --env NAME=VALUE, or in its own arguments after --",
            ));
        }
        other => return Err(unknown_flag(other)),
    }
    Ok(Flow::Continue)
}

/// The `call` command's tool name: the one operand `check` and `tools` do
/// not take.
fn tool_name(a: &mut CheckArgs, v: OsString) -> Result<(), Error> {
    match &mut a.mode {
        Mode::Call(spec) if spec.tool.is_empty() => {
            spec.tool = v
                .into_string()
                .map_err(|_| Error::usage("the tool name is not valid UTF-8", HELP_HINT))?;
            Ok(())
        }
        _ => Err(Error::usage(
            format!("unexpected argument '{}'", v.to_string_lossy()),
            "put the server command after --, as in: mcp-stdio-guard -- node server.js",
        )),
    }
}

/// A numeric flag with its bound: times and limits.
fn bound_flag(a: &mut CheckArgs, flag: &str, p: &mut lexopt::Parser) -> Result<(), Error> {
    let (slot, bound) = match flag {
        "--era-window" => (&mut a.era_window_ms, words::ERA_WINDOW_MS),
        "--timeout" => (&mut a.timeout_ms, words::TIMEOUT_MS),
        "--startup-timeout" => (&mut a.startup_timeout_ms, words::TIMEOUT_MS),
        "--max-stdout-bytes" => (&mut a.max_stdout_bytes, words::STDOUT_BYTES),
        "--max-stdout-line-bytes" => (&mut a.max_stdout_line_bytes, words::LINE_BYTES),
        "--max-stderr-bytes" => (&mut a.max_stderr_bytes, words::STDERR_BYTES),
        "--settle" => (&mut a.settle_ms, words::WINDOW_MS),
        _ => (&mut a.shutdown_grace_ms, words::WINDOW_MS),
    };
    *slot = Some(number(p, flag, bound)?);
    Ok(())
}

/// A flag naming a record or report file, or the annotations.
fn record_flag(a: &mut CheckArgs, flag: &str, p: &mut lexopt::Parser) -> Result<(), Error> {
    match flag {
        "--annotations" => a.annotations = Some(word(p, flag)?),
        _ => {
            let path = Some(OsString::from(string(p, flag)?));
            match flag {
                "--evidence" => a.evidence = path,
                "--against" => a.against = path,
                "--transcript" => a.transcript = path,
                "--junit" => a.junit = path,
                "--sarif" => a.sarif = path,
                _ => a.checks_json = path,
            }
        }
    }
    Ok(())
}

/// A flag of the `bench` command.
fn bench_flag(a: &mut CheckArgs, flag: &str, p: &mut lexopt::Parser) -> Result<(), Error> {
    let Mode::Bench(spec) = &mut a.mode else {
        return Err(Error::usage(
            format!("{flag} belongs to the bench command"),
            "as in: mcp-stdio-guard bench --concurrency 8 -- node server.js",
        ));
    };
    match flag {
        "--samples" => spec.samples = number(p, flag, words::SAMPLES)?,
        "--concurrency" => spec.concurrency = number(p, flag, words::CONCURRENCY)?,
        "--requests" => spec.requests = number(p, flag, words::BENCH_REQUESTS)?,
        "--duration" => spec.duration_ms = number(p, flag, words::BENCH_DURATION_S)? * 1000,
        "--method" => spec.method = Some(string(p, flag)?),
        "--tool" => {
            let tool = string(p, flag)?;
            spec.call.get_or_insert_with(CallSpec::default).tool = tool;
        }
        _ => spec.allow_side_effects = true,
    }
    Ok(())
}

fn call_spec<'a>(
    a: &'a mut CheckArgs,
    flag: &str,
    example: &str,
) -> Result<&'a mut CallSpec, Error> {
    match &mut a.mode {
        Mode::Call(spec) => Ok(spec),
        Mode::Bench(b) => Ok(b.call.get_or_insert_with(CallSpec::default)),
        _ => Err(Error::usage(
            format!("{flag} belongs to the call command"),
            format!("as in: mcp-stdio-guard call echo {example} -- node server.js"),
        )),
    }
}

fn call_arg(a: &mut CheckArgs, p: &mut lexopt::Parser) -> Result<(), Error> {
    let value = string(p, "--arg")?;
    let spec = call_spec(a, "--arg", "--arg text=hi")?;
    let Some((name, v)) = value.split_once('=').filter(|(n, _)| !n.is_empty()) else {
        return Err(Error::usage(
            format!("--arg must be NAME=VALUE, not '{value}'"),
            "as in: --arg text=hello",
        ));
    };
    spec.args.push((name.to_string(), v.to_string()));
    Ok(())
}

fn call_args(a: &mut CheckArgs, p: &mut lexopt::Parser) -> Result<(), Error> {
    let text = string(p, "--args")?;
    let spec = call_spec(a, "--args", "--args '{\"text\":\"hi\"}'")?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => {
            spec.args_json = Some(map);
            Ok(())
        }
        Ok(_) => Err(Error::usage(
            "--args must be a JSON object",
            "tool arguments are named: '{\"text\":\"hi\"}'",
        )),
        Err(e) => Err(Error::usage(
            format!("--args must be valid JSON: {e}"),
            "quote it for your shell",
        )),
    }
}

/// The rules that involve more than one flag.
fn finish_check(mut a: CheckArgs, command: Option<Vec<OsString>>) -> Result<Command, Error> {
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
            Long("color") => demo.color = word(&mut parser, "--color")?,
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
            Long("color") => scan.color = word(&mut parser, "--color")?,
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

/// `--shard K/N`, `--shard auto/N`, or `--shard auto` (Kubernetes:
/// `JOB_COMPLETION_INDEX`, 0-based, and `JOB_COMPLETIONS`).
pub fn shard_value(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, Error> {
    let bad = |why: &str| {
        Error::usage(
            format!("--shard {text}: {why}"),
            "as in: --shard 2/4, --shard auto/4 (reads JOB_COMPLETION_INDEX)",
        )
    };
    let (k, n) = text.split_once('/').unwrap_or((text, ""));
    let n = if n.is_empty() {
        env("JOB_COMPLETIONS").ok_or_else(|| bad("give N, or set JOB_COMPLETIONS"))?
    } else {
        n.to_string()
    };
    let count: u64 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
    let index: u64 = if k == "auto" {
        let i =
            env("JOB_COMPLETION_INDEX").ok_or_else(|| bad("JOB_COMPLETION_INDEX is not set"))?;
        i.trim()
            .parse::<u64>()
            .map_err(|_| bad("JOB_COMPLETION_INDEX is not a number"))?
            + 1
    } else {
        k.trim().parse().map_err(|_| bad("K is not a number"))?
    };
    if count == 0 || index == 0 || index > count {
        return Err(bad("K must be 1 to N"));
    }
    Ok(Shard { index, count })
}

fn parse_batch(args: Vec<OsString>, command: Option<Vec<OsString>>) -> Result<Command, Error> {
    let mut b = BatchArgs {
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get() as u64),
        check_args: command.unwrap_or_default(),
        ..BatchArgs::default()
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help(HelpTopic::Main)),
            Long("jobs") => b.jobs = number(&mut parser, "--jobs", words::CONCURRENCY)?,
            Long("shard") => {
                let text = string(&mut parser, "--shard")?;
                b.shard = Some(shard_value(&text, |k| std::env::var(k).ok())?);
            }
            Long("out") => b.out = Some(string(&mut parser, "--out")?.into()),
            Long("junit") => b.junit = Some(string(&mut parser, "--junit")?.into()),
            Long("sarif") => b.sarif = Some(string(&mut parser, "--sarif")?.into()),
            Long("summary") => b.summary = Some(string(&mut parser, "--summary")?.into()),
            Long("json") => b.json = true,
            Long("merge") => b.merge.push(string(&mut parser, "--merge")?.into()),
            Value(v) if !b.merge.is_empty() => b.merge.push(v),
            Value(v) if b.manifest.is_none() => b.manifest = Some(v),
            other => return Err(unknown_option(other)),
        }
    }
    if b.manifest.is_none() && b.merge.is_empty() {
        return Err(Error::usage(
            "batch needs a manifest (or --merge with result files)",
            "as in: mcp-stdio-guard batch servers.json --jobs 4 --out results.jsonl",
        ));
    }
    Ok(Command::Batch(Box::new(b)))
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
    unknown_flag(&name)
}

fn unknown_flag(name: &str) -> Error {
    let longs: Vec<String> = OPTIONS.iter().map(|o| format!("--{}", o.long)).collect();
    let hint = match words::closest(name, longs.iter().map(String::as_str), 2) {
        Some(s) => format!("did you mean {s}? {HELP_HINT}"),
        None => HELP_HINT.to_string(),
    };
    Error::usage(format!("unknown option {name}"), hint)
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

/// A flag whose value is one of a word enum's spellings.
fn word<T>(parser: &mut lexopt::Parser, flag: &str) -> Result<T, Error>
where
    T: std::str::FromStr<Err = words::NotOneOf>,
{
    let text = string(parser, flag)?;
    text.parse()
        .map_err(|e: words::NotOneOf| Error::usage(format!("{flag}: {e}"), HELP_HINT))
}

fn number(parser: &mut lexopt::Parser, flag: &str, bound: Bound) -> Result<u64, Error> {
    let text = string(parser, flag)?;
    bound.parse(&text).map_err(|problem| {
        Error::usage(
            format!("{flag} {problem}"),
            format!("for example {flag} {}", bound.min.max(1000).min(bound.max)),
        )
    })
}

fn probes(parser: &mut lexopt::Parser, flag: &str) -> Result<Vec<Probe>, Error> {
    let text = string(parser, flag)?;
    words::probe_list(&text).map_err(|e| {
        Error::usage(
            format!("{flag}: unknown probe '{}'", e.given),
            format!("probes: {}, or all, or none", Probe::NAMES.join(", ")),
        )
    })
}

fn protocol_value(parser: &mut lexopt::Parser) -> Result<String, Error> {
    let value = string(parser, "--protocol")?;
    if !crate::mcp::is_date_shaped(&value) {
        return Err(Error::usage(
            format!("--protocol must be a version such as 2025-11-25, not '{value}'"),
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
    text.parse().map_err(|e: words::BadEnv| {
        Error::usage(
            format!(
                "--env takes NAME or NAME=VALUE with a non-empty NAME: {}",
                e.0
            ),
            "for example --env API_TOKEN or --env LOG_LEVEL=debug",
        )
    })
}

/// `--long <value>` as help shows it.
fn flag_text(o: &OptSpec) -> String {
    let mut text = match o.short {
        Some(c) => format!("-{c}, --{}", o.long),
        None => format!("--{}", o.long),
    };
    if let Some(v) = o.value {
        text.push(' ');
        text.push_str(v);
    }
    text
}

/// The options of `scope`, two columns, continuation lines indented.
fn options_text(scopes: &[Scope]) -> String {
    const COLUMN: usize = 30;
    let mut out = String::new();
    for o in OPTIONS.iter().filter(|o| scopes.contains(&o.scope)) {
        let flag = flag_text(o);
        let mut lines: Vec<String> = o.help.lines().map(String::from).collect();
        if let (Some(d), Some(last)) = (o.default, lines.last_mut()) {
            last.push_str(&format!(" [default: {d}]"));
        }
        for (i, line) in lines.iter().enumerate() {
            let left = if i == 0 { flag.as_str() } else { "" };
            let pad = if left.len() + 2 >= COLUMN {
                format!("  {left}\n{:COLUMN$}", "")
            } else {
                format!("  {left:<w$}", w = COLUMN - 2)
            };
            out.push_str(&pad);
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn commands_text() -> String {
    let mut out = String::new();
    for (name, what) in COMMANDS {
        for (i, line) in what.lines().enumerate() {
            let left = if i == 0 { *name } else { "" };
            out.push_str(&format!("  {left:<8}{line}\n"));
        }
    }
    out
}

/// `--help` of check, tools and call.
pub fn help_main() -> String {
    format!(
        "\
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
{}
Options of check, tools and call:
{}
Exit status: 0 no error issue, 1 at least one error issue, 2 usage or I/O error of the
guard, 130/143/129/131 interrupted by SIGINT/SIGTERM/SIGHUP/SIGQUIT.

Examples:
  mcp-stdio-guard -- node ./server.js
  mcp-stdio-guard --request tools/list -- python -u server.py
  mcp-stdio-guard --json --env API_TOKEN -- npx -y @scope/server
",
        commands_text(),
        options_text(&[Scope::Session, Scope::Call, Scope::Bench, Scope::All])
    )
}

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
        assert_eq!(a.json, Some(true));
        assert_eq!(a.command, ["node", "--json", "-h", "--"]);
    }

    #[test]
    fn check_subcommand_is_optional() {
        assert_eq!(check(&["check", "--", "srv"]), check(&["--", "srv"]));
    }

    #[test]
    fn both_value_forms_are_accepted() {
        let a = check(&["--timeout=250", "--settle", "0", "--", "srv"]);
        assert_eq!(a.timeout_ms, Some(250));
        assert_eq!(a.settle_ms, Some(0));
    }

    #[test]
    fn settings_not_given_stay_unset_for_the_config_and_profile() {
        let a = check(&["--", "srv"]);
        assert_eq!(a.protocol, None);
        assert_eq!(a.timeout_ms, None);
        assert_eq!(a.repeat, None);
        assert_eq!(a.adversarial, None);
        assert_eq!(a.capability_probes, None);
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
    fn probe_flags_add_and_set() {
        let a = check(&[
            "--adversarial-probe",
            "notification",
            "--adversarial-probe",
            "invalid-method",
            "--",
            "s",
        ]);
        assert_eq!(
            a.adversarial,
            Some(vec![Probe::Notification, Probe::InvalidMethod])
        );
        let a = check(&["--adversarial-probes", "none", "--", "s"]);
        assert_eq!(a.adversarial, Some(vec![]));
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
        assert!(usage_error(&["--color", "blue", "--", "s"]).contains("auto, always, never"));
        assert!(usage_error(&["--env", "=x", "--", "s"]).contains("non-empty NAME"));
        assert!(usage_error(&["--json=yes", "--", "s"]).contains("hint:"));
    }

    #[test]
    fn numbers_outside_their_documented_range_are_refused() {
        let huge = "18446744073709551616";
        assert!(usage_error(&["--timeout", huge, "--", "s"]).contains("at most 3600000 ms"));
        assert!(
            usage_error(&["--max-stdout-line-bytes", "18446744073709551615", "--", "s"])
                .contains("at most 268435456 bytes")
        );
        assert!(usage_error(&["--settle", "60001", "--", "s"]).contains("at most 60000 ms"));
        assert!(usage_error(&["--repeat", "101", "--", "s"]).contains("at most 100 runs"));
        assert!(usage_error(&["--protocol", "garbage", "--", "s"]).contains("2025-11-25"));
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
    fn every_option_is_in_the_help_text_and_parses() {
        let help = help_main();
        for o in OPTIONS.iter().filter(|o| o.scope != Scope::Scan) {
            assert!(
                help.contains(&format!("--{}", o.long)),
                "{} missing",
                o.long
            );
            // Every table entry is a flag the parser knows.
            let err = parse([format!("--{}", o.long)])
                .err()
                .map(|e| e.to_string());
            assert!(
                !err.as_deref().unwrap_or("").contains("unknown option"),
                "--{} is in OPTIONS but not parsed",
                o.long
            );
        }
    }
}
