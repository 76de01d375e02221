//! `log`: the judged report of one `wrap` session, read back from its
//! JSONL log: text (the issues with their fixes, the traffic, the exit),
//! JSON (the report's own keys, `mode: "wrap"`) and a self-contained HTML
//! card. A log cut short (the wrapper was killed) says so. Every string
//! from the log is escaped.

use crate::obj;
use std::fmt::Write as _;

use serde_json::Value;

use crate::checks::Code;
use crate::escape::html as esc;

/// One session, as its log tells it.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub file: String,
    pub start: Value,
    pub exit: Option<Value>,
    pub end: Option<Value>,
    pub issues: Vec<Value>,
    /// Events the log holds that are not JSON (a line cut by a kill).
    pub unreadable: usize,
}

impl Session {
    /// The session of a log's text.
    pub fn read(file: &str, text: &str) -> Session {
        let mut s = Session {
            file: file.to_string(),
            ..Session::default()
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                s.unreadable += 1;
                continue;
            };
            match v["event"].as_str() {
                Some("start") => s.start = v,
                Some("exit") => s.exit = Some(v),
                Some("end") => s.end = Some(v),
                Some("finding") => s.issues.push(v),
                _ => {}
            }
        }
        s
    }

    pub fn errors(&self) -> usize {
        self.issues
            .iter()
            .filter(|i| i["severity"] == "error")
            .count()
    }

    fn warnings(&self) -> usize {
        self.issues.len() - self.errors()
    }

    pub fn ok(&self) -> bool {
        self.errors() == 0
    }

    fn primary(&self) -> Option<&str> {
        self.issues
            .iter()
            .find(|i| i["severity"] == "error")
            .or_else(|| self.issues.first())
            .and_then(|i| i["code"].as_str())
    }

    fn command(&self) -> String {
        let argv: Vec<&str> = self.start["command"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        argv.join(" ")
    }

    fn exit_text(&self) -> String {
        let Some(e) = &self.exit else {
            return "the log ends before the server's exit (the wrapper was killed)".into();
        };
        match (e["code"].as_i64(), e["signal"].as_str()) {
            (_, Some(sig)) => format!("the server exited on {sig}"),
            (Some(c), None) => format!("the server exited with code {c}"),
            _ => "the server's exit is unknown".into(),
        }
    }
}

fn fix_of(issue: &Value) -> Option<&'static str> {
    issue["code"]
        .as_str()
        .and_then(Code::parse)
        .map(crate::checks::fix::fix)
}

/// The text report.
pub fn text(s: &Session) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} MCP stdio guard: wrapped session",
        if s.ok() { "PASS" } else { "FAIL" }
    );
    let _ = writeln!(
        out,
        "server: {} ({})",
        crate::escape::line(s.start["name"].as_str().unwrap_or("?")),
        crate::escape::line(&s.command())
    );
    let _ = writeln!(
        out,
        "started: {}",
        crate::escape::line(s.start["time"].as_str().unwrap_or("?"))
    );
    if let Some(end) = &s.end {
        let _ = writeln!(
            out,
            "traffic: {} in, {} out; {} ms",
            end["messages"]["in"], end["messages"]["out"], end["durationMs"]
        );
    }
    let _ = writeln!(out, "exit: {}", s.exit_text());
    let mut seen: Vec<&str> = Vec::new();
    for i in &s.issues {
        let code = i["code"].as_str().unwrap_or("");
        let _ = writeln!(
            out,
            "[{}] {code}: {}",
            i["severity"].as_str().unwrap_or("error"),
            crate::escape::line(i["message"].as_str().unwrap_or(""))
        );
        if !seen.contains(&code) {
            seen.push(code);
            if let Some(fix) = fix_of(i) {
                let _ = writeln!(out, "  fix: {fix}");
            }
        }
    }
    if s.end.is_none() {
        out.push_str(
            "note: the log has no end: the wrapper was stopped before the session ended\n",
        );
    }
    let _ = writeln!(out, "log: {}", crate::escape::line(&s.file));
    out
}

/// The JSON report: the keys a check's report has where they apply.
pub fn json(s: &Session) -> String {
    let counts = obj! {"error" => s.errors(), "warning" => s.warnings()};
    let status = if s.ok() { "pass" } else { "fail" };
    let issues: Vec<Value> = s
        .issues
        .iter()
        .map(|i| {
            let mut i = i.clone();
            if let Some(m) = i.as_object_mut() {
                m.remove("event");
            }
            i
        })
        .collect();
    crate::report::common::pretty(&obj! {
        "schemaVersion" => 1,
        "ok" => s.ok(),
        "mode" => "wrap",
        "name" => s.start["name"].clone(),
        "command" => s.start["command"].clone(),
        "startedAt" => s.start["time"].clone(),
        "durationMs" => s.end.as_ref().map(|e| e["durationMs"].clone()),
        "traffic" => s.end.as_ref().map(|e| obj! {"messages" => e["messages"].clone(), "bytes" => e["bytes"].clone()}),
        "process" => obj! {"exit" => s.exit.as_ref().map(|e| obj! {"code" => e["code"].clone(), "signal" => e["signal"].clone()})},
        "complete" => s.end.is_some(),
        "summary" => obj! {"status" => status, "issueCounts" => counts, "primaryIssueCode" => s.primary()},
        "issues" => issues,
        "log" => s.file,
    })
}

/// The card: one self-contained page (no script, no external asset).
pub fn html(s: &Session, time: &str) -> String {
    const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em}\
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top}\
.q{font-family:ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere}";
    let verdict = if s.ok() { "PASS" } else { "FAIL" };
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>mcp-stdio-guard wrap: {} {verdict}</title><style>{STYLE}</style></head><body>\n<h1>{verdict}: wrapped session of {}</h1>\n",
        esc(s.start["name"].as_str().unwrap_or("?")),
        esc(s.start["name"].as_str().unwrap_or("?"))
    );
    let _ = writeln!(
        out,
        "<p>Command <span class=\"q\">{}</span>; started {}; {}.</p>",
        esc(&s.command()),
        esc(s.start["time"].as_str().unwrap_or("?")),
        esc(&s.exit_text())
    );
    out.push_str(
        "<table><tr><th>severity</th><th>code</th><th>message</th><th>how to fix</th></tr>\n",
    );
    for i in &s.issues {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td class=\"q\">{}</td><td>{}</td></tr>",
            esc(i["severity"].as_str().unwrap_or("")),
            esc(i["code"].as_str().unwrap_or("")),
            esc(i["message"].as_str().unwrap_or("")),
            esc(fix_of(i).unwrap_or(""))
        );
    }
    out.push_str("</table>\n");
    let _ = writeln!(
        out,
        "<p><small>Log {}; rendered {} by mcp-stdio-guard {}: no script, no external asset.</small></p>\n</body></html>",
        esc(&s.file),
        esc(time),
        env!("CARGO_PKG_VERSION")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_reads_back_into_its_findings_and_a_cut_log_says_so() {
        let log = concat!(
            "{\"event\":\"start\",\"name\":\"files\",\"command\":[\"node\",\"s.js\"],\"time\":\"2026-12-06T00:00:00.000+00:00\"}\n",
            "{\"event\":\"message\",\"dir\":\"in\",\"kind\":\"request\",\"method\":\"initialize\",\"id\":\"1\",\"bytes\":90}\n",
            "{\"event\":\"finding\",\"severity\":\"error\",\"code\":\"stdout-non-json\",\"message\":\"stdout line 1 is not JSON-RPC: \\\"hi\\\"\",\"class\":\"stdioTransport\"}\n",
            "{\"event\":\"fin"
        );
        let s = Session::read("/tmp/x.jsonl", log);
        assert_eq!((s.issues.len(), s.unreadable, s.ok()), (1, 1, false));
        let t = text(&s);
        assert!(
            t.starts_with("FAIL") && t.contains("fix: write only JSON-RPC"),
            "{t}"
        );
        assert!(
            t.contains("the wrapper was stopped before the session ended"),
            "{t}"
        );
        let j: Value = serde_json::from_str(&json(&s)).expect("json");
        assert_eq!(
            (j["mode"].as_str(), j["complete"].as_bool()),
            (Some("wrap"), Some(false))
        );
        assert_eq!(j["summary"]["primaryIssueCode"], "stdout-non-json");
        assert!(html(&s, "now").contains("&quot;hi&quot;"));
    }
}
