//! The output registry, end to end: every output a command writes is
//! opened before anything is spawned (a bad path exits 2 and starts
//! nothing), `-` is stdout, FIFOs, `/dev/stdout` and process substitution
//! are written as streams, and a FIFO nobody reads never hangs the guard:
//! a signal ends the wait with 128+N.

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::util::{
    DEADLINE, assert_no_survivors, fake_server, guard, marker, run_with_deadline, temp_dir,
};

/// A command that leaves a file behind when it runs: proof that the
/// server was (or was not) started.
fn toucher(dir: &std::path::Path) -> (std::path::PathBuf, Vec<String>) {
    let spawned = dir.join("spawned");
    (
        spawned.clone(),
        vec!["touch".into(), spawned.display().to_string()],
    )
}

#[test]
fn a_bad_output_path_exits_2_before_the_server_is_started() {
    let dir = temp_dir("bad-output");
    for flag in [
        "--junit",
        "--sarif",
        "--checks-json",
        "--transcript",
        "--evidence",
    ] {
        let (spawned, server) = toucher(&dir);
        let mut cmd = Command::new(guard());
        cmd.args([flag, "/nonexistent/dir/out"])
            .arg("--")
            .args(&server);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_eq!(run.code, Some(2), "{flag}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{flag} /nonexistent/dir/out")),
            "{flag}: {}",
            run.stderr
        );
        assert!(!spawned.exists(), "{flag}: the server was started");
    }
    // A directory, and two outputs naming one file.
    let (spawned, server) = toucher(&dir);
    let mut cmd = Command::new(guard());
    cmd.args(["--junit", &dir.display().to_string(), "--"])
        .args(&server);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let twin = dir.join("twin").display().to_string();
    let mut cmd = Command::new(guard());
    cmd.args(["--junit", &twin, "--sarif", &twin, "--"])
        .args(&server);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("name the same file"), "{}", run.stderr);
    assert!(!spawned.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dash_and_dev_stdout_write_the_format_on_stdout_before_the_report() {
    for target in ["-", "/dev/stdout"] {
        let m = marker("dash-out");
        let mut cmd = Command::new(guard());
        cmd.args(["--junit", target, "--"])
            .arg(fake_server())
            .args(["ok", &m]);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_eq!(run.code, Some(0), "{target}: {}", run.stderr);
        let xml_at = run.stdout.find("<testsuites").expect("the JUnit XML");
        let report_at = run.stdout.find("PASS MCP stdio guard").expect("the report");
        assert!(xml_at < report_at, "{}", run.stdout);
        assert_no_survivors(&m);
    }
}

#[test]
fn process_substitution_and_a_fifo_with_a_reader_get_the_whole_stream() {
    let dir = temp_dir("subst");
    let out = dir.join("t.jsonl");
    let m = marker("subst");
    // `wait $!` waits for the process substitution's reader.
    let script = format!(
        "'{}' --transcript >(cat > '{}') -- '{}' ok {m}; code=$?; wait $!; exit $code",
        guard().display(),
        out.display(),
        fake_server().display()
    );
    let mut cmd = Command::new("bash");
    cmd.args(["-c", &script]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&out).expect("the transcript");
    assert!(text.lines().count() > 3, "{text}");
    assert!(
        text.lines().last().unwrap_or("").contains("\"end\""),
        "{text}"
    );
    assert_no_survivors(&m);

    let fifo = dir.join("evidence.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let reader = Command::new("cat")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat");
    let m = marker("fifo-reader");
    let mut cmd = Command::new(guard());
    cmd.arg("--evidence")
        .arg(&fifo)
        .arg("--")
        .arg(fake_server())
        .args(["ok", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let got = reader.wait_with_output().expect("cat output");
    let record: serde_json::Value =
        serde_json::from_slice(&got.stdout).expect("one evidence record");
    assert_eq!(record["verdict"], "pass", "{record}");
    assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether the guard waits for a FIFO's reader (its helper thread is in
/// the blocking open).
fn waiting_for_a_reader(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|t| {
            std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == "fifo-open")
        })
}

#[test]
fn a_fifo_nobody_reads_is_waited_for_until_a_signal_and_nothing_starts() {
    let dir = temp_dir("fifo-nobody");
    let fifo = dir.join("junit.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let (spawned, server) = toucher(&dir);
    let child = Command::new(guard())
        .arg("--junit")
        .arg(&fifo)
        .arg("--")
        .args(&server)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("guard");
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(8);
    while !waiting_for_a_reader(pid) {
        crate::util::hang_guard(deadline, "the guard never waited for the reader");
        std::thread::yield_now();
    }
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("kill")
            .success()
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("the guard stopped")
        .expect("wait");
    assert_eq!(out.status.code(), Some(143));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    assert!(!spawned.exists(), "the server was started");
    let _ = std::fs::remove_dir_all(&dir);
}
