//! What the report keeps of the server's bytes, kept as bytes (`Blob`):
//! the frames a run's JSON report shows (every valid JSON-RPC message the
//! server wrote, as the line it wrote, not as parsed values, which take up
//! to 70 times as much) and the pinned definitions' canonical text. Blobs
//! stay in memory while they total under `IN_MEMORY` over the whole
//! process; past it they go to one temporary file (unlinked at once:
//! nothing is left behind, whatever ends the guard) and are read back one
//! at a time. A run's report shows its first `SHOWN_FRAMES` frames within
//! `SHOWN_BYTES`; the rest are counted, not kept (`--transcript` is where
//! every byte goes). So memory grows neither with `--repeat` nor with what
//! the server writes, and the report stays bounded. Each frame notes
//! whether its line can be shown as written (plain JSON, not too deep, no
//! escape that could spell a secret the scrubber reads only in its
//! canonical form) or must be read and written again.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// Frame bytes kept in memory, over all runs, before the rest spill.
const IN_MEMORY: u64 = 1 << 20;
/// Frames a run's report shows, at most.
pub const SHOWN_FRAMES: usize = 200;
/// Bytes of frames a run's report shows, at most: a frame that would pass
/// it is counted, not shown.
pub const SHOWN_BYTES: u64 = 512 << 10;
/// Deepest frame shown as written; a deeper one is shown cut at this
/// depth (the report stays readable by parsers that stop at 128 levels).
pub const SHOWN_DEPTH: usize = 64;
/// What stands where a frame was cut.
pub const CUT: &str = "<nested deeper than 64 levels: not shown>";

static KEPT: AtomicU64 = AtomicU64::new(0);

/// The one spill file of the process, created at the first spill.
fn spill() -> Option<&'static Mutex<File>> {
    static SPILL: OnceLock<Option<Mutex<File>>> = OnceLock::new();
    SPILL
        .get_or_init(|| {
            let dir = std::env::temp_dir();
            for n in 0..16u32 {
                let path = dir.join(format!(
                    ".mcp-stdio-guard-frames-{}-{n}",
                    std::process::id()
                ));
                if let Ok(file) = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .open(&path)
                {
                    // Unlinked at once: the file lives as long as the guard
                    // holds it open, and no exit leaves it behind.
                    let _ = std::fs::remove_file(&path);
                    return Some(Mutex::new(file));
                }
            }
            None
        })
        .as_ref()
}

/// Bytes kept: in memory, or in the spill file.
#[derive(Debug, Clone)]
pub struct Blob(Where);

#[derive(Debug, Clone)]
enum Where {
    Memory(Arc<[u8]>),
    /// Offset and length in the spill file.
    Spilled(u64, u32),
    /// Could not be kept (no temporary file).
    Lost,
}

impl Blob {
    /// Keeps `bytes`: in memory while the process's kept bytes stay under
    /// `IN_MEMORY`, else in the spill file.
    pub fn keep(bytes: &[u8]) -> Blob {
        Blob::in_memory(bytes).unwrap_or_else(|| Blob(spill_line(bytes)))
    }

    /// Keeps `bytes` in memory, if they fit under `IN_MEMORY`.
    fn in_memory(bytes: &[u8]) -> Option<Blob> {
        let len = bytes.len() as u64;
        let kept = KEPT.fetch_add(len, Ordering::Relaxed) + len;
        if kept <= IN_MEMORY {
            Some(Blob(Where::Memory(bytes.into())))
        } else {
            KEPT.fetch_sub(len, Ordering::Relaxed);
            None
        }
    }

    /// The bytes kept (`None` when they could not be kept).
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match &self.0 {
            Where::Memory(b) => Some(b.to_vec()),
            Where::Spilled(offset, len) => read_back(*offset, *len),
            Where::Lost => None,
        }
    }
}

impl Drop for Blob {
    fn drop(&mut self) {
        if let Where::Memory(b) = &self.0
            && Arc::strong_count(b) == 1
        {
            let len = b.len() as u64;
            let _ = KEPT.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |k| {
                Some(k.saturating_sub(len))
            });
        }
    }
}

/// One run's frames: the first ones in memory, the rest in stretches of
/// the spill file (each line ended by a newline, which raw JSON never
/// holds), with one bit per frame saying whether it must be written again:
/// a flood of tiny messages costs a bit each, not a record each.
#[derive(Debug, Clone, Default)]
pub struct Frames {
    kept: Vec<Blob>,
    /// Byte ranges of the spill file, in order.
    spilled: Vec<(u64, u64)>,
    /// Bit `i`: frame `i` is written again.
    rewrite: Vec<u64>,
    /// Frames kept to be shown, and their bytes.
    count: usize,
    bytes: u64,
    /// Frames past the bounds: counted, not kept.
    omitted: usize,
    omitted_bytes: u64,
}

/// Whether a message line can be shown as written: no `\u` or `\/` escape
/// (a secret spelled in escapes is scrubbed from the canonical form a
/// re-serialization writes), no JSON quirk, and not nested past
/// `SHOWN_DEPTH`.
fn shown_as_written(line: &[u8], quirky: bool) -> bool {
    if quirky || line.windows(2).any(|w| w == b"\\u" || w == b"\\/") {
        return false;
    }
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in line {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest <= SHOWN_DEPTH
}

impl Frames {
    /// Keeps one message line (without its newline or `\r`), or counts
    /// it when the shown frames are at their bounds.
    pub fn push(&mut self, line: &[u8], quirky: bool) {
        let len = line.len() as u64;
        if self.count >= SHOWN_FRAMES || self.bytes + len > SHOWN_BYTES {
            self.omitted += 1;
            self.omitted_bytes += len;
            return;
        }
        self.bytes += len;
        if !shown_as_written(line, quirky) {
            let (word, bit) = (self.count / 64, self.count % 64);
            if self.rewrite.len() <= word {
                self.rewrite.resize(word + 1, 0);
            }
            self.rewrite[word] |= 1 << bit;
        }
        self.count += 1;
        if self.spilled.is_empty()
            && let Some(blob) = Blob::in_memory(line)
        {
            self.kept.push(blob);
            return;
        }
        match spill_appending(line) {
            Some((start, end)) => match self.spilled.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => self.spilled.push((start, end)),
            },
            // Not kept (no temporary file): shown as null.
            None => self.kept.push(Blob(Where::Lost)),
        }
    }

    /// Every frame the server wrote, shown or not.
    pub fn len(&self) -> usize {
        self.count + self.omitted
    }

    /// Whether the report shows no frame.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The frames not shown, and their bytes.
    pub fn omitted(&self) -> (usize, u64) {
        (self.omitted, self.omitted_bytes)
    }

    fn rewritten_at(&self, i: usize) -> bool {
        self.rewrite
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Each frame as compact JSON, in order, one at a time.
    pub fn each(&self, mut f: impl FnMut(&[u8])) {
        let mut i = 0;
        let mut show = |bytes: &[u8], i: usize| {
            if self.rewritten_at(i) {
                f(&rewritten(bytes));
            } else {
                f(bytes);
            }
        };
        for blob in &self.kept {
            show(&blob.bytes().unwrap_or_else(|| b"null".to_vec()), i);
            i += 1;
        }
        for &(start, end) in &self.spilled {
            each_line(start, end, |line| {
                show(line, i);
                i += 1;
            });
        }
    }

    /// The frames as values (for tests and small reports).
    pub fn values(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.each(|b| {
            let v = std::str::from_utf8(b)
                .ok()
                .and_then(|t| serde_json::from_str(t).ok());
            out.push(v.unwrap_or(Value::Null));
        });
        out
    }
}

/// Appends `line` and a newline to the spill file: where they went.
fn spill_appending(line: &[u8]) -> Option<(u64, u64)> {
    let mut file = spill()?.lock().ok()?;
    let start = file.seek(SeekFrom::End(0)).ok()?;
    file.write_all(line).ok()?;
    file.write_all(b"\n").ok()?;
    Some((start, start + line.len() as u64 + 1))
}

/// Calls `f` with each newline-ended line of the spill file's range
/// `start..end`, one at a time.
fn each_line(start: u64, end: u64, mut f: impl FnMut(&[u8])) {
    let mut line: Vec<u8> = Vec::new();
    let mut at = start;
    let mut chunk = vec![0u8; 64 * 1024];
    while at < end {
        let want = usize::try_from(end - at)
            .unwrap_or(chunk.len())
            .min(chunk.len());
        let read = spill().and_then(|f| f.lock().ok()).and_then(|mut file| {
            file.seek(SeekFrom::Start(at)).ok()?;
            file.read(&mut chunk[..want]).ok()
        });
        let n = match read {
            Some(n) if n > 0 => n,
            _ => return,
        };
        at += n as u64;
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
            match piece.strip_suffix(b"\n") {
                Some(rest) => {
                    line.extend_from_slice(rest);
                    f(&line);
                    line.clear();
                }
                None => line.extend_from_slice(piece),
            }
        }
    }
}

fn spill_line(line: &[u8]) -> Where {
    let (Some(file), Ok(len)) = (spill(), u32::try_from(line.len())) else {
        return Where::Lost;
    };
    let Ok(mut file) = file.lock() else {
        return Where::Lost;
    };
    match file.seek(SeekFrom::End(0)) {
        Ok(offset) if file.write_all(line).is_ok() => Where::Spilled(offset, len),
        _ => Where::Lost,
    }
}

fn read_back(offset: u64, len: u32) -> Option<Vec<u8>> {
    let mut out = vec![0u8; len as usize];
    let read = spill().and_then(|f| f.lock().ok()).is_some_and(|mut f| {
        f.seek(SeekFrom::Start(offset)).is_ok() && f.read_exact(&mut out).is_ok()
    });
    read.then_some(out)
}

/// A frame read and written again: canonical escapes, numbers in range,
/// cut at `SHOWN_DEPTH`.
fn rewritten(line: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    let Ok((mut value, _)) = crate::jsontext::parse(&text) else {
        return b"null".to_vec();
    };
    crate::jsontext::cut(&mut value, SHOWN_DEPTH, CUT);
    serde_json::to_vec(&value).unwrap_or_else(|_| b"null".to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_kept_as_written_or_rewritten_and_cut() {
        let mut f = Frames::default();
        f.push(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, false);
        f.push(br#"{"jsonrpc":"2.0","id":2,"result":"\u0041"}"#, false);
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{}1{}}}"#,
            "[".repeat(100),
            "]".repeat(100)
        );
        f.push(deep.as_bytes(), false);
        let mut shown = Vec::new();
        f.each(|b| shown.push(String::from_utf8_lossy(b).into_owned()));
        assert_eq!(shown[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert_eq!(shown[1], r#"{"jsonrpc":"2.0","id":2,"result":"A"}"#);
        assert!(shown[2].contains(CUT), "{}", shown[2]);
        let v: Value = serde_json::from_str(&shown[2]).expect("serde reads it");
        assert_eq!(v["id"], 3);
    }

    #[test]
    fn frames_past_the_shown_bounds_are_counted_and_the_rest_come_back_in_order() {
        let mut f = Frames::default();
        let n = 6000;
        let mut total = 0u64;
        for i in 0..n {
            let line = if i % 100 == 7 {
                format!(r#"{{"jsonrpc":"2.0","method":"m","params":{{"i":{i},"s":"\u0041"}}}}"#)
            } else {
                format!(
                    r#"{{"jsonrpc":"2.0","method":"m","params":{{"i":{i},"pad":"{}"}}}}"#,
                    "x".repeat(1000)
                )
            };
            total += line.len() as u64;
            f.push(line.as_bytes(), false);
        }
        assert_eq!(f.len(), n);
        let mut seen = 0;
        let mut shown_bytes = 0u64;
        f.each(|b| {
            let v: Value = serde_json::from_slice(b).expect("json");
            assert_eq!(v["params"]["i"], seen);
            if seen % 100 == 7 {
                assert_eq!(v["params"]["s"], "A");
                assert!(!b.windows(2).any(|w| w == b"\\u"));
            }
            seen += 1;
            shown_bytes += b.len() as u64;
        });
        assert_eq!(seen, SHOWN_FRAMES);
        let (omitted, bytes) = f.omitted();
        assert_eq!(omitted, n - SHOWN_FRAMES);
        assert!(bytes > 0 && bytes < total);
        // One frame larger than the byte bound is counted, not kept.
        let mut big = Frames::default();
        let line = format!(
            r#"{{"jsonrpc":"2.0","method":"m","params":{{"pad":"{}"}}}}"#,
            "y".repeat(600 << 10)
        );
        big.push(line.as_bytes(), false);
        assert_eq!((big.len(), big.is_empty(), big.omitted().0), (1, true, 1));
    }
}
