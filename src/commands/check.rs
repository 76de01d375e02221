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
    let rendered = render(plan, &report);
    deliver::deliver(
        &report,
        &rendered,
        &mut outputs,
        crate::plan::annotates(&plan.settings),
    )
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
