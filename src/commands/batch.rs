//! `batch`: every server of a manifest (a client config's `mcpServers` or
//! `servers` map: Claude Desktop, VS Code, Cursor, or this tool's own), each
//! checked by a guard process of its own (`check --json --config MANIFEST
//! --server NAME`), `--jobs` at a time on threads. Each run's full JSON
//! report becomes one line of the JSONL output the moment it finishes, so a
//! killed batch keeps what finished; only a one-line summary per run stays
//! in memory. `--shard K/N` takes the K-th of N deterministic slices (by
//! entry name); `--merge` joins shards' JSONL files into one summary and one
//! JUnit, SARIF or Markdown file. The exit status is the worst run's.

use crate::obj;
use std::ffi::OsString;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::Value;

use crate::args::formats::FORMATS;
use crate::args::settings::{Settings, Shard, ShardSpec};
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Sink, Wanted};
use crate::report;
use crate::report::batch::{Row, row_of};
use crate::sys;

/// The entry names of a manifest, sorted (the order shards are cut in).
pub fn entries(manifest: &Path) -> Result<Vec<String>, Error> {
    let text = crate::plan::inputs::read_text(manifest, "batch")?;
    let top: Value = serde_json::from_str(&text).map_err(|e| {
        Error::usage(
            format!("the manifest {} is not JSON: {e}", manifest.display()),
            "a manifest is a client config with an mcpServers or servers map",
        )
    })?;
    let map = top
        .get("mcpServers")
        .or_else(|| top.get("servers"))
        .and_then(Value::as_object)
        .ok_or_else(|| {
            Error::usage(
                format!("the manifest {} has no mcpServers or servers map", manifest.display()),
                "as in: {\"mcpServers\": {\"weather\": {\"command\": \"uvx\", \"args\": [\"weather-mcp\"]}}}",
            )
        })?;
    let mut names: Vec<String> = map.keys().cloned().collect();
    crate::order::sort(&mut names);
    Ok(names)
}

/// The slice `--shard` names: as given, or (`auto`) the Kubernetes Indexed
/// Job's `JOB_COMPLETION_INDEX` (0-based) of `JOB_COMPLETIONS` (or N).
pub fn shard_of(spec: &ShardSpec, env: impl Fn(&str) -> Option<String>) -> Result<Shard, Error> {
    let bad = |why: &str| {
        Error::usage(
            format!("--shard auto: {why}"),
            "as in: --shard 2/4, --shard auto/4 (reads JOB_COMPLETION_INDEX)",
        )
    };
    let count = match spec {
        ShardSpec::Fixed(shard) => return Ok(*shard),
        ShardSpec::Auto(Some(n)) => *n,
        ShardSpec::Auto(None) => env("JOB_COMPLETIONS")
            .ok_or_else(|| bad("give N, or set JOB_COMPLETIONS"))?
            .trim()
            .parse()
            .map_err(|_| bad("JOB_COMPLETIONS is not a number"))?,
    };
    let index = env("JOB_COMPLETION_INDEX")
        .ok_or_else(|| bad("JOB_COMPLETION_INDEX is not set"))?
        .trim()
        .parse::<u64>()
        .map_err(|_| bad("JOB_COMPLETION_INDEX is not a number"))?
        + 1;
    if count == 0 || index > count {
        return Err(bad("the index must be below N"));
    }
    Ok(Shard { index, count })
}

/// The K-th of N slices: every N-th entry from the K-th on.
pub fn slice(names: Vec<String>, shard: Option<Shard>) -> Vec<String> {
    let Some(s) = shard else { return names };
    names
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (*i as u64) % s.count == s.index - 1)
        .map(|(_, n)| n)
        .collect()
}

/// The line of a run that produced no report (the guard refused the entry,
/// or could not be run): its error, counted as one.
fn failed_run(error: String) -> Value {
    obj! {
        "schemaVersion" => 1,
        "ok" => false,
        "error" => error,
        "summary" => obj! {
            "issueCounts" => obj! {"error" => 1, "warning" => 0},
            "primaryIssueCode" => "batch-run-failed",
        },
    }
}

/// The pids of the guard processes running now (an interrupt is passed on
/// to them).
type Running = Arc<Mutex<Vec<u32>>>;

/// Runs one entry in a guard process of its own; its report, tagged. The
/// child dies with this thread (`PR_SET_PDEATHSIG`) and so does its server;
/// its own deadlines bound the wait.
fn run_entry(
    manifest: &Path,
    name: &str,
    extra: &[OsString],
    running: &Running,
    origin: Instant,
) -> Value {
    let started = Instant::now();
    let start_ms = u64::try_from(started.duration_since(origin).as_millis()).unwrap_or(0);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mcp-stdio-guard"));
    let mut cmd = Command::new(exe);
    cmd.args(["check", "--json", "--annotations", "none", "--config"])
        .arg(manifest)
        .args(["--server", name])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    sys::die_with_parent(&mut cmd);
    // Not spawned with the interrupts blocked: the child would inherit the
    // mask and could not be stopped by the batch's interrupt.
    let custody = sys::custody::spawning();
    let output = cmd.spawn().and_then(|child| {
        let pid = child.id();
        custody.started(pid, false);
        if let Ok(mut r) = running.lock() {
            r.push(pid);
        }
        let out = child.wait_with_output();
        if let Ok(mut r) = running.lock() {
            r.retain(|p| *p != pid);
        }
        out
    });
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (mut report, code) = match output {
        Ok(out) => {
            let code = out.status.code().unwrap_or(2);
            let report = std::str::from_utf8(&out.stdout)
                .map_err(|_| ())
                .and_then(|t| serde_json::from_str::<Value>(t).map_err(|_| ()))
                .unwrap_or_else(|_| {
                    failed_run(String::from_utf8_lossy(&out.stderr).trim().to_string())
                });
            (report, code)
        }
        Err(e) => (failed_run(format!("cannot run the guard: {e}")), 2),
    };
    report["batch"] =
        obj! {"entry" => name, "exitCode" => code, "startMs" => start_ms, "durationMs" => ms};
    report
}

/// Every output of a batch, opened before any server starts.
fn open(s: &Settings) -> Result<Outputs, Error> {
    let mut wanted = Vec::new();
    let named = [
        (Kind::Jsonl, &s.batch.out),
        (Kind::Summary, &s.batch.summary),
    ];
    for (kind, path) in named {
        if let Some(p) = path {
            wanted.push(Wanted::new(kind, p.clone()));
        }
    }
    for (format, path) in &s.formats {
        wanted.push(Wanted::new(Kind::Format(*format), path.clone()));
    }
    wanted.push(Wanted::new(Kind::Report, "-"));
    Outputs::open(&wanted, &crate::plan::inputs_of(s))
}

/// `batch MANIFEST`: returns the exit status.
pub fn run(args: &Settings) -> Result<u8, Error> {
    if !args.batch.merge.is_empty() {
        return merge(args);
    }
    let manifest = args.batch.manifest.clone().unwrap_or_default();
    let shard = args
        .batch
        .shard
        .as_ref()
        .map(|spec| shard_of(spec, |k| std::env::var(k).ok()))
        .transpose()?;
    let names = slice(entries(&manifest)?, shard);
    let mut checked = check_all(args, &manifest, names)?;
    let text = if args.json {
        report::batch::json(&checked.rows)
    } else {
        report::batch::table(&checked.rows)
    };
    finish(args, &mut checked, &text)
}

/// What a batch's checks left: the rows (sorted by name), the outputs
/// still to write, and where the reports are read back from (the spool,
/// when there is no `--out` file, lives as long as this).
pub struct Checked {
    pub rows: Vec<Row>,
    outputs: Outputs,
    reports: Vec<PathBuf>,
    _spool: Option<Spool>,
}

impl std::fmt::Debug for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checked")
            .field("rows", &self.rows.len())
            .finish_non_exhaustive()
    }
}

/// Checks the entries `names` of `manifest`, `--jobs` at a time, each
/// report a line of `--out` (or of the spool) as it finishes.
pub fn check_all(args: &Settings, manifest: &Path, names: Vec<String>) -> Result<Checked, Error> {
    let mut outputs = open(args)?;
    let out = outputs.take(Kind::Jsonl);
    // The formats are written from the reports read back one at a time, so
    // memory stays flat in the number of servers: from --out when it is a
    // file, else from a temporary spool of their own.
    let spool = if read_back(args) && out.as_ref().is_none_or(|o| o.path.is_empty()) {
        Some(Spool::create()?)
    } else {
        None
    };
    let reports: Vec<PathBuf> = match &spool {
        Some(s) => vec![s.path.clone()],
        None => out
            .as_ref()
            .map(|o| PathBuf::from(&o.path))
            .into_iter()
            .collect(),
    };
    let spool_file = spool
        .as_ref()
        .map(|s| s.file.try_clone())
        .transpose()
        .map_err(|e| Error::io("cannot open the batch's spool", e))?;
    let mut rows = run_all(manifest, names, (out, spool_file), args)?;
    crate::commands::judge::check_interrupt()?;
    crate::order::sort_by(&mut rows, |a, b| a.name.cmp(&b.name));
    Ok(Checked {
        rows,
        outputs,
        reports,
        _spool: spool,
    })
}

/// Whether an output is written from the reports read back.
fn read_back(args: &Settings) -> bool {
    !args.formats.is_empty() || args.batch.badges.is_some()
}

/// The reports of a batch with no `--out` file, kept where the formats
/// read them back: a temporary file, removed when the batch ends (or
/// panics).
struct Spool {
    path: PathBuf,
    file: std::fs::File,
    _temp: sys::custody::Temp,
}

impl Spool {
    fn create() -> Result<Spool, Error> {
        let path = std::env::temp_dir().join(format!(
            ".mcp-stdio-guard-batch-{}.jsonl",
            std::process::id()
        ));
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options
            .open(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        let _temp = sys::custody::temp(&path);
        Ok(Spool { path, file, _temp })
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Every format asked for, each written from the reports read back.
fn formats(reports: &[PathBuf], outputs: &mut Outputs, args: &Settings) -> Result<(), Error> {
    let time = crate::clock::rfc3339(crate::clock::now_ms());
    let options = report::FormatOptions {
        time: &time,
        junit_skipped: args.junit_skipped,
    };
    for d in FORMATS {
        let kind = Kind::Format(d.format);
        if !outputs.wants(kind) {
            continue;
        }
        let text = report::write_batch(d.format, &mut |f| for_each_report(reports, f), &options)?;
        if let Some(text) = text {
            outputs.write(kind, text.as_bytes())?;
        }
    }
    Ok(())
}

/// `--badges DIR`: one badge per server with a score.
fn badges(args: &Settings, reports: &[PathBuf]) -> Result<(), Error> {
    let Some(dir) = &args.batch.badges else {
        return Ok(());
    };
    let mut badges: Vec<(String, String)> = Vec::new();
    for_each_report(reports, |r| {
        if r.get("score").is_some() {
            let name = r["batch"]["entry"].as_str().unwrap_or("");
            badges.push((report::fleet::badge_file(name), report::fleet::badge(r)));
        }
    })?;
    write_badges(dir, &badges)
}

/// One badge file per server in `dir` (made if missing), each written
/// whole beside its name and renamed over it; two names that read the same
/// as files get `-2`, `-3`.
fn write_badges(dir: &Path, badges: &[(String, String)]) -> Result<(), Error> {
    let fail = |e| Error::io(format!("cannot write badges into {}", dir.display()), e);
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (file, json) in badges {
        let mut name = file.clone();
        let mut n = 1;
        while !used.insert(name.clone()) {
            n += 1;
            name = format!("{}-{n}.json", file.trim_end_matches(".json"));
        }
        let path = dir.join(&name);
        let temp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&temp, json.as_bytes()).map_err(fail)?;
        std::fs::rename(&temp, &path).map_err(fail)?;
    }
    Ok(())
}

/// What the workers share: the entries left, the output and the rows.
struct Shared {
    queue: Mutex<Vec<String>>,
    /// `--out`, the spool, and the rows.
    sink: Mutex<(Option<Sink>, Option<std::fs::File>, Vec<Row>)>,
    running: Running,
    /// When the batch started (each run's `startMs` counts from it).
    origin: Instant,
}

/// One worker: entries off the queue until none is left or an interrupt.
fn work(shared: &Shared, manifest: &Path, extra: &[OsString]) {
    loop {
        if sys::pending_interrupt().is_some() {
            return;
        }
        let next = shared.queue.lock().ok().and_then(|mut q| q.pop());
        let Some(name) = next else { return };
        let report = run_entry(manifest, &name, extra, &shared.running, shared.origin);
        if sys::pending_interrupt().is_some() {
            // Stopped by the interrupt: it did not finish.
            return;
        }
        let row = row_of(&report);
        if let Ok(mut guard) = shared.sink.lock() {
            let (file, spool, rows) = &mut *guard;
            let mut line = report.to_string();
            line.push('\n');
            // A failed write is the batch's own error: the summary still
            // comes, and the exit status says what ran.
            if let Some(f) = file
                && let Err(e) = f.write_all(line.as_bytes())
            {
                eprintln!("mcp-stdio-guard: error: {e}");
            }
            if let Some(s) = spool
                && let Err(e) = std::io::Write::write_all(s, line.as_bytes())
            {
                eprintln!("mcp-stdio-guard: error: the batch's spool: {e}");
            }
            rows.push(row);
        }
    }
}

/// Runs every entry on `--jobs` threads; the rows of those that finished.
/// An interrupt of the batch is passed on to the guards still running,
/// which stop their servers and exit.
fn run_all(
    manifest: &Path,
    names: Vec<String>,
    (out, spool): (Option<Sink>, Option<std::fs::File>),
    args: &Settings,
) -> Result<Vec<Row>, Error> {
    let total = names.len();
    let shared = Arc::new(Shared {
        queue: Mutex::new(names.into_iter().rev().collect()),
        sink: Mutex::new((out, spool, Vec::new())),
        running: Arc::new(Mutex::new(Vec::new())),
        origin: Instant::now(),
    });
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let mut workers = Vec::new();
    let jobs = args
        .batch
        .jobs
        .unwrap_or_else(|| crate::sys::cpu_count() as u64);
    for i in 0..jobs.max(1) {
        let (shared, done) = (Arc::clone(&shared), done_tx.clone());
        let (manifest, extra) = (manifest.to_path_buf(), args.batch.check_args.clone());
        let worker = std::thread::Builder::new()
            .name(format!("batch-{i}"))
            .spawn(move || {
                // Dropped when the worker ends: the channel closes once
                // every worker has.
                let _done = done;
                work(&shared, &manifest, &extra);
            })
            .map_err(|e| Error::io("cannot start a batch thread", e))?;
        workers.push(worker);
    }
    drop(done_tx);
    let mut passed_on = false;
    let mut progress = crate::progress::Progress::new(args.progress);
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) | Ok(()) =
        done_rx.recv_timeout(std::time::Duration::from_millis(50))
    {
        progress.show(|| status(&shared, total));
        if let (Some(_), false) = (sys::pending_interrupt(), passed_on) {
            passed_on = true;
            for pid in shared.running.lock().map(|r| r.clone()).unwrap_or_default() {
                let _ = sys::signal_process(pid, sys::SIGTERM);
            }
        }
    }
    progress.clear();
    for w in workers {
        let _ = w.join();
    }
    Ok(shared.sink.lock().map(|g| g.2.clone()).unwrap_or_default())
}

/// The status line: `batch: 3/7 servers, 1 failed, 2 running`.
fn status(shared: &Shared, total: usize) -> String {
    let (done, failed) = shared
        .sink
        .lock()
        .map(|g| (g.2.len(), g.2.iter().filter(|r| !r.ok).count()))
        .unwrap_or_default();
    let running = shared.running.lock().map(|r| r.len()).unwrap_or_default();
    format!(
        "batch: {}, {failed} failed, {running} running",
        crate::progress::of(done, total, "server")
    )
}

/// `batch --merge A.jsonl B.jsonl ...`: one summary over the shards. An
/// entry in several files counts once (the last line of it wins: a shard
/// run again); a line that is no report is skipped, and said so.
fn merge(args: &Settings) -> Result<u8, Error> {
    let files: Vec<PathBuf> = args.batch.merge.clone();
    let outputs = open(args)?;
    let mut rows: Vec<Row> = Vec::new();
    for_each_report(&files, |r| rows.push(row_of(r)))?;
    crate::order::sort_by(&mut rows, |a, b| a.name.cmp(&b.name));
    let text = if args.json {
        report::batch::json(&rows)
    } else {
        report::batch::table(&rows)
    };
    let mut checked = Checked {
        rows,
        outputs,
        reports: files,
        _spool: None,
    };
    finish(args, &mut checked, &text)
}

/// The longest report line read back (a server with a 16 MiB listing
/// makes a report of about that size); longer lines are skipped.
const MAX_REPORT_LINE: u64 = 64 << 20;

/// Calls `f` with every report of the JSONL files, one at a time (their
/// size costs no memory), each entry once: the last line of an entry
/// (across the files, in order) is the one that counts. A line that is not
/// a report (invalid UTF-8, not JSON, cut short, too long, no `batch`
/// member) is skipped with a warning on stderr.
fn for_each_report(files: &[PathBuf], mut f: impl FnMut(&Value)) -> Result<(), Error> {
    // First pass: where each entry's last line is.
    let mut last: std::collections::HashMap<String, (usize, u64)> = Default::default();
    read_lines(files, true, |file, line, v| {
        if let Some(entry) = v["batch"]["entry"].as_str() {
            last.insert(entry.to_string(), (file, line));
        }
    })?;
    read_lines(files, false, |file, line, v| {
        let entry = v["batch"]["entry"].as_str().unwrap_or_default();
        if last.get(entry) == Some(&(file, line)) {
            f(v);
        }
    })
}

/// Every report line of the files, parsed: `f(file index, line number,
/// report)`; skipped lines are warned about when `warn`.
fn read_lines(
    files: &[PathBuf],
    warn: bool,
    mut f: impl FnMut(usize, u64, &Value),
) -> Result<(), Error> {
    for (index, path) in files.iter().enumerate() {
        let input = crate::plan::inputs::open(path, "--merge")?;
        let shown = input.shown.clone();
        let mut reader = std::io::BufReader::new(input);
        let mut bytes = Vec::new();
        let mut number = 0u64;
        loop {
            bytes.clear();
            number += 1;
            let n = (&mut reader)
                .take(MAX_REPORT_LINE + 1)
                .read_until(b'\n', &mut bytes)
                .map_err(|e| Error::io(format!("cannot read {shown}"), e))?;
            if n == 0 {
                break;
            }
            let why = match std::str::from_utf8(&bytes) {
                _ if n as u64 > MAX_REPORT_LINE => Some("longer than 64 MiB"),
                Err(_) => Some("not UTF-8"),
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => match serde_json::from_str::<Value>(text) {
                    Ok(v) if v.get("batch").is_some() => {
                        f(index, number, &v);
                        None
                    }
                    Ok(_) => Some("a JSON value without a batch member"),
                    Err(_) if !bytes.ends_with(b"\n") => Some("cut short (no newline, not JSON)"),
                    Err(_) => Some("not JSON"),
                },
            };
            if let (Some(why), true) = (why, warn) {
                eprintln!("mcp-stdio-guard: warning: skipped line {number} of {shown}: {why}");
            }
            if n as u64 > MAX_REPORT_LINE {
                crate::plan::inputs::skip_line(&mut reader);
            }
        }
    }
    Ok(())
}

/// The summary `text` (stdout), the optional files, the worst exit status.
pub fn finish(args: &Settings, checked: &mut Checked, text: &str) -> Result<u8, Error> {
    let Checked {
        rows,
        outputs,
        reports,
        ..
    } = checked;
    let time = crate::clock::rfc3339(crate::clock::now_ms());
    outputs.write(
        Kind::Summary,
        report::batch::markdown(rows, &time).as_bytes(),
    )?;
    formats(reports, outputs, args)?;
    badges(args, reports)?;
    outputs.write(Kind::Report, text.as_bytes())?;
    outputs.commit()?;
    let worst = rows.iter().map(|r| r.code).max().unwrap_or(0);
    Ok(u8::try_from(worst.clamp(0, 255)).unwrap_or(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_deterministic_disjoint_and_cover_every_entry() {
        let names: Vec<String> = (0..10).map(|i| format!("s{i}")).collect();
        let mut all = Vec::new();
        for k in 1..=3 {
            let part = slice(names.clone(), Some(Shard { index: k, count: 3 }));
            assert_eq!(
                part,
                slice(names.clone(), Some(Shard { index: k, count: 3 }))
            );
            all.extend(part);
        }
        all.sort();
        assert_eq!(all, names);
    }

    #[test]
    fn shard_values_read_the_indexed_job_environment() {
        let env = |k: &str| match k {
            "JOB_COMPLETION_INDEX" => Some("2".to_string()),
            "JOB_COMPLETIONS" => Some("4".to_string()),
            _ => None,
        };
        let none = |_: &str| None;
        let fixed = ShardSpec::Fixed(Shard { index: 2, count: 4 });
        assert_eq!(
            shard_of(&fixed, none).ok(),
            Some(Shard { index: 2, count: 4 })
        );
        assert_eq!(
            shard_of(&ShardSpec::Auto(Some(4)), env).ok(),
            Some(Shard { index: 3, count: 4 })
        );
        assert_eq!(
            shard_of(&ShardSpec::Auto(None), env).ok(),
            Some(Shard { index: 3, count: 4 })
        );
        assert!(shard_of(&ShardSpec::Auto(None), none).is_err());
    }
}
