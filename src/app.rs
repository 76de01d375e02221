//! Orchestration: what each command does, start to end. A check is the
//! static scan (if any), the session (`--repeat` times, each judged and
//! distilled at once so no transcript outlives its run), the drift and the
//! `--against` comparison, the rendering, and the record files. `main`
//! only parses and exits; `demo` calls back in here.

use serde_json::Value;

use crate::checks::drift::{self, Facts};
use crate::checks::{self, Context, Issue};
use crate::cli::{self, Command, HelpTopic, Mode};
use crate::error::Error;
use crate::options::{Era, Probe};
use crate::plan::{self, Plan};
use crate::plan::{AdvProbe, Opening, SessionConfig};
use crate::report::{self, Baseline, Report, RunReport};
use crate::scan::{self, ScanReport};
use crate::session::{self, Speaks, Stop};
use crate::transcript::Transcript;
use crate::{bench, demo, evidence, fingerprint, sys};

/// Runs the command the arguments name; returns the exit status.
pub fn run(args: impl Iterator<Item = std::ffi::OsString>) -> Result<u8, Error> {
    match cli::parse(args)? {
        Command::Help(topic) => {
            let text = match topic {
                HelpTopic::Main | HelpTopic::Check | HelpTopic::Tools | HelpTopic::Call => {
                    cli::help_main()
                }
                HelpTopic::Demo => cli::HELP_DEMO.to_string(),
                HelpTopic::Scan => cli::HELP_SCAN.to_string(),
                HelpTopic::Codes => checks::code::listing(),
                HelpTopic::Man => crate::docs::man_page(),
            };
            write_stdout(&text)?;
            Ok(0)
        }
        Command::Batch(args) => {
            sys::install_interrupt_handlers();
            crate::batch::run(&args)
        }
        Command::Completions(shell) => {
            write_stdout(&crate::docs::completions(shell))?;
            Ok(0)
        }
        Command::Version => {
            write_stdout(&format!("mcp-stdio-guard {}\n", env!("CARGO_PKG_VERSION")))?;
            Ok(0)
        }
        Command::Serve(kind) => {
            demo::serve(kind).map_err(|e| Error::io("demo server", e))?;
            Ok(0)
        }
        Command::Scan(args) => {
            sys::install_interrupt_handlers();
            scan_command(&args)
        }
        Command::Demo(args) => {
            sys::install_interrupt_handlers();
            demo::run(&args)
        }
        Command::Check(args) => {
            sys::install_interrupt_handlers();
            let plan = plan::resolve(&args)?;
            let checked = match &plan.settings.mode {
                Mode::Bench(spec) => bench_command(&plan, spec)?,
                _ => run_check(&plan)?,
            };
            match checked {
                Checked::Report { code, output } => {
                    write_stdout(&output)?;
                    // A signal while the report was written (a stuck reader)
                    // ends the run as interrupted.
                    Ok(sys::pending_interrupt().map_or(code, interrupted))
                }
                Checked::Interrupted(sig) => Ok(interrupted(sig)),
            }
        }
    }
}

/// What one check produced.
#[derive(Debug)]
pub enum Checked {
    /// Judged: the exit status, and the rendered output.
    Report { code: u8, output: String },
    /// A signal stopped the guard; the server group is already killed and
    /// reaped, and nothing was judged.
    Interrupted(i32),
}

/// One session: run, judged, distilled. `None` when interrupted. When the
/// era probe cost the process, the server is judged on a fresh one; the
/// unsupported-version probe gets a fresh process of its own.
fn one_run(
    plan: &Plan,
    cfg: &SessionConfig,
    transcript_file: Option<&std::fs::File>,
    number: Option<usize>,
) -> Result<Result<RunReport, i32>, Error> {
    let mut tr = Transcript::new(cfg, plan.redactor.clone());
    if let Some(file) = transcript_file {
        let file = file
            .try_clone()
            .map_err(|e| Error::io("cannot write the transcript", e))?;
        let tap = report::transcript::TranscriptFile::new(file, plan.shown_argv.clone(), number);
        tr = tr.with_tap(Box::new(tap));
    }
    let mut cfg = cfg.clone();
    let mut stop = session::run(&plan.launch, &cfg, &checks::SessionRules, &mut tr);
    if let Some(Stop::Restart(speaks)) = stop {
        cfg.opening = match speaks {
            Speaks::Legacy => Opening::Legacy,
            Speaks::Modern => Opening::Modern,
        };
        let probe = tr.era.take();
        let tap = tr.take_tap();
        tr = Transcript::new(&cfg, plan.redactor.clone());
        if let Some(tap) = tap {
            tr = tr.with_tap(tap);
        }
        tr.era_probe = probe;
        stop = session::run(&plan.launch, &cfg, &checks::SessionRules, &mut tr);
    }
    if stop.is_none() && tr.modern() {
        version_probe(plan, &cfg, &mut tr);
    }
    if let Some(tap) = tr.take_tap() {
        tap.close().map_err(|e| {
            let path = plan.settings.transcript.clone().unwrap_or_default();
            Error::io(format!("cannot write the transcript {}", path.display()), e)
        })?;
    }
    if let Some(Stop::Interrupted(sig)) = stop {
        return Ok(Err(sig));
    }
    if let Some(sig) = sys::pending_interrupt() {
        return Ok(Err(sig));
    }
    let mut ctx = Context::of(plan);
    ctx.opening = cfg.opening;
    let mut issues = checks::run(&ctx, &tr);
    if matches!(plan.settings.mode, Mode::Call(_)) {
        // The call command exists to run the tool: its isError is the
        // command's failure (exit 1), and the label says so.
        for issue in issues
            .iter_mut()
            .filter(|i| i.code == checks::Code::ToolCallError)
        {
            issue.severity = checks::Severity::Error;
        }
    }
    Ok(Ok(RunReport::build(plan, &tr, issues, number)))
}

/// `--probe unsupported-version`: a fresh process whose opening message
/// asks for a version no server supports (SDKs pin the version of the
/// opening, so asking later on the judged process would prove nothing).
/// Its answer becomes the probe's record in `tr`.
fn version_probe(plan: &Plan, cfg: &SessionConfig, tr: &mut Transcript) {
    let wanted = AdvProbe::Builtin(Probe::UnsupportedVersion);
    let Some(index) = cfg.adversarial.iter().position(|p| *p == wanted) else {
        return;
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
    let mut probe_tr = Transcript::new(&probe_cfg, plan.redactor.clone());
    let started = std::time::Instant::now();
    session::run(
        &plan.launch,
        &probe_cfg,
        &checks::SessionRules,
        &mut probe_tr,
    );
    if let (Some(rec), Some(answer)) = (tr.adversarial.get_mut(index), probe_tr.adversarial.first())
    {
        rec.started = true;
        rec.duration_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        rec.request = answer.request.clone();
    }
}

/// Runs one check, tool listing or tool call: the `--scan` first, then the
/// session (`--repeat` times), the judgement, the comparison with
/// `--against`, the output, and the record files (`--transcript` always,
/// even for a failed or interrupted run; `--evidence` for every judged run).
pub fn run_check(plan: &Plan) -> Result<Checked, Error> {
    let scanned = if plan.settings.scan.is_empty() {
        None
    } else {
        Some(scan::scan(&plan.settings.scan)?)
    };
    // An interrupt during the scan: nothing is started.
    if let Some(sig) = sys::pending_interrupt() {
        return Ok(Checked::Interrupted(sig));
    }
    let transcript_file = match &plan.settings.transcript {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| {
            Error::io(format!("cannot write the transcript {}", path.display()), e)
        })?),
        None => None,
    };
    let repeat = if plan.settings.mode == Mode::Check {
        plan.settings.repeat.max(1) as usize
    } else {
        1
    };
    // The runtime versions are probed while the session runs: no wall time.
    let runtimes = probe_runtimes(plan);
    let mut runs = Vec::new();
    for n in 1..=repeat {
        let number = (repeat > 1).then_some(n);
        match one_run(plan, &plan.session, transcript_file.as_ref(), number)? {
            Ok(run) => runs.push(run),
            Err(sig) => return Ok(Checked::Interrupted(sig)),
        }
    }
    // `--era both`: a server that speaks 2026-07-28 may serve 2025 too
    // (only trying tells); one that did not answer the discover probe
    // does not claim 2026-07-28, and the report says why.
    let mut other = None;
    let primary_modern = runs[0].era.as_ref().map(|e| e.speaks) == Some(Speaks::Modern);
    if plan.settings.era == Era::Both && primary_modern {
        let legacy = SessionConfig {
            opening: Opening::Legacy,
            ..plan.session.clone()
        };
        match one_run(plan, &legacy, transcript_file.as_ref(), None)? {
            Ok(run) => other = Some(run),
            Err(sig) => return Ok(Checked::Interrupted(sig)),
        }
    }
    let eras = report::Eras::settle(&runs, other, plan.settings.era == Era::Both);
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
    let mut report = Report::new(plan, runs, extra, scanned, baseline, drift);
    report.set_eras(eras);
    report.package = fingerprint::package(&plan.shown_argv, &plan.base_dir);
    // Each probe is bounded (fingerprint::VERSION_LIMIT); this bounds the
    // wait for all of them.
    report.runtimes = runtimes
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_else(|_| serde_json::json!({}));
    finish(plan, &report)
}

/// `bench`: one judged session (the era, the tools), then the measurements;
/// the text table or the JSON `bench` block, then every issue.
fn bench_command(plan: &Plan, spec: &cli::BenchSpec) -> Result<Checked, Error> {
    let first = match one_run(plan, &plan.session, None, None)? {
        Ok(run) => run,
        Err(sig) => return Ok(Checked::Interrupted(sig)),
    };
    let measured = bench::run(plan, spec, &first)?;
    if let Some(sig) = sys::pending_interrupt() {
        return Ok(Checked::Interrupted(sig));
    }
    let mut issues = first.issues.clone();
    issues.extend(measured.issues.iter().cloned());
    let ok = !issues.iter().any(Issue::is_error);
    let output = if plan.settings.json {
        report::json::pretty(&serde_json::json!({
            "schemaVersion": 1,
            "ok": ok,
            "command": plan.shown_argv,
            "negotiatedProtocol": first.negotiated(),
            "bench": bench::value(&measured),
            "issues": issues.iter().map(report::json::issue_value).collect::<Vec<_>>(),
        }))
    } else {
        let plain = report::style::Paint { on: false };
        let mut text = bench::text(&measured);
        for issue in &issues {
            text.push_str(&report::text::issue_line(issue, &plain));
            text.push('\n');
        }
        text
    };
    Ok(Checked::Report {
        code: u8::from(!ok),
        output,
    })
}

/// Starts probing the versions of the runtimes the command uses, on a
/// thread; the answer arrives on the channel.
fn probe_runtimes(plan: &Plan) -> std::sync::mpsc::Receiver<Value> {
    let (tx, rx) = std::sync::mpsc::channel();
    if fingerprint::runtime_of(&plan.shown_argv).is_none() {
        // Nothing to ask: no thread.
        let _ = tx.send(serde_json::json!({}));
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

/// Renders the report, appends the evidence, and picks the exit status.
fn finish(plan: &Plan, report: &Report) -> Result<Checked, Error> {
    let json = plan.settings.json;
    let (output, mut code) = match &plan.settings.mode {
        Mode::Check if report.runs.len() > 1 && !json => (
            report::text::render_repeat(report, plan.color),
            u8::from(!report.ok()),
        ),
        Mode::Check if json => (report::json::render(report), u8::from(!report.ok())),
        Mode::Check => (
            report::text::render(report, plan.color),
            u8::from(!report.ok()),
        ),
        // `bench` renders its own report (bench_command); a judged run of
        // it reads like the listing.
        Mode::Tools | Mode::Bench(_) => (
            report::audit::render_tools(report, json),
            u8::from(!report.ok()),
        ),
        Mode::Call(_) => {
            let failed = !report.ok() || report::audit::call_failed(report).is_some();
            (report::audit::render_call(report, json), u8::from(failed))
        }
    };
    if let Some(path) = &plan.settings.evidence {
        for run in &report.runs {
            let record = report::record::evidence(report, run, path);
            if let Err(e) = evidence::append(path, record) {
                return match sys::pending_interrupt() {
                    Some(sig) => Ok(Checked::Interrupted(sig)),
                    None => Err(e),
                };
            }
        }
    }
    write_formats(plan, report)?;
    if let Some(problem) = &report.first().call_problem {
        // The tool or its arguments did not fit: nothing was called.
        eprintln!("mcp-stdio-guard: error: {problem}");
        code = 2;
    }
    Ok(Checked::Report { code, output })
}

/// `--junit`, `--sarif`, `--checks-json` and the GitHub annotations: each
/// a writer over the same report, beside the normal output.
fn write_formats(plan: &Plan, report: &Report) -> Result<(), Error> {
    let write = |path: &std::path::Path, text: String| {
        std::fs::write(path, text)
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
    };
    let s = &plan.settings;
    if let Some(path) = &s.junit {
        write(path, report::junit::render(report))?;
    }
    if let Some(path) = &s.sarif {
        write(path, report::json::pretty(&report::sarif::render(report)))?;
    }
    if let Some(path) = &s.checks_json {
        let time = evidence::rfc3339(evidence::now_ms());
        write(
            path,
            report::json::pretty(&report::checks_json::render(report, &time)),
        )?;
    }
    if s.annotations {
        // stderr: the runner reads workflow commands there too, and a JSON
        // report on stdout stays clean.
        eprint!("{}", report::annotations::commands(report));
        if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY") {
            use std::io::Write as _;
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&summary)
                .and_then(|mut f| f.write_all(report::annotations::summary(report).as_bytes()));
            if let Err(e) = appended {
                return Err(Error::io(
                    format!(
                        "cannot append to GITHUB_STEP_SUMMARY {}",
                        summary.to_string_lossy()
                    ),
                    e,
                ));
            }
        }
    }
    Ok(())
}

/// One `static-stdout-write` issue per finding, scrubbed like any output.
fn static_issues(plan: &Plan, s: &ScanReport) -> Vec<Issue> {
    checks::static_scan(s, plan.settings.fail_on_static)
        .into_iter()
        .map(|mut issue| {
            issue.message = plan.redactor.scrub(&issue.message).into_owned();
            issue
        })
        .collect()
}

/// `--against`: the drift from the newest record for this command.
fn against(plan: &Plan, current: &Facts, issues: &mut Vec<Issue>) -> Result<Baseline, Error> {
    let Some(path) = &plan.settings.against else {
        return Ok(Baseline::NotUsed);
    };
    let command = serde_json::json!(plan.shown_argv);
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

/// `scan PATH...`: exit 1 with findings, 0 without.
fn scan_command(args: &cli::ScanArgs) -> Result<u8, Error> {
    let roots: Vec<std::path::PathBuf> = args.paths.iter().map(Into::into).collect();
    let scanned = scan::scan(&roots)?;
    if let Some(sig) = sys::pending_interrupt() {
        return Ok(interrupted(sig));
    }
    let output = if args.json {
        report::scan::render_json(&scanned)
    } else {
        report::scan::render_text(&scanned, plan::use_color(args.color))
    };
    write_stdout(&output)?;
    if let Some(sig) = sys::pending_interrupt() {
        return Ok(interrupted(sig));
    }
    Ok(if scanned.findings.is_empty() { 0 } else { 1 })
}

pub use crate::report::{interrupted, write_stdout};
