//! `batch`'s own summaries of its runs: the table on stdout, the JSON
//! document of `--json`, the Markdown of `--summary`; each from the rows
//! the batch keeps (one per server, read from its report line).

use crate::obj;
use std::fmt::Write as _;

use serde_json::Value;

/// What the summary keeps of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub name: String,
    pub code: i32,
    pub ok: bool,
    pub errors: u64,
    pub warnings: u64,
    pub primary: String,
    /// The message of the primary issue (empty when there is none).
    pub message: String,
    pub ms: u64,
    /// The score and its grade (`None` for a run that made no report).
    pub score: Option<(u64, String)>,
}

/// The summary row of one report line.
pub fn row_of(report: &Value) -> Row {
    let b = &report["batch"];
    let counts = &report["summary"]["issueCounts"];
    Row {
        name: b["entry"].as_str().unwrap_or("?").to_string(),
        code: b["exitCode"].as_i64().unwrap_or(2) as i32,
        ok: report["ok"].as_bool().unwrap_or(false),
        errors: counts["error"].as_u64().unwrap_or(0),
        warnings: counts["warning"].as_u64().unwrap_or(0),
        primary: report["summary"]["primaryIssueCode"]
            .as_str()
            .unwrap_or("")
            .to_string(),
        message: primary_message(report),
        ms: b["durationMs"].as_u64().unwrap_or(0),
        score: report["score"]["value"].as_u64().map(|v| {
            let grade = report["score"]["grade"].as_str().unwrap_or("?");
            (v, grade.to_string())
        }),
    }
}

/// The message of the report's primary issue (or of its error, for a run
/// that made no report).
fn primary_message(report: &Value) -> String {
    let primary = &report["summary"]["primaryIssueCode"];
    let issues = report["issues"].as_array().map_or(&[][..], Vec::as_slice);
    issues
        .iter()
        .find(|i| &i["code"] == primary)
        .and_then(|i| i["message"].as_str())
        .or_else(|| report["error"].as_str())
        .unwrap_or("")
        .to_string()
}

/// The `--json` summary.
pub fn json(rows: &[Row]) -> String {
    crate::report::common::pretty(&obj! {
        "schemaVersion" => 1,
        "ok" => rows.iter().all(|r| r.ok),
        "runs" => rows.iter().map(|r| obj! {
            "entry" => r.name,
            "ok" => r.ok,
            "exitCode" => r.code,
            "errors" => r.errors,
            "warnings" => r.warnings,
            "primaryIssueCode" => r.primary,
            "durationMs" => r.ms,
        }).collect::<Vec<_>>(),
    })
}

/// The table on stdout.
pub fn table(rows: &[Row]) -> String {
    let w = rows
        .iter()
        .map(|r| crate::escape::line(&r.name).chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let pad = crate::report::common::padded;
    let mut out = format!(
        "{}  {:<6} {:>6} {:>8} {:>8}  PRIMARY\n",
        pad("ENTRY", w),
        "RESULT",
        "ERRORS",
        "WARNINGS",
        "MS"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{}  {:<6} {:>6} {:>8} {:>8}  {}",
            pad(&crate::escape::line(&r.name), w),
            if r.ok { "pass" } else { "fail" },
            r.errors,
            r.warnings,
            r.ms,
            r.primary
        );
    }
    let failed = rows.iter().filter(|r| !r.ok).count();
    let _ = writeln!(
        out,
        "{}, {} passed, {failed} failed",
        crate::plural::count(rows.len(), "server"),
        rows.len() - failed
    );
    out
}

/// The Markdown of `--summary` (and the GitHub step summary).
pub fn markdown(rows: &[Row], time: &str) -> String {
    let failed = rows.iter().filter(|r| !r.ok).count();
    let mut out = format!(
        "### mcp-stdio-guard batch: {}, {failed} failed\n\n| Server | Result | Score | Errors | Warnings | Primary issue |\n| --- | --- | --- | --- | --- | --- |\n",
        crate::plural::count(rows.len(), "server")
    );
    for r in rows {
        let score = r
            .score
            .as_ref()
            .map_or_else(|| "-".to_string(), |(v, g)| format!("{v} ({g})"));
        let _ = writeln!(
            out,
            "| {} | {} | {score} | {} | {} | {} |",
            crate::escape::markdown(&r.name),
            if r.ok { "pass" } else { "**fail**" },
            r.errors,
            r.warnings,
            if r.primary.is_empty() {
                String::new()
            } else {
                format!("`{}`", r.primary)
            }
        );
    }
    let _ = writeln!(
        out,
        "\nChecked {time} by mcp-stdio-guard {}.",
        env!("CARGO_PKG_VERSION")
    );
    out
}
