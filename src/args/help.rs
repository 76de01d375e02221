//! The manual page (`help --man`, roff) and the shell completions
//! (`completions bash|zsh|fish`), generated from the one option table of
//! `cli` (`OPTIONS`, `COMMANDS`), the table `--help` prints: an option
//! cannot be documented in one and missing from another.

use std::fmt::Write as _;

use crate::args::cli::{COMMANDS, OPTIONS, OptSpec};
use crate::args::words::Shell;

/// Text safe in roff: backslashes and leading dots or quotes escaped.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The help text of an option on one line.
fn one_line(o: &OptSpec) -> String {
    let mut text = o.help.lines().collect::<Vec<_>>().join(" ");
    if let Some(d) = o.default {
        let _ = write!(text, " [default: {d}]");
    }
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
    out.push_str(".SH SYNOPSIS\n.B mcp\\-stdio\\-guard\n[\\fIcommand\\fR] [\\fIOPTIONS\\fR] \\-\\- \\fIserver\\fR [\\fIargs\\fR...]\n");
    out.push_str(".SH DESCRIPTION\nMCP stdio servers use stdout as the wire. The guard starts the server, runs a real MCP session in the protocol era it speaks, judges every line on stdout, stops the server without leaving a process behind, and reports what is wrong, as text, JSON, JUnit, SARIF or GitHub annotations.\n");
    out.push_str(".SH COMMANDS\n");
    for (name, what) in COMMANDS {
        let _ = writeln!(
            out,
            ".TP\n.B {}\n{}",
            roff(name),
            roff(&what.lines().collect::<Vec<_>>().join(" "))
        );
    }
    out.push_str(".SH OPTIONS\n");
    for o in OPTIONS {
        let mut flag = format!("\\-\\-{}", roff(o.long));
        if let Some(c) = o.short {
            flag = format!("\\-{c}, {flag}");
        }
        if let Some(v) = o.value {
            let _ = write!(flag, " \\fI{}\\fR", roff(v));
        }
        let _ = writeln!(out, ".TP\n.B {flag}\n{}", roff(&one_line(o)));
    }
    out.push_str(".SH EXIT STATUS\n0: no error found. 1: an error found (or the tool call failed). 2: the guard's own usage or I/O error. 128+N: interrupted by signal N.\n");
    out.push_str(".SH SEE ALSO\n\\fBmcp\\-stdio\\-guard help codes\\fR lists every issue code; README.md is the full manual.\n");
    out
}

fn words(o: &OptSpec) -> String {
    o.choices.join(" ")
}

/// `completions SHELL`: a completion script for the shell.
pub fn completions(shell: Shell) -> String {
    let commands: Vec<&str> = COMMANDS.iter().map(|(n, _)| *n).collect();
    match shell {
        Shell::Bash => bash(&commands),
        Shell::Zsh => zsh(&commands),
        Shell::Fish => fish(&commands),
    }
}

fn bash(commands: &[&str]) -> String {
    let flags: Vec<String> = OPTIONS.iter().map(|o| format!("--{}", o.long)).collect();
    let mut cases = String::new();
    for o in OPTIONS.iter().filter(|o| o.value.is_some()) {
        let reply = if o.choices.is_empty() {
            "COMPREPLY=($(compgen -f -- \"$cur\"))".to_string()
        } else {
            format!("COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))", words(o))
        };
        let _ = writeln!(cases, "        --{}) {reply}; return ;;", o.long);
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
        flags.join(" "),
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
    for o in OPTIONS {
        let help = zsh_escape(o.help.lines().next().unwrap_or(""));
        let value = match (o.value, o.choices.is_empty()) {
            (None, _) => String::new(),
            (Some(v), true) => format!(":{}:_files", zsh_escape(v)),
            (Some(v), false) => format!(":{}:({})", zsh_escape(v), words(o)),
        };
        let _ = writeln!(specs, "    '--{}[{help}]{value}' \\", o.long);
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
    for o in OPTIONS {
        let help = o.help.lines().next().unwrap_or("").replace('\'', "\\'");
        let mut line = format!("complete -c mcp-stdio-guard -l {}", o.long);
        if let Some(c) = o.short {
            let _ = write!(line, " -s {c}");
        }
        match (o.value, o.choices.is_empty()) {
            (None, _) => {}
            (Some(_), true) => line.push_str(" -r -F"),
            (Some(_), false) => {
                let _ = write!(line, " -x -a '{}'", words(o));
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
        for o in OPTIONS {
            assert!(
                man.contains(&format!("\\-\\-{}", roff(o.long))),
                "man lacks --{}",
                o.long
            );
            for s in &scripts {
                assert!(
                    s.contains(&format!("--{}", o.long)) || s.contains(&format!("-l {}", o.long)),
                    "a completion lacks --{}",
                    o.long
                );
            }
            for choice in o.choices {
                assert!(scripts.iter().all(|s| s.contains(choice)), "{choice}");
            }
        }
        for (name, _) in COMMANDS {
            assert!(man.contains(&roff(name)));
            assert!(scripts.iter().all(|s| s.contains(name)), "{name}");
        }
    }

    #[test]
    fn roff_text_cannot_start_a_request() {
        assert_eq!(roff(".x"), "\\&.x");
        assert_eq!(roff("a-b\\c"), "a\\-b\\ec");
    }
}
