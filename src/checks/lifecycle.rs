//! The process's life as issues: the launch (spawn failure, Python
//! buffering), timeouts, exits by phase, and how the shutdown went.

use serde_json::Value;

use crate::checks::{Code, Context, Issue};
use crate::session::child::Exit;
use crate::session::transcript::{Entry, EntryKind, SpawnError, Transcript};
use crate::session::{EndedBy, Role, Stage, Stop, Target};
use crate::sys;

pub fn spawn_failed(e: &SpawnError) -> Issue {
    Issue::new(Code::SpawnFailed, e.message.clone())
        .with("detailCode", "spawn-failed-before-startup")
        .with("phase", "startup")
        .with("spawnErrorCode", e.code.clone())
}

fn code_text(exit: &Exit) -> String {
    exit.code.map_or("null".to_string(), |c| c.to_string())
}

fn signal_text(exit: &Exit) -> String {
    exit.signal.map_or("null".to_string(), sys::signal_name)
}

fn signal_value(exit: &Exit) -> Value {
    exit.signal
        .map_or(Value::Null, |s| sys::signal_name(s).into())
}

/// `clean-`, `nonzero-` or `signal-` for detail codes.
fn exit_kind(exit: &Exit) -> &'static str {
    if exit.signal.is_some() {
        "signal"
    } else if exit.code == Some(0) {
        "clean"
    } else {
        "nonzero"
    }
}

fn with_exit(issue: Issue, exit: &Exit) -> Issue {
    issue
        .with("exitCode", exit.code.map_or(Value::Null, Value::from))
        .with("signal", signal_value(exit))
}

/// Issues that belong to one transcript entry: timeouts and exits.
pub fn entry(tr: &Transcript, entry: &Entry, out: &mut Vec<Issue>) {
    match &entry.kind {
        EntryKind::Timeout {
            target: target @ (Target::Initialize | Target::Discover),
            ms,
        } => {
            let issue = Issue::new(
                Code::InitializeTimeout,
                format!(
                    "no {} response within {ms}ms (a server that is slow to start needs a longer --startup-timeout)",
                    tr.method_of(*target)
                ),
            )
            .with("detailCode", "startup-timeout")
            .with("phase", "initialize")
            .with("timeoutMs", *ms);
            // What it was busy with, in its own words (a database it waits
            // for, a model it downloads, a key it lacks).
            out.push(match last_words(tr, Some(entry.at_ms)) {
                Some(said) => said.explain(issue),
                None => issue,
            });
        }
        EntryKind::Timeout {
            target: target @ Target::Probe(_),
            ms,
        } => {
            let method = tr.method_of(*target);
            let (also, skipped) = skipped_after(tr, *target);
            let issue = Issue::new(
                Code::CapabilityListTimeout,
                format!(
                    "no {method} response within {ms}ms, though the server advertises the capability{also}"
                ),
            )
            .with("method", method)
            .with("timeoutMs", *ms);
            out.push(with_skipped(issue, skipped));
        }
        // Judged with the probe: adversarial-probe-timeout.
        EntryKind::Timeout {
            target: Target::Adversarial(_),
            ..
        } => {}
        EntryKind::Timeout { target, ms } => {
            let method = tr.method_of(*target);
            let (also, skipped) = skipped_after(tr, *target);
            let issue = Issue::new(
                Code::OperationTimeout,
                format!("no {method} response within {ms}ms{also}"),
            )
            .with("detailCode", "request-timeout")
            .with("phase", "operation")
            .with("timeoutMs", *ms);
            out.push(with_skipped(issue, skipped));
        }
        EntryKind::Exited { exit, stage } => {
            if let Some(issue) = exit_issue(tr, exit, *stage, out) {
                out.push(issue);
            }
        }
        _ => {}
    }
}

/// The capability probes not sent to the same silence, which the
/// session's first unanswered request carries as its consequences: a
/// clause for its message, and the methods.
fn skipped_after(tr: &Transcript, target: Target) -> (String, Vec<String>) {
    let first = tr.entries.iter().find_map(|e| match e.kind {
        EntryKind::Timeout {
            target: t @ (Target::Op(_) | Target::Probe(_)),
            ..
        } => Some(t),
        _ => None,
    });
    if first != Some(target) || tr.skipped_lists.is_empty() {
        return (String::new(), Vec::new());
    }
    let also = format!(
        " (not sent again to the same silence, one finding for it: the capability probe of {})",
        tr.skipped_lists.join(", ")
    );
    (also, tr.skipped_lists.clone())
}

fn with_skipped(issue: Issue, skipped: Vec<String>) -> Issue {
    if skipped.is_empty() {
        issue
    } else {
        issue.with("skippedProbes", skipped)
    }
}

/// What a server that died said on stderr: the line that names the cause
/// (`checks::said`), and whether it asks for configuration (a missing API
/// key, token or argument: the usual reason a published server exits at
/// once), with the variables it names.
struct LastWords {
    line: String,
    names: Vec<String>,
    config: bool,
}

/// What the server said on stderr (all that was kept, up to `until`,
/// milliseconds since the spawn, when given).
fn last_words(tr: &Transcript, until: Option<u64>) -> Option<LastWords> {
    let text = match until {
        None => tr.stderr.text(),
        Some(at) => {
            let mut text = String::new();
            for e in tr.entries.iter().filter(|e| e.at_ms <= at) {
                if let EntryKind::StderrLine { bytes, .. } = &e.kind {
                    text.push_str(&String::from_utf8_lossy(bytes));
                    text.push('\n');
                }
            }
            text
        }
    };
    let said = crate::checks::said::read(&text);
    Some(LastWords {
        line: said.quote()?.to_string(),
        names: said.names,
        config: said.config,
    })
}

impl LastWords {
    /// The issue with what the server said, and, when it asks for
    /// configuration, that plainly, with the variables to pass.
    fn explain(self, issue: Issue) -> Issue {
        let quote = crate::escape::quote(self.line.as_bytes());
        let mut message = format!("{}: it said {quote}", issue.message);
        if self.config {
            message.push_str("; it needs configuration the guard did not give it");
            if !self.names.is_empty() {
                let flags: Vec<String> = self.names.iter().map(|n| format!("--env {n}")).collect();
                message.push_str(&format!(" (pass {})", flags.join(", ")));
            }
        }
        let mut issue = Issue { message, ..issue }.with("stderrLastLine", self.line);
        if self.config {
            issue = issue
                .with("needsConfiguration", true)
                .with("variables", self.names);
        }
        issue
    }
}

fn crashed(exit: &Exit, status: &str, kind: &str) -> Issue {
    with_exit(
        Issue::new(
            Code::ServerCrashed,
            format!("server exited after initialize ({status})"),
        )
        .with("detailCode", format!("{kind}-exit-after-initialize"))
        .with("phase", "post-initialize"),
        exit,
    )
}

/// The issue of an exit at `stage`; a crash during a probe pushes its
/// `server-crashed` to `out` first.
fn exit_issue(tr: &Transcript, exit: &Exit, stage: Stage, out: &mut Vec<Issue>) -> Option<Issue> {
    let status = format!("code {}, signal {}", code_text(exit), signal_text(exit));
    let kind = exit_kind(exit);
    let issue = match stage {
        Stage::Shutdown => return None,
        Stage::Initialize
            if tr.spawn_error.is_none() && tr.init_reply.is_none() && !tr.handshake =>
        {
            let opening = if tr.modern() {
                "server/discover"
            } else {
                "initialize"
            };
            let mut issue = Issue::new(
                Code::ServerExited,
                format!("server exited before {opening} completed ({status})"),
            )
            .with("detailCode", format!("{kind}-exit-before-initialize"))
            .with("phase", "initialize");
            if let Some(said) = last_words(tr, None) {
                issue = said.explain(issue);
            }
            issue
        }
        Stage::Initialize => return None,
        Stage::Operation(i) => Issue::new(
            Code::OperationMissingResponse,
            format!(
                "{} did not receive a response before server exit ({status})",
                tr.method_of(Target::Op(i))
            ),
        )
        .with("detailCode", format!("{kind}-exit-during-operation"))
        .with("phase", "operation"),
        Stage::Probe(i) => {
            // A crash is named as such (a runtime problem) as well as the
            // list it left unanswered (a broken contract).
            if !exit.is_clean() {
                out.push(crashed(exit, &status, kind));
            }
            Issue::new(
                Code::CapabilityListMissingResponse,
                format!(
                    "{} did not receive a response before server exit ({status})",
                    tr.method_of(Target::Probe(i))
                ),
            )
            .with("method", tr.method_of(Target::Probe(i)))
            .with("phase", "post-initialize")
        }
        // Judged with the probe: adversarial-probe-crash.
        Stage::Adversarial(_) => return None,
        Stage::PostInitialize if !exit.is_clean() => return Some(crashed(exit, &status, kind)),
        // A host would see a dead connection (scout's `stdio.alive`).
        Stage::PostInitialize => Issue::new(
            Code::ServerExitedEarly,
            format!(
                "the server exited on its own ({status}) while its stdin was still open; a host would see a dead connection"
            ),
        )
        .with("detailCode", "clean-exit-while-open")
        .with("phase", "post-initialize"),
    };
    Some(with_exit(issue, exit))
}

/// Issues about the whole run, known only at its end.
pub fn after(ctx: &Context, tr: &Transcript, out: &mut Vec<Issue>) {
    let sd = &tr.shutdown;
    let interrupted = matches!(tr.stop, Some(Stop::Interrupted(_)));
    if !interrupted && sd.stdin_closed_at_ms.is_some() {
        let needed = match sd.ended_by {
            EndedBy::Sigterm => Some("SIGTERM"),
            EndedBy::Sigkill | EndedBy::Unknown => Some("SIGKILL"),
            EndedBy::StdinClose | EndedBy::ItsOwnExit => None,
        };
        if let Some(signal) = needed {
            out.push(
                Issue::new(Code::ShutdownSignalRequired,
                    format!(
                        "server did not exit within {}ms after its stdin was closed; it needed {signal}",
                        ctx.grace_ms
                    ),
                )
                .with("signal", signal)
                .with("graceMs", ctx.grace_ms),
            );
        }
    }
    if !sd.orphans.is_empty() {
        let list: Vec<String> = sd
            .orphans
            .iter()
            .map(|(pid, cmd)| format!("{pid} {cmd}"))
            .collect();
        let processes: Vec<serde_json::Value> = sd
            .orphans
            .iter()
            .map(|(pid, cmd)| crate::obj! {"pid" => pid, "command" => cmd})
            .collect();
        out.push(
            Issue::new(
                Code::OrphanedProcesses,
                format!(
                    "{} process(es) of the server were still running after it exited, and the guard killed them: {}",
                    sd.orphans.len(),
                    list.join("; ")
                ),
            )
            .with("processes", processes),
        );
    }
    if sd.stdout_held_open {
        let also = if sd.stderr_held_open {
            " (and stderr)"
        } else {
            ""
        };
        out.push(Issue::new(Code::StdoutHeldOpen,
            format!(
                "stdout{also} stayed open after the server's process group was gone: a process that left the group (setsid, a double fork) still holds it and was not waited for"
            ),
        ));
    }
    if let Some(issue) = shutdown_error(tr) {
        out.push(issue);
    }
    if tr.stderr.truncated() {
        out.push(
            Issue::new(Code::StderrOutputLimitExceeded,
                format!(
                    "stderr passed the {}-byte capture limit (--max-stderr-bytes) with {} bytes; the report keeps its first and last bytes",
                    ctx.max_stderr_bytes,
                    tr.stderr.total()
                ),
            )
            .with("stderrBytes", tr.stderr.total())
            .with("limit", ctx.max_stderr_bytes),
        );
    }
}

/// A crash on the way out: after the guard closed stdin, the server exited
/// by itself with a non-zero code (or a signal), or wrote an error, such as
/// a close handler that recurses until the stack runs out.
fn shutdown_error(tr: &Transcript) -> Option<Issue> {
    let sd = &tr.shutdown;
    let closed = sd.stdin_closed_at_ms?;
    if sd.ended_by != EndedBy::StdinClose || matches!(tr.stop, Some(Stop::Interrupted(_))) {
        return None;
    }
    let mut text = String::new();
    for e in tr.entries.iter().filter(|e| e.at_ms >= closed) {
        if let EntryKind::StderrLine { bytes, .. } = &e.kind {
            text.push_str(&String::from_utf8_lossy(bytes));
            text.push('\n');
        }
    }
    let said = crate::checks::said::read(&text);
    let exit = sd.exit?;
    if exit.is_clean() && said.cause.is_none() {
        return None;
    }
    let status = format!("code {}, signal {}", code_text(&exit), signal_text(&exit));
    let mut message =
        format!("after the guard closed its stdin to stop it, the server exited ({status})");
    if let Some(line) = said.cause.as_deref().or(said.last.as_deref()) {
        message.push_str(&format!(
            ": it said {}",
            crate::escape::quote(line.as_bytes())
        ));
    }
    Some(with_exit(
        Issue::new(Code::ShutdownError, message).with("phase", "shutdown"),
        &exit,
    ))
}

/// A command that printed its usage text and exited before it spoke MCP:
/// that is the root cause, and the lines it wrote (`stdout-non-json`) and
/// its exit (`server-exited`) are folded into it as consequences.
pub fn fold_usage(tr: &Transcript, issues: &mut Vec<Issue>) {
    let Some(exited) = issues.iter().position(|i| i.code == Code::ServerExited) else {
        return;
    };
    let mut stdout = String::new();
    for e in &tr.entries {
        if let EntryKind::Line(l) = &e.kind
            && !matches!(l.line, crate::jsonrpc::Line::Message(_))
        {
            stdout.push_str(&String::from_utf8_lossy(&l.bytes));
            stdout.push('\n');
        }
    }
    let said = crate::checks::said::read(&stdout);
    let usage = said
        .usage
        .or_else(|| crate::checks::said::read(&tr.stderr.text()).usage);
    let Some(subcommands) = usage else { return };
    let folded = |c: Code| matches!(c, Code::StdoutNonJson | Code::StdoutEmptyLine);
    let mut consequences: Vec<&'static str> = Vec::new();
    for issue in issues.iter().filter(|i| folded(i.code)) {
        if !consequences.contains(&issue.code.as_str()) {
            consequences.push(issue.code.as_str());
        }
    }
    consequences.push("server-exited");
    let status = issues[exited].message.clone();
    let hint = if subcommands.is_empty() {
        "it may need arguments to start a server".to_string()
    } else {
        format!(
            "it may need a subcommand to start a server: it lists {}",
            subcommands.join(", ")
        )
    };
    let root = Issue::new(
        Code::ServerPrintedUsage,
        format!(
            "the command printed its usage text and exited before it spoke MCP; {hint} (what follows from it is not reported apart: {}; {status})",
            consequences.join(", ")
        ),
    )
    .with("subcommands", subcommands)
    .with("consequences", consequences)
    .with("phase", "initialize");
    issues.retain(|i| !folded(i.code) && i.code != Code::ServerExited);
    issues.insert(0, root);
}

/// Whether the server is a Python interpreter that may block-buffer its
/// stdout: by its argv, or by the program that really ran (a `#!` script).
pub fn python_may_buffer(ctx: &crate::checks::Context, tr: &Transcript) -> bool {
    if python_is_buffered(&ctx.argv, &ctx.env) {
        return true;
    }
    let Some(exe) = &tr.executable else {
        return false;
    };
    let mut argv = vec![exe.clone()];
    // A script run through its shebang: the interpreter's options are not
    // known, the script is what follows.
    argv.push("script".into());
    python_is_buffered(&argv, &ctx.env)
}

/// The method of the first request the server had read when the guard gave
/// up on it, and whose reply came only once its stdin was closed: what a
/// block-buffered stdout, flushed at exit, looks like. A request still
/// unread in the pipe when the guard gave up is a server still starting,
/// whenever its reply comes.
pub fn replies_held_back(tr: &Transcript) -> Option<String> {
    let closed = tr.shutdown.stdin_closed_at_ms?;
    tr.entries.iter().find_map(|e| match &e.kind {
        EntryKind::Line(l) if e.at_ms >= closed => match l.role {
            Role::LateReply(target)
                if target != Target::Discover && !tr.unread_at_timeout.contains(&target) =>
            {
                Some(tr.method_of(target).to_string())
            }
            _ => None,
        },
        _ => None,
    })
}

/// Whether a Python server will block-buffer its stdout: the program is a
/// `python`/`python3.12` interpreter, no `-u` is among the interpreter's own
/// options (those before the script, `-m` or `-c`), and PYTHONUNBUFFERED is
/// unset or empty in the server's environment.
pub fn python_is_buffered(argv: &[String], env: &[(String, String)]) -> bool {
    let Some(program) = argv.first() else {
        return false;
    };
    let base = program
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(program)
        .to_ascii_lowercase();
    let base = base.strip_suffix(".exe").unwrap_or(&base);
    let Some(version) = base.strip_prefix("python") else {
        return false;
    };
    if !version
        .split('.')
        .all(|p| p.is_empty() || p.bytes().all(|b| b.is_ascii_digit()))
        || version.starts_with('.')
    {
        return false;
    }
    if env
        .iter()
        .any(|(k, v)| k == "PYTHONUNBUFFERED" && !v.is_empty())
    {
        return false;
    }
    let mut args = argv[1..].iter();
    while let Some(arg) = args.next() {
        let Some(flags) = arg.strip_prefix('-') else {
            return true; // the script: interpreter options end here
        };
        if flags.is_empty() || flags.starts_with('-') {
            if arg == "--" {
                return true;
            }
            continue; // --long options (--version, ...)
        }
        for (i, f) in flags.char_indices() {
            match f {
                'u' => return false,
                'c' | 'm' => return true,
                // These take a value: the rest of the cluster or the next arg.
                'X' | 'W' | 'Q' => {
                    if i + 1 == flags.len() {
                        args.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited_saying(lines: &str) -> Option<LastWords> {
        let mut tr = Transcript::for_tests();
        tr.stderr.push(lines.as_bytes());
        last_words(&tr, None)
    }

    #[test]
    fn a_server_that_asks_for_a_key_is_told_apart_from_a_crash() {
        let asks =
            exited_saying("starting\nError: BRAVE_API_KEY environment variable is required\n")
                .expect("words");
        assert!(asks.config);
        assert_eq!(asks.names, ["BRAVE_API_KEY"]);
        assert_eq!(
            asks.line,
            "Error: BRAVE_API_KEY environment variable is required"
        );
        let crash = exited_saying(
            "SyntaxError: Unexpected token } in JSON at position 12\n    at JSON.parse (<anonymous>)\n",
        )
        .expect("words");
        assert!(!crash.config, "a crash is no request for configuration");
        assert_eq!(
            crash.line,
            "SyntaxError: Unexpected token } in JSON at position 12"
        );
        assert!(exited_saying("").is_none());
        let issue = asks.explain(Issue::new(Code::ServerExited, "server exited (code 1)"));
        assert_eq!(
            issue.message,
            "server exited (code 1): it said \"Error: BRAVE_API_KEY environment variable is required\"; it needs configuration the guard did not give it (pass --env BRAVE_API_KEY)"
        );
        assert_eq!(issue.detail("needsConfiguration"), Some(&Value::Bool(true)));
    }
    use crate::checks::Severity;
    use crate::session::transcript::Shutdown;

    fn argv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn python_buffering_is_detected_from_the_interpreter_options_only() {
        let env = vec![];
        assert!(python_is_buffered(&argv(&["python3", "server.py"]), &env));
        assert!(python_is_buffered(
            &argv(&["/usr/bin/python3.12", "-m", "srv"]),
            &env
        ));
        assert!(python_is_buffered(
            &argv(&["python", "-Xutf8", "s.py"]),
            &env
        ));
        assert!(python_is_buffered(&argv(&["python", "s.py", "-u"]), &env));
        assert!(python_is_buffered(
            &argv(&["python", "-X", "utf8", "s.py"]),
            &env
        ));
        assert!(!python_is_buffered(
            &argv(&["python3", "-u", "server.py"]),
            &env
        ));
        assert!(!python_is_buffered(
            &argv(&["python3", "-Bu", "server.py"]),
            &env
        ));
        assert!(!python_is_buffered(&argv(&["node", "server.js"]), &env));
        assert!(!python_is_buffered(&argv(&["pythonista"]), &env));
        let set = vec![("PYTHONUNBUFFERED".to_string(), "1".to_string())];
        assert!(!python_is_buffered(&argv(&["python3", "server.py"]), &set));
        let empty = vec![("PYTHONUNBUFFERED".to_string(), String::new())];
        assert!(python_is_buffered(&argv(&["python3", "server.py"]), &empty));
    }

    fn transcript_with(entries: Vec<EntryKind>) -> Transcript {
        let mut tr = Transcript::with_op("tools/list");
        tr.entries = entries
            .into_iter()
            .map(|kind| Entry { at_ms: 1, kind })
            .collect();
        tr
    }

    fn issues_of(tr: &Transcript) -> Vec<Issue> {
        let mut out = Vec::new();
        for e in &tr.entries {
            entry(tr, e, &mut out);
        }
        out
    }

    #[test]
    fn exits_are_classified_by_the_stage_they_interrupt() {
        let exit1 = Exit {
            code: Some(1),
            signal: None,
        };
        let clean = Exit {
            code: Some(0),
            signal: None,
        };
        let killed = Exit {
            code: None,
            signal: Some(9),
        };
        let cases = [
            (
                Stage::Initialize,
                clean,
                Some(("server-exited", "clean-exit-before-initialize")),
            ),
            (
                Stage::Initialize,
                killed,
                Some(("server-exited", "signal-exit-before-initialize")),
            ),
            (
                Stage::Operation(0),
                exit1,
                Some((
                    "operation-missing-response",
                    "nonzero-exit-during-operation",
                )),
            ),
            (
                Stage::PostInitialize,
                exit1,
                Some(("server-crashed", "nonzero-exit-after-initialize")),
            ),
            (
                Stage::PostInitialize,
                clean,
                Some(("server-exited-early", "clean-exit-while-open")),
            ),
            (Stage::Shutdown, exit1, None),
        ];
        for (stage, exit, expected) in cases {
            let tr = transcript_with(vec![EntryKind::Exited { exit, stage }]);
            let got = issues_of(&tr);
            let got = got.first().map(|i| {
                let detail = i.details.iter().find(|(k, _)| *k == "detailCode");
                (
                    i.code.as_str(),
                    detail
                        .and_then(|(_, v)| v.as_str())
                        .unwrap_or("")
                        .to_string(),
                )
            });
            let expected = expected.map(|(c, d)| (c, d.to_string()));
            assert_eq!(got, expected, "{stage:?} {exit:?}");
        }
    }

    #[test]
    fn timeouts_name_the_method_and_the_limit() {
        let tr = transcript_with(vec![
            EntryKind::Timeout {
                target: Target::Initialize,
                ms: 300,
            },
            EntryKind::Timeout {
                target: Target::Op(0),
                ms: 400,
            },
        ]);
        let got = issues_of(&tr);
        assert_eq!(
            got[0].message,
            "no initialize response within 300ms (a server that is slow to start needs a longer --startup-timeout)"
        );
        assert_eq!(got[1].message, "no tools/list response within 400ms");
        assert_eq!(got[1].severity, Severity::Error);
    }

    #[test]
    fn a_server_that_needed_a_signal_gets_a_warning() {
        let mut tr = transcript_with(vec![]);
        tr.shutdown = Shutdown {
            ended_by: EndedBy::Sigterm,
            stdin_closed_at_ms: Some(5),
            ..tr.shutdown.clone()
        };
        let ctx = Context {
            argv: vec![],
            env: vec![],
            max_stdout_bytes: 1,
            max_stdout_line_bytes: 1,
            max_stderr_bytes: 1,
            grace_ms: 2000,
            protocol: "2025-11-25".into(),
            opening: crate::plan::Opening::Legacy,
            strict: false,
            parent_unbuffered: false,
            context_budget: 10_000,
            confine_enforcing: false,
        };
        let mut out = Vec::new();
        after(&ctx, &tr, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, "shutdown-signal-required");
        assert_eq!(out[0].severity, Severity::Warning);
        assert!(out[0].message.contains("needed SIGTERM"));
    }
}
