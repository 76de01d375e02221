//! The robustness phase (`--robustness`), after the judged runs: the calls
//! `checks::robustness::generate` makes from the first run's tools, sent
//! one at a time in sessions of their own (the era the first run spoke, no
//! listing, no probes). A crash ends a session: the server is started again
//! (in custody as every server is) and the phase goes on with the next
//! call; a tool that crashed three times, or timed out once, gets no more
//! calls; nothing starts past `--robustness-budget`. Each session's stdout
//! is judged too (a tool that prints breaks the stream). The calls'
//! outcomes go to `checks::robustness::judge`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::checks::robustness::generate::{self, PlannedCall};
use crate::checks::robustness::{self, CallRecord, Judging, Outcome, Summary};
use crate::checks::{self, Context, Group, Issue};
use crate::error::Error;
use crate::plan::{OpSource, Opening, Operation, Plan, SessionConfig};
use crate::session::transcript::{EntryKind, Transcript};
use crate::session::{self, Stage, Stop, Target};
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

/// How one session left the calls it was given.
struct Leg {
    /// (index into the phase's calls, outcome, ms) for each call it reached.
    outcomes: Vec<(usize, Outcome, u64)>,
    /// The call during which the server exited, if one did.
    crashed: Option<usize>,
    /// What the session's stdout and its confinement gave.
    issues: Vec<Issue>,
    confinement: Option<crate::session::confine::Log>,
}

fn exit_text(tr: &Transcript) -> String {
    match tr.shutdown.exit {
        Some(e) => match (e.code, e.signal) {
            (Some(code), _) => format!("code {code}"),
            (None, Some(sig)) => format!("signal {}", crate::sys::signal_name(sig)),
            _ => "an unknown status".into(),
        },
        None => "it closed its streams".into(),
    }
}

/// The session config of one leg: the calls as operations.
fn leg_config(
    base: &SessionConfig,
    opening: Opening,
    calls: &[&PlannedCall],
    deadline: Instant,
) -> SessionConfig {
    SessionConfig {
        opening,
        operations: calls
            .iter()
            .enumerate()
            .map(|(k, c)| Operation {
                method: "tools/call".into(),
                // A progress token: a tool that streams progress is waited
                // for while it does (session::script).
                params: Some(crate::obj! {
                    "name" => c.tool.clone(),
                    "arguments" => c.arguments.clone(),
                    "_meta" => crate::obj! {"progressToken" => format!("robustness-{k}")},
                }),
                source: OpSource::RobustnessCall,
                safe_tool_call: None,
            })
            .collect(),
        capability_probes: false,
        force_tools_list: false,
        tool_call: None,
        adversarial: Vec::new(),
        settle: Duration::ZERO,
        deadline: Some(deadline),
        ..base.clone()
    }
}

/// When each operation's request went out (ms), by operation index.
fn sent_at(tr: &Transcript) -> HashMap<u64, u64> {
    tr.entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Sent { id: Some(id), .. } => Some((*id, e.at_ms)),
            _ => None,
        })
        .collect()
}

/// What came of each call the leg sent: (index into the phase's calls,
/// outcome, ms until the next call was sent or the session ended).
fn outcomes(tr: &Transcript, indices: &[usize]) -> Vec<(usize, Outcome, u64)> {
    let timed_out: Vec<usize> = tr
        .entries
        .iter()
        .filter_map(|e| match e.kind {
            EntryKind::Timeout {
                target: Target::Op(i),
                ..
            } => Some(i),
            _ => None,
        })
        .collect();
    let crashed_op = tr.entries.iter().find_map(|e| match e.kind {
        EntryKind::Exited {
            stage: Stage::Operation(i),
            ..
        } => Some(i),
        _ => None,
    });
    let said = crate::checks::said::read(&tr.stderr.text());
    let sent = sent_at(tr);
    let mut outcomes = Vec::new();
    let mut times: Vec<(usize, u64)> = tr
        .ops
        .iter()
        .enumerate()
        .filter_map(|(i, op)| op.id.and_then(|id| sent.get(&id)).map(|at| (i, *at)))
        .collect();
    crate::order::sort_by_key(&mut times, |t| t.1);
    for (k, (i, at)) in times.iter().enumerate() {
        let op = &tr.ops[*i];
        let next = times.get(k + 1).map_or(tr.duration_ms, |t| t.1);
        let ms = next.saturating_sub(*at);
        let outcome = if let Some(result) = &op.result {
            Outcome::Result(result.clone())
        } else if let Some(error) = &op.error {
            Outcome::Error(error.clone())
        } else if timed_out.contains(i) {
            Outcome::TimedOut
        } else if crashed_op == Some(*i) || tr.shutdown.exit.is_some() {
            Outcome::Crashed {
                exit: exit_text(tr),
                said: said.quote().map(String::from),
            }
        } else {
            continue;
        };
        outcomes.push((indices[*i], outcome, ms));
    }
    outcomes
}

/// One session over `indices` of `calls`.
fn leg(
    plan: &Plan,
    cfg: &SessionConfig,
    ctx: &Context,
    (calls, indices): (&[PlannedCall], &[usize]),
    status: &mut Status,
) -> Result<Leg, Error> {
    let mut tr = Transcript::new(cfg);
    if let Some(sink) = status.transcript {
        let label = format!("robustness {}", status.sessions);
        let tap = crate::report::transcript::TranscriptFile::labelled(
            sink.try_clone()?,
            plan.shown_argv.clone(),
            label,
        );
        tr = tr.with_tap(Box::new(tap));
    }
    let stop = session::run(
        &plan.launch,
        cfg,
        &checks::SessionRules,
        &mut Watched {
            tr: &mut tr,
            status,
            calls,
            indices,
        },
    );
    if let Some(tap) = tr.take_tap() {
        let _ = tap.close();
    }
    if let Some(Stop::Interrupted(sig)) = stop {
        return Err(Error::interrupted(sig));
    }
    let outcomes = outcomes(&tr, indices);
    let crashed = outcomes
        .iter()
        .find_map(|(i, o, _)| matches!(o, Outcome::Crashed { .. }).then_some(*i));
    // A crash is this phase's to judge: a refusal is not its cause here.
    let issues = checks::run(ctx, &tr)
        .into_iter()
        .filter(|i| {
            i.in_group(Group::Stdout)
                || i.in_group(Group::Confinement) && i.code != checks::Code::ConfineDenied
        })
        .map(|i| match i.detail("phase") {
            Some(_) => i,
            None => i.with("phase", "robustness"),
        })
        .collect();
    Ok(Leg {
        outcomes,
        crashed,
        issues,
        confinement: tr.confinement.take(),
    })
}

/// What makes two findings of the phase's sessions the same: the code and
/// what it names (a restarted server's pid differs, its finding does not).
fn same_finding(i: &Issue) -> (checks::Code, String) {
    let named = ["path", "address", "program", "paths", "phase", "line"]
        .iter()
        .filter_map(|k| i.detail(k).map(|v| v.to_string()))
        .collect::<Vec<_>>()
        .join(" ");
    let what = if named.is_empty() {
        i.message.clone()
    } else {
        named
    };
    (i.code, what)
}

/// Why a call was never sent.
fn unsent_reason(
    call: &PlannedCall,
    crashes: &HashMap<String, u32>,
    timed_out: &[String],
) -> String {
    if timed_out.contains(&call.tool) {
        "an earlier call of this tool timed out".into()
    } else if crashes.get(&call.tool).is_some_and(|n| *n >= CRASHES) {
        "this tool crashed the server three times".into()
    } else {
        "the --robustness-budget ran out".into()
    }
}

/// What the phase has gathered so far.
#[derive(Default)]
struct Phase {
    outcomes: Vec<Option<(Outcome, u64)>>,
    crashes: HashMap<String, u32>,
    timed_out: Vec<String>,
    issues: Vec<Issue>,
    confinement: Vec<crate::session::confine::Log>,
}

/// The status line of the phase (calls answered, or given up on, of all),
/// and where its sessions' traffic is written (`--transcript`).
struct Status<'a> {
    line: crate::progress::Progress,
    done: usize,
    total: usize,
    transcript: Option<&'a crate::plan::outputs::Sink>,
    sessions: u64,
}

/// A leg's transcript that tells the status line of each call as its
/// answer (or its timeout) comes.
struct Watched<'a, 'b> {
    tr: &'a mut Transcript,
    status: &'a mut Status<'b>,
    calls: &'a [PlannedCall],
    indices: &'a [usize],
}

impl session::Recorder for Watched<'_, '_> {
    fn record(&mut self, at: u64, record: session::Record) {
        let op = match &record {
            session::Record::Line(l) => match l.role {
                session::Role::Reply(Target::Op(k)) => Some(k),
                _ => None,
            },
            session::Record::Timeout {
                target: Target::Op(k),
                ..
            } => Some(*k),
            _ => None,
        };
        if let Some(k) = op {
            let s = &mut *self.status;
            s.done += 1;
            let tool = self
                .indices
                .get(k)
                .and_then(|&i| self.calls.get(i))
                .map_or("", |c| c.tool.as_str());
            let (done, total) = (s.done, s.total);
            s.line.show(|| {
                format!(
                    "robustness: {}, tool {tool}",
                    crate::progress::of(done, total, "call")
                )
            });
        }
        self.tr.record(at, record);
    }
}

/// The sessions of the phase: each over the calls left, until every call
/// is made, skipped or past the budget.
fn drive(
    (plan, first, transcript): (&Plan, &RunReport, Option<&crate::plan::outputs::Sink>),
    calls: &[PlannedCall],
    deadline: Instant,
    state: &mut Phase,
    summary: &mut Summary,
) -> Result<(), Error> {
    let mut status = Status {
        line: crate::progress::Progress::new(plan.settings.progress),
        done: 0,
        total: calls.len(),
        transcript,
        sessions: 0,
    };
    let opening = if first.modern() {
        Opening::Modern
    } else {
        Opening::Legacy
    };
    let ctx = Context::of(plan);
    let mut next = 0;
    while next < calls.len() && Instant::now() < deadline {
        let indices: Vec<usize> = (next..calls.len())
            .filter(|&i| {
                let tool = &calls[i].tool;
                !state.timed_out.contains(tool)
                    && state.crashes.get(tool).is_none_or(|n| *n < CRASHES)
            })
            .collect();
        if indices.is_empty() {
            break;
        }
        let chosen: Vec<&PlannedCall> = indices.iter().map(|&i| &calls[i]).collect();
        let cfg = leg_config(&plan.session, opening, &chosen, deadline);
        summary.sessions += 1;
        status.sessions = summary.sessions;
        let leg = leg(plan, &cfg, &ctx, (calls, &indices), &mut status)?;
        for issue in leg.issues {
            let key = same_finding(&issue);
            if !state.issues.iter().any(|i| same_finding(i) == key) {
                state.issues.push(issue);
            }
        }
        state.confinement.extend(leg.confinement);
        for (i, outcome, ms) in leg.outcomes {
            if matches!(outcome, Outcome::TimedOut) && !state.timed_out.contains(&calls[i].tool) {
                state.timed_out.push(calls[i].tool.clone());
            }
            state.outcomes[i] = Some((outcome, ms));
        }
        match leg.crashed {
            Some(i) => {
                *state.crashes.entry(calls[i].tool.clone()).or_default() += 1;
                summary.restarts += 1;
                next = i + 1;
            }
            None => break,
        }
    }
    Ok(())
}

/// Each call with what came of it (a call never sent says why).
fn records(
    calls: &[PlannedCall],
    outcomes: Vec<Option<(Outcome, u64)>>,
    crashes: &HashMap<String, u32>,
    timed_out: &[String],
) -> Vec<CallRecord> {
    calls
        .iter()
        .zip(outcomes)
        .map(|(call, got)| {
            let (outcome, ms) = got
                .unwrap_or_else(|| (Outcome::NotSent(unsent_reason(call, crashes, timed_out)), 0));
            CallRecord {
                call: call.clone(),
                outcome,
                ms,
            }
        })
        .collect()
}

/// The values of the variables `--env` forwarded to the server.
fn forwarded(plan: &Plan) -> Vec<String> {
    let names: Vec<&str> = plan.settings.env.iter().map(|e| e.name()).collect();
    plan.launch
        .env
        .iter()
        .filter(|(k, _)| names.iter().any(|n| k.to_str() == Some(*n)))
        .map(|(_, v)| v.to_string_lossy().into_owned())
        .collect()
}

/// How the probe's records are judged for this run.
fn judging(plan: &Plan, first: &RunReport) -> Judging {
    Judging {
        strict: plan.settings.profile == crate::args::words::Profile::Strict,
        modern: first.modern(),
        argv: plan
            .shown_argv
            .iter()
            .map(|a| robustness::shell_quote(a))
            .collect::<Vec<_>>()
            .join(" "),
        timeout_ms: plan.settings.timeout_ms,
        secrets: forwarded(plan),
    }
}

/// Runs the phase over the first run's tools. `None` when it was not asked
/// for.
pub fn run(
    plan: &Plan,
    first: &RunReport,
    transcript: Option<&crate::plan::outputs::Sink>,
) -> Result<Option<Found>, Error> {
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
        summary.not_called.push(generate::NotCalled {
            tool: String::new(),
            reason: if first.initialized {
                "the server listed no tools".into()
            } else {
                "the session never opened".into()
            },
        });
        return Ok(Some(Found {
            summary,
            issues: Vec::new(),
            confinement: Vec::new(),
        }));
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
    let deadline = started + Duration::from_millis(spec.budget_ms);
    let mut state = Phase {
        outcomes: vec![None; calls.len()],
        ..Phase::default()
    };
    drive(
        (plan, first, transcript),
        calls,
        deadline,
        &mut state,
        &mut summary,
    )?;
    let Phase {
        outcomes,
        crashes,
        timed_out,
        issues: leg_issues,
        confinement,
    } = state;
    let records = records(calls, outcomes, &crashes, &timed_out);
    let (mut issues, tools) = robustness::judge(&records, &first.tools, &judging(plan, first));
    issues.extend(leg_issues);
    issues.extend(robustness::read_only_broken(&first.tools, &confinement));
    summary.calls_sent = records
        .iter()
        .filter(|r| !matches!(r.outcome, Outcome::NotSent(_)))
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
