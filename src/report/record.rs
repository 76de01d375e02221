//! The two record files: the evidence record of a run (`--evidence`, one
//! JSON object per line, appended by `evidence`) and the transcript
//! (`--transcript`, one JSON object per message or stderr line). Both pass
//! the `Redactor`; neither ever holds a secret value.

use serde_json::{Map, Value, json};

use crate::plan::Plan;
use crate::report::Report;
use crate::transcript::{EntryKind, Transcript};

/// Bytes as text, each invalid UTF-8 byte written `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The facts a record states about what the server is: identity,
/// protocol, tools. `--against` compares these.
pub fn facts(r: &Report) -> Map<String, Value> {
    let tr = r.tr;
    let mut m = Map::new();
    let info = tr.init_result().and_then(|res| res.get("serverInfo"));
    m.insert(
        "server".into(),
        json!({
            "name": info.and_then(|i| i.get("name")).cloned().unwrap_or(Value::Null),
            "version": info.and_then(|i| i.get("version")).cloned().unwrap_or(Value::Null),
        }),
    );
    let negotiated = tr.negotiated_protocol();
    m.insert(
        "negotiatedProtocol".into(),
        if negotiated.is_empty() {
            Value::Null
        } else {
            negotiated.into()
        },
    );
    let listed = tr.listed("tools/list");
    if tr
        .list_chain("tools/list")
        .iter()
        .any(|p| p.result.is_some())
    {
        // Names copied as the server wrote them, never derived.
        let names: Vec<Value> = listed
            .iter()
            .map(|t| t.get("name").cloned().unwrap_or(Value::Null))
            .collect();
        m.insert("toolCount".into(), names.len().into());
        m.insert("tools".into(), Value::Array(names));
    }
    m
}

/// `pass`, `fail` or `inconclusive` (the server said nothing at all).
pub fn verdict(r: &Report) -> &'static str {
    let tr = r.tr;
    if tr.init_reply.is_none() && tr.stdout_bytes == 0 && tr.frames().next().is_none() {
        return "inconclusive";
    }
    let tools_answered = {
        let chain = tr.list_chain("tools/list");
        chain.is_empty() || chain.iter().all(|p| p.result.is_some())
    };
    if r.ok() && tr.initialized() && tools_answered {
        "pass"
    } else {
        "fail"
    }
}

/// The call and a summary of its result, when the run made one.
fn call_summary(tr: &Transcript) -> Value {
    let Some(op) = tr.cli_call() else {
        return match &tr.call_problem {
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

/// The evidence record of a run (its `time` is stamped when it is
/// appended).
pub fn evidence(r: &Report, command: &str, file: &std::path::Path) -> Value {
    let tr = r.tr;
    let plan: &Plan = r.plan;
    let mut m = Map::new();
    m.insert("time".into(), "".into());
    m.insert("host".into(), crate::sys::hostname().into());
    m.insert(
        "guard".into(),
        json!({"name": "mcp-stdio-guard", "version": env!("CARGO_PKG_VERSION")}),
    );
    m.insert("evidenceFile".into(), file.display().to_string().into());
    m.insert("mode".into(), command.into());
    m.insert("command".into(), json!(plan.shown_argv));
    m.insert("executable".into(), json!(tr.executable));
    m.insert("cwd".into(), crate::plan::cwd_report(plan).1.into());
    m.insert(
        "environment".into(),
        json!({"mode": plan.environment.mode, "names": plan.environment.names}),
    );
    m.insert("protocol".into(), plan.protocol.clone().into());
    let verdict = verdict(r);
    let mut facts = facts(r);
    if verdict == "inconclusive" {
        facts.remove("tools");
        facts.remove("toolCount");
    }
    m.extend(facts);
    m.insert("call".into(), call_summary(tr));
    let codes: Vec<&str> = r.issues.iter().map(|i| i.code).collect();
    m.insert("issues".into(), json!(codes));
    m.insert("verdict".into(), verdict.into());
    if verdict == "inconclusive" {
        let exit = tr.shutdown.exit;
        m.insert(
            "silence".into(),
            json!({
                "exitCode": exit.and_then(|e| e.code),
                "signal": exit.and_then(|e| e.signal).map(crate::sys::signal_name),
                "endedBy": r.ended_by(),
                "stdoutBytes": tr.stdout_bytes,
                "stderrBytes": tr.stderr.total(),
                "waitedMs": tr.duration_ms,
                "spawnError": tr.spawn_error.as_ref().map(|e| e.message.clone()),
            }),
        );
    }
    m.insert("durationMs".into(), tr.duration_ms.into());
    let mut v = Value::Object(m);
    plan.redactor.scrub_json(&mut v);
    v
}

/// The transcript: one JSON object per line, in time order. With
/// `--repeat`, every line carries its `run`.
pub fn transcript(tr: &Transcript, plan: &Plan, run: Option<usize>) -> String {
    let mut out = String::new();
    let mut sent = 0u64;
    let mut push = |mut v: Value| {
        if let (Some(n), Value::Object(m)) = (run, &mut v) {
            m.insert("run".into(), n.into());
        }
        plan.redactor.scrub_json(&mut v);
        out.push_str(&v.to_string());
        out.push('\n');
    };
    push(
        json!({"ms": 0, "direction": "event", "event": "spawn", "pid": tr.pid,
        "executable": tr.executable, "argv": plan.shown_argv,
        "spawnError": tr.spawn_error.as_ref().map(|e| e.message.clone())}),
    );
    for e in &tr.entries {
        match &e.kind {
            EntryKind::Sent { bytes, .. } => {
                sent += 1;
                let text = escape_bytes(bytes.strip_suffix(b"\n").unwrap_or(bytes));
                push(
                    json!({"ms": e.at_ms, "direction": "out", "stream": "stdin", "line": sent, "text": text}),
                );
            }
            EntryKind::Line {
                number,
                bytes,
                terminated,
                ..
            } => {
                let mut v = json!({"ms": e.at_ms, "direction": "in", "stream": "stdout", "line": number, "text": escape_bytes(bytes)});
                if !terminated {
                    v["unterminated"] = true.into();
                }
                push(v);
            }
            EntryKind::Oversize {
                number, head, len, ..
            } => push(json!({"ms": e.at_ms, "direction": "in", "stream": "stdout",
                "line": number, "text": escape_bytes(head), "truncated": true, "bytes": len})),
            EntryKind::StderrLine { number, bytes } => {
                push(json!({"ms": e.at_ms, "direction": "in", "stream": "stderr",
                "line": number, "text": escape_bytes(bytes)}))
            }
            EntryKind::Timeout { target, ms } => push(
                json!({"ms": e.at_ms, "direction": "event", "event": "timeout",
                "method": tr.method_of(*target), "timeoutMs": ms}),
            ),
            EntryKind::Exited { exit, .. } => {
                push(json!({"ms": e.at_ms, "direction": "event", "event": "exit",
                "exitCode": exit.code, "signal": exit.signal.map(crate::sys::signal_name)}))
            }
            EntryKind::StdoutLimit { total } => push(
                json!({"ms": e.at_ms, "direction": "event", "event": "stdout-limit", "bytes": total}),
            ),
            EntryKind::WriteFailed { error } => push(
                json!({"ms": e.at_ms, "direction": "event", "event": "stdin-write-failed", "error": error}),
            ),
        }
    }
    if tr.stderr_lines_dropped > 0 {
        push(
            json!({"ms": tr.duration_ms, "direction": "event", "event": "stderr-lines-dropped",
            "count": tr.stderr_lines_dropped}),
        );
    }
    push(
        json!({"ms": tr.duration_ms, "direction": "event", "event": "end",
        "stdoutBytes": tr.stdout_bytes, "stderrBytes": tr.stderr.total()}),
    );
    out
}
