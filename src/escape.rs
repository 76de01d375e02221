//! Making bytes the guard did not write safe to show: server output, tool
//! results, file names. One escaper with a few knobs serves every output:
//! invalid UTF-8 becomes `\xNN`; control characters (C0, DEL, C1), the
//! bidirectional controls (U+202E and friends, which can reorder what a
//! terminal shows) and the invisible characters (zero-width, Unicode Tag
//! characters, variation selectors: Unicode's default-ignorable set)
//! become `\u{..}`. On top of that line, each format has its rule: a
//! GitHub workflow command's data and properties (`annotation_data`,
//! `annotation_property`), Markdown (`markdown`), XML (`xml`) and HTML
//! (`html`), so a server's string is always inert text. Pure functions.

/// How `escape` treats what it meets.
#[derive(Debug, Clone, Copy)]
struct Knobs {
    /// Escape `"` and `\` (for text shown between double quotes).
    quotes: bool,
    /// Let `\n` and `\t` through (multi-line text for a person).
    layout: bool,
    /// Escape control and bidi characters (false: only invalid bytes).
    controls: bool,
    /// Characters kept before the text is cut with `...`.
    max_chars: usize,
}

pub use crate::fold::{is_bidi_control, is_invisible};

/// Whether a character is shown as an escape in text for a person.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || is_invisible(c)
}

/// Escapes `bytes` by `k`, after scrubbing them of every secret (before
/// anything is cut: no cut can end in a piece of one).
fn escape(bytes: &[u8], k: Knobs) -> String {
    let scrubbed = crate::redact::out_bytes(bytes);
    let bytes: &[u8] = &scrubbed;
    let mut out = String::with_capacity(bytes.len().min(k.max_chars.saturating_mul(4)) + 8);
    let mut count = 0usize;
    // One character of room is kept for the cut marker's decision.
    let total = if k.max_chars == usize::MAX {
        0
    } else {
        char_count(bytes)
    };
    let cut_at = if total > k.max_chars {
        k.max_chars - 3
    } else {
        usize::MAX
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if count == cut_at {
                out.push_str("...");
                return out;
            }
            count += 1;
            push_char(&mut out, c, k);
        }
        for b in chunk.invalid() {
            if count == cut_at {
                out.push_str("...");
                return out;
            }
            count += 1;
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

fn push_char(out: &mut String, c: char, k: Knobs) {
    match c {
        '"' if k.quotes => out.push_str("\\\""),
        '\\' if k.quotes => out.push_str("\\\\"),
        '\n' | '\t' if k.layout => out.push(c),
        '\n' if k.controls => out.push_str("\\n"),
        '\r' if k.controls => out.push_str("\\r"),
        '\t' if k.controls => out.push_str("\\t"),
        c if k.controls && is_hidden(c) => {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
        c => out.push(c),
    }
}

/// Characters, counting each invalid byte as one.
fn char_count(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + c.invalid().len())
        .sum()
}

/// Longest quotation, in characters, before it is cut with `...`.
pub const QUOTE_MAX: usize = 160;

/// Text from the server for a message: in double quotes, every control
/// escaped, cut to `QUOTE_MAX` characters.
pub fn quote(bytes: &[u8]) -> String {
    let inner = escape(
        bytes,
        Knobs {
            quotes: true,
            layout: false,
            controls: true,
            max_chars: QUOTE_MAX,
        },
    );
    format!("\"{inner}\"")
}

/// One line of text for a terminal: controls (newline and tab included) and
/// bidi characters escaped, everything else as is.
pub fn line(text: &str) -> String {
    escape(
        text.as_bytes(),
        Knobs {
            quotes: false,
            layout: false,
            controls: true,
            max_chars: usize::MAX,
        },
    )
}

/// Text for a person that may span lines (a tool's output): newlines and
/// tabs kept, every other control and bidi character escaped. A backslash
/// followed by `t` stays two characters.
pub fn multiline(text: &str) -> String {
    escape(
        text.as_bytes(),
        Knobs {
            quotes: false,
            layout: true,
            controls: true,
            max_chars: usize::MAX,
        },
    )
}

/// Bytes as text for a JSON string (whose writer escapes controls itself):
/// valid UTF-8 as is, each invalid byte as `\xNN`.
pub fn bytes(b: &[u8]) -> String {
    escape(
        b,
        Knobs {
            quotes: false,
            layout: false,
            controls: false,
            max_chars: usize::MAX,
        },
    )
}

/// A GitHub workflow command's message: the line escaped, then `%`, CR and
/// LF percent-encoded (the runner decodes them; a raw newline would start
/// a command of the server's choosing).
pub fn annotation_data(text: &str) -> String {
    line(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value (`file=`, `title=`): as the data,
/// plus `:` and `,`.
pub fn annotation_property(text: &str) -> String {
    annotation_data(text)
        .replace(':', "%3A")
        .replace(',', "%2C")
}

/// Text for Markdown (a GitHub job summary or a table cell): the line
/// escaped, then every character that could make markup (`<`, `>`, `&`, a
/// backtick, `|`, `[`, `]`, a backslash) written as an HTML entity, and
/// bare URLs broken so no link is made.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in line(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '`' => out.push_str("&#96;"),
            '|' => out.push_str("&#124;"),
            '[' => out.push_str("&#91;"),
            ']' => out.push_str("&#93;"),
            '\\' => out.push_str("&#92;"),
            c => out.push(c),
        }
    }
    out.replace("://", ":&#47;&#47;")
        .replace("www.", "www&#46;")
}

/// Text fit for an XML attribute or element: the line escaped (XML 1.0
/// cannot carry most controls), U+FFFE and U+FFFF (not XML characters)
/// shown as escapes, then the five XML specials.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in line(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{fffe}' | '\u{ffff}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Text for HTML: as for XML (attribute values included).
pub fn html(text: &str) -> String {
    xml(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_controls_quotes_and_invalid_bytes_and_shortens() {
        assert_eq!(
            quote(b"hi \x1b[31mred\x07\n"),
            "\"hi \\u{1b}[31mred\\u{7}\\n\""
        );
        assert_eq!(quote(b"say \"x\" \\ y"), "\"say \\\"x\\\" \\\\ y\"");
        assert_eq!(quote(b"a\xffb"), "\"a\\xffb\"");
        let q = quote("x".repeat(500).as_bytes());
        assert_eq!(q.len(), 157 + 3 + 2);
        assert!(q.ends_with("...\""));
        assert_eq!(quote("é".repeat(160).as_bytes()).chars().count(), 162);
    }

    #[test]
    fn a_line_defuses_terminal_escapes_and_bidi_overrides() {
        assert_eq!(line("a\x1b]0;pwned\x07b\r"), "a\\u{1b}]0;pwned\\u{7}b\\r");
        assert_eq!(line("plain ünïcode"), "plain ünïcode");
        assert_eq!(line("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
        assert_eq!(line("tab\there"), "tab\\there");
    }

    #[test]
    fn multiline_keeps_real_tabs_and_newlines_but_not_backslash_t() {
        assert_eq!(
            multiline("C:\\temp\\tools\n\tok\x1b"),
            "C:\\temp\\tools\n\tok\\u{1b}"
        );
    }

    #[test]
    fn bytes_only_escape_invalid_utf8() {
        assert_eq!(bytes(b"caf\xe9 \x01ok"), "caf\\xe9 \x01ok");
    }
}
