//! `--junit FILE`: the report as JUnit XML, the shape CI systems read (the
//! common `junit.xsd`: `testsuites` > `testsuite` > `testcase`, with
//! `failure` or `skipped`). One testsuite per run, one testcase per check:
//! a failed check carries its error issues in `failure`, a skipped one
//! `<skipped message=reason>`, and warnings go to `system-out`.

use std::fmt::Write as _;

use crate::checks::Issue;
use crate::escape;
use crate::report::{Check, Report, Status};

/// Text fit for an XML attribute or element: control characters escaped
/// as the text report does (XML 1.0 cannot carry most of them), then the
/// five XML specials.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape::line(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

fn issue_text(issue: &Issue) -> String {
    format!(
        "[{}] {}: {}",
        issue.severity.as_str(),
        issue.code,
        issue.message
    )
}

/// The JUnit document of a report.
pub fn render(r: &Report) -> String {
    let command = r.plan.shown_argv.join(" ");
    let run = r.first();
    let checks = r.checks.named();
    let failures = checks
        .iter()
        .filter(|(_, _, c)| c.status == Status::Fail)
        .count();
    let skipped = checks
        .iter()
        .filter(|(_, _, c)| c.status == Status::Skipped)
        .count();
    let secs = run.duration_ms as f64 / 1000.0;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"mcp-stdio-guard\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{secs:.3}\">",
        checks.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{secs:.3}\">",
        xml(&command),
        checks.len()
    );
    for (name, group, check) in checks {
        let issues: Vec<&Issue> = r.issues.iter().filter(|i| i.in_group(group)).collect();
        testcase(&mut out, r.plan.settings.mode.name(), name, check, &issues);
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// One check as a testcase: `failure` with its errors, `skipped` with its
/// reason, warnings in `system-out`.
fn testcase(out: &mut String, mode: &str, name: &str, check: &Check, issues: &[&Issue]) {
    let _ = write!(
        out,
        "    <testcase classname=\"mcp-stdio-guard.{}\" name=\"{name}\" time=\"0\"",
        mode
    );
    let errors: Vec<String> = issues
        .iter()
        .filter(|i| i.is_error())
        .map(|i| issue_text(i))
        .collect();
    let warnings: Vec<String> = issues
        .iter()
        .filter(|i| !i.is_error())
        .map(|i| issue_text(i))
        .collect();
    if check.status == Status::Pass && warnings.is_empty() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    match check.status {
        Status::Fail => {
            let first = errors
                .first()
                .cloned()
                .unwrap_or_else(|| format!("{name} failed"));
            let _ = writeln!(
                out,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                xml(&first),
                check.codes.first().map_or("", |c| c.as_str()),
                xml(&errors.join("\n"))
            );
        }
        Status::Skipped => {
            let _ = writeln!(
                out,
                "      <skipped message=\"{}\"/>",
                xml(check.reason.unwrap_or("not applicable"))
            );
        }
        Status::Pass | Status::Warning => {}
    }
    if !warnings.is_empty() {
        let _ = writeln!(
            out,
            "      <system-out>{}</system-out>",
            xml(&warnings.join("\n"))
        );
    }
    out.push_str("    </testcase>\n");
}

#[cfg(test)]
mod tests {
    use super::xml;

    #[test]
    fn xml_text_escapes_the_specials_and_control_characters() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert!(!xml("bell\x07 esc\x1b").contains('\x07'));
        assert!(!xml("esc\x1b[31m").contains('\x1b'));
    }
}
