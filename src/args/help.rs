//! `--help` (the overview and each command's), the manual page (`help
//! --man`, roff) and the shell completions (`completions bash|zsh|fish`),
//! all made from the one declaration of every setting (`settings`) and
//! every command (`cli::COMMANDS`): an option cannot be documented in one
//! and missing from another.

use std::fmt::Write as _;

use crate::args::cli::{COMMANDS, spec_of};
use crate::args::settings::{Cmd, Fallback, HELP_FLAGS, SETTINGS, Setting};
use crate::args::words::Shell;

/// `--long <value>` as help shows it.
fn flag_text(s: &Setting) -> Option<String> {
    let long = s.long?;
    let mut text = match s.short {
        Some(c) => format!("-{c}, --{long}"),
        None => format!("--{long}"),
    };
    if let Some(v) = placeholder(s) {
        text.push(' ');
        text.push_str(v);
    }
    Some(text)
}

fn placeholder(s: &Setting) -> Option<&'static str> {
    match s.kind {
        crate::args::settings::Kind::Word(_) => match s.long {
            Some("profile") => Some("<name>"),
            Some("era") => Some("<era>"),
            Some("color") => Some("<when>"),
            Some("annotations") => Some("<kind>"),
            Some("adversarial-probe") => Some("<name>"),
            _ => Some("<list>"),
        },
        other => other.placeholder(),
    }
}

fn default_text(s: &Setting) -> Option<&'static str> {
    match s.default {
        Fallback::Value(v) | Fallback::Note(v) => Some(v),
        Fallback::None => None,
    }
}

/// Two columns, continuation lines indented.
fn columns(rows: &[(String, Vec<String>)]) -> String {
    const COLUMN: usize = 30;
    let mut out = String::new();
    for (left, lines) in rows {
        for (i, line) in lines.iter().enumerate() {
            let left = if i == 0 { left.as_str() } else { "" };
            if left.len() + 2 >= COLUMN {
                let _ = writeln!(out, "  {left}\n{:COLUMN$}{line}", "");
            } else {
                let _ = writeln!(out, "  {left:<w$}{line}", w = COLUMN - 2);
            }
        }
    }
    out
}

/// The options a command takes, then `--help` and `--version`.
pub fn options_of(cmd: Cmd) -> String {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    for s in SETTINGS.iter().filter(|s| s.scope.contains(&cmd)) {
        let Some(flag) = flag_text(s) else { continue };
        let mut lines: Vec<String> = s.help.lines().map(String::from).collect();
        if let (Some(d), Some(last)) = (default_text(s), lines.last_mut()) {
            let _ = write!(last, " [default: {d}]");
        }
        rows.push((flag, lines));
    }
    for (long, short, help) in HELP_FLAGS {
        rows.push((format!("-{short}, --{long}"), vec![(*help).to_string()]));
    }
    columns(&rows)
}

/// The commands column: each name, then its help, aligned past the
/// longest name.
pub fn commands_text() -> String {
    let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0) + 2;
    let mut out = String::new();
    for c in COMMANDS {
        for (i, line) in c.help.lines().enumerate() {
            let left = if i == 0 { c.name } else { "" };
            let _ = writeln!(out, "  {left:<width$}{line}");
        }
    }
    out
}

/// The usage line of every command.
pub fn usage_lines() -> String {
    COMMANDS
        .iter()
        .map(|c| format!("  {}\n", c.usage))
        .collect()
}

const EXIT_STATUS: &str = "\
Exit status: 0 no error issue, 1 at least one error issue, 2 usage or I/O error of the
guard, 130/143/129/131 interrupted by SIGINT/SIGTERM/SIGHUP/SIGQUIT.
";

/// `--help`: what the guard is, every command, and `check`'s options.
pub fn help_main() -> String {
    format!(
        "\
mcp-stdio-guard: run an MCP stdio server through a real session and judge every byte it writes.

MCP stdio output is expected as newline-delimited JSON-RPC on stdout; logs belong on stderr.

Usage:
{}
Commands:
{}
Options of check (and of tools, call and bench; 'mcp-stdio-guard help <command>' lists each):
{}
{EXIT_STATUS}
Examples:
  mcp-stdio-guard -- node ./server.js
  mcp-stdio-guard --request tools/list -- python -u server.py
  mcp-stdio-guard --json --env API_TOKEN -- npx -y @scope/server
",
        usage_lines(),
        commands_text(),
        options_of(Cmd::Check)
    )
}

/// The options `-h` shows for `check`: the ones a first run needs.
const SHORT_CHECK: &[&str] = &["json", "request", "env", "timeout", "profile", "confine"];

/// `-h`: one screen, the first options a user reaches for; `--help` has
/// them all.
pub fn help_short(cmd: Cmd) -> String {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let chosen = |s: &&Setting| {
        s.scope.contains(&cmd)
            && (cmd != Cmd::Check || s.long.is_some_and(|l| SHORT_CHECK.contains(&l)))
    };
    for s in SETTINGS.iter().filter(chosen).take(8) {
        let Some(flag) = flag_text(s) else { continue };
        rows.push((flag, s.help.lines().map(String::from).collect()));
    }
    let (name, usage, what) = if cmd == Cmd::Check {
        (
            "mcp-stdio-guard".to_string(),
            spec_of(Cmd::Check).usage.to_string(),
            "run an MCP stdio server through a real session and judge every byte it writes"
                .to_string(),
        )
    } else {
        let spec = spec_of(cmd);
        (
            format!("mcp-stdio-guard {}", spec.name),
            spec.usage.to_string(),
            spec.help.lines().collect::<Vec<_>>().join(" "),
        )
    };
    let mut out = format!(
        "{name}: {what}

Usage: {usage}

"
    );
    if cmd == Cmd::Check {
        let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        let _ = writeln!(
            out,
            "Commands: {}
",
            names.join(", ")
        );
    }
    let _ = write!(
        out,
        "Options (the first ones; --help lists all):
{}
Example: {}
",
        columns(&rows),
        spec_of(cmd).example
    );
    out
}

/// `help <command>`: its usage, what it does, its options.
pub fn help_of(cmd: Cmd) -> String {
    if cmd == Cmd::Check {
        return help_main();
    }
    let spec = spec_of(cmd);
    let what: Vec<&str> = spec.help.lines().collect();
    let extra = match cmd {
        Cmd::Scan => {
            "\nEach path is a directory (walked, skipping .git node_modules dist build coverage\n.next .cache target venv .venv __pycache__ vendor, never following a symlink) or\na source file, read as code: comments and strings skipped, calls followed over\nlines. Files over 1 MiB and minified files are skipped and counted.\n"
        }
        Cmd::Demo => {
            "\nThe first server answers correctly; the second prints a banner on stdout before it\nspeaks, which corrupts the MCP stream. The demo exits 0 when the clean server\npasses and the polluted one fails.\n"
        }
        _ => "",
    };
    format!(
        "mcp-stdio-guard {}: {}\n{extra}\nUsage:\n  {}\n\nOptions:\n{}\n{EXIT_STATUS}",
        spec.name,
        what.join(" "),
        spec.usage,
        options_of(cmd)
    )
}

/// Text safe in roff: backslashes and leading dots or quotes escaped.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The help text of a setting on one line.
fn one_line(s: &Setting) -> String {
    let mut text = s.help.lines().collect::<Vec<_>>().join(" ");
    if let Some(d) = default_text(s) {
        let _ = write!(text, " [default: {d}]");
    }
    let commands: Vec<&str> = s.scope.iter().map(|c| c.name()).collect();
    let _ = write!(text, " ({})", commands.join(", "));
    text
}

/// `help --man`: the manual page, roff (`man -l -` reads it).
pub fn man_page() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        ".TH MCP-STDIO-GUARD 1 \"\" \"mcp-stdio-guard {}\" \"User Commands\"",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str(".SH NAME\nmcp\\-stdio\\-guard \\- run an MCP stdio server through a real session and judge every byte it writes\n");
    out.push_str(".SH SYNOPSIS\n");
    for c in COMMANDS {
        let _ = writeln!(out, ".br\n{}", roff(c.usage));
    }
    out.push_str(".SH DESCRIPTION\nMCP stdio servers use stdout as the wire. The guard starts the server, runs a real MCP session in the protocol era it speaks, judges every line on stdout, stops the server without leaving a process behind, and reports what is wrong, as text, JSON, JUnit, SARIF or GitHub annotations.\n");
    out.push_str(".SH COMMANDS\n");
    for c in COMMANDS {
        let _ = writeln!(
            out,
            ".TP\n.B {}\n{}",
            roff(c.name),
            roff(&c.help.lines().collect::<Vec<_>>().join(" "))
        );
    }
    out.push_str(".SH OPTIONS\n");
    for s in SETTINGS {
        let Some(flag) = flag_text(s) else { continue };
        let _ = writeln!(out, ".TP\n.B {}\n{}", roff(&flag), roff(&one_line(s)));
    }
    for (long, short, help) in HELP_FLAGS {
        let _ = writeln!(out, ".TP\n.B \\-{short}, \\-\\-{long}\n{help}");
    }
    out.push_str(".SH EXIT STATUS\n0: no error found. 1: an error found (or the tool call failed). 2: the guard's own usage or I/O error. 128+N: interrupted by signal N.\n");
    out.push_str(".SH SEE ALSO\n\\fBmcp\\-stdio\\-guard help codes\\fR lists every issue code; the pages under docs/ are the full manual.\n");
    out
}

/// One flag as completions see it: `(long, short, takes a value, words,
/// help)`.
type Completion = (
    &'static str,
    Option<char>,
    bool,
    &'static [&'static str],
    &'static str,
);

/// Every flag, for completions.
fn flags() -> Vec<Completion> {
    let mut out: Vec<_> = SETTINGS
        .iter()
        .filter_map(|s| {
            let long = s.long?;
            Some((
                long,
                s.short,
                s.takes_value(),
                s.choices(),
                s.help.lines().next().unwrap_or(""),
            ))
        })
        .collect();
    for (long, short, help) in HELP_FLAGS {
        out.push((long, Some(*short), false, &[], help));
    }
    out
}

/// `completions SHELL`: a completion script for the shell.
pub fn completions(shell: Shell) -> String {
    let commands: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    match shell {
        Shell::Bash => bash(&commands),
        Shell::Zsh => zsh(&commands),
        Shell::Fish => fish(&commands),
    }
}

fn bash(commands: &[&str]) -> String {
    let all = flags();
    let names: Vec<String> = all.iter().map(|f| format!("--{}", f.0)).collect();
    let mut cases = String::new();
    for (long, _, value, words, _) in all.iter().filter(|f| f.2) {
        let _ = value;
        let reply = if words.is_empty() {
            "COMPREPLY=($(compgen -f -- \"$cur\"))".to_string()
        } else {
            format!(
                "COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))",
                words.join(" ")
            )
        };
        let _ = writeln!(cases, "        --{long}) {reply}; return ;;");
    }
    format!(
        "# bash completion for mcp-stdio-guard (mcp-stdio-guard completions bash)
_mcp_stdio_guard() {{
    local cur prev
    cur=\"${{COMP_WORDS[COMP_CWORD]}}\"
    prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
        [[ \"${{COMP_WORDS[i]}}\" == -- ]] && {{ COMPREPLY=($(compgen -c -- \"$cur\")); return; }}
    done
    case \"$prev\" in
{cases}    esac
    if [[ \"$cur\" == -* ]]; then
        COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))
    fi
}}
complete -F _mcp_stdio_guard mcp-stdio-guard
",
        names.join(" "),
        commands.join(" ")
    )
}

fn zsh_escape(text: &str) -> String {
    text.replace('\'', "'\\''")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace(':', "\\:")
}

fn zsh(commands: &[&str]) -> String {
    let mut specs = String::new();
    for (long, _, value, words, help) in flags() {
        let help = zsh_escape(help);
        let value = match (value, words.is_empty()) {
            (false, _) => String::new(),
            (true, true) => ":value:_files".to_string(),
            (true, false) => format!(":value:({})", words.join(" ")),
        };
        let _ = writeln!(specs, "    '--{long}[{help}]{value}' \\");
    }
    format!(
        "#compdef mcp-stdio-guard
# zsh completion for mcp-stdio-guard (mcp-stdio-guard completions zsh)
_mcp_stdio_guard() {{
  _arguments -s \\
{specs}    '1: :({})' \\
    '*:: :_normal'
}}
_mcp_stdio_guard \"$@\"
",
        commands.join(" ")
    )
}

fn fish(commands: &[&str]) -> String {
    let mut out =
        String::from("# fish completion for mcp-stdio-guard (mcp-stdio-guard completions fish)\n");
    let _ = writeln!(
        out,
        "complete -c mcp-stdio-guard -n '__fish_use_subcommand' -f -a '{}'",
        commands.join(" ")
    );
    for (long, short, value, words, help) in flags() {
        let help = help.replace('\'', "\\'");
        let mut line = format!("complete -c mcp-stdio-guard -l {long}");
        if let Some(c) = short {
            let _ = write!(line, " -s {c}");
        }
        match (value, words.is_empty()) {
            (false, _) => {}
            (true, true) => line.push_str(" -r -F"),
            (true, false) => {
                let _ = write!(line, " -x -a '{}'", words.join(" "));
            }
        }
        let _ = writeln!(out, "{line} -d '{help}'");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_and_command_is_in_the_man_page_and_every_completion() {
        let man = man_page();
        let scripts = [Shell::Bash, Shell::Zsh, Shell::Fish].map(completions);
        for s in SETTINGS {
            let Some(long) = s.long else { continue };
            assert!(
                man.contains(&format!("\\-\\-{}", roff(long))),
                "man lacks --{long}"
            );
            for script in &scripts {
                assert!(
                    script.contains(&format!("--{long}")) || script.contains(&format!("-l {long}")),
                    "a completion lacks --{long}"
                );
            }
            for choice in s.choices() {
                assert!(scripts.iter().all(|sc| sc.contains(choice)), "{choice}");
            }
        }
        for c in COMMANDS {
            assert!(man.contains(&roff(c.name)));
            assert!(scripts.iter().all(|s| s.contains(c.name)), "{}", c.name);
        }
    }

    #[test]
    fn the_help_lists_every_command_in_usage_and_in_the_commands_column() {
        let help = help_main();
        for c in COMMANDS {
            assert!(help.contains(c.usage), "usage lacks {}", c.name);
            let row = help
                .lines()
                .find(|l| l.trim_start().starts_with(c.name))
                .unwrap_or_else(|| panic!("commands column lacks {}", c.name));
            // The name and its help are apart, never run together.
            let rest = &row.trim_start()[c.name.len()..];
            assert!(rest.starts_with("  "), "{row:?}");
        }
        for cmd in [
            Cmd::Tools,
            Cmd::Call,
            Cmd::Bench,
            Cmd::Batch,
            Cmd::Scan,
            Cmd::Demo,
        ] {
            let text = help_of(cmd);
            for s in SETTINGS.iter().filter(|s| s.scope.contains(&cmd)) {
                if let Some(long) = s.long {
                    assert!(
                        text.contains(&format!("--{long}")),
                        "{}: --{long}",
                        cmd.name()
                    );
                }
            }
        }
    }

    #[test]
    fn every_probe_is_named_in_the_help() {
        let help = help_main();
        for p in crate::args::words::Probe::NAMES {
            assert!(help.contains(p), "--help names no {p}");
        }
    }

    #[test]
    fn roff_text_cannot_start_a_request() {
        assert_eq!(roff(".x"), "\\&.x");
        assert_eq!(roff("a-b\\c"), "a\\-b\\ec");
    }
}
