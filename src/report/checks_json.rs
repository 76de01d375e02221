//! `--checks-json FILE`: the official MCP conformance suite's per-check
//! records (`id`, `name`, `description`, `status` SUCCESS / FAILURE /
//! WARNING / SKIPPED / INFO, `timestamp`, `specReferences`, `details`,
//! `errorMessage`), as the verdict decided them (`verdict::official`).

use crate::obj;
use serde_json::{Value, json};

use crate::verdict::official::Record;

fn record(r: &Record, time: &str) -> Value {
    let mut v = obj! {
        "id" => r.id,
        "name" => r.name,
        "description" => r.description,
        "status" => r.status.official(),
        "timestamp" => time,
        "specReferences" => r.spec.iter().map(|(id, url)| json!({"id": id, "url": url})).collect::<Vec<_>>(),
        "details" => obj! {
            "issueCodes" => r.issues.iter().map(|i| i.code.as_str()).collect::<Vec<_>>(),
            "issues" => r.issues.iter().map(|i| i.message.clone()).collect::<Vec<_>>(),
        },
    };
    if let Some(reason) = r.skip_reason {
        v["details"]["reason"] = reason.into();
    }
    if let Some(e) = r.error_message() {
        v["errorMessage"] = e.into();
    }
    v
}

/// The records as one JSON array; `time` is the run's RFC 3339 timestamp.
pub fn render(records: &[Record], time: &str) -> Value {
    Value::Array(records.iter().map(|r| record(r, time)).collect())
}
