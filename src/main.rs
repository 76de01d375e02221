//! The `mcp-stdio-guard` binary: parses, runs, and exits with the status
//! `app` decides (0 no error issue, 1 an error issue, 2 the guard's own
//! failure, 128+N interrupted by signal N).

use std::process::ExitCode;

fn main() -> ExitCode {
    match mcp_stdio_guard::app::run(std::env::args_os().skip(1)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("mcp-stdio-guard: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
