//! `--annotations github`: GitHub workflow commands (`::error` and
//! `::warning`, with `file`, `line` and `col` for static findings), and a
//! Markdown summary for `GITHUB_STEP_SUMMARY`. Written to stderr, so they
//! never mix with a JSON report on stdout (the runner reads both). Every
//! server string is escaped for the runner (no control byte, no raw
//! newline that could start a command of its own) and for Markdown (no
//! tag, link, image or table cell of its own).

use std::fmt::Write as _;

use crate::checks::Issue;
use crate::escape::{annotation_data, annotation_property, markdown};
use crate::verdict::Report;

/// One workflow command for an issue.
pub fn command(issue: &Issue) -> String {
    let kind = if issue.is_error() { "error" } else { "warning" };
    let mut props = vec![format!(
        "title={}",
        annotation_property(&format!("mcp-stdio-guard {}", issue.code))
    )];
    if let Some(file) = issue.detail("file").and_then(|f| f.as_str()) {
        props.push(format!("file={}", annotation_property(file)));
        if let Some(line) = issue.detail("line") {
            props.push(format!("line={line}"));
        }
        if let Some(col) = issue.detail("column") {
            props.push(format!("col={col}"));
        }
    }
    format!(
        "::{kind} {}::{}",
        props.join(","),
        annotation_data(&issue.message)
    )
}

/// Every issue as a workflow command, one per line.
pub fn commands(r: &Report) -> String {
    r.issues.iter().map(|i| command(i) + "\n").collect()
}

fn cell(text: &str) -> String {
    markdown(text)
}

/// The Markdown job summary of a report.
pub fn summary(r: &Report, time: &str) -> String {
    let verdict = if r.ok() { "PASS" } else { "FAIL" };
    let mut out = format!(
        "### mcp-stdio-guard: {verdict}, score {}/100 ({})\n\n{}\n\n",
        r.score.value,
        r.score.grade,
        cell(&r.subject.command.join(" "))
    );
    let run = r.first();
    let era = run.era.as_ref().map_or("?", |e| e.speaks.as_str());
    let _ = writeln!(
        out,
        "protocol {}, era {era}, {}, {}, {} ms\n",
        cell(run.negotiated()),
        crate::plural::count(r.summary.errors, "error"),
        crate::plural::count(r.summary.warnings, "warning"),
        run.duration_ms
    );
    let stamp = format!(
        "Checked {time} by mcp-stdio-guard {}.\n",
        env!("CARGO_PKG_VERSION")
    );
    if r.issues.is_empty() {
        out.push_str("No issues.\n\n");
        out.push_str(&stamp);
        return out;
    }
    out.push_str("| Severity | Code | Message |\n| --- | --- | --- |\n");
    for i in &r.issues {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} |",
            i.severity.as_str(),
            i.code,
            cell(&i.message)
        );
    }
    out.push_str("\n**How to fix**\n\n");
    for (code, fix) in crate::report::common::fixes(&r.issues) {
        let _ = writeln!(out, "- `{code}`: {}", cell(fix));
    }
    out.push('\n');
    out.push_str(&stamp);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Code;

    #[test]
    fn messages_and_properties_are_escaped_as_the_runner_reads_them() {
        assert_eq!(annotation_data("50% done\r\nnext"), "50%25 done\\r\\nnext");
        assert_eq!(annotation_property("a:b,c%"), "a%3Ab%2Cc%25");
        let issue = Issue::new(Code::StaticStdoutWrite, "src/a.js:3 console.log\nwrites")
            .with("file", "src/a,b:c.js")
            .with("line", 3)
            .with("column", 5);
        assert_eq!(
            command(&issue),
            "::warning title=mcp-stdio-guard static-stdout-write,file=src/a%2Cb%3Ac.js,line=3,col=5::src/a.js:3 console.log\\nwrites"
        );
    }
}
