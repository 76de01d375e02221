//! Keeping secrets out of every byte the guard writes.
//!
//! Two layers. `redact_argv` hides, where the server's argv is shown, the
//! values that look secret by their place: after a secret-named flag
//! (`--token abc`), in `NAME=value`, in an HTTP header argument
//! (`Authorization: Bearer abc`, the mcp-remote pattern) and the password
//! of a URL (`https://user:pass@host`). The `Redactor` then scrubs every
//! known secret value from the server's bytes and the user's strings as
//! they enter the guard, before anything is escaped, quoted or cut, so no
//! output can hold a piece of one. The guard's own words are never
//! scrubbed: a short value such as `error` or `stdio` handed to the server
//! is not treated as a secret unless its name says it is.

use std::borrow::Cow;

use serde_json::Value;

pub const REDACTED: &str = "<redacted>";

/// Shortest value of a secret-named variable or a structurally secret argv
/// value that is scrubbed from free text.
const STRONG_MIN: usize = 3;
/// Shortest value of any other variable handed to the server that is
/// scrubbed (it may be a secret under an innocent name, or just `stdio`).
const WEAK_MIN: usize = 8;

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

/// A value every output must scrub, and how sure the guard is that it is
/// a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    value: String,
    /// Secret by its name or its place: scrubbed from 3 characters on.
    strong: bool,
}

impl Secret {
    /// The value of a secret-named variable, or a secret argv value.
    pub fn named(value: impl Into<String>) -> Secret {
        Secret {
            value: value.into(),
            strong: true,
        }
    }

    /// A variable handed to the server: strong when its name is secret.
    pub fn for_variable(name: &str, value: &str) -> Secret {
        Secret {
            value: value.to_string(),
            strong: is_secret_name(name),
        }
    }

    fn min_len(&self) -> usize {
        if self.strong { STRONG_MIN } else { WEAK_MIN }
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

/// Replaces every known secret value with `<redacted>`, in text and bytes.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    /// Every form a secret can take in output, longest first.
    patterns: Vec<String>,
}

impl Redactor {
    pub fn new<I: IntoIterator<Item = Secret>>(secrets: I) -> Redactor {
        let mut patterns: Vec<String> = Vec::new();
        for s in secrets {
            let min = s.min_len();
            let mut forms = vec![s.value.clone()];
            // A multi-line secret (a PEM key) reaches output line by line.
            if s.value.contains('\n') {
                forms.extend(
                    s.value
                        .lines()
                        .map(|l| l.trim_end_matches('\r').to_string()),
                );
            }
            // And inside JSON strings it is written escaped.
            let escaped: Vec<String> = forms.iter().filter_map(|f| json_escaped(f)).collect();
            forms.extend(escaped);
            patterns.extend(
                forms
                    .into_iter()
                    .filter(|f| f.chars().count() >= min && f != REDACTED && !f.trim().is_empty()),
            );
        }
        // Longest first, so a secret containing another is replaced whole.
        crate::order::sort_by(&mut patterns, |a, b| {
            b.len().cmp(&a.len()).then_with(|| a.cmp(b))
        });
        patterns.dedup();
        Redactor { patterns }
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if !self.patterns.iter().any(|s| text.contains(s.as_str())) {
            return Cow::Borrowed(text);
        }
        let mut out = text.to_string();
        for secret in &self.patterns {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        Cow::Owned(out)
    }

    /// Scrubs bytes that may not be UTF-8 (a server's stdout or stderr).
    pub fn scrub_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        let mut out: Cow<'a, [u8]> = Cow::Borrowed(bytes);
        for secret in &self.patterns {
            let needle = secret.as_bytes();
            if find(&out, needle).is_none() {
                continue;
            }
            let mut next = Vec::with_capacity(out.len());
            let mut rest: &[u8] = &out;
            while let Some(at) = find(rest, needle) {
                next.extend_from_slice(&rest[..at]);
                next.extend_from_slice(REDACTED.as_bytes());
                rest = &rest[at + needle.len()..];
            }
            next.extend_from_slice(rest);
            out = Cow::Owned(next);
        }
        out
    }

    /// How much of `bytes` may be shown when the text continues past its
    /// end (a cut): everything but a trailing start of a secret (two bytes
    /// or more), which would be a piece of it.
    pub fn safe_prefix(&self, bytes: &[u8]) -> usize {
        let mut keep = bytes.len();
        for secret in &self.patterns {
            let s = secret.as_bytes();
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

/// The form JSON writers give `text` inside a string, when it differs.
fn json_escaped(text: &str) -> Option<String> {
    let quoted = serde_json::to_string(text).ok()?;
    let inner = &quoted[1..quoted.len() - 1];
    (inner != text).then(|| inner.to_string())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let mut from = 0;
    while let Some(pos) = haystack[from..].iter().position(|&b| b == first) {
        let at = from + pos;
        if haystack[at..].starts_with(needle) {
            return Some(at);
        }
        from = at + 1;
    }
    None
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
    fn scrub_replaces_every_occurrence_and_keeps_short_weak_values() {
        let r = Redactor::new([
            Secret::named("canary-secret-42"),
            Secret::named("pw1"),
            Secret::for_variable("LOG_LEVEL", "error"),
        ]);
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
}
