//! `batch`: a manifest of fake servers checked N at a time into JSONL,
//! shards that are disjoint and cover the manifest, `--merge` joining
//! them, the worst exit status, and a killed batch keeping what finished.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{
    DEADLINE, assert_no_survivors, fake_server, guard, marker, run_with_deadline, temp_dir,
};

/// A manifest of fake-server entries, one per scenario.
fn manifest(dir: &Path, scenarios: &[&str], m: &str) -> PathBuf {
    let mut servers = serde_json::Map::new();
    for (i, s) in scenarios.iter().enumerate() {
        servers.insert(
            format!("srv{i:03}-{s}"),
            serde_json::json!({"command": fake_server(), "args": [s, m]}),
        );
    }
    let path = dir.join("manifest.json");
    std::fs::write(
        &path,
        serde_json::json!({"mcpServers": servers}).to_string(),
    )
    .expect("manifest");
    path
}

fn batch(args: &[&str]) -> crate::util::Run {
    let mut cmd = Command::new(guard());
    cmd.arg("batch").args(args);
    run_with_deadline(cmd, Duration::from_secs(120))
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON report per line"))
        .collect()
}

#[test]
fn a_manifest_is_checked_n_at_a_time_into_jsonl_with_the_worst_status() {
    let dir = temp_dir("batch");
    let m = marker("batch");
    let file = manifest(&dir, &["ok", "banner", "ok", "modern-only", "crlf"], &m);
    let out = dir.join("r.jsonl");
    let run = batch(&[
        &file.to_string_lossy(),
        "--jobs",
        "2",
        "--out",
        &out.to_string_lossy(),
        "--",
        "--timeout",
        "3000",
    ]);
    assert_no_survivors(&m);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let reports = lines(&out);
    assert_eq!(reports.len(), 5);
    for r in &reports {
        assert_eq!(r["schemaVersion"], 1);
        assert!(
            r["batch"]["entry"].is_string() && r["issues"].is_array(),
            "{r}"
        );
    }
    assert!(
        run.stdout.contains("5 servers, 4 passed, 1 failed"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_cover_the_manifest_once_and_merge_into_one_summary() {
    let dir = temp_dir("shards");
    let m = marker("shards");
    let file = manifest(
        &dir,
        &["ok", "banner", "ok", "exit-nonzero", "ok", "crlf", "ok"],
        &m,
    );
    let mut names: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("part{k}.jsonl"));
        let run = batch(&[
            &file.to_string_lossy(),
            "--shard",
            &format!("{k}/3"),
            "--out",
            &out.to_string_lossy(),
        ]);
        assert!(matches!(run.code, Some(0 | 1)), "{}", run.stderr);
        names.extend(
            lines(&out)
                .iter()
                .map(|r| r["batch"]["entry"].as_str().unwrap_or("").to_string()),
        );
        parts.push(out.to_string_lossy().into_owned());
    }
    assert_no_survivors(&m);
    names.sort();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!((names.len(), unique.len()), (7, 7), "{names:?}");
    let junit = dir.join("merged.xml");
    let summary = dir.join("summary.md");
    let mut args = vec!["--merge"];
    args.extend(parts.iter().map(String::as_str));
    let (j, s) = (
        junit.to_string_lossy().into_owned(),
        summary.to_string_lossy().into_owned(),
    );
    args.extend(["--junit", &j, "--summary", &s]);
    let merged = batch(&args);
    assert_eq!(merged.code, Some(1));
    assert!(
        merged.stdout.contains("7 servers, 5 passed, 2 failed"),
        "{}",
        merged.stdout
    );
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert_eq!(xml.matches("<testsuite ").count(), 7);
    assert!(
        std::fs::read_to_string(&summary)
            .expect("md")
            .contains("| srv001-banner | **fail** |")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_batch_keeps_what_finished_and_stops_the_rest() {
    let dir = temp_dir("batch-kill");
    let m = marker("batch-kill");
    let file = manifest(&dir, &["ok", "ok", "hang", "ok"], &m);
    let out = dir.join("r.jsonl");
    let mut child = Command::new(guard())
        .args([
            "batch",
            &file.to_string_lossy(),
            "--jobs",
            "1",
            "--out",
            &out.to_string_lossy(),
            "--",
            "--timeout",
            "20000",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("batch");
    // Two runs finish, then the third hangs; wait for the two lines.
    let deadline = Instant::now() + DEADLINE;
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 2 {
        crate::util::hang_guard(deadline, "the first runs did not finish");
        std::thread::yield_now();
    }
    // SIGTERM to the batch alone, as a CI runner cancelling a step sends it.
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    // Passed on, the interrupt ends the hanging run: the batch exits 143
    // (a hang guard bounds the wait, the third run's timeout is longer).
    let deadline = Instant::now() + DEADLINE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        crate::util::hang_guard(deadline, "the interrupt was not passed on");
        std::thread::yield_now();
    };
    assert_eq!(status.code(), Some(143));
    assert_eq!(lines(&out).len(), 2);
    assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs side by side, never more than `--jobs` at once: from each run's
/// `startMs` and `durationMs` (a timed figure belongs to a benchmark; the
/// README gives one).
#[test]
fn a_hundred_servers_run_jobs_at_a_time() {
    let dir = temp_dir("batch-100");
    let m = marker("batch-100");
    let file = manifest(&dir, &["ok"; 100], &m);
    let out = dir.join("r.jsonl");
    let started = Instant::now();
    let run = batch(&[
        &file.to_string_lossy(),
        "--jobs",
        "2",
        "--out",
        &out.to_string_lossy(),
        "--",
        "--settle",
        "0",
    ]);
    eprintln!("batch: 100 servers with 2 jobs in {:?}", started.elapsed());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_no_survivors(&m);
    let spans: Vec<(u64, u64)> = lines(&out)
        .iter()
        .map(|r| {
            let s = r["batch"]["startMs"].as_u64().expect("startMs");
            (
                s,
                s + r["batch"]["durationMs"].as_u64().expect("durationMs"),
            )
        })
        .collect();
    assert_eq!(spans.len(), 100);
    let at_once = |t: u64| spans.iter().filter(|(s, e)| *s <= t && t < *e).count();
    let most = spans.iter().map(|(s, _)| at_once(*s)).max().unwrap_or(0);
    assert_eq!(most, 2, "runs overlapping at most: {most}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_read_back_formats_need_no_out_file_and_leave_no_spool() {
    let dir = temp_dir("batch-spool");
    let m = marker("batch-spool");
    let file = manifest(&dir, &["ok", "banner"], &m);
    let html = dir.join("fleet.html");
    let junit = dir.join("fleet.xml");
    let badges = dir.join("badges");
    // The batch's own temporary files go to a directory of this test's.
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).expect("tmp");
    let mut cmd = Command::new(guard());
    cmd.env("TMPDIR", &tmp).arg("batch").args([
        &*file.to_string_lossy(),
        "--html",
        &*html.to_string_lossy(),
        "--junit",
        &*junit.to_string_lossy(),
        "--badges",
        &*badges.to_string_lossy(),
        "--",
        "--timeout",
        "3000",
    ]);
    let run = run_with_deadline(cmd, Duration::from_secs(120));
    assert_eq!(run.code, Some(1), "the banner fails: {}", run.stderr);
    let page = std::fs::read_to_string(&html).expect("the fleet page without --out");
    assert!(page.contains("srv000-ok") && page.contains("srv001-banner"));
    let stamp = format!(" by mcp-stdio-guard {}.", env!("CARGO_PKG_VERSION"));
    assert!(
        page.contains(". Checked 20") && page.contains(&stamp),
        "dated"
    );
    assert!(
        !page.contains("verdict skipped\">skipped"),
        "skipped rows folded"
    );
    assert_eq!(page.matches("<p>Skipped: ").count(), 2, "one line a server");
    let xml = std::fs::read_to_string(&junit).expect("junit without --out");
    assert!(xml.contains("srv001-banner"), "{xml}");
    assert!(
        badges.join("srv000-ok.json").is_file(),
        "a badge per server"
    );
    assert!(
        run.stdout.contains("2 servers, 1 passed, 1 failed"),
        "{}",
        run.stdout
    );
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("tmp").flatten().collect();
    assert!(left.is_empty(), "the spool is removed: {left:?}");
    assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}
