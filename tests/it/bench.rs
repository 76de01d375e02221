//! `bench` against fake servers: a fast one passes and reports every
//! figure; one that handles requests one at a time is `bench-serialized`;
//! errors under modest concurrency and a server that stalls under load
//! fail with `bench-failed`; a tool not marked read-only is refused.

use crate::util::{Run, check_fake};
use std::time::Duration;

const DEADLINE: Duration = Duration::from_secs(60);

fn bench(scenario: &str, extra: &[&str]) -> Run {
    let mut args = vec!["bench", "--json", "--samples", "2", "--timeout", "1000"];
    args.extend_from_slice(extra);
    check_fake(scenario, &args, DEADLINE)
}

#[test]
fn a_fast_server_passes_with_every_figure() {
    let run = bench("ok", &["--requests", "500", "--concurrency", "4"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let b = run.json()["bench"].clone();
    assert_eq!(b["era"], "legacy");
    assert_eq!(b["liveness"], "ping");
    assert_eq!(b["coldStart"]["count"], 2, "{b}");
    assert_eq!(b["warm"]["liveness"]["count"], 200);
    assert_eq!(b["warm"]["toolsList"]["count"], 50);
    assert_eq!(b["burst"]["sent"], 500);
    assert_eq!(b["burst"]["ok"], 500);
    assert_eq!(b["burst"]["concurrency"], 4);
    assert!(
        b["burst"]["requestsPerSecond"]
            .as_f64()
            .is_some_and(|r| r > 0.0)
    );
    assert!(b["guardShareUs"]["count"].as_u64().is_some_and(|n| n > 700));
}

#[test]
fn the_modern_era_uses_discover_for_liveness() {
    let run = bench("modern-only", &["--requests", "200"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let b = run.json()["bench"].clone();
    assert_eq!(
        (b["era"].as_str(), b["liveness"].as_str()),
        (Some("modern"), Some("server/discover"))
    );
    assert_eq!(b["burst"]["errors"], 0, "{b}");
}

#[test]
fn a_server_that_handles_requests_one_at_a_time_is_a_finding() {
    let run = bench("bench-slow", &["--requests", "100", "--concurrency", "8"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    crate::util::expect(&run, "bench-serialized", "warning", "installRuntime");
}

#[test]
fn errors_under_modest_concurrency_fail_the_bench() {
    let run = bench("bench-errors", &["--requests", "200", "--concurrency", "4"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    crate::util::expect(&run, "bench-failed", "error", "installRuntime");
    assert!(
        run.json()["bench"]["burst"]["errors"]
            .as_u64()
            .is_some_and(|e| e > 0)
    );
}

#[test]
fn a_server_that_stalls_under_load_fails_within_the_timeout() {
    let run = bench("bench-stall", &["--requests", "5000", "--concurrency", "8"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let issue = crate::util::expect(&run, "bench-failed", "error", "installRuntime");
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("no answer")
    );
}

#[test]
fn a_tool_not_marked_read_only_needs_allow_side_effects() {
    let run = bench(
        "catalog-full",
        &["--tool", "add", "--arg", "a=1", "--arg", "b=2"],
    );
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(
        run.stderr.contains("--allow-side-effects"),
        "{}",
        run.stderr
    );
}
