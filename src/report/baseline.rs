//! `--write-baseline`: this run's findings as a baseline that `--baseline`
//! reads: one entry per code and subject (the findings a baseline already
//! accepted included, so a rewrite keeps them and drops stale entries),
//! with the severity and message as notes for a person.

use crate::obj;
use serde_json::Value;

use crate::args::baseline::FORMAT;
use crate::verdict::Report;
use crate::verdict::accepted::subject_of;

pub fn render(r: &Report) -> String {
    let accepted = r.accepted.iter().flat_map(|a| &a.accepted);
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut entries: Vec<Value> = Vec::new();
    for issue in r.issues.iter().chain(accepted) {
        let key = (issue.code.as_str().to_string(), subject_of(issue));
        if seen.contains(&key) {
            continue;
        }
        entries.push(obj! {
            "code" => key.0,
            "subject" => key.1,
            "severity" => issue.severity.as_str(),
            "message" => issue.message,
        });
        seen.push(key);
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
