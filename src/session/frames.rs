//! What the report keeps of the server's bytes, kept as bytes (`Blob`):
//! the frames a run's JSON report shows (every valid JSON-RPC message the
//! server wrote, as the line it wrote, not as parsed values, which take up
//! to 70 times as much) and the pinned definitions' canonical text. Blobs
//! stay in memory while they total under `IN_MEMORY` over the whole
//! process; past it they go to one temporary file (unlinked at once:
//! nothing is left behind, whatever ends the guard) and are read back one
//! at a time. So memory grows neither with `--repeat` nor with what the
//! server writes, and the report still holds all of it. Each frame notes
//! whether its line can be shown as written (plain JSON, not too deep, no
//! escape that could spell a secret the scrubber reads only in its
//! canonical form) or must be read and written again.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// Frame bytes kept in memory, over all runs, before the rest spill.
const IN_MEMORY: u64 = 4 << 20;
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
        let len = bytes.len() as u64;
        let kept = KEPT.fetch_add(len, Ordering::Relaxed) + len;
        if kept <= IN_MEMORY {
            Blob(Where::Memory(bytes.into()))
        } else {
            KEPT.fetch_sub(len, Ordering::Relaxed);
            Blob(spill_line(bytes))
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

#[derive(Debug, Clone)]
struct Frame {
    at: Blob,
    /// Shown as written (else read and written again).
    raw: bool,
}

/// One run's frames.
#[derive(Debug, Clone, Default)]
pub struct Frames {
    frames: Vec<Frame>,
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
    /// Keeps one message line (without its newline or `\r`).
    pub fn push(&mut self, line: &[u8], quirky: bool) {
        let raw = shown_as_written(line, quirky);
        self.frames.push(Frame {
            at: Blob::keep(line),
            raw,
        });
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Each frame as compact JSON, in order, one at a time.
    pub fn each(&self, mut f: impl FnMut(&[u8])) {
        for frame in &self.frames {
            let bytes = frame.at.bytes().unwrap_or_else(|| b"null".to_vec());
            if frame.raw {
                f(&bytes);
            } else {
                f(&rewritten(&bytes));
            }
        }
    }

    /// The frames as values (for tests and small reports).
    pub fn values(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.each(|b| out.push(serde_json::from_slice(b).unwrap_or(Value::Null)));
        out
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
}
