//! Verdicts on servers nobody here chose (issue 27): a crash is quoted by
//! its cause, usage text is diagnosed as the root cause, a server that dies
//! at once is started once and timed whole, pollution a Python buffer hides
//! is found, a crash on the way out is reported, and a list that fails for
//! want of configuration is said to need it.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{DEADLINE, check_fake, fake_server, guard, marker, run_with_deadline, temp_dir};

const QUICK: &[&str] = &["--json", "--shutdown-grace", "300"];

#[test]
fn a_crash_is_quoted_by_its_cause_not_its_footer_or_its_help() {
    let run = check_fake("crash-node-style", QUICK, DEADLINE);
    let issue = run.issue("server-exited");
    assert_eq!(
        issue["stderrLastLine"],
        "TypeError: fetch failed (Error: getaddrinfo ENOTFOUND api.example.test)"
    );
    let message = issue["message"].as_str().unwrap_or("");
    assert!(
        !message.contains("Node.js v20") && !message.contains("\\u{1b}"),
        "{message}"
    );
    let run = check_fake("error-then-help", QUICK, DEADLINE);
    let issue = run.issue("server-exited");
    assert_eq!(
        issue["stderrLastLine"],
        "Error: missing required option --db-url"
    );
    assert_eq!(issue["needsConfiguration"], true);
}

#[test]
fn usage_text_is_the_root_cause_and_its_lines_are_folded_in() {
    let run = check_fake("usage-stdout", QUICK, DEADLINE);
    assert_eq!(run.codes(), ["server-printed-usage"], "{}", run.stdout);
    let issue = run.issue("server-printed-usage");
    assert_eq!(
        issue["subcommands"],
        serde_json::json!(["stdio", "start", "init"])
    );
    assert_eq!(
        issue["consequences"],
        serde_json::json!(["stdout-non-json", "stdout-empty-line", "server-exited"])
    );
}

/// How many times `scenario` was started for one check.
fn starts(scenario: &str) -> (u64, crate::util::Run) {
    let dir = temp_dir(&marker("starts"));
    let state = dir.join("starts");
    let mut cmd = Command::new(guard());
    cmd.args(QUICK)
        .args(["--env", "FAKE_STATE_FILE", "--"])
        .arg(fake_server())
        .arg(scenario)
        .env("FAKE_STATE_FILE", &state);
    let run = run_with_deadline(cmd, DEADLINE);
    let n = std::fs::read_to_string(&state)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    (n, run)
}

#[test]
fn a_server_that_dies_at_once_is_started_once_and_timed_whole() {
    let (n, run) = starts("exit-nonzero");
    assert_eq!(n, 1, "started again: {}", run.stdout);
    assert!(run.codes().contains(&"server-exited".to_string()));
    // A 2025 server that exits on the probe itself is still judged on a
    // fresh process, and the times cover both.
    let (n, run) = starts("legacy-exit-on-probe");
    assert_eq!(n, 2);
    let j = run.json();
    assert_eq!(j["era"]["freshProcess"], true);
    assert_eq!(
        j["durationMs"], j["fingerprint"]["timings"]["totalMs"],
        "one clock"
    );
}

fn python() -> PathBuf {
    PathBuf::from("python3")
}

#[test]
fn pollution_a_python_buffer_hides_is_found_and_said_so() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/servers/py_latent_print.py");
    let mut cmd = Command::new(guard());
    cmd.args(QUICK).arg("--").arg(python()).arg(&script);
    let run = run_with_deadline(cmd, DEADLINE);
    let issue = run.issue("stdout-non-json");
    assert_eq!(issue["foundWith"], "PYTHONUNBUFFERED=1");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("weather server: loading stations")
    );
    // Given unbuffered, the line is plain pollution: found at once.
    let mut cmd = Command::new(guard());
    cmd.args(QUICK)
        .args(["--env", "PYTHONUNBUFFERED=1", "--"])
        .arg(python())
        .arg(&script);
    let run = run_with_deadline(cmd, DEADLINE);
    assert!(run.issue("stdout-non-json").get("foundWith").is_none());
}

#[test]
fn a_crash_on_the_way_out_is_a_warning_that_quotes_it() {
    let run = check_fake("close-crash", QUICK, DEADLINE);
    let issue = run.issue("shutdown-error");
    assert_eq!(issue["severity"], "warning");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("RangeError: Maximum call stack size exceeded"),
        "{issue}\n{}",
        run.stdout
    );
    assert!(
        run.json()["ok"].as_bool().unwrap_or(false),
        "a warning, not a failure"
    );
}

#[test]
fn a_list_that_fails_for_want_of_configuration_says_so_as_a_warning() {
    let run = check_fake("list-needs-config", QUICK, DEADLINE);
    assert!(
        !run.codes().contains(&"capability-list-error".to_string()),
        "{}",
        run.stdout
    );
    let issue = run.issue("capability-list-needs-configuration");
    assert_eq!(issue["severity"], "warning");
    assert_eq!(issue["variables"], serde_json::json!(["MYSQL_USER"]));
    // Another list error stays an error.
    let run = check_fake("list-error", QUICK, DEADLINE);
    assert!(run.codes().contains(&"capability-list-error".to_string()));
}
