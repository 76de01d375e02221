//! The JSON report, schemaVersion 1: the 1.0 contract's fields in its order
//! and with its meanings, then the additive fields (`frames`, `stderr`,
//! `durationMs`, `environment`). Keys keep insertion order
//! (serde_json `preserve_order`).

use serde_json::{Map, Value, json};

use crate::checks::{Class, Group, Issue};
use crate::report::{Check, Report, scan};
use crate::sys;
use crate::{mcp, plan};

fn check_value(c: &Check) -> Value {
    let mut m = Map::new();
    m.insert("status".into(), c.status.into());
    m.insert("issueCodes".into(), json!(c.codes));
    if let Some(reason) = c.reason {
        m.insert("reason".into(), reason.into());
    }
    Value::Object(m)
}

pub fn issue_value(issue: &Issue) -> Value {
    let mut m = Map::new();
    m.insert("severity".into(), issue.severity.as_str().into());
    m.insert("code".into(), issue.code.into());
    m.insert("message".into(), issue.message.clone().into());
    m.insert("class".into(), issue.class.as_str().into());
    for (k, v) in &issue.details {
        m.insert((*k).into(), v.clone());
    }
    Value::Object(m)
}

/// The 1.0 `config` block: which config file, and what it supplied.
fn config_value(r: &Report) -> Value {
    let plan = r.plan;
    let Some(c) = &plan.extras.config else {
        return json!({
            "enabled": false,
            "path": "",
            "resolvedPath": "",
            "checks": {
                "command": false,
                "cwd": false,
                "envNames": [],
                "requests": [],
                "safeToolCalls": [],
                "adversarialProbes": [],
                "adversarialToolCalls": []
            }
        });
    };
    let mut env: Vec<&str> = c.env.iter().map(|(k, _)| k.as_str()).collect();
    env.sort_unstable();
    json!({
        "enabled": true,
        "path": c.path,
        "resolvedPath": c.resolved.display().to_string(),
        "checks": {
            "command": c.command.is_some(),
            "cwd": c.cwd.is_some(),
            "envNames": env,
            "requests": c.requests.iter().map(|q| q.method.clone()).collect::<Vec<_>>(),
            "safeToolCalls": c.safe_tool_calls.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            "adversarialProbes": c.adversarial.clone().unwrap_or_default(),
            "adversarialToolCalls": c.adversarial_tool_calls.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
        },
        "server": c.server,
    })
}

/// The `adversarial` block: every planned probe, run or skipped.
fn adversarial(r: &Report) -> Value {
    use crate::checks::adversarial as adv;
    let probes: Vec<Value> =
        r.tr.adversarial
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let issues = adv::probe_issues(r.tr, i);
                let check = if a.started {
                    Check::of(issues.iter(), "pass")
                } else {
                    Check::skipped("an earlier probe failed, or the session ended first")
                };
                json!({
                    "index": i,
                    "name": a.name,
                    "source": a.source,
                    "method": a.method,
                    "safeToolCallName": a.tool.clone().unwrap_or_default(),
                    "expectation": adv::expectation(&a.name),
                    "description": adv::description(&a.name),
                    "risk": adv::risk(&a.name),
                    "status": check.status,
                    "started": a.started,
                    "durationMs": a.duration_ms,
                    "issueCodes": check.codes,
                })
            })
            .collect();
    json!({"enabled": !r.plan.session.adversarial.is_empty(), "probes": probes})
}

fn capability_keys<'a>(r: &Report<'a>) -> Vec<&'a str> {
    let mut keys = r.tr.init_result().map(mcp::advertised).unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// `capabilityChecks` and `checks.capabilities`, in the 1.0 shape, plus
/// the additive `resourceTemplates` entry and `pages` counts.
fn capabilities(r: &Report) -> (Value, Value) {
    let lists = r.lists();
    let mut checks = Map::new();
    let mut entries = Map::new();
    for l in &lists {
        checks.insert(
            l.spec.key.into(),
            json!({
                "advertised": l.advertised,
                "method": l.spec.method,
                "responded": l.responded,
                "itemCount": l.item_count,
                "error": l.error.clone().unwrap_or(Value::Null),
                "pages": l.pages,
            }),
        );
        let mut entry = Map::new();
        if let Value::Object(c) = check_value(&l.check) {
            entry.extend(c);
        }
        entry.insert("advertised".into(), l.advertised.into());
        entry.insert("method".into(), l.spec.method.into());
        entry.insert("responded".into(), l.responded.into());
        entry.insert("itemCount".into(), json!(l.item_count));
        entries.insert(l.spec.key.into(), Value::Object(entry));
    }
    let mut check = match check_value(&r.check_capabilities(&lists)) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    check.extend(entries);
    (Value::Object(checks), Value::Object(check))
}

fn operations(r: &Report) -> (Value, Value) {
    let ops: Vec<Value> =
        r.tr.ops
            .iter()
            .enumerate()
            .map(|(i, op)| {
                json!({
                    "index": i,
                    "source": op.source,
                    "method": op.method,
                    "safeToolCallName": op.safe_tool_call.clone().unwrap_or_default(),
                    "responded": op.responded,
                    "error": op.error.clone().unwrap_or(Value::Null),
                })
            })
            .collect();
    let first = r.tr.ops.first().map_or(Value::Null, |op| {
        json!({
            "method": op.method,
            "source": op.source,
            "safeToolCallName": op.safe_tool_call.clone().unwrap_or_default(),
            "responded": op.responded,
            "error": op.error.clone().unwrap_or(Value::Null),
        })
    });
    (first, Value::Array(ops))
}

fn process(r: &Report) -> Value {
    let tr = r.tr;
    let sd = &tr.shutdown;
    let outcome = r.outcome();
    let exited_alone = outcome == "exited";
    let exit = sd.exit.filter(|_| exited_alone);
    let timeout_code = r
        .issues
        .iter()
        .find(|i| matches!(i.code, "initialize-timeout" | "operation-timeout"))
        .map_or("", |i| i.code);
    let signal_of = |e: &crate::child::Exit| e.signal.map(sys::signal_name);
    let spawn_error = tr.spawn_error.as_ref().map_or(
        Value::Null,
        |e| json!({"code": e.code, "message": e.message}),
    );
    let exceeded = r.exceeded_code();
    json!({
        "started": tr.pid.is_some(),
        "pid": tr.pid,
        "outcome": outcome,
        "phase": r.phase(),
        "exitCode": exit.and_then(|e| e.code),
        "signal": exit.as_ref().and_then(signal_of),
        "timedOut": !timeout_code.is_empty(),
        "timeoutCode": timeout_code,
        "timeoutMs": r.plan.timeout_ms,
        "killedByGuard": tr.pid.is_some() && !exited_alone,
        "killSignal": r.kill_signal(),
        "killReason": r.kill_reason(),
        "spawnError": spawn_error,
        "output": {
            "stdoutBytes": tr.stdout_bytes,
            "stderrBytes": tr.stderr.total(),
            "maxStdoutBytes": r.plan.session.max_stdout_bytes,
            "maxStdoutLineBytes": r.plan.session.max_stdout_line_bytes,
            "maxStderrBytes": r.plan.session.max_stderr_bytes,
            "stderrTruncated": tr.stderr.truncated(),
            "limitExceeded": !exceeded.is_empty(),
            "exceededCode": exceeded,
        },
        "shutdown": {
            "endedBy": r.ended_by(),
            "stdinClosedAtMs": sd.stdin_closed_at_ms,
            "sigtermAtMs": sd.sigterm_at_ms,
            "sigkillAtMs": sd.sigkill_at_ms,
            "exitedAtMs": sd.exited_at_ms,
            "exitCode": sd.exit.and_then(|e| e.code),
            "signal": sd.exit.as_ref().and_then(signal_of),
            "orphanedProcesses": sd.orphans,
            "stdoutHeldOpen": sd.stdout_held_open,
            "stderrHeldOpen": sd.stderr_held_open,
        },
    })
}

fn fingerprint(r: &Report) -> Value {
    let plan = r.plan;
    let (requested, resolved, exists) = plan::cwd_report(plan);
    let argv = &plan.shown_argv;
    let op_entry = |op: &crate::transcript::OpRecord| json!({"method": op.method, "hasParams": op.has_params, "source": op.source, "safeToolCallName": op.safe_tool_call.clone().unwrap_or_default()});
    let adversarial_probes: Vec<Value> =
        r.tr.adversarial
            .iter()
            .map(|a| {
                json!({"name": a.name, "source": a.source, "method": a.method,
            "safeToolCallName": a.tool.clone().unwrap_or_default(),
            "expectation": crate::checks::adversarial::expectation(&a.name)})
            })
            .collect();
    let values: Map<String, Value> = plan
        .explicit_env
        .iter()
        .map(|n| (n.clone(), Value::from(crate::redact::REDACTED)))
        .collect();
    json!({
        "guard": {"name": "mcp-stdio-guard", "version": env!("CARGO_PKG_VERSION")},
        "command": {
            "executable": argv.first().cloned().unwrap_or_default(),
            "args": argv.get(1..).unwrap_or_default(),
            "argv": argv,
        },
        "cwd": {"requested": requested, "resolved": resolved, "exists": exists},
        "protocol": plan.protocol,
        "config": config_value(r),
        "profile": plan.profile.as_str(),
        "timeoutMs": plan.timeout_ms,
        "outputLimits": {
            "maxStdoutBytes": plan.session.max_stdout_bytes,
            "maxStdoutLineBytes": plan.session.max_stdout_line_bytes,
            "maxStderrBytes": plan.session.max_stderr_bytes,
        },
        "repeat": plan.repeat,
        "capabilityProbes": plan.session.capability_probes,
        "adversarialProbes": adversarial_probes,
        "operation": r.tr.ops.first().map_or(Value::Null, op_entry),
        "operations": r.tr.ops.iter().map(op_entry).collect::<Vec<_>>(),
        "system": {
            "platform": std::env::consts::OS,
            "arch": std::env::consts::ARCH,
            "osRelease": sys::os_release(),
        },
        "runtimes": plan.runtimes,
        "package": plan.package,
        "env": {
            "inherited": plan.inherit_env,
            "names": plan.explicit_env,
            "values": values,
        },
        "staticScan": {
            "enabled": r.scan.is_some(),
            "path": r.scan.and_then(|s| s.roots.first().cloned()).unwrap_or_default(),
            "failOnFindings": r.scan.is_some() && plan.fail_on_static,
        },
        "timings": {"startupMs": r.tr.init_reply_at_ms, "totalMs": r.tr.duration_ms},
    })
}

fn summary(r: &Report) -> Value {
    let status = r.summary_status();
    let (message, color, display) = match status {
        "pass" => ("pass", "brightgreen", "verified"),
        "warning" => ("warning", "yellow", "verified with warnings"),
        "needs_inspection" => (
            "needs inspection",
            "orange",
            "runtime or install issue; inspect before presenting as protocol failure",
        ),
        _ => ("fail", "red", "stdio transport or MCP protocol failure"),
    };
    let primary = r.primary();
    json!({
        "status": status,
        "issueClass": r.summary_class(),
        "primaryIssueCode": primary.map_or("", |i| i.code),
        "primaryIssueClass": primary.map_or("", |i| i.class.as_str()),
        "issueCounts": {"error": r.errors(), "warning": r.warnings(), "total": r.issues.len()},
        "badge": {"label": "mcp stdio", "message": message, "color": color},
        "display": display,
    })
}

/// Builds the whole report as a JSON value, secrets scrubbed.
pub fn build(r: &Report) -> Value {
    let (operation, operations) = operations(r);
    let (capability_checks, capability_check) = capabilities(r);
    let env = &r.plan.environment;
    let mut checks = Map::new();
    checks.insert("initialize".into(), check_value(&r.check_initialize()));
    checks.insert("stdout".into(), check_value(&r.check_group(Group::Stdout)));
    checks.insert(
        "jsonRpc".into(),
        check_value(&r.check_group(Group::JsonRpc)),
    );
    checks.insert("operation".into(), check_value(&r.check_operation()));
    checks.insert("capabilities".into(), capability_check);
    let tools = r.tool_summary();
    checks.insert(
        "toolSchema".into(),
        check_value(&r.check_tool_schema(&tools)),
    );
    checks.insert("adversarial".into(), check_value(&r.check_adversarial()));
    checks.insert(
        "process".into(),
        check_value(&r.check_group(Group::Process)),
    );
    checks.insert(
        "pythonBuffering".into(),
        check_value(&r.check_group(Group::PythonBuffering)),
    );
    checks.insert("staticScan".into(), check_value(&r.check_static_scan()));
    checks.insert(
        "repeat".into(),
        check_value(&Check::skipped("--repeat was not used")),
    );
    checks.insert("against".into(), check_value(&r.check_against()));
    let mut classes = Map::new();
    for class in Class::ALL {
        classes.insert(class.as_str().into(), check_value(&r.check_class(class)));
    }
    let mut v = json!({
        "schemaVersion": 1,
        "ok": r.ok(),
        "config": config_value(r),
        "profile": r.plan.profile.as_str(),
        "command": r.plan.shown_argv,
        "protocol": r.plan.protocol,
        "negotiatedProtocol": r.tr.negotiated_protocol(),
        "initialized": r.tr.initialized(),
        "operation": operation,
        "operations": operations,
        "adversarial": adversarial(r),
        "toolSchema": {
            "checked": tools.checked,
            "toolCount": tools.tool_count,
            "toolNames": tools.tool_names,
            "validToolCount": tools.valid_tool_count,
            "warningCount": tools.warning_count,
            "errorCount": tools.error_count,
            "duplicateNames": tools.duplicate_names,
        },
        "capabilityProbes": r.plan.session.capability_probes,
        "capabilityKeys": capability_keys(r),
        "capabilityChecks": capability_checks,
        "process": process(r),
        "checks": checks,
        "issueClasses": classes,
        "summary": summary(r),
        "fingerprint": fingerprint(r),
        "issues": r.issues.iter().map(issue_value).collect::<Vec<_>>(),
        "staticScan": scan::static_scan(r.scan, r.plan.fail_on_static),
        "staticFindings": scan::static_findings(r.scan),
        "frames": r.tr.frames().cloned().collect::<Vec<_>>(),
        "stderr": r.tr.stderr.text(),
        "durationMs": r.tr.duration_ms,
        "environment": {
            "mode": env.mode,
            "names": env.names,
            "set": env.set,
            "forwarded": env.forwarded,
            "missing": env.missing,
        },
    });
    r.plan.redactor.scrub_json(&mut v);
    v
}

/// The report as pretty-printed JSON with a final newline.
pub fn render(r: &Report) -> String {
    let mut out =
        serde_json::to_string_pretty(&build(r)).expect("invariant: a Value always serializes");
    out.push('\n');
    out
}

/// Inserts `key` after `after` in an object, keeping the order.
fn insert_after(v: &mut Value, after: &str, key: &str, value: Value) {
    let Value::Object(map) = v else {
        return;
    };
    let old = std::mem::take(map);
    let mut placed = false;
    for (k, val) in old {
        let here = k == after;
        map.insert(k, val);
        if here {
            map.insert(key.into(), value.clone());
            placed = true;
        }
    }
    if !placed {
        map.insert(key.into(), value);
    }
}

/// The `--repeat` report: the single-run shape over every run's issues
/// (each with its `run`), plus `repeat`, `drift`, `checks.repeat` and
/// `runs` (each a full report).
pub fn render_repeat(r: &Report, drift: Value, runs: Vec<Value>, failed_runs: &[usize]) -> String {
    let mut v = build(r);
    let n = runs.len();
    let repeat_issues: Vec<&Issue> = r
        .issues
        .iter()
        .filter(|i| i.in_group(Group::Repeat) || i.details.iter().any(|(k, _)| *k == "run"))
        .filter(|i| !i.in_group(Group::StaticScan))
        .collect();
    let check = Check::of(repeat_issues.into_iter(), "pass");
    let status = if failed_runs.is_empty() {
        check.status
    } else {
        "fail"
    };
    v["checks"]["repeat"] = json!({
        "status": status,
        "issueCodes": check.codes,
        "runs": n,
        "passedRuns": n - failed_runs.len(),
        "failedRuns": failed_runs,
    });
    if let Value::Object(m) = &mut v["fingerprint"] {
        m.insert("repeat".into(), n.into());
    }
    insert_after(&mut v, "protocol", "repeat", n.into());
    insert_after(&mut v, "adversarial", "drift", drift);
    if let Value::Object(m) = &mut v {
        m.insert("runs".into(), Value::Array(runs));
    }
    r.plan.redactor.scrub_json(&mut v);
    let mut out = serde_json::to_string_pretty(&v).expect("invariant: a Value always serializes");
    out.push('\n');
    out
}
