//! `check` (the default command): the judged check of one server, its
//! report as text (the 1.0 tool's lines, or its `--repeat` form) or JSON,
//! and every format beside it.

use crate::commands::{deliver, judge};
use crate::error::Error;
use crate::plan::Plan;
use crate::report;
use crate::report::rendered::Rendered;

/// Runs the check; returns the exit status.
pub fn run(plan: &Plan) -> Result<u8, Error> {
    let mut outputs = deliver::open(plan)?;
    let report = judge::check(plan, &mut outputs)?;
    if let Some(line) = not_found(plan, &report) {
        eprintln!("mcp-stdio-guard: {line}");
    }
    let rendered = render(plan, &report);
    deliver::deliver(&report, &rendered, &mut outputs, plan)
}

/// A server program that is not there, in one line before the report (the
/// report says it too, as `spawn-failed`): the program and where it was
/// looked for.
fn not_found(plan: &Plan, report: &crate::verdict::Report) -> Option<String> {
    let spawn = report.first().spawn_error.as_ref()?;
    if spawn.code != "ENOENT" {
        return None;
    }
    let program = plan.launch.program.to_string_lossy();
    if program.contains('/') || program.contains('\\') {
        return Some(format!("server program not found: {program}"));
    }
    let path = plan
        .launch
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some(format!(
        "server program not found: {program} (PATH searched: {path})"
    ))
}

/// The report as the settings ask for it.
pub fn render<'a>(plan: &Plan, report: &'a crate::verdict::Report) -> Rendered<'a> {
    let paint = deliver::paint(plan);
    let verbose = plan.settings.verbose;
    if plan.settings.json {
        report::json::render(report)
    } else if report.repeat.is_some() {
        Rendered::text(report::text::render_repeat(report, paint, verbose))
    } else {
        Rendered::text(report::text::render(report, paint, verbose))
    }
}
