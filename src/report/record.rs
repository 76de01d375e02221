//! The evidence record of a run (`--evidence`): one JSON object, appended
//! as one line by `evidence`. It states what the server is (the `Facts`
//! that `--against` compares), what was called, and the verdict.

use crate::obj;
use serde_json::{Map, Value};

use crate::checks::drift::Facts;
use crate::session::EndedBy;
use crate::verdict::{Report, RunReport};

/// The facts a record states about what the server is: identity,
/// protocol, tools.
pub fn facts_value(f: &Facts) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        "server".into(),
        obj! {"name" => f.server_name, "version" => f.server_version},
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
        m.insert("tools".into(), Value::Array(tools.to_vec()));
    }
    if let Some(pinned) = &f.definitions {
        // The pinned definitions, so a later --against can prove them
        // unchanged (or show what changed).
        let list: Vec<Value> = pinned.iter().map(|p| p.to_value()).collect();
        m.insert("toolDefinitions".into(), Value::Array(list));
    }
    m
}

/// The call and a summary of its result, when the run made one.
fn call_summary(run: &RunReport) -> Value {
    let Some(op) = run.cli_call() else {
        return match &run.call_problem {
            Some(problem) => obj! {"called" => false, "problem" => problem},
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

/// The evidence record of the run at `index` (its `time` is stamped when
/// it is appended); `file` is the evidence file's absolute path.
/// A run's facts for the record: a list the server did not answer is
/// unknown, never absent.
fn run_facts(run: &crate::verdict::RunReport) -> Map<String, Value> {
    let mut facts = facts_value(&run.facts);
    if !run.tools_answered {
        facts.insert("tools".into(), Value::Null);
        facts.insert("toolCount".into(), Value::Null);
        facts.insert("toolsUnknown".into(), true.into());
    }
    facts
}

/// The blocks of the optional phases: what the server touched and what
/// the robustness probe did.
fn phases(r: &Report, m: &mut Map<String, Value>) {
    if let Some(c) = &r.confinement {
        m.insert(
            "confinement".into(),
            crate::report::json::confinement_value(c),
        );
    }
    if let Some(rb) = &r.robustness {
        m.insert(
            "robustness".into(),
            crate::report::json::robustness_value(rb),
        );
    }
}

pub fn evidence(r: &Report, index: usize, file: &str) -> Value {
    let (run, verdict) = (&r.runs[index], &r.audit[index]);
    let sub = &r.subject;
    let mut m = Map::new();
    m.insert("time".into(), "".into());
    m.insert("host".into(), sub.host.name.clone().into());
    m.insert(
        "guard".into(),
        obj! {"name" => "mcp-stdio-guard", "version" => env!("CARGO_PKG_VERSION")},
    );
    m.insert("evidenceFile".into(), file.into());
    m.insert("mode".into(), sub.mode.into());
    m.insert(
        "command".into(),
        crate::object::ToValue::to_value(&sub.command),
    );
    m.insert(
        "executable".into(),
        crate::object::ToValue::to_value(&run.executable),
    );
    m.insert("cwd".into(), sub.cwd.resolved.clone().into());
    m.insert(
        "environment".into(),
        obj! {"mode" => sub.environment.mode, "names" => sub.environment.names},
    );
    m.insert("protocol".into(), sub.protocol.clone().into());
    m.insert(
        "era".into(),
        run.era
            .as_ref()
            .map_or(Value::Null, |e| e.speaks.as_str().into()),
    );
    m.extend(run_facts(run));
    m.insert(
        "versions".into(),
        obj! {
            "server" => run.server_info.as_ref().and_then(|i| i.get("version")).cloned(),
            "package" => sub.package.get("version").cloned(),
        },
    );
    m.insert(
        "definitionsSha256".into(),
        crate::object::ToValue::to_value(&run.definitions_sha256),
    );
    m.insert("call".into(), call_summary(run));
    phases(r, &mut m);
    let codes: Vec<&str> = run.issues.iter().map(|i| i.code.as_str()).collect();
    m.insert("issues".into(), crate::object::ToValue::to_value(&codes));
    m.insert("verdict".into(), verdict.word.into());
    m.insert("verdictReason".into(), verdict.reason.clone().into());
    if run.shutdown.ended_by == EndedBy::ItsOwnExit && run.spawn_error.is_none() {
        // A server that died: the last of what it said.
        m.insert("stderrTail".into(), run.stderr.tail_lines(20).into());
    }
    if verdict.word == "inconclusive" {
        let exit = run.shutdown.exit;
        m.insert(
            "silence".into(),
            obj! {
                "exitCode" => exit.and_then(|e| e.code),
                "signal" => exit.and_then(|e| e.signal).map(crate::sys::signal_name),
                "endedBy" => run.ended_by(),
                "stdoutBytes" => run.stdout_bytes,
                "stderrBytes" => run.stderr.total(),
                "waitedMs" => run.duration_ms,
                "spawnError" => run.spawn_error.as_ref().map(|e| e.message.clone()),
            },
        );
    }
    m.insert("durationMs".into(), run.duration_ms.into());
    Value::Object(m)
}
