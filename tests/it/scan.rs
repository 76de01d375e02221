//! The static scanner end to end: the labelled corpus in `testdata/scan`
//! at 100% precision and recall, the `scan` command's exit codes and JSON,
//! `check --scan` and `--fail-on-static`, and the official SDKs' own stdio
//! transports, which write JSON-RPC to stdout by design and must come out
//! clean.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{DEADLINE, guard, run_with_deadline};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scan(args: &[&str]) -> crate::util::Run {
    let mut cmd = Command::new(guard());
    cmd.arg("scan").args(args).current_dir(root());
    run_with_deadline(cmd, DEADLINE)
}

/// (file, line, reasons) of every `expect:` marker in the corpus.
fn expected() -> BTreeSet<(String, u64, String)> {
    let mut out = BTreeSet::new();
    let dir = root().join("testdata/scan");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files {
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).expect("read corpus file");
        for (n, line) in text.lines().enumerate() {
            if let Some(at) = line.find("expect: ") {
                let mut reasons: Vec<&str> = line[at + 8..]
                    .split_whitespace()
                    .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                    .collect();
                reasons.sort_unstable();
                out.insert((name.clone(), n as u64 + 1, reasons.join(" ")));
            }
        }
    }
    out
}

#[test]
fn the_corpus_is_found_with_full_precision_and_recall() {
    let run = scan(&["--json", "testdata/scan"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let j = run.json();
    let found: BTreeSet<(String, u64, String)> = j["staticFindings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let mut reasons: Vec<&str> = f["reasons"]
                .as_array()
                .expect("reasons")
                .iter()
                .map(|r| r.as_str().expect("reason"))
                .collect();
            reasons.sort_unstable();
            (
                f["file"].as_str().expect("file").to_string(),
                f["line"].as_u64().expect("line"),
                reasons.join(" "),
            )
        })
        .collect();
    let expected = expected();
    let true_positives = found.intersection(&expected).count();
    let false_positives: Vec<_> = found.difference(&expected).collect();
    let missed: Vec<_> = expected.difference(&found).collect();
    assert!(
        expected.len() >= 40,
        "the corpus shrank: {}",
        expected.len()
    );
    assert!(
        false_positives.is_empty() && missed.is_empty(),
        "precision {true_positives}/{}, recall {true_positives}/{}\nfalse positives: {false_positives:#?}\nmissed: {missed:#?}",
        found.len(),
        expected.len()
    );
    // Every language of the corpus was read.
    let languages: BTreeSet<&str> = j["staticFindings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["language"].as_str().expect("language"))
        .collect();
    assert_eq!(
        languages.into_iter().collect::<Vec<_>>(),
        [
            "csharp",
            "go",
            "java",
            "javascript",
            "kotlin",
            "python",
            "ruby",
            "rust",
            "typescript"
        ]
    );
}

#[test]
fn the_scan_command_exits_0_when_clean_1_with_findings_2_for_a_missing_path() {
    let dir = std::env::temp_dir().join(format!("mcpguard-scan-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("node_modules/pkg")).expect("mkdir");
    std::fs::write(dir.join("ok.js"), "console.error('fine');\n").expect("write");
    std::fs::write(
        dir.join("node_modules/pkg/index.js"),
        "console.log('not ours');\n",
    )
    .expect("write");
    std::fs::write(dir.join("app.min.js"), format!("{}\n", "x".repeat(20_000))).expect("write");
    let d = dir.to_string_lossy().into_owned();
    let clean = scan(&[&d]);
    assert_eq!(clean.code, Some(0), "{}", clean.stdout);
    assert!(
        clean.stdout.contains(
            "static scan: 1 file scanned (skipped: 1 minified, 1 directories by name), 0 findings"
        ),
        "{}",
        clean.stdout
    );
    let polluted = scan(&["testdata/scan/server.py"]);
    assert_eq!(polluted.code, Some(1));
    assert!(
        polluted
            .stdout
            .starts_with("testdata/scan/server.py:12:1: [python-print-stdout, startup-output] print() writes to stdout"),
        "{}",
        polluted.stdout
    );
    let missing = scan(&["no/such/dir"]);
    assert_eq!(missing.code, Some(2));
    assert!(
        missing
            .stderr
            .contains("scan path no/such/dir does not exist"),
        "{}",
        missing.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_with_scan_reports_findings_as_warnings_or_errors() {
    // Integration tests run in the package root, so the path is relative
    // to it, as a user would type it.
    let run = |extra: &[&str]| {
        let mut args = vec!["--json", "--scan", "testdata/scan/main.go"];
        args.extend_from_slice(extra);
        crate::util::check_fake("ok", &args, DEADLINE)
    };
    let warn = run(&[]);
    assert_eq!(warn.code, Some(0), "{}", warn.stdout);
    let j = warn.json();
    assert_eq!(j["staticScan"]["enabled"], true);
    assert_eq!(j["staticScan"]["path"], "testdata/scan/main.go");
    assert_eq!(j["staticScan"]["failOnFindings"], false);
    assert_eq!(j["checks"]["staticScan"]["status"], "warning");
    assert_eq!(j["staticFindings"].as_array().map(Vec::len), Some(6));
    let issue = warn.issue("static-stdout-write");
    assert_eq!(issue["severity"], "warning");
    assert_eq!(issue["class"], "stdioTransport");
    assert_eq!(
        issue["message"]
            .as_str()
            .map(|m| m.starts_with("testdata/scan/main.go:15 fmt.Println")),
        Some(true)
    );
    let fail = run(&["--fail-on-static"]);
    assert_eq!(fail.code, Some(1));
    assert_eq!(fail.issue("static-stdout-write")["severity"], "error");
    assert_eq!(fail.json()["checks"]["staticScan"]["status"], "fail");
}

#[test]
fn check_with_a_missing_scan_path_starts_nothing() {
    // check_fake also proves that no server process was left behind.
    let run = crate::util::check_fake("ok", &["--scan", "no/such/dir"], DEADLINE);
    assert_eq!(run.code, Some(2));
    assert!(run.stdout.is_empty());
}

fn python_stdio() -> Option<PathBuf> {
    let lib = root().join(".interop/venv/lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|mut dirs| {
        dirs.find_map(|d| {
            let p = d.ok()?.path().join("site-packages/mcp/server/stdio.py");
            p.exists().then_some(p)
        })
    });
    match found {
        Some(p) => Some(p),
        None => crate::util::interop_path("venv/lib/python3/site-packages/mcp/server/stdio.py"),
    }
}

fn assert_clean(path: &Path) {
    let p = path.to_string_lossy().into_owned();
    let run = scan(&["--json", &p]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.json()["staticScan"]["filesScanned"], 1);
}

#[test]
#[ignore = "interop: needs scripts/setup-interop.sh; cargo test -- --include-ignored runs it"]
fn the_official_sdk_stdio_transports_are_clean() {
    if let Some(ts) = crate::util::interop_path(
        "node/node_modules/@modelcontextprotocol/sdk/dist/cjs/server/stdio.js",
    ) {
        assert_clean(&ts);
    }
    if let Some(esm) = crate::util::interop_path(
        "node/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js",
    ) {
        assert_clean(&esm);
    }
    if let Some(py) = python_stdio() {
        assert_clean(&py);
    }
}
