//! Evidence records on disk: appending one JSON line per run under an
//! exclusive lock (so concurrent guards never split or interleave records,
//! and no two records share a time stamp), reading the newest record for a
//! command (`--against`), and the RFC 3339 time stamps they carry.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::error::Error;
use crate::sys;

/// How long an append waits for another guard's append to finish.
const LOCK_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `2026-12-02T14:31:00.123+00:00`: RFC 3339 in UTC, milliseconds, with its
/// offset written out.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Parses what `rfc3339` writes back to milliseconds.
pub fn parse_rfc3339(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() < 23 {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, m, s, ms) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let total = ((days * 86_400 + h * 3600 + m * 60 + s) * 1000) + ms;
    u64::try_from(total).ok()
}

/// The absolute form of a path the user gave.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

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

/// Appends `record` as one line, stamping it with `time`: now, or one
/// millisecond after the file's last record when that is not earlier.
/// Returns the record as written.
pub fn append(path: &Path, mut record: Value) -> Result<Value, Error> {
    let io = |e| {
        Error::io(
            format!("cannot write the evidence file {}", path.display()),
            e,
        )
    };
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(io)?;
    sys::lock_exclusive(&file, LOCK_LIMIT).map_err(io)?;
    let tail = tail(&mut file);
    let last = last_record(&tail).and_then(|r| {
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
    if let Value::Object(map) = &mut record {
        map.insert("time".into(), rfc3339(ms).into());
    }
    // A record starts on a line of its own, even after a cut last line.
    let mut line = Vec::new();
    if tail.last().is_some_and(|&b| b != b'\n') {
        line.push(b'\n');
    }
    line.extend(serde_json::to_vec(&record).expect("invariant: a Value always serializes"));
    line.push(b'\n');
    // One write: with O_APPEND and the lock, the line lands whole.
    let written = file.write(&line).map_err(io)?;
    if written != line.len() {
        return Err(io(std::io::Error::other("short write")));
    }
    file.flush().map_err(io)?;
    Ok(record)
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

    #[test]
    fn time_stamps_round_trip() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000+00:00");
        assert_eq!(rfc3339(1_796_221_860_123), "2026-12-02T14:31:00.123+00:00");
        for ms in [0, 951_782_400_000, 1_796_221_860_123, 4_102_444_800_999] {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms));
        }
    }

    #[test]
    fn appends_bump_equal_time_stamps() {
        let path =
            std::env::temp_dir().join(format!("mcpguard-evidence-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let future = rfc3339(now_ms() + 60_000);
        std::fs::write(&path, format!("{{\"time\":\"{future}\"}}\n")).expect("seed");
        let written = append(&path, serde_json::json!({"time": "", "n": 1})).expect("append");
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
            &path,
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
