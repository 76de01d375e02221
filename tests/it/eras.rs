//! Both protocol eras against fake servers: how `--era auto` finds the era
//! (a DiscoverResult, a -32022, an error, silence, an exit), `--era both`,
//! `--era modern` and `--era legacy`, and each 2026-07-28 rule failing with
//! its own code.

use std::time::Instant;

use crate::util::{Run, expect, fake};

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

#[test]
fn a_legacy_server_silent_before_initialize_costs_at_most_the_window() {
    let started = Instant::now();
    let run = fake("legacy-silent-probe", &["--era-window", "300"]);
    let took = started.elapsed();
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "legacy");
    assert_eq!(e["probe"]["outcome"], "silence");
    assert_eq!(e["freshProcess"], false);
    // The window and the shutdown, not the 3 s request timeout.
    assert!(took.as_millis() < 2500, "{took:?}");
    assert!(run.codes().is_empty(), "{:?}", run.codes());
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
fn a_slow_modern_starter_is_not_misjudged() {
    let run = fake("modern-slow", &["--era-window", "300"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let e = era(&run);
    assert_eq!(e["detected"], "dual", "{e}");
    assert_eq!(e["speaks"], "modern");
    // initialize went out on the first process: judged on a fresh one.
    assert_eq!(e["freshProcess"], true);
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
