//! The evidence record of a run (`--evidence`): one JSON object, appended
//! as one line by `evidence`. It states what the server is (the `Facts`
//! that `--against` compares), what was called, and the verdict.

use serde_json::{Map, Value, json};

use crate::checks::drift::Facts;
use crate::plan::Plan;
use crate::report::{Report, RunReport};
use crate::session::{EndedBy, Speaks};

/// The facts a record states about what the server is: identity,
/// protocol, tools.
pub fn facts_value(f: &Facts) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        "server".into(),
        json!({"name": f.server_name, "version": f.server_version}),
    );
    m.insert(
        "negotiatedProtocol".into(),
        if f.protocol.is_empty() {
            Value::Null
        } else {
            f.protocol.clone().into()
        },
    );
    if let Some(tools) = &f.tools {
        // Names copied as the server wrote them, never derived.
        m.insert("toolCount".into(), tools.len().into());
        m.insert("tools".into(), Value::Array(tools.clone()));
    }
    m
}

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
            "{opening} answered with a protocol version and server information, and tools/list with {} tools",
            run.tools.len()
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
    if run.tools.is_empty() {
        return Some(verdict_of("fail", "tools/list answered with an empty list"));
    }
    let bad = run.tools.iter().position(|t| {
        !t.get("name").is_some_and(Value::is_string)
            || !t.get("inputSchema").is_some_and(Value::is_object)
    });
    bad.map(|i| {
        verdict_of(
            "fail",
            format!("tool {i} of tools/list has no name or no inputSchema"),
        )
    })
}

/// The call and a summary of its result, when the run made one.
fn call_summary(run: &RunReport) -> Value {
    let Some(op) = run.cli_call() else {
        return match &run.call_problem {
            Some(problem) => json!({"called": false, "problem": problem}),
            None => Value::Null,
        };
    };
    let params = op.params.clone().unwrap_or(Value::Null);
    let mut m = Map::new();
    m.insert("called".into(), true.into());
    m.insert(
        "tool".into(),
        params.get("name").cloned().unwrap_or(Value::Null),
    );
    m.insert(
        "arguments".into(),
        params.get("arguments").cloned().unwrap_or(Value::Null),
    );
    m.insert("responded".into(), op.responded.into());
    if let Some(error) = &op.error {
        m.insert("error".into(), error.clone());
    }
    if let Some(result) = &op.result {
        let blocks = result.get("content").and_then(Value::as_array);
        m.insert(
            "isError".into(),
            result.get("isError").cloned().unwrap_or(false.into()),
        );
        m.insert("contentBlocks".into(), blocks.map_or(0, Vec::len).into());
        let text = crate::checks::toolcall::text_of(result);
        let short: String = text.chars().take(500).collect();
        m.insert("text".into(), short.into());
        m.insert(
            "structuredContent".into(),
            result.get("structuredContent").is_some().into(),
        );
    }
    Value::Object(m)
}

/// The evidence record of one run (its `time` is stamped when it is
/// appended).
pub fn evidence(r: &Report, run: &RunReport, file: &std::path::Path) -> Value {
    let plan: &Plan = r.plan;
    let mut m = Map::new();
    m.insert("time".into(), "".into());
    m.insert("host".into(), crate::sys::hostname().into());
    m.insert(
        "guard".into(),
        json!({"name": "mcp-stdio-guard", "version": env!("CARGO_PKG_VERSION")}),
    );
    m.insert("evidenceFile".into(), file.display().to_string().into());
    m.insert("mode".into(), plan.settings.mode.name().into());
    m.insert("command".into(), json!(plan.shown_argv));
    m.insert("executable".into(), json!(run.executable));
    m.insert("cwd".into(), crate::plan::cwd_report(plan).1.into());
    m.insert(
        "environment".into(),
        json!({"mode": plan.environment.mode, "names": plan.environment.names}),
    );
    m.insert("protocol".into(), plan.settings.protocol.clone().into());
    m.insert(
        "era".into(),
        run.era
            .as_ref()
            .map_or(Value::Null, |e| e.speaks.as_str().into()),
    );
    let verdict = verdict(run);
    let mut facts = facts_value(&run.facts);
    if !run.tools_answered {
        // A list the server did not answer is unknown, never absent.
        facts.insert("tools".into(), Value::Null);
        facts.insert("toolCount".into(), Value::Null);
        facts.insert("toolsUnknown".into(), true.into());
    }
    m.extend(facts);
    m.insert(
        "versions".into(),
        json!({
            "server": run.server_info.as_ref().and_then(|i| i.get("version")).cloned(),
            "package": r.package.get("version").cloned(),
        }),
    );
    m.insert("call".into(), call_summary(run));
    let codes: Vec<&str> = run.issues.iter().map(|i| i.code.as_str()).collect();
    m.insert("issues".into(), json!(codes));
    m.insert("verdict".into(), verdict.word.into());
    m.insert("verdictReason".into(), verdict.reason.into());
    if run.shutdown.ended_by == EndedBy::ItsOwnExit && run.spawn_error.is_none() {
        // A server that died: the last of what it said.
        m.insert("stderrTail".into(), run.stderr.tail_lines(20).into());
    }
    if verdict.word == "inconclusive" {
        let exit = run.shutdown.exit;
        m.insert(
            "silence".into(),
            json!({
                "exitCode": exit.and_then(|e| e.code),
                "signal": exit.and_then(|e| e.signal).map(crate::sys::signal_name),
                "endedBy": run.ended_by(),
                "stdoutBytes": run.stdout_bytes,
                "stderrBytes": run.stderr.total(),
                "waitedMs": run.duration_ms,
                "spawnError": run.spawn_error.as_ref().map(|e| e.message.clone()),
            }),
        );
    }
    m.insert("durationMs".into(), run.duration_ms.into());
    Value::Object(m)
}
