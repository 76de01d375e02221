//! `--baseline FILE`: the findings a team has accepted, in the JSON that
//! `--write-baseline` writes:
//!
//! ```json
//! {"mcpStdioGuardBaseline": 1,
//!  "accepted": [{"code": "tool-description-missing", "subject": "tool:echo",
//!                "severity": "warning", "evidence": "tool \"echo\" has no description"}]}
//! ```
//!
//! An entry accepts one finding: its code, its subject, its severity and
//! its evidence (the matched text, or the message with its numbers left
//! out; a file of an earlier version gives its `message`). An entry that
//! would accept a whole class (no severity, or no evidence) is refused.
//! Read here from the file's text. Pure.

use serde_json::Value;

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accept {
    pub code: String,
    pub subject: String,
    pub severity: String,
    /// What the finding showed (see `fingerprint`).
    pub evidence: String,
}

/// What a finding showed, as a baseline compares it: the text with every
/// run of digits read as `#` (a line number, a time, a pid or a count
/// changes between runs; what the server wrote does not).
pub fn fingerprint(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// The accepted findings, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AcceptList {
    pub entries: Vec<Accept>,
}

/// The baseline format's version, as its first member names it.
pub const FORMAT: &str = "mcpStdioGuardBaseline";

/// Reads a baseline's text; the error says what is wrong.
pub fn parse(text: &str) -> Result<AcceptList, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if doc.get(FORMAT).and_then(Value::as_u64) != Some(1) {
        return Err(format!(
            "no \"{FORMAT}\": 1 member (not a baseline of this guard)"
        ));
    }
    let Some(items) = doc.get("accepted").and_then(Value::as_array) else {
        return Err("no \"accepted\" array".into());
    };
    let mut entries = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let field = |k: &str| item.get(k).and_then(Value::as_str).map(String::from);
        let evidence = field("evidence").or_else(|| field("message"));
        match (field("code"), field("subject"), field("severity"), evidence) {
            (Some(code), Some(subject), Some(severity), Some(evidence)) => entries.push(Accept {
                code,
                subject,
                severity,
                evidence: fingerprint(&evidence),
            }),
            (Some(_), Some(_), _, _) => {
                return Err(format!(
                    "accepted[{i}] names no severity or evidence: it would accept every finding of its code, whatever it shows"
                ));
            }
            _ => return Err(format!("accepted[{i}] needs a string code and subject")),
        }
    }
    Ok(AcceptList { entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_names_its_format_and_every_entry_a_code_and_subject() {
        let ok = r#"{"mcpStdioGuardBaseline": 1, "accepted": [
            {"code": "tool-description-missing", "subject": "tool:echo", "severity": "warning",
             "message": "line 12 took 30 ms"}]}"#;
        assert_eq!(
            parse(ok).expect("parses").entries,
            [Accept {
                code: "tool-description-missing".into(),
                subject: "tool:echo".into(),
                severity: "warning".into(),
                evidence: "line # took # ms".into(),
            }]
        );
        let class = r#"{"mcpStdioGuardBaseline": 1, "accepted": [
            {"code": "stdout-non-json", "subject": "server"}]}"#;
        assert!(
            parse(class)
                .expect_err("a class")
                .contains("would accept every finding")
        );
        assert!(
            parse("[]")
                .expect_err("no format")
                .contains("mcpStdioGuardBaseline")
        );
        let bad =
            r#"{"mcpStdioGuardBaseline": 1, "accepted": [{"code": "x", "severity": "error"}]}"#;
        assert_eq!(
            parse(bad).expect_err("no subject"),
            "accepted[0] needs a string code and subject"
        );
        assert!(parse("{").expect_err("not json").starts_with("not JSON"));
    }
}
