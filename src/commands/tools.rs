//! `tools`: the handshake and every page of `tools/list`, shown as a table
//! that fits the terminal (or, with `--json`, the server's own tool
//! objects), then the issues; exit 1 when the list came with an error.

use crate::commands::{deliver, judge};
use crate::error::Error;
use crate::plan::Plan;
use crate::report;

/// Runs the listing; returns the exit status.
pub fn run(plan: &Plan) -> Result<u8, Error> {
    let mut outputs = deliver::open(plan)?;
    let report = judge::check(plan, &mut outputs)?;
    let rendered = report::audit::render_tools(&report, plan.settings.json, terminal_width());
    deliver::deliver(
        &report,
        &crate::report::rendered::Rendered::text(rendered),
        &mut outputs,
        plan,
    )
}

/// The width to fit: `COLUMNS` when set (a terminal exports it), else 80.
pub fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w >= 20)
        .unwrap_or(80)
}
