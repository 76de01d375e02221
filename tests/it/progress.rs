//! The status line of long commands: on stderr only, drawn when stderr is
//! a terminal (a pseudo-terminal here) or when `--progress` forces it,
//! never when stderr is a pipe or `--no-progress` is given, and erased
//! before the command ends; stdout never carries it.

use std::process::Command;
use std::time::Duration;

use crate::util::{Run, check_fake, fake_server, guard, marker, run_with_deadline, temp_dir};

const DEADLINE: Duration = Duration::from_secs(60);

/// A status line was drawn (a carriage return starts each) and erased at
/// the end (the last bytes are `\r`, blanks, `\r`); stdout is clean.
fn assert_drawn_and_erased(run: &Run, words: &str) {
    assert!(
        !run.stdout.contains('\r'),
        "never on stdout: {:?}",
        run.stdout
    );
    assert!(
        run.stderr.contains(&format!("\r{words}")),
        "{words:?} drawn: {:?}",
        run.stderr
    );
    let tail = run.stderr.rsplit_once(words).map_or("", |(_, t)| t);
    let erased = tail
        .trim_end_matches('\r')
        .rsplit('\r')
        .next()
        .unwrap_or("");
    assert!(
        run.stderr.ends_with('\r') && erased.trim().is_empty(),
        "the line is erased at the end: {:?}",
        run.stderr
    );
}

fn manifest(scenarios: &[&str], m: &str) -> std::path::PathBuf {
    let dir = temp_dir(m);
    let mut servers = serde_json::Map::new();
    for (i, s) in scenarios.iter().enumerate() {
        let entry = serde_json::json!({"command": fake_server(), "args": [s, m]});
        servers.insert(format!("srv{i}"), entry);
    }
    let path = dir.join("m.json");
    let text = serde_json::json!({ "mcpServers": servers }).to_string();
    std::fs::write(&path, text).expect("manifest");
    path
}

fn batch(extra: &[&str], m: &str) -> Run {
    let file = manifest(&["ok", "banner", "ok"], m);
    let mut cmd = Command::new(guard());
    cmd.arg("batch").arg(&file).args(extra);
    let run = run_with_deadline(cmd, DEADLINE);
    crate::util::assert_no_survivors(m);
    run
}

#[test]
fn progress_forced_draws_the_batch_line_on_stderr_and_erases_it() {
    let m = marker("progress-batch");
    let run = batch(&["--progress", "--jobs", "1"], &m);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_drawn_and_erased(&run, "batch: ");
    assert!(run.stderr.contains("/3 servers"), "{:?}", run.stderr);
    assert!(
        run.stdout.contains("3 servers, 2 passed, 1 failed"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_pipe_gets_no_line_and_no_progress_wins_when_last() {
    let m = marker("progress-off");
    for extra in [&[][..], &["--progress", "--no-progress"][..]] {
        let run = batch(extra, &m);
        assert_eq!(run.code, Some(1), "{extra:?}: {}", run.stderr);
        assert!(!run.stderr.contains('\r'), "{extra:?}: {:?}", run.stderr);
    }
}

#[test]
fn robustness_bench_and_repeat_draw_their_lines() {
    let args = ["--progress", "--json", "--timeout", "1500", "--robustness"];
    let run = check_fake("robust-lenient", &args, DEADLINE);
    assert_drawn_and_erased(&run, "robustness: ");
    assert!(run.stderr.contains(" calls, tool "), "{:?}", run.stderr);
    assert!(run.json()["robustness"].is_object(), "the report is whole");
    let args = ["bench", "--progress", "--json", "--samples", "2"];
    let run = check_fake("ok", &args, DEADLINE);
    assert_drawn_and_erased(&run, "bench: ");
    assert!(
        run.stderr.contains("\rbench: cold start 0/2 samples"),
        "{:?}",
        run.stderr
    );
    let run = check_fake("ok", &["--progress", "--json", "--repeat", "2"], DEADLINE);
    assert_drawn_and_erased(&run, "check: ");
    assert!(run.stderr.contains("\rcheck: 2/2 runs"), "{:?}", run.stderr);
}

/// Runs the guard with stderr on a pseudo-terminal (Python's `pty`, which
/// the interop tier needs anyway) and stdout on a pipe; what each got.
fn on_a_terminal(args: &[&str]) -> (String, String) {
    let script = r#"
import json, os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
err = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    err += chunk
out = p.stdout.read()
p.wait()
sys.stdout.write(json.dumps([out.decode(), err.decode()]))
"#;
    let mut cmd = Command::new("python3");
    cmd.arg("-c").arg(script).arg(guard()).args(args);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(
        run.code,
        Some(0),
        "python3 runs the terminal test (install Python 3): {}",
        run.stderr
    );
    let pair: [String; 2] = serde_json::from_str(&run.stdout).expect("[stdout, stderr]");
    let [out, err] = pair;
    (out, err)
}

#[test]
fn a_terminal_on_stderr_gets_the_line_and_stdout_never_does() {
    let m = marker("progress-tty");
    let file = manifest(&["ok", "ok"], &m);
    let (out, err) = on_a_terminal(&["batch", &file.to_string_lossy(), "--jobs", "1"]);
    crate::util::assert_no_survivors(&m);
    assert!(err.contains("\rbatch: "), "drawn on the terminal: {err:?}");
    assert!(!out.contains('\r'), "{out:?}");
    assert!(out.contains("2 servers, 2 passed"), "{out:?}");
}
