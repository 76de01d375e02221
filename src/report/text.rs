//! The human report. It starts like the 1.0 tool's (`PASS MCP stdio guard`,
//! `initialize:`, `frames:` ...) and then says more: one line per issue with
//! the physical stdout line, the step that ended the server, and the stderr
//! tail when the server died. Server text is escaped, so a hostile server
//! cannot drive the terminal.

use crate::escape;
use crate::mcp;
use crate::report::common::issue_line;
use crate::report::style::Paint;
use crate::session::EndedBy;
use crate::verdict::{Baseline, Check, Report, RunReport, Status};

/// Lines of stderr shown when the server died.
const STDERR_TAIL_LINES: usize = 12;

fn ended_by_line(run: &RunReport) -> Option<String> {
    let sd = &run.shutdown;
    run.pid?;
    let status = match sd.exit {
        Some(e) => match (e.code, e.signal) {
            (_, Some(sig)) => format!("signal {}", crate::sys::signal_name(sig)),
            (Some(code), None) => format!("code {code}"),
            (None, None) => "unknown status".to_string(),
        },
        None => "not reaped".to_string(),
    };
    let after = |from: Option<u64>| match (from, sd.exited_at_ms) {
        (Some(a), Some(b)) => format!(" {} ms later", b.saturating_sub(a)),
        _ => String::new(),
    };
    Some(match sd.ended_by {
        EndedBy::ItsOwnExit => format!("server: exited on its own ({status})"),
        EndedBy::StdinClose => format!(
            "server: exited after its stdin was closed{} ({status})",
            after(sd.stdin_closed_at_ms)
        ),
        // Windows has no SIGTERM for a console process: that step ends the
        // job object that holds the server.
        EndedBy::Sigterm => format!(
            "server: ignored stdin close; stopped by {}{} ({status})",
            if cfg!(windows) {
                "ending its job"
            } else {
                "SIGTERM"
            },
            after(sd.sigterm_at_ms)
        ),
        EndedBy::Sigkill => format!("server: killed with SIGKILL ({status})"),
        EndedBy::Unknown => "server: did not exit even after SIGKILL".to_string(),
    })
}

fn check_line(name: &str, c: &Check) -> String {
    let mut text = format!("{name}: {}", c.status.as_str());
    if let Some(reason) = c.reason {
        text.push_str(&format!(" ({reason})"));
    }
    if !c.codes.is_empty() {
        let codes: Vec<&str> = c.codes.iter().map(|c| c.as_str()).collect();
        text.push_str(&format!(" [{}]", codes.join(", ")));
    }
    text
}

/// `--verbose`: every check with its status, skipped ones with why, so a
/// run never looks better by containing fewer checks.
fn check_lines(r: &Report) -> Vec<String> {
    let c = &r.checks;
    let mut out = vec!["checks:".to_string()];
    let mut push = |name: &str, check: &Check| out.push(format!("  {}", check_line(name, check)));
    push("initialize", &c.initialize);
    push("stdout", &c.stdout);
    push("jsonRpc", &c.json_rpc);
    push("operation", &c.operation);
    push("capabilities", &c.capabilities);
    for l in &r.first().lists {
        out.push(format!("    {}", check_line(l.spec.key, &l.check)));
    }
    let mut push = |name: &str, check: &Check| out.push(format!("  {}", check_line(name, check)));
    push("toolSchema", &c.tool_schema);
    push("definitions", &c.definitions);
    push("adversarial", &c.adversarial);
    push("process", &c.process);
    push("pythonBuffering", &c.python_buffering);
    push("staticScan", &c.static_scan);
    if r.repeat.is_none() {
        push("repeat", &r.repeat_check());
    }
    push("against", &c.against);
    out
}

/// The lines about one run's exchange (after the verdict line).
fn run_lines(r: &Report, run: &RunReport) -> Vec<String> {
    let mut lines = Vec::new();
    let modern = run.modern();
    lines.push(format!(
        "{}: {}",
        if modern { "discover" } else { "initialize" },
        if run.initialized { "ok" } else { "failed" }
    ));
    lines.push(format!(
        "frames: {} stdout / {} invalid",
        run.frames.len(),
        run.invalid_lines
    ));
    lines.push(format!(
        "stderr: {}",
        crate::plural::count(run.stderr.lines() as usize, "line")
    ));
    if r.subject.profile != crate::args::words::Profile::Custom {
        lines.push(format!("profile: {}", r.subject.profile.as_str()));
    }
    let negotiated = run.negotiated();
    if !negotiated.is_empty() {
        let requested = r.subject.protocol.as_str();
        let note = if negotiated == requested || modern {
            String::new()
        } else if mcp::is_date_shaped(negotiated) && negotiated < requested {
            format!(" (requested {requested}; the server chose an older version, which is allowed)")
        } else {
            format!(" (requested {requested})")
        };
        lines.push(format!("protocol: {}{note}", escape::line(negotiated)));
    }
    for op in &run.ops {
        lines.push(format!(
            "request: {} {}",
            escape::line(&op.method),
            if op.responded { "responded" } else { "missing" }
        ));
    }
    for l in run
        .lists
        .iter()
        .filter(|l| l.check.status != Status::Skipped)
    {
        let pages = if l.pages == 1 {
            String::new()
        } else {
            format!(" in {} pages", l.pages)
        };
        let what = match (l.item_count, &l.error) {
            (_, Some(_)) => "error".to_string(),
            (Some(n), None) => format!("{n} {}{pages}", if n == 1 { "item" } else { "items" }),
            (None, None) if l.responded => "no item list".to_string(),
            (None, None) => "no response".to_string(),
        };
        lines.push(format!("list: {} {what}", l.spec.method));
    }
    lines
}

/// The text report; `verbose` lists every check.
pub fn render(r: &Report, p: Paint, verbose: bool) -> String {
    let run = r.first();
    let mut lines = vec![if r.passed() {
        p.pass("PASS MCP stdio guard")
    } else {
        p.fail("FAIL MCP stdio guard")
    }];
    lines.extend(run_lines(r, run));
    if let Some(s) = &r.scan {
        lines.push(crate::report::scan::summary_line(s));
    }
    if !run.probes.is_empty() {
        let started = run.probes.iter().filter(|a| a.started).count();
        let failed = run
            .probes
            .iter()
            .filter(|a| a.check.status == Status::Fail)
            .count();
        lines.push(format!(
            "adversarial: {started}/{} probes run, {failed} failed",
            run.probes.len()
        ));
    }
    let tools = &run.tool_summary;
    if tools.checked {
        lines.push(format!(
            "tool schemas: {}/{} valid",
            tools.valid_tool_count, tools.tool_count
        ));
    }
    if let Some(line) = environment_line(r) {
        lines.push(line);
    }
    if let Some(line) = era_line(r, run) {
        lines.push(line);
    }
    lines.extend(context_line(run));
    lines.extend(robustness_lines(r));
    lines.extend(confinement_lines(r));
    lines.push(score_line(r));
    lines.extend(issue_lines(&r.issues, &p));
    if verbose {
        lines.extend(check_lines(r));
    }
    lines.extend(against_line(r));
    lines.extend(expected_lines(r));
    lines.extend(accepted_lines(r));
    lines.extend(ended_by_line(run));
    lines.extend(stderr_tail(run));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Each issue on its line; under the first of each code, how to fix it.
pub fn issue_lines(issues: &[crate::checks::Issue], p: &Paint) -> Vec<String> {
    let mut seen: Vec<crate::checks::Code> = Vec::new();
    let mut lines = Vec::with_capacity(issues.len() * 2);
    for issue in issues {
        lines.push(issue_line(issue, p));
        if !seen.contains(&issue.code) {
            seen.push(issue.code);
            lines.push(format!("  fix: {}", crate::checks::fix::fix(issue.code)));
        }
    }
    lines
}

/// `--confine`: the mode and what it could do, then the programs run and
/// the events that are not findings already.
fn confinement_lines(r: &Report) -> Vec<String> {
    let Some(c) = &r.confinement else {
        return Vec::new();
    };
    let landlock = match c.landlock_abi {
        0 => "no Landlock".to_string(),
        abi => format!("Landlock ABI {abi}"),
    };
    let seccomp = if c.seccomp {
        "seccomp notification"
    } else {
        "no seccomp notification"
    };
    let mut lines = vec![format!(
        "confinement: {} ({landlock}, {seccomp}), {} notification{}, {} event{}",
        c.mode,
        c.notifications,
        if c.notifications == 1 { "" } else { "s" },
        c.events.len(),
        if c.events.len() == 1 { "" } else { "s" },
    )];
    for n in &c.not_enforced {
        lines.push(format!("  not enforced: {}", escape::line(n)));
    }
    for n in &c.limits {
        lines.push(format!("  limit: {}", escape::line(n)));
    }
    if let Some(p) = &c.problem {
        lines.push(format!("  not observed: {}", escape::line(p)));
    }
    if !c.programs.is_empty() {
        let shown: Vec<String> = c
            .programs
            .iter()
            .take(10)
            .map(|p| escape::line(p))
            .collect();
        lines.push(format!("  programs run: {}", shown.join(", ")));
    }
    use crate::session::confine::Kind;
    let listed = |e: &&crate::session::confine::Event| {
        matches!(
            e.kind,
            Kind::ReadOutside | Kind::LocalSocket | Kind::LauncherConfig | Kind::Foreign
        ) || e.kind == Kind::Exec && e.denied
    };
    for e in c.events.iter().filter(listed).take(10) {
        let denied = if e.denied { " (refused)" } else { "" };
        lines.push(format!(
            "  {} {}{denied} during {}",
            e.kind.as_str(),
            escape::line(&e.target),
            escape::line(&e.phase)
        ));
    }
    lines
}

/// `--robustness`: one line for the phase, then a table of the tools.
fn robustness_lines(r: &Report) -> Vec<String> {
    let Some(rb) = &r.robustness else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "robustness: {} calls in {} ms ({} process{}, {} restart{}), {} finding{}, seed {}",
        rb.calls_sent,
        rb.duration_ms,
        rb.sessions,
        if rb.sessions == 1 { "" } else { "es" },
        rb.restarts,
        if rb.restarts == 1 { "" } else { "s" },
        rb.findings,
        if rb.findings == 1 { "" } else { "s" },
        rb.seed
    )];
    if rb.tools.is_empty() {
        lines.extend(rb.not_called.iter().map(|n| format!("  {}", n.reason)));
        return lines;
    }
    let width = rb
        .tools
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40);
    lines.push(format!(
        "  {:<width$}  {:>9}  {:>7}  {:>8}  {}",
        "tool", "bad input", "refused", "findings", "valid calls"
    ));
    for t in &rb.tools {
        let name = crate::report::common::padded(&escape::line(&t.name), width);
        let mut valid = if t.valid == 0 {
            "-".to_string()
        } else {
            format!("{}/{} answered", t.answered, t.valid)
        };
        if t.domain_errors > 0 {
            valid.push_str(&format!(" ({} isError)", t.domain_errors));
        }
        if let Some(why) = t.not_sent.first() {
            valid.push_str(&format!("; not sent: {why}"));
        }
        lines.push(format!(
            "  {name}  {:>9}  {:>7}  {:>8}  {valid}",
            t.invalid, t.refused, t.findings
        ));
    }
    for n in &rb.not_called {
        lines.push(format!("  {}: {}", escape::line(&n.tool), n.reason));
    }
    let slowest = rb
        .tools
        .iter()
        .filter(|t| t.valid > 0)
        .max_by_key(|t| t.p95_ms);
    let largest = rb.tools.iter().max_by_key(|t| t.largest_bytes);
    if let (Some(s), Some(l)) = (slowest, largest) {
        lines.push(format!(
            "  slowest: {} (valid calls p50 {} ms, p95 {} ms); largest answer: {} ({} bytes, ~{} tokens)",
            escape::line(&s.name),
            s.p50_ms,
            s.p95_ms,
            escape::line(&l.name),
            l.largest_bytes,
            l.largest_tokens
        ));
    }
    lines
}

fn environment_line(r: &Report) -> Option<String> {
    let env = &r.subject.environment;
    if env.mode != "inherit" && env.set.is_empty() && env.forwarded.is_empty() {
        return None;
    }
    let mut names: Vec<String> = env.set.clone();
    names.extend(env.forwarded.iter().cloned());
    crate::order::sort(&mut names);
    let missing = if env.missing.is_empty() {
        String::new()
    } else {
        format!("; not set here: {}", env.missing.join(", "))
    };
    Some(format!(
        "environment: {} + {}{missing}",
        env.mode,
        if names.is_empty() {
            "-".to_string()
        } else {
            names.join(", ")
        }
    ))
}

/// The last stderr lines of a server that died on its own.
fn stderr_tail(run: &RunReport) -> Vec<String> {
    let died = run.shutdown.ended_by == EndedBy::ItsOwnExit
        && run
            .shutdown
            .exit
            .is_some_and(|e| !e.is_clean() || !run.initialized);
    if !died || run.stderr.total() == 0 {
        return Vec::new();
    }
    let mut lines = vec!["stderr tail:".to_string()];
    for l in run.stderr.tail_lines(STDERR_TAIL_LINES) {
        lines.push(format!("  | {}", escape::line(&l)));
    }
    lines
}

/// The `--repeat` text, as the 1.0 tool prints it: the verdict, one line
/// per run, then every issue (a run's with its number) and the drift.
pub fn render_repeat(r: &Report, p: Paint, verbose: bool) -> String {
    let n = r.runs.len();
    let passed = r.runs.iter().filter(|run| run.ok()).count();
    let mut lines = vec![if r.passed() {
        p.pass(&format!("PASS MCP stdio guard ({n} runs)"))
    } else {
        p.fail(&format!("FAIL MCP stdio guard ({n} runs)"))
    }];
    lines.push(format!("runs: {passed}/{n} passed"));
    for run in &r.runs {
        lines.push(format!(
            "run {}: {}, initialize {}, frames {} stdout / {} invalid, stderr {}",
            run.number.unwrap_or(0),
            if run.ok() { "PASS" } else { "FAIL" },
            if run.initialized { "ok" } else { "failed" },
            run.frames.len(),
            run.invalid_lines,
            crate::plural::count(run.stderr.lines() as usize, "line")
        ));
    }
    if r.subject.profile != crate::args::words::Profile::Custom {
        lines.push(format!("profile: {}", r.subject.profile.as_str()));
    }
    let negotiated = r.first().negotiated();
    if !negotiated.is_empty() {
        lines.push(format!("protocol: {}", escape::line(negotiated)));
    }
    if let Some(s) = &r.scan {
        lines.push(crate::report::scan::summary_line(s));
    }
    if let Some(d) = &r.drift {
        lines.push(match d.baseline_run {
            None => "drift: not checked (no run completed initialize)".to_string(),
            Some(_) if d.changed() => "drift: changed across runs (see the warnings)".to_string(),
            Some(b) => format!("drift: none (runs compared with run {b})"),
        });
    }
    lines.push(score_line(r));
    lines.extend(r.issues.iter().map(|issue| issue_line(issue, &p)));
    if verbose {
        lines.extend(check_lines(r));
    }
    lines.extend(against_line(r));
    lines.extend(expected_lines(r));
    lines.extend(accepted_lines(r));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `era: modern (server/discover answered in 12 ms)`, with what `--era
/// both` found of the other era.
fn era_line(r: &Report, run: &RunReport) -> Option<String> {
    let e = run.era.as_ref()?;
    let detected = r.detected_era().unwrap_or(e.speaks.as_str());
    let mut line = format!("era: {detected} ({}", escape::line(&e.reason));
    if let Some(ms) = e.probe_ms {
        line.push_str(&format!(", probe answered in {ms} ms"));
    }
    line.push(')');
    if let Some(other) = &r.eras.other {
        let verdict = if other.ok() { "pass" } else { "fail" };
        line.push_str(&format!("; legacy run: {verdict}"));
    }
    for (era, why) in &r.eras.not_served {
        line.push_str(&format!("; {era}: not served ({})", escape::line(why)));
    }
    Some(line)
}

/// What an `--expected-failures` baseline made of the run.
fn expected_lines(r: &Report) -> Vec<String> {
    let Some(e) = &r.expected else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "expected failures ({}): {} expected, {} unexpected, {} stale{}",
        escape::line(&e.file),
        e.expected.len(),
        e.unexpected.len(),
        e.stale.len(),
        if e.holds() {
            ""
        } else {
            ": the baseline does not hold"
        }
    )];
    let list = |what: &str, items: &[String]| {
        (!items.is_empty()).then(|| format!("  {what}: {}", escape::line(&items.join(", "))))
    };
    lines.extend(list("unexpected (not in the baseline)", &e.unexpected));
    lines.extend(list(
        "stale (now passing: remove from the baseline)",
        &e.stale,
    ));
    lines.extend(list("ignored (not checked by the guard)", &e.ignored));
    lines
}

/// `context: ~1234 tokens per prompt ...`, when tools were listed.
fn context_line(run: &RunReport) -> Option<String> {
    let c = &run.context_cost;
    if !run.tools_answered {
        return None;
    }
    let over = if c.over_budget() { ", over" } else { "" };
    Some(format!(
        "context: ~{} tokens per prompt ({}, {} bytes, estimated as {}; budget {}{over})",
        c.total_tokens,
        crate::plural::count(c.tools.len(), "tool"),
        c.total_bytes,
        crate::checks::lint::cost::ESTIMATE,
        c.budget_tokens
    ))
}

fn score_line(r: &Report) -> String {
    format!("score: {}/100 ({})", r.score.value, r.score.grade)
}

/// What a `--baseline` accepted, and its stale entries.
fn accepted_lines(r: &Report) -> Vec<String> {
    let Some(a) = &r.accepted else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "baseline ({}): {} accepted, {} stale",
        escape::line(&a.file),
        a.accepted.len(),
        a.stale.len()
    )];
    for i in &a.accepted {
        lines.push(format!(
            "  accepted: {} {}",
            i.code,
            escape::line(&crate::verdict::accepted::subject_of(i))
        ));
    }
    for e in &a.stale {
        lines.push(format!(
            "  stale (no longer found: remove it, or --write-baseline anew): {} {}",
            escape::line(&e.code),
            escape::line(&e.subject)
        ));
    }
    lines
}

/// What `--against` compared with: a record, or, always said, none.
fn against_line(r: &Report) -> Option<String> {
    match &r.baseline {
        Baseline::Record(time) => Some(format!("against: the record of {}", escape::line(time))),
        Baseline::NoRecord => {
            Some("against: no earlier record for this command: nothing to compare".to_string())
        }
        Baseline::NotUsed => None,
    }
}
