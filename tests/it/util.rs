//! Shared helpers for the integration tests: the guard and fake-server
//! paths, running the guard with a hard deadline, and proving that no
//! process of a run survived it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

pub fn guard() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mcp-stdio-guard"))
}

/// The fake server built from `examples/fake_server.rs`.
pub fn fake_server() -> PathBuf {
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir
        .join("examples")
        .join(format!("fake_server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run `cargo test` (which builds examples) or `cargo build --examples`",
        path.display()
    );
    path
}

/// A marker unique to one test, passed to servers as an extra argument so
/// their processes can be found afterwards.
pub fn marker(name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "mcpguard-{}-{}-{}",
        name,
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    pub fn json(&self) -> Value {
        // The guard's own reader: a report may quote a server's frames,
        // nested deeper than serde_json reads by default.
        mcp_stdio_guard::jsontext::parse(&self.stdout)
            .map(|(v, _)| v)
            .unwrap_or_else(|e| {
                panic!(
                    "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                    self.stdout, self.stderr
                )
            })
    }

    /// Issue codes of a JSON report, in order.
    pub fn codes(&self) -> Vec<String> {
        self.json()["issues"]
            .as_array()
            .expect("issues array")
            .iter()
            .map(|i| i["code"].as_str().expect("code").to_string())
            .collect()
    }

    pub fn issue(&self, code: &str) -> Value {
        self.json()["issues"]
            .as_array()
            .expect("issues")
            .iter()
            .find(|i| i["code"] == code)
            .cloned()
            .unwrap_or_else(|| panic!("no {code} issue in:\n{}", self.stdout))
    }
}

/// Runs a command to completion, failing the test (and killing it) if it
/// is not done by `deadline`.
pub fn run_with_deadline(mut cmd: Command, deadline: Duration) -> Run {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let child = cmd.spawn().expect("spawn");
    let pid = child.id();
    let (tx, rx) = mpsc::channel::<std::io::Result<Output>>();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(deadline) {
        Ok(out) => {
            let out = out.expect("wait");
            Run {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                elapsed: start.elapsed(),
            }
        }
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("the command did not finish within {deadline:?}");
        }
    }
}

/// The deadline of one guard run in the integration tests.
pub const DEADLINE: Duration = Duration::from_secs(15);
/// Short timeouts keep the suite fast; the grace stays generous enough for a
/// loaded CI machine.
pub const FAST: &[&str] = &["--json", "--timeout", "3000", "--shutdown-grace", "500"];

/// The guard with `FAST` settings and `extra` against a scenario.
pub fn fake(scenario: &str, extra: &[&str]) -> Run {
    let mut args: Vec<&str> = FAST.to_vec();
    args.extend_from_slice(extra);
    check_fake(scenario, &args, DEADLINE)
}

/// Asserts the run has `code` with the given severity and class; returns
/// the issue.
pub fn expect(run: &Run, code: &str, severity: &str, class: &str) -> Value {
    let issue = run.issue(code);
    assert_eq!(issue["severity"], severity, "{code}: {issue}");
    assert_eq!(issue["class"], class, "{code}: {issue}");
    issue
}

/// Runs the guard with `args` against a fake-server scenario, with a
/// deadline, then asserts that no process carrying the marker survives.
pub fn check_fake(scenario: &str, args: &[&str], deadline: Duration) -> Run {
    check_fake_marked(scenario, args, &marker(scenario), deadline)
}

/// As `check_fake`, with a marker chosen by the caller (runs that must
/// share one command line share it).
pub fn check_fake_marked(scenario: &str, args: &[&str], m: &str, deadline: Duration) -> Run {
    let mut cmd = Command::new(guard());
    cmd.args(args)
        .arg("--")
        .arg(fake_server())
        .arg(scenario)
        .arg(m);
    let run = run_with_deadline(cmd, deadline);
    assert_no_survivors(m);
    run
}

/// Runs the guard with `args`, then the fake server with `server_args`,
/// under the `peak_rss` launcher: the guard's peak RSS in KiB (its own and
/// that of the children it reaped), its exit status, and the time taken.
pub fn peak_rss(args: &[&str], server_args: &[&str]) -> (u64, i32, Duration) {
    peak_rss_env(args, server_args, &[])
}

/// As `peak_rss`, with `envs` set for the guard (and, named with `--env`,
/// its server).
pub fn peak_rss_env(
    args: &[&str],
    server_args: &[&str],
    envs: &[(&str, &str)],
) -> (u64, i32, Duration) {
    let mut all: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    all.push(fake_server().into());
    all.extend(server_args.iter().map(Into::into));
    let (kib, code, run) = guard_peak_rss(&all, envs);
    (kib, code, run.elapsed)
}

/// Runs the guard with `args` (and `envs`) under the `peak_rss` launcher:
/// the guard's peak RSS in KiB (its own and that of the children it
/// reaped), its exit status, and the run with its output.
pub fn guard_peak_rss(
    args: &[impl AsRef<std::ffi::OsStr>],
    envs: &[(&str, &str)],
) -> (u64, i32, Run) {
    let mut exe = fake_server();
    exe.set_file_name(format!("peak_rss{}", std::env::consts::EXE_SUFFIX));
    let mut cmd = Command::new(exe);
    cmd.arg(guard()).args(args).envs(envs.iter().copied());
    let run = run_with_deadline(cmd, Duration::from_secs(240));
    let line = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak_rss: "))
        .unwrap_or_else(|| panic!("no peak_rss line:\n{}", run.stderr));
    let mut parts = line.split_whitespace();
    let kib = parts.next().and_then(|n| n.parse().ok()).expect("KiB");
    let code = parts.next().and_then(|n| n.parse().ok()).expect("status");
    (kib, code, run)
}

/// A fresh, empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpguard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A path under `.interop/` (the SDKs `scripts/setup-interop.sh`
/// installs). The interop tests are `#[ignore]`d, so they run only when
/// asked for (`--include-ignored`, as `.ci/run` does): a missing install
/// then fails the test with the fix, never passes it.
pub fn interop_path(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(".interop")
        .join(relative);
    assert!(
        path.exists(),
        "{} is not installed; run scripts/setup-interop.sh",
        path.display()
    );
    Some(path)
}

/// Live processes whose command line contains `marker` (zombies excluded).
pub fn survivors(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if !String::from_utf8_lossy(&cmdline).contains(marker) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next());
        if state != Some("Z") {
            found.push(pid);
        }
    }
    found
}

pub fn assert_no_survivors(marker: &str) {
    let left = survivors(marker);
    if !left.is_empty() {
        kill_all(&left);
        panic!("processes survived the run: {left:?}");
    }
}

pub fn kill_all(pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
}

/// The manual: every page under `docs/`, and the README, as one text (the
/// tests that hold every flag, code and rule documented read it).
pub fn manual() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        text.push_str(&std::fs::read_to_string(&page).expect("a docs page"));
    }
    text
}

/// A hang guard for a test's polling loop: panics with `what` once
/// `deadline` (generous: `DEADLINE` from the start) has passed. It bounds a
/// wait so a hang fails instead of blocking CI; it is not a measure of
/// speed (tests assert no wall time: benches measure it).
pub fn hang_guard(deadline: Instant, what: &str) {
    if Instant::now() >= deadline {
        panic!("{what}: not within the deadline");
    }
}

/// The SHA-256 of `bytes` in hex (the guard's own implementation).
pub fn sha256_hex(bytes: &[u8]) -> String {
    mcp_stdio_guard::sha256::hex(bytes)
}
