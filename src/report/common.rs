//! What several writers share: an issue as a JSON object and as a text
//! line, a check as JSON, and the pretty printer every JSON document goes
//! through.

use serde_json::{Map, Value};

use crate::checks::{Issue, Severity};
use crate::escape;
use crate::report::style::Paint;
use crate::verdict::Check;

/// A check as the JSON report writes it: `{status, issueCodes, reason?}`.
pub fn check_value(c: &Check) -> Value {
    let mut m = Map::new();
    m.insert("status".into(), c.status.as_str().into());
    m.insert(
        "issueCodes".into(),
        c.codes
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .into(),
    );
    if let Some(reason) = c.reason {
        m.insert("reason".into(), reason.into());
    }
    Value::Object(m)
}

/// Skipped checks folded into one line, grouped by reason in the order
/// first met: `stdout, jsonRpc (not reached: the server never started);
/// staticScan (no --scan path was given)`. Empty when none was skipped.
pub fn skipped_line<'a>(skipped: &[(&'a str, &'a str)]) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for &(name, reason) in skipped {
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, names)) => names.push(name),
            None => groups.push((reason, vec![name])),
        }
    }
    groups
        .iter()
        .map(|(reason, names)| format!("{} ({reason})", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Each code of `issues` once, in the order first met, with its fix.
pub fn fixes(issues: &[Issue]) -> Vec<(crate::checks::Code, &'static str)> {
    let mut out: Vec<(crate::checks::Code, &'static str)> = Vec::new();
    for i in issues {
        if !out.iter().any(|(c, _)| *c == i.code) {
            out.push((i.code, crate::checks::fix::fix(i.code)));
        }
    }
    out
}

/// An issue as the JSON report writes it: severity, code, message, class,
/// then its details in order.
pub fn issue_value(issue: &Issue) -> Value {
    let mut m = Map::new();
    m.insert("severity".into(), issue.severity.as_str().into());
    m.insert("code".into(), issue.code.as_str().into());
    m.insert("message".into(), issue.message.clone().into());
    m.insert("class".into(), issue.class.as_str().into());
    for (k, v) in &issue.details {
        m.insert((*k).into(), v.clone());
    }
    Value::Object(m)
}

/// One issue as a report line: `[error] code: message`, escaped.
pub fn issue_line(issue: &Issue, p: &Paint) -> String {
    let tag = match issue.severity {
        Severity::Error => p.error("[error]"),
        Severity::Warning => p.warning("[warning]"),
    };
    let run = match issue.detail("run") {
        Some(n) => format!("run {n} "),
        None => String::new(),
    };
    let more = match issue.folded() {
        0 => String::new(),
        n => format!(" (and {n} more like it)"),
    };
    format!(
        "{tag} {run}{}: {}{more}",
        issue.code,
        escape::line(&issue.message)
    )
}

/// A JSON document, pretty-printed, with a final newline.
///
/// What the guard writes nests at most `MAX_DEPTH` levels, so parsers that
/// stop at 128 (serde_json, many others) read every report: a server value
/// nested deeper (an error object, a tool schema) is cut there.
pub fn pretty(v: &Value) -> String {
    let mut out = match bounded(v) {
        std::borrow::Cow::Borrowed(v) => serde_json::to_string_pretty(v),
        std::borrow::Cow::Owned(v) => serde_json::to_string_pretty(&v),
    }
    .expect("invariant: a Value always serializes");
    out.push('\n');
    out
}

/// The deepest a written document nests.
pub const MAX_DEPTH: usize = 100;

/// `v`, or a copy cut at `MAX_DEPTH` when it nests deeper.
pub fn bounded(v: &Value) -> std::borrow::Cow<'_, Value> {
    if crate::jsontext::depth(v) <= MAX_DEPTH {
        return std::borrow::Cow::Borrowed(v);
    }
    let mut cut = v.clone();
    crate::jsontext::cut(
        &mut cut,
        MAX_DEPTH,
        "<nested deeper than 100 levels: not shown>",
    );
    std::borrow::Cow::Owned(cut)
}

/// `text` padded with spaces to `width` characters (format's `{:<w$}`
/// panics past 65,535, and a server string can be longer).
pub fn padded(text: &str, width: usize) -> String {
    let mut out = text.to_string();
    let n = text.chars().count();
    if n < width {
        out.extend(std::iter::repeat_n(' ', width - n));
    }
    out
}
