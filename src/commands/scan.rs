//! `scan PATH...`: the static scanner alone, no server. Exit 1 with
//! findings, 0 without, 2 for a path that does not exist. `--diff` prints
//! the safe rewrites (`scan::fix`) as a unified diff and changes nothing;
//! `--fix` writes them (atomically per file), scans again and reports what
//! is left; `--sarif FILE` writes the findings with their SARIF `fixes`.

use std::path::{Path, PathBuf};

use crate::args::formats::Format;
use crate::args::settings::Settings;
use crate::commands::judge::check_interrupt;
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Wanted};
use crate::scan::fix::{self, Fix};
use crate::scan::{Finding, ScanReport};
use crate::{plan, report, scan};

/// Runs the scan; returns the exit status.
pub fn run(args: &Settings) -> Result<u8, Error> {
    if args.scan_fix && args.scan_diff {
        return Err(Error::usage(
            "--fix and --diff cannot be used together",
            "--diff shows the edits, --fix writes them",
        ));
    }
    if args.scan_diff && args.json {
        return Err(Error::usage(
            "--diff prints a diff, not JSON",
            "leave out --json (the JSON report carries each finding's fix)",
        ));
    }
    let mut wanted = vec![Wanted::new(Kind::Report, "-")];
    if let Some(path) = args.formats.get(&Format::Sarif) {
        wanted.push(Wanted::new(Kind::Format(Format::Sarif), path));
    }
    let mut outputs = Outputs::open(&wanted, &[])?;
    // Fixes are planned only for an output that shows them.
    let fixes =
        args.json || args.scan_fix || args.scan_diff || args.formats.contains_key(&Format::Sarif);
    let mut scanned = scan::scan_with(&args.scan, fixes)?;
    check_interrupt()?;
    if args.scan_diff {
        let (text, changes) = diff(&scanned)?;
        outputs.write(Kind::Report, text.as_bytes())?;
        write_sarif(&mut outputs, &scanned, args)?;
        outputs.commit()?;
        return Ok(u8::from(changes || !scanned.findings.is_empty()));
    }
    let mut fixed = None;
    if args.scan_fix {
        fixed = Some(fix_in_place(&scanned)?);
        check_interrupt()?;
        scanned = scan::scan_with(&args.scan, true)?;
    }
    let output = if args.json {
        let mut doc = report::scan::scan_doc(&scanned);
        if let Some(f) = &fixed {
            doc["fixed"] =
                crate::obj! {"files" => f.files, "edits" => f.edits, "writes" => f.writes};
        }
        report::common::pretty(&doc)
    } else {
        let color = plan::use_color(args.color);
        let mut text = String::new();
        if let Some(f) = &fixed {
            text.push_str(&f.line());
        }
        text.push_str(&report::scan::render_text(&scanned, color, fixed.is_some()));
        text
    };
    outputs.write(Kind::Report, output.as_bytes())?;
    write_sarif(&mut outputs, &scanned, args)?;
    outputs.commit()?;
    Ok(u8::from(!scanned.findings.is_empty()))
}

fn write_sarif(outputs: &mut Outputs, r: &ScanReport, args: &Settings) -> Result<(), Error> {
    if !args.formats.contains_key(&Format::Sarif) {
        return Ok(());
    }
    let suite = crate::verdict::suite::Suite::of_scan(r);
    let doc = report::sarif::render(&[suite], "mcp-stdio-guard scan");
    outputs.write(
        Kind::Format(Format::Sarif),
        report::common::pretty(&doc).as_bytes(),
    )
}

/// What `--fix` changed.
struct Fixed {
    files: usize,
    edits: usize,
    writes: usize,
}

impl Fixed {
    fn line(&self) -> String {
        let s =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "scan --fix: {} moved to stderr in {} ({})\n",
            s(self.writes, "write", "writes"),
            s(self.files, "file", "files"),
            s(self.edits, "edit", "edits")
        )
    }
}

/// Each file with findings, in walk order, with its findings.
fn by_file(r: &ScanReport) -> Vec<&[Finding]> {
    r.findings
        .chunk_by(|a, b| a.path == b.path && a.root == b.root)
        .collect()
}

/// A file's bytes now, and the fixes of its findings planned on them (the
/// file is read again: the edits must fit what will be written over).
fn planned(first: &Finding) -> Result<(Vec<u8>, Vec<Finding>), Error> {
    let path = Path::new(&first.path);
    let src =
        std::fs::read(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let mut toks = Vec::new();
    let found = scan::scan_source(&src, first.language, &first.file, &mut toks).unwrap_or_default();
    Ok((src, found))
}

fn edits_of(found: &[Finding]) -> Vec<fix::Edit> {
    found
        .iter()
        .flat_map(|f| match &f.fix {
            Some(Fix::Edits(e)) => e.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// `--fix`: every file's safe edits written over it.
fn fix_in_place(r: &ScanReport) -> Result<Fixed, Error> {
    let mut done = Fixed {
        files: 0,
        edits: 0,
        writes: 0,
    };
    for group in by_file(r) {
        check_interrupt()?;
        let (src, found) = planned(&group[0])?;
        let edits = edits_of(&found);
        if edits.is_empty() {
            continue;
        }
        let new = fix::apply(&src, &edits);
        if new == src {
            continue;
        }
        crate::commands::install::write_over(Path::new(&group[0].path), &src, &new)?;
        done.files += 1;
        done.edits += fix::distinct(&edits);
        done.writes += found
            .iter()
            .filter(|f| matches!(f.fix, Some(Fix::Edits(_))))
            .count();
    }
    Ok(done)
}

/// `--diff`: the writes left (with why), then one unified diff per file
/// with edits; whether any file would change.
fn diff(r: &ScanReport) -> Result<(String, bool), Error> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut left = String::new();
    let mut diffs = Vec::new();
    for group in by_file(r) {
        check_interrupt()?;
        let (src, found) = planned(&group[0])?;
        let name = relative(&cwd, Path::new(&group[0].path));
        for f in &found {
            if let Some(Fix::Left(why)) = f.fix {
                left.push_str(&format!("left: {name}:{}: {why}\n", f.line));
            }
        }
        let new = fix::apply(&src, &edits_of(&found));
        if new != src {
            diffs.extend(report::diff::unified(
                &format!("a/{name}"),
                &format!("b/{name}"),
                &src,
                &new,
            ));
        }
    }
    let changes = !diffs.is_empty();
    left.push_str(&String::from_utf8_lossy(&diffs));
    Ok((left, changes))
}

/// `path` relative to `cwd` (`..` where it is outside), with `/`.
fn relative(cwd: &Path, path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let (mut a, mut b) = (cwd.components().peekable(), abs.components().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        if x != y {
            break;
        }
        a.next();
        b.next();
    }
    let mut out = PathBuf::new();
    for _ in a {
        out.push("..");
    }
    out.extend(b);
    out.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn paths_are_shown_from_the_working_directory() {
        let cwd = Path::new("/w/repo");
        assert_eq!(relative(cwd, Path::new("/w/repo/src/a.py")), "src/a.py");
        assert_eq!(relative(cwd, Path::new("/w/other/a.py")), "../other/a.py");
    }
}
