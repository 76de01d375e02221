//! The report card (`--html`): one self-contained HTML page (styles inline,
//! no script, no external asset, so it reads the same offline and in a CI
//! artifact viewer) with the verdict and score, the checks, every issue with
//! its evidence, the tool table (context cost, findings, pinned hash) and
//! the timings. Every server string is escaped as text.

use std::fmt::Write as _;

use serde_json::Value;

use crate::checks::Issue;
use crate::escape::html as esc;
use crate::verdict::{Report, RunReport, Status};

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1b1f24}\
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #d0d7de}\
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top}\
th{background:#f6f8fa}code,.q{font-family:ui-monospace,monospace;font-size:.92em;overflow-wrap:anywhere;white-space:pre-wrap}\
.verdict{display:inline-block;padding:.2em .7em;border-radius:.3em;color:#fff;font-weight:700}\
.pass{background:#1a7f37}.fail{background:#cf222e}.warning{background:#9a6700}.skipped{background:#6e7781}\
.score{font-size:1.3em;font-weight:700;margin-left:.6em}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}";

fn status_cell(status: Status) -> String {
    format!("<span class=\"verdict {0}\">{0}</span>", status.as_str())
}

fn row(out: &mut String, cells: &[&str]) {
    out.push_str("<tr>");
    for cell in cells {
        let _ = write!(out, "<td>{cell}</td>");
    }
    out.push_str("</tr>\n");
}

fn head(out: &mut String, cells: &[&str]) {
    out.push_str("<table><tr>");
    for cell in cells {
        let _ = write!(out, "<th>{cell}</th>");
    }
    out.push_str("</tr>\n");
}

fn server_name(run: &RunReport) -> String {
    let field = |k: &str| {
        run.server_info
            .as_ref()
            .and_then(|i| i.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    format!("{} {}", field("name"), field("version"))
        .trim()
        .to_string()
}

fn summary(out: &mut String, r: &Report, time: &str) {
    let run = r.first();
    let word = if r.passed() { "pass" } else { "fail" };
    let _ = write!(
        out,
        "<h1>MCP stdio guard report card</h1>\n<p><span class=\"verdict {word}\">{}</span>\
         <span class=\"score\">{}/100 ({})</span></p>\n<dl>\n",
        word.to_ascii_uppercase(),
        r.score.value,
        r.score.grade
    );
    let command = r.subject.command.join(" ");
    let era = r.detected_era().unwrap_or("legacy");
    let items = [
        ("Server", esc(&server_name(run))),
        ("Command", format!("<code>{}</code>", esc(&command))),
        ("Protocol", esc(run.negotiated())),
        ("Era", esc(era)),
        (
            "Issues",
            format!(
                "{}, {}",
                crate::plural::count(r.summary.errors, "error"),
                crate::plural::count(r.summary.warnings, "warning")
            ),
        ),
        ("Score rule", esc(crate::verdict::score::RULE)),
        ("Checked", esc(time)),
        (
            "Guard",
            format!("mcp-stdio-guard {}", env!("CARGO_PKG_VERSION")),
        ),
    ];
    for (k, v) in items {
        let _ = writeln!(out, "<dt>{k}</dt><dd>{v}</dd>");
    }
    out.push_str("</dl>\n");
}

fn checks(out: &mut String, r: &Report) {
    out.push_str("<h2>Checks</h2>\n");
    head(out, &["check", "status", "codes or reason"]);
    let repeat = r.repeat_check();
    let mut all: Vec<(&str, &crate::verdict::Check)> =
        r.checks.named().iter().map(|(n, _, c)| (*n, *c)).collect();
    all.push(("repeat", &repeat));
    let (skipped, shown): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|(_, c)| c.status == Status::Skipped);
    for (name, check) in shown {
        let codes: Vec<&str> = check.codes.iter().map(|c| c.as_str()).collect();
        let why = check.reason.map_or_else(|| codes.join(", "), String::from);
        row(out, &[name, &status_cell(check.status), &esc(&why)]);
    }
    out.push_str("</table>\n");
    let skipped: Vec<(&str, &str)> = skipped
        .iter()
        .map(|(n, c)| (*n, c.reason.unwrap_or("skipped")))
        .collect();
    let folded = super::common::skipped_line(&skipped);
    if !folded.is_empty() {
        let _ = writeln!(out, "<p>Skipped: {}</p>", esc(&folded));
    }
}

fn issue_rows(out: &mut String, issues: &[Issue]) {
    head(out, &["severity", "code", "message", "evidence"]);
    for i in issues {
        let evidence = i.detail("evidence").and_then(Value::as_str).unwrap_or("");
        let sev = if i.is_error() {
            Status::Fail
        } else {
            Status::Warning
        };
        let sev = format!(
            "<span class=\"verdict {}\">{}</span>",
            sev.as_str(),
            i.severity.as_str()
        );
        row(
            out,
            &[
                &sev,
                &format!("<code>{}</code>", i.code),
                &format!("<span class=\"q\">{}</span>", esc(&i.message)),
                &format!("<span class=\"q\">{}</span>", esc(evidence)),
            ],
        );
    }
    out.push_str("</table>\n");
}

fn tools(out: &mut String, r: &Report) {
    let run = r.first();
    let c = &run.context_cost;
    let _ = writeln!(
        out,
        "<h2>Tools</h2>\n<p>{}; about {} tokens per prompt ({} bytes, estimated as {}; budget {}).</p>",
        crate::plural::count(run.tools.len(), "tool"),
        c.total_tokens,
        c.total_bytes,
        crate::checks::lint::cost::ESTIMATE,
        c.budget_tokens
    );
    let robust = r.robustness.as_ref();
    let mut columns = vec!["name", "description", "tokens", "findings", "sha256"];
    if robust.is_some() {
        columns.push("robustness");
    }
    head(out, &columns);
    for (index, tool) in run.tools.iter().enumerate() {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
        let text = tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        let short: String = text.chars().take(240).collect();
        let more = if short.len() < text.len() { "…" } else { "" };
        let findings = r
            .issues
            .iter()
            .filter(|i| i.detail("toolName").and_then(Value::as_str) == Some(name))
            .count();
        let tokens = c.tools.get(index).map_or(0, |t| t.tokens).to_string();
        let pinned = run.facts.definitions.as_ref().and_then(|d| d.get(index));
        let sha = pinned.map_or("", |p| &p.sha256[..12.min(p.sha256.len())]);
        let robustness = robust.map(|rb| match rb.tools.iter().find(|t| t.name == name) {
            Some(t) if t.valid > 0 => format!(
                "{}/{} bad inputs refused; {}/{} valid calls answered",
                t.refused, t.invalid, t.answered, t.valid
            ),
            Some(t) => format!("{}/{} bad inputs refused", t.refused, t.invalid),
            None => rb.not_called.iter().find(|n| n.tool == name).map_or_else(
                || "not called".to_string(),
                |n| format!("not called: {}", n.reason),
            ),
        });
        let mut cells: Vec<String> = vec![
            format!(
                "<code>{}</code>",
                esc(&crate::checks::lint::hidden::reveal(name))
            ),
            format!("<span class=\"q\">{}{more}</span>", esc(&short)),
            tokens,
            findings.to_string(),
            format!("<code>{sha}</code>"),
        ];
        cells.extend(robustness.map(|t| esc(&t)));
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        row(out, &cells);
    }
    out.push_str("</table>\n");
}

/// `--confine`: the mode, what this machine could enforce, and what the
/// server touched (every string escaped).
fn confinement(out: &mut String, r: &Report) {
    let Some(c) = &r.confinement else { return };
    let _ = writeln!(
        out,
        "<h2>Confinement</h2>\n<p>{} (Landlock ABI {}, seccomp notification {}), {} notifications.</p>",
        esc(c.mode),
        c.landlock_abi,
        if c.seccomp { "yes" } else { "no" },
        c.notifications
    );
    for (label, list) in [("Not enforced", &c.not_enforced), ("Limits", &c.limits)] {
        for item in list {
            let _ = writeln!(out, "<p>{label}: {}</p>", esc(item));
        }
    }
    if c.events.is_empty() {
        return;
    }
    head(
        out,
        &["what", "target", "phase", "process", "refused", "times"],
    );
    for e in &c.events {
        let pid = format!("{} ({})", esc(&e.program), e.pid);
        let count = e.count.to_string();
        let cells = [
            e.kind.as_str(),
            &esc(&e.target),
            &esc(&e.phase),
            &pid,
            if e.denied { "yes" } else { "no" },
            &count,
        ];
        row(out, &cells);
    }
    out.push_str("</table>\n");
}

fn timings(out: &mut String, r: &Report) {
    let run = r.first();
    out.push_str("<h2>Timings</h2>\n<dl>\n");
    let ms = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| format!("{v} ms"));
    let probe = run.era.as_ref().and_then(|e| e.probe_ms);
    let items = [
        ("Opening answered at", ms(run.init_reply_at_ms)),
        ("Era probe answered in", ms(probe)),
        ("Session", ms(Some(run.duration_ms))),
        ("Ended by", esc(run.ended_by())),
    ];
    for (k, v) in items {
        let _ = writeln!(out, "<dt>{k}</dt><dd>{v}</dd>");
    }
    out.push_str("</dl>\n");
}

/// The page.
pub fn render(r: &Report, time: &str) -> String {
    let mut out = String::with_capacity(16 << 10);
    let title = format!(
        "mcp-stdio-guard: {} {}",
        server_name(r.first()),
        if r.passed() { "PASS" } else { "FAIL" }
    );
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(&title)
    );
    summary(&mut out, r, time);
    checks(&mut out, r);
    let _ = writeln!(out, "<h2>Issues ({})</h2>", r.issues.len());
    if r.issues.is_empty() {
        out.push_str("<p>No issue.</p>\n");
    } else {
        issue_rows(&mut out, &r.issues);
        out.push_str("<h2>How to fix</h2>\n");
        head(&mut out, &["code", "fix"]);
        for (code, fix) in super::common::fixes(&r.issues) {
            row(&mut out, &[&format!("<code>{code}</code>"), &esc(fix)]);
        }
        out.push_str("</table>\n");
    }
    if let Some(a) = &r.accepted {
        let _ = writeln!(
            out,
            "<h2>Accepted by the baseline ({})</h2><p>{} stale entries.</p>",
            esc(&a.file),
            a.stale.len()
        );
        issue_rows(&mut out, &a.accepted);
    }
    if r.first().tools_answered {
        tools(&mut out, r);
    }
    confinement(&mut out, r);
    timings(&mut out, r);
    let _ = writeln!(
        out,
        "<p><small>mcp-stdio-guard {}: no script, no external asset.</small></p>\n</body></html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}
