//! mcp-stdio-guard: starts an MCP stdio server, runs a real MCP session
//! against it, judges every byte it writes, and reports what is wrong.
//!
//! `main` only wires the layers together (cli -> plan -> session -> checks ->
//! report) and maps the result to an exit status: 0 no error issue, 1 an
//! error issue, 2 the guard's own failure, 128+N interrupted by signal N.

use std::io::{self, Write};
use std::process::ExitCode;

mod call;
mod checks;
mod child;
mod cli;
mod config;
mod demo;
mod error;
mod evidence;
mod fingerprint;
mod jsonrpc;
mod mcp;
mod plan;
mod redact;
mod report;
mod scan;
mod session;
mod sys;
mod transcript;
mod wire;

use cli::{Command, HelpTopic};
use error::Error;
use plan::Plan;
use transcript::Stop;

fn main() -> ExitCode {
    match run(std::env::args_os().skip(1)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("mcp-stdio-guard: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(args: impl Iterator<Item = std::ffi::OsString>) -> Result<u8, Error> {
    match cli::parse(args)? {
        Command::Help(topic) => {
            match topic {
                HelpTopic::Main | HelpTopic::Check | HelpTopic::Tools | HelpTopic::Call => {
                    write_stdout(cli::HELP_MAIN)?
                }
                HelpTopic::Demo => write_stdout(cli::HELP_DEMO)?,
                HelpTopic::Scan => write_stdout(cli::HELP_SCAN)?,
                HelpTopic::Codes => write_stdout(&checks::code_listing())?,
            }
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
        Command::Scan(args) => scan_command(&args),
        Command::Demo(args) => {
            sys::install_interrupt_handlers();
            demo::run(&args)
        }
        Command::Check(args) => {
            sys::install_interrupt_handlers();
            let plan = plan::resolve(&args)?;
            match run_check(&plan, plan.color)? {
                Checked::Report { code, output } => {
                    write_stdout(&output)?;
                    Ok(code)
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

/// Runs one check, tool listing or tool call: the `--scan` first, then the
/// session (`--repeat` times), the judgement, the comparison with
/// `--against`, the output, and the record files (`--transcript` always,
/// even for a failed or interrupted run; `--evidence` for every judged run).
pub fn run_check(plan: &Plan, color: bool) -> Result<Checked, Error> {
    let scanned = if plan.scan.is_empty() {
        None
    } else {
        Some(scan::scan(&plan.scan)?)
    };
    let repeat = if plan.mode == cli::Mode::Check {
        plan.repeat.max(1) as usize
    } else {
        1
    };
    let mut runs: Vec<(transcript::Transcript, Vec<checks::Issue>)> = Vec::new();
    let mut transcript_text = String::new();
    for n in 1..=repeat {
        let tr = session::run(&plan.launch, &plan.session);
        if plan.transcript.is_some() {
            let run = (repeat > 1).then_some(n);
            transcript_text.push_str(&report::record::transcript(&tr, plan, run));
        }
        if let Some(Stop::Interrupted(sig)) = tr.stop {
            write_transcript(plan, &transcript_text)?;
            return Ok(Checked::Interrupted(sig));
        }
        let issues = checks::run(&plan.context, &tr);
        runs.push((tr, issues));
    }
    write_transcript(plan, &transcript_text)?;
    if repeat > 1 {
        return repeated(plan, color, &runs, scanned.as_ref());
    }
    let Some((tr, mut issues)) = runs.pop() else {
        unreachable!("invariant: at least one run")
    };
    if let Some(s) = &scanned {
        issues.extend(checks::static_scan(s, plan.fail_on_static));
    }
    let baseline = against(plan, &tr, &mut issues, scanned.as_ref())?;
    let report = report::Report {
        plan,
        tr: &tr,
        issues: &issues,
        scan: scanned.as_ref(),
        baseline,
    };
    let (mode_name, output, mut code) = match &plan.mode {
        cli::Mode::Check => {
            let output = if plan.json {
                report::json::render(&report)
            } else {
                report::text::render(&report, color)
            };
            ("check", output, u8::from(!report.ok()))
        }
        cli::Mode::Tools => (
            "tools",
            report::audit::render_tools(&report, plan.json),
            u8::from(!report.ok()),
        ),
        cli::Mode::Call(_) => {
            let failed = !report.ok() || report::audit::call_failed(&report).is_some();
            (
                "call",
                report::audit::render_call(&report, plan.json),
                u8::from(failed),
            )
        }
    };
    if let Some(path) = &plan.evidence {
        let record = report::record::evidence(&report, mode_name, path);
        evidence::append(path, record)?;
    }
    if let Some(problem) = &tr.call_problem {
        // The tool or its arguments did not fit: nothing was called.
        eprintln!("mcp-stdio-guard: error: {problem}");
        code = 2;
    }
    Ok(Checked::Report { code, output })
}

fn write_transcript(plan: &Plan, text: &str) -> Result<(), Error> {
    if let Some(path) = &plan.transcript {
        std::fs::write(path, text)
            .map_err(|e| Error::io(format!("cannot write the transcript {}", path.display()), e))?;
    }
    Ok(())
}

/// `--against`: the drift from the newest record for this command.
fn against(
    plan: &Plan,
    tr: &transcript::Transcript,
    issues: &mut Vec<checks::Issue>,
    scanned: Option<&scan::ScanReport>,
) -> Result<report::Baseline, Error> {
    let Some(path) = &plan.against else {
        return Ok(report::Baseline::NotUsed);
    };
    let facts = {
        let draft = report::Report {
            plan,
            tr,
            issues,
            scan: scanned,
            baseline: report::Baseline::NotUsed,
        };
        serde_json::Value::Object(report::record::facts(&draft))
    };
    let command = serde_json::json!(plan.shown_argv);
    Ok(match evidence::newest_for(path, &command)? {
        Some(record) => {
            issues.extend(checks::against::drift(&record, &facts));
            let time = record.get("time").and_then(|t| t.as_str()).unwrap_or("");
            report::Baseline::Record(time.to_string())
        }
        None => report::Baseline::NoRecord,
    })
}

/// `--repeat N`: every run judged on its own, then compared with the
/// first; one report over all of them, with each run's full report in
/// `runs`.
fn repeated(
    plan: &Plan,
    color: bool,
    runs: &[(transcript::Transcript, Vec<checks::Issue>)],
    scanned: Option<&scan::ScanReport>,
) -> Result<Checked, Error> {
    let facts: Vec<checks::drift::Facts> = runs
        .iter()
        .enumerate()
        .map(|(i, (tr, _))| checks::drift::facts(i + 1, tr))
        .collect();
    let (drift_issues, drift) = checks::drift::compare(&facts);
    let mut all: Vec<checks::Issue> = Vec::new();
    let mut run_reports = Vec::new();
    let mut failed_runs = Vec::new();
    for (i, (tr, issues)) in runs.iter().enumerate() {
        all.extend(issues.iter().cloned().map(|issue| issue.with("run", i + 1)));
        let report = report::Report {
            plan,
            tr,
            issues,
            scan: None,
            baseline: report::Baseline::NotUsed,
        };
        if !report.ok() {
            failed_runs.push(i + 1);
        }
        if let Some(path) = &plan.evidence {
            evidence::append(path, report::record::evidence(&report, "check", path))?;
        }
        let mut v = report::json::build(&report);
        if let serde_json::Value::Object(m) = &mut v {
            m.insert("run".into(), (i + 1).into());
        }
        run_reports.push((v, report::text::render(&report, color)));
    }
    if let Some(s) = scanned {
        all.extend(checks::static_scan(s, plan.fail_on_static));
    }
    all.extend(drift_issues);
    let first = &runs[0].0;
    // --against compares the first run, the one the top level shows.
    let baseline = against(plan, first, &mut all, scanned)?;
    let report = report::Report {
        plan,
        tr: first,
        issues: &all,
        scan: scanned,
        baseline,
    };
    let ok = report.ok();
    let output = if plan.json {
        report::json::render_repeat(
            &report,
            drift,
            run_reports.into_iter().map(|(v, _)| v).collect(),
            &failed_runs,
        )
    } else {
        let texts: Vec<String> = run_reports.into_iter().map(|(_, t)| t).collect();
        report::text::render_repeat(&report, &texts, color)
    };
    Ok(Checked::Report {
        code: u8::from(!ok),
        output,
    })
}

/// `scan PATH...`: exit 1 with findings, 0 without.
fn scan_command(args: &cli::ScanArgs) -> Result<u8, Error> {
    let roots: Vec<std::path::PathBuf> = args.paths.iter().map(Into::into).collect();
    let scanned = scan::scan(&roots)?;
    let output = if args.json {
        report::scan::render_json(&scanned)
    } else {
        report::scan::render_text(&scanned, plan::use_color(args.color))
    };
    write_stdout(&output)?;
    Ok(if scanned.findings.is_empty() { 0 } else { 1 })
}

/// The exit status for an interrupt, after saying so on stderr.
pub fn interrupted(sig: i32) -> u8 {
    eprintln!(
        "mcp-stdio-guard: interrupted by {}; the server's process group was killed",
        sys::signal_name(sig)
    );
    u8::try_from(128 + sig).unwrap_or(128)
}

/// Writes to stdout; a closed stdout (`guard | head`) is not an error.
pub fn write_stdout(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Error::io("cannot write the report", e))
        }
        _ => Ok(()),
    }
}
