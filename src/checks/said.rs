//! What a server said when it failed: its stderr (or a stdout it wrote
//! instead of speaking MCP) read for the line that names the cause (Node's
//! `TypeError: …` and its `[cause]:`, Python's last `XxxError: …` of a
//! traceback, Go's `panic: …`, Rust's `error: …` and `panicked at`), for
//! configuration it asks for (a missing API key, an environment variable
//! it names) anywhere in what was kept, and for usage text (a command that
//! wants a subcommand). Terminal colour and cursor codes are stripped
//! first; runtime footers (`Node.js v20.20.2`) and stack frames are never
//! taken for the cause. Pure.

/// What a failing server said.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Said {
    /// The line that names the failure, when one does.
    pub cause: Option<String>,
    /// The last line that says anything (no footer, no stack frame).
    pub last: Option<String>,
    /// It asks for configuration it was not given.
    pub config: bool,
    /// The variables it names where it asks (`BRAVE_API_KEY`).
    pub names: Vec<String>,
    /// It printed usage text: the subcommands it lists, servers' likely
    /// ones first.
    pub usage: Option<Vec<String>>,
}

impl Said {
    /// The line to quote: the cause, else the last words.
    pub fn quote(&self) -> Option<&str> {
        self.cause.as_deref().or(self.last.as_deref())
    }
}

/// Words of a server asking for what it was not given.
const ASKS: &[&str] = &[
    "api key",
    "api_key",
    "apikey",
    "access token",
    "auth token",
    "credential",
    "is required",
    "are required",
    "is missing",
    "missing required",
    "not set",
    "not configured",
    "please provide",
    "please set",
    "environment variable",
    "must be set",
    "must be provided",
    "must be configured",
];

/// Subcommands that start a server, shown first when a usage lists them.
const SERVING: &[&str] = &["stdio", "mcp", "serve", "server", "start", "run"];

/// `text` without terminal escape sequences (CSI `ESC [ … letter`, OSC
/// `ESC ] … BEL or ESC \`, and lone escapes).
pub fn strip_terminal_codes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' && c != '\u{9b}' {
            out.push(c);
            continue;
        }
        match (c, chars.peek().copied()) {
            ('\u{9b}', _) | (_, Some('[')) => {
                if c == '\u{1b}' {
                    chars.next();
                }
                // Parameters and intermediates, then one final byte.
                while let Some(&n) = chars.peek() {
                    chars.next();
                    if ('\u{40}'..='\u{7e}').contains(&n) {
                        break;
                    }
                }
            }
            (_, Some(']')) => {
                chars.next();
                while let Some(n) = chars.next() {
                    if n == '\u{7}' || (n == '\u{1b}' && chars.peek() == Some(&'\\')) {
                        if n == '\u{1b}' {
                            chars.next();
                        }
                        break;
                    }
                }
            }
            _ => {
                chars.next();
            }
        }
    }
    out
}

/// A runtime's closing line or a stack frame: never the cause.
fn is_noise(line: &str) -> bool {
    let l = line.trim();
    l.is_empty()
        || l.starts_with("at ")
        || l.starts_with('^')
        || l.starts_with("File \"")
        || l.starts_with("Traceback (most recent call last)")
        || l.starts_with("Node.js v")
        || l.starts_with("npm ERR! A complete log")
        || l.starts_with("note: run with `RUST_BACKTRACE")
        || l.starts_with("goroutine ")
        || l == "{"
        || l == "}"
}

/// A word made of letters and dots ending in `Error` or `Exception`
/// (`TypeError`, `ModuleNotFoundError`, `pydantic.ValidationError`).
fn error_type(word: &str) -> bool {
    let word = word.trim_end_matches(['[', ']', '(', ')']);
    (word.ends_with("Error") || word.ends_with("Exception") || word == "Error")
        && word.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
}

/// Whether a line states an error: `TypeError: …`, `Error [ERR_X]: …`,
/// `panic: …`, `error: …`, `fatal: …`, `thread 'main' panicked at`.
pub fn is_error_line(line: &str) -> bool {
    let l = line.trim().trim_start_matches("Uncaught ");
    let lower = l.to_ascii_lowercase();
    if [
        "panic:",
        "fatal error:",
        "error:",
        "error[",
        "fatal:",
        "[error]",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || lower.contains("panicked at")
    {
        return true;
    }
    let head = l.split([':', ' ']).next().unwrap_or("");
    error_type(head) && l[head.len()..].trim_start().starts_with([':', '['])
}

/// The names a line gives in upper snake case (`MYSQL_USER`).
fn variable_names(line: &str, out: &mut Vec<String>) {
    for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let env_like = word.len() >= 4
            && word.contains('_')
            && word
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && word.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
        if env_like && !out.iter().any(|n| n == word) {
            out.push(word.to_string());
        }
    }
}

/// The subcommands a usage text lists (`Commands:` sections, argparse's
/// `{a,b}`), servers' likely ones first; `None` when it is no usage text.
fn usage(lines: &[&str]) -> Option<Vec<String>> {
    let at = lines
        .iter()
        .position(|l| l.trim_start().to_ascii_lowercase().starts_with("usage:"))?;
    let mut found: Vec<String> = Vec::new();
    let mut push = |w: &str| {
        let w = w.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        if !w.is_empty() && !w.starts_with('-') && !found.iter().any(|f| f == w) {
            found.push(w.to_string());
        }
    };
    for line in &lines[at..] {
        if let (Some(open), Some(close)) = (line.find('{'), line.find('}'))
            && open < close
        {
            line[open + 1..close].split(',').for_each(&mut push);
        }
    }
    let mut in_commands = false;
    for line in &lines[at..] {
        let header = line.trim().to_ascii_lowercase();
        if header.ends_with("commands:") || header == "subcommands:" {
            in_commands = true;
            continue;
        }
        if in_commands {
            if line.trim().is_empty() || !line.starts_with([' ', '\t']) {
                in_commands = !line.trim().is_empty() && line.starts_with([' ', '\t']);
                if !in_commands {
                    continue;
                }
            }
            if let Some(word) = line.split_whitespace().next() {
                push(word);
            }
        }
    }
    let mut ordered: Vec<String> = SERVING
        .iter()
        .filter(|s| found.iter().any(|f| f == *s))
        .map(|s| s.to_string())
        .collect();
    ordered.extend(found.into_iter().filter(|f| !SERVING.contains(&f.as_str())));
    ordered.truncate(8);
    Some(ordered)
}

/// Reads what a server said.
pub fn read(text: &str) -> Said {
    let text = strip_terminal_codes(text);
    // A run of blank lines reads as one: a flood of newlines costs nothing.
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines() {
        let blank = line.trim().is_empty();
        if !(blank && lines.last().is_some_and(|l| l.trim().is_empty())) {
            lines.push(line);
        }
    }
    let errors: Vec<usize> = (0..lines.len())
        .filter(|&i| !is_noise(lines[i]) && is_error_line(lines[i]))
        .collect();
    let traceback = lines
        .iter()
        .rposition(|l| l.trim().starts_with("Traceback (most recent call last)"));
    let cause = match traceback {
        // Python: the last error line after the last traceback.
        Some(t) => errors.iter().rev().find(|&&i| i > t).copied(),
        None => errors.first().copied(),
    }
    .map(|i| {
        let mut cause = lines[i].trim().to_string();
        let deeper = lines[i + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| l.starts_with("[cause]:"));
        if let Some(deeper) = deeper {
            cause.push_str(&format!(
                " ({})",
                deeper.trim_start_matches("[cause]:").trim()
            ));
        }
        cause
    });
    let last = lines
        .iter()
        .rev()
        .find(|l| !is_noise(l))
        .map(|l| l.trim().to_string());
    let mut names = Vec::new();
    let mut config = false;
    for line in &lines {
        let lower = line.to_ascii_lowercase();
        if ASKS.iter().any(|a| lower.contains(a)) {
            config = true;
            variable_names(line, &mut names);
        }
    }
    Said {
        cause,
        last,
        config,
        names,
        usage: usage(&lines),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_errors_are_quoted_with_their_cause_not_the_footer() {
        let said = read(
            "/srv/index.js:12\n        throw err;\n        ^\n\nTypeError: fetch failed\n    at node:internal/deps/undici/undici:13502:13\n  [cause]: Error: getaddrinfo ENOTFOUND api.example.test\n      at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:120:26) {\n    errno: -3008,\n  }\n}\n\nNode.js v20.20.2\n",
        );
        assert_eq!(
            said.quote(),
            Some("TypeError: fetch failed (Error: getaddrinfo ENOTFOUND api.example.test)")
        );
        let said = read(
            "file:///srv/x.js:1\nimport { z } from 'y';\n         ^\nSyntaxError: The requested module 'y' does not provide an export named 'z'\n    at ModuleJob._instantiate\n\nNode.js v20.20.2",
        );
        assert!(
            said.quote()
                .is_some_and(|q| q.starts_with("SyntaxError: The requested"))
        );
    }

    #[test]
    fn python_go_and_rust_failures_are_found() {
        let py = read(
            "Traceback (most recent call last):\n  File \"/srv/s.py\", line 3, in <module>\n    import httpx\nModuleNotFoundError: No module named 'httpx'\n",
        );
        assert_eq!(
            py.quote(),
            Some("ModuleNotFoundError: No module named 'httpx'")
        );
        assert_eq!(
            read("panic: runtime error: nil map\n\ngoroutine 1 [running]:\nmain.main()").quote(),
            Some("panic: runtime error: nil map")
        );
        let rust = read(
            "thread 'main' panicked at src/main.rs:4:5:\nno config\nnote: run with `RUST_BACKTRACE=1`",
        );
        assert_eq!(
            rust.quote(),
            Some("thread 'main' panicked at src/main.rs:4:5:")
        );
    }

    #[test]
    fn a_cause_before_pages_of_help_is_found_and_colour_is_stripped() {
        let mut text = String::from("\u{1b}[31mError: missing required option --db\u{1b}[0m\n");
        for i in 0..60 {
            text.push_str(&format!("  --option-{i}   what it does\n"));
        }
        let said = read(&text);
        assert_eq!(said.quote(), Some("Error: missing required option --db"));
        assert!(said.config);
    }

    #[test]
    fn configuration_asks_are_found_anywhere_with_their_variables() {
        let said = read("starting\nMYSQL_USER is required\nconnecting...\nbye");
        assert!(said.config);
        assert_eq!(said.names, ["MYSQL_USER"]);
        assert!(!read("Error: boom").config);
    }

    #[test]
    fn usage_text_lists_its_subcommands_serving_ones_first() {
        let said = read(
            "Usage: tool [options] <command>\n\nCommands:\n  init     make a config\n  start    start the MCP server\n  stdio    serve over stdio\n\nOptions:\n  -h  help",
        );
        assert_eq!(
            said.usage,
            Some(vec!["stdio".into(), "start".into(), "init".into()])
        );
        let argparse = read(
            "usage: srv [-h] {serve,check} ...\nsrv: error: the following arguments are required: command",
        );
        assert_eq!(argparse.usage, Some(vec!["serve".into(), "check".into()]));
        assert_eq!(read("Error: boom").usage, None);
    }
}
