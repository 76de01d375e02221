//! The static scan in reports: the `staticScan` and `staticFindings` JSON of
//! the 1.0 contract (shared by `check --scan` and the `scan` command), and
//! the `scan` command's own text and JSON output.

use crate::obj;
use serde_json::Value;

use crate::escape;
use crate::report::style::Paint;
use crate::scan::{self, Finding, ScanReport};

/// `staticScan`: the 1.0 fields, then what was scanned and skipped.
pub fn static_scan(report: Option<&ScanReport>, fail: bool) -> Value {
    let Some(r) = report else {
        return obj! {"enabled" => false, "path" => "", "failOnFindings" => false};
    };
    let skipped: serde_json::Map<String, Value> = scan::skipped_counts(r)
        .into_iter()
        .map(|(reason, n)| (reason.to_string(), n.into()))
        .collect();
    obj! {
        "enabled" => true,
        "path" => r.roots.first().cloned().unwrap_or_default(),
        "failOnFindings" => fail,
        "paths" => r.roots,
        "filesScanned" => r.files_scanned,
        "findingCount" => r.findings.len(),
        "skippedFiles" => skipped,
        "skippedDirectories" => r.skipped_dirs,
    }
}

fn finding(f: &Finding) -> Value {
    let mut v = obj! {
        "file" => f.file,
        "line" => f.line,
        "language" => f.language.as_str(),
        "reason" => f.reason,
        "message" => f.message,
        "column" => f.column,
        "reasons" => f.reasons,
        "path" => f.path,
        "root" => f.root,
        "snippet" => f.snippet,
    };
    if let Some(fix) = &f.fix {
        v["fix"] = fix.to_value();
    }
    v
}

/// `staticFindings`, in walk order.
pub fn static_findings(report: Option<&ScanReport>) -> Value {
    Value::Array(report.map_or_else(Vec::new, |r| r.findings.iter().map(finding).collect()))
}

/// The `scan` command's JSON document.
pub fn scan_doc(r: &ScanReport) -> Value {
    let skipped: Vec<Value> = r
        .skipped
        .iter()
        .map(|s| obj! {"file" => s.file, "reason" => s.reason})
        .collect();
    obj! {
        "schemaVersion" => 1,
        "ok" => r.findings.is_empty(),
        "staticScan" => static_scan(Some(r), true),
        "staticFindings" => static_findings(Some(r)),
        "skipped" => skipped,
    }
}

/// The `scan` command's JSON document, as printed.
pub fn render_json(r: &ScanReport) -> String {
    crate::report::common::pretty(&scan_doc(r))
}

/// One line on what was scanned, for both text reports.
pub fn summary_line(r: &ScanReport) -> String {
    let mut skipped: Vec<String> = scan::skipped_counts(r)
        .into_iter()
        .map(|(reason, n)| format!("{n} {reason}"))
        .collect();
    if r.skipped_dirs > 0 {
        skipped.push(format!("{} directories by name", r.skipped_dirs));
    }
    let skipped = if skipped.is_empty() {
        String::new()
    } else {
        format!(" (skipped: {})", skipped.join(", "))
    };
    let n = r.findings.len();
    format!(
        "static scan: {} {} scanned{skipped}, {n} {}",
        r.files_scanned,
        if r.files_scanned == 1 {
            "file"
        } else {
            "files"
        },
        if n == 1 { "finding" } else { "findings" }
    )
}

/// The `scan` command's text: one block per finding, then the summary;
/// after `--fix`, each finding left says why it was not fixed.
pub fn render_text(r: &ScanReport, color: bool, fixing: bool) -> String {
    let mut out = String::new();
    for f in &r.findings {
        let tag = Paint { on: color }.warning(&format!("[{}]", f.reasons.join(", ")));
        out.push_str(&format!(
            "{}:{}:{}: {tag} {}\n    {}\n",
            escape::line(&f.path),
            f.line,
            f.column,
            f.message,
            f.snippet
        ));
        if let (true, Some(scan::fix::Fix::Left(why))) = (fixing, &f.fix) {
            out.push_str(&format!("    not fixed: {why}\n"));
        }
    }
    out.push_str(&summary_line(r));
    out.push('\n');
    out
}
