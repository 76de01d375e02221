//! The audit procedure's verdict of one run: `pass` when the handshake and
//! the tool list both answered (the opening with a protocol version and
//! server information, the list non-empty with a name and an input schema
//! on every tool) and no error was found; `fail` on an error reply or a
//! wrong reply (a server that exited or could not start included);
//! `inconclusive` when the server stayed silent and nothing else is known.
//! The first rule that matches decides, and says so in words.

use serde_json::Value;

use crate::session::{EndedBy, Speaks};
use crate::verdict::run::RunReport;

/// The verdict of the probe procedure, and the rule that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `pass`, `fail` or `inconclusive`.
    pub word: &'static str,
    pub reason: String,
}

fn verdict_of(word: &'static str, reason: impl Into<String>) -> Verdict {
    Verdict {
        word,
        reason: reason.into(),
    }
}

/// The procedure's verdict: pass when the handshake and the tool list both
/// answered (the opening with a protocol version and server information,
/// the list non-empty with a name and an input schema on every tool) and
/// no error was found; fail on an error reply or a wrong reply (a server
/// that exited or could not start included); inconclusive when the server
/// stayed silent, and nothing else is known.
pub fn verdict(run: &RunReport) -> Verdict {
    let opening = if run.era.as_ref().is_some_and(|e| e.speaks == Speaks::Modern) {
        "server/discover"
    } else {
        "initialize"
    };
    let died = run.shutdown.ended_by == EndedBy::ItsOwnExit;
    if let Some(v) = opening_verdict(run, opening, died) {
        return v;
    }
    if let Some(v) = tools_verdict(run, died, &exit_text(run)) {
        return v;
    }
    let errors: Vec<&str> = run
        .issues
        .iter()
        .filter(|i| i.is_error())
        .map(|i| i.code.as_str())
        .collect();
    if !errors.is_empty() {
        return verdict_of("fail", format!("error issues: {}", errors.join(", ")));
    }
    verdict_of(
        "pass",
        format!(
            "{opening} answered with a protocol version and server information, and tools/list with {}",
            crate::plural::count(run.tool_count, "tool")
        ),
    )
}

/// How the server ended, in words.
fn exit_text(run: &RunReport) -> String {
    run.shutdown
        .exit
        .map_or("its own exit".to_string(), |e| match (e.code, e.signal) {
            (Some(c), _) => format!("code {c}"),
            (None, Some(s)) => crate::sys::signal_name(s).to_string(),
            _ => "an unknown status".into(),
        })
}

/// The opening's part of the verdict (start, answer, version, server
/// information), when it decides.
fn opening_verdict(run: &RunReport, opening: &str, died: bool) -> Option<Verdict> {
    if let Some(e) = &run.spawn_error {
        return Some(verdict_of(
            "fail",
            format!("the command could not be started: {}", e.message),
        ));
    }
    if !run.init_replied {
        return Some(if died {
            verdict_of(
                "fail",
                format!(
                    "the server exited ({}) before it answered {opening}",
                    exit_text(run)
                ),
            )
        } else if run.stdout_bytes == 0 {
            verdict_of(
                "inconclusive",
                format!("the server stayed silent: no byte on stdout, no answer to {opening}"),
            )
        } else {
            verdict_of(
                "fail",
                format!(
                    "the server wrote {} bytes on stdout but no answer to {opening}",
                    run.stdout_bytes
                ),
            )
        });
    }
    if opening == "initialize" && run.init_result.is_none() {
        return Some(verdict_of("fail", "initialize answered with an error"));
    }
    let version = if opening == "initialize" {
        run.init_result
            .as_ref()
            .and_then(|r| r.get("protocolVersion"))
            .is_some_and(Value::is_string)
    } else {
        !run.facts.protocol.is_empty()
    };
    if !version {
        return Some(verdict_of(
            "fail",
            format!("the {opening} reply carries no protocol version"),
        ));
    }
    if !run.server_info.as_ref().is_some_and(Value::is_object) {
        return Some(verdict_of(
            "fail",
            format!("the {opening} reply carries no server information"),
        ));
    }
    if !run.initialized {
        return Some(verdict_of(
            "fail",
            format!("{opening} answered with an error or an unusable result"),
        ));
    }
    None
}

/// The tool list's part of the verdict, when it decides.
fn tools_verdict(run: &RunReport, died: bool, exit: &str) -> Option<Verdict> {
    let list = run.lists.iter().find(|l| l.spec.method == "tools/list");
    if !run.tools_asked {
        return Some(verdict_of(
            "fail",
            "no tool list was asked: the server advertises no tools capability",
        ));
    }
    if let Some(error) = list.and_then(|l| l.error.as_ref()) {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("");
        return Some(verdict_of(
            "fail",
            format!("tools/list answered with an error: {message}"),
        ));
    }
    if !run.tools_answered {
        if died {
            return Some(verdict_of(
                "fail",
                format!("the server exited ({exit}) before it answered tools/list"),
            ));
        }
        return Some(verdict_of(
            "inconclusive",
            "the server stayed silent after the handshake: no answer to tools/list",
        ));
    }
    if run.tool_count == 0 {
        return Some(verdict_of("fail", "tools/list answered with an empty list"));
    }
    run.tool_unusable.map(|i| {
        verdict_of(
            "fail",
            format!("tool {i} of tools/list has no name or no inputSchema"),
        )
    })
}
