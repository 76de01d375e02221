//! `--write-baseline`: this run's findings as a baseline that `--baseline`
//! reads: one entry per finding (code, subject, severity and evidence; the
//! findings a baseline already accepted included, so a rewrite keeps them
//! and drops stale entries), with the message as a note for a person.

use crate::obj;
use serde_json::Value;

use crate::args::baseline::FORMAT;
use crate::verdict::Report;
use crate::verdict::accepted::{evidence_of, subject_of};

pub fn render(r: &Report) -> String {
    let accepted = r.accepted.iter().flat_map(|a| &a.accepted);
    let mut seen = std::collections::HashSet::new();
    let mut entries: Vec<Value> = Vec::new();
    for issue in r.issues.iter().chain(accepted) {
        let evidence = evidence_of(issue);
        let key = (
            issue.code.as_str(),
            subject_of(issue),
            issue.severity.as_str(),
            crate::args::baseline::fingerprint(&evidence),
        );
        if !seen.insert(key) {
            continue;
        }
        let mut entry = obj! {
            "code" => issue.code.as_str(),
            "subject" => subject_of(issue),
            "severity" => issue.severity.as_str(),
        };
        // Without a matched text of its own, the message is the evidence.
        if issue.detail("evidence").is_some() {
            entry["evidence"] = evidence.into();
        }
        entry["message"] = issue.message.clone().into();
        entries.push(entry);
    }
    let mut doc = serde_json::Map::new();
    doc.insert(FORMAT.into(), 1.into());
    doc.insert(
        "command".into(),
        crate::object::ToValue::to_value(&r.subject.command),
    );
    doc.insert("accepted".into(), Value::Array(entries));
    crate::report::common::pretty(&Value::Object(doc))
}
