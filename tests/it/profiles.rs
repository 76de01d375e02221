//! Profiles, config files, operations and safe tool calls, adversarial
//! probes, repeat drift, the fingerprint and redaction, end to end against
//! the fake server (and, for the probes, the SDK servers). Every run has a
//! deadline and leaves no process behind.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{
    DEADLINE, Run, assert_no_survivors, fake_server, guard, marker, run_with_deadline,
};
use serde_json::{Value, json};

fn temp(name: &str) -> PathBuf {
    crate::util::temp_dir(&format!("prof-{name}"))
}

fn run_fake(args: &[&str], scenario: &str) -> Run {
    crate::util::check_fake(scenario, args, DEADLINE)
}

fn run_guard(args: &[&str], cwd: &Path) -> Run {
    let mut cmd = Command::new(guard());
    cmd.args(args).current_dir(cwd);
    run_with_deadline(cmd, DEADLINE)
}

fn codes(v: &Value) -> Vec<String> {
    v["issues"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| i["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn smoke_initializes_only() {
    let j = run_fake(&["--json", "--profile", "smoke"], "list-timeout").json();
    assert_eq!(j["ok"], true, "{j}");
    assert_eq!(j["profile"], "smoke");
    assert_eq!(j["capabilityProbes"], false);
    assert_eq!(j["checks"]["capabilities"]["status"], "skipped");
    // --request still runs under smoke.
    let j = run_fake(
        &["--json", "--profile", "smoke", "--request", "tools/list"],
        "ok",
    )
    .json();
    assert_eq!(j["operation"]["responded"], true);
}

#[test]
fn registry_repeats_twice_and_an_explicit_repeat_narrows_it() {
    let j = run_fake(&["--json", "--profile", "registry"], "ok").json();
    assert_eq!(j["repeat"], 2);
    assert_eq!(j["runs"].as_array().map(Vec::len), Some(2));
    assert_eq!(j["runs"][1]["run"], 2);
    assert_eq!(
        j["checks"]["repeat"],
        json!({"status": "pass", "issueCodes": [], "runs": 2, "passedRuns": 2, "failedRuns": []})
    );
    assert_eq!(j["drift"]["status"], "pass");
    assert_eq!(j["fingerprint"]["repeat"], 2);
    assert!(j["fingerprint"]["runtimes"].is_object());
    let single = run_fake(&["--json", "--profile", "registry", "--repeat", "1"], "ok").json();
    assert!(single.get("runs").is_none());
    assert_eq!(single["capabilityProbes"], true);
    assert_eq!(single["checks"]["repeat"]["status"], "skipped");
}

#[test]
fn ci_prints_json_and_fails_on_static_findings() {
    let scan = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/scan/main.go");
    let run = run_fake(&["--profile", "ci", "--scan", scan], "ok");
    assert_eq!(run.code, Some(1));
    let j = run.json();
    assert_eq!(j["staticScan"]["failOnFindings"], true);
    assert_eq!(run.issue("static-stdout-write")["severity"], "error");
}

#[test]
fn strict_runs_every_probe_and_probes_can_be_turned_off() {
    let run = run_fake(&["--profile", "strict"], "ok");
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    let names: Vec<&str> = j["adversarial"]["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| p["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        [
            "invalid-method",
            "invalid-params",
            "notification",
            "malformed-json",
            "missing-meta",
            "unsupported-version"
        ]
    );
    assert_eq!(j["adversarial"]["enabled"], true);
    assert_eq!(j["checks"]["adversarial"]["status"], "pass");
    assert_eq!(j["repeat"], 2);
    let none = run_fake(
        &[
            "--profile",
            "strict",
            "--adversarial-probes",
            "none",
            "--repeat",
            "1",
        ],
        "ok",
    )
    .json();
    assert_eq!(none["adversarial"], json!({"enabled": false, "probes": []}));
    assert_eq!(none["checks"]["adversarial"]["status"], "skipped");
}

#[test]
fn each_probe_fails_the_server_that_mishandles_it() {
    let cases = [
        (
            "adv-lenient",
            "invalid-method",
            "adversarial-invalid-method-result",
        ),
        ("ok", "invalid-params", ""),
        (
            "adv-silent-method",
            "invalid-method",
            "adversarial-probe-timeout",
        ),
        (
            "adv-answers-all",
            "notification",
            "adversarial-notification-response",
        ),
        (
            "adv-crash-on-garbage",
            "malformed-json",
            "adversarial-probe-crash",
        ),
        (
            "catalog-full",
            "invalid-params",
            "adversarial-invalid-params-result",
        ),
        (
            "adv-garbage-reply",
            "malformed-json",
            "adversarial-malformed-json-result",
        ),
        (
            "adv-garbage-print",
            "malformed-json",
            "adversarial-probe-invalid-stdout",
        ),
    ];
    // Each case is its own guard and server, waiting mostly in windows:
    // they run side by side.
    let runs: Vec<(&str, &str, &str, crate::util::Run)> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|&(scenario, probe, code)| {
                scope.spawn(move || {
                    // The window of the silence-based probes follows
                    // --settle: long, so a loaded machine cannot push an
                    // answer out of it.
                    let run = run_fake(
                        &[
                            "--json",
                            "--timeout",
                            "3000",
                            "--settle",
                            "1500",
                            "--adversarial-probe",
                            probe,
                        ],
                        scenario,
                    );
                    (scenario, probe, code, run)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a case panicked"))
            .collect()
    });
    for (scenario, probe, code, run) in runs {
        let j = run.json();
        if code.is_empty() {
            assert_eq!(j["ok"], true, "{scenario}/{probe}: {j}");
            assert_eq!(j["adversarial"]["probes"][0]["status"], "pass");
            continue;
        }
        if code == "adversarial-invalid-params-result" {
            // Invalid cursors SHOULD get -32602: a warning (strict promotes).
            assert_eq!(run.code, Some(0), "{scenario}/{probe}");
            assert_eq!(run.issue(code)["severity"], "warning");
            continue;
        }
        assert_eq!(run.code, Some(1), "{scenario}/{probe}");
        let issue = run.issue(code);
        assert_eq!(
            (issue["class"].as_str(), issue["probe"].as_str()),
            (Some("mcpProtocol"), Some(probe))
        );
        assert!(!codes(&j).contains(&"server-crashed".to_string()), "{j}");
    }
    // A failed probe does not stop the others: every opted-in probe runs
    // while the server lives, and each is judged on its own.
    let j = run_fake(&["--json", "--adversarial-probes", "all"], "adv-lenient").json();
    let statuses: Vec<(&str, bool)> = j["adversarial"]["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| (p["status"].as_str().unwrap_or(""), p["started"] == true))
        .collect();
    assert_eq!(
        statuses,
        [
            ("fail", true),
            ("pass", true),
            ("pass", true),
            ("pass", true),
            // The 2026-07-28 probes do not apply to a 2025-era session.
            ("skipped", false),
            ("skipped", false)
        ]
    );
}

#[test]
fn an_adversarial_tool_call_must_get_an_error() {
    let dir = temp("adv-tool");
    for (scenario, ok) in [("ok", true), ("adv-lenient", false)] {
        let m = marker("adv-tool");
        let config = json!({"command": [fake_server(), scenario, m], "json": true,
            "adversarialToolCalls": [{"name": "echo", "arguments": {"unexpected": true}}]});
        std::fs::write(dir.join("c.json"), config.to_string()).expect("write");
        let run = run_guard(&["--config", "c.json"], &dir);
        assert_no_survivors(&m);
        let j = run.json();
        assert_eq!(j["ok"], ok, "{scenario}: {j}");
        if !ok {
            assert_eq!(
                run.issue("adversarial-tool-call-result")["probe"],
                "tool-call"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_repeat_catches_a_catalog_that_changes_between_runs() {
    let dir = temp("drift");
    let state = dir.join("starts");
    let env = format!("FAKE_STATE_FILE={}", state.display());
    let run = run_fake(&["--json", "--repeat", "2", "--env", &env], "ok");
    assert_eq!(run.code, Some(0), "drift is a warning: {}", run.stdout);
    let j = run.json();
    let issue = run.issue("repeat-tool-drift");
    assert_eq!(issue["severity"], "warning");
    assert!(issue.get("run").is_none(), "cross-run issues carry no run");
    assert_eq!(
        j["drift"]["tools"]["changedRuns"],
        json!([{"run": 2, "added": ["shout"], "removed": [], "count": 2}])
    );
    assert_eq!(j["drift"]["baselineRun"], 1);
    assert_eq!(j["checks"]["repeat"]["status"], "warning");
    assert_eq!(j["summary"]["status"], "warning");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_config_file_sets_every_field_and_flags_override_it() {
    let dir = temp("config");
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(dir.join("src/app.py"), "print('hi')\n").expect("write");
    let server = fake_server();
    let m = marker("config");
    let config = json!({
        "profile": "custom",
        "command": [server, "catalog-full", m],
        "cwd": ".",
        "env": {"API_TOKEN": "canary-Config-5521"},
        "protocol": "2025-06-18",
        "timeoutMs": 4000,
        "repeat": 1,
        "json": true,
        "maxStdoutBytes": 500000,
        "maxStdoutLineBytes": 100000,
        "maxStderrBytes": 9000,
        "scanPath": "src",
        "failOnStatic": false,
        "request": {"method": "tools/list"},
        "requests": [{"method": "prompts/list", "params": {}}],
        "safeToolCalls": [{"name": "add", "arguments": {"a": 1, "b": 2}}],
        "adversarialProbes": ["notification"],
        "adversarialToolCalls": [{"name": "echo", "arguments": {"unexpected": true}}],
    });
    std::fs::write(dir.join("mcp-stdio-guard.config.json"), config.to_string()).expect("write");
    let run = run_guard(
        &[
            "--config",
            "mcp-stdio-guard.config.json",
            "--timeout",
            "3000",
        ],
        &dir,
    );
    assert_no_survivors(&m);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(!run.stdout.contains("canary-Config-5521"));
    let j = run.json();
    assert_eq!(j["config"]["enabled"], true);
    assert_eq!(j["config"]["path"], "mcp-stdio-guard.config.json");
    assert!(
        j["config"]["resolvedPath"]
            .as_str()
            .is_some_and(|p| p.ends_with("/mcp-stdio-guard.config.json"))
    );
    assert_eq!(j["config"]["checks"]["command"], true);
    assert_eq!(j["config"]["checks"]["envNames"], json!(["API_TOKEN"]));
    assert_eq!(
        j["config"]["checks"]["requests"],
        json!(["tools/list", "prompts/list"])
    );
    assert_eq!(j["config"]["checks"]["safeToolCalls"], json!(["add"]));
    assert_eq!(
        j["config"]["checks"]["adversarialToolCalls"],
        json!(["echo"])
    );
    assert_eq!(j["protocol"], "2025-06-18");
    assert_eq!(
        j["fingerprint"]["timeoutMs"], 3000,
        "the flag beats timeoutMs"
    );
    assert_eq!(
        j["fingerprint"]["outputLimits"],
        json!({"maxStdoutBytes": 500000, "maxStdoutLineBytes": 100000, "maxStderrBytes": 9000})
    );
    assert_eq!(
        j["fingerprint"]["env"]["values"],
        json!({"API_TOKEN": "<redacted>"})
    );
    let sources: Vec<(&str, &str)> = j["operations"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|o| {
            (
                o["source"].as_str().unwrap_or(""),
                o["safeToolCallName"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [
            ("config-request", ""),
            ("config-request", ""),
            ("safe-tool-call", "add")
        ]
    );
    let probes: Vec<&str> = j["adversarial"]["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| p["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(probes, ["notification", "tool-call"]);
    assert_eq!(j["adversarial"]["probes"][1]["safeToolCallName"], "echo");
    assert_eq!(j["checks"]["adversarial"]["status"], "pass");
    // The scan path is relative to the config file, and findings are warnings.
    assert_eq!(j["staticFindings"][0]["file"], "app.py");
    assert_eq!(j["staticScan"]["failOnFindings"], false);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_safe_tool_call_result_is_checked() {
    let dir = temp("safe-call");
    let server = fake_server();
    let m = marker("safe-call");
    let config = json!({"command": [server, "call-bad-structured", m], "json": true,
        "safeToolCalls": [{"name": "add", "arguments": {"a": 1, "b": 2}}]});
    std::fs::write(dir.join("c.json"), config.to_string()).expect("write");
    let run = run_guard(&["--config", "c.json"], &dir);
    assert_no_survivors(&m);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.issue("tool-call-structured-content-invalid")["toolName"],
        "add"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_errors_name_the_field_and_start_nothing() {
    let dir = temp("config-errors");
    let cases = [
        (
            r#"{"timeoutMS": 5, "command": ["x"]}"#,
            "unknown field 'timeoutMS'",
            "did you mean timeoutMs?",
        ),
        (
            r#"{"timeoutMs": "5", "command": ["x"]}"#,
            "timeoutMs must be a whole number",
            "",
        ),
        (
            r#"{"profile": "fast", "command": ["x"]}"#,
            "profile 'fast' is not one of",
            "",
        ),
        (
            r#"{"adversarialProbes": ["fuzz"], "command": ["x"]}"#,
            "adversarialProbes",
            "",
        ),
        (r#"{"json": true}"#, "names no command", ""),
        ("{not json", "is not valid JSON", ""),
    ];
    for (text, problem, hint) in cases {
        std::fs::write(dir.join("c.json"), text).expect("write");
        let run = run_guard(&["--config", "c.json"], &dir);
        assert_eq!(run.code, Some(2), "{text}: {}", run.stderr);
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains(problem) && run.stderr.contains(hint),
            "{text}: {}",
            run.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_client_config_entry_is_picked_with_server() {
    let dir = temp("client");
    let server = fake_server();
    let m = marker("client");
    let config = json!({"mcpServers": {
        "weather": {"command": server, "args": ["catalog-full", m], "env": {"KEY": "canary-Client-0042"}},
        "files": {"command": server, "args": ["banner", m]},
    }});
    std::fs::write(dir.join("claude_desktop_config.json"), config.to_string()).expect("write");
    let run = run_guard(
        &[
            "--json",
            "--config",
            "claude_desktop_config.json",
            "--server",
            "weather",
        ],
        &dir,
    );
    assert_no_survivors(&m);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["config"]["server"], "weather");
    assert_eq!(j["capabilityChecks"]["tools"]["itemCount"], 2);
    assert!(!run.stdout.contains("canary-Client-0042"));
    let ambiguous = run_guard(&["--config", "claude_desktop_config.json"], &dir);
    assert_eq!(ambiguous.code, Some(2));
    assert!(
        ambiguous.stderr.contains("pick one with --server")
            && ambiguous.stderr.contains("weather, files"),
        "{}",
        ambiguous.stderr
    );
    let missing = run_guard(
        &["--config", "claude_desktop_config.json", "--server", "mail"],
        &dir,
    );
    assert!(
        missing.stderr.contains("no server named 'mail'"),
        "{}",
        missing.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_canary_secret_in_env_and_argv_never_appears_anywhere() {
    let dir = temp("canary");
    let canary = "canary-Argv-Env-9090";
    let ev = dir.join("e.jsonl");
    let tr = dir.join("t.jsonl");
    let token = format!("API_TOKEN={canary}");
    let key = format!("--api-key={canary}");
    for json in [true, false] {
        let m = marker("canary");
        let mut cmd = Command::new(guard());
        if json {
            cmd.arg("--json");
        }
        cmd.args([
            "--profile",
            "registry",
            "--evidence",
            &ev.to_string_lossy(),
            "--transcript",
            &tr.to_string_lossy(),
            "--env",
            &token,
            "--",
        ])
        .arg(fake_server())
        .args(["stderr-env", &m, &key]);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        assert!(
            !run.stdout.contains(canary) && !run.stderr.contains(canary),
            "json={json}:\n{}",
            run.stdout
        );
        for file in [&ev, &tr] {
            let text = std::fs::read_to_string(file).expect("file");
            assert!(!text.contains(canary), "{}", file.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "interop: needs scripts/setup-interop.sh; cargo test -- --include-ignored runs it"]
fn the_sdk_servers_pass_every_adversarial_probe() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut commands: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    if let Some(python) = crate::util::interop_path("venv/bin/python") {
        commands.push((
            vec!["--env".into(), "PYTHONUNBUFFERED=1".into()],
            vec![
                python.display().to_string(),
                root.join("testdata/interop/py_server.py")
                    .display()
                    .to_string(),
            ],
        ));
    }
    if let Some(modules) = crate::util::interop_path("node/node_modules/@modelcontextprotocol/sdk")
    {
        let node_path = modules
            .parent()
            .and_then(Path::parent)
            .expect("node_modules")
            .display()
            .to_string();
        commands.push((
            vec!["--env".into(), format!("NODE_PATH={node_path}")],
            vec![
                "node".into(),
                root.join("testdata/interop/ts_server.cjs")
                    .display()
                    .to_string(),
            ],
        ));
    }
    for (env, server) in commands {
        let m = marker("sdk-adversarial");
        let mut cmd = Command::new(guard());
        cmd.args([
            "--json",
            "--timeout",
            "20000",
            "--adversarial-probes",
            "all",
        ])
        .args(&env)
        .arg("--")
        .args(&server)
        .args(["clean", &m]);
        let run = run_with_deadline(cmd, std::time::Duration::from_secs(60));
        assert_no_survivors(&m);
        let j = run.json();
        assert_eq!(j["ok"], true, "{server:?}: {}", run.stdout);
        let statuses: Vec<&str> = j["adversarial"]["probes"]
            .as_array()
            .expect("probes")
            .iter()
            .map(|p| p["status"].as_str().unwrap_or(""))
            .collect();
        // The two 2026-07-28 probes are skipped in a 2025-era session.
        assert!(
            statuses
                .iter()
                .all(|s| matches!(*s, "pass" | "warning" | "skipped")),
            "{server:?}: {statuses:?}"
        );
    }
}
