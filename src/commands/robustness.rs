//! The robustness phase (`--robustness`), wired: the calls
//! `checks::robustness::generate` makes from the first run's tools, run by
//! the command's session runner as a script (the era the first run spoke,
//! no listing, no probes; a crash starts the server again, a tool that
//! crashed three times or timed out once gets no more calls, nothing
//! starts past `--robustness-budget`), each session's stdout and
//! confinement judged as it ends, the calls' outcomes judged by
//! `checks::robustness`.

use std::time::{Duration, Instant};

use crate::checks::robustness::{self, Judging, Summary, generate, records};
use crate::checks::{Context, Issue};
use crate::error::Error;
use crate::plan::{OpSource, Opening, Operation, Plan, SessionConfig};
use crate::session::runner::{Runner, Script};
use crate::verdict::RunReport;

/// Crashes of one tool after which it gets no more calls.
const CRASHES: u32 = 3;

/// What the phase found: its summary, its findings, and what the
/// supervisor recorded of each of its sessions (`--confine`).
#[derive(Debug)]
pub struct Found {
    pub summary: Summary,
    pub issues: Vec<Issue>,
    pub confinement: Vec<crate::session::confine::Log>,
}

/// The script of the calls: one `tools/call` each, with a progress token
/// (a tool that streams progress is waited for while it does), in
/// sessions that open as the first run did and do nothing else.
fn script(
    plan: &Plan,
    first: &RunReport,
    calls: &[generate::PlannedCall],
    deadline: Instant,
) -> Script {
    let operations = calls
        .iter()
        .enumerate()
        .map(|(k, c)| Operation {
            method: "tools/call".into(),
            params: Some(crate::obj! {
                "name" => c.tool.clone(),
                "arguments" => c.arguments.clone(),
                "_meta" => crate::obj! {"progressToken" => format!("robustness-{k}")},
            }),
            source: OpSource::RobustnessCall,
            safe_tool_call: None,
        })
        .collect();
    let opening = if first.modern() {
        Opening::Modern
    } else {
        Opening::Legacy
    };
    Script {
        cfg: SessionConfig {
            opening,
            operations: Vec::new(),
            capability_probes: false,
            force_tools_list: false,
            tool_call: None,
            adversarial: Vec::new(),
            settle: Duration::ZERO,
            ..plan.session.clone()
        },
        operations,
        keys: calls.iter().map(|c| c.tool.clone()).collect(),
        crashes: CRASHES,
        deadline,
        label: "robustness".into(),
    }
}

/// A phase that made no call, and why.
fn nothing(mut summary: Summary, first: &RunReport) -> Found {
    summary.not_called.push(generate::NotCalled {
        tool: String::new(),
        reason: if first.initialized {
            "the server listed no tools".into()
        } else {
            "the session never opened".into()
        },
    });
    Found {
        summary,
        issues: Vec::new(),
        confinement: Vec::new(),
    }
}

/// Runs the phase over the first run's tools. `None` when it was not asked
/// for.
pub fn run(plan: &Plan, first: &RunReport, runner: &Runner) -> Result<Option<Found>, Error> {
    let spec = &plan.settings.robustness;
    if !spec.on || plan.settings.cmd != crate::args::settings::Cmd::Check {
        return Ok(None);
    }
    let started = Instant::now();
    let mut summary = Summary {
        seed: spec.seed,
        budget_ms: spec.budget_ms,
        ..Summary::default()
    };
    if !first.initialized || first.tools.is_empty() {
        return Ok(Some(nothing(summary, first)));
    }
    // The kernel holds writes and the network: tools without annotations
    // may have the invalid-input calls.
    let sandboxed = plan
        .launch
        .confine
        .as_ref()
        .is_some_and(|p| p.enforcing() && p.support.landlock_abi >= 4);
    let call_plan = generate::plan(&first.tools, spec, sandboxed);
    let calls = &call_plan.calls;
    let script = script(
        plan,
        first,
        calls,
        started + Duration::from_millis(spec.budget_ms),
    );
    let ctx = Context::of(plan);
    let mut line = crate::progress::Progress::new(plan.settings.progress);
    let mut done = 0;
    let mut answered = |i: usize| {
        done += 1;
        let tool = calls.get(i).map_or("", |c| c.tool.as_str());
        let of = crate::progress::of(done, calls.len(), "call");
        line.show(|| format!("robustness: {of}, tool {tool}"));
    };
    let (mut leg_issues, mut confinement) = (Vec::new(), Vec::new());
    let mut leg = |tr: &mut crate::session::transcript::Transcript| {
        records::leg_findings(&ctx, tr, &mut leg_issues);
        confinement.extend(tr.confinement.take());
    };
    let scripted = runner.script(&script, &mut answered, &mut leg)?;
    (summary.sessions, summary.restarts) = (scripted.sessions, scripted.restarts);
    let records = records::records(calls, scripted.ends);
    let judging = Judging::of(plan, first.modern());
    let (mut issues, tools) = robustness::judge(&records, &first.tools, &judging);
    issues.extend(leg_issues);
    issues.extend(robustness::read_only_broken(&first.tools, &confinement));
    summary.calls_sent = records
        .iter()
        .filter(|r| !matches!(r.outcome, robustness::Outcome::NotSent(_)))
        .count() as u64;
    summary.findings = issues.len() as u64;
    summary.tools = tools;
    summary.not_called = call_plan.not_called;
    summary.duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(Some(Found {
        summary,
        issues,
        confinement,
    }))
}
