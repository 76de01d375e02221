//! `lint FILE...`: the definitions lint over files (or `-`, stdin),
//! starting nothing. Each file is one JSON document or JSON Lines (one
//! document a line), read a line or a document at a time within a bound;
//! each document is one server's definitions (`checks::lint::inputs` finds
//! them in any of the forms it knows), linted as a check lints them, with
//! the same codes. Text, `--json`, `--sarif FILE`; exit 1 on an error
//! finding, 2 for a file that cannot be read or holds no definitions.

use std::io::{BufRead, Read};
use std::path::Path;

use serde_json::Value;

use crate::args::formats::Format;
use crate::args::settings::Settings;
use crate::checks::Issue;
use crate::checks::lint::{self, inputs};
use crate::commands::judge::check_interrupt;
use crate::error::Error;
use crate::obj;
use crate::plan::outputs::{Kind, Outputs, Wanted};
use crate::progress::Progress;
use crate::report;

/// The most one document (or one line of JSON Lines) may hold.
const MAX_DOCUMENT: u64 = 64 << 20;

/// One server's definitions, linted.
struct Linted {
    /// `FILE`, `FILE:LINE` (JSON Lines) or `FILE[i]` (an array of servers).
    source: String,
    /// The file it came from, as given.
    file: String,
    /// The batch entry or the server's own name, when the input gives one.
    name: Option<String>,
    counts: [usize; 4],
    complete: bool,
    issues: Vec<Issue>,
}

impl Linted {
    fn errors(&self) -> usize {
        self.issues.iter().filter(|i| i.is_error()).count()
    }
}

/// What the lint has written so far, for the summary at the end.
#[derive(Default)]
struct Totals {
    inputs: usize,
    definitions: usize,
    errors: usize,
    warnings: usize,
}

/// Where each input's part of the report goes as soon as it is linted:
/// the report (text, or the JSON document's `inputs` one by one) and, for
/// `--sarif`, its results. Until an input defines something, the report's
/// parts wait, up to `WAITING` bytes (input with nothing in it makes no
/// report at all; the SARIF file is only renamed into place at the end).
struct Writer<'a> {
    outputs: &'a mut Outputs,
    json: bool,
    paint: crate::report::style::Paint,
    /// The SARIF document, written an input at a time (`--sarif`).
    sarif: Option<report::sarif::Stream>,
    waiting: Vec<u8>,
    /// Part of the report is out: an input with no definitions in it
    /// ends the report rather than leave it unfinished.
    spoke: bool,
    totals: Totals,
}

/// The most the report's parts wait before the first definition.
const WAITING: usize = 1 << 20;

impl Writer<'_> {
    fn input(&mut self, l: &Linted) -> Result<(), Error> {
        let first = self.totals.inputs == 0;
        let defined: usize = l.counts.iter().sum();
        self.totals.inputs += 1;
        self.totals.definitions += defined;
        self.totals.errors += l.errors();
        self.totals.warnings += l.issues.len() - l.errors();
        if first && self.json {
            self.waiting
                .extend_from_slice(b"{\n  \"schemaVersion\": 1,\n  \"inputs\": [\n");
        }
        let part = if self.json {
            json_input(l, first)
        } else {
            text_input(l, &self.paint)
        };
        self.waiting.extend_from_slice(part.as_bytes());
        if let Some(sarif) = &mut self.sarif {
            let mut part = if first {
                report::sarif::Stream::head()
            } else {
                String::new()
            };
            part.push_str(&sarif.suite(&suite(l)));
            self.outputs
                .write(Kind::Format(Format::Sarif), part.as_bytes())?;
        }
        if self.totals.definitions > 0 || self.waiting.len() > WAITING {
            self.outputs
                .write(Kind::Report, &std::mem::take(&mut self.waiting))?;
            self.spoke = true;
        }
        Ok(())
    }

    /// What waits, then the report's end: the summary.
    fn close_report(&mut self) -> Result<(), Error> {
        let t = &self.totals;
        let end = if self.json {
            let summary = obj! {
                "inputs" => t.inputs,
                "definitions" => t.definitions,
                "errors" => t.errors,
                "warnings" => t.warnings,
            };
            let summary = report::common::pretty(&summary).replace('\n', "\n  ");
            format!(
                "\n  ],\n  \"summary\": {},\n  \"ok\": {}\n}}\n",
                summary.trim_end(),
                t.errors == 0
            )
        } else {
            format!(
                "lint: {}, {}: {}, {}\n",
                crate::plural::count(t.inputs, "input"),
                crate::plural::count(t.definitions, "definition"),
                crate::plural::count(t.errors, "error"),
                crate::plural::count(t.warnings, "warning")
            )
        };
        let mut rest = std::mem::take(&mut self.waiting);
        rest.extend_from_slice(end.as_bytes());
        self.outputs.write(Kind::Report, &rest)
    }

    /// The report's end, and the SARIF document's.
    fn finish(mut self) -> Result<u8, Error> {
        self.close_report()?;
        if let Some(sarif) = &self.sarif {
            let tail = sarif.tail("mcp-stdio-guard lint");
            self.outputs
                .write(Kind::Format(Format::Sarif), tail.as_bytes())?;
        }
        self.outputs.commit()?;
        Ok(u8::from(self.totals.errors > 0))
    }
}

/// Runs the lint; returns the exit status. Each input's part of the
/// report (and of the SARIF document) is written as soon as it is linted,
/// so memory holds one input whatever the files hold.
pub fn run(args: &Settings) -> Result<u8, Error> {
    let mut wanted = vec![Wanted::new(Kind::Report, "-")];
    if let Some(path) = args.formats.get(&Format::Sarif) {
        wanted.push(Wanted::new(Kind::Format(Format::Sarif), path));
    }
    let mut outputs = Outputs::open(&wanted, &[])?;
    let mut progress = Progress::new(args.progress);
    let mut w = Writer {
        outputs: &mut outputs,
        json: args.json,
        paint: crate::report::style::Paint {
            on: !args.json && crate::plan::use_color(args.color),
        },
        sarif: args
            .formats
            .contains_key(&Format::Sarif)
            .then(report::sarif::Stream::default),
        waiting: Vec::new(),
        spoke: false,
        totals: Totals::default(),
    };
    for path in &args.lint {
        documents(path, &mut |source, value| {
            check_interrupt()?;
            let many = inputs::is_many(&value);
            let items = match value {
                Value::Array(items) if many => items,
                one => vec![one],
            };
            for (i, v) in items.iter().enumerate() {
                let source = if many {
                    format!("{source}[{i}]")
                } else {
                    source.clone()
                };
                w.input(&lint_one(source, path, v))?;
            }
            let t = &w.totals;
            progress.show(|| {
                format!(
                    "lint: {} definitions in {} {}",
                    t.definitions,
                    t.inputs,
                    if t.inputs == 1 { "input" } else { "inputs" }
                )
            });
            Ok(())
        })?;
    }
    progress.clear();
    if w.totals.definitions == 0 {
        if w.spoke {
            w.close_report()?;
        }
        return Err(Error::usage(
            "found no tool, prompt or resource definitions in the input",
            "give a tools/list result, an array of tools, JSON Lines of them, a server.json with tools, or batch results",
        ));
    }
    w.finish()
}

fn lint_one(source: String, file: &Path, v: &Value) -> Linted {
    let defs = inputs::definitions(v);
    let mut issues = Vec::new();
    lint::lint(&defs, &mut issues);
    Linted {
        source,
        file: file.display().to_string(),
        name: inputs::name(v, &defs),
        counts: inputs::counts(&defs),
        complete: defs.complete,
        issues,
    }
}

/// Calls `each` with every document of `path`, and where it stands.
fn documents(
    path: &Path,
    each: &mut dyn FnMut(String, Value) -> Result<(), Error>,
) -> Result<(), Error> {
    let shown = path.display().to_string();
    let io = |e| Error::io(format!("cannot read {shown}"), e);
    let mut input: Box<dyn BufRead> = if shown == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(io)?,
        ))
    };
    let mut line_no = 0usize;
    let Some((first_no, first)) = next_line(&mut input, &mut line_no, &shown)? else {
        return Err(not_json(&shown, "it is empty"));
    };
    let Ok(value) = parse(&first) else {
        // Not a document on one line: the file is one document.
        let mut rest = first;
        (&mut input)
            .take(MAX_DOCUMENT + 1 - rest.len() as u64)
            .read_to_end(&mut rest)
            .map_err(io)?;
        if rest.len() as u64 > MAX_DOCUMENT {
            return Err(too_large(&shown));
        }
        let value = parse(&rest).map_err(|why| not_json(&shown, &why))?;
        return each(shown.clone(), value);
    };
    let Some((second_no, second)) = next_line(&mut input, &mut line_no, &shown)? else {
        return each(shown.clone(), value);
    };
    // JSON Lines: each line a document.
    each(format!("{shown}:{first_no}"), value)?;
    let mut line = Some((second_no, second));
    while let Some((n, bytes)) = line {
        let at = format!("{shown}:{n}");
        let value = parse(&bytes).map_err(|why| not_json(&at, &why))?;
        each(at, value)?;
        line = next_line(&mut input, &mut line_no, &shown)?;
    }
    Ok(())
}

/// The next line that is not blank, with its number; `None` at the end.
fn next_line(
    input: &mut dyn BufRead,
    line_no: &mut usize,
    shown: &str,
) -> Result<Option<(usize, Vec<u8>)>, Error> {
    loop {
        let mut bytes = Vec::new();
        let n = input
            .take(MAX_DOCUMENT + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Error::io(format!("cannot read {shown}"), e))?;
        if n == 0 {
            return Ok(None);
        }
        if bytes.len() as u64 > MAX_DOCUMENT {
            return Err(too_large(shown));
        }
        *line_no += 1;
        if !bytes.trim_ascii().is_empty() {
            return Ok(Some((*line_no, bytes)));
        }
    }
}

fn parse(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8".to_string())?;
    crate::jsontext::parse(text.trim()).map(|(v, _)| v)
}

fn not_json(at: &str, why: &str) -> Error {
    Error::usage(
        format!("{at} is not JSON (nor JSON Lines): {why}"),
        "give a tools/list result, an array of tools, JSON Lines of them, a server.json with tools, or batch results",
    )
}

fn too_large(at: &str) -> Error {
    Error::usage(
        format!("{at} holds a document over 64 MiB"),
        "split it into JSON Lines, one server a line",
    )
}

/// What an input defines, as `12 tools, 2 prompts`.
fn defined(counts: [usize; 4]) -> String {
    let kinds = ["tool", "prompt", "resource", "resource template"];
    let parts: Vec<String> = counts
        .iter()
        .zip(kinds)
        .filter(|(n, _)| **n > 0)
        .map(|(n, kind)| crate::plural::count(*n, kind))
        .collect();
    if parts.is_empty() {
        "no definitions".into()
    } else {
        parts.join(", ")
    }
}

/// One input's part of the text report: its line, then its findings.
fn text_input(l: &Linted, paint: &crate::report::style::Paint) -> String {
    let e = l.errors();
    let w = l.issues.len() - e;
    let name = l
        .name
        .as_deref()
        .map(|n| format!(" {}", crate::escape::line(n)));
    let verdict = if l.issues.is_empty() {
        "clean".to_string()
    } else {
        format!(
            "{}, {}",
            crate::plural::count(e, "error"),
            crate::plural::count(w, "warning")
        )
    };
    let mut out = format!(
        "{}{} ({}): {verdict}\n",
        crate::escape::line(&l.source),
        name.unwrap_or_default(),
        defined(l.counts)
    );
    for line in report::text::issue_lines(&l.issues, paint) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One input's element of the JSON report's `inputs`, indented as the
/// document around it (a comma before all but the first).
fn json_input(l: &Linted, first: bool) -> String {
    let v = obj! {
        "source" => l.source,
        "name" => l.name,
        "tools" => l.counts[0],
        "prompts" => l.counts[1],
        "resources" => l.counts[2],
        "resourceTemplates" => l.counts[3],
        "complete" => l.complete,
        "errors" => l.errors(),
        "warnings" => l.issues.len() - l.errors(),
        "issues" => l.issues.iter().map(report::common::issue_value).collect::<Vec<_>>(),
    };
    let body = report::common::pretty(&v);
    let mut out = String::from(if first { "    " } else { ",\n    " });
    out.push_str(&body.trim_end().replace('\n', "\n    "));
    out
}

/// An input's SARIF suite: its issues located on the input file.
fn suite(l: &Linted) -> crate::verdict::suite::Suite {
    crate::verdict::suite::Suite {
        name: l.source.clone(),
        classname: "mcp-stdio-guard.lint".into(),
        command: l.source.clone(),
        program: l.file.clone(),
        script: None,
        package: l.name.clone(),
        entry: Some(l.source.clone()),
        duration_ms: 0,
        checks: Vec::new(),
        issues: l
            .issues
            .iter()
            .map(crate::verdict::suite::SuiteIssue::of)
            .collect(),
    }
}
