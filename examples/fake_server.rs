//! A scripted MCP stdio server for the integration tests: one correct
//! behaviour (`ok`) and one scenario per way a real server goes wrong.
//!
//! Usage: fake_server <scenario> [marker]
//!
//! The optional marker is ignored by the server; tests pass a unique one so
//! they can find any process of the run (grandchildren included) that
//! survived. Scenarios that must outlive a signal bound their own lifetime,
//! so a broken test can never leave a process behind for long.

use std::io::{self, BufRead, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
    fn setsid() -> i32;
}

const SIGTERM: i32 = 15;
const SIG_IGN: usize = 1;

/// Scenario names and what they do, for `fake_server --list`.
const SCENARIOS: &[(&str, &str)] = &[
    (
        "ok",
        "a correct server: initialize, tools/list, ping; exits on stdin EOF",
    ),
    ("banner", "prints a banner on stdout before speaking"),
    ("stderr-log", "logs to stderr, otherwise correct"),
    (
        "stderr-env",
        "writes its environment and argv to stderr and stdout errors",
    ),
    ("hang", "reads requests and never answers"),
    ("exit-clean", "exits 0 before answering initialize"),
    (
        "exit-nonzero",
        "prints an error to stderr and exits 3 before initialize",
    ),
    (
        "exit-signal",
        "aborts (SIGABRT) before answering initialize",
    ),
    (
        "crash-after-initialized",
        "exits 1 on notifications/initialized",
    ),
    (
        "exit-on-request",
        "exits 2 when the request after initialize arrives",
    ),
    (
        "ignore-request",
        "answers initialize, never the request after it",
    ),
    ("wrong-id", "answers initialize with id 99"),
    ("string-id", "answers initialize with id \"1\""),
    (
        "echo",
        "writes the initialize request back instead of answering",
    ),
    (
        "notification-response",
        "answers notifications/initialized with id null",
    ),
    (
        "empty-line",
        "writes an empty line before the initialize response",
    ),
    (
        "content-length",
        "frames its response with a Content-Length header",
    ),
    (
        "no-newline-exit",
        "writes the initialize response without newline and exits",
    ),
    (
        "no-newline-alive",
        "writes the initialize response without newline, stays alive",
    ),
    (
        "huge-line",
        "writes a 512 KiB line before the initialize response",
    ),
    ("flood-stdout", "writes 200 MB of stdout lines"),
    ("flood-stderr", "writes 4 MiB to stderr, otherwise correct"),
    (
        "invalid-utf8",
        "writes a line of invalid UTF-8 before the response",
    ),
    ("crlf", "ends every message with CRLF"),
    ("json-log", "writes a structured JSON log line on stdout"),
    ("init-error", "answers initialize with a JSON-RPC error"),
    (
        "op-error",
        "answers the request after initialize with an error",
    ),
    ("ignore-eof", "does not exit on stdin EOF (SIGTERM works)"),
    (
        "ignore-sigterm",
        "ignores stdin EOF and SIGTERM (only SIGKILL works)",
    ),
    (
        "grandchild",
        "leaves a child in its group holding stdout after it exits",
    ),
    (
        "setsid-escape",
        "leaves a child in a new session holding stdout",
    ),
    (
        "late-stdout",
        "writes a log line to stdout 20 ms after initialize",
    ),
    (
        "shutdown-print",
        "writes a goodbye line to stdout when stdin closes",
    ),
    ("ping-first", "pings the client before answering initialize"),
    (
        "roots-request",
        "asks for roots/list before answering initialize",
    ),
];

fn send(out: &mut impl Write, value: &Value, ending: &str) {
    let _ = write!(out, "{value}{ending}");
    let _ = out.flush();
}

fn reply(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn init_result(msg: &Value) -> Value {
    json!({
        "protocolVersion": msg["params"]["protocolVersion"].as_str().unwrap_or("2025-11-25"),
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "fake-server", "version": "1.0.0"},
    })
}

fn tools() -> Value {
    json!({"tools": [{
        "name": "echo",
        "description": "Echo text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    }]})
}

/// Keeps the process alive for at most `limit`, as a stuck server would.
fn linger(limit: Duration) {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Leaves a child behind on purpose: it is never waited for, because the
/// scenario is a server that forgets its children.
#[allow(clippy::zombie_processes)]
fn spawn_grandchild(mode: &str, marker: &str) {
    let exe = std::env::current_exe().expect("own path");
    Command::new(exe)
        .args([mode, marker])
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn grandchild");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenario = args.get(1).map(String::as_str).unwrap_or("ok");
    let marker = args.get(2).cloned().unwrap_or_default();
    match scenario {
        "--list" => {
            for (name, what) in SCENARIOS {
                println!("{name}\t{what}");
            }
            return;
        }
        // Grandchild modes: hold the inherited stdout open and stay alive.
        "grandchild-hold" => return linger(Duration::from_secs(30)),
        "grandchild-escape" => {
            // SAFETY: setsid has no memory effects.
            unsafe { setsid() };
            return linger(Duration::from_secs(8));
        }
        _ => {}
    }
    if !SCENARIOS.iter().any(|(name, _)| *name == scenario) {
        eprintln!("fake_server: unknown scenario {scenario}");
        std::process::exit(64);
    }
    run(scenario, &marker);
}

fn run(scenario: &str, marker: &str) {
    // Tests that must act while the server runs (to interrupt the guard)
    // wait on this FIFO instead of sleeping.
    if let Some(fifo) = std::env::var_os("FAKE_READY_FIFO") {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(fifo) {
            let _ = writeln!(f, "{}", std::process::id());
        }
    }
    let mut out = io::stdout().lock();
    let mut err = io::stderr().lock();
    let ending = if scenario == "crlf" { "\r\n" } else { "\n" };
    match scenario {
        "banner" => {
            let _ = writeln!(out, "Fake server 1.0 listening on stdio");
        }
        "exit-clean" => std::process::exit(0),
        "exit-nonzero" => {
            let _ = writeln!(err, "fatal: missing configuration file ./config.toml");
            std::process::exit(3);
        }
        "exit-signal" => std::process::abort(),
        "flood-stdout" => {
            let line = format!("{}\n", "x".repeat(1023));
            for _ in 0..200 * 1024 {
                if out.write_all(line.as_bytes()).is_err() {
                    std::process::exit(0);
                }
            }
            std::process::exit(0);
        }
        "flood-stderr" => {
            let line = format!("debug: {}\n", "y".repeat(1017));
            for _ in 0..4096 {
                let _ = err.write_all(line.as_bytes());
            }
        }
        "ignore-sigterm" => {
            // SAFETY: installs the "ignore" disposition; no handler code runs.
            unsafe { signal(SIGTERM, SIG_IGN) };
        }
        "grandchild" => spawn_grandchild("grandchild-hold", marker),
        "setsid-escape" => spawn_grandchild("grandchild-escape", marker),
        "stderr-log" => {
            let _ = writeln!(err, "info: fake server starting");
        }
        "stderr-env" => {
            for (k, v) in std::env::vars() {
                let _ = writeln!(err, "env {k}={v}");
            }
            let _ = writeln!(
                err,
                "argv {}",
                std::env::args().collect::<Vec<_>>().join(" ")
            );
        }
        _ => {}
    }
    let stdin = io::stdin().lock();
    // An initialize response held back until the client answers our request.
    let mut held: Option<Value> = None;
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        if scenario == "stderr-log" {
            let _ = writeln!(err, "info: received {} bytes", line.len());
        }
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
        let id = msg.get("id").cloned();
        if scenario == "hang" {
            continue;
        }
        match (method, id) {
            ("initialize", Some(id)) => {
                held = initialize(scenario, &msg, &id, &line, &mut out, ending)
            }
            ("notifications/initialized", None) => match scenario {
                "crash-after-initialized" => {
                    let _ = writeln!(err, "panic: lost connection to the database");
                    std::process::exit(1);
                }
                "notification-response" => send(
                    &mut out,
                    &json!({"jsonrpc": "2.0", "id": null, "result": {}}),
                    ending,
                ),
                _ => {}
            },
            (_, None) => {}
            ("", Some(id)) => {
                // The client's answer to our ping/roots request: now answer
                // the initialize request we held back.
                if id == json!("srv-1") {
                    if let Some(response) = held.take() {
                        send(&mut out, &response, ending);
                    }
                }
            }
            (method, Some(id)) => match scenario {
                "exit-on-request" => std::process::exit(2),
                "ignore-request" => {}
                "op-error" => send(
                    &mut out,
                    &json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": -32603, "message": "database unavailable"}}),
                    ending,
                ),
                _ => match method {
                    "tools/list" => send(&mut out, &reply(&id, tools()), ending),
                    "ping" => send(&mut out, &reply(&id, json!({})), ending),
                    _ => send(
                        &mut out,
                        &json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32601, "message": "Method not found"}}),
                        ending,
                    ),
                },
            },
        }
    }
    // stdin closed.
    match scenario {
        "shutdown-print" => {
            let _ = writeln!(out, "shutting down, bye");
            let _ = out.flush();
        }
        "ignore-eof" | "no-newline-alive" => linger(Duration::from_secs(30)),
        "ignore-sigterm" => linger(Duration::from_secs(30)),
        _ => {}
    }
}

fn initialize(
    scenario: &str,
    msg: &Value,
    id: &Value,
    raw: &str,
    out: &mut impl Write,
    ending: &str,
) -> Option<Value> {
    let response = reply(id, init_result(msg));
    match scenario {
        "wrong-id" => send(out, &reply(&json!(99), init_result(msg)), ending),
        "string-id" => send(out, &reply(&json!("1"), init_result(msg)), ending),
        "echo" => {
            let _ = writeln!(out, "{raw}");
            let _ = out.flush();
        }
        "empty-line" => {
            let _ = writeln!(out);
            send(out, &response, ending);
        }
        "content-length" => {
            let body = response.to_string();
            let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len());
            let _ = out.flush();
        }
        "no-newline-exit" => {
            send(out, &response, "");
            std::process::exit(0);
        }
        "no-newline-alive" => send(out, &response, ""),
        "huge-line" => {
            let _ = writeln!(out, "{}", "z".repeat(512 * 1024));
            send(out, &response, ending);
        }
        "invalid-utf8" => {
            let _ = out.write_all(b"caf\xe9 \xff\xfe not utf-8\n");
            send(out, &response, ending);
        }
        "json-log" => {
            send(
                out,
                &json!({"level": "info", "msg": "server started"}),
                "\n",
            );
            send(out, &response, ending);
        }
        "init-error" => send(
            out,
            &json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32602, "message": "Unsupported protocol version"}}),
            ending,
        ),
        "late-stdout" => {
            send(out, &response, ending);
            std::thread::sleep(Duration::from_millis(20));
            let _ = writeln!(out, "INFO late log line");
            let _ = out.flush();
        }
        "ping-first" | "roots-request" => {
            let method = if scenario == "ping-first" {
                "ping"
            } else {
                "roots/list"
            };
            send(
                out,
                &json!({"jsonrpc": "2.0", "id": "srv-1", "method": method}),
                ending,
            );
            return Some(response);
        }
        _ => send(out, &response, ending),
    }
    None
}
