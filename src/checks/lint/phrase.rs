//! Reading prose the way the lint rules need it: folded (ASCII lower case,
//! Latin lookalikes and fullwidth forms to ASCII, invisible characters
//! dropped, so `іgnоre` and `ig\u{200b}nore` read as `ignore`), cut into
//! sentences and words, with every word's place in the original text kept
//! for the evidence. A pattern is a sequence of word sets, each allowed a
//! bounded number of other words before it, matched inside one sentence.
//! No regular expressions: the rules stay a readable table. Pure.

use crate::checks::lint::hidden::{self, latin_lookalike};
use crate::escape;

/// One word of a sentence: its folded text and where it stands.
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    /// Byte range in the original text.
    pub span: (usize, usize),
    /// Byte offset in the sentence's folded text.
    pub pos: usize,
    /// Written between backticks.
    pub quoted: bool,
}

/// A sentence: its folded text, its words, and its byte range in the
/// original text.
#[derive(Debug, Clone)]
pub struct Sentence {
    pub folded: String,
    pub words: Vec<Word>,
    pub span: (usize, usize),
}

/// One step of a pattern: any of `words` (a trailing `*` matches a
/// prefix), after at most `gap` other words.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub words: &'static [&'static str],
    pub gap: usize,
}

/// A step; `gap` is ignored on a pattern's first step.
pub const fn step(gap: usize, words: &'static [&'static str]) -> Step {
    Step { words, gap }
}

fn fold_char(c: char) -> Option<char> {
    if escape::is_invisible(c) || escape::is_bidi_control(c) {
        return None;
    }
    let c = latin_lookalike(c).unwrap_or(c);
    let c = match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
        '\u{2018}' | '\u{2019}' | '\u{02bc}' => '\'',
        c => c,
    };
    Some(c.to_ascii_lowercase())
}

fn is_word_char(c: char) -> bool {
    hidden::is_word_char(c) || c == '_' || c == '\''
}

/// Whether the sentence ends at the character at `i` of `chars`.
fn ends_sentence(chars: &[(usize, char)], i: usize) -> bool {
    let next = chars.get(i + 1).map(|(_, c)| *c);
    match chars[i].1 {
        '\n' | ';' => true,
        '.' | '!' | '?' => next.is_none_or(char::is_whitespace),
        _ => false,
    }
}

/// `text` folded and cut into sentences.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..chars.len() {
        if ends_sentence(&chars, i) || i + 1 == chars.len() {
            let end = chars.get(i + 1).map_or(text.len(), |(b, _)| *b);
            if let Some(s) = sentence(text, start, end) {
                out.push(s);
            }
            start = end;
        }
    }
    out
}

fn sentence(text: &str, start: usize, end: usize) -> Option<Sentence> {
    let mut folded = String::new();
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    let mut last = ' ';
    for (offset, c) in text[start..end].char_indices() {
        let at = start + offset;
        let Some(f) = fold_char(c) else { continue };
        let f = if f.is_whitespace() { ' ' } else { f };
        if f == ' ' && last == ' ' {
            continue;
        }
        folded.push(f);
        if is_word_char(f) {
            let pos = folded.len() - f.len_utf8();
            let w = current.get_or_insert_with(|| Word {
                text: String::new(),
                span: (at, at),
                pos,
                quoted: last == '`',
            });
            w.text.push(f);
            w.span.1 = at + c.len_utf8();
        } else if let Some(w) = current.take() {
            words.push(w);
        }
        last = f;
    }
    words.extend(current);
    for w in &mut words {
        w.text = w.text.trim_matches('\'').to_string();
    }
    words.retain(|w| !w.text.is_empty());
    let folded = folded.trim().to_string();
    (!folded.is_empty()).then_some(Sentence {
        folded,
        words,
        span: (start, end),
    })
}

fn fits(word: &str, set: &[&str]) -> bool {
    set.iter().any(|w| match w.strip_suffix('*') {
        Some(prefix) => word.starts_with(prefix),
        None => word == *w,
    })
}

/// The first match of `pattern` in `s`: the index of its first and last
/// word.
pub fn find(s: &Sentence, pattern: &[Step]) -> Option<(usize, usize)> {
    let first = pattern.first()?;
    (0..s.words.len())
        .filter(|&i| fits(&s.words[i].text, first.words))
        .find_map(|i| rest(s, &pattern[1..], i).map(|end| (i, end)))
}

fn rest(s: &Sentence, pattern: &[Step], at: usize) -> Option<usize> {
    let Some(step) = pattern.first() else {
        return Some(at);
    };
    (at + 1..=(at + 1 + step.gap).min(s.words.len().saturating_sub(1)))
        .filter(|&j| j < s.words.len() && fits(&s.words[j].text, step.words))
        .find_map(|j| rest(s, &pattern[1..], j))
}

/// Whether one of `words` stands within `before` words ahead of word `i`.
pub fn preceded_by(s: &Sentence, i: usize, before: usize, words: &[&str]) -> bool {
    s.words[i.saturating_sub(before)..i]
        .iter()
        .any(|w| fits(&w.text, words))
}

/// The byte range of words `first..=last`.
pub fn span(s: &Sentence, first: usize, last: usize) -> (usize, usize) {
    (s.words[first].span.0, s.words[last].span.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERRIDE: &[Step] = &[
        step(0, &["ignore"]),
        step(2, &["previous", "all"]),
        step(2, &["instruction*"]),
    ];

    #[test]
    fn words_are_folded_and_placed_in_the_original() {
        let text = "First.  Then `Іgn\u{200b}ore` ALL prior instructions!";
        let s = sentences(text);
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].folded, "then `ignore` all prior instructions!");
        let w = &s[1].words[1];
        assert_eq!((w.text.as_str(), w.quoted), ("ignore", true));
        assert_eq!(&text[w.span.0..w.span.1], "Іgn\u{200b}ore");
        let (a, b) = find(&s[1], OVERRIDE).expect("a match");
        let (from, to) = span(&s[1], a, b);
        assert_eq!(&text[from..to], "Іgn\u{200b}ore` ALL prior instructions");
    }

    #[test]
    fn a_path_or_a_version_does_not_end_a_sentence_and_gaps_are_bounded() {
        let s = sentences("Reads ~/.ssh/config and v1.2 files. Next");
        assert_eq!(s.len(), 2);
        assert!(s[0].folded.contains("~/.ssh/config"));
        let far = &sentences("ignore one two three previous instructions")[0];
        assert!(find(far, OVERRIDE).is_none());
        let near = &sentences("ignore the previous instructions")[0];
        assert!(find(near, OVERRIDE).is_some());
        let split = sentences("ignore previous. instructions");
        assert!(split.iter().all(|s| find(s, OVERRIDE).is_none()));
    }
}
