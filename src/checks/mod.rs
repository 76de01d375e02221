//! Judgement: pure functions from a transcript (and the run's settings) to
//! issues. Nothing here touches a process or a file, so every rule is tested
//! on hand-made transcripts. `code` is the table of issue codes, `issue`
//! what a finding is; one file per concern judges.

use crate::plan::Plan;
use crate::transcript::Transcript;

pub mod adversarial;
pub mod capabilities;
pub mod catalog;
pub mod code;
pub mod drift;
pub mod initialize;
pub mod issue;
pub mod lifecycle;
pub mod modern;
pub mod schema;
pub mod stdout;
pub mod toolcall;
pub mod traffic;

pub use code::{Class, Code, Group, Severity};
pub use issue::Issue;

/// What the checks need to know about the run besides the transcript.
#[derive(Debug, Clone)]
pub struct Context {
    /// The server argv as given (program first).
    pub argv: Vec<String>,
    /// The server's environment (names and values), for the buffering check.
    pub env: Vec<(String, String)>,
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
    pub grace_ms: u64,
    /// The protocol version the guard requested.
    pub protocol: String,
    /// How the session opened (`--era`).
    pub opening: crate::plan::Opening,
    /// `--profile strict`: SHOULD-level warnings become errors.
    pub strict: bool,
    /// The guard's own environment sets PYTHONUNBUFFERED (which the
    /// allow-list does not pass on).
    pub parent_unbuffered: bool,
}

impl Context {
    pub fn of(plan: &Plan) -> Context {
        let limits = plan.settings.limits;
        Context {
            argv: plan
                .settings
                .command
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            env: plan
                .launch
                .env
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string_lossy().into_owned(),
                        v.to_string_lossy().into_owned(),
                    )
                })
                .collect(),
            max_stdout_bytes: limits.max_stdout_bytes,
            max_stdout_line_bytes: limits.max_stdout_line_bytes,
            max_stderr_bytes: limits.max_stderr_bytes,
            grace_ms: plan.settings.shutdown_grace_ms,
            protocol: plan.settings.protocol.clone(),
            opening: plan.session.opening,
            strict: plan.settings.profile == crate::options::Profile::Strict,
            parent_unbuffered: std::env::var_os("PYTHONUNBUFFERED").is_some_and(|v| !v.is_empty()),
        }
    }

    /// A context for unit tests: small limits, the default protocol.
    #[cfg(test)]
    pub fn for_tests() -> Context {
        Context {
            argv: vec![],
            env: vec![],
            max_stdout_bytes: 1000,
            max_stdout_line_bytes: 100,
            max_stderr_bytes: 1000,
            grace_ms: 2000,
            protocol: "2025-11-25".into(),
            opening: crate::plan::Opening::Legacy,
            strict: false,
            parent_unbuffered: false,
        }
    }
}

/// The judgements the session asks for while it runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionRules;

impl crate::session::Rules for SessionRules {
    fn handshake_usable(&self, result: &serde_json::Value, requested: &str) -> bool {
        !initialize::blocks_handshake(result, requested)
    }
}

/// All issues of one run, in the order they were detected.
pub fn run(ctx: &Context, tr: &Transcript) -> Vec<Issue> {
    let mut issues = Vec::new();
    if let Some(held) = lifecycle::replies_held_back(tr)
        && lifecycle::python_may_buffer(ctx, tr)
    {
        // Decided from behaviour: replies came only after the guard gave
        // up on them (at exit, when Python flushes), never from argv alone.
        let fix = if ctx.parent_unbuffered {
            "your environment sets PYTHONUNBUFFERED, but the allow-list did not pass it: add --env PYTHONUNBUFFERED"
        } else {
            "use python -u, or --env PYTHONUNBUFFERED=1"
        };
        issues.push(
            Issue::new(
                Code::PythonBufferedStdio,
                format!(
                    "Python stdout is block-buffered when piped: the {held} reply was held back until the guard gave up on it; {fix}"
                ),
            )
            .with("heldBack", held),
        );
    }
    if let Some(e) = &tr.spawn_error {
        issues.push(lifecycle::spawn_failed(e));
        return issues;
    }
    let mut judge = stdout::Judge::new(ctx, tr);
    for (index, entry) in tr.entries.iter().enumerate() {
        judge.entry(tr, index, entry, &mut issues);
        lifecycle::entry(tr, entry, &mut issues);
    }
    judge.finish(&mut issues);
    stdout::fold_content_length(&mut issues);
    modern::check(ctx, tr, &mut issues);
    capabilities::check(tr, &mut issues);
    catalog::check(ctx, tr, &mut issues);
    toolcall::check(tr, &mut issues);
    adversarial::check(tr, &mut issues);
    lifecycle::after(ctx, tr, &mut issues);
    if ctx.strict {
        promote_shoulds(&mut issues);
    }
    issues
}

/// `--profile strict`: every SHOULD-level warning becomes an error, marked
/// so a reader knows the spec itself says SHOULD.
pub fn promote_shoulds(issues: &mut [Issue]) {
    for issue in issues.iter_mut() {
        if issue.severity == Severity::Warning && issue.code.is_should() {
            issue.severity = Severity::Error;
            issue.details.push(("promotedBy", "strict".into()));
        }
    }
}

/// One `static-stdout-write` issue per finding: warnings, or errors when
/// static findings fail the run.
pub fn static_scan(report: &crate::scan::ScanReport, fail: bool) -> Vec<Issue> {
    report
        .findings
        .iter()
        .map(|f| {
            let issue = Issue::new(
                Code::StaticStdoutWrite,
                format!("{}:{} {}", f.path, f.line, f.message),
            )
            .with("file", f.path.clone())
            .with("line", f.line)
            .with("column", f.column)
            .with("language", f.language.as_str())
            .with("reason", f.reason)
            .with("reasons", f.reasons.clone());
            if fail {
                issue.at(Severity::Error)
            } else {
                issue
            }
        })
        .collect()
}
