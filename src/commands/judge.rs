//! One judged check, the part `check`, `tools`, `call`, `bench` and `demo`
//! share: the static scan (if any), the session (`--repeat` times, each
//! judged and distilled at once so no transcript outlives its run; a fresh
//! process when the era probe cost one; the unsupported-version probe's own
//! process), `--era both`'s other era, the drift, `--against`, and what the
//! report is about (directory, host, package, runtimes), all handed to the
//! verdict. The transcript file is written while each session runs.

use serde_json::Value;

use crate::args::settings::Cmd;
use crate::args::words::{Era, Probe};
use crate::checks::drift::{self, Facts};
use crate::checks::{self, Context, Issue};
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs};
use crate::plan::{AdvProbe, Opening, Plan, SessionConfig, evidence};
use crate::report::transcript::TranscriptTaps;
use crate::scan::{self, ScanReport};
use crate::session::fingerprint;
use crate::session::runner::{Label, Ran, Runner, Taps};
use crate::session::transcript::Transcript;
use crate::sys;
use crate::verdict::accepted::Sieve;
use crate::verdict::subject::{CwdView, Host};
use crate::verdict::{Asked, Baseline, Eras, Report, RunReport, Subject};

/// Stops with the signal that arrived, if one did.
pub fn check_interrupt() -> Result<(), Error> {
    match sys::pending_interrupt() {
        Some(sig) => Err(Error::interrupted(sig)),
        None => Ok(()),
    }
}

/// What a run was asked to do, for its verdict.
fn asked(plan: &Plan) -> Asked {
    Asked {
        capability_probes: plan.session.capability_probes,
        adversarial: !plan.session.adversarial.is_empty(),
        call: plan.settings.cmd == Cmd::Call,
        context_budget: plan.settings.context_budget,
    }
}

/// The transcript file's taps, when the command writes one.
pub fn taps(plan: &Plan, outputs: &mut Outputs) -> Result<Option<TranscriptTaps>, Error> {
    Ok(match outputs.get(Kind::Transcript) {
        Some(sink) => Some(TranscriptTaps {
            sink: sink.try_clone()?,
            argv: plan.shown_argv.clone(),
        }),
        None => None,
    })
}

/// The runner of every session of the command.
pub fn runner<'a>(plan: &'a Plan, taps: Option<&'a TranscriptTaps>) -> Runner<'a> {
    Runner {
        launch: &plan.launch,
        rules: &checks::SessionRules,
        taps: taps.map(|t| t as &dyn Taps),
    }
}

/// One session: run, judged, distilled. The unsupported-version probe
/// gets a fresh process of its own.
pub fn session(
    plan: &Plan,
    runner: &Runner,
    cfg: &SessionConfig,
    number: Option<usize>,
    sieve: &mut Sieve,
) -> Result<RunReport, Error> {
    let Ran { mut tr, cfg, stop } = runner.session(cfg, &Label::Run(number), &mut |_| {})?;
    if stop.is_none() && tr.modern() {
        version_probe(runner, &cfg, &mut tr)?;
    }
    let mut ctx = Context::of(plan);
    ctx.opening = cfg.opening;
    let mut found = checks::run(&ctx, &tr);
    if number.unwrap_or(1) == 1 && latent_look_wanted(&ctx, &tr, &found) {
        found.extend(latent_pollution(runner, &cfg, &ctx)?);
    }
    let issues = sieve.sift(found);
    // The checks freed what they built; hand it back before the report is
    // built, so a large listing's peak is not the sum of both.
    sys::trim_heap();
    Ok(RunReport::build(tr, issues, number, asked(plan)))
}

/// Whether a Python server's stdout pollution may be hidden by its buffer:
/// it runs block-buffered (no `-u`, no `PYTHONUNBUFFERED`), it opened a
/// session, nothing on stdout was found wrong, and its buffer may have
/// been dropped: it did not leave by itself with status 0 once its stdin
/// closed (a signal stopped it, it crashed or it failed). Python flushes
/// its stdout buffer when it exits normally, so a server that did showed
/// whatever its buffer held on this run: no second start to look.
fn latent_look_wanted(ctx: &Context, tr: &Transcript, found: &[Issue]) -> bool {
    use crate::session::EndedBy;
    let flushed = tr.shutdown.ended_by == EndedBy::StdinClose
        && tr.shutdown.exit.is_some_and(|e| e.is_clean());
    !flushed
        && crate::checks::lifecycle::python_may_buffer(ctx, tr)
        && tr.initialized()
        && !found.iter().any(|i| i.in_group(checks::Group::Stdout))
}

/// The same session with `PYTHONUNBUFFERED=1`, as many hosts and container
/// images run Python: lines a `print()` wrote that sat in the buffer (and
/// were dropped when the server stopped) come out where the host reads
/// them. Its stdout findings are the server's, said so.
fn latent_pollution(
    runner: &Runner,
    cfg: &SessionConfig,
    ctx: &Context,
) -> Result<Vec<Issue>, Error> {
    let mut launch = runner.launch.clone();
    launch.env.retain(|(k, _)| k != "PYTHONUNBUFFERED");
    launch.env.push(("PYTHONUNBUFFERED".into(), "1".into()));
    let look = SessionConfig {
        adversarial: Vec::new(),
        tool_call: None,
        ..cfg.clone()
    };
    let label = Label::Named("PYTHONUNBUFFERED=1".into());
    let Ran { tr, .. } = runner
        .with_launch(&launch)
        .session(&look, &label, &mut |_| {})?;
    let mut ctx = ctx.clone();
    ctx.env.push(("PYTHONUNBUFFERED".into(), "1".into()));
    Ok(checks::run(&ctx, &tr)
        .into_iter()
        .filter(|i| matches!(i.code, checks::Code::StdoutNonJson | checks::Code::StdoutInvalidJsonRpc))
        .map(|mut i| {
            i.message = format!(
                "with PYTHONUNBUFFERED=1 (as many hosts and container images run Python) {}; under the environment given, Python held it in its stdout buffer and dropped it when the server stopped, so only an unbuffered host sees it",
                i.message
            );
            i.with("foundWith", "PYTHONUNBUFFERED=1")
        })
        .collect())
}

/// `--adversarial-probe unsupported-version`: a fresh process whose
/// opening message asks for a version no server supports (SDKs pin the
/// version of the opening, so asking later on the judged process would
/// prove nothing). Its answer becomes the probe's record in `tr`.
fn version_probe(runner: &Runner, cfg: &SessionConfig, tr: &mut Transcript) -> Result<(), Error> {
    let wanted = AdvProbe::Builtin(Probe::UnsupportedVersion);
    let Some(index) = cfg.adversarial.iter().position(|p| *p == wanted) else {
        return Ok(());
    };
    let probe_cfg = SessionConfig {
        opening: Opening::VersionProbe,
        operations: Vec::new(),
        capability_probes: false,
        force_tools_list: false,
        tool_call: None,
        adversarial: vec![wanted],
        ..cfg.clone()
    };
    let started = std::time::Instant::now();
    let label = Label::Named("unsupported-version probe".into());
    let Ran { tr: probe_tr, .. } = runner.session(&probe_cfg, &label, &mut |_| {})?;
    if let (Some(rec), Some(answer)) = (tr.adversarial.get_mut(index), probe_tr.adversarial.first())
    {
        rec.started = true;
        rec.duration_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        rec.request = answer.request.clone();
    }
    Ok(())
}

/// The whole check: the `--scan` first, then the sessions, the other era,
/// the drift and `--against`, judged into one report. The transcript goes
/// to its output as the sessions run.
pub fn check(plan: &Plan, outputs: &mut Outputs) -> Result<Report, Error> {
    let scanned = if plan.settings.scan.is_empty() {
        None
    } else {
        Some(scan::scan(&plan.settings.scan)?)
    };
    // An interrupt during the scan: nothing is started.
    check_interrupt()?;
    let taps = taps(plan, outputs)?;
    let runner = runner(plan, taps.as_ref());
    let repeat = if plan.settings.cmd == Cmd::Check {
        plan.settings.repeat.max(1) as usize
    } else {
        1
    };
    // The runtime versions are probed while the session runs: no wall time.
    let runtimes = probe_runtimes(plan);
    let mut sieve = sieve(plan);
    let mut runs = Vec::new();
    let mut progress = if repeat > 1 {
        crate::progress::Progress::new(plan.settings.progress)
    } else {
        crate::progress::Progress::off()
    };
    for n in 1..=repeat {
        progress.now(|| format!("check: {}", crate::progress::of(n, repeat, "run")));
        let number = (repeat > 1).then_some(n);
        let mut run = session(plan, &runner, &plan.session, number, &mut sieve)?;
        if let Some(first) = runs.first() {
            run.let_go(first);
        }
        runs.push(run);
    }
    progress.clear();
    let other = other_era(plan, &runner, &runs[0], &mut sieve)?;
    let robust = crate::commands::robustness::run(plan, &runs[0], &runner)?;
    let eras = Eras::settle(&runs, other, plan.settings.era == Era::Both);
    let facts: Vec<(usize, Facts)> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| (run.number.unwrap_or(i + 1), run.facts.clone()))
        .collect();
    let mut extra: Vec<Issue> = Vec::new();
    if let Some(s) = &scanned {
        extra.extend(static_issues(plan, s));
    }
    let drift = if runs.len() > 1 {
        let (issues, drift) = drift::compare(&facts);
        extra.extend(issues);
        Some(drift)
    } else {
        None
    };
    // --against compares the first run, the one the top level shows.
    let baseline = against(plan, &facts[0].1, &mut extra)?;
    // Each probe is bounded (fingerprint::VERSION_LIMIT); this bounds the
    // wait for all of them.
    let runtimes = runtimes
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_else(|_| crate::obj! {});
    let subject = subject(plan, runtimes);
    let mut probe_logs = Vec::new();
    let summary = robust.map(|found| {
        extra.extend(found.issues);
        probe_logs = found.confinement;
        found.summary
    });
    let extra = sieve.sift(extra);
    let mut report = Report::new(subject, runs, extra, scanned, baseline, drift, eras);
    if let Some(summary) = summary {
        report.attach_robustness(summary);
    }
    if let Some(policy) = &plan.launch.confine {
        report.attach_confinement(policy, &probe_logs);
    }
    baselines(plan, &mut report, sieve);
    Ok(report)
}

/// Applies the plan's baselines to a report: `--expected-failures` to its
/// official records, `--baseline`'s verdict on what it accepted.
pub fn baselines(plan: &Plan, report: &mut Report, sieve: Sieve) {
    if let Some((file, expected)) = &plan.expected {
        report.expect(expected, file);
    }
    if let Some((file, _)) = &plan.accepted {
        report.accepted = Some(sieve.finish(file));
    }
}

/// The `--baseline` sieve (one that accepts nothing without it).
pub fn sieve(plan: &Plan) -> Sieve {
    plan.accepted
        .as_ref()
        .map(|(_, list)| Sieve::new(list))
        .unwrap_or_default()
}

/// `--era both`: a server that speaks 2026-07-28 may serve 2025 too (only
/// trying tells); one that did not answer the discover probe does not claim
/// 2026-07-28, and the report says why.
fn other_era(
    plan: &Plan,
    runner: &Runner,
    first: &RunReport,
    sieve: &mut Sieve,
) -> Result<Option<RunReport>, Error> {
    if plan.settings.era != Era::Both || !first.modern() {
        return Ok(None);
    }
    let legacy = SessionConfig {
        opening: Opening::Legacy,
        ..plan.session.clone()
    };
    session(plan, runner, &legacy, None, sieve).map(Some)
}

/// What the report is about: the plan's subject and what lies around it.
pub fn subject(plan: &Plan, runtimes: Value) -> Subject {
    let (requested, resolved, exists) = crate::plan::cwd_report(plan);
    let host = Host {
        name: sys::hostname(),
        platform: std::env::consts::OS,
        arch: std::env::consts::ARCH,
        os_release: sys::os_release(),
    };
    let cwd = CwdView {
        requested,
        resolved,
        exists,
    };
    let package = fingerprint::package(&plan.shown_argv, &plan.base_dir);
    Subject::of(plan, cwd, host, package, runtimes)
}

/// Starts probing the versions of the runtimes the command uses, on a
/// thread; the answer arrives on the channel.
fn probe_runtimes(plan: &Plan) -> std::sync::mpsc::Receiver<Value> {
    let (tx, rx) = std::sync::mpsc::channel();
    if fingerprint::runtime_of(&plan.shown_argv).is_none() {
        // Nothing to ask: no thread.
        let _ = tx.send(crate::obj! {});
        return rx;
    }
    let argv = plan.shown_argv.clone();
    let env = plan.launch.env.clone();
    let builder = std::thread::Builder::new().name("runtime-versions".into());
    // No thread, no versions: the receiver then reports a closed channel.
    let _ = sys::with_interrupts_blocked(|| {
        builder.spawn(move || {
            let _ = tx.send(fingerprint::runtimes(&argv, &env));
        })
    });
    rx
}

/// One `static-stdout-write` issue per finding.
fn static_issues(plan: &Plan, s: &ScanReport) -> Vec<Issue> {
    checks::static_scan(s, plan.settings.fail_on_static)
}

/// `--against`: the drift from the newest record for this command.
fn against(plan: &Plan, current: &Facts, issues: &mut Vec<Issue>) -> Result<Baseline, Error> {
    let Some(path) = &plan.settings.against else {
        return Ok(Baseline::NotUsed);
    };
    let command = crate::object::ToValue::to_value(&plan.shown_argv);
    let (record, skipped) = evidence::newest_for(path, &command)?;
    if skipped > 0 {
        eprintln!(
            "mcp-stdio-guard: warning: skipped {skipped} unreadable line(s) of the --against file {}",
            path.display()
        );
    }
    Ok(match record {
        Some(record) => {
            let time = record.get("time").and_then(Value::as_str).unwrap_or("");
            issues.extend(drift::against(&Facts::from_record(&record), time, current));
            Baseline::Record(time.to_string())
        }
        None => Baseline::NoRecord,
    })
}
