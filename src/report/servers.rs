//! What `servers` and `doctor` print: the configured servers as a table or
//! a JSON array (host, scope, file and line, name, transport, enabled,
//! command, arguments with credentials redacted, the names of the
//! environment variables, never their values), and `doctor`'s verdicts
//! beside what it did not check and why. Every config string is escaped.

use crate::obj;
use std::fmt::Write as _;

use serde_json::Value;

use crate::hosts::{Discovery, Found, Unread};
use crate::report::batch::Row;

/// The command line an entry runs, credentials redacted, escaped.
fn launch(f: &Found) -> String {
    let Some(command) = &f.command else {
        return f.url.as_deref().map(redacted_url).unwrap_or_default();
    };
    let argv: Vec<String> = std::iter::once(command.clone())
        .chain(f.args.iter().cloned())
        .collect();
    let (shown, _) = crate::redact::redact_argv(&argv);
    crate::escape::line(&shown.join(" "))
}

fn redacted_url(url: &str) -> String {
    let (shown, _) = crate::redact::redact_argv(&[url.to_string()]);
    crate::escape::line(&shown.concat())
}

/// What state an entry is in, in a word, and what the word stands for.
pub fn state(f: &Found) -> (&'static str, Option<String>) {
    if let Some(p) = &f.problem {
        return ("unusable", Some(p.clone()));
    }
    if !f.enabled {
        return ("disabled", None);
    }
    if !f.needs.is_empty() {
        return ("needs", Some(f.needs.join("; ")));
    }
    if let Some(d) = &f.duplicate_of {
        return ("duplicate", Some(format!("the same launch as {d}")));
    }
    ("enabled", None)
}

fn names(f: &Found) -> Vec<&str> {
    f.env.iter().map(|(k, _)| k.as_str()).collect()
}

/// One entry as JSON.
fn found_json(f: &Found) -> Value {
    let args: Vec<String> = match &f.command {
        Some(c) => {
            let argv: Vec<String> = std::iter::once(c.clone())
                .chain(f.args.iter().cloned())
                .collect();
            crate::redact::redact_argv(&argv)
                .0
                .into_iter()
                .skip(1)
                .collect()
        }
        None => Vec::new(),
    };
    obj! {
        "host" => f.host,
        "scope" => f.scope.as_str(),
        "file" => f.file,
        "line" => f.line,
        "name" => f.name,
        "transport" => f.transport,
        "enabled" => f.enabled,
        "command" => f.command.clone(),
        "args" => args,
        "envNames" => names(f),
        "cwd" => f.cwd.clone(),
        "url" => f.url.as_deref().map(|u| crate::redact::redact_argv(&[u.to_string()]).0.concat()),
        "needs" => f.needs.clone(),
        "duplicateOf" => f.duplicate_of.clone(),
        "problem" => f.problem.clone(),
    }
}

/// A file that could not be read, as a row of the same array.
fn unread_json(u: &Unread) -> Value {
    obj! {
        "host" => u.host,
        "scope" => u.scope.as_str(),
        "file" => u.file,
        "line" => u.line,
        "name" => Value::Null,
        "transport" => Value::Null,
        "enabled" => false,
        "command" => Value::Null,
        "args" => Vec::<String>::new(),
        "envNames" => Vec::<String>::new(),
        "cwd" => Value::Null,
        "url" => Value::Null,
        "needs" => Vec::<String>::new(),
        "duplicateOf" => Value::Null,
        "problem" => u.reason,
    }
}

/// `servers --json`: one array, the servers then the unread files.
pub fn json(d: &Discovery) -> String {
    let rows: Vec<Value> = d
        .servers
        .iter()
        .map(found_json)
        .chain(d.unread.iter().map(unread_json))
        .collect();
    crate::report::common::pretty(&Value::Array(rows))
}

fn place(file: &str, line: Option<u32>) -> String {
    let file = crate::escape::line(file);
    match line {
        Some(n) => format!("{file}:{n}"),
        None => file,
    }
}

/// `servers`: a table, the unread files, a count.
pub fn table(d: &Discovery) -> String {
    let pad = crate::report::common::padded;
    let width = |f: &dyn Fn(&Found) -> String, head: &str| {
        d.servers
            .iter()
            .map(|s| f(s).chars().count())
            .max()
            .unwrap_or(0)
            .max(head.len())
    };
    let name = |s: &Found| crate::escape::line(&s.name);
    let (wh, wn) = (width(&|s| s.host.to_string(), "HOST"), width(&name, "NAME"));
    let mut out = format!(
        "{}  {:<7}  {}  {:<9}  {:<10}  COMMAND (ENV NAMES)  FILE:LINE\n",
        pad("HOST", wh),
        "SCOPE",
        pad("NAME", wn),
        "TRANSPORT",
        "STATE"
    );
    for s in &d.servers {
        let env = names(s);
        let env = if env.is_empty() {
            String::new()
        } else {
            format!(" (env: {})", env.join(", "))
        };
        let (word, detail) = state(s);
        let _ = writeln!(
            out,
            "{}  {:<7}  {}  {:<9}  {:<10}  {}{}  {}",
            pad(s.host, wh),
            s.scope.as_str(),
            pad(&name(s), wn),
            crate::escape::line(&s.transport),
            word,
            launch(s),
            crate::escape::line(&env),
            place(&s.file, Some(s.line))
        );
        if let Some(detail) = detail {
            let _ = writeln!(
                out,
                "{}  {word}: {}",
                pad("", wh),
                crate::escape::line(&detail)
            );
        }
    }
    for u in &d.unread {
        let _ = writeln!(
            out,
            "not read: {} ({}): {}",
            place(&u.file, u.line),
            u.host,
            crate::escape::line(&u.reason)
        );
    }
    let stdio = d.servers.iter().filter(|s| s.transport == "stdio").count();
    let _ = writeln!(
        out,
        "{} ({stdio} stdio) in {}{}",
        crate::plural::count(d.servers.len(), "server"),
        crate::plural::count(d.files_read, "file"),
        match d.unread.len() {
            0 => String::new(),
            n => format!("; {} not read", crate::plural::count(n, "file")),
        }
    );
    out
}

/// Why `doctor` did not check an entry, or `None` when it did.
pub fn not_checked(f: &Found) -> Option<String> {
    if let Some(p) = &f.problem {
        return Some(format!("unusable: {p}"));
    }
    if f.transport != "stdio" {
        return Some(format!(
            "not stdio ({}): a remote or built-in server",
            f.transport
        ));
    }
    if !f.enabled {
        return Some("disabled".into());
    }
    if !f.needs.is_empty() {
        return Some(format!("needs {}", f.needs.join(", ")));
    }
    f.duplicate_of
        .as_ref()
        .map(|d| format!("same launch as {d}, checked there"))
}

/// `doctor`'s table: each checked server's verdict, primary issue and its
/// fix; then what was not checked and why.
pub fn doctor_table(d: &Discovery, rows: &[Row], entry_of: &dyn Fn(&Found) -> String) -> String {
    let pad = crate::report::common::padded;
    let wn = d
        .servers
        .iter()
        .map(|s| entry_of(s).chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!(
        "{}  {:<11}  PRIMARY ISSUE, AND HOW TO FIX IT\n",
        pad("SERVER", wn),
        "VERDICT"
    );
    let mut skipped = Vec::new();
    for s in &d.servers {
        let entry = entry_of(s);
        let Some(row) = rows.iter().find(|r| r.name == entry) else {
            skipped.push((
                entry,
                not_checked(s).unwrap_or_else(|| "not run (interrupted)".into()),
            ));
            continue;
        };
        let verdict = if row.ok { "pass" } else { "fail" };
        let _ = writeln!(
            out,
            "{}  {verdict:<11}  {}",
            pad(&crate::escape::line(&entry), wn),
            primary(row)
        );
        if let Some(code) = crate::checks::Code::parse(&row.primary) {
            let _ = writeln!(
                out,
                "{}  {:<11}  fix: {}",
                pad("", wn),
                "",
                crate::checks::fix::fix(code)
            );
        }
    }
    for (entry, why) in &skipped {
        let _ = writeln!(
            out,
            "{}  {:<11}  {}",
            pad(&crate::escape::line(entry), wn),
            "not checked",
            crate::escape::line(why)
        );
    }
    for u in &d.unread {
        let _ = writeln!(
            out,
            "not read: {} ({}): {}",
            place(&u.file, u.line),
            u.host,
            crate::escape::line(&u.reason)
        );
    }
    let failed = rows.iter().filter(|r| !r.ok).count();
    let _ = writeln!(
        out,
        "{} checked: {} passed, {failed} failed; {} not checked",
        crate::plural::count(rows.len(), "server"),
        rows.len() - failed,
        skipped.len()
    );
    out
}

fn primary(row: &Row) -> String {
    if row.primary.is_empty() {
        return String::new();
    }
    let message: String = row.message.chars().take(160).collect();
    crate::escape::line(&format!("{}: {message}", row.primary))
}

/// `doctor --json`: every entry with its verdict or why it was not
/// checked, and the files not read.
pub fn doctor_json(d: &Discovery, rows: &[Row], entry_of: &dyn Fn(&Found) -> String) -> String {
    let servers: Vec<Value> = d
        .servers
        .iter()
        .map(|s| {
            let mut v = found_json(s);
            let row = rows.iter().find(|r| r.name == entry_of(s));
            v["verdict"] = match row {
                Some(r) if r.ok => "pass".into(),
                Some(_) => "fail".into(),
                None => "not checked".into(),
            };
            v["reason"] = match row {
                Some(_) => Value::Null,
                None => not_checked(s).into(),
            };
            v["primaryIssueCode"] = row.map(|r| r.primary.clone()).into();
            v["fix"] = row
                .and_then(|r| crate::checks::Code::parse(&r.primary))
                .map(crate::checks::fix::fix)
                .into();
            v
        })
        .collect();
    crate::report::common::pretty(&obj! {
        "schemaVersion" => 1,
        "ok" => rows.iter().all(|r| r.ok),
        "servers" => servers,
        "unread" => d.unread.iter().map(unread_json).collect::<Vec<_>>(),
    })
}
