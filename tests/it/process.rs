//! Process handling end to end: signals to the guard, servers that resist
//! shutdown, descendants that escape, and a stdout flood. Each test has a
//! deadline and proves that nothing it started is left running.

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::util::{check_fake, fake_server, guard, marker, peak_rss, survivors};

#[test]
fn sigint_sigterm_and_sighup_to_the_guard_kill_the_server_group() {
    for (signal, expected) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = std::env::temp_dir().join(marker("fifo"));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let fifo = dir.join("ready");
        let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
        assert!(made.success());
        let m = marker("signal");
        let child = Command::new(guard())
            .args(["--timeout", "30000", "--env"])
            .arg(format!("FAKE_READY_FIFO={}", fifo.display()))
            .arg("--")
            .arg(fake_server())
            .args(["grandchild", &m])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn guard");
        // Wait, with a deadline, until the server says it is running.
        let (tx, rx) = mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let f = std::fs::File::open(path).expect("open fifo");
            let mut line = String::new();
            let _ = std::io::BufReader::new(f).read_line(&mut line);
            let _ = tx.send(line);
        });
        let ready = rx.recv_timeout(Duration::from_secs(10));
        assert!(ready.is_ok(), "the server never started");
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        let out = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("the guard did not exit after the signal")
            .expect("wait");
        assert_eq!(out.status.code(), Some(expected), "SIG{signal}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("interrupted by SIG"), "{stderr}");
        crate::util::assert_no_survivors(&m);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_server_ignoring_sigterm_is_killed_within_the_bound() {
    let run = check_fake(
        "ignore-sigterm",
        &["--json", "--shutdown-grace", "300"],
        Duration::from_secs(10),
    );
    let issue = run.issue("shutdown-signal-required");
    assert_eq!(issue["signal"], "SIGKILL");
    let j = run.json();
    assert_eq!(j["process"]["killSignal"], "SIGKILL");
    assert!(j["process"]["shutdown"]["sigtermAtMs"].is_u64());
}

#[test]
fn a_grandchild_that_escaped_the_group_is_found_named_and_killed() {
    let m = marker("escape");
    let mut cmd = Command::new(guard());
    cmd.args(["--json", "--shutdown-grace", "1000", "--"])
        .arg(fake_server())
        .args(["setsid-escape", &m]);
    let run = crate::util::run_with_deadline(cmd, Duration::from_secs(10));
    // The escaped process (a new session) holds the pipes and sleeps 8 s;
    // the guard, its subreaper, finds it, kills it and names it (had the
    // guard waited for it, it would have left on its own, unnamed).
    let issue = run.issue("orphaned-processes");
    assert_eq!(issue["severity"], "warning");
    let processes = issue["processes"].as_array().expect("processes");
    assert_eq!(processes.len(), 1, "{issue}");
    assert!(
        processes[0]["command"]
            .as_str()
            .unwrap_or("")
            .contains("grandchild-escape")
    );
    assert!(processes[0]["pid"].as_u64().is_some());
    let j = run.json();
    assert_eq!(j["process"]["shutdown"]["stdoutHeldOpen"], false);
    // The server itself exited on EOF: no signal was needed.
    assert_eq!(j["process"]["shutdown"]["endedBy"], "stdin-close");
    assert!(survivors(&m).is_empty());
}

#[test]
fn a_200_mb_stdout_flood_keeps_the_guard_small_and_ends_promptly() {
    let m = marker("flood");
    let (kib, code, _) = peak_rss(&["--json", "--"], &["flood-stdout", &m]);
    assert_eq!(code, 1, "a flood must fail the run");
    assert!(kib < 20 * 1024, "peak RSS {kib} KiB");
    crate::util::assert_no_survivors(&m);
}

/// The release profile aborts on a panic (no unwinding): the panic hook
/// ends the run as a second interrupt does, the server's group killed, and
/// exits 101 with the message.
#[test]
fn a_panic_kills_the_server_and_exits_101() {
    for scenario in ["ok", "grandchild", "ignore-sigterm"] {
        let m = crate::util::marker("panic");
        let mut cmd = std::process::Command::new(crate::util::guard());
        cmd.args(["__panic", "--"])
            .arg(crate::util::fake_server())
            .args([scenario, &m]);
        let run = crate::util::run_with_deadline(cmd, crate::util::DEADLINE);
        assert_eq!(run.code, Some(101), "{scenario}: {}", run.stderr);
        assert!(
            run.stderr.contains("internal error") && run.stderr.contains("__panic"),
            "{}",
            run.stderr
        );
        crate::util::assert_no_survivors(&m);
    }
}
