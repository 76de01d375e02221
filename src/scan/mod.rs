//! The static scanner: finds code that writes to stdout in a source tree,
//! without running it. Independent of the runtime engine: it uses only
//! `error` and `escape`, and the report renders what it finds (`found`).
//! `walk` lists the files, `prefilter` passes over those that name no
//! filter word, `lex` reads the rest as code (comments and strings
//! skipped), `rules` matches the writes. Files are scanned on
//! every core while the walk goes on; the result is in walk order whatever
//! the threads do.

use std::path::PathBuf;
use std::sync::{Condvar, Mutex};

use crate::error::Error;
use crate::escape::quote;

mod bytes;
pub mod fix;
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

/// Scans every root (a directory or a file), each finding with its fix
/// planned (`scan::fix`).
pub fn scan(roots: &[PathBuf]) -> Result<ScanReport, Error> {
    scan_with(roots, true)
}

/// Scans every root; `fixes` plans each finding's fix (a text scan does
/// without: a feature that is off costs nothing). The walk runs on this
/// thread and hands each file to the scanner threads as soon as it meets
/// it, so reading and lexing start before the walk of a large tree is over.
pub fn scan_with(roots: &[PathBuf], fixes: bool) -> Result<ScanReport, Error> {
    validate_roots(roots)?;
    let mut report = ScanReport {
        roots: roots.iter().map(|r| r.display().to_string()).collect(),
        ..ScanReport::default()
    };
    let cores = crate::sys::cpu_count();
    // Files named one by one need no more threads than there are files.
    let threads = if roots.iter().all(|r| r.is_file()) {
        roots.len().clamp(1, cores)
    } else {
        cores
    };
    let queue = Queue {
        fixes,
        ..Queue::default()
    };
    let listings = std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| queue.scan());
        }
        let walked = queue.walk(roots);
        queue.finish();
        walked
    })?;
    for listing in listings {
        report.skipped_dirs += listing.skipped_dirs;
        report.skipped.extend(listing.skipped);
    }
    let (files, results) = queue.into_results();
    for ((r, entry), result) in files.iter().zip(results) {
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

/// The files the walk has met, with the root each is under, taken in order
/// by the scanner threads; `done` once the walk is over.
#[derive(Default)]
struct Files {
    all: Vec<(usize, walk::Entry)>,
    next: usize,
    done: bool,
}

/// The walk's files on their way to the scanner threads, and what those
/// found, by the file's place in the walk.
#[derive(Default)]
struct Queue {
    files: Mutex<Files>,
    ready: Condvar,
    results: Mutex<Vec<(usize, FileResult)>>,
    /// Plan each finding's fix.
    fixes: bool,
}

/// How long a scanner thread waits for the walk before it looks for an
/// interrupt again.
const WALK_WAIT: std::time::Duration = std::time::Duration::from_millis(50);

impl Queue {
    fn files(&self) -> std::sync::MutexGuard<'_, Files> {
        self.files
            .lock()
            .expect("invariant: no thread panics while holding the file list")
    }

    /// Walks every root, handing each file over as it is met.
    fn walk(&self, roots: &[PathBuf]) -> Result<Vec<walk::Listing>, Error> {
        let mut listings = Vec::new();
        for (r, root) in roots.iter().enumerate() {
            listings.push(walk::walk_with(root, &mut |entry| {
                self.files().all.push((r, entry));
                self.ready.notify_one();
            })?);
        }
        Ok(listings)
    }

    /// The walk is over (or failed): the threads end once the list is done.
    fn finish(&self) {
        self.files().done = true;
        self.ready.notify_all();
    }

    /// A scanner thread: takes the next file until the walk is over and
    /// every file taken, or the guard is interrupted (the caller then stops
    /// too).
    fn scan(&self) {
        let (mut buf, mut toks, mut local) = (Vec::new(), Vec::new(), Vec::new());
        while let Some((i, entry)) = self.take() {
            local.push((i, scan_file(&entry, &mut buf, &mut toks, self.fixes)));
        }
        self.results
            .lock()
            .expect("invariant: no thread panics while holding the results")
            .extend(local);
    }

    /// The next file to scan, waiting for the walk when it is behind.
    fn take(&self) -> Option<(usize, walk::Entry)> {
        let mut files = self.files();
        loop {
            if crate::sys::pending_interrupt().is_some() {
                return None;
            }
            if let Some((_, entry)) = files.all.get(files.next) {
                let taken = (files.next, entry.clone());
                files.next += 1;
                return Some(taken);
            }
            if files.done {
                return None;
            }
            files = self
                .ready
                .wait_timeout(files, WALK_WAIT)
                .expect("invariant: no thread panics while holding the file list")
                .0;
        }
    }

    /// Every file in walk order with its result (a file left unscanned by
    /// an interrupt counts as unreadable).
    fn into_results(self) -> (Vec<(usize, walk::Entry)>, Vec<FileResult>) {
        let files = self
            .files
            .into_inner()
            .expect("invariant: the scanner threads have ended")
            .all;
        let mut results: Vec<Option<FileResult>> = (0..files.len()).map(|_| None).collect();
        for (i, r) in self
            .results
            .into_inner()
            .expect("invariant: the scanner threads have ended")
        {
            results[i] = Some(r);
        }
        let results = results
            .into_iter()
            .map(|r| r.unwrap_or(FileResult::Skipped("unreadable")))
            .collect();
        (files, results)
    }
}

fn scan_file(
    entry: &walk::Entry,
    buf: &mut Vec<u8>,
    toks: &mut Vec<lex::Tok>,
    fixes: bool,
) -> FileResult {
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
    match scan_source_with(buf, entry.language, &entry.relative, toks, fixes) {
        Ok(mut found) => {
            for f in &mut found {
                f.path = entry.display.clone();
            }
            FileResult::Findings(found)
        }
        Err(lex::Minified) => FileResult::Skipped("minified"),
    }
}

/// Scans one file's bytes, each finding with its fix planned.
pub fn scan_source(
    src: &[u8],
    lang: Language,
    file: &str,
    toks: &mut Vec<lex::Tok>,
) -> Result<Vec<Finding>, lex::Minified> {
    scan_source_with(src, lang, file, toks, true)
}

/// Scans one file's bytes; `fixes` plans each finding's fix.
fn scan_source_with(
    src: &[u8],
    lang: Language,
    file: &str,
    toks: &mut Vec<lex::Tok>,
    fixes: bool,
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
    let planned: Vec<Option<fix::Fix>> = if fixes {
        fix::plan(src, lang, toks, &hits)
            .into_iter()
            .map(Some)
            .collect()
    } else {
        vec![None; hits.len()]
    };
    Ok(hits
        .into_iter()
        .zip(planned)
        .map(|(hit, fix)| {
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
                char_column: lex::char_column(src, t.start as usize),
                language: lang,
                reason: hit.reason,
                reasons,
                message,
                snippet: quote(line_at(src, t.start as usize).trim_ascii()),
                fix,
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

    #[test]
    fn a_finding_counts_its_column_in_bytes_and_in_code_points() {
        let mut toks = Vec::new();
        let src = "x = 'é'; print('x')\n";
        let found = scan_source(src.as_bytes(), Language::Python, "f", &mut toks).expect("read");
        assert_eq!((found[0].column, found[0].char_column), (11, 10));
    }

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
