//! `call TOOL`: the tools listed, then one called with arguments typed
//! from its `inputSchema`; the result printed and checked. A tool or an
//! argument that does not fit is refused before anything is called (one
//! line on stderr, exit 2); a failed call exits 1.

use crate::commands::{deliver, judge};
use crate::error::Error;
use crate::plan::Plan;
use crate::report;

/// Runs the call; returns the exit status.
pub fn run(plan: &Plan) -> Result<u8, Error> {
    let mut outputs = deliver::open(plan)?;
    let report = judge::check(plan, &mut outputs)?;
    let rendered = report::audit::render_call(&report, plan.settings.json);
    let code = deliver::deliver(
        &report,
        &crate::report::rendered::Rendered::text(rendered),
        &mut outputs,
        plan,
    )?;
    if let Some(problem) = &report.first().call_problem {
        // The tool or its arguments did not fit: nothing was called.
        eprintln!("mcp-stdio-guard: error: {problem}");
    }
    Ok(code)
}
