//! The `mcp-stdio-guard` binary: parses, runs, and exits with the status
//! `commands` decides (0 no error issue, 1 an error issue, 2 the guard's own
//! failure, 128+N interrupted by signal N).

use std::process::ExitCode;

fn main() -> ExitCode {
    match mcp_stdio_guard::commands::run(std::env::args_os().skip(1)) {
        Ok(code) => ExitCode::from(code),
        Err(e @ mcp_stdio_guard::error::Error::Interrupted(_)) => {
            eprintln!("mcp-stdio-guard: {e}");
            ExitCode::from(e.exit_code())
        }
        Err(e) => {
            eprintln!("mcp-stdio-guard: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
