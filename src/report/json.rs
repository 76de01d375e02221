//! The JSON report, schemaVersion 1: the 1.0 contract's fields in its order
//! and with its meanings, then the additive fields (`frames`, `stderr`,
//! `durationMs`, `environment`, and with `--repeat` `repeat`, `drift` and
//! `runs`). Keys keep insertion order (serde_json `preserve_order`).

use crate::obj;
use serde_json::{Map, Value, json};

use crate::checks::drift::{self, Drift};
use crate::checks::{Issue, adversarial};
use crate::plan::AdvProbe;
use crate::report::common::{check_value, pretty};
use crate::report::rendered::{Rendered, Slot, indented, placeholder};
use crate::report::scan;
use crate::scan::ScanReport;
use crate::verdict::catalog;
use crate::verdict::subject::{ConfigView, Subject};
use crate::verdict::{Check, Checks, Eras, Report, RunReport, Summary};

/// The 1.0 `config` block: which config file, and what it supplied.
fn config_value(config: Option<&ConfigView>) -> Value {
    let Some(c) = config else {
        return obj! {
            "enabled" => false,
            "path" => "",
            "resolvedPath" => "",
            "checks" => obj! {
                "command" => false,
                "cwd" => false,
                "envNames" => json!([]),
                "requests" => json!([]),
                "safeToolCalls" => json!([]),
                "adversarialProbes" => json!([]),
                "adversarialToolCalls" => json!([]),
            },
        };
    };
    obj! {
        "enabled" => true,
        "path" => c.path,
        "resolvedPath" => c.resolved,
        "checks" => obj! {
            "command" => c.command,
            "cwd" => c.cwd,
            "envNames" => c.env_names,
            "requests" => c.requests,
            "safeToolCalls" => c.safe_tool_calls,
            "adversarialProbes" => c.adversarial_probes,
            "adversarialToolCalls" => c.adversarial_tool_calls,
        },
        "server" => c.server,
    }
}

/// The `adversarial` block: every planned probe, run or skipped.
fn adversarial_value(subject: &Subject, run: &RunReport) -> Value {
    let probes: Vec<Value> = run
        .probes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            obj! {
                "index" => i,
                "name" => p.probe.name(),
                "source" => source(&p.probe),
                "method" => p.method,
                "safeToolCallName" => tool_name(&p.probe),
                "expectation" => adversarial::expectation(&p.probe),
                "description" => adversarial::description(&p.probe),
                "risk" => adversarial::risk(&p.probe),
                "status" => p.check.status.as_str(),
                "started" => p.started,
                "durationMs" => p.duration_ms,
                "issueCodes" => p.check.codes.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            }
        })
        .collect();
    obj! {"enabled" => subject.adversarial, "probes" => probes}
}

fn source(p: &AdvProbe) -> &'static str {
    match p {
        AdvProbe::Builtin(_) => "builtin",
        AdvProbe::ToolCall { .. } => "adversarial-tool-call",
    }
}

fn tool_name(p: &AdvProbe) -> String {
    match p {
        AdvProbe::ToolCall { name, .. } => name.clone(),
        AdvProbe::Builtin(_) => String::new(),
    }
}

/// `capabilityChecks` and `checks.capabilities`, in the 1.0 shape, plus
/// the additive `resourceTemplates` entry and `pages` counts.
fn capabilities(run: &RunReport, overall: &Check) -> (Value, Value) {
    let mut checks = Map::new();
    let mut entries = Map::new();
    for l in &run.lists {
        checks.insert(
            l.spec.key.into(),
            obj! {
                "advertised" => l.advertised,
                "method" => l.spec.method,
                "responded" => l.responded,
                "itemCount" => l.item_count,
                "error" => l.error.clone().unwrap_or(Value::Null),
                "pages" => l.pages,
            },
        );
        let mut entry = match check_value(&l.check) {
            Value::Object(c) => c,
            _ => Map::new(),
        };
        entry.insert("advertised".into(), l.advertised.into());
        entry.insert("method".into(), l.spec.method.into());
        entry.insert("responded".into(), l.responded.into());
        entry.insert(
            "itemCount".into(),
            crate::object::ToValue::to_value(&l.item_count),
        );
        entries.insert(l.spec.key.into(), Value::Object(entry));
    }
    let mut check = match check_value(overall) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    check.extend(entries);
    (Value::Object(checks), Value::Object(check))
}

fn operations(run: &RunReport) -> (Value, Value) {
    let entry = |op: &crate::session::transcript::OpRecord| {
        obj! {
            "method" => op.method,
            "source" => op.source.as_str(),
            "safeToolCallName" => op.safe_tool_call.clone().unwrap_or_default(),
            "responded" => op.responded,
            "error" => op.error.clone().unwrap_or(Value::Null),
        }
    };
    let ops: Vec<Value> = run
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| {
            obj! {
                "index" => i,
                "source" => op.source.as_str(),
                "method" => op.method,
                "safeToolCallName" => op.safe_tool_call.clone().unwrap_or_default(),
                "responded" => op.responded,
                "error" => op.error.clone().unwrap_or(Value::Null),
            }
        })
        .collect();
    let first = run.ops.first().map_or(Value::Null, entry);
    (first, Value::Array(ops))
}

fn process(subject: &Subject, run: &RunReport) -> Value {
    let sd = &run.shutdown;
    let outcome = run.outcome();
    let exited_alone = outcome == "exited";
    let exit = sd.exit.filter(|_| exited_alone);
    let timeout_code = run.timeout_code();
    let signal_of = |e: &crate::session::Exit| e.signal.map(crate::sys::signal_name);
    let spawn_error = run.spawn_error.as_ref().map_or(
        Value::Null,
        |e| obj! {"code" => e.code, "message" => e.message},
    );
    let exceeded = run.exceeded_code();
    let limits = subject.limits;
    obj! {
        "started" => run.pid.is_some(),
        "pid" => run.pid,
        "outcome" => outcome,
        "phase" => run.phase(),
        "exitCode" => exit.and_then(|e| e.code),
        "signal" => exit.as_ref().and_then(signal_of),
        "timedOut" => !timeout_code.is_empty(),
        "timeoutCode" => timeout_code,
        "timeoutMs" => subject.timeout_ms,
        "killedByGuard" => run.killed_by_guard(),
        "killSignal" => run.kill_signal(),
        "killReason" => run.kill_reason(),
        "spawnError" => spawn_error,
        "output" => obj! {
            "stdoutBytes" => run.stdout_bytes,
            "stderrBytes" => run.stderr.total(),
            "maxStdoutBytes" => limits.max_stdout_bytes,
            "maxStdoutLineBytes" => limits.max_stdout_line_bytes,
            "maxStderrBytes" => limits.max_stderr_bytes,
            "stderrTruncated" => run.stderr.truncated(),
            "limitExceeded" => !exceeded.is_empty(),
            "exceededCode" => exceeded,
        },
        "shutdown" => obj! {
            "endedBy" => run.ended_by(),
            "stdinClosedAtMs" => sd.stdin_closed_at_ms,
            "sigtermAtMs" => sd.sigterm_at_ms,
            "sigkillAtMs" => sd.sigkill_at_ms,
            "exitedAtMs" => sd.exited_at_ms,
            "exitCode" => sd.exit.and_then(|e| e.code),
            "signal" => sd.exit.as_ref().and_then(signal_of),
            "orphanedProcesses" => !sd.orphans.is_empty(),
            "orphans" => sd.orphans.iter().map(|(pid, cmd)| obj! {"pid" => pid, "command" => cmd}).collect::<Vec<_>>(),
            "stdoutHeldOpen" => sd.stdout_held_open,
            "stderrHeldOpen" => sd.stderr_held_open,
        },
    }
}

/// What a document is about besides its run: the subject, the scan, the
/// runs count and the eras.
#[derive(Clone, Copy)]
struct Context<'a, 'f> {
    subject: &'a Subject,
    scan: Option<&'a ScanReport>,
    repeat: u64,
    eras: &'a Eras,
    /// What is written in where each placeholder stands (the frames, the
    /// parts built when written).
    slots: &'f std::cell::RefCell<Vec<Slot<'a>>>,
}

impl<'a> Context<'a, '_> {
    /// The placeholder where `slot` is written in.
    fn slot(&self, slot: Slot<'a>) -> Value {
        let mut slots = self.slots.borrow_mut();
        slots.push(slot);
        placeholder(slots.len() - 1).into()
    }

    /// The placeholder where `run`'s frames are streamed in.
    fn frames_of(&self, run: &'a RunReport) -> Value {
        self.slot(Slot::Frames(&run.frames))
    }

    /// An array of one entry per item (a tool), written when its turn
    /// comes, entry by entry: a list of many tools is never held as values.
    fn array<T>(&self, items: &'a [T], each: impl Fn(&T) -> Value + 'a) -> Value {
        if items.is_empty() {
            return Value::Array(Vec::new());
        }
        self.slot(Slot::Later(Box::new(move |indent: &str| {
            let inner = format!("{indent}  ");
            let mut text = String::from("[");
            for (i, item) in items.iter().enumerate() {
                text.push_str(if i == 0 { "\n" } else { ",\n" });
                text.push_str(&inner);
                text.push_str(&indented(&pretty_bare(&each(item)), &inner));
            }
            text.push_str(&format!("\n{indent}]"));
            Rendered::text(text)
        })))
    }
}

/// The `era` block: the mode asked for, the era found, and how.
fn era_value(c: &Context, run: &RunReport) -> Value {
    let mode = c.subject.era_mode.as_str();
    let Some(e) = &run.era else {
        return obj! {"mode" => mode, "detected" => Value::Null, "speaks" => Value::Null};
    };
    let detected = if c.eras.detected.is_empty() {
        e.speaks.as_str()
    } else {
        c.eras.detected
    };
    let not_served: Map<String, Value> = c
        .eras
        .not_served
        .iter()
        .map(|(era, why)| ((*era).to_string(), Value::from(why.clone())))
        .collect();
    obj! {
        "mode" => mode,
        "detected" => detected,
        "speaks" => e.speaks.as_str(),
        "reason" => e.reason,
        "probe" => obj! {"outcome" => e.probe, "ms" => e.probe_ms},
        "supportedVersions" => e.supported,
        "freshProcess" => e.fresh_process,
        "notServed" => not_served,
    }
}

fn fingerprint(c: &Context, run: &RunReport) -> Value {
    let sub = c.subject;
    let argv = &sub.command;
    let op_entry = |op: &crate::session::transcript::OpRecord| {
        obj! {"method" => op.method.as_str(), "hasParams" => op.has_params,
        "source" => op.source.as_str(),
        "safeToolCallName" => op.safe_tool_call.clone().unwrap_or_default()}
    };
    let adversarial_probes: Vec<Value> = run
        .probes
        .iter()
        .map(|p| {
            obj! {
                "name" => p.probe.name(),
                "source" => source(&p.probe),
                "method" => p.method.as_str(),
                "safeToolCallName" => tool_name(&p.probe),
                "expectation" => adversarial::expectation(&p.probe),
            }
        })
        .collect();
    let values: Map<String, Value> = sub
        .explicit_env
        .iter()
        .map(|n| (n.clone(), Value::from(crate::redact::REDACTED)))
        .collect();
    let limits = sub.limits;
    obj! {
        "guard" => obj! {"name" => "mcp-stdio-guard", "version" => env!("CARGO_PKG_VERSION")},
        "command" => obj! {
            "executable" => argv.first().cloned().unwrap_or_default(),
            "args" => argv.get(1..).unwrap_or_default(),
            "argv" => argv.as_slice(),
            // The program that ran, found as the system found it (`PATH`,
            // on Windows `PATHEXT`); null when it did not start.
            "resolved" => run.executable.clone(),
        },
        "cwd" => obj! {
            "requested" => sub.cwd.requested.as_str(),
            "resolved" => sub.cwd.resolved.as_str(),
            "exists" => sub.cwd.exists,
        },
        "protocol" => sub.protocol.as_str(),
        "config" => config_value(sub.config.as_ref()),
        "profile" => sub.profile.as_str(),
        "timeoutMs" => sub.timeout_ms,
        "outputLimits" => obj! {
            "maxStdoutBytes" => limits.max_stdout_bytes,
            "maxStdoutLineBytes" => limits.max_stdout_line_bytes,
            "maxStderrBytes" => limits.max_stderr_bytes,
        },
        "repeat" => c.repeat,
        "capabilityProbes" => sub.capability_probes,
        "adversarialProbes" => adversarial_probes,
        "operation" => run.ops.first().map_or(Value::Null, op_entry),
        "operations" => run.ops.iter().map(op_entry).collect::<Vec<_>>(),
        "system" => obj! {
            "platform" => sub.host.platform,
            "arch" => sub.host.arch,
            "osRelease" => sub.host.os_release.clone(),
        },
        "runtimes" => sub.runtimes.clone(),
        "package" => sub.package.clone(),
        "env" => obj! {
            "inherited" => sub.inherit_env,
            "names" => sub.explicit_env.as_slice(),
            "values" => values,
        },
        "staticScan" => obj! {
            "enabled" => c.scan.is_some(),
            "path" => c.scan.and_then(|s| s.roots.first().cloned()).unwrap_or_default(),
            "failOnFindings" => c.scan.is_some() && sub.fail_on_static,
        },
        "timings" => obj! {"startupMs" => run.init_reply_at_ms, "totalMs" => run.duration_ms},
        "era" => obj! {
            "mode" => sub.era_mode.as_str(),
            "speaks" => run.era.as_ref().map(|e| e.speaks.as_str()),
        },
    }
}

fn summary(s: &Summary) -> Value {
    obj! {
        "status" => s.status,
        "issueClass" => s.class,
        "primaryIssueCode" => s.primary_code,
        "primaryIssueClass" => s.primary_class,
        "issueCounts" => obj! {"error" => s.errors, "warning" => s.warnings, "total" => s.errors + s.warnings},
        "badge" => obj! {"label" => "mcp stdio", "message" => s.badge.0, "color" => s.badge.1},
        "display" => s.display,
    }
}

fn checks_value(checks: &Checks, capability_check: Value, repeat: Value) -> Value {
    let mut m = Map::new();
    m.insert("initialize".into(), check_value(&checks.initialize));
    m.insert("stdout".into(), check_value(&checks.stdout));
    m.insert("jsonRpc".into(), check_value(&checks.json_rpc));
    m.insert("operation".into(), check_value(&checks.operation));
    m.insert("capabilities".into(), capability_check);
    m.insert("toolSchema".into(), check_value(&checks.tool_schema));
    m.insert("adversarial".into(), check_value(&checks.adversarial));
    m.insert("process".into(), check_value(&checks.process));
    m.insert(
        "pythonBuffering".into(),
        check_value(&checks.python_buffering),
    );
    m.insert("staticScan".into(), check_value(&checks.static_scan));
    m.insert("repeat".into(), repeat);
    m.insert("against".into(), check_value(&checks.against));
    m.insert("definitions".into(), check_value(&checks.definitions));
    m.insert("robustness".into(), check_value(&checks.robustness));
    m.insert("confinement".into(), check_value(&checks.confinement));
    // Additive: the official conformance check ids each check covers.
    for (name, c) in m.iter_mut() {
        let ids = catalog::ids_of(name);
        if let (Value::Object(c), false) = (c, ids.is_empty()) {
            c.insert("checkIds".into(), crate::object::ToValue::to_value(&ids));
        }
    }
    Value::Object(m)
}

fn classes(classes: &[(crate::checks::Class, Check)]) -> Value {
    let mut m = Map::new();
    for (class, c) in classes {
        m.insert(class.as_str().into(), check_value(c));
    }
    Value::Object(m)
}

/// What `--repeat` adds to the top-level document (the drift and the
/// runs' documents are built when written, one at a time).
struct Repeated<'a> {
    runs: usize,
    drift: Option<&'a Drift>,
    check: Value,
    documents: Value,
}

/// What one document judges: its issues, checks, classes and summary.
#[derive(Clone, Copy)]
struct Judged<'a> {
    issues: &'a [Issue],
    checks: &'a Checks,
    classes: &'a [(crate::checks::Class, Check)],
    summary: &'a Summary,
}

impl<'a> Judged<'a> {
    fn of_run(run: &'a RunReport) -> Judged<'a> {
        Judged {
            issues: &run.issues,
            checks: &run.checks,
            classes: &run.classes,
            summary: &run.summary,
        }
    }
}

/// One document: the 1.0 fields in order, then the additive ones.
/// The additive members after the 1.0 ones: the frames, stderr, the
/// duration, the environment, the era, the context cost, the definitions.
fn additive<'a>(c: &Context<'a, '_>, run: &'a RunReport, m: &mut Map<String, Value>) {
    let env = &c.subject.environment;
    m.insert("frames".into(), c.frames_of(run));
    let (omitted, omitted_bytes) = run.frames.omitted();
    m.insert(
        "framesOmitted".into(),
        obj! {"frames" => omitted, "bytes" => omitted_bytes},
    );
    m.insert("stderr".into(), run.stderr.text().into());
    m.insert("durationMs".into(), run.duration_ms.into());
    m.insert(
        "environment".into(),
        obj! {
            "mode" => env.mode,
            "names" => env.names,
            "set" => env.set,
            "forwarded" => env.forwarded,
            "missing" => env.missing,
        },
    );
    m.insert("era".into(), era_value(c, run));
    m.insert("contextCost".into(), context_cost(c, &run.context_cost));
    m.insert("definitions".into(), definitions(c, run));
}

fn document<'a>(
    c: &Context<'a, '_>,
    run: &'a RunReport,
    j: Judged,
    repeated: Option<Repeated<'a>>,
) -> Value {
    let sub = c.subject;
    let (issues, checks) = (j.issues, j.checks);
    let (operation, operations) = operations(run);
    let (capability_checks, capability_check) = capabilities(run, &checks.capabilities);
    let tools = &run.tool_summary;
    let repeat_check = match &repeated {
        Some(r) => r.check.clone(),
        None => check_value(&Check::skipped("--repeat was not used")),
    };
    let mut m = Map::new();
    m.insert("schemaVersion".into(), 1.into());
    m.insert("ok".into(), (!issues.iter().any(Issue::is_error)).into());
    m.insert("config".into(), config_value(sub.config.as_ref()));
    m.insert("profile".into(), sub.profile.as_str().into());
    m.insert(
        "command".into(),
        crate::object::ToValue::to_value(&sub.command),
    );
    m.insert("protocol".into(), sub.protocol.clone().into());
    if let Some(r) = &repeated {
        m.insert("repeat".into(), r.runs.into());
    }
    m.insert("negotiatedProtocol".into(), run.negotiated().into());
    m.insert("initialized".into(), run.initialized.into());
    m.insert("operation".into(), operation);
    m.insert("operations".into(), operations);
    m.insert("adversarial".into(), adversarial_value(sub, run));
    if let Some(r) = &repeated {
        let drift = r.drift;
        let later = move |indent: &str| Rendered::text(drift_text(drift, indent));
        m.insert("drift".into(), c.slot(Slot::Later(Box::new(later))));
    }
    m.insert("toolSchema".into(), tool_schema_value(c, tools));
    m.insert("capabilityProbes".into(), sub.capability_probes.into());
    m.insert(
        "capabilityKeys".into(),
        crate::object::ToValue::to_value(&run.facts.capabilities),
    );
    m.insert("capabilityChecks".into(), capability_checks);
    m.insert("process".into(), process(sub, run));
    m.insert(
        "checks".into(),
        checks_value(checks, capability_check, repeat_check),
    );
    m.insert("issueClasses".into(), classes(j.classes));
    m.insert("summary".into(), summary(j.summary));
    m.insert("fingerprint".into(), fingerprint(c, run));
    m.insert(
        "issues".into(),
        issues
            .iter()
            .map(crate::report::common::issue_value)
            .collect(),
    );
    m.insert(
        "staticScan".into(),
        scan::static_scan(c.scan, sub.fail_on_static),
    );
    m.insert("staticFindings".into(), scan::static_findings(c.scan));
    additive(c, run, &mut m);
    if let Some(r) = repeated {
        m.insert("runs".into(), r.documents);
    }
    Value::Object(m)
}

/// `contextCost` (additive): what the definitions add to every prompt.
/// Entries of a per-tool list a report shows, at most: a server's list
/// of 100,000 tools is counted past it (`…Omitted`), not written.
pub const LISTED: usize = 1000;

/// The first `LISTED` items, and how many are left out.
fn bounded<T>(items: &[T]) -> (&[T], usize) {
    let shown = items.len().min(LISTED);
    (&items[..shown], items.len() - shown)
}

fn context_cost<'a>(
    c: &Context<'a, '_>,
    cost: &'a crate::checks::lint::cost::ContextCost,
) -> Value {
    let (shown, omitted) = bounded(&cost.tools);
    let tools = c.array(shown, |t| {
        obj! {"name" => t.name, "bytes" => t.bytes, "tokens" => t.tokens}
    });
    obj! {
        "estimate" => crate::checks::lint::cost::ESTIMATE,
        "totalBytes" => cost.total_bytes,
        "totalTokens" => cost.total_tokens,
        "budgetTokens" => cost.budget_tokens,
        "overBudget" => cost.over_budget(),
        "instructionsBytes" => cost.instructions_bytes,
        "tools" => tools,
        "toolsOmitted" => omitted,
    }
}

/// `definitions` (additive): the pinned hash of each listed tool and of
/// them all.
fn definitions<'a>(c: &Context<'a, '_>, run: &'a RunReport) -> Value {
    let pins = run
        .facts
        .definitions
        .as_deref()
        .map_or(&[][..], Vec::as_slice);
    let (shown, omitted) = bounded(pins);
    let tools = c.array(shown, |p| obj! {"name" => p.name, "sha256" => p.sha256});
    obj! {"sha256" => run.definitions_sha256, "tools" => tools, "toolsOmitted" => omitted}
}

fn tool_schema_value<'a>(
    c: &Context<'a, '_>,
    tools: &'a crate::checks::catalog::ToolSummary,
) -> Value {
    let (names, omitted) = bounded(&tools.tool_names);
    obj! {
        "checked" => tools.checked,
        "toolCount" => tools.tool_count,
        "toolNames" => c.array(names, |n| Value::from(n.as_str())),
        "toolNamesOmitted" => omitted,
        "validToolCount" => tools.valid_tool_count,
        "warningCount" => tools.warning_count,
        "errorCount" => tools.error_count,
        "duplicateNames" => tools.duplicate_names,
    }
}

/// The `drift` block.
fn drift_value(drift: Option<&Drift>) -> Value {
    let Some(d) = drift.filter(|d| d.baseline_run.is_some()) else {
        return obj! {
            "checked" => false,
            "status" => "skipped",
            "issueCodes" => json!([]),
            "baselineRun" => Value::Null,
            "comparedRuns" => json!([]),
            "reason" => "no run completed initialize",
        };
    };
    let section = |s: &Option<drift::Section>| s.as_ref().map_or(Value::Null, drift::section_json);
    let mut codes: Vec<&str> = d
        .sections()
        .filter(|s| s.changed())
        .map(|s| s.code.as_str())
        .collect();
    if !d.changed_definitions.is_empty() {
        codes.push(crate::checks::Code::RepeatToolDefinitionDrift.as_str());
    }
    codes.dedup();
    obj! {
        "checked" => true,
        "status" => if d.changed() { "warning" } else { "pass" },
        "issueCodes" => codes,
        "baselineRun" => d.baseline_run,
        "comparedRuns" => d.compared_runs,
        "negotiatedProtocol" => section(&d.protocol),
        "capabilities" => section(&d.capabilities),
        "tools" => section(&d.tools),
        "lists" => obj! {"resources" => section(&d.resources), "prompts" => section(&d.prompts)},
        "toolDefinitions" => obj! {
            "status" => if d.changed_definitions.is_empty() { "pass" } else { "warning" },
            "changedTools" => d.changed_definitions,
        },
    }
}

/// The whole report as a JSON value.
fn build<'a>(r: &'a Report, slots: &std::cell::RefCell<Vec<Slot<'a>>>) -> Value {
    let c = Context {
        slots,
        subject: &r.subject,
        scan: r.scan.as_ref(),
        repeat: if r.runs.len() > 1 {
            r.runs.len() as u64
        } else {
            r.subject.repeat
        },
        eras: &r.eras,
    };
    let whole = Judged {
        issues: &r.issues,
        checks: &r.checks,
        classes: &r.classes,
        summary: &r.summary,
    };
    let single = Context { scan: None, ..c };
    let Some(repeat) = &r.repeat else {
        let mut doc = document(&c, r.first(), whole, None);
        if let (Value::Object(m), Some(other)) = (&mut doc, &r.eras.other) {
            m.insert(
                "otherEra".into(),
                document(&single, other, Judged::of_run(other), None),
            );
        }
        add_report_level(&mut doc, r);
        return doc;
    };
    let documents = c.slot(Slot::Later(Box::new(move |indent: &str| {
        run_documents(r, indent)
    })));
    let check = &repeat.check;
    let repeated = Repeated {
        runs: repeat.runs,
        drift: r.drift.as_ref(),
        check: obj! {
            "status" => check.status.as_str(),
            "issueCodes" => check.codes.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            "runs" => repeat.runs,
            "passedRuns" => repeat.runs - repeat.failed.len(),
            "failedRuns" => repeat.failed,
        },
        documents,
    };
    let mut doc = document(&c, r.first(), whole, Some(repeated));
    add_report_level(&mut doc, r);
    doc
}

/// The additive members about the whole report: the `score`,
/// `expectedFailures` (what an `--expected-failures` baseline made of the
/// official records) and `baseline` (what `--baseline` accepted).
fn add_report_level(doc: &mut Value, r: &Report) {
    let Value::Object(m) = doc else { return };
    let s = &r.score;
    let parts: Map<String, Value> = s
        .parts
        .iter()
        .map(|p| {
            (
                p.name.to_string(),
                obj! {"weight" => p.weight, "earned" => p.earned},
            )
        })
        .collect();
    m.insert(
        "score".into(),
        obj! {
            "value" => s.value,
            "grade" => s.grade,
            "color" => s.color(),
            "rule" => crate::verdict::score::RULE,
            "checks" => parts,
        },
    );
    if let Some(rb) = &r.robustness {
        m.insert("robustness".into(), robustness_value(rb));
    }
    if let Some(c) = &r.confinement {
        m.insert("confinement".into(), confinement_value(c));
    }
    if let Some(e) = &r.expected {
        m.insert(
            "expectedFailures".into(),
            obj! {
                "file" => e.file,
                "holds" => e.holds(),
                "expected" => e.expected,
                "unexpected" => e.unexpected,
                "stale" => e.stale,
                "ignored" => e.ignored,
            },
        );
    }
    if let Some(a) = &r.accepted {
        let accepted: Vec<Value> = a
            .accepted
            .iter()
            .map(|i| {
                let mut v = crate::report::common::issue_value(i);
                v["subject"] = crate::verdict::accepted::subject_of(i).into();
                v
            })
            .collect();
        let stale: Vec<Value> = a
            .stale
            .iter()
            .map(|e| obj! {"code" => e.code, "subject" => e.subject, "severity" => e.severity})
            .collect();
        m.insert(
            "baseline".into(),
            obj! {"file" => a.file, "accepted" => accepted, "stale" => stale},
        );
    }
}

/// `robustness` (additive): what the probe of every tool did, per tool
/// and in all.
pub fn robustness_value(rb: &crate::checks::robustness::Summary) -> Value {
    let tools: Vec<Value> = rb
        .tools
        .iter()
        .map(|t| {
            obj! {
                "name" => t.name,
                "invalidCalls" => t.invalid,
                "refusedAsExpected" => t.refused,
                "validCalls" => t.valid,
                "answered" => t.answered,
                "toolErrors" => t.domain_errors,
                "findings" => t.findings,
                "durationMs" => t.ms,
                "notSent" => t.not_sent,
                "latencyP50Ms" => t.p50_ms,
                "latencyP95Ms" => t.p95_ms,
                "largestAnswerBytes" => t.largest_bytes,
                "largestAnswerTokens" => t.largest_tokens,
            }
        })
        .collect();
    let not_called: Vec<Value> = rb
        .not_called
        .iter()
        .map(|n| obj! {"tool" => n.tool, "reason" => n.reason})
        .collect();
    obj! {
        "seed" => rb.seed,
        "budgetMs" => rb.budget_ms,
        "durationMs" => rb.duration_ms,
        "sessions" => rb.sessions,
        "restarts" => rb.restarts,
        "callsSent" => rb.calls_sent,
        "findings" => rb.findings,
        "tools" => tools,
        "notCalled" => not_called,
    }
}

/// `confinement` (additive): the policy in force, what this kernel could
/// enforce and observe, and what the server touched.
pub fn confinement_value(c: &crate::checks::confine::Summary) -> Value {
    let events: Vec<Value> = c
        .events
        .iter()
        .map(|e| {
            obj! {
                "kind" => e.kind.as_str(),
                "target" => e.target,
                "argv" => e.argv,
                "phase" => e.phase,
                "pid" => e.pid,
                "program" => e.program,
                "denied" => e.denied,
                "absent" => e.absent,
                "count" => e.count,
                "atMs" => e.at_ms,
            }
        })
        .collect();
    obj! {
        "mode" => c.mode,
        "landlockAbi" => c.landlock_abi,
        "seccomp" => c.seccomp,
        "enforced" => c.enforced,
        "notEnforced" => c.not_enforced,
        "observed" => c.observed,
        "notObserved" => c.not_observed,
        "limits" => c.limits,
        "notifications" => c.notifications,
        "programs" => c.programs,
        "events" => events,
        "eventsDropped" => c.events_dropped,
        "problem" => c.problem,
    }
}

/// The report as pretty-printed JSON with a final newline, its frames
/// streamed in and its `--repeat` runs' documents built where they go.
pub fn render(r: &Report) -> Rendered<'_> {
    let slots = std::cell::RefCell::new(Vec::new());
    let text = pretty(&build(r, &slots));
    Rendered::json(text, slots.into_inner())
}

/// Pretty JSON without the final newline (a part written inside another).
fn pretty_bare(v: &Value) -> String {
    let mut text = pretty(v);
    if text.ends_with('\n') {
        text.pop();
    }
    text
}

/// The `drift` block at `indent`, a run that listed the baseline's tools
/// written with the baseline's list (held once, not per run).
fn drift_text(drift: Option<&Drift>, indent: &str) -> String {
    let text = indented(&pretty_bare(&drift_value(drift)), indent);
    let mark = serde_json::to_string(drift::SAME_AS_BASELINE).unwrap_or_default();
    let Some(at) = text.find(&mark) else {
        return text;
    };
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let inner: String = text[line_start..at]
        .chars()
        .take_while(|c| *c == ' ')
        .collect();
    let baseline = drift
        .and_then(|d| d.tools.as_ref())
        .map_or(Value::Null, |s| s.baseline.clone());
    text.replace(&mark, &indented(&pretty_bare(&baseline), &inner))
}

/// The `runs` array of a `--repeat` report at `indent`: each run's
/// document built and written in its turn.
fn run_documents<'a>(r: &'a Report, indent: &str) -> Rendered<'a> {
    let inner = format!("{indent}  ");
    let mut slots: Vec<Slot<'a>> = Vec::new();
    let mut text = String::from("[");
    for (i, run) in r.runs.iter().enumerate() {
        text.push_str(if i == 0 { "\n" } else { ",\n" });
        text.push_str(&inner);
        text.push_str(&format!(
            "\"{}\"",
            placeholder(i).replace('\u{1}', "\\u0001")
        ));
        let later = move |at: &str| run_document(r, run, at);
        slots.push(Slot::Later(Box::new(later)));
    }
    text.push_str(&format!("\n{indent}]"));
    Rendered::json(text, slots)
}

/// One `--repeat` run's document, at `indent`, its frames streamed in.
fn run_document<'a>(r: &'a Report, run: &'a RunReport, indent: &str) -> Rendered<'a> {
    let slots = std::cell::RefCell::new(Vec::new());
    let c = Context {
        slots: &slots,
        subject: &r.subject,
        scan: None,
        repeat: r.runs.len() as u64,
        eras: &r.eras,
    };
    let mut doc = document(&c, run, Judged::of_run(run), None);
    if let (Value::Object(m), Some(n)) = (&mut doc, run.number) {
        m.insert("run".into(), n.into());
    }
    let text = indented(&pretty_bare(&doc), indent);
    drop(doc);
    Rendered::json(text, slots.into_inner())
}
