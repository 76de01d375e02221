//! One sentence as the rules read it (`Ctx`: its lower-cased text, its
//! example cues, whether a word is a mention), where a directive stands
//! (`imperative`), negation, and how a hit's evidence is cut. Shared by
//! `rules` and `special`; reads `lexicon`'s word lists. Pure.

use crate::checks::lint::family::{Family, Hit};
use crate::checks::lint::lexicon;
use crate::checks::lint::needle::Joined;
use crate::checks::lint::phrase;
use crate::checks::lint::read::Sentence;

/// A sentence's text in the original, lower-cased (ASCII).
pub(super) fn raw(text: &str, s: &Sentence) -> String {
    text[s.span.0..s.span.1].to_ascii_lowercase()
}

// The word lists more than one reader asks of a sentence, each built into
// one set (a `word_set!` is a static and its builder at every place it is
// written).

/// The negation words (`lexicon::NEGATIONS`).
pub(super) fn negations() -> &'static phrase::Set {
    crate::word_set!(lexicon::NEGATIONS)
}

/// The words that report or exemplify (`lexicon::MENTION`).
pub(super) fn mentions() -> &'static phrase::Set {
    crate::word_set!(lexicon::MENTION)
}

/// The words of a refusal (`lexicon::REFUSED`).
pub(super) fn refusals() -> &'static phrase::Set {
    crate::word_set!(lexicon::REFUSED)
}

/// The words that speak to the model (`lexicon::SPEAKING_TO`).
pub(super) fn speaking_to() -> &'static phrase::Set {
    crate::word_set!(lexicon::SPEAKING_TO)
}

pub(super) fn negated(s: &Sentence, at: usize) -> bool {
    negations().before(s, at, 3)
}

/// One sentence being read, with what several rules ask of it computed
/// once: its lower-cased text, where an example cue stands, whether any
/// word of it reports or exemplifies.
pub(super) struct Ctx<'t> {
    pub(super) text: &'t str,
    pub(super) s: &'t Sentence,
    lower: std::cell::OnceCell<String>,
    cue: std::cell::OnceCell<Option<usize>>,
    mentions: std::cell::OnceCell<bool>,
}

impl<'t> Ctx<'t> {
    pub(super) fn new(text: &'t str, s: &'t Sentence) -> Ctx<'t> {
        Ctx {
            text,
            s,
            lower: std::cell::OnceCell::new(),
            cue: std::cell::OnceCell::new(),
            mentions: std::cell::OnceCell::new(),
        }
    }

    /// The sentence's text, lower-cased (ASCII).
    pub(super) fn lower(&self) -> &str {
        self.lower.get_or_init(|| raw(self.text, self.s))
    }

    /// Where an example cue (`e.g.`, `such as`) stands in the sentence.
    pub(super) fn cue(&self) -> Option<usize> {
        *self.cue.get_or_init(|| {
            let lower = self.lower();
            Joined("e.g.|for example|such as|example:|i.e.")
                .iter()
                .filter_map(|c| lower.find(c))
                .min()
        })
    }

    /// The original text of the sentence.
    pub(super) fn original(&self) -> &str {
        &self.text[self.s.span.0..self.s.span.1]
    }

    /// Whether the words from `a` are a mention: after a word that reports
    /// or exemplifies them, or quoted where the sentence talks about
    /// examples.
    pub(super) fn mentioned(&self, a: usize) -> bool {
        let s = self.s;
        // (`[WARN] set aside …`: a log level in brackets is a label, not
        // a verb of detecting or warning.)
        let mentions_before = s.words[a.saturating_sub(6)..a]
            .iter()
            .any(|w| !(w.lead == '[' && w.upper) && mentions().has(w));
        if mentions_before {
            return true;
        }
        if self
            .cue()
            .is_some_and(|at| s.span.0 + at < s.words[a].span.0)
        {
            return true;
        }
        s.words[a].quoted
            && (self.cue().is_some() || *self.mentions.get_or_init(|| mentions().any(s)))
    }
}

/// Whether word `a` stands where a directive does.
pub(super) fn imperative(s: &Sentence, a: usize) -> bool {
    if a == 0
        || matches!(
            s.words[a].lead,
            ':' | ';'
                | ','
                | '('
                | '['
                | ']'
                | '-'
                | '*'
                | '>'
                | '"'
                | '\''
                | '`'
                | '\u{2022}'
                | '|'
                | '!'
                | '.'
        )
    {
        return true;
    }
    if crate::word_set!(lexicon::IMPERATIVE_CUES).before(s, a, 3) {
        return true;
    }
    a >= 1
        && phrase::is(s, a - 1, "to")
        && phrase::preceded_by(
            s,
            a - 1,
            2,
            "need needs have has want required sure remember forget important mandatory going asked instructed supposed told expected ought free allowed got fine ok okay acceptable permitted safe encouraged welcome",
        )
}

/// Where the evidence of a hit at word `a` ends: its sentence's end, at
/// most 200 bytes on.
pub(super) fn evidence_span(text: &str, s: &Sentence, a: usize, b: usize) -> (usize, usize) {
    let from = s.words[a].span.0;
    let mut end = s.span.1.min(from + 200).max(s.words[b].span.1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let trimmed = text[from..end].trim_end().len();
    (from, from + trimmed)
}

pub(super) fn hit(
    family: Family,
    text: &str,
    span: (usize, usize),
    error: bool,
    what: String,
) -> Hit {
    Hit {
        family,
        span,
        error,
        what,
        evidence: text[span.0..span.1].to_string(),
        layer: None,
    }
}
