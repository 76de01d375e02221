//! `demo` and the two tiny MCP servers it checks. The servers
//! are this same binary re-executed in a hidden mode (`__serve clean|banner`),
//! so the demo needs nothing installed. The clean server doubles as the fast
//! server of the overhead benchmark.

use crate::obj;
use std::io::{self, BufRead, Write};

use serde_json::Value;

use crate::args::cli::{self, Command, DemoServer};
use crate::args::settings::Settings;
use crate::commands::{check, judge};
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Wanted};

/// Serves MCP on this process's stdin/stdout until stdin closes.
pub fn serve(kind: DemoServer) -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    if kind == DemoServer::Banner {
        // The classic mistake: a friendly line on the protocol channel.
        writeln!(stdout, "Demo server v1.0 starting on stdio...")?;
        stdout.flush()?;
    }
    for line in stdin.lines() {
        let line = line?;
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = msg.get("id") else {
            continue; // a notification
        };
        let result = match msg.get("method").and_then(Value::as_str) {
            Some("initialize") => obj! {
                "protocolVersion" => msg["params"]["protocolVersion"] .as_str() .filter(|v| SUPPORTED.contains(v)) .unwrap_or(SUPPORTED[0]),
                "capabilities" => obj! {"tools" => obj! {}},
                "serverInfo" => obj! {"name" => "mcp-stdio-guard-demo", "version" => env!("CARGO_PKG_VERSION")},
            },
            Some("tools/list") => obj! {"tools" => vec![obj! {
                "name" => "echo",
                "description" => "Returns its text argument.",
                "inputSchema" => obj! {
                    "type" => "object",
                    "properties" => obj! {"text" => obj! {"type" => "string"}},
                    "required" => ["text"].as_slice(),
                },
            }]},
            Some("ping") => obj! {},
            _ => {
                let err = obj! {
                    "jsonrpc" => "2.0",
                    "id" => id,
                    "error" => obj! {"code" => -32601, "message" => "Method not found"},
                };
                writeln!(stdout, "{err}")?;
                stdout.flush()?;
                continue;
            }
        };
        writeln!(
            stdout,
            "{}",
            obj! {"jsonrpc" => "2.0", "id" => id, "result" => result}
        )?;
        stdout.flush()?;
    }
    Ok(())
}

const SUPPORTED: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Runs the demo: both checks, both reports. Returns the exit status.
pub fn run(args: &Settings) -> Result<u8, Error> {
    let mut stdout = Outputs::open(&[Wanted::new(Kind::Report, "-")], &[])?;
    let exe =
        std::env::current_exe().map_err(|e| Error::io("cannot find this program's own path", e))?;
    let mut verdicts = Vec::new();
    let mut out = String::new();
    for (n, kind, title) in [
        (1, "clean", "a clean server"),
        (2, "banner", "a server that prints a banner on stdout"),
    ] {
        // The built-in servers write nothing late: no settle window.
        let argv: Vec<std::ffi::OsString> = vec![
            "--request".into(),
            "tools/list".into(),
            "--settle".into(),
            "0".into(),
            "--color".into(),
            args.color.as_str().into(),
            "--".into(),
            exe.clone().into_os_string(),
            "__serve".into(),
            kind.into(),
        ];
        let Command::Run(given) = cli::parse(argv)? else {
            return Err(Error::usage("the demo's own arguments did not parse", ""));
        };
        let plan = crate::plan::resolve(&given)?;
        let report = judge::check(&plan, &mut Outputs::default())?;
        let (ok, text) = (
            report.exit_code() == 0,
            check::render(&plan, &report).to_text(),
        );
        out.push_str(&format!("== demo {n}/2: {title}\n$ mcp-stdio-guard --request tools/list -- mcp-stdio-guard __serve {kind}\n"));
        out.push_str(&text);
        out.push('\n');
        verdicts.push(ok);
    }
    let as_expected = verdicts == [true, false];
    out.push_str(if as_expected {
        "demo: the clean server passed and the polluted one failed, as expected.\n"
    } else {
        "demo: unexpected verdicts; please report this.\n"
    });
    stdout.write(Kind::Report, out.as_bytes())?;
    Ok(if as_expected { 0 } else { 1 })
}
