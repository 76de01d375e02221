//! The fleet page (`batch --html`): one self-contained HTML page for a
//! registry (styles inline, no script, no external asset) over a batch's
//! reports: a summary (servers, passed, failed, a grade histogram), one row
//! per server sorted worst first (verdict, score and grade, era, tools,
//! tokens, errors, warnings, the top finding, time), each linking to that
//! server's own section on the page (its checks and its issues). Built from
//! the JSON report lines (what `--out` holds), so `--merge` can write it
//! too. Every server string is escaped as text. Pure.

use std::fmt::Write as _;

use serde_json::Value;

use crate::escape::html as esc;

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:80em;padding:0 1em;color:#1b1f24}\
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #d0d7de}\
table{border-collapse:collapse;width:100%;margin-bottom:1em}td,th{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top}\
th{background:#f6f8fa}code,.q{font-family:ui-monospace,monospace;font-size:.92em;overflow-wrap:anywhere;white-space:pre-wrap}\
.verdict{display:inline-block;padding:.1em .6em;border-radius:.3em;color:#fff;font-weight:700}\
.pass{background:#1a7f37}.fail{background:#cf222e}.warning{background:#9a6700}.skipped{background:#6e7781}\
.bar{display:inline-block;height:.8em;background:#57606a;vertical-align:middle}";

/// What the page shows of one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub name: String,
    pub ok: bool,
    pub score: u64,
    pub grade: String,
    pub era: String,
    pub tools: u64,
    pub tokens: u64,
    pub errors: u64,
    pub warnings: u64,
    /// The first error (else warning): its code and message.
    pub top: Option<(String, String)>,
    pub ms: u64,
    /// Its section: the checks and the issues, as HTML.
    pub section: String,
}

/// One report line (as `batch --out` writes it) read for the page.
pub fn entry(report: &Value) -> Entry {
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    let num = |v: &Value| v.as_u64().unwrap_or(0);
    let issues: &[Value] = report["issues"].as_array().map_or(&[], Vec::as_slice);
    let top = issues
        .iter()
        .find(|i| i["severity"] == "error")
        .or_else(|| issues.first())
        .map(|i| (text(&i["code"]), text(&i["message"])));
    let mut e = Entry {
        name: text(&report["batch"]["entry"]),
        ok: report["ok"].as_bool().unwrap_or(false),
        score: num(&report["score"]["value"]),
        grade: report["score"]["grade"].as_str().unwrap_or("F").to_string(),
        era: text(&report["era"]["speaks"]),
        tools: num(&report["toolSchema"]["toolCount"]),
        tokens: num(&report["contextCost"]["totalTokens"]),
        errors: num(&report["summary"]["issueCounts"]["error"]),
        warnings: num(&report["summary"]["issueCounts"]["warning"]),
        top,
        ms: num(&report["batch"]["durationMs"]),
        section: String::new(),
    };
    if let Some(error) = report["error"].as_str() {
        // A run that produced no report: the guard's own refusal.
        e.top = Some(("batch-run-failed".into(), error.to_string()));
    }
    e.section = section(report, issues);
    e
}

/// A server's section: its checks and its issues.
fn section(report: &Value, issues: &[Value]) -> String {
    let mut out = String::new();
    if let Some(checks) = report["checks"].as_object() {
        out.push_str("<table><tr><th>check</th><th>status</th><th>codes or reason</th></tr>\n");
        let mut skipped: Vec<(&str, &str)> = Vec::new();
        for (name, c) in checks {
            let status = c["status"].as_str().unwrap_or("skipped");
            if status == "skipped" {
                skipped.push((name, c["reason"].as_str().unwrap_or("skipped")));
                continue;
            }
            let codes: Vec<&str> = c["issueCodes"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let why = c["reason"]
                .as_str()
                .map_or_else(|| codes.join(", "), String::from);
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(name),
                verdict(status),
                esc(&why)
            );
        }
        out.push_str("</table>\n");
        let folded = crate::report::common::skipped_line(&skipped);
        if !folded.is_empty() {
            let _ = writeln!(out, "<p>Skipped: {}</p>", esc(&folded));
        }
    }
    if issues.is_empty() {
        out.push_str("<p>No issue.</p>\n");
        return out;
    }
    out.push_str("<table><tr><th>severity</th><th>code</th><th>message</th></tr>\n");
    for i in issues {
        let sev = i["severity"].as_str().unwrap_or("warning");
        let status = if sev == "error" { "fail" } else { "warning" };
        let _ = writeln!(
            out,
            "<tr><td><span class=\"verdict {status}\">{}</span></td><td><code>{}</code></td><td><span class=\"q\">{}</span></td></tr>",
            esc(sev),
            esc(i["code"].as_str().unwrap_or("")),
            esc(i["message"].as_str().unwrap_or(""))
        );
    }
    out.push_str("</table>\n");
    out
}

fn verdict(status: &str) -> String {
    let class = match status {
        "pass" | "fail" | "warning" => status,
        _ => "skipped",
    };
    format!("<span class=\"verdict {class}\">{}</span>", esc(status))
}

/// The page over `entries`, sorted worst first (failing, then by score,
/// then by name).
pub fn render(entries: &mut [Entry], time: &str) -> String {
    entries.sort_by(|a, b| {
        a.ok.cmp(&b.ok)
            .then(a.score.cmp(&b.score))
            .then_with(|| a.name.cmp(&b.name))
    });
    let failed = entries.iter().filter(|e| !e.ok).count();
    let mut out = String::with_capacity(8192 + entries.len() * 2048);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>mcp-stdio-guard fleet: {}, {failed} failed</title><style>{STYLE}</style></head><body>\n\
         <h1>MCP stdio guard: {}</h1>\n<p>{} passed, {failed} failed. Checked {} by mcp-stdio-guard {}.</p>\n",
        crate::plural::count(entries.len(), "server"),
        crate::plural::count(entries.len(), "server"),
        entries.len() - failed,
        esc(time),
        env!("CARGO_PKG_VERSION"),
    );
    histogram(&mut out, entries);
    out.push_str("<h2>Servers, worst first</h2>\n<table><tr><th>server</th><th>verdict</th><th>score</th><th>era</th><th>tools</th><th>tokens</th><th>errors</th><th>warnings</th><th>top finding</th><th>ms</th></tr>\n");
    for (i, e) in entries.iter().enumerate() {
        let top = e.top.as_ref().map_or_else(String::new, |(code, message)| {
            format!(
                "<code>{}</code> <span class=\"q\">{}</span>",
                esc(code),
                esc(&short(message))
            )
        });
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#s{i}\">{}</a></td><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{top}</td><td>{}</td></tr>",
            esc(&e.name),
            verdict(if e.ok { "pass" } else { "fail" }),
            e.score,
            esc(&e.grade),
            esc(&e.era),
            e.tools,
            e.tokens,
            e.errors,
            e.warnings,
            e.ms
        );
    }
    out.push_str("</table>\n");
    for (i, e) in entries.iter().enumerate() {
        let _ = writeln!(
            out,
            "<h2 id=\"s{i}\">{} {} <small>{}/100 {}</small></h2>\n{}",
            esc(&e.name),
            verdict(if e.ok { "pass" } else { "fail" }),
            e.score,
            esc(&e.grade),
            e.section
        );
    }
    let _ = writeln!(
        out,
        "<p><small>mcp-stdio-guard {}: no script, no external asset.</small></p>\n</body></html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// A message cut to 160 characters for the table (the section has it
/// whole).
fn short(message: &str) -> String {
    let mut s: String = message.chars().take(160).collect();
    if s.len() < message.len() {
        s.push('…');
    }
    s
}

/// How many servers got each grade, as bars.
fn histogram(out: &mut String, entries: &[Entry]) {
    out.push_str("<table><tr><th>grade</th><th>servers</th></tr>\n");
    for grade in ["A", "B", "C", "D", "F"] {
        let n = entries.iter().filter(|e| e.grade == grade).count();
        let width = if entries.is_empty() {
            0
        } else {
            n * 300 / entries.len()
        };
        let _ = writeln!(
            out,
            "<tr><td>{grade}</td><td><span class=\"bar\" style=\"width:{width}px\"></span> {n}</td></tr>"
        );
    }
    out.push_str("</table>\n");
}

/// A file name for a server's badge: its name with anything but letters,
/// digits, `.`, `-` and `_` replaced, never empty or a dot name.
pub fn badge_file(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, '_');
    }
    s + ".json"
}

/// A server's badge, as `--badge` writes one.
pub fn badge(report: &Value) -> String {
    crate::report::badge::of(
        report["score"]["value"].as_u64().unwrap_or(0),
        report["score"]["grade"].as_str().unwrap_or("F"),
        report["score"]["color"].as_str().unwrap_or("red"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn servers_are_sorted_worst_first_and_every_string_is_escaped() {
        let good = json!({"batch": {"entry": "good", "durationMs": 5}, "ok": true,
            "score": {"value": 100, "grade": "A"}, "issues": []});
        let bad = json!({"batch": {"entry": "<b>bad</b>"}, "ok": false,
            "score": {"value": 10, "grade": "F"},
            "issues": [{"severity": "error", "code": "stdout-non-json", "message": "<script>x</script>"}]});
        let mut entries = vec![entry(&good), entry(&bad)];
        let page = render(&mut entries, "2026-12-03T00:00:00.000+00:00");
        assert!(page.find("&lt;b&gt;bad").expect("bad") < page.find(">good<").expect("good"));
        assert!(!page.contains("<script>") && !page.contains("<b>bad"));
        assert!(page.contains("href=\"#s0\"") && page.contains("id=\"s1\""));
    }

    #[test]
    fn badge_files_are_plain_names() {
        assert_eq!(badge_file("a/b c"), "a_b_c.json");
        assert_eq!(badge_file("..x"), "_..x.json");
        assert_eq!(badge_file(""), "_.json");
    }
}
