//! `bench`: one normal judged session first (the era, the tools, whether
//! the named tool is read-only), then the measurements (`session::bench`),
//! their findings (`checks::bench`), and the table or the JSON `bench`
//! block followed by every issue (`report::bench`). The formats beside the
//! report (JUnit, SARIF, evidence, annotations) cover the session and the
//! findings.

use crate::obj;
use serde_json::Value;

use crate::args::settings::BenchSpec;
use crate::checks::{Code, Issue};
use crate::commands::{deliver, judge};
use crate::error::Error;
use crate::plan::Plan;
use crate::session::Speaks;
use crate::session::bench::{self, Measured, Target};
use crate::verdict::{Baseline, Eras, Report, RunReport};

/// Runs the bench; returns the exit status.
pub fn run(plan: &Plan, spec: &BenchSpec) -> Result<u8, Error> {
    let mut outputs = deliver::open(plan)?;
    let taps = judge::taps(plan, &mut outputs)?;
    let runner = judge::runner(plan, taps.as_ref());
    let mut sieve = judge::sieve(plan);
    let first = judge::session(plan, &runner, &plan.session, None, &mut sieve)?;
    let speaks = first.era.as_ref().map_or(Speaks::Legacy, |e| e.speaks);
    let (measured, found) = if first.initialized {
        let target = Target {
            launch: &plan.launch,
            speaks,
            protocol: &plan.settings.protocol,
            startup_timeout: plan.session.startup_timeout,
            timeout: plan.session.request_timeout,
            call: tool_call(spec, &first)?,
        };
        let mut progress = crate::progress::Progress::new(plan.settings.progress);
        let measured = bench::measure(&target, spec, &mut progress)?;
        drop(progress);
        judge::check_interrupt()?;
        let found = crate::checks::bench::check(spec.concurrency, &measured);
        (measured, found)
    } else {
        let nothing = Measured {
            speaks: Some(speaks),
            liveness: bench::liveness(speaks),
            ..Measured::default()
        };
        let issue = Issue::new(
            Code::BenchFailed,
            "the server did not complete its opening; nothing was measured",
        );
        (nothing, vec![issue])
    };
    let eras = Eras::settle(std::slice::from_ref(&first), None, false);
    let subject = judge::subject(plan, obj! {});
    let found = sieve.sift(found);
    let mut report = Report::new(
        subject,
        vec![first],
        found,
        None,
        Baseline::NotUsed,
        None,
        eras,
    );
    judge::baselines(plan, &mut report, sieve);
    let rendered = crate::report::bench::render(&report, &measured, plan.settings.json);
    deliver::deliver(
        &report,
        &crate::report::rendered::Rendered::text(rendered),
        &mut outputs,
        plan,
    )
}

/// The named tool's params, after the checks: it exists, and it is
/// read-only or `--allow-side-effects` was given.
fn tool_call(spec: &BenchSpec, first: &RunReport) -> Result<Option<(String, Value)>, Error> {
    let Some(call) = &spec.call else {
        return Ok(None);
    };
    if spec.method.is_some() {
        return Err(Error::usage(
            "--method and --tool are two different benchmarks",
            "give one of them",
        ));
    }
    let arguments = crate::args::call::arguments(&first.tools, call)
        .map_err(|p| Error::usage(p, "see: mcp-stdio-guard tools -- <command>"))?;
    let tool = first
        .tools
        .iter()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(call.tool.as_str()));
    let read_only = tool
        .and_then(|t| t.pointer("/annotations/readOnlyHint"))
        .and_then(Value::as_bool)
        == Some(true);
    if !read_only && !spec.allow_side_effects {
        return Err(Error::usage(
            format!(
                "tool '{}' is not marked read-only (annotations.readOnlyHint); calling it {} times could change things",
                call.tool,
                bench::TOOL_SAMPLES + spec.requests
            ),
            "add --allow-side-effects if that is fine",
        ));
    }
    Ok(Some((
        call.tool.clone(),
        obj! {"name" => call.tool, "arguments" => arguments},
    )))
}
