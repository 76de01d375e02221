//! A fixed report for the writers' tests: a real session, driven in memory
//! through the real driver, against a scripted server whose every string
//! is the caller's (a hostile one, for the escaping tests); its records'
//! times are then fixed, so the same input always gives the same bytes,
//! and it is judged by the real checks into the real verdict.

use serde_json::{Value, json};

use crate::args::words::Era;
use crate::checks::{self, Context};
use crate::plan::{OpSource, Operation};
use crate::session::memory::{self, AfterEof, MemoryServer};
use crate::session::transcript::{Tap, Transcript};
use crate::session::{Lenient, Record, Recorder};
use crate::verdict::{Asked, Baseline, Eras, Report, RunReport, Subject};

/// What the scripted server answers, with `s` in every string it writes.
fn serve(mut server: MemoryServer, s: &str) -> AfterEof {
    let tool = |name: &str, text: &str| {
        json!({"name": name, "title": text, "description": text,
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": text}}}})
    };
    while let Some(msg) = server.recv() {
        match msg["method"].as_str() {
            Some("initialize") => {
                server.write_line(&format!("<img src=x onerror=alert(1)> {s}"));
                server.write_stderr(&format!("starting {s}\n"));
                server.reply(
                    &msg,
                    json!({"protocolVersion": "2025-11-25",
                        "capabilities": {"tools": {}, "prompts": {}},
                        "serverInfo": {"name": s, "version": "1.0"}}),
                );
            }
            Some("tools/list") => {
                server.reply(
                    &msg,
                    json!({"tools": [tool("t\u{1b}[5m\n::warning::x", s), tool("echo", "Echo.")]}),
                );
            }
            Some("prompts/list") => {
                server.reply(&msg, json!({"prompts": [{"name": s, "description": s}]}));
            }
            Some("tools/call") => {
                server.reply_error(&msg, -32603, s);
            }
            _ => {}
        }
    }
    AfterEof::Exit(0)
}

/// The records of the session, each stamped 10 ms after the last.
struct Stamped(Vec<(u64, Record)>);

impl Recorder for Stamped {
    fn record(&mut self, _at_ms: u64, record: Record) {
        let at = 10 * self.0.len() as u64;
        self.0.push((at, record));
    }
}

/// The report of a check of the scripted server, every server string `s`.
pub fn hostile_report(s: &str) -> Report {
    hostile_session(s, None)
}

/// As `hostile_report`, with a tap (the transcript file's writer) that sees
/// every entry as the fixed records are folded.
pub fn hostile_session(s: &str, tap: Option<Box<dyn Tap>>) -> Report {
    let mut cfg = memory::config();
    cfg.operations.push(Operation {
        method: "tools/call".into(),
        params: Some(json!({"name": "echo", "arguments": {"q": s}})),
        source: OpSource::SafeToolCall,
        safe_tool_call: Some("echo".into()),
    });
    let text = s.to_string();
    let mut stamped = Stamped(Vec::new());
    memory::run(&cfg, &Lenient, &mut stamped, move |server| {
        serve(server, &text)
    });
    let mut tr = Transcript::new(&cfg);
    if let Some(tap) = tap {
        tr = tr.with_tap(tap);
    }
    for (at, record) in stamped.0 {
        tr.record(at, record);
    }
    if let Some(tap) = tr.take_tap() {
        let _ = tap.close();
    }
    let mut ctx = Context::for_examples();
    ctx.opening = cfg.opening;
    let issues = checks::run(&ctx, &tr);
    let asked = Asked {
        capability_probes: true,
        adversarial: false,
        call: false,
        context_budget: 10_000,
    };
    let run = RunReport::build(tr, issues, None, asked);
    let eras = Eras::settle(std::slice::from_ref(&run), None, false);
    let mut subject = Subject::example();
    subject.era_mode = Era::Legacy;
    subject.package = Value::Null;
    Report::new(
        subject,
        vec![run],
        Vec::new(),
        None,
        Baseline::NotUsed,
        None,
        eras,
    )
}
