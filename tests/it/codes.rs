//! One end-to-end test per issue code: the real guard against a fake-server
//! scenario, with a deadline, checking code, class, severity and exit status,
//! and that no process of the run survives.

use std::process::Command;

use crate::util::{DEADLINE, check_fake, expect, fake, run_with_deadline};

#[test]
fn a_correct_server_passes_with_no_issue() {
    let run = fake("ok", &["--request", "tools/list"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["issues"], serde_json::json!([]));
    assert_eq!(j["summary"]["status"], "pass");
    assert_eq!(j["initialized"], true);
    assert_eq!(j["negotiatedProtocol"], "2025-11-25");
    assert_eq!(j["operation"]["responded"], true);
    assert_eq!(j["process"]["shutdown"]["endedBy"], "stdin-close");
    assert_eq!(j["capabilityChecks"]["tools"]["itemCount"], 1);
}

#[test]
fn spawn_failed_names_the_errno() {
    let mut cmd = Command::new(crate::util::guard());
    cmd.args(["--json", "--", "/nonexistent/mcp-server-binary"]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(1));
    let issue = expect(&run, "spawn-failed", "error", "installRuntime");
    assert_eq!(issue["spawnErrorCode"], "ENOENT");
    assert_eq!(issue["detailCode"], "spawn-failed-before-startup");
    let j = run.json();
    assert_eq!(j["process"]["outcome"], "spawn-failed");
    assert_eq!(j["process"]["spawnError"]["code"], "ENOENT");
    assert_eq!(j["summary"]["status"], "needs_inspection");
}

#[test]
fn server_exited_before_initialize_is_classified_by_exit_kind() {
    for (scenario, detail) in [
        ("exit-clean", "clean-exit-before-initialize"),
        ("exit-nonzero", "nonzero-exit-before-initialize"),
        ("exit-signal", "signal-exit-before-initialize"),
    ] {
        let run = fake(scenario, &[]);
        assert_eq!(run.code, Some(1));
        let issue = expect(&run, "server-exited", "error", "installRuntime");
        assert_eq!(issue["detailCode"], detail);
        assert_eq!(run.json()["process"]["outcome"], "exited");
    }
}

#[test]
fn a_server_that_exits_for_lack_of_a_key_is_reported_plainly() {
    let run = fake("needs-key", &[]);
    assert_eq!(run.code, Some(1));
    let issue = expect(&run, "server-exited", "error", "installRuntime");
    assert_eq!(
        issue["message"],
        "server exited before initialize completed (code 1, signal null): it said \"Error: WEATHER_API_KEY environment variable is required\"; it needs configuration the guard did not give it (pass --env WEATHER_API_KEY)"
    );
    assert_eq!(issue["needsConfiguration"], true);
    assert_eq!(issue["variables"], serde_json::json!(["WEATHER_API_KEY"]));
    assert_eq!(run.json()["summary"]["status"], "needs_inspection");
    // A crash that asks for nothing is quoted, not called a missing key.
    let crash = fake("exit-nonzero", &[]);
    let issue = crash.issue("server-exited");
    assert!(issue.get("needsConfiguration").is_none(), "{issue}");
    assert!(
        issue["message"].as_str().is_some_and(
            |m| m.ends_with("it said \"fatal: missing configuration file ./config.toml\"")
        ),
        "{issue}"
    );
}

#[test]
fn a_dead_server_shows_its_stderr_tail_in_the_text_report() {
    let run = check_fake("exit-nonzero", &["--timeout", "1000"], DEADLINE);
    assert_eq!(run.code, Some(1));
    assert!(run.stdout.contains("stderr tail:"), "{}", run.stdout);
    assert!(
        run.stdout.contains("  | fatal: missing configuration file"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("server: exited on its own (code 3)"),
        "{}",
        run.stdout
    );
}

#[test]
fn initialize_timeout_fires_at_the_startup_timeout() {
    let run = fake("hang", &["--startup-timeout", "300"]);
    let issue = expect(&run, "initialize-timeout", "error", "installRuntime");
    assert_eq!(issue["timeoutMs"], 300);
    assert_eq!(issue["detailCode"], "startup-timeout");
    assert_eq!(run.json()["process"]["outcome"], "timeout");
}

#[test]
fn operation_timeout_when_the_request_is_ignored() {
    let run = fake(
        "ignore-request",
        &["--request", "tools/list", "--timeout", "300"],
    );
    let issue = expect(&run, "operation-timeout", "error", "installRuntime");
    assert_eq!(issue["detailCode"], "request-timeout");
    assert_eq!(run.json()["operation"]["responded"], false);
}

#[test]
fn operation_missing_response_when_the_server_exits_mid_request() {
    let run = fake("exit-on-request", &["--request", "tools/list"]);
    let issue = expect(
        &run,
        "operation-missing-response",
        "error",
        "installRuntime",
    );
    assert_eq!(issue["detailCode"], "nonzero-exit-during-operation");
    assert_eq!(issue["exitCode"], 2);
}

#[test]
fn server_crashed_after_initialize() {
    let run = fake("crash-after-initialized", &[]);
    let issue = expect(&run, "server-crashed", "error", "installRuntime");
    assert_eq!(issue["detailCode"], "nonzero-exit-after-initialize");
    assert!(
        run.json()["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("panic: lost connection")
    );
}

#[test]
fn python_buffered_stdio_is_decided_from_behaviour_not_from_argv() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/servers/");
    let buffered = format!("{dir}buffered_server.py");
    let flushing = format!("{dir}plain_server.py");
    let guard = |args: &[&str], parent: Option<&str>| {
        let mut cmd = Command::new(crate::util::guard());
        cmd.env_remove("PYTHONUNBUFFERED");
        if let Some(v) = parent {
            cmd.env("PYTHONUNBUFFERED", v);
        }
        cmd.args(["--json", "--era", "legacy", "--timeout", "1000", "--"])
            .args(args);
        run_with_deadline(cmd, DEADLINE)
    };
    // Replies held back until exit: the warning, with the fix.
    let run = guard(&["python3", &buffered], None);
    let issue = expect(&run, "python-buffered-stdio", "warning", "installRuntime");
    assert_eq!(issue["heldBack"], "initialize");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("python -u")
    );
    // The user's PYTHONUNBUFFERED was dropped by the allow-list: say so.
    let run = guard(&["python3", &buffered], Some("1"));
    let message = run.issue("python-buffered-stdio")["message"].clone();
    assert!(
        message
            .as_str()
            .unwrap_or("")
            .contains("--env PYTHONUNBUFFERED"),
        "{message}"
    );
    // A Python server that flushes is not suspected for lacking -u.
    let run = guard(&["python3", &flushing], None);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new());
    // -u fixes the buffered one.
    let run = guard(&["python3", "-u", &buffered], None);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new());
    // Merely slow to start (its answer comes late, while it still runs):
    // the timeout names --startup-timeout, and no buffering is suspected.
    let slow = format!("import time; time.sleep(1.5); exec(open('{flushing}').read())");
    let run = guard(&["python3", "-c", &slow], None);
    let issue = run.issue("initialize-timeout");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("--startup-timeout"),
        "{issue}"
    );
    assert!(
        !run.codes().contains(&"python-buffered-stdio".to_string()),
        "{}",
        run.stdout
    );
}

#[test]
fn stderr_output_limit_is_a_warning_and_stderr_keeps_head_and_tail() {
    let run = fake("flood-stderr", &["--max-stderr-bytes", "65536"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    expect(
        &run,
        "stderr-output-limit-exceeded",
        "warning",
        "installRuntime",
    );
    let j = run.json();
    assert_eq!(j["process"]["output"]["stderrTruncated"], true);
    assert_eq!(j["process"]["output"]["stderrBytes"], 4096 * 1025);
    let kept = j["stderr"].as_str().expect("stderr text");
    assert!(kept.len() < 70_000, "{}", kept.len());
    assert!(kept.contains("bytes of stderr not kept"));
}

#[test]
fn stdout_non_json_names_the_physical_line() {
    let run = fake("banner", &["--request", "tools/list"]);
    assert_eq!(run.code, Some(1));
    let issue = expect(&run, "stdout-non-json", "error", "stdioTransport");
    assert_eq!(issue["line"], 1);
    assert_eq!(issue["offset"], 0);
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("\"Fake server 1.0 listening on stdio\"")
    );
    assert_eq!(run.json()["summary"]["status"], "fail");
}

#[test]
fn stdout_empty_line_is_a_warning() {
    let run = fake("empty-line", &[]);
    assert_eq!(run.code, Some(0));
    expect(&run, "stdout-empty-line", "warning", "stdioTransport");
}

#[test]
fn content_length_framing_is_an_error() {
    let run = fake("content-length", &[]);
    assert_eq!(run.code, Some(1));
    expect(
        &run,
        "stdout-content-length-framing",
        "error",
        "stdioTransport",
    );
}

#[test]
fn an_unterminated_last_frame_is_reported_when_the_server_exits() {
    let run = fake("no-newline-exit", &["--era", "legacy"]);
    let issue = expect(&run, "stdout-without-newline", "error", "stdioTransport");
    assert_eq!(issue["line"], 1);
}

#[test]
fn an_unterminated_frame_is_reported_even_when_the_server_stays_alive() {
    let run = fake(
        "no-newline-alive",
        &["--timeout", "300", "--shutdown-grace", "200"],
    );
    expect(&run, "stdout-without-newline", "error", "stdioTransport");
    expect(&run, "initialize-timeout", "error", "installRuntime");
}

#[test]
fn stdout_line_too_large_stops_the_run() {
    let run = fake("huge-line", &["--max-stdout-line-bytes", "262144"]);
    let issue = expect(&run, "stdout-line-too-large", "error", "stdioTransport");
    assert_eq!(issue["bytes"], 512 * 1024 + 1);
    let out = &run.json()["process"]["output"];
    assert_eq!(out["limitExceeded"], true);
    assert_eq!(out["exceededCode"], "stdout-line-too-large");
    assert_eq!(run.json()["process"]["killReason"], "output-limit");
}

#[test]
fn stdout_output_limit_stops_the_run() {
    let run = fake("flood-stdout", &["--max-stdout-bytes", "100000"]);
    expect(
        &run,
        "stdout-output-limit-exceeded",
        "error",
        "stdioTransport",
    );
    assert_eq!(
        run.json()["process"]["output"]["exceededCode"],
        "stdout-output-limit-exceeded"
    );
}

#[test]
fn invalid_utf8_is_reported_with_escaped_bytes() {
    let run = fake("invalid-utf8", &[]);
    let issue = expect(&run, "stdout-invalid-utf8", "error", "stdioTransport");
    let msg = issue["message"].as_str().unwrap_or("");
    assert!(msg.contains("caf\\xe9 \\xff\\xfe not utf-8"), "{msg}");
}

#[test]
fn crlf_line_endings_are_a_single_warning() {
    let run = fake("crlf", &["--era", "legacy", "--request", "tools/list"]);
    assert_eq!(run.code, Some(0));
    let issue = expect(&run, "stdout-crlf-line-ending", "warning", "stdioTransport");
    assert_eq!(issue["count"], 2);
    assert_eq!(run.codes(), ["stdout-crlf-line-ending"]);
}

#[test]
fn a_structured_log_line_is_invalid_json_rpc() {
    let run = fake("json-log", &[]);
    expect(&run, "stdout-invalid-json-rpc", "error", "mcpProtocol");
}

#[test]
fn an_echoed_request_is_an_unexpected_request_id() {
    let run = fake("echo", &[]);
    expect(&run, "stdout-unexpected-request-id", "error", "mcpProtocol");
}

#[test]
fn a_wrong_response_id_ends_the_run_at_once() {
    let run = fake("wrong-id", &["--era", "legacy", "--timeout", "4000"]);
    let issue = expect(&run, "response-id-mismatch", "error", "mcpProtocol");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("id 99 does not match request id 1")
    );
    // It ends at once: no timeout was waited for.
    assert!(
        !run.codes().iter().any(|c| c.ends_with("-timeout")),
        "{:?}",
        run.codes()
    );
}

#[test]
fn a_string_id_for_an_integer_request_is_a_type_mismatch() {
    let run = fake("string-id", &["--era", "legacy"]);
    let issue = expect(&run, "response-id-type-mismatch", "error", "mcpProtocol");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("\"1\" does not exactly match request id 1")
    );
}

#[test]
fn answering_a_notification_is_an_error() {
    let run = fake("notification-response", &[]);
    expect(&run, "notification-response", "error", "mcpProtocol");
}

#[test]
fn initialize_error_is_an_error() {
    let run = fake("init-error", &[]);
    let issue = expect(&run, "initialize-error", "error", "mcpProtocol");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("Unsupported protocol version")
    );
    assert_eq!(run.json()["initialized"], false);
}

#[test]
fn operation_error_is_a_warning() {
    let run = fake("op-error", &["--request", "tools/list"]);
    assert_eq!(run.code, Some(0));
    expect(&run, "operation-error", "warning", "mcpProtocol");
    assert_eq!(run.json()["operation"]["error"]["code"], -32603);
}

#[test]
fn a_server_that_ignores_stdin_eof_needs_sigterm() {
    let run = fake("ignore-eof", &["--shutdown-grace", "200"]);
    assert_eq!(run.code, Some(0));
    let issue = expect(
        &run,
        "shutdown-signal-required",
        "warning",
        "installRuntime",
    );
    assert_eq!(issue["signal"], "SIGTERM");
    assert_eq!(run.json()["process"]["killSignal"], "SIGTERM");
}

#[test]
fn orphaned_processes_in_the_group_are_reported_and_killed() {
    let run = fake("grandchild", &[]);
    assert_eq!(run.code, Some(0));
    expect(&run, "orphaned-processes", "warning", "installRuntime");
    assert_eq!(run.json()["process"]["shutdown"]["orphanedProcesses"], true);
}

#[test]
fn late_stdout_in_the_settle_window_is_caught() {
    // The line comes 20 ms after the response; a long settle window keeps
    // the test independent of machine load.
    let run = fake("late-stdout", &["--era", "legacy", "--settle", "1000"]);
    let issue = expect(&run, "stdout-non-json", "error", "stdioTransport");
    assert_eq!(issue["line"], 2);
}

#[test]
fn stdout_written_during_shutdown_is_caught() {
    let run = fake("shutdown-print", &[]);
    let issue = expect(&run, "stdout-non-json", "error", "stdioTransport");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("shutting down, bye")
    );
}

#[test]
fn a_ping_before_the_initialize_response_is_answered_and_fine() {
    let run = fake("ping-first", &["--request", "tools/list"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new());
}

#[test]
fn a_clean_exit_while_stdin_is_open_is_a_warning() {
    // It answers tools/list and exits 0 at once, stdin still open: a host
    // would see a dead connection (scout's stdio.alive).
    let run = fake("big-list-exit", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let issue = expect(&run, "server-exited-early", "warning", "installRuntime");
    assert_eq!(issue["phase"], "post-initialize");
    // The guard's own stop is never blamed: the ok server exits on EOF.
    assert!(
        !fake("ok", &[])
            .codes()
            .contains(&"server-exited-early".to_string())
    );
}
