//! `scan PATH...`: the static scanner alone, no server. Exit 1 with
//! findings, 0 without, 2 for a path that does not exist.

use crate::args::settings::Settings;
use crate::commands::judge::check_interrupt;
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Wanted};
use crate::{plan, report, scan};

/// Runs the scan; returns the exit status.
pub fn run(args: &Settings) -> Result<u8, Error> {
    let mut outputs = Outputs::open(&[Wanted::new(Kind::Report, "-")], &[])?;
    let scanned = scan::scan(&args.scan)?;
    check_interrupt()?;
    let output = if args.json {
        report::scan::render_json(&scanned)
    } else {
        report::scan::render_text(&scanned, plan::use_color(args.color))
    };
    outputs.write(Kind::Report, output.as_bytes())?;
    Ok(if scanned.findings.is_empty() { 0 } else { 1 })
}
