//! Evidence records on disk: appending one JSON line per run under an
//! exclusive lock (so concurrent guards never split or interleave records,
//! and no two records share a time stamp), and reading the newest record
//! for a command (`--against`) line by line.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde_json::Value;

use crate::clock::{now_ms, rfc3339};
use crate::error::Error;
use crate::sys;

/// How long an append waits for another guard's append to finish.
const LOCK_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The end of the file: its last bytes, up to a record's worth (enough for
/// the last record's time stamp and whether the file ends mid-line).
fn tail(file: &mut File) -> Vec<u8> {
    let mut tail = Vec::new();
    let Ok(len) = file.seek(SeekFrom::End(0)) else {
        return tail;
    };
    let start = len.saturating_sub(64 << 10);
    if file.seek(SeekFrom::Start(start)).is_ok() {
        let _ = file.take(64 << 10).read_to_end(&mut tail);
    }
    tail
}

/// The time of the last record in `tail`, when it is one of ours (UTC).
fn last_time(tail: &[u8]) -> Option<u64> {
    let line = tail
        .split(|&b| b == b'\n')
        .rev()
        .find(|l| !l.trim_ascii().is_empty())?;
    let record: Value = serde_json::from_str(std::str::from_utf8(line).ok()?).ok()?;
    let time = record.get("time")?.as_str()?;
    time.ends_with("+00:00")
        .then(|| crate::clock::parse_rfc3339(time))
        .flatten()
}

/// The stamp of a new record: the clock's time now; when the file's last
/// record (another guard's, appended a moment ago) holds this millisecond
/// or one less than a second ahead, one millisecond past it, so no two
/// records of a file share a stamp. A stamp further off (a hostile or
/// hand-edited record, another clock) is ignored, never followed.
fn next_time(tail: &[u8]) -> u64 {
    let now = now_ms();
    match last_time(tail) {
        Some(last) if last >= now && last - now < 1000 => last + 1,
        _ => now,
    }
}

/// Appends `record` as one line to an evidence file open for reading and
/// appending, under an exclusive lock, stamped from the clock (`next_time`;
/// `--against` takes the last record, in file order). Returns the record
/// as written; `shown` names the file in errors.
pub fn append(file: &mut File, shown: &str, mut record: Value) -> Result<Value, Error> {
    let io = |e| Error::io(format!("cannot write the evidence file {shown}"), e);
    sys::lock_exclusive(file, LOCK_LIMIT).map_err(io)?;
    let tail = tail(file);
    if let Value::Object(map) = &mut record {
        map.insert("time".into(), rfc3339(next_time(&tail)).into());
    }
    bound_depth(&mut record);
    // A record starts on a line of its own, even after a cut last line.
    let mut line = Vec::new();
    if tail.last().is_some_and(|&b| b != b'\n') {
        line.push(b'\n');
    }
    let json = serde_json::to_vec(&record).expect("invariant: a Value always serializes");
    line.extend_from_slice(&crate::redact::out_bytes(&json));
    line.push(b'\n');
    // One write: with O_APPEND and the lock, the line lands whole.
    let written = file.write(&line);
    let unlocked = sys::unlock(file);
    let written = written.map_err(io)?;
    if written != line.len() {
        return Err(io(std::io::Error::other("short write")));
    }
    unlocked.map_err(io)?;
    Ok(record)
}

/// A record nests at most 100 levels (parsers that stop at 128 read it):
/// a server value nested deeper is cut there.
fn bound_depth(record: &mut Value) {
    if crate::jsontext::depth(record) > 100 {
        crate::jsontext::cut(record, 100, "<nested deeper than 100 levels: not shown>");
    }
}

/// A record as one line for a stream (a pipe, stdout): stamped now.
pub fn line_for_stream(mut record: Value) -> Vec<u8> {
    if let Value::Object(map) = &mut record {
        map.insert("time".into(), rfc3339(now_ms()).into());
    }
    bound_depth(&mut record);
    let mut line = serde_json::to_vec(&record).expect("invariant: a Value always serializes");
    line.push(b'\n');
    line
}

/// The longest record line `newest_for` reads; longer lines are skipped.
pub const MAX_RECORD: u64 = 16 << 20;
/// The most of an evidence file `newest_for` reads.
pub const MAX_FILE: u64 = 4 << 30;

/// The newest record in `path` whose `command` equals `command` (the last
/// such line: records are appended in time order), and how many lines
/// could not be read as records (skipped). The file is read line by line,
/// so its size costs no memory; a file that does not exist holds none.
pub fn newest_for(path: &Path, command: &Value) -> Result<(Option<Value>, usize), Error> {
    if !path.exists() {
        return Ok((None, 0));
    }
    let input = crate::plan::inputs::open(path, "--against")?;
    let shown = input.shown.clone();
    let mut reader = BufReader::new(input.take(MAX_FILE));
    let mut best: Option<Value> = None;
    let mut skipped = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut reader)
            .take(MAX_RECORD + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| read_error(&shown, e))?;
        if n == 0 {
            break;
        }
        if !line.ends_with(b"\n") && n as u64 > MAX_RECORD {
            crate::plan::inputs::skip_line(&mut reader);
            skipped += 1;
            continue;
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        let Ok(record) = std::str::from_utf8(&line)
            .map_err(|_| ())
            .and_then(|t| serde_json::from_str::<Value>(t).map_err(|_| ()))
        else {
            skipped += 1;
            continue;
        };
        if record.get("command") == Some(command) {
            best = Some(record);
        }
    }
    Ok((best, skipped))
}

fn read_error(shown: &str, e: std::io::Error) -> Error {
    match (e.kind(), sys::pending_interrupt()) {
        (std::io::ErrorKind::Interrupted, Some(sig)) => Error::interrupted(sig),
        _ => Error::io(format!("cannot read {shown}"), e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &Path) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .expect("open")
    }

    #[test]
    fn records_are_stamped_from_the_clock_whatever_the_file_holds() {
        let path =
            std::env::temp_dir().join(format!("mcpguard-evidence-{}.jsonl", std::process::id()));
        for last in [
            "9999-12-31T23:59:59.999+00:00",
            "1970-01-01T00:00:00.000-05:00",
        ] {
            std::fs::write(
                &path,
                format!("{{\"time\":\"{last}\",\"command\":[\"a\"]}}\n"),
            )
            .expect("seed");
            let before = now_ms();
            let written = append(
                &mut open(&path),
                "e",
                serde_json::json!({"time": "", "command": ["a"], "n": 1}),
            )
            .expect("append");
            let stamp = written["time"].as_str().expect("time");
            let ms = crate::clock::parse_rfc3339(stamp).expect("RFC 3339");
            assert!(ms >= before && ms <= now_ms(), "{stamp}");
            assert!(stamp.starts_with("20"), "{stamp}");
            // The newest record is the last one, in file order.
            let (newest, _) = newest_for(&path, &serde_json::json!(["a"])).expect("read");
            assert_eq!(newest.and_then(|r| r.get("n").cloned()), Some(1.into()));
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_record_after_a_cut_line_starts_on_its_own_line_and_bad_lines_are_skipped() {
        let path = std::env::temp_dir().join(format!(
            "mcpguard-evidence-cut-{}.jsonl",
            std::process::id()
        ));
        std::fs::write(
            &path,
            b"{\"command\":[\"a\"],\"time\":\"x\"}\n\xff\xfe\n{\"cut\": tr",
        )
        .expect("seed");
        append(
            &mut open(&path),
            "e",
            serde_json::json!({"time": "", "command": ["a"], "n": 2}),
        )
        .expect("append");
        let (found, skipped) = newest_for(&path, &serde_json::json!(["a"])).expect("read");
        assert_eq!(
            found.and_then(|r| r.get("n").cloned()),
            Some(serde_json::json!(2))
        );
        assert_eq!(skipped, 2);
        let _ = std::fs::remove_file(&path);
    }
}
