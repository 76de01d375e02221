//! The evidence record of a run (`--evidence`): one JSON object, appended
//! as one line by `evidence`. It states what the server is (the `Facts`
//! that `--against` compares), what was called, and the verdict.

use serde_json::{Map, Value, json};

use crate::checks::drift::Facts;
use crate::plan::Plan;
use crate::report::{Report, RunReport};

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

/// `pass`, `fail` or `inconclusive` (the server said nothing at all).
pub fn verdict(run: &RunReport) -> &'static str {
    if !run.init_replied && run.stdout_bytes == 0 && run.frames.is_empty() {
        return "inconclusive";
    }
    let tools_answered = !run.tools_asked || run.tools_answered;
    if run.ok() && run.initialized && tools_answered {
        "pass"
    } else {
        "fail"
    }
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
    if verdict == "inconclusive" {
        facts.remove("tools");
        facts.remove("toolCount");
    }
    m.extend(facts);
    m.insert("call".into(), call_summary(run));
    let codes: Vec<&str> = run.issues.iter().map(|i| i.code.as_str()).collect();
    m.insert("issues".into(), json!(codes));
    m.insert("verdict".into(), verdict.into());
    if verdict == "inconclusive" {
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
