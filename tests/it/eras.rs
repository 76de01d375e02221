//! Both protocol eras against fake servers: how `--era auto` finds the era
//! (a DiscoverResult, a -32022, an error, silence, an exit), `--era both`,
//! `--era modern` and `--era legacy`, and each 2026-07-28 rule failing with
//! its own code.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::{
    DEADLINE, Run, assert_no_survivors, expect, fake, fake_server, guard, marker,
    run_with_deadline, temp_dir,
};

fn era(run: &Run) -> serde_json::Value {
    run.json()["era"].clone()
}

#[test]
fn a_modern_only_server_passes_with_default_options_and_says_modern() {
    let run = fake("modern-only", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["negotiatedProtocol"], "2026-07-28");
    let e = era(&run);
    assert_eq!(e["detected"], "modern", "{e}");
    assert_eq!(e["probe"]["outcome"], "result");
    assert_eq!(e["freshProcess"], false);
    assert!(!run.codes().contains(&"initialize-error".to_string()));
    // The capability probes ran in the modern era, with the envelope.
    assert_eq!(j["capabilityChecks"]["tools"]["itemCount"], 1, "{j}");
}

#[test]
fn the_text_report_names_the_era() {
    // The text report: the fake helper without its --json.
    let run = crate::util::check_fake("modern-only", &["--timeout", "3000"], crate::util::DEADLINE);
    assert!(run.stdout.contains("discover: ok"), "{}", run.stdout);
    assert!(run.stdout.contains("era: modern ("), "{}", run.stdout);
}

#[test]
fn a_dual_era_server_passes_era_both_and_reports_both() {
    let run = fake("modern", &["--era", "both"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["era"]["detected"], "dual");
    assert_eq!(j["era"]["mode"], "both");
    assert_eq!(j["otherEra"]["era"]["speaks"], "legacy", "{j}");
    assert_eq!(j["otherEra"]["initialized"], true);
    assert_eq!(j["otherEra"]["ok"], true);
}

#[test]
fn a_modern_only_server_under_era_both_serves_no_legacy_and_still_passes() {
    let run = fake("modern-only", &["--era", "both"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["era"]["detected"], "modern");
    assert!(j["era"]["notServed"]["legacy"].is_string(), "{j}");
    assert!(j.get("otherEra").is_none());
}

#[test]
fn a_legacy_server_answering_the_probe_with_an_error_goes_on_on_the_same_process() {
    let run = fake("ok", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "legacy");
    assert_eq!(e["probe"]["outcome"], "error -32601");
    assert_eq!(e["freshProcess"], false);
    assert_eq!(run.json()["negotiatedProtocol"], "2025-11-25");
}

/// A check of a fake scenario through a shell that counts each start of
/// the server in a file: the report, how many processes the check started,
/// and how long it took.
fn counted(scenario: &str, args: &[&str]) -> (Run, usize, Duration) {
    let m = marker(scenario);
    let dir = temp_dir(&format!("spawns-{m}"));
    let log = dir.join("spawns");
    let mut cmd = Command::new(guard());
    cmd.args(["--json", "--timeout", "5000", "--shutdown-grace", "300"])
        .args(args)
        .arg("--env")
        .arg(format!("SPAWN_LOG={}", log.display()))
        .args([
            "--",
            "sh",
            "-c",
            "echo start >> \"$SPAWN_LOG\"; exec \"$0\" \"$@\"",
        ])
        .arg(fake_server())
        .args([scenario, &m]);
    let started = Instant::now();
    let run = run_with_deadline(cmd, DEADLINE);
    let took = started.elapsed();
    assert_no_survivors(&m);
    let spawns = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count();
    let _ = std::fs::remove_dir_all(&dir);
    (run, spawns, took)
}

/// What a silent 2025 server and one that answers the probe with an
/// error cost is counted here (one start, the probe's outcome); the time
/// each costs over the plain handshake is a bench's to measure
/// (`scripts/era-cost.sh`): no test asserts wall time.
#[test]
fn a_silent_legacy_server_costs_one_start() {
    let (run, spawns, _) = counted("legacy-silent-probe", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(spawns, 1, "{}", run.stdout);
    let e = era(&run);
    assert_eq!(
        (e["detected"].as_str(), e["probe"]["outcome"].as_str()),
        (Some("legacy"), Some("silence"))
    );
    assert!(
        e["reason"].as_str().unwrap_or("").contains("went idle"),
        "{e}"
    );
    assert!(run.codes().is_empty(), "{:?}", run.codes());
}

#[test]
fn a_legacy_server_answering_the_probe_costs_one_start() {
    let (run, spawns, _) = counted("ok", &[]);
    assert_eq!((run.code, spawns), (Some(0), 1), "{}", run.stdout);
    assert_eq!(era(&run)["probe"]["outcome"], "error -32601");
}

#[test]
fn a_busy_legacy_server_gets_initialize_after_the_window_on_the_same_process() {
    let (run, spawns, _) = counted("legacy-busy-silent", &["--era-window", "300"]);
    assert_eq!((run.code, spawns), (Some(0), 1), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "legacy");
    assert!(
        e["reason"].as_str().unwrap_or("").contains("kept working"),
        "{e}"
    );
    // Its own work, not the request timeout: no timeout was waited for.
    assert!(
        !run.codes().iter().any(|c| c.ends_with("-timeout")),
        "{:?}",
        run.codes()
    );
}

#[test]
fn a_legacy_server_that_exits_on_the_probe_is_judged_on_a_fresh_process() {
    let run = fake("legacy-exit-on-probe", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "legacy");
    assert_eq!(e["probe"]["outcome"], "exit");
    assert_eq!(e["freshProcess"], true);
    // The probe's casualty is not the server's fault.
    assert!(run.codes().is_empty(), "{:?}", run.codes());
}

#[test]
fn a_32022_listing_only_2025_versions_means_legacy() {
    let run = fake("legacy-32022", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "legacy");
    assert_eq!(e["probe"]["outcome"], "error -32022");
    assert!(
        e["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.len() == 4),
        "{e}"
    );
}

#[test]
fn a_slow_legacy_starter_costs_one_start() {
    let (run, spawns, _) = counted("legacy-slow", &[]);
    assert_eq!((run.code, spawns), (Some(0), 1), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["speaks"], "legacy");
    assert_eq!(e["freshProcess"], false);
}

#[test]
fn a_slow_modern_starter_costs_one_start() {
    let (run, spawns, _) = counted("modern-slow", &[]);
    assert_eq!((run.code, spawns), (Some(0), 1), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "dual", "{e}");
    assert_eq!(e["speaks"], "modern");
    assert_eq!(e["freshProcess"], false);
}

#[test]
fn a_late_discover_on_a_modern_only_server_goes_on_on_the_same_process() {
    let (run, spawns, _) = counted("modern-only-idle-late", &[]);
    assert_eq!((run.code, spawns), (Some(0), 1), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(
        (e["speaks"].as_str(), e["freshProcess"].as_bool()),
        (Some("modern"), Some(false)),
        "{e}"
    );
    // The guard's own fallback initialize is never blamed on the server.
    assert!(run.codes().is_empty(), "{:?}", run.codes());
    assert_eq!(run.json()["capabilityChecks"]["tools"]["itemCount"], 1);
}

#[test]
fn a_dual_server_pinned_by_the_fallback_initialize_is_judged_on_a_fresh_process_and_says_why() {
    let (run, spawns, _) = counted("modern-idle-late", &[]);
    assert_eq!((run.code, spawns), (Some(0), 2), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(
        (e["speaks"].as_str(), e["freshProcess"].as_bool()),
        (Some("modern"), Some(true)),
        "{e}"
    );
    assert!(
        e["reason"]
            .as_str()
            .unwrap_or("")
            .contains("pinned to 2025"),
        "{e}"
    );
    assert!(run.codes().is_empty(), "{:?}", run.codes());
}

#[test]
fn a_broken_discover_result_is_the_root_cause_and_the_refused_initialize_its_consequence() {
    for (scenario, refusal) in [
        ("modern-broken-discover", "initialize-error"),
        ("modern-broken-discover-32022", "initialize-modern-only"),
    ] {
        let run = fake(scenario, &[]);
        assert_eq!(run.code, Some(1), "{scenario}: {}", run.stdout);
        let errors: Vec<String> = run.json()["issues"]
            .as_array()
            .expect("issues")
            .iter()
            .filter(|i| i["severity"] == "error")
            .map(|i| i["code"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            errors,
            ["discover-invalid-result"],
            "{scenario}: {}",
            run.stdout
        );
        let issue = expect(&run, "discover-invalid-result", "error", "mcpProtocol");
        assert_eq!(
            issue["consequences"],
            serde_json::json!([refusal]),
            "{issue}"
        );
        assert_eq!(issue["checkId"], "sep-2575-server-implements-discover");
        assert!(
            !run.codes().iter().any(|c| c.starts_with("initialize-")),
            "{scenario}"
        );
        assert_eq!(era(&run)["speaks"], "modern", "{scenario}");
    }
}

#[test]
fn a_legacy_server_that_answers_anything_is_legacy_with_no_discover_finding() {
    let run = fake("legacy-answers-anything", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(era(&run)["detected"], "legacy");
    assert!(run.codes().is_empty(), "{:?}", run.codes());
}

#[test]
fn era_modern_requires_discover() {
    let run = fake("ok", &["--era", "modern"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let issue = expect(&run, "discover-unsupported", "error", "mcpProtocol");
    assert_eq!(issue["checkId"], "sep-2575-server-implements-discover");
}

#[test]
fn era_legacy_on_a_modern_only_server_is_a_warning_not_an_initialize_error() {
    let run = fake("modern-only", &["--era", "legacy"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    expect(&run, "initialize-modern-only", "warning", "mcpProtocol");
    assert!(!run.codes().contains(&"initialize-error".to_string()));
}

#[test]
fn each_modern_violation_fails_with_its_code() {
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "modern-no-result-type",
            &[],
            "modern-result-type-invalid",
            "error",
        ),
        (
            "modern-no-cache-hints",
            &[],
            "modern-cache-hints-missing",
            "error",
        ),
        (
            "modern-bad-cache-hints",
            &[],
            "modern-cache-hints-invalid",
            "error",
        ),
        (
            "modern-no-server-info",
            &[],
            "modern-server-info-missing",
            "warning",
        ),
        (
            "modern-bad-discover",
            &[],
            "discover-invalid-result",
            "error",
        ),
        (
            "modern-server-request",
            &[],
            "modern-server-request",
            "error",
        ),
        ("modern-log", &[], "modern-unrequested-log", "error"),
        (
            "modern-accepts-any-version",
            &["--adversarial-probes", "unsupported-version"],
            "modern-unsupported-version-error",
            "error",
        ),
        (
            "modern-accepts-no-meta",
            &["--adversarial-probes", "missing-meta"],
            "adversarial-missing-meta-result",
            "error",
        ),
    ];
    for (scenario, args, code, severity) in cases {
        let run = fake(scenario, args);
        let issue = expect(&run, code, severity, "mcpProtocol");
        let want = if *severity == "error" { 1 } else { 0 };
        assert_eq!(run.code, Some(want), "{scenario}: {}", run.stdout);
        assert_eq!(run.json()["era"]["speaks"], "modern", "{scenario}");
        if *code == "modern-server-info-missing" {
            assert_eq!(
                issue["checkId"],
                "sep-2575-server-identifies-in-result-meta"
            );
        }
    }
}

#[test]
fn a_conformant_modern_server_passes_both_modern_probes() {
    let run = fake(
        "modern",
        &["--adversarial-probes", "missing-meta,unsupported-version"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let probes = run.json()["adversarial"]["probes"].clone();
    let statuses: Vec<&str> = probes
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| p["status"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(statuses, ["pass", "pass"], "{probes}");
}

/// The unsupported-version probe's own process goes through the same
/// runner as the judged run: its frames are in the transcript, marked
/// with its session.
#[test]
fn the_unsupported_version_probe_session_is_in_the_transcript() {
    let dir = temp_dir(&marker("version-probe-transcript"));
    let file = dir.join("t.jsonl");
    let run = fake(
        "modern",
        &[
            "--adversarial-probes",
            "unsupported-version",
            "--transcript",
            &file.to_string_lossy(),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let text = std::fs::read_to_string(&file).expect("transcript");
    let probe: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"))
        .filter(|l| l["session"] == "unsupported-version probe")
        .collect();
    assert!(
        probe.iter().any(|l| l["event"] == "spawn"),
        "its spawn: {text}"
    );
    assert!(
        probe.iter().any(|l| l["direction"] == "out"
            && l["text"]
                .as_str()
                .is_some_and(|t| t.contains("protocolVersion"))),
        "the request it sent: {text}"
    );
    assert!(
        probe.iter().any(|l| l["direction"] == "in"),
        "the answer: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
