//! `--baseline FILE`: the findings a team has accepted, by code and
//! subject, in the JSON that `--write-baseline` writes:
//!
//! ```json
//! {"mcpStdioGuardBaseline": 1,
//!  "accepted": [{"code": "tool-description-missing", "subject": "tool:echo"}]}
//! ```
//!
//! An entry's other members (`severity`, `message`) are notes for a person
//! and are not compared. Read here from the file's text. Pure.

use serde_json::Value;

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accept {
    pub code: String,
    pub subject: String,
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
        match (field("code"), field("subject")) {
            (Some(code), Some(subject)) => entries.push(Accept { code, subject }),
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
            {"code": "tool-description-missing", "subject": "tool:echo", "message": "note"}]}"#;
        assert_eq!(
            parse(ok).expect("parses").entries,
            [Accept {
                code: "tool-description-missing".into(),
                subject: "tool:echo".into()
            }]
        );
        assert!(
            parse("[]")
                .expect_err("no format")
                .contains("mcpStdioGuardBaseline")
        );
        let bad = r#"{"mcpStdioGuardBaseline": 1, "accepted": [{"code": "x"}]}"#;
        assert_eq!(
            parse(bad).expect_err("no subject"),
            "accepted[0] needs a string code and subject"
        );
        assert!(parse("{").expect_err("not json").starts_with("not JSON"));
    }
}
