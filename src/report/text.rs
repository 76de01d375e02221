//! The human report. It starts like the 1.0 tool's (`PASS MCP stdio guard`,
//! `initialize:`, `frames:` ...) and then says more: one line per issue with
//! the physical stdout line, the step that ended the server, and the stderr
//! tail when the server died. Control characters from the server are
//! escaped, so a hostile server cannot drive the terminal.

use crate::checks::Severity;
use crate::mcp;
use crate::report::Report;
use crate::transcript::EndedBy;

/// Lines of stderr shown when the server died.
const STDERR_TAIL_LINES: usize = 12;

/// ANSI colour, when it is on.
pub struct Paint {
    pub on: bool,
}

impl Paint {
    pub fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// One issue as a report line: `[error] code: message`, escaped.
pub fn issue_line(issue: &crate::checks::Issue, p: &Paint) -> String {
    let tag = match issue.severity {
        Severity::Error => p.wrap("31", "[error]"),
        Severity::Warning => p.wrap("33", "[warning]"),
    };
    format!("{tag} {}: {}", issue.code, sanitize(&issue.message))
}

/// Escapes control characters (ESC, BEL, CR ...) as `\u{..}`.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn ended_by_line(r: &Report) -> Option<String> {
    let sd = &r.tr.shutdown;
    r.tr.pid?;
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
        EndedBy::Sigterm => format!(
            "server: ignored stdin close; stopped by SIGTERM{} ({status})",
            after(sd.sigterm_at_ms)
        ),
        EndedBy::Sigkill => format!("server: killed with SIGKILL ({status})"),
        EndedBy::Unknown => "server: did not exit even after SIGKILL".to_string(),
    })
}

/// `--verbose`: every check with its status, skipped ones with why, so a
/// run never looks better by containing fewer checks.
fn check_lines(r: &Report) -> Vec<String> {
    let json = crate::report::json::build(r);
    let mut out = vec!["checks:".to_string()];
    let line = |name: &str, c: &serde_json::Value| {
        let status = c["status"].as_str().unwrap_or("?");
        let codes: Vec<&str> = c["issueCodes"]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let mut text = format!("{name}: {status}");
        if let Some(reason) = c["reason"].as_str() {
            text.push_str(&format!(" ({reason})"));
        }
        if !codes.is_empty() {
            text.push_str(&format!(" [{}]", codes.join(", ")));
        }
        text
    };
    if let Some(checks) = json["checks"].as_object() {
        for (name, c) in checks {
            out.push(format!("  {}", line(name, c)));
            if name == "capabilities" {
                for key in ["tools", "resources", "resourceTemplates", "prompts"] {
                    out.push(format!("    {}", line(key, &c[key])));
                }
            }
        }
    }
    out
}

pub fn render(r: &Report, color: bool) -> String {
    let p = Paint { on: color };
    let tr = r.tr;
    let mut lines = Vec::new();
    lines.push(if r.ok() {
        p.wrap("1;32", "PASS MCP stdio guard")
    } else {
        p.wrap("1;31", "FAIL MCP stdio guard")
    });
    lines.push(format!(
        "initialize: {}",
        if tr.initialized() { "ok" } else { "failed" }
    ));
    lines.push(format!(
        "frames: {} stdout / {} invalid",
        tr.frames().count(),
        tr.invalid_line_count()
    ));
    lines.push(format!("stderr: {} lines", tr.stderr.lines()));
    if r.plan.profile != crate::cli::Profile::Custom {
        lines.push(format!("profile: {}", r.plan.profile.as_str()));
    }
    let negotiated = tr.negotiated_protocol();
    if !negotiated.is_empty() {
        let requested = r.plan.protocol.as_str();
        let note = if negotiated == requested {
            String::new()
        } else if mcp::is_date_shaped(negotiated) && negotiated < requested {
            format!(" (requested {requested}; the server chose an older version, which is allowed)")
        } else {
            format!(" (requested {requested})")
        };
        lines.push(format!("protocol: {}{note}", sanitize(negotiated)));
    }
    for op in &tr.ops {
        lines.push(format!(
            "request: {} {}",
            sanitize(&op.method),
            if op.responded { "responded" } else { "missing" }
        ));
    }
    for l in r.lists().iter().filter(|l| l.check.status != "skipped") {
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
    if let Some(s) = r.scan {
        lines.push(crate::report::scan::summary_line(s));
    }
    let probes = &tr.adversarial;
    if !probes.is_empty() {
        let started = probes.iter().filter(|a| a.started).count();
        let failed = (0..probes.len())
            .filter(|&i| {
                crate::checks::adversarial::probe_issues(tr, i)
                    .iter()
                    .any(|x| x.is_error())
            })
            .count();
        lines.push(format!(
            "adversarial: {started}/{} probes run, {failed} failed",
            probes.len()
        ));
    }
    let tools = r.tool_summary();
    if tools.checked {
        lines.push(format!(
            "tool schemas: {}/{} valid",
            tools.valid_tool_count, tools.tool_count
        ));
    }
    let env = &r.plan.environment;
    if env.mode == "inherit" || !env.set.is_empty() || !env.forwarded.is_empty() {
        let mut names: Vec<String> = env.set.clone();
        names.extend(env.forwarded.iter().cloned());
        names.sort();
        let missing = if env.missing.is_empty() {
            String::new()
        } else {
            format!("; not set here: {}", env.missing.join(", "))
        };
        lines.push(format!(
            "environment: {} + {}{missing}",
            env.mode,
            if names.is_empty() {
                "-".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    lines.extend(r.issues.iter().map(|issue| issue_line(issue, &p)));
    if r.plan.verbose {
        lines.extend(check_lines(r));
    }
    if let crate::report::Baseline::Record(time) = &r.baseline {
        lines.push(format!("against: the record of {}", sanitize(time)));
    }
    if let Some(line) = ended_by_line(r) {
        lines.push(line);
    }
    let died = tr.shutdown.ended_by == EndedBy::ItsOwnExit
        && tr
            .shutdown
            .exit
            .is_some_and(|e| !e.is_clean() || !tr.initialized());
    if died && tr.stderr.total() > 0 {
        lines.push("stderr tail:".to_string());
        let text = tr.stderr.text();
        let all: Vec<&str> = text.lines().collect();
        for l in &all[all.len().saturating_sub(STDERR_TAIL_LINES)..] {
            lines.push(format!("  | {}", sanitize(l)));
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    r.plan.redactor.scrub(&out).into_owned()
}

/// The `--repeat` text: the verdict over all runs, each run's report, then
/// what drifted between them.
pub fn render_repeat(r: &Report, runs: &[String], color: bool) -> String {
    let p = Paint { on: color };
    let mut out = String::new();
    out.push_str(&if r.ok() {
        p.wrap(
            "1;32",
            &format!("PASS MCP stdio guard ({} runs)", runs.len()),
        )
    } else {
        p.wrap(
            "1;31",
            &format!("FAIL MCP stdio guard ({} runs)", runs.len()),
        )
    });
    out.push('\n');
    for (i, text) in runs.iter().enumerate() {
        out.push_str(&format!("== run {}/{}\n", i + 1, runs.len()));
        out.push_str(text);
    }
    let cross: Vec<&crate::checks::Issue> = r
        .issues
        .iter()
        .filter(|i| !i.details.iter().any(|(k, _)| *k == "run"))
        .collect();
    if !cross.is_empty() {
        out.push_str("== across runs\n");
        for issue in cross {
            out.push_str(&issue_line(issue, &p));
            out.push('\n');
        }
    }
    r.plan.redactor.scrub(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_defuses_terminal_escapes() {
        assert_eq!(
            sanitize("a\x1b]0;pwned\x07b\r"),
            "a\\u{1b}]0;pwned\\u{7}b\\r"
        );
        assert_eq!(sanitize("plain ünïcode"), "plain ünïcode");
    }
}
