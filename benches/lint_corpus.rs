//! The lint's corpora and how the lint does on them, shared by `cargo bench
//! --bench lint` (which prints the tables and times the lint) and the test
//! that holds the goals (`tests/it/lint_corpus.rs`).
//!
//! - `testdata/lint/poisoned.jsonl`: poisoned definitions by family, built by
//!   `scripts/lint-corpus/build.py` from `testdata/lint/poisoned/payloads.txt`
//!   (every English payload also disguised once: the `hidden-channel` family).
//! - `testdata/lint/benign/servers.jsonl`: every definition real servers from
//!   npm and PyPI list (`scripts/lint-corpus/harvest.py`), linted server by
//!   server (a server's own tools are known to each other).
//! - `testdata/lint/benign/bfcl.jsonl`: a published tool list
//!   (`scripts/lint-corpus/bfcl.py`).
//! - `testdata/lint/benign/tricky.txt` (and `tricky-blind.txt`, written later,
//!   measured, never tuned on): benign definitions that use the words,
//!   paths, scripts and characters the rules look for.
//!
//! A definition is caught (flagged) when the lint raises a `definition-*`
//! issue that names it; as an error when one of those is an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_stdio_guard::checks::Severity;
use mcp_stdio_guard::checks::lint::{Definitions, lint, model, rules};
use serde_json::Value;

/// One definition of a corpus: its kind (`tool`, `prompt`, `resource`)
/// and its JSON.
#[derive(Debug, Clone)]
pub struct Case {
    pub kind: String,
    pub definition: Value,
    /// The family (poisoned) or the set (benign) it counts for.
    pub group: String,
    /// The server it came from, for benign real servers.
    pub source: Option<String>,
    /// The family a poisoned case belongs to (a disguised one: the
    /// family of what it hides).
    pub family: Option<String>,
}

/// The code a family's finding carries (`family` as the corpora name it:
/// `model::FAMILY_NAMES`).
pub fn family_code(family: &str) -> Option<&'static str> {
    let at = model::FAMILY_NAMES.iter().position(|n| *n == family)?;
    Some(rules::MODEL_FAMILIES[at].code().as_str())
}

/// What the lint said about a definition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    pub flagged: bool,
    pub error: bool,
    /// The first finding's code and message.
    pub why: Option<String>,
    /// Every `definition-*` code that names it.
    pub codes: Vec<String>,
}

impl Verdict {
    /// Whether a finding names the case's own family.
    pub fn names(&self, case: &Case) -> bool {
        let code = case.family.as_deref().and_then(family_code);
        code.is_some_and(|code| self.codes.iter().any(|c| c == code))
    }
}

/// Counts for one row of a table.
#[derive(Debug, Clone, Default)]
pub struct Row {
    pub cases: usize,
    pub flagged: usize,
    pub errors: usize,
    /// A few examples that went the wrong way, for the reader.
    pub wrong: Vec<String>,
}

impl Row {
    pub fn rate(&self) -> f64 {
        self.flagged as f64 * 100.0 / self.cases.max(1) as f64
    }
    pub fn error_rate(&self) -> f64 {
        self.errors as f64 * 100.0 / self.cases.max(1) as f64
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/lint")
}

fn jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The poisoned corpus, each case's group its family.
pub fn poisoned() -> Vec<Case> {
    jsonl(&root().join("poisoned.jsonl"))
        .into_iter()
        .map(|row| Case {
            kind: row["kind"].as_str().unwrap_or("tool").to_string(),
            group: row["family"].as_str().unwrap_or("?").to_string(),
            definition: row["definition"].clone(),
            source: None,
            family: row["underlying"]
                .as_str()
                .or(row["family"].as_str())
                .map(String::from),
        })
        .collect()
}

/// The file each poisoned case comes from (`payloads.txt`, `heldout.txt`),
/// in corpus order.
pub fn poisoned_sets() -> Vec<String> {
    jsonl(&root().join("poisoned.jsonl"))
        .iter()
        .map(|row| row["set"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// The language of each poisoned case, in corpus order.
pub fn poisoned_languages() -> Vec<String> {
    jsonl(&root().join("poisoned.jsonl"))
        .iter()
        .map(|row| row["language"].as_str().unwrap_or("?").to_string())
        .collect()
}

fn decode_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(hex) = tail.strip_prefix("\\u").and_then(|t| t.get(..4))
            && let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        {
            out.push(c);
            rest = &tail[6..];
        } else if let Some(t) = tail.strip_prefix("\\n") {
            out.push('\n');
            rest = t;
        } else {
            out.push('\\');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The benign corpora, each case's group its set (`servers`, `bfcl`,
/// `tricky`).
pub fn benign() -> Vec<Case> {
    let mut out = Vec::new();
    for set in ["servers", "bfcl"] {
        for row in jsonl(&root().join(format!("benign/{set}.jsonl"))) {
            out.push(Case {
                kind: row["kind"].as_str().unwrap_or("tool").to_string(),
                definition: row["definition"].clone(),
                group: set.to_string(),
                source: row["source"].as_str().map(String::from),
                family: None,
            });
        }
    }
    for (file, group) in [
        ("tricky.txt", "tricky"),
        ("tricky-blind.txt", "tricky-blind"),
        ("tricky-r5.txt", "tricky-r5"),
        ("tricky-r6.txt", "tricky-r6"),
        ("tricky-r7.txt", "tricky-r7"),
        ("tricky-r8.txt", "tricky-r8"),
        ("tricky-r9.txt", "tricky-r9"),
        ("tricky-r10.txt", "tricky-r10"),
        ("tricky-r11.txt", "tricky-r11"),
        ("tricky-r12.txt", "tricky-r12"),
        ("tricky-r13.txt", "tricky-r13"),
        ("tricky-r14.txt", "tricky-r14"),
        ("tricky-r15.txt", "tricky-r15"),
        ("tricky-r16.txt", "tricky-r16"),
        ("tricky-r17.txt", "tricky-r17"),
    ] {
        tricky_cases(file, group, &mut out);
    }
    out
}

/// The cases of a tricky benign file (`name|description`, or
/// `name|param:NAME=description`).
fn tricky_cases(file: &str, group: &str, out: &mut Vec<Case>) {
    let tricky = std::fs::read_to_string(root().join("benign").join(file)).unwrap_or_default();
    for line in tricky
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some((name, text)) = line.split_once('|') else {
            continue;
        };
        let text = decode_escapes(text);
        let definition = match text.strip_prefix("param:").and_then(|t| t.split_once('=')) {
            Some((param, desc)) => serde_json::json!({"name": name,
                "description": "A tool of this server.",
                "inputSchema": {"type": "object", "properties": {param: {"type": "string", "description": desc}}}}),
            None => serde_json::json!({"name": name, "description": text,
                "inputSchema": {"type": "object", "properties": {"input": {"type": "string"}}}}),
        };
        out.push(Case {
            kind: "tool".into(),
            definition,
            group: group.into(),
            source: None,
            family: None,
        });
    }
}

fn definitions(cases: &[&Case]) -> Definitions<'static> {
    // The cases outlive the call; the lint borrows them for its length.
    let leak: &'static [Value] = Vec::leak(cases.iter().map(|c| c.definition.clone()).collect());
    // A harvested server is named by its package (`npm:@scope/name@1.2.3`).
    let server = cases
        .first()
        .and_then(|c| c.source.as_deref())
        .map(|source| {
            let package = source.split_once(':').map_or(source, |(_, p)| p);
            let name = package.rsplit_once('@').map_or(package, |(n, _)| n);
            &*Box::leak(Box::new(serde_json::json!({ "name": name })))
        });
    let mut defs = Definitions {
        complete: true,
        server_info: server,
        ..Definitions::default()
    };
    for (case, value) in cases.iter().zip(leak) {
        match case.kind.as_str() {
            "prompt" => defs.prompts.push(value),
            "resource" => defs.resources.push(value),
            "resource template" => defs.templates.push(value),
            _ => defs.tools.push(value),
        }
    }
    defs
}

fn owner(case: &Case) -> String {
    let key = match case.kind.as_str() {
        "resource" => "uri",
        "resource template" => "uriTemplate",
        _ => "name",
    };
    case.definition[key]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The lint's verdict on each case, in order: a case alone on a server of
/// its own, or (with a source) beside the rest of its server's
/// definitions.
pub fn judge(cases: &[Case]) -> Vec<Verdict> {
    let mut by_server: BTreeMap<Option<&str>, Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        by_server.entry(c.source.as_deref()).or_default().push(i);
    }
    let mut out = vec![Verdict::default(); cases.len()];
    for (source, members) in by_server {
        let groups: Vec<Vec<usize>> = match source {
            Some(_) => vec![members],
            None => members.into_iter().map(|i| vec![i]).collect(),
        };
        for group in groups {
            let refs: Vec<&Case> = group.iter().map(|&i| &cases[i]).collect();
            let defs = definitions(&refs);
            let mut issues = Vec::new();
            lint(&defs, &mut issues);
            for issue in issues
                .iter()
                .filter(|i| i.code.as_str().starts_with("definition-"))
            {
                let subject = issue
                    .detail("subject")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                for &i in &group {
                    let c = &cases[i];
                    let prefix = format!("{}:{}/", c.kind.replace(' ', "-"), owner(c));
                    if group.len() == 1 || subject.starts_with(&prefix) {
                        out[i].flagged = true;
                        out[i].error |= issue.severity == Severity::Error;
                        out[i].codes.push(issue.code.as_str().to_string());
                        out[i].why.get_or_insert_with(|| {
                            format!("{}: {}", issue.code.as_str(), issue.message)
                        });
                    }
                }
            }
        }
    }
    out
}

/// One row per group, in name order.
pub fn table(cases: &[Case], verdicts: &[Verdict], poisoned: bool) -> BTreeMap<String, Row> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for (c, v) in cases.iter().zip(verdicts) {
        let row = rows.entry(c.group.clone()).or_default();
        row.cases += 1;
        row.flagged += usize::from(v.flagged);
        row.errors += usize::from(v.error);
        let wrong = if poisoned { !v.error } else { v.flagged };
        if wrong && row.wrong.len() < 40 {
            let text = match &v.why {
                Some(why) => why.clone(),
                None => serde_json::to_string(&c.definition).unwrap_or_default(),
            };
            row.wrong.push(text.chars().take(300).collect());
        }
    }
    rows
}

/// A swap of two letters in the middle of every word of six or more
/// letters (`instructions` -> `instrcutions`).
pub fn letter_swaps(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            let chars: Vec<char> = w.chars().collect();
            if chars.len() < 6 || !chars.iter().all(|c| c.is_alphabetic()) {
                return w.to_string();
            }
            let mut c = chars;
            let k = c.len() / 2 - 1;
            c.swap(k, k + 1);
            c.into_iter().collect()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
