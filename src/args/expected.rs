//! `--expected-failures FILE`: a baseline of known failures in the official
//! conformance suite's YAML form, so one file serves both tools:
//!
//! ```yaml
//! server:
//!   - server-stateless                       # the whole scenario may fail
//!   - caching:sep-2549-ttl-non-negative      # only this check may fail
//! client:
//!   - sse-retry                              # (the suite's client mode; not the guard's)
//! ```
//!
//! Read here from its text (the subset of YAML that form uses: two keys,
//! block lists of plain or quoted scalars, comments), refusing what the
//! suite refuses (an entry with a space after its colon, a mapping; an
//! empty side; a scenario listed both wholesale and per check) and what
//! would accept a whole class of the guard's own findings: its scenario
//! wholesale (`mcp-stdio-guard`), or its `definitions` check (what the
//! server tells the model: accept one such finding with `--baseline`,
//! which names it). In linear time, whatever the number of entries. Pure.

/// The scenario the guard's own checks are baselined under
/// (`mcp-stdio-guard:mcp-stdio-guard/stdout`).
pub const GUARD_SCENARIO: &str = "mcp-stdio-guard";

/// Guard-own checks too wide to expect failing: each holds findings of
/// every kind about the server's definitions.
const CLASS_CHECKS: &[&str] = &["mcp-stdio-guard/definitions"];

/// One entry: a whole scenario, or one check of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub scenario: String,
    pub check: Option<String>,
}

impl Entry {
    /// As the user wrote it.
    pub fn text(&self) -> String {
        match &self.check {
            Some(c) => format!("{}:{c}", self.scenario),
            None => self.scenario.clone(),
        }
    }
}

/// The baseline: its `server` entries (`client` ones are the suite's
/// client mode and are kept only to be named).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpectedFailures {
    pub server: Vec<Entry>,
    pub client: Vec<String>,
}

fn unquote(text: &str) -> String {
    let t = text.trim();
    for q in ['"', '\''] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

/// A line without its comment (a `#` that starts the line or follows a
/// space, outside quotes).
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return &line[..i],
            None => {}
        }
        prev = c;
    }
    line
}

fn entry(raw: &str, line: usize) -> Result<Entry, String> {
    let quoted = raw.trim().starts_with('"') || raw.trim().starts_with('\'');
    let text = unquote(raw);
    let bad = |why: &str| {
        format!("line {line}: '{text}' is not '<scenario>' or '<scenario>:<check-id>'. {why}")
    };
    if text.is_empty() {
        return Err(bad("This one is empty."));
    }
    if !quoted && text.contains(": ") || text.ends_with(':') {
        let (k, v) = text.split_once(':').unwrap_or((&text, ""));
        return Err(bad(&format!(
            "Did you write '- {k}: {}'? Remove the space after the colon: '- {k}:{}'",
            v.trim(),
            v.trim()
        )));
    }
    match text.split_once(':') {
        None => Ok(Entry {
            scenario: text,
            check: None,
        }),
        Some((s, c)) if s.is_empty() || c.is_empty() => {
            Err(bad("Both sides of the colon are required."))
        }
        Some((s, c)) => Ok(Entry {
            scenario: s.to_string(),
            check: Some(c.to_string()),
        }),
    }
}

/// Reads a baseline's text.
pub fn parse(text: &str) -> Result<ExpectedFailures, String> {
    let mut out = ExpectedFailures::default();
    let mut section: Option<&str> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = without_comment(raw);
        if line.trim().is_empty() || line.trim() == "---" {
            continue;
        }
        let n = n + 1;
        if !line.starts_with([' ', '\t', '-']) {
            match line.trim_end() {
                "server:" => section = Some("server"),
                "client:" => section = Some("client"),
                other => {
                    return Err(format!(
                        "line {n}: '{other}' is not 'server:' or 'client:' (an object with 'server' and/or 'client' keys)"
                    ));
                }
            }
            continue;
        }
        let Some(item) = line.trim_start().strip_prefix('-') else {
            return Err(format!(
                "line {n}: '{}' is not a list entry ('- <scenario>')",
                line.trim()
            ));
        };
        match section {
            Some("server") => out.server.push(entry(item, n)?),
            Some(_) => out.client.push(unquote(item)),
            None => return Err(format!("line {n}: an entry before 'server:'")),
        }
    }
    let wholesale: std::collections::HashSet<&str> = out
        .server
        .iter()
        .filter(|e| e.check.is_none())
        .map(|e| e.scenario.as_str())
        .collect();
    for e in &out.server {
        let class = e.scenario == GUARD_SCENARIO
            && e.check.as_deref().is_none_or(|c| CLASS_CHECKS.contains(&c));
        if class {
            return Err(format!(
                "'{}' would accept a whole class of the guard's own findings (security findings included). Name the check ('{GUARD_SCENARIO}:{GUARD_SCENARIO}/stdout'), or accept one finding with --baseline.",
                e.text()
            ));
        }
        if e.check.is_some() && wholesale.contains(e.scenario.as_str()) {
            return Err(format!(
                "'{}' expects the whole scenario to fail, so '{}' is redundant. Remove one or the other.",
                e.scenario,
                e.text()
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suites_form_reads_whole_scenarios_and_single_checks() {
        let b = parse(
            "# baseline\nserver:\n  - server-stateless   # all of it\n  - 'caching:sep-2549-ttl-non-negative'\n  - \"tools-list:tools-name-format\"\nclient:\n  - sse-retry\n",
        )
        .expect("valid");
        assert_eq!(
            b.server.iter().map(Entry::text).collect::<Vec<_>>(),
            [
                "server-stateless",
                "caching:sep-2549-ttl-non-negative",
                "tools-list:tools-name-format"
            ]
        );
        assert_eq!(b.client, ["sse-retry"]);
        assert_eq!(parse("").expect("empty"), ExpectedFailures::default());
    }

    #[test]
    fn what_the_suite_refuses_is_refused_with_the_fix() {
        let e = parse("server:\n  - caching: sep-2549-ttl-non-negative\n").expect_err("map");
        assert!(e.contains("Remove the space after the colon"), "{e}");
        let e = parse("server:\n  - caching:\n").expect_err("empty side");
        assert!(
            e.contains("Remove the space") || e.contains("Both sides"),
            "{e}"
        );
        let e = parse("server:\n  - caching\n  - caching:sep-2549-ttl-non-negative\n")
            .expect_err("redundant");
        assert!(e.contains("redundant"), "{e}");
        assert!(parse("servers:\n  - x\n").is_err());
        for class in [
            "mcp-stdio-guard",
            "mcp-stdio-guard:mcp-stdio-guard/definitions",
        ] {
            let e = parse(&format!("server:\n  - {class}\n")).expect_err("a class");
            assert!(e.contains("a whole class"), "{e}");
        }
        assert!(parse("server:\n  - mcp-stdio-guard:mcp-stdio-guard/stdout\n").is_ok());
        assert!(parse("  - x\n").is_err());
    }
}
