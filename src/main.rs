//! mcp-stdio-guard: starts an MCP stdio server, runs a real MCP session
//! against it, judges every byte it writes, and reports what is wrong.
//!
//! `main` only wires the layers together (cli -> plan -> session -> checks ->
//! report) and maps the result to an exit status: 0 no error issue, 1 an
//! error issue, 2 the guard's own failure, 128+N interrupted by signal N.

use std::io::{self, Write};
use std::process::ExitCode;

mod checks;
mod child;
mod cli;
mod demo;
mod error;
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
                HelpTopic::Main | HelpTopic::Check => write_stdout(cli::HELP_MAIN)?,
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
                Checked::Report { ok, output } => {
                    write_stdout(&output)?;
                    Ok(if ok { 0 } else { 1 })
                }
                Checked::Interrupted(sig) => Ok(interrupted(sig)),
            }
        }
    }
}

/// What one check produced.
#[derive(Debug)]
pub enum Checked {
    /// Judged: whether it passed, and the rendered report.
    Report { ok: bool, output: String },
    /// A signal stopped the guard; the server group is already killed and
    /// reaped, and nothing was judged.
    Interrupted(i32),
}

/// Runs one check (the `--scan` first, then the session) and renders its
/// report (JSON or text, as planned).
pub fn run_check(plan: &Plan, color: bool) -> Result<Checked, Error> {
    let scanned = if plan.scan.is_empty() {
        None
    } else {
        Some(scan::scan(&plan.scan)?)
    };
    let tr = session::run(&plan.launch, &plan.session);
    if let Some(Stop::Interrupted(sig)) = tr.stop {
        return Ok(Checked::Interrupted(sig));
    }
    let mut issues = checks::run(&plan.context, &tr);
    if let Some(s) = &scanned {
        issues.extend(checks::static_scan(s, plan.fail_on_static));
    }
    let report = report::Report {
        plan,
        tr: &tr,
        issues: &issues,
        scan: scanned.as_ref(),
    };
    let output = if plan.json {
        report::json::render(&report)
    } else {
        report::text::render(&report, color)
    };
    Ok(Checked::Report {
        ok: report.ok(),
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
