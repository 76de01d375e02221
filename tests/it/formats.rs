//! The CI formats, each checked against its consumer's rules: JUnit XML
//! against the common junit.xsd's required structure, SARIF against the
//! 2.1.0 schema's required properties, GitHub workflow commands and the
//! step summary in a GitHub-style run (environment variables set), and the
//! conformance suite's per-check records.

use std::process::Command;

use serde_json::Value;

use crate::util::{
    DEADLINE, assert_no_survivors, fake_server, guard, marker, run_with_deadline, temp_dir,
};

/// Runs the guard on a fake scenario with `args`, GitHub's environment
/// variables optionally set; returns (exit code, stdout, stderr).
fn guard_on(scenario: &str, args: &[&str], github: Option<&std::path::Path>) -> crate::util::Run {
    let m = marker(scenario);
    let mut cmd = Command::new(guard());
    cmd.env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY");
    if let Some(summary) = github {
        cmd.env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", summary);
    }
    cmd.args(args)
        .arg("--")
        .arg(fake_server())
        .args([scenario, &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    run
}

/// Every `<name ...>` / `</name>` / `<name .../>` of a document, checked
/// for balance (a well-formedness check of the elements, enough for the
/// writer's flat output); returns the opening tags with their attributes.
fn elements(xml: &str) -> Vec<(String, String)> {
    let mut stack: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unclosed tag") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "unbalanced </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        assert!(!attrs.contains('<'), "a raw < in {attrs}");
        for (at, _) in attrs.match_indices('&') {
            let entities = ["&amp;", "&quot;", "&lt;", "&gt;", "&apos;"];
            assert!(
                entities.iter().any(|e| attrs[at..].starts_with(e)),
                "a raw & in {attrs}"
            );
        }
        out.push((name.to_string(), attrs.to_string()));
        if !self_closing {
            stack.push(name.to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    out
}

fn attr(attrs: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let at = attrs.find(&key)? + key.len();
    Some(attrs[at..at + attrs[at..].find('"')?].to_string())
}

#[test]
fn junit_has_the_structure_of_the_common_junit_xsd() {
    let dir = temp_dir("junit");
    let file = dir.join("report.xml");
    let run = guard_on("banner", &["--junit", &file.to_string_lossy()], None);
    assert_eq!(run.code, Some(1));
    let xml = std::fs::read_to_string(&file).expect("junit file");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    let els = elements(&xml);
    assert_eq!(els[0].0, "testsuites");
    assert_eq!(els[1].0, "testsuite");
    let suite = &els[1].1;
    for required in ["name", "tests", "failures", "errors", "skipped", "time"] {
        assert!(
            attr(suite, required).is_some(),
            "testsuite lacks {required}"
        );
    }
    let cases: Vec<&(String, String)> = els.iter().filter(|(n, _)| n == "testcase").collect();
    assert_eq!(attr(suite, "tests"), Some(cases.len().to_string()));
    for (_, a) in &cases {
        assert!(
            attr(a, "name").is_some() && attr(a, "classname").is_some(),
            "{a}"
        );
    }
    let count = |n: &str| els.iter().filter(|(e, _)| e == n).count().to_string();
    assert_eq!(attr(suite, "failures"), Some(count("failure")));
    assert_eq!(attr(suite, "skipped"), Some(count("skipped")));
    assert!(xml.contains("type=\"stdout-non-json\""), "{xml}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sarif_has_the_required_properties_of_sarif_2_1_0() {
    let dir = temp_dir("sarif");
    let file = dir.join("report.sarif");
    let scan = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/scan");
    let _ = guard_on(
        "banner",
        &["--sarif", &file.to_string_lossy(), "--scan", scan],
        None,
    );
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("sarif")).expect("JSON");
    assert_eq!(s["version"], "2.1.0");
    let runs = s["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["tool"]["driver"]["name"], "mcp-stdio-guard");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    for r in rules {
        assert!(
            r["id"].is_string() && r["shortDescription"]["text"].is_string(),
            "{r}"
        );
        assert!(
            r["help"]["text"].is_string() && r["properties"]["rule"].is_string(),
            "{r}"
        );
    }
    let results = run["results"].as_array().expect("results");
    assert!(results.len() > 2);
    let mut regions = 0;
    for res in results {
        assert!(
            res["message"]["text"].is_string(),
            "message.text is required: {res}"
        );
        let i = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[i]["id"], res["ruleId"]);
        assert!(matches!(
            res["level"].as_str(),
            Some("error" | "warning" | "note" | "none")
        ));
        let loc = &res["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].is_string(), "{res}");
        if let Some(line) = loc["region"]["startLine"].as_u64() {
            assert!(line >= 1);
            regions += 1;
        }
    }
    assert!(regions > 0, "static findings carry regions");
    assert!(results.iter().any(|r| r["ruleId"] == "stdout-non-json"
        && r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].is_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_github_style_run_writes_workflow_commands_and_the_step_summary() {
    let dir = temp_dir("github");
    let summary = dir.join("summary.md");
    let run = guard_on("banner", &["--json"], Some(&summary));
    assert_eq!(run.code, Some(1));
    // stdout stays a clean JSON report; the commands are on stderr.
    assert_eq!(run.json()["ok"], false);
    assert!(
        run.stderr.contains(
            "::error title=mcp-stdio-guard stdout-non-json::stdout line 1 is not JSON-RPC"
        ),
        "{}",
        run.stderr
    );
    let md = std::fs::read_to_string(&summary).expect("summary");
    assert!(md.starts_with("### mcp-stdio-guard: FAIL"), "{md}");
    assert!(md.contains("| error | `stdout-non-json` |"), "{md}");
    // --annotations none wins over the environment.
    let quiet = guard_on(
        "banner",
        &["--annotations", "none"],
        Some(&dir.join("other.md")),
    );
    assert!(!quiet.stderr.contains("::error"));
    assert!(!dir.join("other.md").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checks_json_uses_the_official_ids_and_skips_what_does_not_apply() {
    let dir = temp_dir("checks-json");
    let file = dir.join("checks.json");
    let run = guard_on("ok", &["--checks-json", &file.to_string_lossy()], None);
    assert_eq!(run.code, Some(0));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("file")).expect("JSON");
    let recs = v.as_array().expect("records");
    for r in recs {
        for k in [
            "id",
            "name",
            "description",
            "status",
            "timestamp",
            "specReferences",
            "details",
        ] {
            assert!(r.get(k).is_some(), "{k} missing: {r}");
        }
        assert!(matches!(
            r["status"].as_str(),
            Some("SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO")
        ));
    }
    let status = |id: &str| {
        recs.iter()
            .find(|r| r["id"] == id)
            .map(|r| r["status"].as_str().unwrap_or("").to_string())
    };
    assert_eq!(status("server-initialize").as_deref(), Some("SUCCESS"));
    assert_eq!(status("tools-list").as_deref(), Some("SUCCESS"));
    // A 2025-era server: the 2026-07-28 checks are SKIPPED, not FAILURE.
    assert_eq!(
        status("sep-2575-server-implements-discover").as_deref(),
        Some("SKIPPED")
    );
    assert_eq!(status("mcp-stdio-guard/stdout").as_deref(), Some("SUCCESS"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The records of a check of `scenario` written with `--checks-json`.
fn records_of(scenario: &str, extra: &[&str]) -> (crate::util::Run, Vec<Value>) {
    let dir = temp_dir(&format!("records-{}", marker(scenario)));
    let file = dir.join("checks.json");
    let mut args = vec!["--checks-json", file.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let run = guard_on(scenario, &args, None);
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("file")).expect("JSON");
    let _ = std::fs::remove_dir_all(&dir);
    (run, v.as_array().cloned().unwrap_or_default())
}

#[test]
fn every_official_id_the_guard_emits_has_a_record_with_the_suites_name_and_spec_references() {
    let (_, recs) = records_of("modern", &[]);
    for o in mcp_stdio_guard::verdict::catalog::OFFICIAL {
        let r = recs
            .iter()
            .find(|r| r["id"] == o.id)
            .unwrap_or_else(|| panic!("no record for {}", o.id));
        assert_eq!(r["name"], o.name, "{r}");
        let refs = r["specReferences"].as_array().expect("refs");
        assert!(
            !refs.is_empty()
                && refs
                    .iter()
                    .all(|s| s["id"].is_string() && s["url"].is_string()),
            "{r}"
        );
    }
    // The four caching-hint ids of the lists the server does not offer are
    // SKIPPED with the reason, never FAILURE.
    for id in [
        "sep-2549-prompts-list-caching-hints",
        "sep-2549-resources-list-caching-hints",
        "sep-2549-resources-templates-list-caching-hints",
        "sep-2549-resources-read-caching-hints",
    ] {
        let r = recs.iter().find(|r| r["id"] == id).expect(id);
        assert_eq!(r["status"], "SKIPPED", "{r}");
        assert!(r["details"]["reason"].is_string(), "{r}");
    }
    let tools = recs
        .iter()
        .find(|r| r["id"] == "sep-2549-tools-list-caching-hints")
        .expect("tools");
    assert_eq!(tools["status"], "SUCCESS", "{tools}");
}

#[test]
fn a_failed_official_check_carries_its_error_message_and_counts_once() {
    let (_, recs) = records_of("modern-bad-cache-hints", &[]);
    let ttl = recs
        .iter()
        .find(|r| r["id"] == "sep-2549-ttl-non-negative")
        .expect("ttl");
    assert_eq!(ttl["status"], "FAILURE", "{ttl}");
    assert!(
        ttl["errorMessage"].as_str().unwrap_or("").contains("ttlMs"),
        "{ttl}"
    );
    // The guard's own capabilities record does not count it a second time.
    let own = recs
        .iter()
        .find(|r| r["id"] == "mcp-stdio-guard/capabilities")
        .expect("own");
    let codes = own["details"]["issueCodes"].as_array().expect("codes");
    assert!(
        !codes.iter().any(|c| c == "modern-cache-hints-invalid"),
        "{own}"
    );
}

/// Writes a baseline file and returns its path.
fn baseline(text: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = temp_dir(&format!("baseline-{}", marker("b")));
    let file = dir.join("baseline.yml");
    std::fs::write(&file, text).expect("write");
    (dir, file)
}

#[test]
fn an_expected_failures_baseline_passes_known_failures_and_fails_new_ones_and_stale_entries() {
    // modern-no-server-info fails one SHOULD check (a WARNING, which the
    // suite counts as failed under a baseline).
    let cases = [
        (
            "server:\n  - server-stateless:sep-2575-server-identifies-in-result-meta\n",
            "modern-no-server-info",
            0,
            "1 expected, 0 unexpected, 0 stale",
        ),
        (
            "server:\n  - server-stateless\n",
            "modern-no-server-info",
            0,
            "1 expected",
        ),
        (
            "server:\n  - caching:sep-2549-ttl-non-negative\n",
            "modern-no-server-info",
            1,
            "unexpected (not in the baseline): server-stateless:sep-2575-server-identifies-in-result-meta",
        ),
        (
            "server:\n  - server-stateless:sep-2575-server-identifies-in-result-meta\n",
            "modern",
            1,
            "stale (now passing: remove from the baseline): server-stateless:sep-2575-server-identifies-in-result-meta",
        ),
        (
            "server:\n  - tools-call-simple-text\n",
            "modern",
            0,
            "ignored (not checked by the guard): tools-call-simple-text",
        ),
    ];
    for (text, scenario, code, says) in cases {
        let (dir, file) = baseline(text);
        let m = marker(scenario);
        let mut cmd = Command::new(guard());
        cmd.arg("--expected-failures")
            .arg(&file)
            .arg("--")
            .arg(fake_server())
            .args([scenario, &m]);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        assert_eq!(run.code, Some(code), "{text} on {scenario}: {}", run.stdout);
        assert!(
            run.stdout.contains(says),
            "{text} on {scenario}: {}",
            run.stdout
        );
        let head = if code == 0 { "PASS" } else { "FAIL" };
        assert!(run.stdout.starts_with(head), "{}", run.stdout);
        let _ = std::fs::remove_dir_all(&dir);
    }
    // A baseline the suite would refuse is refused before anything starts.
    let (dir, file) = baseline("server:\n  - caching: sep-2549-ttl-non-negative\n");
    let mut cmd = Command::new(guard());
    cmd.arg("--expected-failures")
        .arg(&file)
        .args(["--", "touch"])
        .arg(dir.join("spawned"));
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("Remove the space after the colon"),
        "{}",
        run.stderr
    );
    assert!(!dir.join("spawned").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn junit_leaves_skipped_checks_out_unless_asked() {
    let dir = temp_dir("junit-skipped");
    let (lean, full) = (dir.join("lean.xml"), dir.join("full.xml"));
    guard_on("banner", &["--junit", &lean.to_string_lossy()], None);
    let xml = std::fs::read_to_string(&lean).expect("junit");
    assert!(!xml.contains("<skipped"), "{xml}");
    let suite = elements(&xml)[1].1.clone();
    assert_eq!(attr(&suite, "skipped").as_deref(), Some("0"), "{suite}");
    let args = ["--junit", &full.to_string_lossy(), "--junit-skipped"];
    guard_on("banner", &args, None);
    let xml = std::fs::read_to_string(&full).expect("junit");
    let els = elements(&xml);
    let skipped = els.iter().filter(|(e, _)| e == "skipped").count();
    assert!(
        skipped >= 4,
        "adversarial, staticScan, against, robustness …: {xml}"
    );
    assert_eq!(attr(&els[1].1, "skipped"), Some(skipped.to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_step_summary_has_the_score_the_fixes_the_date_and_the_version() {
    let dir = temp_dir("summary-score");
    let summary = dir.join("summary.md");
    let run = guard_on("banner", &["--json"], Some(&summary));
    let score = run.json()["score"].clone();
    let md = std::fs::read_to_string(&summary).expect("summary");
    let head = format!(
        "### mcp-stdio-guard: FAIL, score {}/100 ({})",
        score["value"],
        score["grade"].as_str().unwrap_or("?")
    );
    assert!(md.starts_with(&head), "{md}");
    assert!(
        md.contains("- `stdout-non-json`: write only JSON-RPC messages to stdout"),
        "{md}"
    );
    let stamp = format!(" by mcp-stdio-guard {}.", env!("CARGO_PKG_VERSION"));
    let line = md
        .lines()
        .find(|l| l.starts_with("Checked 20"))
        .unwrap_or("");
    assert!(line.ends_with(&stamp) && line.contains("+00:00"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_card_dates_itself_folds_skipped_checks_and_says_how_to_fix() {
    let dir = temp_dir("card");
    let card = dir.join("card.html");
    guard_on("banner", &["--html", &card.to_string_lossy()], None);
    let html = std::fs::read_to_string(&card).expect("card");
    assert!(html.contains("<dt>Checked</dt><dd>20"), "the run date");
    let version = format!("<dd>mcp-stdio-guard {}</dd>", env!("CARGO_PKG_VERSION"));
    assert!(html.contains(&version), "the guard version");
    assert!(
        !html.contains("verdict skipped\">skipped"),
        "no skipped rows"
    );
    assert_eq!(html.matches("<p>Skipped: ").count(), 1, "one folded line");
    assert!(html.contains("staticScan (no --scan path was given)"));
    assert!(html.contains("<h2>How to fix</h2>"));
    assert!(html.contains("<code>stdout-non-json</code></td><td>write only JSON-RPC"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_never_started_is_not_reached_rather_than_passed() {
    let dir = temp_dir("not-started");
    let card = dir.join("card.html");
    let mut cmd = Command::new(guard());
    cmd.args(["--json", "--html", &card.to_string_lossy(), "--"])
        .arg(dir.join("no-such-server"));
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(1));
    let checks = &run.json()["checks"];
    for name in [
        "stdout",
        "jsonRpc",
        "pythonBuffering",
        "operation",
        "capabilities",
    ] {
        assert_eq!(checks[name]["status"], "skipped", "{name}: {checks}");
        assert_eq!(
            checks[name]["reason"], "not reached: the server never started",
            "{name}"
        );
    }
    assert_eq!(checks["initialize"]["status"], "fail");
    let html = std::fs::read_to_string(&card).expect("card");
    assert!(
        !html.contains("verdict pass\">pass"),
        "nothing passes: {html}"
    );
    assert!(html.contains("(not reached: the server never started)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sarif_points_runtime_issues_at_the_servers_script_and_package() {
    let dir = temp_dir("sarif-script");
    let script = dir.join("my server.py");
    std::fs::write(&script, "print('hello from a banner')\n").expect("script");
    let file = dir.join("r.sarif");
    let mut cmd = Command::new(guard());
    cmd.args(["--sarif", &file.to_string_lossy(), "--", "python3", "-u"])
        .arg(&script);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_eq!(run.code, Some(1), "python3 runs the script: {}", run.stderr);
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("sarif")).expect("JSON");
    let uri =
        s["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or("")
            .to_string();
    let want = format!("file://{}", script.display()).replace(' ', "%20");
    assert_eq!(uri, want, "the script, not the interpreter");
    let mut cmd = Command::new(guard());
    cmd.args(["--sarif", &file.to_string_lossy(), "--", "python3", "-m"])
        .arg("no_such_module_for_the_guard");
    let _ = run_with_deadline(cmd, DEADLINE);
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("sarif")).expect("JSON");
    let logical = &s["runs"][0]["results"][0]["locations"][0]["logicalLocations"];
    assert_eq!(
        logical[1]["name"], "no_such_module_for_the_guard",
        "{logical}"
    );
    assert_eq!(logical[1]["kind"], "package");
    let _ = std::fs::remove_dir_all(&dir);
}
