//! A report as the bytes to write: its text, and the slots where larger
//! parts go as they are written: a run's frames (streamed one at a time
//! from where they are kept) and parts built only when their turn comes
//! (each `--repeat` run's document, the drift), each dropped once written.
//! So writing a report of many large runs takes the memory of its largest
//! part, not of the whole.

use crate::error::Error;
use crate::session::frames::Frames;

/// What fills a slot.
pub enum Slot<'a> {
    /// A `frames` array.
    Frames(&'a Frames),
    /// A part built when written: given the indentation of its line, it
    /// returns itself rendered at that indentation.
    Later(Box<dyn Fn(&str) -> Rendered<'a> + 'a>),
}

impl std::fmt::Debug for Slot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slot::Frames(frames) => write!(f, "Frames({})", frames.len()),
            Slot::Later(_) => f.write_str("Later"),
        }
    }
}

#[derive(Debug)]
enum Piece<'a> {
    Text(String),
    /// A slot, and the indentation of its line.
    Slot(Slot<'a>, String),
}

/// A rendered report.
#[derive(Debug)]
pub struct Rendered<'a> {
    pieces: Vec<Piece<'a>>,
}

/// The string a JSON writer puts where slot `k` goes.
pub fn placeholder(k: usize) -> String {
    format!("\u{1}slot:{k}\u{1}")
}

/// `text`, pretty JSON written at indentation 0, moved to `indent`.
pub fn indented(text: &str, indent: &str) -> String {
    if indent.is_empty() {
        return text.to_string();
    }
    text.replace('\n', &format!("\n{indent}"))
}

impl<'a> Rendered<'a> {
    /// Plain text.
    pub fn text(text: String) -> Rendered<'a> {
        Rendered {
            pieces: vec![Piece::Text(text)],
        }
    }

    /// Pretty JSON text whose placeholder strings (`placeholder(k)`, as
    /// JSON writes them) stand for `slots[k]`.
    pub fn json(text: String, slots: Vec<Slot<'a>>) -> Rendered<'a> {
        let mut slots: Vec<Option<Slot<'a>>> = slots.into_iter().map(Some).collect();
        let mut pieces = Vec::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("\"\\u0001slot:") {
            let after = &rest[at + 12..];
            let Some(end) = after.find("\\u0001\"") else {
                break;
            };
            let slot = after[..end]
                .parse::<usize>()
                .ok()
                .and_then(|k| slots.get_mut(k)?.take());
            let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
            let indent: String = rest[line_start..at]
                .chars()
                .take_while(|c| *c == ' ')
                .collect();
            pieces.push(Piece::Text(rest[..at].to_string()));
            pieces.push(match slot {
                Some(slot) => Piece::Slot(slot, indent),
                None => Piece::Text("null".into()),
            });
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
                Piece::Slot(Slot::Frames(frames), indent) => write_frames(frames, indent, out)?,
                Piece::Slot(Slot::Later(build), indent) => build(indent).write(out)?,
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
        let lead = format!("{}{indent}  ", if first { "\n" } else { ",\n" });
        first = false;
        // Two writes: a large frame is never copied to be written.
        result = out(lead.as_bytes()).and_then(|()| out(frame));
    });
    result?;
    out(format!("\n{indent}]").as_bytes())
}
