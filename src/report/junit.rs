//! `--junit FILE`: JUnit XML, the shape CI systems read (the common
//! `junit.xsd`: `testsuites` > `testsuite` > `testcase`, with `failure` or
//! `skipped`). One testsuite per server (the check's, or each entry of a
//! batch), one testcase per check: a failed check carries its error issues
//! in `failure`, a skipped one `<skipped message=reason>`, and warnings go
//! to `system-out`, one issue a line. Any text stays well-formed XML, and
//! the document validates against Jenkins' `junit-10.xsd` (which gives
//! `skipped` to each `testsuite`, not to `testsuites`).

use std::fmt::Write as _;

use crate::escape::xml;
use crate::verdict::Status;
use crate::verdict::suite::{Suite, SuiteCheck, SuiteIssue};

fn issue_text(issue: &SuiteIssue) -> String {
    format!(
        "[{}] {}: {}",
        issue.severity.as_str(),
        issue.code,
        issue.message
    )
}

/// Issues as element text: each escaped on its own (a control inside one
/// stays visible as an escape), joined by real newlines, so a CI page shows
/// one issue a line.
fn lines(items: &[String]) -> String {
    items.iter().map(|i| xml(i)).collect::<Vec<_>>().join("\n")
}

/// The JUnit document of one or more suites; skipped checks are testcases
/// only when `with_skipped` (`--junit-skipped`): a CI page otherwise lists
/// half a dozen "skipped" tests a server.
pub fn render(name: &str, suites: &[Suite], with_skipped: bool) -> String {
    let shown = |c: &&SuiteCheck| with_skipped || c.status != Status::Skipped;
    let count = |s: &Suite, st: Status| {
        s.checks
            .iter()
            .filter(shown)
            .filter(|c| c.status == st)
            .count()
    };
    let tests: usize = suites
        .iter()
        .map(|s| s.checks.iter().filter(shown).count())
        .sum();
    let failures: usize = suites.iter().map(|s| count(s, Status::Fail)).sum();
    let secs = crate::clock::thousandths(suites.iter().map(|s| s.duration_ms).sum());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" time=\"{secs}\">",
        xml(name)
    );
    for suite in suites {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\">",
            xml(&suite.name),
            suite.checks.iter().filter(shown).count(),
            count(suite, Status::Fail),
            count(suite, Status::Skipped),
            crate::clock::thousandths(suite.duration_ms)
        );
        for check in suite.checks.iter().filter(shown) {
            testcase(&mut out, suite, check);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// One check as a testcase: `failure` with its errors, `skipped` with its
/// reason, warnings in `system-out`.
fn testcase(out: &mut String, suite: &Suite, check: &SuiteCheck) {
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"",
        xml(&suite.classname),
        xml(&check.name)
    );
    let (errors, warnings): (Vec<&SuiteIssue>, Vec<&SuiteIssue>) =
        suite.issues_of(check).partition(|i| i.is_error());
    let errors: Vec<String> = errors.into_iter().map(issue_text).collect();
    let warnings: Vec<String> = warnings.into_iter().map(issue_text).collect();
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
                .unwrap_or_else(|| format!("{} failed", check.name));
            let _ = writeln!(
                out,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                xml(&first),
                xml(check.codes.first().map_or("", String::as_str)),
                lines(&errors)
            );
        }
        Status::Skipped => {
            let _ = writeln!(
                out,
                "      <skipped message=\"{}\"/>",
                xml(check.reason.as_deref().unwrap_or("not applicable"))
            );
        }
        Status::Pass | Status::Warning => {}
    }
    if !warnings.is_empty() {
        let _ = writeln!(out, "      <system-out>{}</system-out>", lines(&warnings));
    }
    out.push_str("    </testcase>\n");
}

#[cfg(test)]
mod tests {
    use crate::escape::xml;

    #[test]
    fn xml_text_escapes_the_specials_and_control_characters() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert!(!xml("bell\x07 esc\x1b").contains('\x07'));
        assert!(!xml("esc\x1b[31m").contains('\x1b'));
        assert_eq!(xml("]]>"), "]]&gt;");
        assert_eq!(xml("a\u{ffff}b"), "a\\u{ffff}b");
    }
}
