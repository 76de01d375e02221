//! `--against`: this run compared with the newest evidence record for the
//! same command. Server version, negotiated protocol, and tool names added
//! or removed are reported as warnings, like the repeat drift checks.

use serde_json::Value;

use crate::checks::Issue;

fn names(record: &Value) -> Option<Vec<String>> {
    record.get("tools")?.as_array().map(|tools| {
        tools
            .iter()
            .map(|t| t.as_str().map_or_else(|| t.to_string(), String::from))
            .collect()
    })
}

/// The drift from `baseline` (an earlier record) to `current` (this run's).
pub fn drift(baseline: &Value, current: &Value) -> Vec<Issue> {
    let mut out = Vec::new();
    let when = baseline.get("time").and_then(Value::as_str).unwrap_or("?");
    let version = |r: &Value| r.pointer("/server/version").cloned().unwrap_or(Value::Null);
    let (was, now) = (version(baseline), version(current));
    if was != now && !now.is_null() {
        out.push(
            Issue::new(
                "evidence-drift-server-version",
                format!("server version is {now}, was {was} in the record of {when}"),
            )
            .with("baseline", was)
            .with("current", now),
        );
    }
    let protocol = |r: &Value| r.get("negotiatedProtocol").cloned().unwrap_or(Value::Null);
    let (was, now) = (protocol(baseline), protocol(current));
    if was != now && !now.is_null() {
        out.push(
            Issue::new(
                "evidence-drift-protocol",
                format!("negotiated protocol is {now}, was {was} in the record of {when}"),
            )
            .with("baseline", was)
            .with("current", now),
        );
    }
    if let (Some(was), Some(now)) = (names(baseline), names(current)) {
        let added: Vec<&String> = now.iter().filter(|n| !was.contains(n)).collect();
        let removed: Vec<&String> = was.iter().filter(|n| !now.contains(n)).collect();
        if !added.is_empty() || !removed.is_empty() {
            let list = |v: &[&String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                }
            };
            out.push(
                Issue::new(
                    "evidence-drift-tools",
                    format!(
                        "tools changed since the record of {when}: added {}; removed {}",
                        list(&added),
                        list(&removed)
                    ),
                )
                .with(
                    "added",
                    added.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                )
                .with(
                    "removed",
                    removed.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                ),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn version_protocol_and_tool_changes_are_warnings() {
        let old = json!({"time": "t", "server": {"version": "1.0"}, "negotiatedProtocol": "2025-06-18", "tools": ["a", "b"]});
        let new = json!({"server": {"version": "1.1"}, "negotiatedProtocol": "2025-11-25", "tools": ["b", "c"]});
        let codes: Vec<_> = drift(&old, &new)
            .iter()
            .map(|i| (i.code, i.severity.as_str()))
            .collect();
        assert_eq!(
            codes,
            [
                ("evidence-drift-server-version", "warning"),
                ("evidence-drift-protocol", "warning"),
                ("evidence-drift-tools", "warning"),
            ]
        );
        assert!(drift(&old, &old).is_empty());
    }
}
