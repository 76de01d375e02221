//! `--robustness`: every tool called with input its schema rejects (and
//! tools safe to run with valid input), on fake servers that crash, hang,
//! answer -32603, accept anything, break their outputSchema, carry a
//! destructive tool, or contradict their annotations; each finding named
//! with its replay command, a destructive tool never called without
//! `--allow-side-effects`, the budget and the seed kept.

use serde_json::Value;

use crate::util::{DEADLINE, Run, check_fake, peak_rss, temp_dir};

fn robust(scenario: &str, extra: &[&str]) -> Run {
    let mut args = vec!["--robustness", "--json", "--timeout", "1500"];
    args.extend_from_slice(extra);
    check_fake(scenario, &args, DEADLINE)
}

fn codes(run: &Run) -> Vec<(String, String)> {
    run.json()["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .map(|i| {
            (
                i["code"].as_str().unwrap_or("").to_string(),
                i["severity"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pair(code: &str, severity: &str) -> (String, String) {
    (code.to_string(), severity.to_string())
}

#[test]
fn a_server_that_validates_its_input_passes_and_its_destructive_tool_is_never_called() {
    let dir = temp_dir("robust-ok");
    let marker = dir.join("deleted");
    let env = format!("FAKE_DESTROY_MARKER={}", marker.display());
    let run = robust("robust-ok", &["--env", &env]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(codes(&run), []);
    let j = run.json();
    assert_eq!(j["checks"]["robustness"]["status"], "pass");
    let rb = &j["robustness"];
    assert_eq!(rb["seed"], 1);
    let lookup = rb["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "lookup"))
        .expect("lookup's line");
    assert!(
        lookup["invalidCalls"].as_u64().is_some_and(|n| n >= 6),
        "{lookup}"
    );
    assert_eq!(lookup["refusedAsExpected"], lookup["invalidCalls"]);
    assert_eq!(lookup["validCalls"], 4, "read-only: valid calls too");
    assert!(
        rb["notCalled"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n["tool"] == "delete_file")),
        "{rb}"
    );
    assert!(!marker.exists(), "the destructive tool was called");
    // With --allow-side-effects it is called, and the marker appears.
    let run = robust("robust-ok", &["--env", &env, "--allow-side-effects"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(marker.exists(), "--allow-side-effects calls every tool");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_on_bad_input_is_named_with_its_replay_and_the_phase_goes_on() {
    let run = robust("robust-crash", &[]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert_eq!(codes(&run), [pair("tool-invalid-input-crash", "error")]);
    let crash = run.issue("tool-invalid-input-crash");
    assert_eq!(crash["toolName"], "lookup");
    assert_eq!(
        crash["calls"], 3,
        "three crashes, then no more calls: {crash}"
    );
    let replay = crash["replay"].as_str().unwrap_or("");
    assert!(
        replay.starts_with("mcp-stdio-guard call lookup --raw-args ") && replay.contains(" -- "),
        "{replay}"
    );
    assert!(
        crash["answer"]
            .as_str()
            .is_some_and(|a| a.contains("TypeError: city.toLowerCase")),
        "the crash quotes its cause: {crash}"
    );
    let rb = &run.json()["robustness"];
    assert_eq!(rb["restarts"], 3, "{rb}");
    // The unknown tool's call, after the crashes, was still made.
    let unknown = rb["tools"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|t| t["name"] == "mcp-stdio-guard-no-such-tool")
        })
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(unknown["refusedAsExpected"], 1, "{rb}");
}

#[test]
fn a_hang_an_internal_error_and_a_lenient_tool_are_told_apart() {
    let hang = robust("robust-hang", &[]);
    assert_eq!(codes(&hang), [pair("tool-invalid-input-timeout", "error")]);
    let internal = robust("robust-internal", &[]);
    assert_eq!(
        codes(&internal),
        [pair("tool-invalid-input-internal-error", "warning")]
    );
    let lenient = robust("robust-lenient", &[]);
    assert_eq!(
        codes(&lenient),
        [pair("tool-invalid-input-accepted", "warning")]
    );
    let strict = robust(
        "robust-lenient",
        &["--profile", "strict", "--era", "legacy"],
    );
    assert!(
        codes(&strict).contains(&pair("tool-invalid-input-accepted", "error")),
        "strict: {:?}",
        codes(&strict)
    );
}

#[test]
fn valid_input_must_get_results_that_fit_the_output_schema() {
    let run = robust("robust-bad-structured", &[]);
    assert_eq!(
        codes(&run),
        [pair("tool-call-structured-content-invalid", "error")]
    );
    let crash = robust("robust-valid-crash", &[]);
    assert_eq!(codes(&crash), [pair("tool-call-crash", "error")]);
}

#[test]
fn contradicting_annotations_are_a_warning() {
    let run = robust("robust-contradict", &[]);
    assert!(
        codes(&run).contains(&pair("tool-annotations-contradict", "warning")),
        "{:?}",
        codes(&run)
    );
}

#[test]
fn the_budget_cuts_the_phase_and_says_what_it_left() {
    // 1.5 s timeouts against a 1 s budget: the first call's wait spends it.
    let run = check_fake(
        "robust-hang",
        &[
            "--robustness",
            "--json",
            "--timeout",
            "1500",
            "--robustness-budget",
            "1000",
        ],
        DEADLINE,
    );
    let rb = &run.json()["robustness"];
    assert!(
        rb["durationMs"].as_u64().is_some_and(|ms| ms < 4000),
        "{rb}"
    );
    let left: Vec<&str> = rb["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["notSent"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert!(
        left.iter()
            .any(|w| w.contains("budget") || w.contains("timed out")),
        "{rb}"
    );
}

#[test]
fn the_seed_makes_the_calls_repeatable_and_the_text_report_has_a_table() {
    let a = robust("robust-ok", &["--seed", "7"]);
    let b = robust("robust-ok", &["--seed", "7"]);
    let sent = |r: &Run| -> Vec<String> {
        r.json()["frames"]
            .as_array()
            .map(|f| f.iter().map(|x| x.to_string()).collect())
            .unwrap_or_default()
    };
    assert_eq!(a.json()["robustness"]["seed"], 7);
    assert_eq!(sent(&a), sent(&b));
    let text = check_fake(
        "robust-internal",
        &["--robustness", "--timeout", "1500"],
        DEADLINE,
    );
    assert!(
        text.stdout.contains("robustness: ") && text.stdout.contains("bad input  refused"),
        "{}",
        text.stdout
    );
}

#[test]
fn junit_has_a_testcase_per_tool_the_phase_called() {
    let dir = temp_dir("robust-junit");
    let junit = dir.join("junit.xml");
    let run = check_fake(
        "robust-crash",
        &[
            "--robustness",
            "--timeout",
            "1500",
            "--junit",
            &junit.display().to_string(),
        ],
        DEADLINE,
    );
    assert_eq!(run.code, Some(1));
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(xml.contains("name=\"robustness: lookup\""), "{xml}");
    assert!(xml.contains("tool-invalid-input-crash"), "{xml}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tool_answering_100_mb_is_cut_at_the_stdout_limits() {
    let (kib, code, _) = peak_rss(
        &[
            "check",
            "--robustness",
            "--timeout",
            "20000",
            "--json",
            "--",
        ],
        &["robust-big"],
    );
    assert_eq!(code, 1, "the oversized line is a finding");
    let run = check_fake(
        "robust-big",
        &["--robustness", "--json", "--timeout", "20000"],
        DEADLINE,
    );
    let big = run.issue("stdout-line-too-large");
    assert_eq!(big["phase"], "robustness", "{big}");
    assert!(kib < 96 * 1024, "peak {kib} KiB");
}

/// The words of a replay command as a POSIX shell splits them (the probe
/// quotes with single quotes only).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if !quoted => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            _ => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn every_printed_replay_sends_the_same_request_and_meets_the_same_answer() {
    let mut replayed = 0;
    for scenario in [
        "robust-valid-crash",
        "robust-internal",
        "robust-lenient",
        "robust-bad-structured",
    ] {
        let run = robust(scenario, &[]);
        let issues = run.json()["issues"].as_array().cloned().unwrap_or_default();
        for issue in issues.iter().filter(|i| i["replay"].is_string()) {
            let code = issue["code"].as_str().unwrap_or("");
            let words = shell_words(issue["replay"].as_str().unwrap_or(""));
            assert_eq!(words[0], "mcp-stdio-guard", "{words:?}");
            let mut cmd = std::process::Command::new(crate::util::guard());
            cmd.arg("--json").args(&words[1..]);
            let again = crate::util::run_with_deadline(cmd, DEADLINE);
            assert_ne!(
                again.code,
                Some(2),
                "{code}: the replay runs: {}",
                again.stderr
            );
            let got: Vec<String> = again.json()["issues"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|i| i["code"].as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let has = |c: &str| got.iter().any(|g| g == c);
            let same = match code {
                "tool-invalid-input-crash" | "tool-call-crash" => {
                    has("server-crashed") || has("operation-missing-response")
                }
                "tool-invalid-input-timeout" | "tool-call-timeout" => has("operation-timeout"),
                "tool-invalid-input-internal-error" | "tool-call-internal-error" => {
                    has("operation-error")
                }
                "tool-invalid-input-accepted" => !has("operation-error") && !has("tool-call-error"),
                other => has(other),
            };
            assert!(same, "{scenario}: {code}: the replay met {got:?}");
            replayed += 1;
        }
    }
    assert!(
        replayed >= 4,
        "the scenarios' findings were replayed ({replayed})"
    );
}

#[test]
fn the_transcript_holds_every_frame_of_every_probe_session() {
    let dir = temp_dir(&crate::util::marker("robust-transcript"));
    let file = dir.join("t.jsonl");
    // A crash on bad input: the phase restarts the server, so it has
    // several sessions.
    let run = robust("robust-crash", &["--transcript", &file.to_string_lossy()]);
    let rb = run.json()["robustness"].clone();
    let lines: Vec<Value> = std::fs::read_to_string(&file)
        .expect("transcript")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let mut sessions: Vec<&str> = lines.iter().filter_map(|l| l["session"].as_str()).collect();
    sessions.dedup();
    assert_eq!(
        sessions.len() as u64,
        rb["sessions"].as_u64().unwrap_or(0),
        "{sessions:?}"
    );
    let calls = lines
        .iter()
        .filter(|l| l["session"].is_string() && l["direction"] == "out" && l["tool"].is_string())
        .count() as u64;
    assert_eq!(
        calls,
        rb["callsSent"].as_u64().unwrap_or(0),
        "every probe call is in it"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["session"].is_string() && l["stream"] == "stderr"),
        "the crashes' stderr too"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["session"].is_null() && l["direction"] == "out"),
        "and the check's own session"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tool that takes longer than `--timeout` by design, reporting its
/// progress, is waited for while progress comes: no finding; its valid
/// calls' latency shows the time it took.
#[test]
fn a_slow_tool_that_streams_progress_is_waited_for() {
    let run = robust("robust-progress", &["--timeout", "1000"]);
    assert_eq!(
        codes(&run),
        Vec::<(String, String)>::new(),
        "{}",
        run.stdout
    );
    let tools = run.json()["robustness"]["tools"].clone();
    let lookup = tools
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "lookup")
        .expect("lookup")
        .clone();
    assert!(
        lookup["latencyP50Ms"].as_u64().unwrap_or(0) >= 2000,
        "{lookup}"
    );
}
