//! Keeping secrets out of every byte the guard writes.
//!
//! What is secret: the value of a variable whose name says so (`API_TOKEN`,
//! forwarded or set with `--env`, or in the guard's own environment, which
//! a server can try to read), a value handed to the server that is shaped
//! like a credential whatever its name (a PEM block, a known token prefix,
//! a long high-entropy string, the password of a URL), and what stands in
//! the server's argv where a credential goes (`--token x`, `API_KEY=x`,
//! `Authorization: Bearer x`, `https://user:pass@host`). A plain setting
//! (`--env BROWSER=puppeteer`) is not secret.
//!
//! The checks judge the server's raw bytes; scrubbing is the output
//! boundary's work. `redact_argv` hides argv secrets where the argv is
//! shown. The `Redactor` replaces every form a secret can take in output
//! (as is, JSON-, XML- and Markdown-escaped, percent-encoded, base64 at any
//! alignment, hex, each line of a multi-line one) and every spelling that
//! reads as it (Tag characters, Latin lookalikes, fullwidth forms, invisible
//! characters between its letters, JSON `\u` escapes) with `<redacted>`.
//! The plan installs the run's redactor once (`install`); every escaper
//! scrubs before it escapes or cuts, and every output sink scrubs what it
//! writes (`out_bytes`), so no output can hold a secret or a piece of one.
//! The guard's own words are never secrets.

use std::borrow::Cow;
use std::sync::{Arc, RwLock};

use serde_json::Value;

pub const REDACTED: &str = "<redacted>";

/// Shortest secret scrubbed (a secret-named value of 1 or 2 characters
/// would turn every report into noise and hides nothing).
const MIN_LEN: usize = 3;
/// Shortest secret also looked for encoded (base64, hex) and in lookalike
/// spellings: shorter ones would match innocent text.
const ENCODED_MIN: usize = 6;

/// What makes a variable or flag name secret. A name is split into words at
/// `-`, `_`, `.` and lower-to-upper case changes; it is secret when one word
/// (or two adjacent ones, for `api key` and `private key`) starts with a
/// `SECRET_PREFIXES` entry or contains a `SECRET_PARTS` entry (`PGPASSWORD`).
/// Over-redacting `--author` is the price of never printing
/// `--authorization`.
const SECRET_PREFIXES: &[&str] = &["auth", "bearer", "cookie", "pwd", "session"];
const SECRET_PARTS: &[&str] = &[
    "apikey",
    "credential",
    "passw",
    "privatekey",
    "secret",
    "token",
];

/// Authorization schemes kept in sight before a redacted credential.
const SCHEMES: &[&str] = &["Bearer", "Basic", "Token", "Digest", "Bot"];

/// Prefixes of credentials that say what they are (GitHub, GitLab, Slack,
/// OpenAI and Stripe style keys, AWS access key ids, Google API keys and
/// OAuth tokens, npm, PyPI, Hugging Face, Shopify, SendGrid,
/// DigitalOcean, Grafana; `eyJ` opens a JWT).
const TOKEN_PREFIXES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxr-",
    "xoxs-",
    "xapp-",
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "AKIA",
    "ASIA",
    "AIza",
    "ya29.",
    "npm_",
    "pypi-",
    "hf_",
    "shpat_",
    "SG.",
    "dop_v1_",
    "glc_",
    "eyJ",
];

/// The words of `name`, lower case and joined without separators, with
/// where each word starts: adjacent words are then one slice of it. One
/// allocation, however many names the environment holds.
fn words(name: &str) -> (Vec<u8>, Vec<usize>) {
    let mut joined = Vec::with_capacity(name.len());
    let mut starts = Vec::new();
    let mut in_word = false;
    let mut prev_lower = false;
    for b in name.bytes() {
        if !b.is_ascii_alphanumeric() {
            in_word = false;
            prev_lower = false;
            continue;
        }
        if !in_word || (b.is_ascii_uppercase() && prev_lower) {
            starts.push(joined.len());
            in_word = true;
        }
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
        joined.push(b.to_ascii_lowercase());
    }
    (joined, starts)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    // The first byte decides most windows without a comparison call.
    let Some(&first) = needle.first() else {
        return true;
    };
    hay.windows(needle.len())
        .any(|w| w[0] == first && w == needle)
}

/// Whether a variable, option or header name names a secret (`API_TOKEN`,
/// `--client-secret`, `sessionId`, `PRIVATE_KEY`, `X-Api-Key`).
pub fn is_secret_name(name: &str) -> bool {
    // The shell's working-directory variables are paths, not passwords.
    if name == "PWD" || name == "OLDPWD" {
        return false;
    }
    let (joined, starts) = words(name);
    let end = |i: usize| starts.get(i).copied().unwrap_or(joined.len());
    let secret = |w: &[u8]| {
        SECRET_PREFIXES
            .iter()
            .any(|s| w.first() == s.as_bytes().first() && w.starts_with(s.as_bytes()))
            || SECRET_PARTS.iter().any(|s| contains(w, s.as_bytes()))
    };
    (0..starts.len()).any(|i| {
        secret(&joined[starts[i]..end(i + 1)])
            || (i + 1 < starts.len() && secret(&joined[starts[i]..end(i + 2)]))
    })
}

/// Bits of information per character, from the character counts.
fn entropy(value: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in value.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether a value is shaped like a credential, whatever its name: a PEM
/// block, a token with a known prefix, or a long random-looking string
/// (letters and digits, 20 characters or more, 3.5 bits a character or
/// more: what keys and tokens are, and paths, words and settings are not).
pub fn looks_like_credential(value: &str) -> bool {
    let v = value.trim();
    if v.contains("-----BEGIN ") {
        return true;
    }
    if v.len() < 12 || v.len() > 4096 || v.chars().any(char::is_whitespace) {
        return false;
    }
    if TOKEN_PREFIXES
        .iter()
        .any(|p| v.starts_with(p) && v.len() >= p.len() + 8)
    {
        return true;
    }
    let token_chars = v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"+/=_-.~".contains(&b));
    token_chars
        && v.len() >= 20
        && !v.starts_with(['/', '.', '~'])
        && v.bytes().any(|b| b.is_ascii_digit())
        && v.bytes().any(|b| b.is_ascii_alphabetic())
        && entropy(v) >= 3.5
}

/// A value every output must scrub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    value: String,
}

impl Secret {
    /// A value that is secret by its name or its place.
    pub fn named(value: impl Into<String>) -> Secret {
        Secret {
            value: value.into(),
        }
    }

    /// What of a variable handed to the server is secret: all of it when
    /// its name says so or it is shaped like a credential, the password
    /// when it is a URL with one, else nothing.
    pub fn of_variable(name: &str, value: &str) -> Option<Secret> {
        if is_secret_name(name) || looks_like_credential(value) {
            return Some(Secret::named(value));
        }
        url_password(value).map(|(a, b)| Secret::named(&value[a..b]))
    }
}

/// The argv as it may be shown: secret values replaced by `<redacted>`.
/// Also returns the values that were hidden, for the `Redactor`.
pub fn redact_argv(argv: &[String]) -> (Vec<String>, Vec<Secret>) {
    let mut shown = Vec::with_capacity(argv.len());
    let mut hidden = Vec::new();
    let mut hide_next = false;
    for (i, arg) in argv.iter().enumerate() {
        if hide_next {
            hide_next = false;
            hidden.push(Secret::named(arg.clone()));
            shown.push(REDACTED.to_string());
            continue;
        }
        if i > 0 && arg.starts_with('-') && !arg.contains('=') && is_secret_name(arg) {
            hide_next = true;
        }
        shown.push(redact_arg(arg, &mut hidden));
    }
    (shown, hidden)
}

/// One argument with its secret parts hidden.
fn redact_arg(arg: &str, hidden: &mut Vec<Secret>) -> String {
    if let Some((name, value)) = arg.split_once('=')
        && !value.is_empty()
        && !name.contains(':')
    {
        if is_secret_name(name.trim_start_matches('-')) {
            hidden.push(Secret::named(value));
            return format!("{name}={REDACTED}");
        }
        // `--header=Authorization: Bearer x`, `--registry=https://u:p@h`.
        if name.starts_with('-') {
            return format!("{name}={}", redact_arg(value, hidden));
        }
    }
    if let Some(shown) = redact_header(arg, hidden) {
        return shown;
    }
    match url_password(arg) {
        Some((start, end)) => {
            hidden.push(Secret::named(&arg[start..end]));
            format!("{}{REDACTED}{}", &arg[..start], &arg[end..])
        }
        None => arg.to_string(),
    }
}

/// `Authorization: Bearer abc` or `X-Api-Key: abc`: a header whose name is
/// secret, its credential hidden (the scheme word stays).
fn redact_header(arg: &str, hidden: &mut Vec<Secret>) -> Option<String> {
    let (name, value) = arg.split_once(':')?;
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !name_ok || !is_secret_name(name) || value.starts_with("//") {
        return None;
    }
    let value = value.trim_start();
    let (scheme, credential) = match value.split_once(' ') {
        Some((s, c)) if SCHEMES.iter().any(|k| k.eq_ignore_ascii_case(s)) => (Some(s), c.trim()),
        _ => (None, value.trim()),
    };
    if credential.is_empty() {
        return None;
    }
    hidden.push(Secret::named(credential));
    Some(match scheme {
        Some(s) => format!("{name}: {s} {REDACTED}"),
        None => format!("{name}: {REDACTED}"),
    })
}

/// The byte range of the password in `scheme://user:password@host`.
fn url_password(arg: &str) -> Option<(usize, usize)> {
    let after_scheme = arg.find("://")? + 3;
    let rest = &arg[after_scheme..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@')?;
    let colon = rest[..at].find(':')?;
    (colon + 1 < at).then_some((after_scheme + colon + 1, after_scheme + at))
}

/// Replaces every form of every known secret with `<redacted>`, in text
/// and bytes.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    /// The secrets as given (to merge redactors).
    values: Vec<String>,
    /// Every literal form a secret can take in output, longest first.
    patterns: Vec<Vec<u8>>,
    /// For each first byte, the patterns that start with it (indexes,
    /// longest first).
    by_first: Vec<Vec<u32>>,
    /// Each secret as it reads (`fold`ed), for spellings that differ from
    /// every literal form.
    folded: Vec<Vec<char>>,
}

const BASE64_STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The base64 characters that depend only on `bytes` when they stand at
/// offset `k` (mod 3) of an encoded stream: the same in every encoding of
/// any text that holds them there.
fn base64_stable(bytes: &[u8], k: usize, alphabet: &[u8; 64]) -> String {
    let mut stream = vec![0u8; k];
    stream.extend_from_slice(bytes);
    let bits = stream.len() * 8;
    let first = (8 * k).div_ceil(6);
    let last = bits / 6;
    let bit = |i: usize| (stream[i / 8] >> (7 - i % 8)) & 1;
    (first..last)
        .map(|j| {
            let v = (0..6).fold(0usize, |acc, b| (acc << 1) | usize::from(bit(6 * j + b)));
            char::from(alphabet[v])
        })
        .collect()
}

/// Every literal form of one secret (or one line of it) in output.
fn forms(unit: &str) -> Vec<String> {
    let mut out = vec![unit.to_string()];
    if let Some(json) = json_escaped(unit) {
        out.push(json);
    }
    let markup = |specials: &[(char, &str)]| -> String {
        unit.chars()
            .map(|c| {
                specials
                    .iter()
                    .find(|(s, _)| *s == c)
                    .map_or(c.to_string(), |(_, e)| e.to_string())
            })
            .collect()
    };
    out.push(markup(&[
        ('&', "&amp;"),
        ('<', "&lt;"),
        ('>', "&gt;"),
        ('"', "&quot;"),
        ('\'', "&apos;"),
    ]));
    out.push(markup(&[
        ('&', "&amp;"),
        ('<', "&lt;"),
        ('>', "&gt;"),
        ('`', "&#96;"),
        ('|', "&#124;"),
        ('[', "&#91;"),
        (']', "&#93;"),
        ('\\', "&#92;"),
    ]));
    out.push(
        unit.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    char::from(b).to_string()
                }
                b => format!("%{b:02X}"),
            })
            .collect(),
    );
    if unit.len() >= ENCODED_MIN {
        // Every byte percent-encoded, as some encoders write it.
        let every: String = unit.bytes().map(|b| format!("%{b:02X}")).collect();
        out.push(every.to_ascii_lowercase());
        out.push(every);
        for k in 0..3 {
            out.push(base64_stable(unit.as_bytes(), k, BASE64_STD));
            out.push(base64_stable(unit.as_bytes(), k, BASE64_URL));
        }
        let hex: String = unit.bytes().map(|b| format!("{b:02x}")).collect();
        out.push(hex.to_ascii_uppercase());
        out.push(hex);
    }
    out
}

impl Redactor {
    pub fn new<I: IntoIterator<Item = Secret>>(secrets: I) -> Redactor {
        let mut values: Vec<String> = secrets.into_iter().map(|s| s.value).collect();
        crate::order::sort(&mut values);
        values.dedup();
        let mut patterns: Vec<String> = Vec::new();
        let mut folded: Vec<Vec<char>> = Vec::new();
        for value in &values {
            let mut units = vec![value.as_str()];
            // A multi-line secret (a PEM key) reaches output line by line.
            if value.contains('\n') {
                units.extend(value.lines().map(|l| l.trim_end_matches('\r')));
            }
            for unit in units {
                if unit.chars().count() < MIN_LEN || unit == REDACTED || unit.trim().is_empty() {
                    continue;
                }
                let stable = |f: &String| f.len() >= MIN_LEN.max(unit.len().min(ENCODED_MIN));
                patterns.extend(forms(unit).into_iter().filter(stable));
                let reads: Vec<char> = unit.chars().filter_map(crate::fold::fold).collect();
                if reads.len() >= ENCODED_MIN {
                    folded.push(reads);
                }
            }
        }
        // Longest first, so a secret containing another is replaced whole.
        crate::order::sort_by(&mut patterns, |a, b| {
            b.len().cmp(&a.len()).then_with(|| a.cmp(b))
        });
        patterns.dedup();
        folded.dedup();
        let mut by_first = vec![Vec::new(); 256];
        for (i, p) in patterns.iter().enumerate() {
            if let Some(&b) = p.as_bytes().first() {
                by_first[usize::from(b)].push(i as u32);
            }
        }
        Redactor {
            values,
            patterns: patterns.into_iter().map(String::into_bytes).collect(),
            by_first,
            folded,
        }
    }

    /// One redactor that scrubs what both scrub.
    pub fn merged(&self, other: &Redactor) -> Redactor {
        Redactor::new(
            self.values
                .iter()
                .chain(&other.values)
                .map(|v| Secret::named(v.clone())),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.scrub_bytes(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(bytes) => Cow::Owned(
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
        }
    }

    /// Scrubs bytes that may not be UTF-8 (a server's stdout or stderr).
    pub fn scrub_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        if self.patterns.is_empty() {
            return Cow::Borrowed(bytes);
        }
        let literal = self.literal(bytes);
        let text: &[u8] = literal.as_deref().unwrap_or(bytes);
        match (self.spelled(text), literal) {
            (Some(clean), _) | (None, Some(clean)) => Cow::Owned(clean),
            (None, None) => Cow::Borrowed(bytes),
        }
    }

    /// The length of the longest literal form that starts at `i`.
    fn literal_at(&self, bytes: &[u8], i: usize) -> Option<usize> {
        self.by_first[usize::from(bytes[i])]
            .iter()
            .map(|&p| &self.patterns[p as usize])
            .find(|p| bytes[i..].starts_with(p))
            .map(Vec::len)
    }

    /// `bytes` with every literal form replaced, or `None` when it holds
    /// none.
    fn literal(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let mut out: Option<Vec<u8>> = None;
        let (mut i, mut copied) = (0, 0);
        while i < bytes.len() {
            match self.literal_at(bytes, i) {
                Some(len) => {
                    let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
                    o.extend_from_slice(&bytes[copied..i]);
                    o.extend_from_slice(REDACTED.as_bytes());
                    i += len;
                    copied = i;
                }
                None => i += 1,
            }
        }
        if let Some(o) = &mut out {
            o.extend_from_slice(&bytes[copied..]);
        }
        out
    }

    /// `bytes` with every spelling that reads as a secret replaced, or
    /// `None` when it holds none. Only text with a non-ASCII character or
    /// a backslash can spell one without a literal form.
    fn spelled(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        if self.folded.is_empty() || !bytes.iter().any(|&b| b >= 0x80 || b == b'\\') {
            return None;
        }
        let mut out: Option<Vec<u8>> = None;
        let (mut i, mut copied) = (0, 0);
        while i < bytes.len() {
            let Some((c, len)) = unit(bytes, i) else {
                i += 1;
                continue;
            };
            let end = crate::fold::fold(c).and_then(|first| {
                self.folded
                    .iter()
                    .filter(|s| s[0] == first)
                    .find_map(|s| reads_as(bytes, i, s))
            });
            match end {
                Some(end) => {
                    let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
                    o.extend_from_slice(&bytes[copied..i]);
                    o.extend_from_slice(REDACTED.as_bytes());
                    i = end;
                    copied = end;
                }
                None => i += len,
            }
        }
        if let Some(o) = &mut out {
            o.extend_from_slice(&bytes[copied..]);
        }
        out
    }

    /// How much of `bytes` may be shown when the text continues past its
    /// end (a cut): everything but a trailing start of a secret's literal
    /// form (two bytes or more), which would be a piece of it.
    pub fn safe_prefix(&self, bytes: &[u8]) -> usize {
        let mut keep = bytes.len();
        for s in &self.patterns {
            let longest = s.len().saturating_sub(1).min(bytes.len());
            for k in (2..=longest).rev() {
                if bytes.ends_with(&s[..k]) {
                    keep = keep.min(bytes.len() - k);
                    break;
                }
            }
        }
        keep
    }

    /// Scrubs every string (keys included) inside a JSON value.
    pub fn scrub_json(&self, value: &mut Value) {
        if self.patterns.is_empty() {
            return;
        }
        match value {
            Value::String(s) => {
                if let Cow::Owned(clean) = self.scrub(s) {
                    *s = clean;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.scrub_json(v)),
            Value::Object(map) => {
                let dirty = map.keys().any(|k| matches!(self.scrub(k), Cow::Owned(_)));
                if dirty {
                    let old = std::mem::take(map);
                    for (k, v) in old {
                        map.insert(self.scrub(&k).into_owned(), v);
                    }
                }
                map.values_mut().for_each(|v| self.scrub_json(v));
            }
            _ => {}
        }
    }
}

/// One character of output at `i` and the bytes it takes: a JSON `\u`
/// escape (a surrogate pair as one character), `\/`, or a UTF-8 character.
fn unit(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let b = bytes[i];
    if b == b'\\' {
        if bytes.get(i + 1) == Some(&b'/') {
            return Some(('/', 2));
        }
        let hex = |at: usize| {
            let digits = bytes.get(at..at + 4)?;
            u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
        };
        if bytes.get(i + 1) == Some(&b'u')
            && let Some(hi) = hex(i + 2)
        {
            if (0xd800..0xdc00).contains(&hi)
                && bytes.get(i + 6..i + 8) == Some(b"\\u")
                && let Some(lo) = hex(i + 8).filter(|lo| (0xdc00..0xe000).contains(lo))
            {
                let c = char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))?;
                return Some((c, 12));
            }
            return char::from_u32(hi).map(|c| (c, 6));
        }
        return Some(('\\', 1));
    }
    if b < 0x80 {
        return Some((char::from(b), 1));
    }
    let width = match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(bytes.get(i..i + width)?)
        .ok()?
        .chars()
        .next()?;
    Some((c, width))
}

/// Where a spelling of `secret` that starts at `i` ends: each of its
/// characters read through `fold`, what shows nothing skipped between them.
fn reads_as(bytes: &[u8], mut i: usize, secret: &[char]) -> Option<usize> {
    for &want in secret {
        loop {
            if i >= bytes.len() {
                return None;
            }
            let (c, len) = unit(bytes, i)?;
            i += len;
            match crate::fold::fold(c) {
                None => continue,
                Some(got) if got == want => break,
                Some(_) => return None,
            }
        }
    }
    Some(i)
}

/// The form JSON writers give `text` inside a string, when it differs.
fn json_escaped(text: &str) -> Option<String> {
    let quoted = serde_json::to_string(text).ok()?;
    let inner = &quoted[1..quoted.len() - 1];
    (inner != text).then(|| inner.to_string())
}

/// The redactor of this run, installed by the plan; every output reads it.
static ACTIVE: RwLock<Option<Arc<Redactor>>> = RwLock::new(None);

/// Adds `redactor`'s secrets to those every output scrubs.
pub fn install(redactor: &Redactor) {
    if redactor.is_empty() {
        return;
    }
    if let Ok(mut active) = ACTIVE.write() {
        let merged = match active.as_deref() {
            Some(old) => old.merged(redactor),
            None => redactor.clone(),
        };
        *active = Some(Arc::new(merged));
    }
}

/// The installed redactor, when it has anything to scrub.
pub fn active() -> Option<Arc<Redactor>> {
    ACTIVE.read().ok()?.clone()
}

/// Bytes on their way out, scrubbed of every installed secret.
pub fn out_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    match active() {
        Some(r) => match r.scrub_bytes(bytes) {
            Cow::Borrowed(_) => Cow::Borrowed(bytes),
            Cow::Owned(clean) => Cow::Owned(clean),
        },
        None => Cow::Borrowed(bytes),
    }
}

/// Text on its way out, scrubbed of every installed secret.
pub fn out(text: &str) -> Cow<'_, str> {
    match active() {
        Some(r) => match r.scrub(text) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(clean) => Cow::Owned(clean),
        },
        None => Cow::Borrowed(text),
    }
}

/// How much of `bytes` may be kept when it is cut from longer text (see
/// `Redactor::safe_prefix`), under the installed redactor.
pub fn safe_cut(bytes: &[u8]) -> usize {
    active().map_or(bytes.len(), |r| r.safe_prefix(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn values(secrets: &[Secret]) -> Vec<String> {
        secrets.iter().map(|s| s.value.clone()).collect()
    }

    #[test]
    fn secret_names_are_recognised_in_every_spelling() {
        for name in [
            "API_TOKEN",
            "GITHUB_TOKEN",
            "api-key",
            "ApiKey",
            "client_secret",
            "--password",
            "PGPASSWORD",
            "DB_PASSWD",
            "sessionId",
            "AUTHORIZATION",
            "aws_session_token",
            "PRIVATE_KEY",
            "COOKIE",
            "Credentials",
            "X-Api-Key",
            "AWS_SECRET_ACCESS_KEY",
        ] {
            assert!(is_secret_name(name), "{name} should be secret");
        }
        for name in [
            "PATH",
            "HOME",
            "PWD",
            "OLDPWD",
            "LOG_LEVEL",
            "--port",
            "verbose",
            "TOKYO_REGION_X",
            "MCP_TRANSPORT",
        ] {
            assert!(!is_secret_name(name), "{name} should not be secret");
        }
    }

    #[test]
    fn argv_values_after_secret_flags_are_hidden() {
        let (shown, hidden) = redact_argv(&strings(&[
            "server",
            "--token",
            "abc123",
            "--api-key=k-999",
            "DB_PASSWORD=hunter22",
            "--port",
            "8080",
            "https://me:s3cret@example.test/x",
        ]));
        assert_eq!(
            shown,
            strings(&[
                "server",
                "--token",
                REDACTED,
                "--api-key=<redacted>",
                "DB_PASSWORD=<redacted>",
                "--port",
                "8080",
                "https://me:<redacted>@example.test/x",
            ])
        );
        assert_eq!(
            values(&hidden),
            strings(&["abc123", "k-999", "hunter22", "s3cret"])
        );
    }

    #[test]
    fn header_arguments_and_url_credentials_are_hidden_wherever_they_sit() {
        let (shown, hidden) = redact_argv(&strings(&[
            "npx",
            "mcp-remote",
            "--header",
            "Authorization: Bearer tok-abc-123",
            "-H",
            "X-Api-Key: k1",
            "--registry",
            "https://me:pw1@reg.example/",
            "--index-url=https://u:k9@pypi.example/simple",
        ]));
        assert_eq!(
            shown,
            strings(&[
                "npx",
                "mcp-remote",
                "--header",
                "Authorization: Bearer <redacted>",
                "-H",
                "X-Api-Key: <redacted>",
                "--registry",
                "https://me:<redacted>@reg.example/",
                "--index-url=https://u:<redacted>@pypi.example/simple",
            ])
        );
        assert_eq!(
            values(&hidden),
            strings(&["tok-abc-123", "k1", "pw1", "k9"])
        );
    }

    #[test]
    fn the_program_itself_is_never_taken_for_a_flag() {
        let (shown, _) = redact_argv(&strings(&["-token-tool", "x"]));
        assert_eq!(shown, strings(&["-token-tool", "x"]));
    }

    #[test]
    fn scrub_replaces_every_occurrence_and_plain_settings_are_not_secret() {
        assert_eq!(Secret::of_variable("LOG_LEVEL", "error"), None);
        assert_eq!(Secret::of_variable("BROWSER", "puppeteer"), None);
        let r = Redactor::new([Secret::named("canary-secret-42"), Secret::named("pw1")]);
        assert_eq!(
            r.scrub("x canary-secret-42 y pw1 error"),
            "x <redacted> y <redacted> error"
        );
        let mut v = serde_json::json!({"k": ["canary-secret-42"], "canary-secret-42": 1});
        r.scrub_json(&mut v);
        assert_eq!(v, serde_json::json!({"k": ["<redacted>"], "<redacted>": 1}));
    }

    #[test]
    fn a_cut_never_shows_the_start_of_a_secret() {
        let r = Redactor::new([Secret::named("hunter2-secret")]);
        assert_eq!(r.safe_prefix(b"password is hunter2-se"), 12);
        assert_eq!(r.safe_prefix(b"nothing here"), 12);
        assert_eq!(r.safe_prefix(b"ends in h"), 9);
    }

    #[test]
    fn multi_line_and_escaped_forms_are_scrubbed_from_bytes() {
        let pem = "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END KEY-----";
        let r = Redactor::new([Secret::named(pem), Secret::named("a\"b\\c-quote")]);
        let line = b"log: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC and \xff";
        assert_eq!(
            r.scrub_bytes(line).as_ref(),
            b"log: <redacted> and \xff".as_slice()
        );
        let json_line = br#"{"text":"a\"b\\c-quote"}"#;
        assert_eq!(
            r.scrub_bytes(json_line).as_ref(),
            br#"{"text":"<redacted>"}"#.as_slice()
        );
    }

    fn b64(bytes: &[u8]) -> String {
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let mut n = 0u32;
            for (i, b) in chunk.iter().enumerate() {
                n |= u32::from(*b) << (16 - 8 * i);
            }
            for i in 0..=chunk.len() {
                out.push(char::from(BASE64_STD[((n >> (18 - 6 * i)) & 63) as usize]));
            }
        }
        out
    }

    #[test]
    fn every_encoding_of_a_secret_is_scrubbed_at_any_alignment() {
        let secret = "tok-Zq81_wX<&>\"";
        let r = Redactor::new([Secret::named(secret)]);
        for prefix in ["", "a", "ab"] {
            let encoded = b64(format!("{prefix}{secret} and more").as_bytes());
            let clean = r.scrub(&encoded).into_owned();
            assert!(clean.contains(REDACTED), "{prefix:?}: {clean}");
        }
        let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
        for text in [
            hex.clone(),
            hex.to_ascii_uppercase(),
            "tok-Zq81_wX&lt;&amp;&gt;&quot;".to_string(),
            "tok-Zq81_wX%3C%26%3E%22".to_string(),
            "tok-Zq81_wX<&>\\\"".to_string(),
        ] {
            assert_eq!(
                r.scrub(&format!("[{text}]")),
                format!("[{REDACTED}]"),
                "{text}"
            );
        }
    }

    #[test]
    fn spellings_that_read_as_a_secret_are_scrubbed() {
        let r = Redactor::new([Secret::named("ghp_secretvalue")]);
        let tags: String = "ghp_secretvalue"
            .chars()
            .map(|c| char::from_u32(0xe0000 + c as u32).expect("tag"))
            .collect();
        for text in [
            tags,
            "ghp_ѕеcrеtvаluе".to_string(),
            "ghp_sec\u{200b}retvalue".to_string(),
            "ｇｈｐ＿secretvalue".to_string(),
            "\\u0067hp_secret\\u0076alue".to_string(),
        ] {
            assert_eq!(
                r.scrub(&format!("x {text} y")),
                format!("x {REDACTED} y"),
                "{text}"
            );
        }
        assert_eq!(r.scrub("ghp_secretvalu"), "ghp_secretvalu");
    }

    #[test]
    fn credentials_are_known_by_their_shape_whatever_their_name() {
        for v in [
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
            "AKIAIOSFODNN7EXAMPLE",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
            "q8Zt3LmW0vXr7PkN2sYb5HcJ",
        ] {
            assert!(looks_like_credential(v), "{v}");
        }
        for v in [
            "puppeteer",
            "/usr/local/lib/node_modules/x",
            "production",
            "https://api.example.com/v1",
            "1234567890123456789012",
        ] {
            assert!(!looks_like_credential(v), "{v}");
        }
        assert_eq!(
            Secret::of_variable("DATABASE_URL", "postgres://me:pw9@db/x"),
            Some(Secret::named("pw9"))
        );
    }
}
