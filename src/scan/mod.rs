//! The static scanner: finds code that writes to stdout in a source tree,
//! without running it. Independent of the runtime engine: it uses only
//! `error` and `escape`, and the report renders what it finds (`found`).
//! `walk` lists the files, `prefilter` passes over those that name no
//! filter word, `lex` reads the rest as code (comments and strings
//! skipped), `rules` matches the writes. Files are scanned on
//! every core; the result is in walk order whatever the threads do.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::Error;
use crate::escape::quote;

mod bytes;
mod found;
pub mod lex;
mod prefilter;
pub mod rules;
pub mod walk;

pub use found::{Finding, ScanReport, Skipped, skipped_counts};

use lex::Language;

/// Checks that every root exists before anything runs.
pub fn validate_roots(roots: &[PathBuf]) -> Result<(), Error> {
    for root in roots {
        if std::fs::symlink_metadata(root).is_err() {
            return Err(Error::usage(
                format!("scan path {} does not exist", root.display()),
                "give a directory or a source file",
            ));
        }
    }
    Ok(())
}

/// Scans every root (a directory or a file).
pub fn scan(roots: &[PathBuf]) -> Result<ScanReport, Error> {
    validate_roots(roots)?;
    let mut report = ScanReport::default();
    let mut files: Vec<(usize, walk::Entry)> = Vec::new();
    for (r, root) in roots.iter().enumerate() {
        report.roots.push(root.display().to_string());
        let listing = walk::walk(root)?;
        report.skipped_dirs += listing.skipped_dirs;
        report.skipped.extend(listing.skipped);
        files.extend(listing.files.into_iter().map(|e| (r, e)));
    }
    let results = scan_files(&files);
    for (i, result) in results.into_iter().enumerate() {
        let (r, entry) = &files[i];
        match result {
            FileResult::Findings(found) => {
                report.files_scanned += 1;
                report.findings.extend(found.into_iter().map(|mut f| {
                    f.root = report.roots[*r].clone();
                    f
                }));
            }
            FileResult::Skipped(reason) => report.skipped.push(Skipped {
                file: entry.relative.clone(),
                reason,
            }),
        }
    }
    Ok(report)
}

enum FileResult {
    Findings(Vec<Finding>),
    Skipped(&'static str),
}

/// Scans the files on every core, and returns the results in file order.
fn scan_files(files: &[(usize, walk::Entry)]) -> Vec<FileResult> {
    let threads = crate::sys::cpu_count().min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<FileResult>>> =
        Mutex::new((0..files.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut buf = Vec::new();
                let mut toks = Vec::new();
                let mut local = Vec::new();
                // An interrupt of the guard stops the scan (the caller
                // then stops too).
                while crate::sys::pending_interrupt().is_none() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((_, entry)) = files.get(i) else {
                        break;
                    };
                    local.push((i, scan_file(entry, &mut buf, &mut toks)));
                }
                let mut all = results
                    .lock()
                    .expect("invariant: no scanner thread panics while holding the lock");
                for (i, r) in local {
                    all[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("invariant: the scanner threads have ended")
        .into_iter()
        .map(|r| r.unwrap_or(FileResult::Skipped("unreadable")))
        .collect()
}

fn scan_file(entry: &walk::Entry, buf: &mut Vec<u8>, toks: &mut Vec<lex::Tok>) -> FileResult {
    use std::io::Read;
    buf.clear();
    let read = std::fs::File::open(&entry.path)
        .and_then(|f| f.take(walk::MAX_FILE_BYTES + 1).read_to_end(buf));
    if read.is_err() {
        return FileResult::Skipped("unreadable");
    }
    if buf.len() as u64 > walk::MAX_FILE_BYTES {
        return FileResult::Skipped("too-large");
    }
    match scan_source(buf, entry.language, &entry.relative, toks) {
        Ok(mut found) => {
            for f in &mut found {
                f.path = entry.display.clone();
            }
            FileResult::Findings(found)
        }
        Err(lex::Minified) => FileResult::Skipped("minified"),
    }
}

/// Scans one file's bytes.
pub fn scan_source(
    src: &[u8],
    lang: Language,
    file: &str,
    toks: &mut Vec<lex::Tok>,
) -> Result<Vec<Finding>, lex::Minified> {
    // Most files name none of the calls the rules look for: those are not
    // lexed at all (only checked for a minified line, which is skipped as
    // it would be after lexing).
    if !prefilter::names_any(src, rules::filter_words(lang)) {
        toks.clear();
        return if prefilter::has_long_line(src) {
            Err(lex::Minified)
        } else {
            Ok(Vec::new())
        };
    }
    lex::lex(src, lang, toks)?;
    let hits = rules::find(src, lang, toks);
    Ok(hits
        .into_iter()
        .map(|hit| {
            let t = toks[hit.tok];
            let mut reasons = vec![hit.reason];
            let mut message = hit.message;
            if hit.startup {
                reasons.push(rules::STARTUP);
                message.push_str("; it runs at module top level, when the server starts, before any client speaks");
            }
            Finding {
                root: String::new(),
                file: file.to_string(),
                path: file.to_string(),
                line: t.line,
                column: lex::column(src, t.start as usize),
                language: lang,
                reason: hit.reason,
                reasons,
                message,
                snippet: quote(line_at(src, t.start as usize).trim_ascii()),
            }
        })
        .collect())
}

/// The source line holding byte `at`.
fn line_at(src: &[u8], at: usize) -> &[u8] {
    let start = src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = src[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| at + p);
    &src[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One short source per rule: each is found through the filter words
    /// exactly as by lexing it whole.
    #[test]
    fn every_rule_is_found_through_the_filter_words() {
        let cases: &[(Language, &str)] = &[
            (Language::JavaScript, "console.log('x');\n"),
            (Language::JavaScript, "process.stdout.write('x');\n"),
            (Language::JavaScript, "const log = pino(process.stdout);\n"),
            (Language::JavaScript, "pino(pino.destination(1));\n"),
            (
                Language::TypeScript,
                "new winston.transports.Console({});\n",
            ),
            (Language::Python, "print('x')\n"),
            (Language::Python, "import sys\nsys.stdout.write('x')\n"),
            (Language::Python, "sys.stdout.buffer.write(b'x')\n"),
            (Language::Python, "logging.basicConfig(stream=sys.stdout)\n"),
            (Language::Python, "h = logging.StreamHandler(sys.stdout)\n"),
            (Language::Python, "click.echo('x')\ntyper.secho('y')\n"),
            (Language::Go, "func main() {\n\tfmt.Println(\"x\")\n}\n"),
            (Language::Go, "fmt.Fprintln(os.Stdout, x)\n"),
            (Language::Go, "os.Stdout.WriteString(\"x\")\n"),
            (Language::Go, "log.SetOutput(os.Stdout)\n"),
            (Language::Rust, "fn main() { println!(\"x\"); }\n"),
            (Language::Rust, "let out = std::io::stdout();\n"),
            (Language::Java, "System.out.println(\"x\");\n"),
            (Language::Kotlin, "fun main() { println(\"x\") }\n"),
            (Language::CSharp, "Console.WriteLine(\"x\");\n"),
            (
                Language::Ruby,
                "puts 'x'\n$stdout.write('y')\nSTDOUT.puts 'z'\n",
            ),
        ];
        let mut toks = Vec::new();
        for (lang, src) in cases {
            let filtered =
                scan_source(src.as_bytes(), *lang, "f", &mut toks).expect("not minified");
            lex::lex(src.as_bytes(), *lang, &mut toks).expect("not minified");
            let whole = rules::find(src.as_bytes(), *lang, &toks);
            assert!(!whole.is_empty(), "{lang:?}: no rule matches {src:?}");
            assert_eq!(filtered.len(), whole.len(), "{lang:?}: {src:?}");
        }
    }
}
