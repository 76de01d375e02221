//! Hostile servers, end to end (issue 11): servers that leave their process
//! group, daemons, signals while the guard blocks outside the session,
//! secrets in every place a server or a user can put them, floods that
//! must not cost memory, races at exit, zombies, JSON the SDKs really
//! write, and a right-to-left override in a tool's answer. Every test has
//! a deadline and proves nothing survives.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::util::{
    DEADLINE, assert_no_survivors, check_fake, check_fake_marked, fake_server, guard, marker,
    peak_rss, run_with_deadline, survivors, temp_dir,
};

const QUICK: &[&str] = &["--json", "--timeout", "3000", "--shutdown-grace", "300"];

fn codes(run: &crate::util::Run) -> Vec<String> {
    run.codes()
}

#[test]
fn a_server_that_leaves_its_group_and_ignores_sigterm_is_killed_with_all_it_started() {
    for scenario in ["escape-group", "join-guard-group"] {
        let m = marker(scenario);
        let run = check_fake_marked(scenario, QUICK, &m, DEADLINE);
        let j = run.json();
        assert_eq!(
            j["process"]["shutdown"]["endedBy"], "SIGKILL",
            "{scenario}: {}",
            j["process"]
        );
        if scenario == "escape-group" {
            let issue = run.issue("orphaned-processes");
            assert!(
                issue["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("own-group-helper"),
                "{issue}"
            );
        }
        assert!(survivors(&m).is_empty(), "{scenario}");
    }
}

#[test]
fn a_daemon_in_its_own_session_with_closed_stdio_is_found_named_and_killed() {
    let m = marker("daemon");
    let run = check_fake_marked("daemon-orphan", QUICK, &m, DEADLINE);
    let issue = run.issue("orphaned-processes");
    assert_eq!(issue["severity"], "warning");
    let procs = issue["processes"].as_array().expect("processes");
    assert!(
        procs.iter().any(|p| p["command"]
            .as_str()
            .unwrap_or("")
            .contains("daemon-closed")),
        "{issue}"
    );
    assert!(survivors(&m).is_empty());
}

#[test]
fn a_helper_that_exits_with_the_server_is_a_zombie_not_an_orphan() {
    let run = check_fake("helper-exits-with-server", QUICK, DEADLINE);
    assert!(
        !codes(&run).contains(&"orphaned-processes".to_string()),
        "{}",
        run.stdout
    );
    assert_eq!(run.json()["process"]["shutdown"]["endedBy"], "stdin-close");
}

#[test]
fn the_last_bytes_are_judged_even_when_a_daemon_holds_stdout() {
    let m = marker("goodbye");
    let run = check_fake_marked("goodbye-daemon", QUICK, &m, DEADLINE);
    let issue = run.issue("stdout-without-newline");
    assert!(
        issue["message"].as_str().unwrap_or("").contains("Goodbye"),
        "{issue}"
    );
    assert!(survivors(&m).is_empty());
}

/// Starts the guard (stdout piped, not read) and waits, with a deadline,
/// until `ready` says it reached the point to interrupt.
fn interrupt_when(
    args: &[String],
    ready: impl Fn(u32) -> bool,
    signal: &str,
) -> (Option<i32>, Duration) {
    interrupt_when_env(args, ready, signal, &[])
}

/// As `interrupt_when`, with `envs` set for the guard.
fn interrupt_when_env(
    args: &[String],
    ready: impl Fn(u32) -> bool,
    signal: &str,
    envs: &[(&str, &str)],
) -> (Option<i32>, Duration) {
    let mut child = Command::new(guard())
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn guard");
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ready(pid) {
        crate::util::hang_guard(deadline, "the guard never got ready");
        std::thread::yield_now();
    }
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait().map(|s| s.code()));
    });
    let code = match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(status) => status.expect("wait"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("the guard did not stop within 10 s of SIG{signal}");
        }
    };
    (code, sent.elapsed())
}

/// Whether `pid` sits in a `write` system call that does not return (its
/// reader reads nothing): Linux `/proc/PID/syscall` names the call it is
/// blocked in (1 is `write` on x86_64, 64 on aarch64).
fn blocked_in_write(pid: u32) -> bool {
    let call = std::fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
    let number = call.split_whitespace().next().unwrap_or("");
    let write = if cfg!(target_arch = "aarch64") {
        "64"
    } else {
        "1"
    };
    number == write && call.split_whitespace().nth(1) == Some("0x1")
}

#[test]
fn a_report_stuck_in_a_full_pipe_is_interrupted_with_the_signal_status() {
    let m = marker("stuck-pipe");
    let args: Vec<String> = ["--json", "--shutdown-grace", "300", "--"]
        .iter()
        .map(|s| s.to_string())
        .chain([
            fake_server().display().to_string(),
            "big-list-exit".into(),
            m.clone(),
        ])
        .collect();
    // Nobody reads the guard's stdout: its 200 KB report fills the pipe.
    let (code, _) = interrupt_when(&args, blocked_in_write, "TERM");
    assert_eq!(code, Some(143));
    assert_no_survivors(&m);
}

#[test]
fn an_interrupt_during_a_long_scan_starts_nothing() {
    let dir = temp_dir("long-scan");
    let tree = dir.join("tree");
    for d in 0..40 {
        let sub = tree.join(format!("d{d}"));
        std::fs::create_dir_all(&sub).expect("mkdir");
        for f in 0..100 {
            std::fs::write(
                sub.join(format!("f{f}.py")),
                "import sys\nx = 1\n".repeat(400),
            )
            .expect("write");
        }
    }
    let spawned = dir.join("spawned");
    let args: Vec<String> = vec![
        "--scan".into(),
        tree.display().to_string(),
        "--".into(),
        "touch".into(),
        spawned.display().to_string(),
    ];
    let tree_text = tree.display().to_string();
    // Ready once the guard holds a file of the tree open: it is scanning.
    let scanning = move |pid: u32| {
        std::fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|fd| {
                std::fs::read_link(fd.path())
                    .is_ok_and(|p| p.display().to_string().starts_with(&tree_text))
            })
    };
    let (code, _) = interrupt_when(&args, scanning, "INT");
    assert_eq!(code, Some(130));
    assert!(
        !spawned.exists(),
        "the server was started after the interrupt"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigquit_and_the_other_catchable_signals_end_the_run_and_everything_it_started() {
    for (signal, expected) in [("QUIT", 131), ("USR1", 138), ("ALRM", 142)] {
        let m = marker("quit");
        let args: Vec<String> = vec![
            "--timeout".into(),
            "30000".into(),
            "--".into(),
            fake_server().display().to_string(),
            "grandchild".into(),
            m.clone(),
        ];
        let mm = m.clone();
        // Ready once the server's child (the grandchild) runs.
        let started = move |_pid: u32| survivors(&mm).len() >= 2;
        let (code, _) = interrupt_when(&args, started, signal);
        assert_eq!(code, Some(expected), "SIG{signal}");
        assert_no_survivors(&m);
    }
}

#[test]
fn a_guard_killed_outright_takes_its_server_along() {
    let m = marker("sigkill");
    let args: Vec<String> = vec![
        "--timeout".into(),
        "30000".into(),
        "--".into(),
        fake_server().display().to_string(),
        "ignore-request".into(),
        m.clone(),
    ];
    let mm = m.clone();
    let started = move |_pid: u32| !survivors(&mm).is_empty();
    let (code, _) = interrupt_when(&args, started, "KILL");
    assert_eq!(code, None);
    // The kernel delivers the parent-death signal as the guard dies.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !survivors(&m).is_empty() {
        crate::util::hang_guard(deadline, "the server outlived its killed guard");
        std::thread::yield_now();
    }
}

/// Every output of a run: the JSON report, the text report, the evidence
/// and the transcript file.
fn every_output(
    extra: &[&str],
    env: &[(&str, &str)],
    scenario: &str,
    server_args: &[&str],
) -> String {
    let dir = temp_dir(&marker("secrets"));
    let evidence = dir.join("e.jsonl");
    let transcript = dir.join("t.jsonl");
    let mut all = String::new();
    for json in [true, false] {
        let mut cmd = Command::new(guard());
        cmd.args(["--timeout", "3000", "--shutdown-grace", "300"])
            .args(extra)
            .arg("--evidence")
            .arg(&evidence)
            .arg("--transcript")
            .arg(&transcript);
        if json {
            cmd.arg("--json");
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.arg("--")
            .arg(fake_server())
            .arg(scenario)
            .args(server_args);
        let run = run_with_deadline(cmd, DEADLINE);
        all.push_str(&run.stdout);
        all.push_str(&run.stderr);
        all.push_str(&std::fs::read_to_string(&transcript).unwrap_or_default());
    }
    all.push_str(&std::fs::read_to_string(&evidence).unwrap_or_default());
    let _ = std::fs::remove_dir_all(&dir);
    all
}

#[test]
fn a_multi_line_secret_never_leaks_line_by_line() {
    let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\nggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiW\n-----END PRIVATE KEY-----";
    let out = every_output(
        &["--env", &format!("TLS_KEY={pem}")],
        &[],
        "env-then-exit",
        &[],
    );
    for line in pem.lines().filter(|l| !l.starts_with("-----")) {
        assert!(!out.contains(line), "a line of the key leaked:\n{out}");
    }
    assert!(
        out.contains("stderr tail"),
        "the text report shows the tail"
    );
}

#[test]
fn credentials_in_the_server_argv_never_appear() {
    let args = [
        "--header",
        "Authorization: Bearer tok-abc-12345",
        "-H",
        "X-Api-Key: key-xyz-98765",
        "--registry",
        "https://me:pw1@reg.example/",
        "--index-url=https://u:k9z@pypi.example/simple",
    ];
    let out = every_output(&[], &[], "stderr-env", &args);
    for secret in ["tok-abc-12345", "key-xyz-98765", "pw1@", ":k9z@"] {
        assert!(!out.contains(secret), "{secret} leaked");
    }
    assert!(out.contains("Authorization: Bearer <redacted>"));
}

#[test]
fn the_guards_own_secret_variables_never_appear_even_when_the_server_reads_them() {
    let env = [
        ("AWS_SECRET_ACCESS_KEY", "aws-canary-7364"),
        ("GITHUB_TOKEN", "ghp_canary_2231"),
    ];
    let out = every_output(&[], &env, "parent-env", &[]);
    assert!(out.contains("parent env"), "the server did read it");
    for (_, v) in env {
        assert!(!out.contains(v), "{v} leaked");
    }
}

#[test]
fn secrets_are_scrubbed_before_anything_is_escaped_or_cut() {
    let secret = r#"q"uo\te-canary-55"#;
    let env = format!("SECRET_X={secret}");
    let out = every_output(&["--env", &env], &[], "echo-secret", &[]);
    let escaped = serde_json::to_string(secret).expect("json");
    let escaped = &escaped[1..escaped.len() - 1];
    for form in [secret, escaped, "canary-55"] {
        assert!(!out.contains(form), "{form} leaked");
    }
    // A 160-character quotation would cut the secret after its first 7
    // characters: no piece of it remains.
    assert!(!out.contains(r#"q"uo\t"#) && !out.contains(r#"q\"uo"#));
    let oversize = every_output(
        &[
            "--env",
            &env,
            "--env",
            "FAKE_OVERSIZE=1",
            "--max-stdout-line-bytes",
            "262144",
        ],
        &[],
        "echo-secret",
        &[],
    );
    assert!(oversize.contains("stdout-line-too-large"));
    assert!(
        !oversize.contains("q\\\"uo") && !oversize.contains(r#"q"uo"#),
        "a piece leaked"
    );
}

#[test]
fn short_values_of_innocent_names_leave_the_report_vocabulary_alone() {
    let run = check_fake(
        "banner",
        &[
            "--json",
            "--env",
            "LOG_LEVEL=error",
            "--env",
            "MCP_TRANSPORT=stdio",
            "--shutdown-grace",
            "300",
        ],
        DEADLINE,
    );
    let j = run.json();
    assert_eq!(j["issues"][0]["severity"], "error");
    assert_eq!(j["issues"][0]["class"], "stdioTransport");
    assert!(j["summary"]["issueCounts"]["error"].as_u64().is_some());
    assert_eq!(j["summary"]["badge"]["label"], "mcp stdio");
    // The only <redacted> words are the fingerprint's env values, which
    // are never shown.
    let mut rest = j.clone();
    rest["fingerprint"]["env"]["values"] = serde_json::json!({});
    assert!(!rest.to_string().contains("<redacted>"), "{rest}");
}

#[test]
#[ignore = "long tier: cargo test -- --include-ignored runs it (scripts/test.sh does)"]
fn floods_of_empty_lines_cost_a_few_megabytes_whatever_the_options() {
    let dir = temp_dir("floods");
    let transcript = dir.join("t.jsonl");
    let t = transcript.display().to_string();
    let cases: Vec<(Vec<&str>, Vec<String>)> = vec![
        (
            vec!["--json", "--transcript", &t, "--"],
            vec!["flood-empty".into()],
        ),
        (
            vec!["--json", "--max-stdout-bytes", "8000000", "--"],
            vec!["flood-empty".into()],
        ),
        (vec!["--repeat", "5", "--"], vec!["flood-empty".into()]),
        (
            vec!["--json", "--max-stderr-bytes", "1048576", "--"],
            vec!["flood-empty-stderr".into()],
        ),
    ];
    for (i, (args, server)) in cases.iter().enumerate() {
        let m = marker("flood");
        let mut server: Vec<&str> = server.iter().map(String::as_str).collect();
        server.push(&m);
        let mut args = args.clone();
        let lines = format!("FAKE_LINES={}", if i == 1 { 4 << 20 } else { 1 << 20 });
        args.splice(0..0, ["--env", &lines, "--shutdown-grace", "300"]);
        let (kib, _, _) = peak_rss(&args, &server);
        assert!(kib < 20 * 1024, "case {i}: peak RSS {kib} KiB");
        assert_no_survivors(&m);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_against_file_is_read_line_by_line() {
    let dir = temp_dir("huge-against");
    let path = dir.join("big.jsonl");
    {
        use std::io::Write;
        let f = std::fs::File::create(&path).expect("create");
        let mut w = std::io::BufWriter::new(f);
        let line = format!(
            "{{\"time\":\"2026-01-01T00:00:00.000+00:00\",\"command\":[\"other\"],\"pad\":\"{}\"}}\n",
            "p".repeat(1000)
        );
        for _ in 0..(256 << 10) {
            w.write_all(line.as_bytes()).expect("write");
        }
        w.write_all(b"\xff\xfe not a record\n").expect("write");
    }
    let p = path.display().to_string();
    let m = marker("against");
    let (kib, code, _) = peak_rss(
        &["--json", "--against", &p, "--shutdown-grace", "300", "--"],
        &["ok", &m],
    );
    assert_eq!(code, 0);
    assert!(
        kib < 20 * 1024,
        "peak RSS {kib} KiB for a 256 MB --against file"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reply_just_before_an_exit_is_never_a_missing_response() {
    for _ in 0..10 {
        let run = check_fake("big-list-exit", QUICK, DEADLINE);
        let j = run.json();
        assert_eq!(j["capabilityChecks"]["tools"]["responded"], true);
        assert!(
            !codes(&run).contains(&"capability-list-missing-response".to_string()),
            "{:?}",
            codes(&run)
        );
    }
}

#[test]
fn json_the_sdks_write_is_json_and_a_lone_surrogate_is_only_a_warning() {
    let run = check_fake("odd-json", QUICK, DEADLINE);
    let j = run.json();
    let codes = codes(&run);
    assert!(!codes.contains(&"stdout-non-json".to_string()), "{codes:?}");
    assert_eq!(j["initialized"], true);
    assert_eq!(j["toolSchema"]["toolCount"], 1);
    assert_eq!(run.issue("stdout-lone-surrogate")["severity"], "warning");
    assert_eq!(j["ok"], true, "{j}");
}

#[test]
fn a_symlink_named_for_scan_is_followed() {
    let dir = temp_dir("scan-link");
    std::fs::write(dir.join("real.py"), "print('hello')\n").expect("write");
    std::os::unix::fs::symlink(dir.join("real.py"), dir.join("link.py")).expect("symlink");
    let mut cmd = Command::new(guard());
    cmd.args(["scan", "--json"]).arg(dir.join("link.py"));
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert_eq!(run.json()["staticScan"]["findingCount"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_right_to_left_override_in_a_tool_answer_is_escaped() {
    let m = marker("bidi");
    let mut cmd = Command::new(guard());
    cmd.args([
        "call",
        "echo",
        "--arg",
        "text=x",
        "--shutdown-grace",
        "300",
        "--",
    ])
    .arg(fake_server())
    .args(["bidi-tool", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert!(
        run.stdout.contains("report\\u{202e}txt.exe"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains('\u{202e}'));
    assert_no_survivors(&m);
}

#[test]
fn numbers_outside_their_range_are_refused_on_the_command_line_and_in_configs() {
    for args in [
        vec!["--repeat", "101"],
        vec!["--max-stdout-line-bytes", "18446744073709551615"],
        vec!["--settle", "18446744073709551615"],
        vec!["--timeout", "18446744073709551616"],
        vec!["--protocol", "garbage"],
    ] {
        let mut cmd = Command::new(guard());
        cmd.args(&args).arg("--").arg(fake_server()).arg("ok");
        let run = run_with_deadline(cmd, Duration::from_secs(5));
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("must"), "{args:?}: {}", run.stderr);
    }
    let dir = temp_dir("nul-config");
    let config = dir.join("c.json");
    std::fs::write(&config, r#"{"command": ["node", "a\u0000b"]}"#).expect("write");
    let mut cmd = Command::new(guard());
    cmd.arg("--config").arg(&config);
    let run = run_with_deadline(cmd, Duration::from_secs(5));
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("NUL"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_evidence_record_never_glues_onto_a_cut_line() {
    let dir = temp_dir("cut-evidence");
    let evidence = dir.join("e.jsonl");
    std::fs::write(
        &evidence,
        b"{\"time\": \"2026-01-01T00:00:00.000+00:00\", \"cut",
    )
    .expect("seed");
    let run = check_fake(
        "ok",
        &[
            "--json",
            "--evidence",
            &evidence.display().to_string(),
            "--shutdown-grace",
            "300",
        ],
        DEADLINE,
    );
    assert_eq!(run.code, Some(0));
    let text = std::fs::read_to_string(&evidence).expect("read");
    let last = text.lines().last().expect("a record");
    let record: serde_json::Value =
        serde_json::from_str(last).expect("the new record is a line of its own");
    assert_eq!(record["verdict"], "pass");
    let mut buf = Vec::new();
    std::fs::File::open(&evidence)
        .expect("open")
        .read_to_end(&mut buf)
        .expect("read");
    assert!(buf.ends_with(b"\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `pid` has a child process now.
fn has_children(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|t| {
            std::fs::read_to_string(t.path().join("children")).is_ok_and(|c| !c.trim().is_empty())
        })
}

#[test]
fn a_signal_during_the_judgement_of_a_huge_listing_ends_the_guard_at_once() {
    // A 16 MB listing: its server is gone within a second or two, then
    // the judgement takes seconds (many more in a debug build). A signal
    // then has nothing to stop in order and ends the guard at once.
    let args: Vec<String> = ["--env", "FAKE_LIST_BYTES", "--timeout", "120000", "--"]
        .iter()
        .map(|s| s.to_string())
        .chain([fake_server().display().to_string(), "sized-list".into()])
        .collect();
    let spawned = std::cell::Cell::new(false);
    let judging = |pid: u32| {
        if has_children(pid) {
            spawned.set(true);
            return false;
        }
        spawned.get()
    };
    // The variable is set on this test's guard only (and reaches its
    // server through --env).
    let (code, _) = interrupt_when_env(&args, judging, "TERM", &[("FAKE_LIST_BYTES", "16000000")]);
    assert_eq!(code, Some(143));
}

/// Whether this test may switch to the `nobody` user (it runs as root and
/// has `setpriv`).
pub fn can_become_nobody() -> bool {
    Command::new("setpriv")
        .args([
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "true",
        ])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_server_of_the_same_user_cannot_read_the_guards_environment() {
    if !can_become_nobody() {
        panic!("this test runs the guard as nobody: it needs root and setpriv (util-linux)");
    }
    let m = marker("parent-env-nobody");
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
        .arg(guard())
        .args(["--json", "--shutdown-grace", "300", "--"])
        .arg(fake_server())
        .args(["parent-env", &m])
        .env("GITHUB_TOKEN", "ghp_never_forwarded_canary_77")
        .env("HOME", "/tmp");
    let run = run_with_deadline(cmd, DEADLINE);
    let stderr = run.json()["stderr"].as_str().unwrap_or("").to_string();
    assert!(stderr.contains("parent env unreadable"), "{stderr}");
    assert!(!stderr.contains("parent GITHUB_TOKEN"), "{stderr}");
    assert!(!run.stdout.contains("ghp_never_forwarded_canary_77"));
    assert_no_survivors(&m);
}
