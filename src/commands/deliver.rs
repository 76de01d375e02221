//! Where a judged report goes: the outputs opened before anything started
//! (`open`), then, once the verdict is in, the report itself, one evidence
//! record per run, JUnit, SARIF, the official check records, the GitHub
//! workflow commands (stderr) and the step summary (`deliver`). Each is a
//! writer over the same report; the exit status is the verdict's.

use crate::args::formats::FORMATS;
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs};
use crate::plan::{self, Plan};
use crate::report;
use crate::report::rendered::Rendered;
use crate::report::style::Paint;
use crate::verdict::Report;

/// Opens every output the plan names: a bad path is the guard's error
/// (exit 2) before the server is started.
pub fn open(plan: &Plan) -> Result<Outputs, Error> {
    Outputs::open(
        &plan::wanted_outputs(&plan.settings),
        &plan::inputs_of(&plan.settings),
    )
}

/// Writes the rendered report and every format beside it (with the GitHub
/// annotations when the plan asks for them); returns the exit status.
pub fn deliver(
    report: &Report,
    rendered: &Rendered,
    outputs: &mut Outputs,
    plan: &Plan,
) -> Result<u8, Error> {
    let time = crate::clock::rfc3339(crate::clock::now_ms());
    let options = report::FormatOptions {
        time: &time,
        junit_skipped: plan.settings.junit_skipped,
    };
    formats(report, outputs, &options)?;
    if plan::annotates(&plan.settings) {
        annotations(report, outputs, &time)?;
    }
    if let Some(sink) = outputs.get(Kind::Report) {
        rendered.write(&mut |bytes| sink.write_all(bytes))?;
    }
    outputs.commit()?;
    Ok(report.exit_code())
}

/// `--evidence` (one record per run), then every format of the table the
/// user asked for, each a writer over the same report.
pub fn formats(
    report: &Report,
    outputs: &mut Outputs,
    options: &report::FormatOptions,
) -> Result<(), Error> {
    if let Some(sink) = outputs.get(Kind::Evidence) {
        let file = sink.target.clone();
        for index in 0..report.runs.len() {
            sink.append_record(report::record::evidence(report, index, &file))?;
        }
    }
    for d in FORMATS {
        let kind = Kind::Format(d.format);
        if outputs.wants(kind) {
            outputs.write(kind, report::write(d.format, report, options).as_bytes())?;
        }
    }
    Ok(())
}

/// The GitHub workflow commands on stderr (the runner reads them there,
/// and a JSON report on stdout stays clean) and the step summary.
fn annotations(report: &Report, outputs: &mut Outputs, time: &str) -> Result<(), Error> {
    eprint!(
        "{}",
        crate::redact::out(&report::annotations::commands(report))
    );
    outputs.write(
        Kind::Summary,
        report::annotations::summary(report, time).as_bytes(),
    )
}

/// The colour of text written to the report's output.
pub fn paint(plan: &Plan) -> Paint {
    Paint { on: plan.color }
}
