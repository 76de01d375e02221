//! A report as the bytes to write: its text, and where a run's frames go
//! (the JSON report's `frames` arrays). The frames are streamed into the
//! output one at a time from where they are kept, never built into one
//! string, so writing a report of many large runs takes no more memory
//! than one frame.

use crate::error::Error;
use crate::session::frames::Frames;

#[derive(Debug)]
enum Piece<'a> {
    Text(String),
    /// A `frames` array, and the indentation of its line.
    Frames(&'a Frames, String),
}

/// A rendered report.
#[derive(Debug)]
pub struct Rendered<'a> {
    pieces: Vec<Piece<'a>>,
}

/// The string a writer puts where frames `k` go.
pub fn placeholder(k: usize) -> String {
    format!("\u{1}frames:{k}\u{1}")
}

impl<'a> Rendered<'a> {
    /// Plain text.
    pub fn text(text: String) -> Rendered<'a> {
        Rendered {
            pieces: vec![Piece::Text(text)],
        }
    }

    /// Pretty JSON text whose placeholder strings (`placeholder(k)`, as
    /// JSON writes them) stand for `frames[k]`.
    pub fn json(text: String, frames: &[&'a Frames]) -> Rendered<'a> {
        let mut pieces = Vec::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("\"\\u0001frames:") {
            let after = &rest[at + 14..];
            let Some(end) = after.find("\\u0001\"") else {
                break;
            };
            let k: Option<usize> = after[..end].parse().ok();
            let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
            let indent: String = rest[line_start..at]
                .chars()
                .take_while(|c| *c == ' ')
                .collect();
            pieces.push(Piece::Text(rest[..at].to_string()));
            if let Some(f) = k.and_then(|k| frames.get(k)) {
                pieces.push(Piece::Frames(f, indent));
            } else {
                pieces.push(Piece::Text("[]".into()));
            }
            rest = &after[end + 7..];
        }
        pieces.push(Piece::Text(rest.to_string()));
        Rendered { pieces }
    }

    /// Writes every piece through `out`, in order.
    pub fn write(&self, out: &mut dyn FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out(t.as_bytes())?,
                Piece::Frames(frames, indent) => write_frames(frames, indent, out)?,
            }
        }
        Ok(())
    }

    /// The whole report as one string (tests, small reports).
    pub fn to_text(&self) -> String {
        let mut text = Vec::new();
        let _ = self.write(&mut |b: &[u8]| {
            text.extend_from_slice(b);
            Ok(())
        });
        String::from_utf8_lossy(&text).into_owned()
    }
}

/// `[`, each frame on a line of its own one step in, `]`.
fn write_frames(
    frames: &Frames,
    indent: &str,
    out: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    if frames.is_empty() {
        return out(b"[]");
    }
    out(b"[")?;
    let mut result = Ok(());
    let mut first = true;
    frames.each(|frame| {
        if result.is_err() {
            return;
        }
        let mut line = Vec::with_capacity(frame.len() + indent.len() + 4);
        line.extend_from_slice(if first { b"\n" } else { b",\n" });
        line.extend_from_slice(indent.as_bytes());
        line.extend_from_slice(b"  ");
        line.extend_from_slice(frame);
        first = false;
        result = out(&line);
    });
    result?;
    out(format!("\n{indent}]").as_bytes())
}
