//! The rewrite of each finding the scanner can fix safely: a straight swap
//! that keeps behaviour except the stream (`print(x)` to `print(x,
//! file=sys.stderr)`, `console.log` to `console.error`, `println!` to
//! `eprintln!`, `fmt.Println(x)` to `fmt.Fprintln(os.Stderr, x)`,
//! `System.out` to `System.err`, `Console.Write` to `Console.Error.Write`,
//! `puts` to `$stderr.puts`, ...), with the import it needs (`import sys`,
//! Go's `"os"`) added once. Each edit replaces an exact token span, so
//! strings, comments and the formatting around it are kept. A finding
//! whose rewrite is not a straight swap (a logger configured with stdout,
//! a stream handed on, a handle) is left, with why. Pure.

use crate::scan::lex::{Kind, Language, Tok};
use crate::scan::rules::{Hit, Src};

/// One replacement: bytes `start..end` of the file become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// Where `start` and `end` are as SARIF regions count them: 1-based
    /// lines and 1-based columns in Unicode code points (set by `plan`).
    pub from: (u32, u32),
    pub to: (u32, u32),
}

/// What can be done about a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    /// These edits (the finding's own, and an import it needs).
    Edits(Vec<Edit>),
    /// Not a straight swap: why it is left to a person.
    Left(&'static str),
}

impl Fix {
    /// The fix as reports carry it: `{"edits": [{line, column, endLine,
    /// endColumn, text}]}` (columns in code points, the end exclusive) or
    /// `{"left": why}`.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::{Map, Value};
        let mut out = Map::new();
        match self {
            Fix::Edits(edits) => {
                let edits = edits
                    .iter()
                    .map(|e| {
                        let mut m = Map::new();
                        m.insert("line".into(), e.from.0.into());
                        m.insert("column".into(), e.from.1.into());
                        m.insert("endLine".into(), e.to.0.into());
                        m.insert("endColumn".into(), e.to.1.into());
                        m.insert("text".into(), e.text.clone().into());
                        Value::Object(m)
                    })
                    .collect();
                out.insert("edits".into(), Value::Array(edits));
            }
            Fix::Left(why) => {
                out.insert("left".into(), (*why).into());
            }
        }
        Value::Object(out)
    }
}

/// The fix of each hit, in the hits' order.
pub fn plan(src: &[u8], lang: Language, toks: &[Tok], hits: &[Hit]) -> Vec<Fix> {
    if hits.is_empty() {
        return Vec::new();
    }
    let s = Src::new(src, toks);
    let eol = if src.windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let lines = Lines::of(src);
    // The import a rewrite needs, found once per file.
    let import = match lang {
        Language::Python => python_import_sys(&s, eol),
        Language::Go => go_import_os(&s, eol),
        _ => Ok(None),
    };
    hits.iter()
        .map(
            |h| match one(&s, h).and_then(|e| with_import(e, h, &import)) {
                Ok(mut edits) => {
                    for e in &mut edits {
                        e.from = lines.place(src, e.start);
                        e.to = lines.place(src, e.end);
                    }
                    Fix::Edits(edits)
                }
                Err(why) => Fix::Left(why),
            },
        )
        .collect()
}

/// `edits`, and the file's missing import when the rewrite names the
/// module it needs (`sys.stderr`, `os.Stderr`).
fn with_import(
    mut edits: Vec<Edit>,
    h: &Hit,
    import: &Result<Option<Edit>, &'static str>,
) -> Result<Vec<Edit>, &'static str> {
    let needs = edits
        .iter()
        .any(|e| e.text.contains("sys.stderr") || e.text.contains("os.Stderr"));
    if needs && matches!(h.reason, "python-print-stdout" | "go-fmt-print") {
        edits.extend(import.clone()?);
    }
    Ok(edits)
}

/// Where each line starts, to turn byte offsets into lines and columns.
struct Lines(Vec<usize>);

impl Lines {
    fn of(src: &[u8]) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines(starts)
    }

    /// Byte `at` as a 1-based line and a 1-based column in code points.
    fn place(&self, src: &[u8], at: usize) -> (u32, u32) {
        let line = self.0.partition_point(|&s| s <= at);
        let start = self.0[line - 1];
        let chars = src[start..at].iter().filter(|&&b| b & 0xC0 != 0x80).count();
        (line as u32, chars as u32 + 1)
    }
}

/// Token `i`'s bytes.
fn at(s: &Src, i: usize) -> (usize, usize) {
    s.span(i)
}

/// Bytes `start..end` replaced by `text` (placed by `plan`).
fn edit(start: usize, end: usize, text: String) -> Edit {
    Edit {
        start,
        end,
        text,
        from: (0, 0),
        to: (0, 0),
    }
}

/// Token `i` replaced by `text`.
fn swap(s: &Src, i: usize, text: &str) -> Edit {
    let (start, end) = at(s, i);
    edit(start, end, text.into())
}

/// `text` inserted before token `i`.
fn before(s: &Src, i: usize, text: &str) -> Edit {
    let (start, _) = at(s, i);
    edit(start, start, text.into())
}

/// `text` appended as the last argument of the call whose `(` is token
/// `open`: after the arguments (a trailing comma respected), before `)`.
fn last_argument(s: &Src, open: usize, text: &str) -> Result<Edit, &'static str> {
    let close = s
        .closer(open)
        .ok_or("the call's parenthesis is not closed")?;
    let (start, _) = at(s, close);
    let args = s.args(open);
    let insert = if args.is_empty() {
        text.to_string()
    } else if s.is(close - 1, ",") {
        format!(" {text}")
    } else {
        format!(", {text}")
    };
    // After the last argument's last token (a newline before `)` kept).
    let from = if args.is_empty() {
        start
    } else {
        at(s, close - 1).1
    };
    Ok(edit(from, from, insert))
}

/// The finding's own edits, or why there are none.
fn one(s: &Src, h: &Hit) -> Result<Vec<Edit>, &'static str> {
    let i = h.tok;
    Ok(match h.reason {
        "javascript-console-stdout" => match s.text(i + 2) {
            b"log" | b"info" | b"debug" | b"dir" => vec![swap(s, i + 2, "error")],
            _ => {
                return Err(
                    "console.table, count, group and the timers format their output; no straight swap",
                );
            }
        },
        "javascript-process-stdout-write" => vec![swap(s, i + 2, "stderr")],
        "python-print-stdout" => {
            let args = s.args(i + 1);
            match s.kwarg(&args, "file") {
                Some((from, to)) if to == from + 3 && s.seq(from, &["sys", ".", "stdout"]) => {
                    vec![swap(s, from + 2, "stderr")]
                }
                Some(_) => return Err("print's file= is not sys.stdout itself"),
                None => vec![last_argument(s, i + 1, "file=sys.stderr")?],
            }
        }
        "python-sys-stdout-write" => vec![swap(s, i + 2, "stderr")],
        "python-click-echo-stdout" => {
            if s.kwarg(&s.args(i + 3), "err").is_some() {
                return Err("click.echo's err= is set to something else");
            }
            vec![last_argument(s, i + 3, "err=True")?]
        }
        "go-fmt-print" => {
            let to = match s.text(i + 2) {
                b"Print" => "Fprint",
                b"Println" => "Fprintln",
                _ => "Fprintf",
            };
            let empty = s.is(i + 4, ")");
            let stream = if empty { "os.Stderr" } else { "os.Stderr, " };
            vec![swap(s, i + 2, to), before(s, i + 4, stream)]
        }
        "go-fprint-stdout" => vec![swap(s, i + 6, "Stderr")],
        "go-os-stdout-write" => vec![swap(s, i + 2, "Stderr")],
        "rust-print-macro" => {
            let to = if s.is(i, "println") {
                "eprintln"
            } else {
                "eprint"
            };
            vec![swap(s, i, to)]
        }
        "java-system-out" | "kotlin-system-out" => vec![swap(s, i + 2, "err")],
        "kotlin-println" => vec![before(s, i, "System.err.")],
        "csharp-console-write" if s.is(i + 2, "Out") => vec![swap(s, i + 2, "Error")],
        "csharp-console-write" => vec![before(s, i + 2, "Error.")],
        "ruby-puts-print" => vec![before(s, i, "$stderr.")],
        "ruby-stdout-object" if s.is(i + 1, ".") => {
            let to = if s.is(i, "STDOUT") {
                "STDERR"
            } else {
                "$stderr"
            };
            vec![swap(s, i, to)]
        }
        "ruby-stdout-object" => return Err("$stdout is handed on, not written to here"),
        "javascript-logger-stdout" | "python-logging-stdout" | "go-log-stdout" => {
            return Err("a logger configured with stdout: point its configuration at stderr");
        }
        "rust-stdout-handle" => return Err("a stdout handle: its type changes with stderr()"),
        _ => return Err("no rewrite for this rule"),
    })
}

/// `import sys`, after the module docstring and the `__future__` imports,
/// unless a top-level `import` binds `sys` already. A file where `sys`
/// names something else (`from x import sys`, `import sys as s`) gets no
/// rewrite that would use it.
fn python_import_sys(s: &Src, eol: &str) -> Result<Option<Edit>, &'static str> {
    let n = s.len();
    let mut k = 0;
    while k < n {
        let next = next_statement(s, k);
        let top = line_start(s.source(), at(s, k).0) == at(s, k).0;
        if s.is(k, "import") || s.is(k, "from") {
            let from = s.is(k, "from");
            for j in k + 1..next {
                if !s.is(j, "sys") || s.prev_is(j, ".") || s.is(j + 1, ".") {
                    continue;
                }
                if from || s.is(j + 1, "as") {
                    return Err("sys names another module in this file");
                }
                if top {
                    return Ok(None);
                }
            }
        }
        k = next.max(k + 1);
    }
    // The statements to keep first: a docstring, `from __future__ import`.
    let mut k = 0;
    if s.kind(0) == Some(Kind::Str) {
        k = next_statement(s, 0);
    }
    while s.seq(k, &["from", "__future__", "import"]) {
        k = next_statement(s, k);
    }
    let start = if k < n { at(s, k).0 } else { s.source().len() };
    let start = line_start(s.source(), start);
    // A file whose last line has no newline: the import goes on its own.
    let text = if start == s.source().len() && !s.source().ends_with(b"\n") && start > 0 {
        format!("{eol}import sys{eol}")
    } else {
        format!("import sys{eol}")
    };
    Ok(Some(edit(start, start, text)))
}

/// The first token of the statement after the one at `i`.
fn next_statement(s: &Src, i: usize) -> usize {
    let mut k = i;
    while k < s.len() && s.kind(k) != Some(Kind::Newline) {
        k = s.closer(k).map_or(k + 1, |c| c + 1);
    }
    while k < s.len() && s.kind(k) == Some(Kind::Newline) {
        k += 1;
    }
    k
}

fn line_start(src: &[u8], at: usize) -> usize {
    src[..at.min(src.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1)
}

/// Go's `"os"` import, when the file does not import it: into the
/// `import (...)` block, or as a line after a single import. A file that
/// imports `os` under another name gets no rewrite that would use `os`.
fn go_import_os(s: &Src, eol: &str) -> Result<Option<Edit>, &'static str> {
    let n = s.len();
    if let Some(i) = (0..n).find(|&i| s.is(i, "\"os\"")) {
        let plain = s.prev_is(i, "import")
            || s.prev_is(i, "(")
            || (i > 0 && s.kind(i - 1) == Some(Kind::Newline));
        return if plain {
            Ok(None)
        } else {
            Err("os is imported under another name")
        };
    }
    let Some(i) = (0..n).find(|&i| s.is(i, "import")) else {
        return Err("the file has no import declaration to add \"os\" to");
    };
    if s.is(i + 1, "(") {
        let close = s.closer(i + 1).ok_or("the import block is not closed")?;
        let start = line_start(s.source(), at(s, close).0);
        let text = if start > at(s, i + 1).0 {
            format!("\t\"os\"{eol}")
        } else {
            // `import ("fmt")` on one line.
            "; \"os\"".to_string()
        };
        let start = if start > at(s, i + 1).0 {
            start
        } else {
            at(s, close).0
        };
        return Ok(Some(edit(start, start, text)));
    }
    // After the single import's line (`import "fmt"`, `import f "fmt"`).
    let last = (i + 1..n)
        .take_while(|&k| s.kind(k) != Some(Kind::Newline))
        .last()
        .unwrap_or(i);
    let end = at(s, last).1;
    Ok(Some(edit(end, end, format!("{eol}import \"os\""))))
}

/// How many of `edits` differ (an import shared by several findings
/// counts once).
pub fn distinct(edits: &[Edit]) -> usize {
    (0..edits.len())
        .filter(|&i| !edits[..i].contains(&edits[i]))
        .count()
}

/// `src` with `edits` applied (identical edits once; none may overlap).
pub fn apply(src: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut sorted: Vec<&Edit> = Vec::new();
    for e in edits {
        if !sorted.contains(&e) {
            sorted.push(e);
        }
    }
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = Vec::with_capacity(src.len() + 64);
    let mut at = 0;
    for e in sorted {
        if e.start < at {
            continue;
        }
        out.extend_from_slice(&src[at..e.start]);
        out.extend_from_slice(e.text.as_bytes());
        at = e.end;
    }
    out.extend_from_slice(&src[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{lex, rules};

    fn fixed(src: &str, lang: Language) -> String {
        let mut toks = Vec::new();
        lex::lex(src.as_bytes(), lang, &mut toks).expect("lex");
        let hits = rules::find(src.as_bytes(), lang, &toks);
        let edits: Vec<Edit> = plan(src.as_bytes(), lang, &toks, &hits)
            .into_iter()
            .flat_map(|f| match f {
                Fix::Edits(e) => e,
                Fix::Left(_) => Vec::new(),
            })
            .collect();
        String::from_utf8(apply(src.as_bytes(), &edits)).expect("utf-8")
    }

    #[test]
    fn each_language_swaps_the_stream_and_keeps_the_rest() {
        assert_eq!(
            fixed(
                "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nprint('a', x)  # print(\n",
                Language::Python
            ),
            "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nimport sys\nprint('a', x, file=sys.stderr)  # print(\n"
        );
        assert_eq!(
            fixed(
                "import sys\nprint()\nsys.stdout.write('x')\n",
                Language::Python
            ),
            "import sys\nprint(file=sys.stderr)\nsys.stderr.write('x')\n"
        );
        assert_eq!(
            fixed(
                "console.log('a'); process.stdout.write(s);\n",
                Language::JavaScript
            ),
            "console.error('a'); process.stderr.write(s);\n"
        );
        assert_eq!(
            fixed(
                "package main\n\nimport (\n\t\"fmt\"\n)\n\nfunc f() { fmt.Println(\"x\", 1); fmt.Print() }\n",
                Language::Go
            ),
            "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc f() { fmt.Fprintln(os.Stderr, \"x\", 1); fmt.Fprint(os.Stderr) }\n"
        );
        assert_eq!(
            fixed(
                "fn f() { println!(\"a\"); print!(\"b\"); }\n",
                Language::Rust
            ),
            "fn f() { eprintln!(\"a\"); eprint!(\"b\"); }\n"
        );
        assert_eq!(
            fixed(
                "class A { void f() { System.out.println(\"x\"); } }\n",
                Language::Java
            ),
            "class A { void f() { System.err.println(\"x\"); } }\n"
        );
        assert_eq!(
            fixed("fun f() { println(\"x\") }\n", Language::Kotlin),
            "fun f() { System.err.println(\"x\") }\n"
        );
        assert_eq!(
            fixed(
                "class A { void F() { Console.WriteLine(\"x\"); Console.Out.Flush(); } }\n",
                Language::CSharp
            ),
            "class A { void F() { Console.Error.WriteLine(\"x\"); Console.Error.Flush(); } }\n"
        );
        assert_eq!(
            fixed("puts 'x'\n$stdout.puts 'y'\n", Language::Ruby),
            "$stderr.puts 'x'\n$stderr.puts 'y'\n"
        );
        assert_eq!(
            fixed("print('x')\r\n", Language::Python),
            "import sys\r\nprint('x', file=sys.stderr)\r\n"
        );
    }

    #[test]
    fn what_is_not_a_straight_swap_is_left() {
        let src = "import logging, sys\nlogging.basicConfig(stream=sys.stdout)\nconsole.table(x)\n";
        let mut toks = Vec::new();
        lex::lex(src.as_bytes(), Language::Python, &mut toks).expect("lex");
        let hits = rules::find(src.as_bytes(), Language::Python, &toks);
        assert!(matches!(
            plan(src.as_bytes(), Language::Python, &toks, &hits)[0],
            Fix::Left(_)
        ));
    }
}
