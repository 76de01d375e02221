//! The soak proof: `soak N FAKE_SERVER` runs N checks in this one process
//! through the library, cycling over the fake server's scenarios, and
//! prints what it holds before and after (open descriptors, threads,
//! resident memory, read after `sys::trim_heap` so that what the allocator
//! kept for later is not taken for a leak) and how many zombie children it
//! left. A guard that leaks a descriptor, a thread or a child per run shows
//! it here.
//!
//! `tests/it/soak.rs` runs it short in CI; the README gives the long form.

use std::time::{Duration, Instant};

use mcp_stdio_guard::args::cli;
use mcp_stdio_guard::commands as app;
use mcp_stdio_guard::{plan, sys};

/// Scenarios that end within a second with short timeouts (the floods and
/// the slow ones are proved elsewhere).
const SCENARIOS: &[&str] = &[
    "ok",
    "banner",
    "exit-nonzero",
    "exit-signal",
    "crash-after-initialized",
    "exit-on-request",
    "ignore-request",
    "echo",
    "notification-response",
    "empty-line",
    "content-length",
    "no-newline-exit",
    "no-newline-alive",
    "huge-line",
    "invalid-utf8",
    "op-error",
    "ignore-sigterm",
    "grandchild",
    "setsid-escape",
    "late-stdout",
    "shutdown-print",
    "roots-request",
    "init-no-protocol",
    "catalog-full",
    "list-unsupported",
    "list-timeout",
    "cursor-loop",
    "call-bad-structured",
    "adv-lenient",
    "adv-garbage-print",
    "escape-group",
    "join-guard-group",
    "daemon-orphan",
    "goodbye-daemon",
    "helper-exits-with-server",
    "big-list-exit",
    "odd-json",
    "stderr-log",
    "wrong-id",
    "string-id",
    "hang",
];

fn status_field(name: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn fds() -> u64 {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count() as u64)
}

/// What each open descriptor points at (for the report when they differ).
fn fd_targets() -> Vec<String> {
    std::fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.flatten()
                .map(|e| {
                    let target = std::fs::read_link(e.path()).unwrap_or_default();
                    format!("{}->{}", e.file_name().to_string_lossy(), target.display())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn zombies() -> usize {
    let me = std::process::id();
    sys::processes()
        .iter()
        .filter(|p| p.ppid == me && p.is_zombie())
        .count()
}

fn check(fake: &str, scenario: &str, marker: &str) {
    let args = [
        "--json",
        "--timeout",
        "400",
        "--shutdown-grace",
        "50",
        "--settle",
        "0",
        "--",
        fake,
        scenario,
        marker,
    ];
    let Ok(cli::Command::Run(a)) = cli::parse(args) else {
        panic!("bad arguments")
    };
    let plan = plan::resolve(&a).expect("plan");
    let report = app::judge::check(&plan, &mut Default::default()).expect("check");
    let _ = mcp_stdio_guard::report::json::render(&report);
}

/// Threads end a moment after their run (a reader sees EOF): wait for the
/// count to come back, within a bound.
fn settled_threads(target: u64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let now = status_field("Threads:");
        if now <= target || Instant::now() >= deadline {
            return now;
        }
        std::thread::yield_now();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // SOAK_SCENARIOS=a,b narrows the cycle (to find what leaks).
    let only = std::env::var("SOAK_SCENARIOS").unwrap_or_default();
    let chosen: Vec<&str> = SCENARIOS
        .iter()
        .copied()
        .filter(|s| only.is_empty() || only.split(',').any(|o| o == *s))
        .collect();
    let asked: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
    // Whole cycles, so the last run is the warm-up's last scenario too and
    // the allocator is compared in the same state (a big list freed just
    // before the reading would otherwise show as growth).
    let n = asked.div_ceil(chosen.len()) * chosen.len();
    let fake = args.get(2).expect("usage: soak N FAKE_SERVER");
    let marker = args.get(3).cloned().unwrap_or_else(|| "soak".into());
    sys::install_interrupt_handlers();
    // Warm up: every scenario once, so lazily made things exist.
    for s in &chosen {
        check(fake, s, &marker);
    }
    let threads = settled_threads(1);
    sys::trim_heap();
    let before = (fds(), threads, status_field("VmRSS:"));
    for i in 0..n {
        check(fake, chosen[i % chosen.len()], &marker);
    }
    // Threads first: a reader thread that has not ended yet still holds
    // its pipe, and would be counted as a leaked descriptor.
    let threads = settled_threads(before.1);
    sys::trim_heap();
    let after = (fds(), threads, status_field("VmRSS:"));
    if after.0 != before.0 {
        eprintln!("soak: open descriptors after the runs: {:?}", fd_targets());
    }
    println!(
        "{{\"runs\": {n}, \"fds\": [{}, {}], \"threads\": [{}, {}], \"rssKiB\": [{}, {}], \"zombies\": {}}}",
        before.0,
        after.0,
        before.1,
        after.1,
        before.2,
        after.2,
        zombies()
    );
}
