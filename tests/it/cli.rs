//! The command line and the report contract, end to end: usage errors exit
//! 2 before anything starts, the demo, help, the JSON key order, colour,
//! redaction of secrets, and the environment allow-list.

use std::process::Command;
use std::time::Duration;

use crate::util::{check_fake, guard, run_with_deadline};

const DEADLINE: Duration = Duration::from_secs(15);

fn guard_run(args: &[&str]) -> crate::util::Run {
    let mut cmd = Command::new(guard());
    cmd.args(args);
    run_with_deadline(cmd, DEADLINE)
}

#[test]
fn bad_input_exits_2_with_one_line_and_starts_nothing() {
    let dir = std::env::temp_dir().join(crate::util::marker("usage"));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let witness = dir.join("spawned");
    let witness = witness.to_str().expect("utf-8 path");
    let cases: &[&[&str]] = &[
        &["--bogus"],
        &["--timeout", "50"],
        &["--timeout", "soon"],
        &["--params", "{}"],
        &["--request", "tools/list", "--params", "{oops"],
        &["--cwd", "/definitely/not/a/dir"],
        &["--color", "purple"],
        &["--max-stdout-bytes", "-1"],
        &["stray-positional"],
    ];
    for case in cases {
        let mut args: Vec<&str> = case.to_vec();
        args.extend(["--", "touch", witness]);
        let run = guard_run(&args);
        assert_eq!(run.code, Some(2), "{case:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{case:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{case:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("mcp-stdio-guard: error: "),
            "{}",
            run.stderr
        );
        assert!(
            !std::path::Path::new(witness).exists(),
            "{case:?} started the command"
        );
    }
    let run = guard_run(&["--json"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("missing server command"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_and_version_exit_0() {
    let run = guard_run(&["--help"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("--startup-timeout"));
    let run = guard_run(&["-V"]);
    assert_eq!(
        run.stdout,
        format!("mcp-stdio-guard {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn the_demo_passes_the_clean_server_and_fails_the_polluted_one() {
    let run = guard_run(&["demo"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("PASS MCP stdio guard"));
    assert!(run.stdout.contains("FAIL MCP stdio guard"));
    assert!(
        run.stdout
            .contains("[error] stdout-non-json: stdout line 1 is not JSON-RPC")
    );
    assert!(
        !run.stdout.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn the_text_report_opens_like_the_1_0_tool() {
    let run = check_fake("ok", &["--request", "tools/list"], DEADLINE);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "PASS MCP stdio guard",
            "initialize: ok",
            // The era probe's -32601 is the third frame.
            "frames: 3 stdout / 0 invalid",
            "stderr: 0 lines",
            "protocol: 2025-11-25",
            "request: tools/list responded",
        ]
    );
    let run = check_fake("ok", &["--color", "always"], DEADLINE);
    assert!(
        run.stdout.starts_with("\x1b[1;32mPASS MCP stdio guard"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_json_report_keeps_the_1_0_field_order_and_adds_at_the_end() {
    let run = check_fake("ok", &["--json"], DEADLINE);
    let j = run.json();
    let keys: Vec<&str> = j
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "schemaVersion",
            "ok",
            "config",
            "profile",
            "command",
            "protocol",
            "negotiatedProtocol",
            "initialized",
            "operation",
            "operations",
            "adversarial",
            "toolSchema",
            "capabilityProbes",
            "capabilityKeys",
            "capabilityChecks",
            "process",
            "checks",
            "issueClasses",
            "summary",
            "fingerprint",
            "issues",
            "staticScan",
            "staticFindings",
            "frames",
            "framesOmitted",
            "stderr",
            "durationMs",
            "environment",
            "era",
            "contextCost",
            "definitions",
            "score",
        ]
    );
    let checks: Vec<&str> = j["checks"]
        .as_object()
        .expect("checks")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        checks,
        [
            "initialize",
            "stdout",
            "jsonRpc",
            "operation",
            "capabilities",
            "toolSchema",
            "adversarial",
            "process",
            "pythonBuffering",
            "staticScan",
            "repeat",
            "against",
            "definitions",
            "robustness",
            "confinement",
        ]
    );
    assert_eq!(j["schemaVersion"], 1);
    assert_eq!(
        j["checks"]["toolSchema"]["checkIds"],
        serde_json::json!(["tools-list", "tools-name-format"])
    );
    assert_eq!(j["operation"], serde_json::Value::Null);
    assert_eq!(j["checks"]["operation"]["status"], "skipped");
    assert_eq!(j["summary"]["badge"]["color"], "brightgreen");
    assert_eq!(j["summary"]["display"], "verified");
    assert_eq!(j["environment"]["mode"], "allow-list");
    let fp: Vec<&str> = j["fingerprint"]
        .as_object()
        .expect("fp")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        fp,
        [
            "guard",
            "command",
            "cwd",
            "protocol",
            "config",
            "profile",
            "timeoutMs",
            "outputLimits",
            "repeat",
            "capabilityProbes",
            "adversarialProbes",
            "operation",
            "operations",
            "system",
            "runtimes",
            "package",
            "env",
            "staticScan",
            "timings",
            "era",
        ]
    );
}

#[test]
fn secrets_in_env_and_argv_never_reach_any_output() {
    let env_secret = "canary-env-7f3a9c";
    let argv_secret = "canary-argv-51e2d0";
    for format in [&["--json"][..], &[][..]] {
        let m = crate::util::marker("redact");
        let mut cmd = Command::new(guard());
        cmd.args(format)
            .args(["--env", &format!("API_TOKEN={env_secret}"), "--"])
            .arg(crate::util::fake_server())
            .args(["stderr-env", &m, "--token", argv_secret]);
        let run = run_with_deadline(cmd, DEADLINE);
        for text in [&run.stdout, &run.stderr] {
            assert!(!text.contains(env_secret), "env secret leaked:\n{text}");
            assert!(!text.contains(argv_secret), "argv secret leaked:\n{text}");
        }
        if !format.is_empty() {
            let j = run.json();
            let stderr = j["stderr"].as_str().expect("stderr");
            assert!(stderr.contains("env API_TOKEN=<redacted>"), "{stderr}");
            assert_eq!(j["fingerprint"]["env"]["values"]["API_TOKEN"], "<redacted>");
            assert!(
                j["command"]
                    .to_string()
                    .contains("\"--token\",\"<redacted>\"")
            );
        }
        crate::util::assert_no_survivors(&m);
    }
}

#[test]
fn the_server_gets_only_the_allow_list_unless_told_otherwise() {
    let m = crate::util::marker("env");
    let mut cmd = Command::new(guard());
    cmd.env("MCP_GUARD_LEAK_CHECK", "must-not-pass")
        .args(["--json", "--env", "MCP_GUARD_FORWARDED", "--"])
        .env("MCP_GUARD_FORWARDED", "yes-forwarded")
        .arg(crate::util::fake_server())
        .args(["stderr-env", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    let j = run.json();
    let stderr = j["stderr"].as_str().expect("stderr");
    assert!(!stderr.contains("MCP_GUARD_LEAK_CHECK"), "{stderr}");
    // A plain setting is forwarded and shown as it is: only secrets
    // (secret-named, or shaped like a credential) are scrubbed.
    assert!(
        stderr.contains("env MCP_GUARD_FORWARDED=yes-forwarded"),
        "{stderr}"
    );
    assert_eq!(
        j["environment"]["forwarded"],
        serde_json::json!(["MCP_GUARD_FORWARDED"])
    );

    let mut cmd = Command::new(guard());
    cmd.env("MCP_GUARD_LEAK_CHECK", "passes-when-inherited")
        .args(["--json", "--inherit-env", "--"])
        .arg(crate::util::fake_server())
        .args(["stderr-env", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    let j = run.json();
    assert!(
        j["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("MCP_GUARD_LEAK_CHECK=passes-when-inherited")
    );
    assert_eq!(j["environment"]["mode"], "inherit");

    // --env-clear: exactly the named variables, not even PATH.
    let mut cmd = Command::new(guard());
    cmd.args(["--json", "--env-clear", "--env", "ONLY_ME=here", "--"])
        .arg(crate::util::fake_server())
        .args(["stderr-env", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    let j = run.json();
    assert_eq!(j["environment"]["mode"], "clear");
    assert_eq!(j["environment"]["names"], serde_json::json!(["ONLY_ME"]));
    let stderr = j["stderr"].as_str().unwrap_or("");
    assert!(!stderr.contains("env PATH="), "{stderr}");
    crate::util::assert_no_survivors(&m);
}

#[test]
fn credentials_given_to_the_guard_are_refused_with_the_reason() {
    for flag in ["--token", "--auth", "--header", "-H"] {
        let run = guard_run(&[flag, "secret-value", "--", "true"]);
        assert_eq!(run.code, Some(2), "{flag}");
        assert!(
            run.stderr.contains("a stdio pipe carries no credential")
                && run.stderr.contains("--env NAME=VALUE"),
            "{flag}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("secret-value"));
    }
    let run = guard_run(&["--inherit-env", "--env-clear", "--", "true"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("contradict"), "{}", run.stderr);
}

#[test]
fn the_manual_documents_every_issue_code() {
    let readme = crate::util::manual();
    let run = guard_run(&["help", "codes"]);
    assert_eq!(run.code, Some(0));
    for line in run.stdout.lines().skip(1) {
        let mut cols = line.split('\t');
        let (code, class, severity, rule) = (cols.next(), cols.next(), cols.next(), cols.next());
        let row = format!(
            "| `{}` | {} | {} | {} |",
            code.expect("code"),
            class.expect("class"),
            severity.expect("severity"),
            rule.expect("rule")
        );
        assert!(readme.contains(&row), "docs/ lacks the row starting {row}");
    }
}

#[test]
fn the_manual_documents_every_option_of_the_help() {
    let readme = crate::util::manual();
    for s in mcp_stdio_guard::args::settings::SETTINGS {
        if let Some(long) = s.long {
            assert!(
                readme.contains(&format!("`--{long}")),
                "docs/ does not document --{long}"
            );
        }
        if let Some(key) = s.key.filter(|k| *k != "$schema") {
            assert!(
                readme.contains(&format!("`{key}`")),
                "docs/ does not document the config field {key}"
            );
        }
    }
}

#[test]
fn help_codes_names_only_flags_that_exist() {
    let run = guard_run(&["help", "codes"]);
    assert_eq!(run.code, Some(0));
    let longs: Vec<&str> = mcp_stdio_guard::args::settings::SETTINGS
        .iter()
        .filter_map(|s| s.long)
        .collect();
    for word in run
        .stdout
        .split(|c: char| c.is_whitespace() || c == ',' || c == ')' || c == '(')
    {
        if let Some(flag) = word.strip_prefix("--") {
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            assert!(
                flag.is_empty() || longs.contains(&flag),
                "help codes names --{flag}, which is no flag"
            );
        }
    }
}

#[test]
fn the_fingerprint_names_the_program_found_on_path() {
    let m = crate::util::marker("resolved");
    let server = crate::util::fake_server();
    let dir = server.parent().expect("examples dir").to_path_buf();
    let name = server.file_name().expect("name").to_os_string();
    let path = std::env::join_paths(std::iter::once(dir.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let mut cmd = Command::new(guard());
    cmd.env("PATH", path)
        .args(["--json", "--"])
        .arg(&name)
        .args(["ok", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    let j = run.json();
    let command = &j["fingerprint"]["command"];
    assert_eq!(command["executable"], name.to_string_lossy().as_ref());
    let resolved = command["resolved"].as_str().expect("resolved path");
    assert_eq!(
        std::fs::canonicalize(resolved).ok(),
        std::fs::canonicalize(&server).ok(),
        "{command}"
    );
    crate::util::assert_no_survivors(&m);
}

#[test]
fn dash_h_is_a_summary_and_dash_dash_help_the_whole_list() {
    let short = guard_run(&["-h"]);
    let long = guard_run(&["--help"]);
    assert_eq!((short.code, long.code), (Some(0), Some(0)));
    let (s, l) = (short.stdout.lines().count(), long.stdout.lines().count());
    assert!(
        s * 3 < l,
        "-h ({s} lines) is a summary of --help ({l} lines)"
    );
    assert!(
        short.stdout.contains("--help lists all"),
        "{}",
        short.stdout
    );
    let bench = guard_run(&["bench", "-h"]);
    assert_eq!(bench.code, Some(0));
    assert!(bench.stdout.contains("bench"), "{}", bench.stdout);
}

#[test]
fn help_of_an_unknown_topic_exits_2_with_the_topics() {
    let run = guard_run(&["help", "nosuch"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("'nosuch'")
            && run
                .stderr
                .contains("bench, batch, servers, doctor, wrap, log, scan"),
        "{}",
        run.stderr
    );
}

#[test]
fn global_options_may_come_before_the_subcommand() {
    let m = crate::util::marker("global-first");
    let run = check_fake_marked_at(&["--json", "tools"], "ok", &m);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("tools --json");
    assert!(report.is_object(), "{report}");
    let run = guard_run(&["--color", "always", "demo"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("\x1b["), "colour was asked for");
}

/// The guard with `args` (a subcommand among them) against a scenario.
fn check_fake_marked_at(args: &[&str], scenario: &str, m: &str) -> crate::util::Run {
    let mut cmd = Command::new(guard());
    cmd.args(args)
        .arg("--")
        .arg(crate::util::fake_server())
        .arg(scenario)
        .arg(m);
    let run = run_with_deadline(cmd, DEADLINE);
    crate::util::assert_no_survivors(m);
    run
}

#[test]
fn counts_of_one_are_singular() {
    let m = crate::util::marker("plural");
    let run = check_fake_marked_at(&["--request", "tools/list"], "banner", &m);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stdout.contains("1 item") && run.stdout.contains("(1 tool,"),
        "{}",
        run.stdout
    );
    for wrong in [
        "1 items",
        "1 tools",
        "1 errors",
        "1 warnings",
        "1 lines",
        "1 servers",
    ] {
        assert!(!run.stdout.contains(wrong), "{wrong}: {}", run.stdout);
    }
}

#[test]
fn a_bad_value_names_the_flag_the_value_and_a_valid_example() {
    let run = guard_run(&["batch", "--jobs", "0", "m.json"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr.trim_end(),
        "mcp-stdio-guard: error: --jobs must be from 1 to 256 checks at once, not 0 (hint: for example --jobs 4)"
    );
}

#[test]
fn a_missing_server_program_is_one_line_before_the_report() {
    let run = guard_run(&["--json", "--", "no-such-mcp-server-program"]);
    assert_eq!(run.code, Some(1), "same exit status as any failed start");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "mcp-stdio-guard: server program not found: no-such-mcp-server-program (PATH searched: "
        ),
        "{}",
        run.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("the report follows");
    assert_eq!(report["issues"][0]["code"], "spawn-failed", "{report}");
}
