//! `mcp-stdio-guard bench` against a minimal direct driver, in one run. The
//! server is `benches/ping_server.c` (compiled here with `cc`): it answers
//! at once, so what is measured is the pipes and the client. The direct
//! driver writes `ping` requests and reads the replies through the same
//! pipes, one at a time and with 16 in flight; then `bench --json` does the
//! same, and the ratios of rates and percentiles are printed.
//!
//! Run with `cargo bench --bench bench` (a release build).
//! `BENCH_REQUESTS` overrides the number of requests (default 20000).

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use mcp_stdio_guard::session::bench::READY_ASKS;
use mcp_stdio_guard::sys;

const GUARD: &str = env!("CARGO_BIN_EXE_mcp-stdio-guard");

fn server() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let exe = dir.join("ping_server");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ping_server.c");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(src)
        .status()
        .expect("cc (a C compiler) is needed for this bench");
    assert!(status.success(), "cc failed");
    exe
}

fn percentile(sorted: &[u64], q: f64) -> u64 {
    sorted[(((sorted.len() - 1) as f64) * q).round() as usize]
}

/// Rate (requests/s) and p50/p95/p99 latency (µs) of `n` pings with `c`
/// in flight, straight through the pipes, the way a tight client does it:
/// every free slot filled in one write, every reply of one read matched,
/// a reply's latency from its request's write to the read that brought it.
fn direct(exe: &PathBuf, n: usize, c: usize) -> (f64, [u64; 3]) {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn the ping server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let fd = stdout.as_raw_fd();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"direct\",\"version\":\"0\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("write");
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut chunk = vec![0u8; 1 << 16];
    // The initialize reply.
    while !buf.contains(&b'\n') {
        let k = stdout.read(&mut chunk).expect("read");
        assert!(k > 0, "the server closed its stdout");
        buf.extend_from_slice(&chunk[..k]);
    }
    let first = buf.iter().position(|&b| b == b'\n').expect("a line");
    buf.drain(..=first);
    let mut sent_at: Vec<Instant> = Vec::with_capacity(n + 1);
    let mut lat = Vec::with_capacity(n);
    let mut out = Vec::with_capacity(4096);
    let started = Instant::now();
    let (mut sent, mut got) = (0usize, 0usize);
    while got < n {
        let now = Instant::now();
        while sent < n && sent - got < c {
            sent += 1;
            sent_at.push(now);
            let _ = writeln!(
                out,
                "{{\"jsonrpc\":\"2.0\",\"id\":{sent},\"method\":\"ping\"}}"
            );
        }
        if !out.is_empty() {
            stdin.write_all(&out).expect("write");
            out.clear();
        }
        // The same wait as the guard's client: ask a few times whether the
        // reply is there, giving the processor away between asks, before
        // a read that may sleep (a sleeping reader's wake-up costs tens of
        // microseconds on a virtual machine, more than the reply).
        for _ in 0..READY_ASKS {
            if sys::pipe_unread(fd).is_ok_and(|k| k > 0) {
                break;
            }
            std::thread::yield_now();
        }
        let k = stdout.read(&mut chunk).expect("read");
        assert!(k > 0, "the server closed its stdout");
        let at = Instant::now();
        buf.extend_from_slice(&chunk[..k]);
        let mut start = 0;
        while let Some(len) = buf[start..].iter().position(|&b| b == b'\n') {
            let line = &buf[start..start + len];
            start += len + 1;
            let text = std::str::from_utf8(line).expect("utf-8");
            let id: usize = text
                .split("\"id\":")
                .nth(1)
                .and_then(|r| r.split([',', '}']).next())
                .and_then(|s| s.parse().ok())
                .expect("an id");
            lat.push(at.saturating_duration_since(sent_at[id - 1]).as_micros() as u64);
            got += 1;
        }
        buf.drain(..start);
    }
    let wall = started.elapsed();
    drop(stdin);
    let _ = child.wait();
    lat.sort_unstable();
    (
        n as f64 / wall.as_secs_f64(),
        [
            percentile(&lat, 0.5),
            percentile(&lat, 0.95),
            percentile(&lat, 0.99),
        ],
    )
}

/// The same through `mcp-stdio-guard bench --json`: (sequential rate,
/// burst rate, burst p50/p95/p99).
fn guard(exe: &PathBuf, n: usize, c: usize) -> (f64, f64, [u64; 3], [u64; 3]) {
    let out = Command::new(GUARD)
        .args([
            "bench",
            "--json",
            "--samples",
            "1",
            "--concurrency",
            &c.to_string(),
        ])
        .args(["--requests", &n.to_string(), "--era", "legacy", "--"])
        .arg(exe)
        .output()
        .expect("run the guard");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let b = &j["bench"];
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0);
    let p = |s: &serde_json::Value| {
        [
            s["p50Us"].as_u64().unwrap_or(0),
            s["p95Us"].as_u64().unwrap_or(0),
            s["p99Us"].as_u64().unwrap_or(0),
        ]
    };
    (
        f(&b["sequential"]["requestsPerSecond"]),
        f(&b["burst"]["requestsPerSecond"]),
        p(&b["sequential"]["latency"]),
        p(&b["burst"]["latency"]),
    )
}

/// Rates and p50/p95/p99 latencies of both sides, one at a time and with
/// 16 in flight: one round's, or their summary over the rounds.
#[derive(Clone, Copy)]
struct Figures {
    d1: f64,
    d16: f64,
    g1: f64,
    g16: f64,
    dl1: [u64; 3],
    dl16: [u64; 3],
    gl1: [u64; 3],
    gl16: [u64; 3],
}

/// The rounds summarised: by the median of each figure, or by each side's
/// best (the highest rate, the lowest percentile: what the machine's noise
/// left alone).
fn summarise(runs: &[Figures], best: bool) -> Figures {
    let pick = |values: Vec<f64>, higher_is_better: bool| {
        let mut v = values;
        v.sort_by(|a, b| a.total_cmp(b));
        match (best, higher_is_better) {
            (false, _) => v[v.len() / 2],
            (true, true) => v[v.len() - 1],
            (true, false) => v[0],
        }
    };
    let rate = |f: fn(&Figures) -> f64| pick(runs.iter().map(f).collect(), true);
    let latency = |f: fn(&Figures) -> [u64; 3]| {
        [0, 1, 2].map(|k| pick(runs.iter().map(|r| f(r)[k] as f64).collect(), false) as u64)
    };
    Figures {
        d1: rate(|r| r.d1),
        d16: rate(|r| r.d16),
        g1: rate(|r| r.g1),
        g16: rate(|r| r.g16),
        dl1: latency(|r| r.dl1),
        dl16: latency(|r| r.dl16),
        gl1: latency(|r| r.gl1),
        gl16: latency(|r| r.gl16),
    }
}

fn print(what: &str, s: &Figures) {
    let Figures {
        d1,
        d16,
        g1,
        g16,
        dl1,
        dl16,
        gl1,
        gl16,
    } = s;
    println!("{what}:");
    println!(
        "  direct driver: {d1:.0}/s one at a time (p50/p95/p99 {dl1:?} us), {d16:.0}/s with 16 in flight (p50/p95/p99 {dl16:?} us)"
    );
    println!(
        "  guard bench:   {g1:.0}/s one at a time (p50/p95/p99 {gl1:?} us), {g16:.0}/s with 16 in flight (p50/p95/p99 {gl16:?} us)"
    );
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    println!(
        "  guard/direct rate: {:.2} one at a time ({}), {:.2} with 16 in flight ({}) (goal: 0.90 or more)",
        g1 / d1,
        met(g1 / d1 >= 0.90),
        g16 / d16,
        met(g16 / d16 >= 0.90)
    );
    // A percentile is within the goal when it is within 5% of the direct
    // driver's or within the report's 1 us resolution.
    let close = |g: &[u64; 3], d: &[u64; 3]| {
        let text = g
            .iter()
            .zip(d)
            .map(|(g, d)| format!("{:.2}", *g as f64 / (*d).max(1) as f64))
            .collect::<Vec<_>>()
            .join("/");
        let ok = g
            .iter()
            .zip(d)
            .all(|(g, d)| g.abs_diff(*d) <= 1 || g.abs_diff(*d) as f64 <= 0.05 * *d as f64);
        (text, met(ok))
    };
    let (t1, ok1) = close(gl1, dl1);
    let (t16, ok16) = close(gl16, dl16);
    println!(
        "  guard/direct latency p50/p95/p99: {t1} one at a time ({ok1}), {t16} with 16 in flight ({ok16}) (goal: within 5%, or within the report's 1 us)"
    );
}

fn main() {
    let n: usize = std::env::var("BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9);
    let exe = server();
    // The guard's sequential series is at most 1000 requests.
    let seq_n = n.min(1000);
    let _ = direct(&exe, 1000, 1); // warm the page cache and the CPU
    // Rounds alternate the two sides, so a burst of load elsewhere on the
    // machine hits both.
    let mut runs: Vec<Figures> = Vec::new();
    for _ in 0..rounds {
        let (d1, dl1) = direct(&exe, seq_n, 1);
        let (d16, dl16) = direct(&exe, n, 16);
        let (g1, g16, gl1, gl16) = guard(&exe, n, 16);
        runs.push(Figures {
            d1,
            d16,
            g1,
            g16,
            dl1,
            dl16,
            gl1,
            gl16,
        });
    }
    println!("requests: {n} (sequential: {seq_n}), {rounds} alternating rounds");
    print("medians", &summarise(&runs, false));
    print("each side's best round", &summarise(&runs, true));
}
