//! Evidence records on disk: appending one JSON line per run under an
//! exclusive lock (so concurrent guards never split or interleave records,
//! and no two records share a time stamp), and reading the newest record
//! for a command (`--against`) line by line.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde_json::Value;

use crate::clock::{now_ms, parse_rfc3339, rfc3339};
use crate::error::Error;
use crate::sys;

/// How long an append waits for another guard's append to finish.
const LOCK_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The last 1 MiB of the file (records are one line each, so it holds
/// the last of them).
fn tail(file: &mut File) -> Vec<u8> {
    let mut tail = Vec::new();
    let Ok(len) = file.seek(SeekFrom::End(0)) else {
        return tail;
    };
    let start = len.saturating_sub(1 << 20);
    if file.seek(SeekFrom::Start(start)).is_ok() {
        let _ = file.read_to_end(&mut tail);
    }
    tail
}

/// The last line of `tail` that parses as a JSON object.
fn last_record(tail: &[u8]) -> Option<Value> {
    tail.split(|&b| b == b'\n')
        .rev()
        .filter(|l| !l.is_empty())
        .find_map(|l| serde_json::from_slice::<Value>(l).ok())
}

/// The time stamp a new record gets after the file's `tail`: now, or one
/// millisecond after the last record when that is not earlier.
fn next_time(tail: &[u8]) -> String {
    let last = last_record(tail).and_then(|r| {
        r.get("time")
            .and_then(Value::as_str)
            .and_then(parse_rfc3339)
    });
    let mut ms = now_ms();
    if let Some(last) = last
        && ms <= last
    {
        ms = last + 1;
    }
    rfc3339(ms)
}

/// Appends `record` as one line to an evidence file open for reading and
/// appending, under an exclusive lock, stamping its `time` (now, or one
/// millisecond after the file's last record when that is not earlier).
/// Returns the record as written; `shown` names the file in errors.
pub fn append(file: &mut File, shown: &str, mut record: Value) -> Result<Value, Error> {
    let io = |e| Error::io(format!("cannot write the evidence file {shown}"), e);
    sys::lock_exclusive(file, LOCK_LIMIT).map_err(io)?;
    let tail = tail(file);
    if let Value::Object(map) = &mut record {
        map.insert("time".into(), next_time(&tail).into());
    }
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

/// A record as one line for a stream (a pipe, stdout): stamped now.
pub fn line_for_stream(mut record: Value) -> Vec<u8> {
    if let Value::Object(map) = &mut record {
        map.insert("time".into(), rfc3339(now_ms()).into());
    }
    let mut line = serde_json::to_vec(&record).expect("invariant: a Value always serializes");
    line.push(b'\n');
    line
}

/// The longest record line `newest_for` reads; longer lines are skipped.
const MAX_RECORD: u64 = 16 << 20;

/// The newest record in `path` whose `command` equals `command`, and how
/// many lines could not be read as records (skipped). The file is read line
/// by line, so its size costs no memory.
pub fn newest_for(path: &Path, command: &Value) -> Result<(Option<Value>, usize), Error> {
    let file = File::open(path).map_err(|e| {
        Error::io(
            format!("cannot read the --against file {}", path.display()),
            e,
        )
    })?;
    let mut reader = BufReader::new(file);
    let mut best: Option<(u64, Value)> = None;
    let mut skipped = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut reader)
            .take(MAX_RECORD + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| {
                Error::io(
                    format!("cannot read the --against file {}", path.display()),
                    e,
                )
            })?;
        if n == 0 {
            break;
        }
        if !line.ends_with(b"\n") && n as u64 > MAX_RECORD {
            skip_line(&mut reader);
            skipped += 1;
            continue;
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        let Ok(record) = serde_json::from_slice::<Value>(&line) else {
            skipped += 1;
            continue;
        };
        if record.get("command") != Some(command) {
            continue;
        }
        let t = record
            .get("time")
            .and_then(Value::as_str)
            .and_then(parse_rfc3339)
            .unwrap_or(0);
        if best.as_ref().is_none_or(|(b, _)| t >= *b) {
            best = Some((t, record));
        }
    }
    Ok((best.map(|(_, r)| r), skipped))
}

/// Discards the rest of an overlong line.
fn skip_line<R: BufRead>(reader: &mut R) {
    loop {
        let (used, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            },
        };
        reader.consume(used);
        if done {
            return;
        }
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
    fn appends_bump_equal_time_stamps() {
        let path =
            std::env::temp_dir().join(format!("mcpguard-evidence-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let future = rfc3339(now_ms() + 60_000);
        std::fs::write(&path, format!("{{\"time\":\"{future}\"}}\n")).expect("seed");
        let written = append(
            &mut open(&path),
            "e",
            serde_json::json!({"time": "", "n": 1}),
        )
        .expect("append");
        assert_eq!(
            parse_rfc3339(written["time"].as_str().expect("time")),
            parse_rfc3339(&future).map(|t| t + 1)
        );
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 2);
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
