//! The rules that read more than words: a directive to take a secret
//! file (a path found in the folded text, a verb of taking before it), a
//! setting that turns a guard off (`security_level = 0`,
//! `allow_unsafe=true`), prompt markup a tool does not document, and a
//! shell payload no description has reason to hold. Each reads one sentence
//! through `rules`' context. Pure.

use crate::checks::lint::ctx::{self, Ctx, evidence_span, hit, imperative, negated};
use crate::checks::lint::family::{Family, Hit};
use crate::checks::lint::lexicon;
use crate::checks::lint::needle::Joined;
use crate::checks::lint::phrase;
use crate::checks::lint::read::{self, Sentence, fold_char};

/// The sentence's folded text and, for each of its bytes, the byte of the
/// original it came from.
fn folded(text: &str, s: &Sentence) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut map = Vec::new();
    for (offset, c) in text[s.span.0..s.span.1].char_indices() {
        if let Some(f) = fold_char(c) {
            let before = out.len();
            out.push(f);
            map.extend(std::iter::repeat_n(s.span.0 + offset, out.len() - before));
        }
    }
    (out, map)
}

/// Where `needle` stands in `hay` as a path of its own (not inside a
/// longer word: `process.env` is not `.env`).
fn path_at(hay: &str, needle: &str) -> Option<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = hay[from..].find(needle) {
        let at = from + found;
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        let starts_word = needle.starts_with(['~', '/', '.']) || !before.is_some_and(word);
        let glued = needle.starts_with('.') && before.is_some_and(word);
        if starts_word && !glued && !after.is_some_and(|c| word(c) || c == '-') {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

/// The word before byte `at` that takes the file: a verb of taking in the
/// imperative (`read`, not `reads`, `is read` or `read from`), or `needs`
/// before `the contents of`.
fn taking_verb(s: &Sentence, at: usize) -> Option<usize> {
    let before = || (0..s.words.len()).take_while(move |&i| s.words[i].span.0 < at);
    let verb = before().find(|&i| {
        phrase::is(s, i, lexicon::TAKE)
            && imperative(s, i)
            && !negated(s, i)
            && !phrase::preceded_by(s, i, 1, lexicon::PASSIVE)
            && !phrase::is(s, i + 1, lexicon::FROM_WORDS)
    });
    verb.or_else(|| {
        before().find(|&i| {
            phrase::is(s, i, lexicon::NEEDING)
                && phrase::is(s, i + 2, "contents content")
                && !negated(s, i)
        })
    })
}

/// A directive to read, send or include a secret file.
pub(super) fn secret_file(ctx: &Ctx) -> Option<Hit> {
    let (text, s) = (ctx.text, ctx.s);
    if !crate::word_set!(lexicon::PATH_WORDS).any(s) && !s.words.iter().any(|w| w.cjk) {
        return None;
    }
    let (mut fold, map) = folded(text, s);
    if s.words.iter().any(|w| w.leet) {
        fold = read::unleet(&fold);
    }
    let (path, at) =
        lexicon::secret_paths().find_map(|p| path_at(&fold, &p).map(|at| (p, map[at])))?;
    let cjk = lexicon::TAKE
        .split_whitespace()
        .filter(|t| t.chars().any(read::is_cjk))
        .any(|t| fold.contains(t));
    let (from, word) = match taking_verb(s, at) {
        Some(i) if !ctx.mentioned(i) => (s.words[i].span.0, s.words[i].text.clone()),
        None if cjk && !ctx.mentioned(0) => (s.span.0, String::from("read")),
        _ => return None,
    };
    let end = evidence_span(text, s, 0, 0).1.max(from);
    Some(hit(
        Family::SensitiveFile,
        text,
        (from, end),
        true,
        format!("a directive to {word} {path}"),
    ))
}

/// The value a setting written at `from` in `sentence` (a name, then `=`,
/// `:` or `to`) is given: the value's first word and where that word ends.
fn setting_value(sentence: &str, from: usize, to_allowed: bool) -> Option<(String, usize)> {
    let rest = sentence[from..].trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let rest = rest.trim_start();
    let value = rest
        .strip_prefix(['=', ':'])
        .or_else(|| rest.strip_prefix("to ").filter(|_| to_allowed))?
        .trim_start();
    let word: String = value
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '"' | '\''))
        .collect();
    let end = sentence.len() - value.len() + word.len();
    Some((word.trim_matches(['"', '\'']).to_string(), end))
}

/// The hit of a setting from byte `start` to `end` of the sentence.
fn setting_hit(ctx: &Ctx, start: usize, end: usize) -> Hit {
    let text = ctx.text;
    let mut end = (ctx.s.span.0 + end).min(ctx.s.span.1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    hit(
        Family::Guardrail,
        text,
        (ctx.s.span.0 + start, end.max(ctx.s.span.0 + start)),
        true,
        "a setting that turns a guard off".into(),
    )
}

/// `security_level = 0`, `safe_mode=false`, `sandbox: disabled`,
/// `allow_unsafe=true`: a setting that turns a guard off, asked for (not
/// described under a condition).
pub(super) fn guard_off(ctx: &Ctx) -> Option<Hit> {
    let s = ctx.s;
    let to_falsy =
        (0..s.words.len()).any(|i| phrase::is(s, i, "to") && phrase::is(s, i + 1, lexicon::FALSY));
    let original = ctx.original();
    if !to_falsy && !original.bytes().any(|b| b == b'=' || b == b':') {
        return None;
    }
    if !phrase::any(s, lexicon::ASKING) {
        return None;
    }
    let sentence = ctx.lower();
    for stem in lexicon::UNSAFE_SETTINGS.split_whitespace() {
        let Some(at) = sentence.find(stem) else {
            continue;
        };
        let conditional = Joined("when |if |unless ")
            .iter()
            .any(|c| sentence[..at].contains(c));
        if let Some((value, end)) = setting_value(sentence, at + stem.len(), false)
            && !conditional
            && lexicon::TRUTHY.split_whitespace().any(|t| t == value)
        {
            return Some(setting_hit(ctx, at, end));
        }
    }
    for stem in lexicon::GUARD_SETTINGS.split_whitespace() {
        let mut from = 0;
        while let Some(found) = sentence[from..].find(stem) {
            let at = from + found;
            from = at + stem.len();
            if let Some((value, end)) = setting_value(sentence, from, true)
                && lexicon::FALSY.split_whitespace().any(|f| f == value)
            {
                return Some(setting_hit(ctx, at, end));
            }
        }
    }
    None
}

/// Chat-template and prompt markup addressed to the model (not a template
/// the tool documents).
const MARKUP: &str = "<important> </important> <system> </system> [system] <|im_start|> <|system|> <<sys>> <instructions> </instructions> <|endoftext|> <|eot_id|> <|start_header_id|> <admin> <secret>";

pub(super) fn markup(ctx: &Ctx) -> Option<Hit> {
    let (text, s) = (ctx.text, ctx.s);
    let original = ctx.original();
    if !original.bytes().any(|b| b == b'<' || b == b'[') {
        return None;
    }
    let sentence = ctx.lower();
    let (tag, at) = MARKUP
        .split_whitespace()
        .find_map(|m| sentence.find(m).map(|at| (m, at)))
        .or_else(|| original.find("[INST]").map(|at| ("[INST]", at)))?;
    let documented = Joined("e.g.|such as|template|format|token|marker|example|role|placeholder")
        .iter()
        .any(|c| sentence.contains(c));
    if documented {
        return None;
    }
    let from = s.span.0 + at;
    Some(hit(
        Family::Markup,
        text,
        (from, from + tag.len()),
        false,
        "prompt markup".into(),
    ))
}

/// A payload no description has reason to hold, when nothing says it is
/// refused or detected.
pub(super) fn payload(ctx: &Ctx) -> Option<Hit> {
    let (text, s) = (ctx.text, ctx.s);
    const STRONG: &[&str] = &[
        "/dev/tcp/",
        "nc -e",
        "ncat -e",
        "netcat -e",
        "powershell -enc",
        "-encodedcommand",
        "mkfifo",
        "base64 -d | sh",
        "base64 -d | bash",
        "base64 -d|sh",
        "xp_cmdshell",
    ];
    let original = ctx.original();
    if !original.bytes().any(|b| matches!(b, b'/' | b'-' | b'|'))
        && !original.contains("mkfifo")
        && !original.contains("xp_")
    {
        return None;
    }
    let at = STRONG.iter().find_map(|p| ctx.lower().find(p))?;
    let cued = ctx::refusals().any(s) || ctx::mentions().any(s);
    if cued {
        return None;
    }
    let from = s.span.0 + at;
    let span = evidence_span(text, s, 0, 0);
    Some(hit(
        Family::Injection,
        text,
        (from, span.1.max(from)),
        false,
        "a shell payload".into(),
    ))
}
