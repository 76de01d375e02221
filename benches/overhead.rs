//! The guard's own overhead per check. Both sides run the same exchange with
//! the same fast server (the binary's built-in clean demo server):
//!
//! - direct: spawn the server, write `initialize`, read the response, write
//!   `notifications/initialized`, list its tools (the server advertises
//!   tools, so the guard's capability probe does the same), close stdin,
//!   wait for the exit;
//! - guard: `mcp-stdio-guard --settle 0 -- <same server>`, which does that
//!   plus its threads, judging, report and group checks.
//!
//! Prints the medians and their difference, and how much of it is only the
//! start of one more process (`mcp-stdio-guard --version`, same run). Run with `cargo bench --bench
//! overhead` (a release build). `ROUNDS` can be overridden with the
//! environment variable OVERHEAD_ROUNDS.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GUARD: &str = env!("CARGO_BIN_EXE_mcp-stdio-guard");

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

fn guard() -> Duration {
    let start = Instant::now();
    let out = Command::new(GUARD)
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

/// Starting the guard binary and nothing else (`--version`): the share of
/// the overhead that any extra process costs on this machine.
fn exec_only() -> Duration {
    let start = Instant::now();
    let out = Command::new(GUARD)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .expect("run guard --version");
    assert!(out.status.success());
    start.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let rounds: usize = std::env::var("OVERHEAD_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // Warm the page cache and the dynamic loader on both paths.
    for _ in 0..5 {
        direct();
        guard();
    }
    let (mut d, mut g, mut e) = (Vec::new(), Vec::new(), Vec::new());
    // Interleaved, so machine noise lands on every side alike.
    for _ in 0..rounds {
        d.push(direct());
        g.push(guard());
        e.push(exec_only());
    }
    let (md, mg, me) = (median(d), median(g), median(e));
    println!("rounds: {rounds}");
    println!("direct driver median: {:.3} ms", ms(md));
    println!("guard (--settle 0) median: {:.3} ms", ms(mg));
    println!(
        "guard overhead: {:.3} ms ({:.2}x the direct exchange)",
        ms(mg.saturating_sub(md)),
        ms(mg) / ms(md)
    );
    println!(
        "starting the guard binary alone (--version) median: {:.3} ms",
        ms(me)
    );
    println!(
        "guard work beyond its own process start: {:.3} ms",
        ms(mg.saturating_sub(md).saturating_sub(me))
    );
}
