//! What the user hands the guard (issue 26): every input has a bound and is
//! refused past it before the guard holds it (a device such as /dev/zero,
//! a file over 16 MiB), a FIFO nobody writes is waited for only until a
//! signal, an input named as an output (by any name) is never destroyed,
//! and `--merge` skips what is not a report, says so and counts an entry
//! once.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::util::{DEADLINE, fake_server, guard, marker, run_with_deadline, temp_dir};

fn guard_run(args: &[&str]) -> crate::util::Run {
    let mut cmd = Command::new(guard());
    cmd.args(args);
    run_with_deadline(cmd, DEADLINE)
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn a_device_or_an_oversized_input_is_refused_before_anything_runs() {
    let dir = temp_dir("input-bounds");
    let spawned = dir.join("spawned");
    let touch = ["--", "touch", &s(&spawned)];
    let big = dir.join("big.json");
    std::fs::write(&big, " ".repeat(17 << 20)).expect("write");
    let cases: Vec<Vec<String>> = vec![
        vec!["batch".into(), "/dev/zero".into()],
        vec!["batch".into(), "--merge".into(), "/dev/zero".into()],
        vec!["batch".into(), s(&big)],
        vec!["--baseline".into(), "/dev/zero".into()],
        vec!["--config".into(), "/dev/zero".into()],
        vec!["--expected-failures".into(), "/dev/zero".into()],
        vec!["--against".into(), "/dev/zero".into()],
        vec!["--baseline".into(), s(&big)],
        vec!["--config".into(), s(&big)],
    ];
    for case in cases {
        let mut args: Vec<&str> = case.iter().map(String::as_str).collect();
        if case[0] != "batch" {
            args.extend(touch);
        }
        let run = guard_run(&args);
        assert_eq!(run.code, Some(2), "{case:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("is a device") || run.stderr.contains("is larger than 16 MiB"),
            "{case:?}: {}",
            run.stderr
        );
        assert!(!spawned.exists(), "{case:?}: the server was started");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn mkfifo(path: &Path) {
    assert!(
        Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo")
            .success()
    );
}

/// Whether the guard `pid` holds `path` open.
fn holds_open(pid: u32, path: &Path) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|p| p == path))
}

#[test]
fn an_input_fifo_nobody_writes_is_waited_for_only_until_a_signal() {
    let dir = temp_dir("input-fifo");
    let spawned = dir.join("spawned");
    for flag in [
        "batch",
        "--baseline",
        "--config",
        "--merge",
        "--expected-failures",
    ] {
        let fifo = dir.join(format!("in{}.fifo", flag.trim_start_matches('-')));
        mkfifo(&fifo);
        let mut cmd = Command::new(guard());
        match flag {
            "batch" => cmd.arg("batch").arg(&fifo),
            "--merge" => cmd.args(["batch", "--merge"]).arg(&fifo),
            _ => cmd.arg(flag).arg(&fifo).args(["--", "touch", &s(&spawned)]),
        };
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("guard");
        let pid = child.id();
        let deadline = Instant::now() + Duration::from_secs(8);
        while !holds_open(pid, &fifo) {
            crate::util::hang_guard(deadline, &format!("{flag}: never opened the FIFO"));
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
        assert_eq!(out.status.code(), Some(143), "{flag}");
        assert!(!spawned.exists(), "{flag}: the server was started");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_input_with_a_writer_is_read_like_a_file() {
    let dir = temp_dir("input-fifo-writer");
    let fifo = dir.join("config.fifo");
    mkfifo(&fifo);
    let m = marker("fifo-config");
    let config = serde_json::json!({"timeoutMs": 3000}).to_string();
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::fs::write(&writer_path, config).expect("write the FIFO");
    });
    let run = guard_run(&[
        "--json",
        "--config",
        &s(&fifo),
        "--shutdown-grace",
        "300",
        "--",
        &s(&fake_server()),
        "ok",
        &m,
    ]);
    writer.join().expect("writer");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.json()["fingerprint"]["timeoutMs"], 3000);
    let _ = std::fs::remove_dir_all(&dir);
}

fn merge_line(entry: &str, ok: bool) -> String {
    serde_json::json!({"schemaVersion": 1, "ok": ok,
        "summary": {"issueCounts": {"error": u64::from(!ok), "warning": 0}, "primaryIssueCode": ""},
        "batch": {"entry": entry, "exitCode": i32::from(!ok), "durationMs": 5}})
    .to_string()
}

#[test]
fn merge_skips_what_is_not_a_report_says_so_and_counts_an_entry_once() {
    let dir = temp_dir("merge-hostile");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    let mut first = format!("{}\n", merge_line("alpha", true)).into_bytes();
    first.extend_from_slice(b"\xff\xfe not utf-8\n");
    first.extend_from_slice(format!("{}\n", merge_line("beta", false)).as_bytes());
    first.extend_from_slice(&merge_line("gamma", true).as_bytes()[..40]);
    std::fs::write(&a, first).expect("a");
    // beta again, now passing (a shard run again): it counts once, as the
    // later line says.
    std::fs::write(&b, format!("{}\n", merge_line("beta", true))).expect("b");
    let run = guard_run(&["batch", "--json", "--merge", &s(&a), &s(&b)]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let runs = run.json()["runs"].as_array().expect("runs").clone();
    let names: Vec<&str> = runs.iter().filter_map(|r| r["entry"].as_str()).collect();
    assert_eq!(names, ["alpha", "beta"]);
    assert!(
        run.stderr.contains("skipped line 2") && run.stderr.contains("not UTF-8"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("skipped line 4") && run.stderr.contains("cut short"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_against_file_is_no_earlier_record_not_an_error() {
    let dir = temp_dir("against-first");
    let m = marker("against-first");
    let evidence: PathBuf = dir.join("audit.jsonl");
    for round in 0..2 {
        let run = guard_run(&[
            "--json",
            "--evidence",
            &s(&evidence),
            "--against",
            &s(&evidence),
            "--shutdown-grace",
            "300",
            "--",
            &s(&fake_server()),
            "ok",
            &m,
        ]);
        assert_eq!(run.code, Some(0), "round {round}: {}", run.stderr);
        let against = &run.json()["checks"]["against"];
        if round == 0 {
            assert_eq!(against["status"], "skipped", "{against}");
        } else {
            assert_eq!(against["status"], "pass", "{against}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_is_an_input_or_another_output_by_any_name_is_refused() {
    let dir = temp_dir("io-identity");
    let spawned = dir.join("spawned");
    let keep = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("seed");
        p
    };
    let history = keep("history.jsonl", "{\"time\":\"x\"}\n");
    let config = keep("c.json", "{}");
    let expected = keep("y.yml", "server:\n  - tools-list\n");
    let manifest = keep("m.json", "{\"mcpServers\": {}}");
    let source = keep("server.py", "print('x')\n");
    let real = keep("real.json", "old");
    let alias = dir.join("alias.json");
    std::os::unix::fs::symlink(&real, &alias).expect("symlink");
    let hard = dir.join("hard.json");
    std::fs::hard_link(&real, &hard).expect("hard link");
    let touch = ["--".to_string(), "touch".into(), s(&spawned)];
    let cases: Vec<(Vec<String>, &Path)> = vec![
        (
            vec![
                "--against".into(),
                s(&history),
                "--output".into(),
                s(&history),
            ],
            &history,
        ),
        (
            vec!["--config".into(), s(&config), "--html".into(), s(&config)],
            &config,
        ),
        (
            vec!["--scan".into(), s(&source), "--output".into(), s(&source)],
            &source,
        ),
        (
            vec![
                "--expected-failures".into(),
                s(&expected),
                "--junit".into(),
                s(&expected),
            ],
            &expected,
        ),
        (
            vec!["--output".into(), s(&real), "--html".into(), s(&alias)],
            &real,
        ),
        (
            vec!["--output".into(), s(&real), "--sarif".into(), s(&hard)],
            &real,
        ),
    ];
    for (args, input) in cases {
        let before = std::fs::read(input).expect("read");
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend(touch.iter().map(String::as_str));
        let run = guard_run(&all);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("would overwrite the input")
                || run.stderr.contains("name the same file"),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(
            std::fs::read(input).expect("read"),
            before,
            "{args:?} touched it"
        );
        assert!(!spawned.exists(), "{args:?}: the server was started");
    }
    let before = std::fs::read(&manifest).expect("read");
    let run = guard_run(&["batch", &s(&manifest), "--out", &s(&manifest)]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(std::fs::read(&manifest).expect("read"), before);
    // An evidence file may be its own --against (the README's recipe).
    let run = guard_run(&[
        "--evidence",
        &s(&history),
        "--against",
        &s(&history),
        "--",
        "true",
    ]);
    assert_ne!(run.code, Some(2), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_leaves_old_outputs_whole_and_the_transcript_streamed() {
    let dir = temp_dir("interrupted-outputs");
    let m = marker("interrupted-outputs");
    let junit = dir.join("old.xml");
    let report = dir.join("report.json");
    let transcript = dir.join("t.jsonl");
    std::fs::write(&junit, "<old/>").expect("seed");
    std::fs::write(&report, "{\"old\": true}").expect("seed");
    let child = Command::new(guard())
        .args(["--json", "--timeout", "30000", "--request", "tools/list"])
        .arg("--junit")
        .arg(&junit)
        .arg("--output")
        .arg(&report)
        .arg("--transcript")
        .arg(&transcript)
        .arg("--")
        .arg(fake_server())
        .args(["ignore-request", &m])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("guard");
    let pid = child.id();
    // The transcript is written as the run goes: the request is in it
    // while the server ignores it.
    let deadline = Instant::now() + Duration::from_secs(8);
    while !std::fs::read_to_string(&transcript).is_ok_and(|t| t.contains("tools/list")) {
        crate::util::hang_guard(deadline, "the transcript stayed empty");
        std::thread::yield_now();
    }
    assert!(
        Command::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .expect("kill")
            .success()
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(8))
        .expect("stopped")
        .expect("wait");
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(std::fs::read_to_string(&junit).expect("junit"), "<old/>");
    assert_eq!(
        std::fs::read_to_string(&report).expect("report"),
        "{\"old\": true}"
    );
    let lines = std::fs::read_to_string(&transcript).expect("transcript");
    assert!(
        lines
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
    );
    assert!(
        lines.contains("\"exit\"") || lines.contains("\"end\""),
        "{lines}"
    );
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    crate::util::assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fields_past_65535_characters_never_panic_the_writers() {
    let m = marker("long-name");
    let run = guard_run(&["tools", "--", &s(&fake_server()), "long-name", &m]);
    assert!(
        matches!(run.code, Some(0 | 1)),
        "{:?}: {}",
        run.code,
        run.stderr
    );
    assert!(
        run.stdout.contains(&"n".repeat(70_000)),
        "the name is never cut"
    );
    let dir = temp_dir("long-entry");
    let manifest = dir.join("m.json");
    let name = "e".repeat(70_000);
    let entry = serde_json::json!({"command": fake_server(), "args": ["ok", &m]});
    std::fs::write(
        &manifest,
        serde_json::json!({"mcpServers": {name: entry}}).to_string(),
    )
    .expect("manifest");
    let run = guard_run(&["batch", &s(&manifest)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("1 server, 1 passed"),
        "{}",
        &run.stdout[run.stdout.len() - 200..]
    );
    crate::util::assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}
