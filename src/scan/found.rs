//! What a scan found: each stdout write with its place and reason, the
//! files it did not read and why, and the totals.

use crate::scan::lex::Language;

/// One stdout write found in source.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The scan root this file was found under, as given.
    pub root: String,
    /// The file, relative to the root, with `/` separators (its name when
    /// the root is the file itself).
    pub file: String,
    /// The path to open: the root joined with `file`.
    pub path: String,
    pub line: u32,
    /// 1-based byte column.
    pub column: u32,
    /// The same column counted in Unicode code points (SARIF's unit).
    pub char_column: u32,
    pub language: Language,
    /// The rule's stable id.
    pub reason: &'static str,
    /// The rule, plus `startup-output` when the write runs at load time.
    pub reasons: Vec<&'static str>,
    pub message: String,
    /// The source line, quoted and shortened.
    pub snippet: String,
    /// How it is fixed (`scan --fix`, `--diff`, SARIF `fixes`), or why
    /// not; `None` when the scan did not plan fixes (a text report).
    pub fix: Option<crate::scan::fix::Fix>,
}

/// A file the scanner did not read, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub file: String,
    /// `too-large` (over 1 MiB), `minified` (a line over 10,000 characters)
    /// or `unreadable`.
    pub reason: &'static str,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScanReport {
    pub roots: Vec<String>,
    pub findings: Vec<Finding>,
    pub files_scanned: usize,
    pub skipped: Vec<Skipped>,
    /// Directories skipped by name (`node_modules`, `.git`, ...).
    pub skipped_dirs: usize,
}

/// The skipped files counted by reason, in a fixed order.
pub fn skipped_counts(report: &ScanReport) -> Vec<(&'static str, usize)> {
    ["too-large", "minified", "unreadable"]
        .into_iter()
        .map(|r| (r, report.skipped.iter().filter(|s| s.reason == r).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}
