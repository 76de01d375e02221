//! The audit commands end to end: `tools` and `call` against the fake
//! server and the SDK servers, evidence records for each verdict (a silent
//! server included), concurrent appends that stay whole lines with unique
//! time stamps, a transcript of a failing run, and `--against` catching an
//! added tool. Every run has a deadline and leaves no process behind.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{
    DEADLINE, Run, assert_no_survivors, fake_server, guard, marker, run_with_deadline,
};
use serde_json::{Value, json};

fn temp(name: &str) -> PathBuf {
    crate::util::temp_dir(&format!("audit-{name}"))
}

/// The guard with `args` before `--` and the fake server after it, with a
/// fixed marker (so runs of one test share a command line).
fn guard_fake(args: &[&str], scenario: &str, m: &str) -> Run {
    crate::util::check_fake_marked(scenario, args, m, DEADLINE)
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("evidence file")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}

#[test]
fn tools_prints_a_table_of_every_page() {
    let m = marker("tools-table");
    let run = guard_fake(&["tools"], "catalog-full", &m);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "server: fake-server 1.0.0, protocol 2025-11-25, era legacy"
    );
    let lines = &lines[1..];
    assert!(lines[0].starts_with("NAME"), "{}", run.stdout);
    assert!(
        lines[1].starts_with("echo") && lines[1].ends_with("text: string"),
        "{}",
        run.stdout
    );
    assert!(
        lines[2].starts_with("add")
            && lines[2].contains("Add two integers.")
            && lines[2].ends_with("a: integer, b: integer")
    );
    assert_eq!(lines[3], "2 tools");
}

#[test]
fn tools_json_holds_the_servers_own_objects() {
    let m = marker("tools-json");
    let run = guard_fake(&["tools", "--json"], "catalog-full", &m);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["tools"][1]["outputSchema"]["required"], json!(["sum"]));
    assert_eq!(j["tools"][1]["title"], "Add");
    assert_eq!(j["serverInfo"]["name"], "fake-server");
    // A broken catalog fails the listing.
    let m = marker("tools-broken");
    let bad = guard_fake(&["tools", "--json"], "tools-duplicate", &m);
    assert_eq!(bad.code, Some(1));
    assert_eq!(bad.json()["issues"][0]["code"], "tool-name-duplicate");
}

#[test]
fn call_types_arguments_and_checks_structured_content() {
    let m = marker("call-ok");
    let run = guard_fake(
        &["call", "add", "--arg", "a=2", "--arg", "b=40", "--json"],
        "catalog-full",
        &m,
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["arguments"], json!({"a": 2, "b": 40}));
    assert_eq!(j["result"]["structuredContent"], json!({"sum": 42}));
    assert_eq!(j["structuredContentCheck"]["status"], "pass");
    let m = marker("call-text");
    let text = guard_fake(
        &["call", "echo", "--args", r#"{"text":"hello\nworld"}"#],
        "ok",
        &m,
    );
    assert_eq!(text.code, Some(0), "{}", text.stdout);
    assert_eq!(text.stdout, "hello\nworld\n");
}

#[test]
fn call_failures_exit_1_and_unknown_tools_exit_2_before_calling() {
    let m = marker("call-iserror");
    let err = guard_fake(&["call", "echo", "--arg", "text=x"], "call-error", &m);
    assert_eq!(err.code, Some(1));
    assert!(
        err.stdout.contains("upstream API is down"),
        "{}",
        err.stdout
    );
    // Exit 1, so the label is an error too.
    assert!(
        err.stdout.contains("[error] tool-call-error"),
        "{}",
        err.stdout
    );
    let m = marker("call-bad-structured");
    let bad = guard_fake(
        &["call", "add", "--arg", "a=1", "--arg", "b=2", "--json"],
        "call-bad-structured",
        &m,
    );
    assert_eq!(bad.code, Some(1));
    assert_eq!(
        bad.json()["issues"][0]["code"],
        "tool-call-structured-content-invalid"
    );
    let m = marker("call-missing-structured");
    let missing = guard_fake(
        &["call", "add", "--arg", "a=1", "--arg", "b=2", "--json"],
        "call-no-structured",
        &m,
    );
    assert_eq!(
        missing.json()["issues"][0]["code"],
        "tool-call-structured-content-missing"
    );
    let m = marker("call-unknown");
    let unknown = guard_fake(&["call", "nope", "--json"], "catalog-full", &m);
    assert_eq!(unknown.code, Some(2));
    assert!(
        unknown
            .stderr
            .contains("no tool 'nope'; its tools: echo, add"),
        "{}",
        unknown.stderr
    );
    assert_eq!(unknown.json()["result"], Value::Null);
    let m = marker("call-typo");
    let typo = guard_fake(&["call", "ehco"], "catalog-full", &m);
    assert_eq!(typo.code, Some(2));
    assert!(
        typo.stderr.contains("did you mean 'echo'?"),
        "{}",
        typo.stderr
    );
    // A tool that never answers: the hint names --timeout.
    let m = marker("call-timeout");
    let slow = guard_fake(
        &["call", "echo", "--arg", "text=x", "--timeout", "300"],
        "call-hang",
        &m,
    );
    assert_eq!(slow.code, Some(1), "{}", slow.stdout);
    assert!(
        slow.stdout
            .contains("no response within 300 ms; a slow tool needs a longer --timeout"),
        "{}",
        slow.stdout
    );
    let m = marker("call-badarg");
    let badarg = guard_fake(
        &["call", "add", "--arg", "a=two", "--arg", "b=1"],
        "catalog-full",
        &m,
    );
    assert_eq!(badarg.code, Some(2));
    assert!(
        badarg.stderr.contains("--arg a=two: expected integer"),
        "{}",
        badarg.stderr
    );
}

#[test]
fn evidence_records_each_verdict() {
    let dir = temp("verdicts");
    let file = dir.join("evidence.jsonl");
    let f = file.to_string_lossy().into_owned();
    let m = marker("ev");
    guard_fake(&["--evidence", &f], "ok", &m);
    guard_fake(&["--evidence", &f], "banner", &m);
    guard_fake(&["--evidence", &f, "--timeout", "300"], "hang", &m);
    let r = records(&file);
    assert_eq!(r.len(), 3);
    let verdicts: Vec<&str> = r
        .iter()
        .map(|x| x["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["pass", "fail", "inconclusive"]);
    assert_eq!(r[0]["tools"], json!(["echo"]));
    assert_eq!(r[0]["toolCount"], 1);
    assert_eq!(
        r[0]["server"],
        json!({"name": "fake-server", "version": "1.0.0"})
    );
    assert_eq!(r[0]["negotiatedProtocol"], "2025-11-25");
    assert_eq!(r[0]["evidenceFile"], f);
    assert!(
        r[0]["executable"]
            .as_str()
            .is_some_and(|e| e.ends_with("fake_server"))
    );
    assert!(
        r[0]["time"]
            .as_str()
            .is_some_and(|t| t.ends_with("+00:00") && t.len() == 29)
    );
    assert!(r[0]["host"].is_string());
    assert_eq!(r[1]["issues"], json!(["stdout-non-json"]));
    // The silent server: the tool list unknown (never absent), the exit
    // state, byte counts, time waited.
    assert_eq!(r[2]["tools"], serde_json::Value::Null);
    assert_eq!(r[2]["toolsUnknown"], true);
    assert_eq!(r[2]["silence"]["stdoutBytes"], 0);
    assert!(
        r[2]["silence"]["waitedMs"]
            .as_u64()
            .is_some_and(|ms| ms >= 300)
    );
    assert!(r[0].get("silence").is_none() && r[1].get("silence").is_none());
    assert!(
        r[0]["verdictReason"]
            .as_str()
            .is_some_and(|s| s.contains("tools/list with 1 tool"))
    );
    assert_eq!(r[0]["versions"]["server"], "1.0.0");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The probe procedure's rules (steps 3 and 6), one case each: the verdict
/// and the rule that decided it.
#[test]
fn evidence_verdicts_follow_the_probe_procedure() {
    let dir = temp("procedure");
    let file = dir.join("evidence.jsonl");
    let f = file.to_string_lossy().into_owned();
    let m = marker("ev-proc");
    let cases: &[(&str, &[&str], &str, &str)] = &[
        // It printed a fatal line and exited 3: a wrong reply, not silence.
        (
            "exit-nonzero",
            &[],
            "fail",
            "exited (code 3) before it answered initialize",
        ),
        // Answered initialize, then nothing: silent after the handshake.
        (
            "ignore-request",
            &["--timeout", "300"],
            "inconclusive",
            "silent after the handshake",
        ),
        ("init-no-server-info", &[], "fail", "no server information"),
        ("tool-no-schema", &[], "fail", "no name or no inputSchema"),
        ("op-error", &[], "fail", "tools/list answered with an error"),
    ];
    for (scenario, extra, _, _) in cases {
        let mut args = vec!["--evidence", f.as_str()];
        args.extend_from_slice(extra);
        guard_fake(&args, scenario, &m);
    }
    let r = records(&file);
    assert_eq!(r.len(), cases.len());
    for (rec, (scenario, _, verdict, reason)) in r.iter().zip(cases) {
        assert_eq!(rec["verdict"], *verdict, "{scenario}: {rec}");
        let why = rec["verdictReason"].as_str().unwrap_or("");
        assert!(why.contains(reason), "{scenario}: {why}");
        assert_eq!(
            rec.get("silence").is_some(),
            *verdict == "inconclusive",
            "{scenario}"
        );
    }
    // The server that died: the last of its stderr is kept.
    let tail = r[0]["stderrTail"].as_array().expect("stderrTail");
    assert!(
        tail.iter()
            .any(|l| l.as_str().is_some_and(|l| l.contains("fatal"))),
        "{tail:?}"
    );
    assert_eq!(r[1]["toolsUnknown"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_call_is_recorded_with_its_result() {
    let dir = temp("call-record");
    let file = dir.join("e.jsonl");
    let m = marker("ev-call");
    guard_fake(
        &[
            "call",
            "add",
            "--arg",
            "a=1",
            "--arg",
            "b=2",
            "--evidence",
            &file.to_string_lossy(),
        ],
        "catalog-full",
        &m,
    );
    let r = records(&file);
    assert_eq!(r[0]["mode"], "call");
    assert_eq!(r[0]["call"]["tool"], "add");
    assert_eq!(r[0]["call"]["arguments"], json!({"a": 1, "b": 2}));
    assert_eq!(r[0]["call"]["text"], "3");
    assert_eq!(r[0]["call"]["isError"], false);
    assert_eq!(r[0]["tools"], json!(["echo", "add"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_appends_stay_whole_lines_with_unique_times() {
    let dir = temp("concurrent");
    let file = dir.join("shared.jsonl");
    let f = file.to_string_lossy().into_owned();
    let m = marker("ev-many");
    let handles: Vec<_> = (0..6)
        .map(|_| {
            let (f, m) = (f.clone(), m.clone());
            std::thread::spawn(move || {
                let mut cmd = Command::new(guard());
                cmd.args(["--evidence", &f, "--settle", "0", "--"])
                    .arg(fake_server())
                    .arg("ok")
                    .arg(&m);
                run_with_deadline(cmd, DEADLINE)
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread").code, Some(0));
    }
    assert_no_survivors(&m);
    let r = records(&file);
    assert_eq!(r.len(), 6);
    let mut times: Vec<&str> = r
        .iter()
        .map(|x| x["time"].as_str().expect("time"))
        .collect();
    let before = times.len();
    times.sort_unstable();
    times.dedup();
    assert_eq!(times.len(), before, "duplicate time stamps");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_transcript_of_a_failing_run_holds_both_directions_and_stderr() {
    let dir = temp("transcript");
    let file = dir.join("t.jsonl");
    let m = marker("tr");
    let run = guard_fake(
        &["--era", "legacy", "--transcript", &file.to_string_lossy()],
        "exit-nonzero",
        &m,
    );
    assert_eq!(run.code, Some(1));
    let lines = records(&file);
    let stdin: Vec<&Value> = lines.iter().filter(|l| l["stream"] == "stdin").collect();
    assert!(
        stdin[0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("\"method\":\"initialize\""))
    );
    let stderr: Vec<&Value> = lines.iter().filter(|l| l["stream"] == "stderr").collect();
    assert_eq!(
        stderr[0]["text"],
        "fatal: missing configuration file ./config.toml"
    );
    assert_eq!(stderr[0]["line"], 1);
    assert!(
        lines
            .iter()
            .any(|l| l["event"] == "exit" && l["exitCode"] == 3)
    );
    // Invalid UTF-8 from the server is escaped, not lost.
    let m = marker("tr-utf8");
    guard_fake(
        &["--transcript", &file.to_string_lossy()],
        "invalid-utf8",
        &m,
    );
    let lines = records(&file);
    assert!(
        lines
            .iter()
            .any(|l| l["stream"] == "stdout" && l["text"] == "caf\\xe9 \\xff\\xfe not utf-8"),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn against_reports_a_tool_added_since_the_last_record() {
    let dir = temp("against");
    let file = dir.join("e.jsonl");
    let f = file.to_string_lossy().into_owned();
    let m = marker("against");
    guard_fake(&["--evidence", &f], "ok", &m);
    let same = guard_fake(&["--json", "--against", &f], "ok", &m);
    assert_eq!(same.json()["checks"]["against"]["status"], "pass");
    let changed = guard_fake(
        &["--json", "--against", &f, "--env", "FAKE_EXTRA_TOOL=1"],
        "ok",
        &m,
    );
    assert_eq!(changed.code, Some(0), "drift is a warning");
    let issue = changed.issue("evidence-drift-tools");
    assert_eq!(issue["added"], json!(["shout"]));
    assert_eq!(issue["severity"], "warning");
    // Another command has no record to compare with.
    let other = guard_fake(&["--json", "--against", &f], "ok", &marker("against-other"));
    assert_eq!(other.json()["checks"]["against"]["status"], "skipped");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verbose_lists_skipped_checks_with_their_reason() {
    let m = marker("verbose");
    let run = guard_fake(&["--verbose"], "ok", &m);
    assert!(
        run.stdout
            .contains("  operation: skipped (no --request was given)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("    prompts: skipped (not advertised)"),
        "{}",
        run.stdout
    );
}

/// The Python SDK server, or `None` outside CI when it is not installed.
fn python_server() -> Option<(PathBuf, PathBuf)> {
    let python = crate::util::interop_path("venv/bin/python")?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/interop/py_server.py");
    Some((python, script))
}

#[test]
#[ignore = "interop: needs scripts/setup-interop.sh; cargo test -- --include-ignored runs it"]
fn tools_and_call_work_against_the_python_sdk_server() {
    let Some((python, script)) = python_server() else {
        return;
    };
    let m = marker("sdk-audit");
    let mut cmd = Command::new(guard());
    cmd.args([
        "tools",
        "--json",
        "--timeout",
        "20000",
        "--env",
        "PYTHONUNBUFFERED=1",
        "--",
    ])
    .arg(&python)
    .arg(&script)
    .args(["clean", &m]);
    let tools = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    assert_eq!(tools.code, Some(0), "{}", tools.stdout);
    assert_eq!(tools.json()["tools"][0]["name"], "forecast");
    let mut cmd = Command::new(guard());
    cmd.args([
        "call",
        "forecast",
        "--arg",
        "city=Oslo",
        "--arg",
        "days=2",
        "--json",
        "--timeout",
        "20000",
    ])
    .args(["--env", "PYTHONUNBUFFERED=1", "--"])
    .arg(&python)
    .arg(&script)
    .args(["clean", &m]);
    let call = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    assert_eq!(call.code, Some(0), "{}", call.stdout);
    let j = call.json();
    assert_eq!(j["arguments"], json!({"city": "Oslo", "days": 2}));
    assert_eq!(
        j["result"]["content"][0]["text"],
        "Oslo: sunny for 2 day(s)"
    );
    assert_eq!(j["issues"], json!([]));
}

#[test]
fn secrets_never_reach_the_record_files() {
    let dir = temp("secrets");
    let (ev, tr) = (dir.join("e.jsonl"), dir.join("t.jsonl"));
    let canary = "canary-Secret-7731";
    let m = marker("secrets");
    let mut cmd = Command::new(guard());
    cmd.args([
        "--evidence",
        &ev.to_string_lossy(),
        "--transcript",
        &tr.to_string_lossy(),
    ])
    .arg("--env")
    .arg(format!("API_TOKEN={canary}"))
    .arg("--")
    .arg(fake_server())
    .args(["stderr-env", &m, &format!("--api-key={canary}")]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    assert!(!run.stdout.contains(canary), "{}", run.stdout);
    for file in [&ev, &tr] {
        let text = std::fs::read_to_string(file).expect("record file");
        assert!(
            !text.contains(canary),
            "{} leaks the secret:\n{text}",
            file.display()
        );
        assert!(text.contains("<redacted>"), "{}", file.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn against_without_an_earlier_record_says_so_without_verbose() {
    let dir = temp("against-none");
    let file = dir.join("e.jsonl");
    std::fs::write(&file, "").expect("empty evidence file");
    let m = marker("against-none");
    let run = guard_fake(&["--against", &file.to_string_lossy()], "ok", &m);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("against: no earlier record for this command: nothing to compare"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
