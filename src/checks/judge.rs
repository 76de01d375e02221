//! Every check of one run, in the order the issues were detected; the
//! strict profile's promotion of SHOULD-level warnings; and the static
//! scan's findings as issues.

use crate::checks::{
    Code, Context, Issue, Severity, adversarial, capabilities, catalog, lifecycle, lint, modern,
    stdout, toolcall,
};
use crate::session::transcript::Transcript;

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
    issues.extend(crate::checks::robustness::contradictions(
        &tr.listed("tools/list"),
    ));
    lint::check(tr, &mut issues);
    lint::fold_name_issues(&mut issues);
    issues.extend(lint::cost::of_session(tr, ctx.context_budget).issue());
    toolcall::check(tr, &mut issues);
    adversarial::check(tr, &mut issues);
    lifecycle::after(ctx, tr, &mut issues);
    lifecycle::fold_usage(tr, &mut issues);
    crate::checks::confine::check(tr, ctx.confine_enforcing, &mut issues);
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
            let mut issue = Issue::new(
                Code::StaticStdoutWrite,
                format!("{}:{} {}", f.path, f.line, f.message),
            )
            .with("file", f.path.clone())
            .with("line", f.line)
            .with("column", f.column)
            .with("language", f.language.as_str())
            .with("reason", f.reason)
            .with("reasons", f.reasons.clone());
            if f.char_column != f.column {
                // SARIF counts columns in code points.
                issue = issue.with("columnCodePoints", f.char_column);
            }
            if let Some(fix) = &f.fix {
                issue = issue.with("fix", fix.to_value());
            }
            if fail {
                issue.at(Severity::Error)
            } else {
                issue
            }
        })
        .collect()
}
