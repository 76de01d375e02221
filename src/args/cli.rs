//! Command-line parsing: argv in, plain validated data out. Every flag is
//! looked up in `settings::SETTINGS`; its values are kept in order, as a
//! layer, and applied once to a scratch `Settings` here so a bad value is
//! a usage error before anything else happens (`resolve` applies them for
//! real, over the profile and the config file). No I/O.
//!
//! Everything after the first literal `--` is the server's argv, verbatim
//! (for `batch`, options for each check; for `scan`, more paths): the
//! guard never splits a command string and never guesses whose flag a flag
//! is.

use std::ffi::OsString;

use lexopt::prelude::*;

use crate::args::settings::{self, Cmd, Setting, Settings, Value, apply_layer};
use crate::args::words;
use crate::error::Error;

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// A command with its flags and operands.
    Run(Box<Args>),
    Help(HelpTopic),
    Version,
    /// `completions SHELL`: a completion script.
    Completions(words::Shell),
    /// Hidden: run one of the built-in demo servers on this process's stdio.
    Serve(DemoServer),
    /// Hidden, for the tests of the panic path: start the server of a
    /// check, then panic while it runs.
    Panic(Box<Args>),
    /// Hidden: `wrap`'s watcher of the server's process group.
    Watch,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpTopic {
    /// The overview, and `check`'s options.
    Main,
    Of(Cmd),
    /// `-h`: a command's short summary (`--help` is the long one).
    Short(Cmd),
    /// `help <topic>` of a topic there is not: exit 2 with the list.
    Unknown(String),
    /// `help codes`: every issue code with its class and severity.
    Codes,
    /// `help --man`: the manual page, roff.
    Man,
}

/// The built-in servers `demo` runs (and the overhead benchmark reuses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoServer {
    /// A well-behaved server: initialize, tools/list, ping, exit on EOF.
    Clean,
    /// The same server, but it prints a banner on stdout before speaking.
    Banner,
}

/// A command as given: its flags (in order), its operands, and what
/// followed `--`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    pub cmd: Cmd,
    pub flags: Vec<(&'static Setting, Value)>,
    pub operands: Vec<OsString>,
    pub after: Vec<OsString>,
}

impl Args {
    /// The last value of a flag, when given.
    pub fn last(&self, long: &str) -> Option<&Value> {
        self.flags
            .iter()
            .rev()
            .find(|(s, _)| s.long == Some(long))
            .map(|(_, v)| v)
    }
}

/// One command, as `--help` lists it.
#[derive(Debug, Clone, Copy)]
pub struct CommandSpec {
    pub name: &'static str,
    /// The command it runs (`None`: help, completions).
    pub cmd: Option<Cmd>,
    pub usage: &'static str,
    pub help: &'static str,
    /// An example, for "this flag belongs to ..." hints.
    pub example: &'static str,
}

/// The subcommands, in `--help` order.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "check",
        cmd: Some(Cmd::Check),
        usage: "mcp-stdio-guard [check] [OPTIONS] -- <command> [args...]",
        help: "start the server, run initialize, --request and the capability probes, judge\nevery stdout line, report (default)",
        example: "mcp-stdio-guard --request tools/list -- node server.js",
    },
    CommandSpec {
        name: "tools",
        cmd: Some(Cmd::Tools),
        usage: "mcp-stdio-guard tools [OPTIONS] -- <command> [args...]",
        help: "list the server's tools (every page): a table, or with --json the server's\nown tool objects; exit 0 when the list came without error issues",
        example: "mcp-stdio-guard tools -- node server.js",
    },
    CommandSpec {
        name: "call",
        cmd: Some(Cmd::Call),
        usage: "mcp-stdio-guard call <tool> [--arg NAME=VALUE]... [--args JSON] [OPTIONS] -- <command>",
        help: "call one tool: --arg values are typed from its inputSchema; the result is\nprinted and checked; exit 1 when it is an error",
        example: "mcp-stdio-guard call echo --arg text=hi -- node server.js",
    },
    CommandSpec {
        name: "bench",
        cmd: Some(Cmd::Bench),
        usage: "mcp-stdio-guard bench [--concurrency N] [--requests N] [--tool NAME --arg ...] [OPTIONS] -- <command>",
        help: "measure the server: cold start, warm latency, tools/list, and a burst with\n--concurrency requests in flight (--samples, --requests, --duration,\n--method or --tool NAME --arg ..., --allow-side-effects)",
        example: "mcp-stdio-guard bench --concurrency 8 -- node server.js",
    },
    CommandSpec {
        name: "batch",
        cmd: Some(Cmd::Batch),
        usage: "mcp-stdio-guard batch <manifest> [--jobs N] [--shard K/N] [--out FILE] [-- check options]",
        help: "check every server of a manifest (mcpServers/servers map), --jobs at a time:\nJSONL results (--out), --shard K/N, --merge, --junit, --sarif, --summary",
        example: "mcp-stdio-guard batch servers.json --jobs 4 --out results.jsonl",
    },
    CommandSpec {
        name: "servers",
        cmd: Some(Cmd::Servers),
        usage: "mcp-stdio-guard servers [--json] [--host NAME]... [--project DIR]",
        help: "list every MCP server configured on this machine, in every host's config\n(host, scope, file:line, name, transport, enabled, command, env names); starts\nnothing",
        example: "mcp-stdio-guard servers --host cursor",
    },
    CommandSpec {
        name: "doctor",
        cmd: Some(Cmd::Doctor),
        usage: "mcp-stdio-guard doctor [--json] [--jobs N] [--host NAME]... [--project DIR] [-- check options]",
        help: "check every enabled stdio server of every host's config as its host would\nstart it, each launch once, --jobs at a time; exit 1 when one fails",
        example: "mcp-stdio-guard doctor --jobs 4 --html fleet.html",
    },
    CommandSpec {
        name: "wrap",
        cmd: Some(Cmd::Wrap),
        usage: "mcp-stdio-guard wrap [--name NAME] [--log-dir DIR] [--log-content] -- <command> [args...]",
        help: "stand in for the server in a host's config: relay the host's live session\nbyte for byte, judge a copy, log each session (0600, under the state\ndirectory), exit with the server's status; --install HOST:NAME rewrites a\nconfig entry to go through wrap, --uninstall undoes it",
        example: "mcp-stdio-guard wrap --name files -- npx -y @modelcontextprotocol/server-filesystem .",
    },
    CommandSpec {
        name: "log",
        cmd: Some(Cmd::Log),
        usage: "mcp-stdio-guard log [--json] [--html FILE] [NAME|FILE]",
        help: "the judged report of a wrapped server's last session (or of a log file);\nwithout an operand, the server whose session ended last",
        example: "mcp-stdio-guard log files",
    },
    CommandSpec {
        name: "scan",
        cmd: Some(Cmd::Scan),
        usage: "mcp-stdio-guard scan [--json] [--diff | --fix] [--sarif FILE] <path>...",
        help: "find code that writes to stdout, without running anything: comments and\nstrings are skipped; --diff shows and --fix writes the moves to stderr;\nexit 1 when something is found (or left), 2 for a missing path",
        example: "mcp-stdio-guard scan src",
    },
    CommandSpec {
        name: "lint",
        cmd: Some(Cmd::Lint),
        usage: "mcp-stdio-guard lint [--json] [--sarif FILE] <file|->...",
        help: "lint tool, prompt and resource definitions from files, starting nothing: a\ntools/list result, a bare array of tools, JSONL of results, a server.json,\nbatch results; exit 1 on an error finding",
        example: "mcp-stdio-guard lint tools.json",
    },
    CommandSpec {
        name: "demo",
        cmd: Some(Cmd::Demo),
        usage: "mcp-stdio-guard demo [--color WHEN]",
        help: "check two servers built into this binary: one clean, one with a stdout banner",
        example: "mcp-stdio-guard demo",
    },
    CommandSpec {
        name: "completions",
        cmd: None,
        usage: "mcp-stdio-guard completions bash|zsh|fish",
        help: "print a completion script for bash, zsh or fish",
        example: "mcp-stdio-guard completions bash",
    },
    CommandSpec {
        name: "help",
        cmd: None,
        usage: "mcp-stdio-guard help [<command>|codes|--man]",
        help: "print help for a command, the issue-code table (help codes), or the\nmanual page (help --man)",
        example: "mcp-stdio-guard help codes",
    },
];

pub const HELP_HINT: &str = "run 'mcp-stdio-guard --help' for the options";

/// The spec of a command.
pub fn spec_of(cmd: Cmd) -> &'static CommandSpec {
    COMMANDS
        .iter()
        .find(|c| c.cmd == Some(cmd))
        .expect("invariant: every command is in COMMANDS")
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, Error>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let after = match args.iter().position(|a| a == "--") {
        Some(at) => {
            let rest = args.split_off(at + 1);
            args.pop();
            Some(rest)
        }
        None => None,
    };
    // The command is the first word that is neither an option nor an
    // option's value: options may stand before it (`--json tools`, as in
    // cargo and ripgrep).
    let at = command_position(&args);
    let first = at
        .and_then(|i| args.get(i))
        .and_then(|a| a.to_str())
        .map(String::from);
    let named = first.as_deref().and_then(|a| {
        COMMANDS
            .iter()
            .find(|c| c.name == a)
            .map(|c| c.name)
            .or((a == "__serve").then_some("__serve"))
            .or((a == "__panic").then_some("__panic"))
            .or((a == "__watch").then_some("__watch"))
    });
    if let (Some(_), Some(i)) = (named, at) {
        args.remove(i);
    }
    match named {
        Some("help") => Ok(Command::Help(help_topic(&args))),
        Some("completions") => completions(&args),
        Some("__serve") => serve(&args),
        Some("__watch") if args.is_empty() => Ok(Command::Watch),
        Some("__watch") => Err(Error::usage("__watch takes no argument", "")),
        Some("__panic") => match parse_command(Cmd::Check, args, after)? {
            Command::Run(a) => Ok(Command::Panic(a)),
            other => Ok(other),
        },
        Some(name) => {
            let cmd = COMMANDS
                .iter()
                .find(|c| c.name == name)
                .and_then(|c| c.cmd)
                .unwrap_or(Cmd::Check);
            parse_command(cmd, args, after)
        }
        None => parse_command(Cmd::Check, args, after),
    }
}

/// Where the command word stands: the first argument that is not an
/// option or the value of one (`--timeout 3000 tools`). `None` when every
/// argument is an option.
fn command_position(args: &[OsString]) -> Option<usize> {
    let mut i = 0;
    while i < args.len() {
        let Some(a) = args[i].to_str() else {
            return Some(i);
        };
        if !a.starts_with('-') || a == "-" {
            return Some(i);
        }
        let takes_value = |s: Option<&'static Setting>| s.is_some_and(|s| s.takes_value());
        let value_follows = match a.strip_prefix("--") {
            Some(long) if !long.contains('=') => takes_value(settings::by_flag(long)),
            Some(_) => false,
            None => a.len() == 2 && takes_value(a.chars().nth(1).and_then(settings::by_short)),
        };
        i += if value_follows { 2 } else { 1 };
    }
    None
}

fn help_topic(args: &[OsString]) -> HelpTopic {
    match args.first().and_then(|a| a.to_str()) {
        Some("codes") => HelpTopic::Codes,
        Some("--man" | "man") => HelpTopic::Man,
        Some("check") => HelpTopic::Main,
        Some(name) => COMMANDS
            .iter()
            .find(|c| c.name == name)
            .map_or(HelpTopic::Unknown(name.to_string()), |c| {
                c.cmd.map_or(HelpTopic::Main, HelpTopic::Of)
            }),
        None => HelpTopic::Main,
    }
}

fn completions(args: &[OsString]) -> Result<Command, Error> {
    let shell = args.first().and_then(|a| a.to_str()).unwrap_or("");
    shell.parse().map(Command::Completions).map_err(|_| {
        Error::usage(
            format!("completions needs a shell: bash, zsh or fish, not '{shell}'"),
            "as in: mcp-stdio-guard completions bash > /etc/bash_completion.d/mcp-stdio-guard",
        )
    })
}

fn serve(args: &[OsString]) -> Result<Command, Error> {
    match args.first().and_then(|a| a.to_str()) {
        Some("clean") if args.len() == 1 => Ok(Command::Serve(DemoServer::Clean)),
        Some("banner") if args.len() == 1 => Ok(Command::Serve(DemoServer::Banner)),
        _ => Err(Error::usage("__serve takes 'clean' or 'banner'", "")),
    }
}

/// The flags and operands of one command.
fn parse_command(
    cmd: Cmd,
    args: Vec<OsString>,
    after: Option<Vec<OsString>>,
) -> Result<Command, Error> {
    let mut a = Args {
        cmd,
        after: after.clone().unwrap_or_default(),
        ..Args::default()
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser
        .next()
        .map_err(|e| Error::usage(e.to_string(), HELP_HINT))?
    {
        let name = match arg {
            Short('h') => return Ok(Command::Help(HelpTopic::Short(cmd))),
            Long("help") => return Ok(Command::Help(HelpTopic::Of(cmd))),
            Short('V') | Long("version") => return Ok(Command::Version),
            Value(v) => {
                a.operands.push(v);
                continue;
            }
            Short(c) => format!("-{c}"),
            Long(l) => format!("--{l}"),
        };
        let setting = find(cmd, &name)?;
        let text = if setting.takes_value() {
            value(&mut parser, &name)?
        } else {
            String::new()
        };
        a.flags.push((setting, Value::flag(setting, &text)));
    }
    check(&a, after.is_some())?;
    Ok(Command::Run(Box::new(a)))
}

/// The setting a flag names, for a command that takes it.
fn find(cmd: Cmd, name: &str) -> Result<&'static Setting, Error> {
    if matches!(
        name,
        "--token" | "--auth" | "--header" | "-H" | "--bearer" | "--api-key"
    ) {
        return Err(Error::usage(
            format!("{name} is not an option of the guard: a stdio pipe carries no credential"),
            "pass it to the server: --env NAME=VALUE, or in its own arguments after --",
        ));
    }
    let setting = match name.strip_prefix("--") {
        Some(long) => settings::by_flag(long),
        None => name.chars().nth(1).and_then(settings::by_short),
    };
    let Some(setting) = setting else {
        return Err(unknown_flag(name));
    };
    if setting.scope.contains(&cmd) {
        return Ok(setting);
    }
    match setting.scope.first() {
        Some(owner) if setting.scope.len() < 3 => Err(Error::usage(
            format!("{name} belongs to the {} command", owner.name()),
            format!("as in: {}", spec_of(*owner).example),
        )),
        _ => Err(Error::usage(
            format!("{name} is not an option of {}", cmd.name()),
            format!("run 'mcp-stdio-guard help {}' for its options", cmd.name()),
        )),
    }
}

fn unknown_flag(name: &str) -> Error {
    let longs: Vec<String> = settings::SETTINGS
        .iter()
        .filter_map(|s| s.long)
        .map(|l| format!("--{l}"))
        .collect();
    let hint = match words::closest(name, longs.iter().map(String::as_str), 2) {
        Some(s) => format!("did you mean {s}? {HELP_HINT}"),
        None => HELP_HINT.to_string(),
    };
    Error::usage(format!("unknown option {name}"), hint)
}

/// Reads a flag's value as UTF-8 text. A value that is empty or looks like
/// another long flag means the user forgot the value.
fn value(parser: &mut lexopt::Parser, flag: &str) -> Result<String, Error> {
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

/// A flag's problem as the user's error.
pub fn flag_error(p: settings::Problem) -> Error {
    Error::usage(p.text, p.hint.unwrap_or_else(|| HELP_HINT.to_string()))
}

/// The operands and `--` a command takes.
fn operands_fit(a: &Args, dashed: bool) -> Result<(), Error> {
    match a.cmd {
        Cmd::Call if a.operands.is_empty() => {
            return Err(Error::usage(
                "call needs the name of the tool to call",
                format!("as in: {}", spec_of(Cmd::Call).example),
            ));
        }
        Cmd::Call if a.operands.len() == 1 => {}
        Cmd::Scan if a.operands.is_empty() && a.after.is_empty() => {
            return Err(Error::usage(
                "scan needs at least one path",
                "as in: mcp-stdio-guard scan src",
            ));
        }
        Cmd::Scan => {}
        Cmd::Lint if a.operands.is_empty() && a.after.is_empty() => {
            return Err(Error::usage(
                "lint needs at least one file (or - for stdin)",
                "as in: mcp-stdio-guard lint tools.json",
            ));
        }
        Cmd::Lint => {}
        Cmd::Batch if a.operands.is_empty() && a.last("merge").is_none() => {
            return Err(Error::usage(
                "batch needs a manifest (or --merge with result files)",
                format!("as in: {}", spec_of(Cmd::Batch).example),
            ));
        }
        Cmd::Batch if a.operands.len() == 1 || a.last("merge").is_some() => {}
        Cmd::Wrap if dashed && (a.last("install").is_some() || a.last("uninstall").is_some()) => {
            return Err(Error::usage(
                "--install and --uninstall take no command: they rewrite the config entry",
                "as in: mcp-stdio-guard wrap --install cursor:files",
            ));
        }
        Cmd::Wrap if a.last("install").is_some() || a.last("uninstall").is_some() => {}
        Cmd::Wrap if !dashed => {
            return Err(Error::usage(
                "wrap needs the server command after --",
                format!("as in: {}", spec_of(Cmd::Wrap).example),
            ));
        }
        Cmd::Log if a.operands.len() <= 1 => {}
        Cmd::Servers if dashed => {
            return Err(Error::usage(
                "servers takes no command: it lists what the hosts' configs name",
                "use 'mcp-stdio-guard doctor' to check them",
            ));
        }
        Cmd::Demo if dashed => {
            return Err(Error::usage(
                "demo takes no server command",
                "it checks two servers built into the binary; use 'mcp-stdio-guard -- <command>' for yours",
            ));
        }
        _ if !a.operands.is_empty() => {
            let extra = a
                .operands
                .last()
                .map(|o| o.to_string_lossy())
                .unwrap_or_default();
            return Err(Error::usage(
                format!("unexpected argument '{extra}'"),
                "put the server command after --, as in: mcp-stdio-guard -- node server.js",
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The rules a command line must keep on its own: every value fits, the
/// operands are the command's, and a session has a server to start.
fn check(a: &Args, dashed: bool) -> Result<(), Error> {
    let mut scratch = Settings::defaults(a.cmd);
    apply_layer(&mut scratch, &a.flags).map_err(flag_error)?;
    let has_config = a.last("config").is_some();
    operands_fit(a, dashed)?;
    if a.cmd.runs_a_session() {
        if a.last("params").is_some() && a.last("request").is_none() {
            return Err(Error::usage(
                "--params can only be used with --request",
                "add --request METHOD, for example --request tools/list",
            ));
        }
        if a.last("server").is_some() && !has_config {
            return Err(Error::usage(
                "--server picks an entry of a --config file",
                "as in: mcp-stdio-guard --config claude_desktop_config.json --server weather",
            ));
        }
        if a.after.is_empty() && !has_config {
            return Err(Error::usage(
                "missing server command",
                "put it after --, as in: mcp-stdio-guard -- node server.js",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(args: &[&str]) -> Args {
        match parse(args.iter().copied()) {
            Ok(Command::Run(a)) => *a,
            other => panic!("expected a command, got {other:?}"),
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
        let a = run_args(&["--json", "--", "node", "--json", "-h", "--"]);
        assert_eq!(a.flags.len(), 1);
        assert_eq!(a.after, ["node", "--json", "-h", "--"]);
    }

    #[test]
    fn check_subcommand_is_optional() {
        assert_eq!(run_args(&["check", "--", "srv"]), run_args(&["--", "srv"]));
    }

    #[test]
    fn both_value_forms_are_accepted() {
        let a = run_args(&["--timeout=250", "--settle", "0", "--", "srv"]);
        let texts: Vec<_> = a.flags.iter().map(|(_, v)| v.given.clone()).collect();
        assert_eq!(
            texts,
            [
                settings::Given::Text("250".into()),
                settings::Given::Text("0".into())
            ]
        );
    }

    #[test]
    fn bad_input_is_a_usage_error_with_a_hint() {
        assert!(usage_error(&["--bogus", "--", "srv"]).contains("unknown option --bogus"));
        assert!(usage_error(&["--jsn", "--", "srv"]).contains("did you mean --json"));
        assert!(usage_error(&["--timeout", "--", "srv"]).contains("--timeout requires a value"));
        assert!(usage_error(&["--timeout", "abc", "--", "srv"]).contains("whole number"));
        assert!(
            usage_error(&["--timeout", "99", "--", "srv"])
                .contains("from 100 to 3600000 ms, not 99")
        );
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
        assert!(usage_error(&["node", "server.js"]).contains("unexpected argument"));
        assert!(usage_error(&["--color", "blue", "--", "s"]).contains("auto, always, never"));
        assert!(usage_error(&["--env", "=x", "--", "s"]).contains("non-empty NAME"));
        assert!(usage_error(&["--json=yes", "--", "s"]).contains("hint:"));
        assert!(usage_error(&["--samples", "3", "--", "s"]).contains("belongs to the bench"));
        assert!(usage_error(&["--arg", "a=1", "--", "s"]).contains("belongs to the call"));
        assert!(usage_error(&["call", "--", "s"]).contains("the name of the tool"));
    }

    #[test]
    fn numbers_outside_their_documented_range_are_refused() {
        let huge = "18446744073709551616";
        assert!(usage_error(&["--timeout", huge, "--", "s"]).contains("at most 3600000 ms"));
        assert!(
            usage_error(&["--max-stdout-line-bytes", "18446744073709551615", "--", "s"])
                .contains("to 268435456 bytes, not 18446744073709551615")
        );
        assert!(usage_error(&["--settle", "60001", "--", "s"]).contains("to 60000 ms, not 60001"));
        assert!(usage_error(&["--repeat", "101", "--", "s"]).contains("from 1 to 100 runs"));
        assert!(usage_error(&["--protocol", "garbage", "--", "s"]).contains("2025-11-25"));
    }

    #[test]
    fn help_and_version_win_over_a_missing_command() {
        assert_eq!(
            parse(["-h"]).ok(),
            Some(Command::Help(HelpTopic::Short(Cmd::Check)))
        );
        assert_eq!(
            parse(["--help"]).ok(),
            Some(Command::Help(HelpTopic::Of(Cmd::Check)))
        );
        assert_eq!(
            parse(["help", "nosuch"]).ok(),
            Some(Command::Help(HelpTopic::Unknown("nosuch".into())))
        );
        assert_eq!(
            parse(["--json", "tools", "--", "s"]).ok().map(|c| matches!(
                c,
                Command::Run(a) if a.cmd == Cmd::Tools && a.last("json").is_some()
            )),
            Some(true),
            "a global option before the subcommand"
        );
        assert_eq!(parse(["--version"]).ok(), Some(Command::Version));
        assert_eq!(parse(["help"]).ok(), Some(Command::Help(HelpTopic::Main)));
        assert_eq!(
            parse(["demo", "--help"]).ok(),
            Some(Command::Help(HelpTopic::Of(Cmd::Demo)))
        );
        assert_eq!(
            parse(["help", "bench"]).ok(),
            Some(Command::Help(HelpTopic::Of(Cmd::Bench)))
        );
    }

    #[test]
    fn demo_rejects_a_server_command() {
        assert!(parse(["demo"]).is_ok());
        assert!(parse(["demo", "--", "srv"]).is_err());
    }

    #[test]
    fn every_flag_of_the_table_parses_for_its_commands() {
        for s in settings::SETTINGS {
            let Some(long) = s.long else { continue };
            for cmd in s.scope {
                let mut argv = vec![spec_of(*cmd).name.to_string(), format!("--{long}")];
                if s.takes_value() {
                    argv.push("x".into());
                }
                let err = parse(argv).err().map(|e| e.to_string()).unwrap_or_default();
                assert!(
                    !err.contains("unknown option") && !err.contains("belongs to"),
                    "--{long} ({}): {err}",
                    cmd.name()
                );
            }
        }
    }
}
