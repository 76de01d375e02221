//! The session driven in memory through the library (no process): the
//! handshake, pagination, an unusable initialize result, server requests,
//! wrong ids, timeouts and the shutdown ladder, each against a scripted
//! server closure.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_stdio_guard::checks::SessionRules;
use mcp_stdio_guard::plan::SessionConfig;
use mcp_stdio_guard::session::memory::{self, AfterEof, MemoryServer};
use mcp_stdio_guard::session::transcript::{EntryKind, Transcript};
use mcp_stdio_guard::session::{EndedBy, Stop};
use serde_json::{Value, json};

/// Every message the scripted server received, in order.
type Received = Arc<Mutex<Vec<Value>>>;

/// Runs a session against `respond`, which gets each message the guard
/// wrote and answers with the server's stdout lines. At EOF the server
/// does `after`.
fn scripted(
    cfg: &SessionConfig,
    after: AfterEof,
    mut respond: impl FnMut(&Value) -> Vec<String> + Send + 'static,
) -> (Transcript, Vec<Value>, memory::Ending) {
    let received: Received = Arc::default();
    let log = Arc::clone(&received);
    let mut tr = Transcript::new(cfg);
    let ending = memory::run(
        cfg,
        &SessionRules,
        &mut tr,
        move |mut server: MemoryServer| {
            while let Some(msg) = server.recv() {
                log.lock().expect("lock").push(msg.clone());
                for line in respond(&msg) {
                    server.write_line(&line);
                }
            }
            after
        },
    );
    let received = received.lock().expect("lock").clone();
    (tr, received, ending)
}

fn reply(msg: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}).to_string()
}

fn init_result(caps: Value) -> Value {
    json!({"protocolVersion": "2025-11-25", "capabilities": caps,
        "serverInfo": {"name": "s", "version": "1"}})
}

fn methods(received: &[Value]) -> Vec<String> {
    received
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(response)").to_string())
        .collect()
}

#[test]
fn a_correct_server_is_initialized_listed_and_stopped_by_closing_stdin() {
    let (tr, received, ending) =
        scripted(
            &memory::config(),
            AfterEof::Exit(0),
            |m| match m["method"].as_str() {
                Some("initialize") => vec![reply(m, init_result(json!({"tools": {}})))],
                Some("tools/list") => vec![reply(m, json!({"tools": []}))],
                _ => vec![],
            },
        );
    assert!(tr.initialized());
    assert_eq!(
        methods(&received),
        ["initialize", "notifications/initialized", "tools/list"]
    );
    assert_eq!(tr.probes.len(), 1);
    assert_eq!(tr.shutdown.ended_by, EndedBy::StdinClose);
    assert!(ending.signals.is_empty());
}

#[test]
fn every_page_is_followed_until_the_cursor_ends_or_repeats() {
    let (tr, received, _) = scripted(&memory::config(), AfterEof::Exit(0), |m| {
        match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"prompts": {}})))],
            Some("prompts/list") => {
                let next = match m.pointer("/params/cursor").and_then(Value::as_str) {
                    None => json!("p2"),
                    Some("p2") => json!("p3"),
                    _ => json!("p2"), // a loop back to page 2
                };
                vec![reply(m, json!({"prompts": [], "nextCursor": next}))]
            }
            _ => vec![],
        }
    });
    let cursors: Vec<Option<String>> = tr.probes.iter().map(|p| p.cursor.clone()).collect();
    assert_eq!(cursors, [None, Some("p2".into()), Some("p3".into())]);
    assert_eq!(methods(&received).len(), 5);
}

#[test]
fn an_unusable_initialize_result_stops_before_initialized() {
    let (tr, received, ending) =
        scripted(
            &memory::config(),
            AfterEof::Exit(0),
            |m| match m["method"].as_str() {
                Some("initialize") => vec![reply(m, json!({"protocolVersion": "2025-11-25"}))],
                _ => vec![],
            },
        );
    assert!(!tr.initialized());
    assert_eq!(ending.stop, Some(Stop::ProtocolError));
    assert_eq!(methods(&received), ["initialize"]);
}

#[test]
fn server_requests_are_answered_before_initialize_completes() {
    let (tr, received, _) = scripted(&memory::config(), AfterEof::Exit(0), |m| match m["method"]
        .as_str()
    {
        Some("initialize") => vec![
            json!({"jsonrpc": "2.0", "id": "s1", "method": "ping"}).to_string(),
            json!({"jsonrpc": "2.0", "id": "s2", "method": "roots/list"}).to_string(),
            reply(m, init_result(json!({}))),
        ],
        _ => vec![],
    });
    assert!(tr.initialized());
    let answers: Vec<&Value> = received
        .iter()
        .filter(|m| m.get("method").is_none())
        .collect();
    assert_eq!(
        answers[0],
        &json!({"jsonrpc": "2.0", "id": "s1", "result": {}})
    );
    assert_eq!(answers[1]["error"]["code"], -32601);
}

#[test]
fn a_wrong_id_ends_the_wait_at_once() {
    let cfg = memory::config();
    let (tr, _, ending) = scripted(&cfg, AfterEof::Exit(0), |m| match m["method"].as_str() {
        Some("initialize") => vec![json!({"jsonrpc": "2.0", "id": 99, "result": {}}).to_string()],
        _ => vec![],
    });
    assert_eq!(ending.stop, Some(Stop::ProtocolError));
    // Ended by the mismatch, not by a timeout.
    assert!(
        !tr.entries
            .iter()
            .any(|e| matches!(e.kind, EntryKind::Timeout { .. })),
        "{:?}",
        tr.entries
    );
}

#[test]
fn a_probe_timeout_is_cancelled_and_a_silent_server_is_not_probed_again() {
    let mut cfg = memory::config();
    cfg.request_timeout = Duration::from_millis(100);
    let (tr, received, ending) = scripted(&cfg, AfterEof::Exit(0), |m| {
        match m["method"].as_str() {
            Some("initialize") => {
                vec![reply(m, init_result(json!({"tools": {}, "prompts": {}})))]
            }
            Some("prompts/list") => vec![reply(m, json!({"prompts": []}))],
            _ => vec![], // tools/list never answered, and nothing else said
        }
    });
    assert_eq!(
        methods(&received),
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "notifications/cancelled",
        ]
    );
    assert_eq!(received[3]["params"]["requestId"], 2);
    assert_eq!(tr.skipped_lists, ["prompts/list"]);
    assert_eq!(ending.stop, None);
}

#[test]
fn a_probe_timeout_on_a_server_that_still_speaks_goes_on() {
    let mut cfg = memory::config();
    cfg.request_timeout = Duration::from_millis(100);
    let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "listing tools..."}})
    .to_string();
    let (tr, received, ending) = scripted(&cfg, AfterEof::Exit(0), move |m| {
        match m["method"].as_str() {
            Some("initialize") => {
                vec![reply(m, init_result(json!({"tools": {}, "prompts": {}})))]
            }
            Some("prompts/list") => vec![reply(m, json!({"prompts": []}))],
            // tools/list never answered, but the server is not silent.
            Some("tools/list") => vec![log.clone()],
            _ => vec![],
        }
    });
    assert_eq!(
        methods(&received),
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "notifications/cancelled",
            "prompts/list"
        ]
    );
    assert!(tr.probes[1].responded);
    assert!(tr.skipped_lists.is_empty());
    assert_eq!(ending.stop, None);
}

#[test]
fn a_timed_out_request_does_not_end_the_session() {
    let mut cfg = memory::config();
    cfg.request_timeout = Duration::from_millis(100);
    cfg.operations.push(mcp_stdio_guard::plan::Operation {
        method: "slow/thing".into(),
        params: None,
        source: mcp_stdio_guard::plan::OpSource::CliRequest,
        safe_tool_call: None,
    });
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "working"}})
    .to_string();
    let (tr, received, ending) = scripted(&cfg, AfterEof::Exit(0), move |m| {
        match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"tools": {}})))],
            Some("tools/list") => vec![reply(m, json!({"tools": []}))],
            Some("slow/thing") => vec![progress.clone()],
            _ => vec![],
        }
    });
    assert_eq!(ending.stop, None);
    assert!(!tr.ops[0].responded);
    assert!(tr.probes[0].responded, "the probe after the timeout ran");
    assert!(methods(&received).contains(&"tools/list".to_string()));
}

#[test]
fn a_server_that_ignores_stdin_close_gets_sigterm_after_the_grace() {
    let mut cfg = memory::config();
    cfg.grace = Duration::from_millis(50);
    let (tr, _, ending) = scripted(&cfg, AfterEof::Linger, |m| match m["method"].as_str() {
        Some("initialize") => vec![reply(m, init_result(json!({})))],
        _ => vec![],
    });
    assert_eq!(tr.shutdown.ended_by, EndedBy::Sigterm);
    assert_eq!(ending.signals, [15]);
    assert!(tr.shutdown.stdin_closed_at_ms.is_some());
}

#[test]
fn a_reply_written_just_before_an_exit_is_never_taken_for_a_missing_one() {
    let (tr, _, _) = scripted(
        &memory::config(),
        AfterEof::Exit(0),
        |m| match m["method"].as_str() {
            Some("initialize") => vec![reply(m, init_result(json!({"tools": {}})))],
            _ => vec![],
        },
    );
    assert!(tr.initialized());
    // A server that answers and exits at once: the exit is judged after the
    // reply was read.
    let received: Received = Arc::default();
    let cfg = memory::config();
    let mut tr = Transcript::new(&cfg);
    let log = Arc::clone(&received);
    memory::run(&cfg, &SessionRules, &mut tr, move |mut server| {
        while let Some(m) = server.recv() {
            log.lock().expect("lock").push(m.clone());
            match m["method"].as_str() {
                Some("initialize") => {
                    server.reply(&m, init_result(json!({"tools": {}})));
                }
                Some("tools/list") => {
                    let big: Vec<Value> = (0..2000)
                        .map(
                            |i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}),
                        )
                        .collect();
                    server.reply(&m, json!({"tools": big}));
                    server.exit(0);
                    return AfterEof::Exit(0);
                }
                _ => {}
            }
        }
        AfterEof::Exit(0)
    });
    assert!(tr.probes[0].responded);
    assert_eq!(tr.listed("tools/list").len(), 2000);
}
