//! The commands, one file each: `check`, `tools`, `call`, `bench`, `batch`,
//! `scan`, `demo` and `help` (with `--version` and `completions`); `judge`
//! is the judged check they share, `deliver` where its report goes. Each
//! command parses nothing (that was `args`), opens its outputs before it
//! starts anything, and returns the exit status; `run` picks the command.

mod batch;
mod bench;
mod call;
mod check;
mod deliver;
mod demo;
mod doctor;
mod help;
mod install;
pub mod judge;
mod lint;
mod log;
pub mod robustness;
mod scan;
mod servers;
mod tools;
mod wrap;

use crate::args::cli::{self, Command};
use crate::args::settings::Cmd;
use crate::error::Error;
use crate::sys;

/// Runs the command the arguments name; returns the exit status.
pub fn run(args: impl Iterator<Item = std::ffi::OsString>) -> Result<u8, Error> {
    match cli::parse(args)? {
        Command::Help(topic) => help::help(topic),
        Command::Completions(shell) => help::completions(shell),
        Command::Version => help::version(),
        Command::Serve(kind) => {
            demo::serve(kind).map_err(|e| Error::io("demo server", e))?;
            Ok(0)
        }
        Command::Watch => Ok(wrap::watch()),
        Command::Panic(args) => {
            sys::install_interrupt_handlers();
            sys::install_panic_hook();
            let plan = crate::plan::resolve(&args)?;
            let _server = crate::session::child::Server::spawn(&plan.launch);
            panic!("__panic: the panic path, with a server in custody");
        }
        Command::Run(args) => {
            sys::install_interrupt_handlers();
            sys::install_panic_hook();
            sys::hide_memory();
            // wrap's relay threads allocate and its judge frees: they keep
            // the allocator's own arenas, not the two the checks share.
            if args.cmd != Cmd::Wrap {
                sys::tune_allocator();
            }
            crate::plan::install_own_secrets();
            match args.cmd {
                Cmd::Batch => batch::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Scan => scan::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Demo => demo::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Servers => servers::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Doctor => doctor::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Wrap => wrap::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Log => log::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Lint => lint::run(&crate::args::resolve::resolve(&args, None)?),
                Cmd::Check | Cmd::Tools | Cmd::Call | Cmd::Bench => {
                    let plan = crate::plan::resolve(&args)?;
                    match plan.settings.cmd {
                        Cmd::Tools => tools::run(&plan),
                        Cmd::Call => call::run(&plan),
                        Cmd::Bench => bench::run(&plan, &plan.settings.bench),
                        _ => check::run(&plan),
                    }
                }
            }
        }
    }
}
