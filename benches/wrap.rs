//! What `wrap` adds to a live session, against a direct pipe, in one run.
//! Latency: a host sends `ping` requests to `benches/ping_server.c` at a
//! steady 1,000 messages a second (one every millisecond, each timed from
//! its write to its answer), first directly, then through `wrap`; the
//! added time is the difference of the percentiles (goal: p50 at most
//! 50 µs, p99 at most 250 µs). Throughput: a server writes 100 MB of
//! JSON-RPC notifications on stdout; the host reads them all, directly and
//! through `wrap` (goal: within 10%). Each figure is the median of the
//! rounds (`WRAP_BENCH_ROUNDS`, default 3); the wrapper's peak memory is
//! read from its `/proc` status as it runs.
//!
//! Run with `cargo bench --bench wrap` (a release build).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GUARD: &str = env!("CARGO_BIN_EXE_mcp-stdio-guard");
const MESSAGES: usize = 3000;
const STREAM: u64 = 100 << 20;

fn ping_server() -> PathBuf {
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

fn logs() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wrap-bench-logs");
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn command(wrapped: bool, server: &[String]) -> Command {
    if wrapped {
        let mut c = Command::new(GUARD);
        c.args(["wrap", "--name", "bench", "--log-dir"])
            .arg(logs())
            .arg("--")
            .args(server);
        c
    } else {
        let mut c = Command::new(&server[0]);
        c.args(&server[1..]);
        c
    }
}

fn percentile(sorted: &[u64], q: f64) -> u64 {
    sorted[(((sorted.len() - 1) as f64) * q).round() as usize]
}

/// The round-trip times (µs) of `MESSAGES` pings sent one a millisecond.
fn latencies(wrapped: bool, server: &[String]) -> Vec<u64> {
    let mut child = command(wrapped, server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let init = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\",\"version\":\"1\"}}}\n";
    stdin.write_all(init.as_bytes()).expect("write");
    stdout.read_line(&mut line).expect("read");
    let start = Instant::now();
    let mut times = Vec::with_capacity(MESSAGES);
    for i in 1..=MESSAGES {
        // One a millisecond: wait for the slot (a bench may sleep).
        let slot = start + Duration::from_millis(i as u64);
        if let Some(wait) = slot.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let sent = Instant::now();
        writeln!(
            stdin,
            "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}"
        )
        .expect("write");
        line.clear();
        stdout.read_line(&mut line).expect("read");
        times.push(sent.elapsed().as_micros() as u64);
    }
    drop(stdin);
    let _ = child.wait();
    times.sort_unstable();
    times
}

/// Seconds to read a 100 MB stream of notifications, and the reader's view
/// of the wrapper's peak memory (KiB). `cat_hop`: the stream passes through
/// `cat` first, the yardstick of any relay (one more pipe and process).
fn throughput(wrapped: bool, cat_hop: bool) -> (f64, u64) {
    let line = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}}";
    let hop = if cat_hop { " | cat" } else { "" };
    let script = format!("yes '{line}' | head -c {STREAM}{hop}");
    let server = vec!["sh".to_string(), "-c".to_string(), script];
    let start = Instant::now();
    let mut child = command(wrapped, &server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut out = child.stdout.take().expect("stdout");
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    let mut peak = 0;
    loop {
        let n = out.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        total += n as u64;
        if total % (8 << 20) < n as u64 {
            peak = peak.max(vm_hwm(pid));
        }
    }
    peak = peak.max(vm_hwm(pid));
    let secs = start.elapsed().as_secs_f64();
    drop(child.stdin.take());
    let _ = child.wait();
    assert_eq!(total, STREAM, "every byte arrived");
    (secs, peak)
}

/// The process's peak resident memory (KiB), from /proc.
fn vm_hwm(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::var("WRAP_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let server = vec![ping_server().display().to_string()];
    let (mut d50, mut d99, mut w50, mut w99) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let d = latencies(false, &server);
        let w = latencies(true, &server);
        d50.push(percentile(&d, 0.5) as f64);
        d99.push(percentile(&d, 0.99) as f64);
        w50.push(percentile(&w, 0.5) as f64);
        w99.push(percentile(&w, 0.99) as f64);
    }
    let (d50, d99, w50, w99) = (median(d50), median(d99), median(w50), median(w99));
    println!("latency at 1,000 messages/s, {MESSAGES} pings, median of {rounds} rounds:");
    println!("  direct   p50 {d50:>7.0} µs   p99 {d99:>7.0} µs");
    println!("  wrapped  p50 {w50:>7.0} µs   p99 {w99:>7.0} µs");
    println!(
        "  added    p50 {:>7.0} µs   p99 {:>7.0} µs   (goal: 50 and 250)",
        w50 - d50,
        w99 - d99
    );
    let (mut ds, mut cs, mut ws, mut peak) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for _ in 0..rounds {
        ds.push(throughput(false, false).0);
        cs.push(throughput(false, true).0);
        let (secs, p) = throughput(true, false);
        ws.push(secs);
        peak = peak.max(p);
    }
    let (ds, cs, ws) = (median(ds), median(cs), median(ws));
    let mb = (STREAM >> 20) as f64;
    println!("throughput of a {mb:.0} MB stream, median of {rounds} rounds:");
    println!("  direct   {:>7.0} MB/s ({ds:.3} s)", mb / ds);
    println!(
        "  cat hop  {:>7.0} MB/s ({cs:.3} s; the yardstick of any relay)",
        mb / cs
    );
    println!("  wrapped  {:>7.0} MB/s ({ws:.3} s)", mb / ws);
    println!(
        "  ratio    {:.3} (goal: at least 0.90); the wrapper's peak memory {} MiB",
        ds / ws,
        peak / 1024
    );
}
