//! The guard's own overhead per check, as one ratio against the floor. Every
//! side runs the same exchange with the same fast server (the binary's
//! built-in clean demo server):
//!
//! - the floor, a direct driver: spawn the server, write `initialize`, read
//!   the response, write `notifications/initialized`, list its tools (the
//!   server advertises tools, so the guard's capability probe does the
//!   same), close stdin, wait for the exit;
//! - the guard: `mcp-stdio-guard --settle 0 -- <same server>`, which does
//!   that plus its era probe, threads, judging, report and leftover check;
//!   measured for this build (the dynamic binary `cargo install` makes),
//!   for the fully static release binary when `scripts/release-check.sh`
//!   has built it (what a CI runner downloads), and for any binary named
//!   in `OVERHEAD_BASELINE` (an older build, for a before/after in one run).
//!
//! The same build with `--confine observe` and `--confine enforce` is
//! measured too: what confinement adds to a check (goal: at most 1.5 ms),
//! with the notifications the supervisor answered per check.
//!
//! Rounds interleave the sides, so machine noise lands on all of them
//! alike; medians are compared. Each guard's `--version` (same run) shows
//! how much of its overhead is only the start of one more process.
//! Run with `cargo bench --bench overhead`; `OVERHEAD_ROUNDS` (default 300)
//! sets the rounds.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GUARD: &str = env!("CARGO_BIN_EXE_mcp-stdio-guard");
/// The goal: the guard's overhead over the floor, at most.
const GOAL: Duration = Duration::from_millis(2);

fn direct() -> Duration {
    let start = Instant::now();
    let mut child = Command::new(GUARD)
        .args(["__serve", "clean"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin
        .write_all(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}\n",
        )
        .expect("write");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read");
    assert!(line.contains("\"id\":1"), "unexpected response {line}");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("write");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n")
        .expect("write");
    line.clear();
    stdout.read_line(&mut line).expect("read");
    assert!(line.contains("\"id\":2"), "unexpected response {line}");
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success());
    start.elapsed()
}

/// What confinement may add to one check, at most.
const CONFINE_GOAL: Duration = Duration::from_micros(1500);

/// A full check of the same server by `guard`, with `extra` options.
fn check(guard: &PathBuf, extra: &[String]) -> Duration {
    let start = Instant::now();
    let out = Command::new(guard)
        .args(extra)
        .args(["--settle", "0", "--", GUARD, "__serve", "clean"])
        .stdin(Stdio::null())
        .output()
        .expect("run guard");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    start.elapsed()
}

/// Starting `guard` and nothing else (`--version`): the share of its
/// overhead that any extra process costs on this machine.
fn exec_only(guard: &PathBuf) -> Duration {
    let start = Instant::now();
    let out = Command::new(guard)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .expect("run guard --version");
    assert!(out.status.success());
    start.elapsed()
}

/// The notifications the supervisor answered in one check.
fn notifications(extra: &[String]) -> String {
    let out = Command::new(GUARD)
        .args(extra)
        .args(["--json", "--settle", "0", "--", GUARD, "__serve", "clean"])
        .stdin(Stdio::null())
        .output()
        .expect("run guard");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    j["confinement"]["notifications"].to_string()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One guard measured: its name, binary, and per-round check and
/// `--version` times.
struct Side {
    name: String,
    exe: PathBuf,
    extra: Vec<String>,
    checks: Vec<Duration>,
    starts: Vec<Duration>,
}

fn main() {
    let rounds: usize = std::env::var("OVERHEAD_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut sides = vec![Side {
        name: "this build (dynamic)".into(),
        exe: PathBuf::from(GUARD),
        extra: Vec::new(),
        checks: Vec::new(),
        starts: Vec::new(),
    }];
    let static_exe = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/target/static/x86_64-unknown-linux-gnu/release/mcp-stdio-guard"
    ));
    if static_exe.is_file() {
        sides.push(Side {
            name: "static release".into(),
            exe: static_exe,
            extra: Vec::new(),
            checks: Vec::new(),
            starts: Vec::new(),
        });
    } else {
        println!("(no static binary: scripts/release-check.sh builds it)");
    }
    if let Some(base) = std::env::var_os("OVERHEAD_BASELINE") {
        sides.push(Side {
            name: format!("baseline {}", PathBuf::from(&base).display()),
            exe: PathBuf::from(base),
            extra: Vec::new(),
            checks: Vec::new(),
            starts: Vec::new(),
        });
    }
    for mode in ["observe", "enforce"] {
        sides.push(Side {
            name: format!("this build, --confine {mode}"),
            exe: PathBuf::from(GUARD),
            extra: vec!["--confine".into(), mode.into()],
            checks: Vec::new(),
            starts: Vec::new(),
        });
    }
    // Warm the page cache and the dynamic loader on every path.
    for _ in 0..5 {
        direct();
        for side in &sides {
            check(&side.exe, &side.extra);
        }
    }
    let mut floor = Vec::new();
    for _ in 0..rounds {
        floor.push(direct());
        for side in &mut sides {
            side.checks.push(check(&side.exe, &side.extra));
            side.starts.push(exec_only(&side.exe));
        }
    }
    let floor = median(floor);
    println!("rounds: {rounds}, medians");
    println!("floor (direct driver, same exchange): {:.3} ms", ms(floor));
    let plain = median(sides[0].checks.clone());
    for side in sides.iter().filter(|s| !s.extra.is_empty()) {
        let confined = median(side.checks.clone());
        let added = confined.saturating_sub(plain);
        println!(
            "{}: check {:.3} ms, {:.2}x the unconfined check, adds {:.3} ms ({}: at most {} ms), {} notifications per check",
            side.name,
            ms(confined),
            ms(confined) / ms(plain),
            ms(added),
            if added <= CONFINE_GOAL {
                "goal met"
            } else {
                "goal NOT met"
            },
            ms(CONFINE_GOAL),
            notifications(&side.extra),
        );
    }
    for side in sides.into_iter().filter(|s| s.extra.is_empty()) {
        let (check, start) = (median(side.checks), median(side.starts));
        let over = check.saturating_sub(floor);
        println!(
            "{}: check {:.3} ms, {:.2}x the floor, overhead {:.3} ms ({}: at most {} ms); of it, starting the binary (--version) {:.3} ms, the rest {:.3} ms",
            side.name,
            ms(check),
            ms(check) / ms(floor),
            ms(over),
            if over <= GOAL {
                "goal met"
            } else {
                "goal NOT met"
            },
            GOAL.as_millis(),
            ms(start),
            ms(over.saturating_sub(start)),
        );
    }
}
