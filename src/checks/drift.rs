//! Repeat drift: what changed between fresh runs of the same server. Each
//! initialized run is compared with the first initialized one (the
//! baseline): negotiated protocol, advertised capability keys, tool names
//! and count (order ignored), and resource and prompt list counts. Changes
//! are warnings: a cold start that differs from a warm one is worth
//! knowing, not a broken server.

use serde_json::{Value, json};

use crate::checks::Issue;
use crate::mcp;
use crate::transcript::Transcript;

/// What one run showed, for comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub run: usize,
    pub initialized: bool,
    pub protocol: String,
    pub capabilities: Vec<String>,
    /// Sorted unique tool names, and the count as listed; `None` when no
    /// tools/list result was seen.
    pub tools: Option<(Vec<String>, usize)>,
    pub resources: Option<usize>,
    pub prompts: Option<usize>,
}

pub fn facts(run: usize, tr: &Transcript) -> Facts {
    let mut capabilities: Vec<String> = tr
        .init_result()
        .map(|r| mcp::advertised(r).into_iter().map(String::from).collect())
        .unwrap_or_default();
    capabilities.sort();
    let listed = tr.listed("tools/list");
    let tools = (!tr
        .list_chain("tools/list")
        .iter()
        .all(|p| p.result.is_none()))
    .then(|| {
        let mut names: Vec<String> = listed
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(String::from))
            .collect();
        let count = listed.len();
        names.sort();
        names.dedup();
        (names, count)
    });
    Facts {
        run,
        initialized: tr.initialized(),
        protocol: tr.negotiated_protocol().to_string(),
        capabilities,
        tools,
        resources: tr.list_item_count("resources/list"),
        prompts: tr.list_item_count("prompts/list"),
    }
}

fn diff(base: &[String], now: &[String]) -> (Vec<String>, Vec<String>) {
    (
        now.iter().filter(|n| !base.contains(n)).cloned().collect(),
        base.iter().filter(|b| !now.contains(b)).cloned().collect(),
    )
}

fn section(
    code: &str,
    changed: bool,
    baseline: Value,
    values: Vec<Value>,
    changed_runs: Vec<Value>,
) -> Value {
    json!({
        "status": if changed { "warning" } else { "pass" },
        "issueCodes": if changed { vec![code] } else { vec![] },
        "baseline": baseline,
        "values": values,
        "changedRuns": changed_runs,
    })
}

/// The drift issues and the report's `drift` block.
pub fn compare(runs: &[Facts]) -> (Vec<Issue>, Value) {
    let initialized: Vec<&Facts> = runs.iter().filter(|f| f.initialized).collect();
    let Some(base) = initialized.first() else {
        return (
            Vec::new(),
            json!({"checked": false, "status": "skipped", "issueCodes": [], "baselineRun": null,
                "comparedRuns": [], "reason": "no run completed initialize"}),
        );
    };
    let others = &initialized[1..];
    let mut issues = Vec::new();
    let compared: Vec<usize> = initialized.iter().map(|f| f.run).collect();

    let changed: Vec<usize> = others
        .iter()
        .filter(|f| f.protocol != base.protocol)
        .map(|f| f.run)
        .collect();
    let protocol = section(
        "repeat-protocol-drift",
        !changed.is_empty(),
        json!(base.protocol),
        initialized
            .iter()
            .map(|f| json!({"run": f.run, "value": f.protocol}))
            .collect(),
        changed.iter().map(|r| json!(r)).collect(),
    );
    if !changed.is_empty() {
        issues.push(
            Issue::new(
                "repeat-protocol-drift",
                "negotiated protocol changed across repeat runs",
            )
            .with("drift", protocol.clone()),
        );
    }

    let cap_changes: Vec<Value> = others
        .iter()
        .filter(|f| f.capabilities != base.capabilities)
        .map(|f| {
            let (added, removed) = diff(&base.capabilities, &f.capabilities);
            json!({"run": f.run, "added": added, "removed": removed})
        })
        .collect();
    let capabilities = section(
        "repeat-capability-drift",
        !cap_changes.is_empty(),
        json!(base.capabilities),
        initialized
            .iter()
            .map(|f| json!({"run": f.run, "values": f.capabilities}))
            .collect(),
        cap_changes.clone(),
    );
    if !cap_changes.is_empty() {
        issues.push(
            Issue::new(
                "repeat-capability-drift",
                "advertised capability keys changed across repeat runs",
            )
            .with("drift", capabilities.clone()),
        );
    }

    let empty = (Vec::new(), 0);
    let base_tools = base.tools.as_ref().unwrap_or(&empty);
    let tool_changes: Vec<Value> = others
        .iter()
        .filter(|f| f.tools.as_ref().unwrap_or(&empty) != base_tools)
        .map(|f| {
            let now = f.tools.as_ref().unwrap_or(&empty);
            let (added, removed) = diff(&base_tools.0, &now.0);
            json!({"run": f.run, "added": added, "removed": removed, "count": now.1})
        })
        .collect();
    let mut tools = section(
        "repeat-tool-drift",
        !tool_changes.is_empty(),
        json!(base_tools.0),
        initialized
            .iter()
            .map(|f| {
                let t = f.tools.as_ref().unwrap_or(&empty);
                json!({"run": f.run, "count": t.1, "values": t.0})
            })
            .collect(),
        tool_changes.clone(),
    );
    tools["baselineCount"] = json!(base_tools.1);
    if !tool_changes.is_empty() {
        issues.push(
            Issue::new(
                "repeat-tool-drift",
                "tools/list tool names or counts changed across repeat runs",
            )
            .with("drift", tools.clone()),
        );
    }

    let mut lists = serde_json::Map::new();
    for (key, get) in [
        (
            "resources",
            (|f: &Facts| f.resources) as fn(&Facts) -> Option<usize>,
        ),
        ("prompts", |f: &Facts| f.prompts),
    ] {
        let Some(b) = get(base) else {
            lists.insert(
                key.into(),
                json!({"status": "skipped", "issueCodes": [], "baseline": null,
                "values": [], "changedRuns": [], "reason": "run 1 did not list it"}),
            );
            continue;
        };
        let changed: Vec<usize> = others
            .iter()
            .filter(|f| get(f) != Some(b))
            .map(|f| f.run)
            .collect();
        let s = section(
            "repeat-list-shape-drift",
            !changed.is_empty(),
            json!(b),
            initialized
                .iter()
                .map(|f| json!({"run": f.run, "value": get(f)}))
                .collect(),
            changed.iter().map(|r| json!(r)).collect(),
        );
        if !changed.is_empty() {
            issues.push(
                Issue::new(
                    "repeat-list-shape-drift",
                    format!("{key}/list item counts changed across repeat runs"),
                )
                .with("drift", s.clone()),
            );
        }
        lists.insert(key.into(), s);
    }
    let mut codes: Vec<&str> = issues.iter().map(|i| i.code).collect();
    codes.dedup();
    let block = json!({
        "checked": true,
        "status": if issues.is_empty() { "pass" } else { "warning" },
        "issueCodes": codes,
        "baselineRun": base.run,
        "comparedRuns": compared,
        "negotiatedProtocol": protocol,
        "capabilities": capabilities,
        "tools": tools,
        "lists": lists,
    });
    (issues, block)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(run: usize, tools: &[&str], prompts: Option<usize>) -> Facts {
        Facts {
            run,
            initialized: true,
            protocol: "2025-11-25".into(),
            capabilities: vec!["tools".into()],
            tools: Some((tools.iter().map(|s| s.to_string()).collect(), tools.len())),
            resources: None,
            prompts,
        }
    }

    #[test]
    fn order_only_changes_do_not_warn_and_added_tools_do() {
        let (issues, block) = compare(&[f(1, &["a", "b"], Some(1)), f(2, &["a", "b"], Some(1))]);
        assert!(issues.is_empty());
        assert_eq!(block["status"], "pass");
        let (issues, block) = compare(&[f(1, &["a"], Some(1)), f(2, &["a", "c"], Some(2))]);
        let codes: Vec<_> = issues
            .iter()
            .map(|i| (i.code, i.severity.as_str()))
            .collect();
        assert_eq!(
            codes,
            [
                ("repeat-tool-drift", "warning"),
                ("repeat-list-shape-drift", "warning")
            ]
        );
        assert_eq!(
            block["tools"]["changedRuns"],
            json!([{"run": 2, "added": ["c"], "removed": [], "count": 2}])
        );
        assert_eq!(block["lists"]["resources"]["status"], "skipped");
    }
}
