//! Keeping secrets out of every byte the guard writes.
//!
//! Two layers: argv values that look secret (`--token abc`, `API_KEY=abc`,
//! `https://user:pass@host`) are replaced where they are shown, and the
//! `Redactor` scrubs every known secret value (environment values handed to
//! the server, secret argv values) from any text before it leaves the guard,
//! whatever field the server echoed it into.

use std::borrow::Cow;

pub const REDACTED: &str = "<redacted>";

/// Shortest value scrubbed from free text. Shorter values are still hidden
/// where they appear as values, but replacing every `on` or `1` in a report
/// would destroy it.
const MIN_SCRUB_LEN: usize = 4;

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

fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether a variable or option name names a secret (`API_TOKEN`,
/// `--client-secret`, `sessionId`, `PRIVATE_KEY`).
pub fn is_secret_name(name: &str) -> bool {
    // The shell's working-directory variables are paths, not passwords.
    if name == "PWD" || name == "OLDPWD" {
        return false;
    }
    let words = words(name);
    let starts = |w: &str| {
        SECRET_PREFIXES.iter().any(|s| w.starts_with(s))
            || SECRET_PARTS.iter().any(|s| w.contains(s))
    };
    words.iter().any(|w| starts(w))
        || words
            .windows(2)
            .any(|pair| starts(&format!("{}{}", pair[0], pair[1])))
}

/// The argv as it may be shown: secret values replaced by `<redacted>`.
/// Also returns the values that were hidden, for the `Redactor`.
pub fn redact_argv(argv: &[String]) -> (Vec<String>, Vec<String>) {
    let mut shown = Vec::with_capacity(argv.len());
    let mut hidden = Vec::new();
    let mut hide_next = false;
    for (i, arg) in argv.iter().enumerate() {
        if hide_next {
            hide_next = false;
            hidden.push(arg.clone());
            shown.push(REDACTED.to_string());
            continue;
        }
        if let Some((name, value)) = arg.split_once('=')
            && is_secret_name(name.trim_start_matches('-'))
            && !value.is_empty()
        {
            hidden.push(value.to_string());
            shown.push(format!("{name}={REDACTED}"));
            continue;
        }
        if i > 0 && arg.starts_with('-') && !arg.contains('=') && is_secret_name(arg) {
            hide_next = true;
        }
        match url_password(arg) {
            Some((start, end)) => {
                hidden.push(arg[start..end].to_string());
                shown.push(format!("{}{REDACTED}{}", &arg[..start], &arg[end..]));
            }
            None => shown.push(arg.clone()),
        }
    }
    (shown, hidden)
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

/// Replaces every known secret value in text with `<redacted>`.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new<I: IntoIterator<Item = String>>(values: I) -> Redactor {
        let mut secrets: Vec<String> = values
            .into_iter()
            .filter(|v| v.len() >= MIN_SCRUB_LEN && v != REDACTED)
            .collect();
        // Longest first, so a secret containing another is replaced whole.
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Redactor { secrets }
    }

    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if !self.secrets.iter().any(|s| text.contains(s.as_str())) {
            return Cow::Borrowed(text);
        }
        let mut out = text.to_string();
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        Cow::Owned(out)
    }

    /// Scrubs every string (keys included) inside a JSON value.
    pub fn scrub_json(&self, value: &mut serde_json::Value) {
        use serde_json::Value;
        if self.secrets.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
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
        assert_eq!(hidden, strings(&["abc123", "k-999", "hunter22", "s3cret"]));
    }

    #[test]
    fn the_program_itself_is_never_taken_for_a_flag() {
        let (shown, _) = redact_argv(&strings(&["-token-tool", "x"]));
        assert_eq!(shown, strings(&["-token-tool", "x"]));
    }

    #[test]
    fn scrub_replaces_every_occurrence_and_skips_short_values() {
        let r = Redactor::new(strings(&["canary-secret-42", "ab"]));
        assert_eq!(
            r.scrub("x canary-secret-42 y canary-secret-42 ab"),
            "x <redacted> y <redacted> ab"
        );
        let mut v = serde_json::json!({"k": ["canary-secret-42"], "canary-secret-42": 1});
        r.scrub_json(&mut v);
        assert_eq!(v, serde_json::json!({"k": ["<redacted>"], "<redacted>": 1}));
    }
}
