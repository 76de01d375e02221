//! What a run showed about the server (`Facts`), and what changed between
//! runs. `--repeat` compares each initialized run with the first one:
//! negotiated protocol, advertised capability keys, tool names and count
//! (order ignored), resource and prompt list counts. `--against` compares
//! this run with the newest evidence record for the same command (whose
//! facts are read back from the record). Changes are warnings: a cold start
//! that differs from a warm one is worth knowing, not a broken server.

use crate::obj;
use serde_json::Value;
use std::sync::Arc;

use crate::checks::lint::rugpull::{self, Pinned};
use crate::checks::{Code, Issue};
use crate::mcp;
use crate::session::transcript::Transcript;

/// What one run (or an evidence record) says the server is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Facts {
    pub initialized: bool,
    /// `serverInfo.name` and `.version` as written (null when absent).
    pub server_name: Value,
    pub server_version: Value,
    /// The negotiated protocol, `""` when none.
    pub protocol: String,
    /// The advertised capability keys, sorted.
    pub capabilities: Vec<String>,
    /// The tool names exactly as listed, and whether a list answered
    /// (shared between runs that listed the same).
    pub tools: Option<Arc<Vec<Value>>>,
    pub resources: Option<usize>,
    pub prompts: Option<usize>,
    /// Each listed tool pinned (name, hash, definition), when a list
    /// answered (from a record: its `toolDefinitions`, when it has them);
    /// shared between runs that listed the same definitions.
    pub definitions: Option<Arc<Vec<Pinned>>>,
}

impl Facts {
    pub fn of(tr: &Transcript) -> Facts {
        let init = tr.opening_result();
        let info = tr.server_info();
        let field = |k: &str| info.and_then(|i| i.get(k)).cloned().unwrap_or(Value::Null);
        let mut capabilities: Vec<String> = init
            .map(|r| mcp::advertised(r).into_iter().map(String::from).collect())
            .unwrap_or_default();
        crate::order::sort(&mut capabilities);
        let answered = tr
            .list_chain("tools/list")
            .iter()
            .any(|p| p.result.is_some());
        let tools = answered.then(|| {
            Arc::new(
                tr.listed("tools/list")
                    .iter()
                    .map(|t| t.get("name").cloned().unwrap_or(Value::Null))
                    .collect(),
            )
        });
        let definitions = answered.then(|| {
            Arc::new(
                tr.listed("tools/list")
                    .into_iter()
                    .map(Pinned::of)
                    .collect(),
            )
        });
        Facts {
            definitions,
            initialized: tr.initialized(),
            server_name: field("name"),
            server_version: field("version"),
            protocol: tr.negotiated_protocol().to_string(),
            capabilities,
            tools,
            resources: tr.list_item_count("resources/list"),
            prompts: tr.list_item_count("prompts/list"),
        }
    }

    /// The facts an evidence record states.
    pub fn from_record(record: &Value) -> Facts {
        Facts {
            initialized: true,
            server_name: record
                .pointer("/server/name")
                .cloned()
                .unwrap_or(Value::Null),
            server_version: record
                .pointer("/server/version")
                .cloned()
                .unwrap_or(Value::Null),
            protocol: record
                .get("negotiatedProtocol")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            capabilities: Vec::new(),
            tools: record
                .get("tools")
                .and_then(Value::as_array)
                .cloned()
                .map(Arc::new),
            resources: None,
            prompts: None,
            definitions: record
                .get("toolDefinitions")
                .and_then(Value::as_array)
                .map(|list| Arc::new(list.iter().filter_map(Pinned::from_value).collect())),
        }
    }

    /// Tool names as text (a non-string name as its JSON), sorted and
    /// unique, with the count as listed.
    fn tool_set(&self) -> (Vec<String>, usize) {
        let Some(tools) = &self.tools else {
            return (Vec::new(), 0);
        };
        let mut names: Vec<String> = tools.iter().map(name_text).collect();
        crate::order::sort(&mut names);
        names.dedup();
        (names, tools.len())
    }
}

fn name_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

fn diff(base: &[String], now: &[String]) -> (Vec<String>, Vec<String>) {
    (
        now.iter().filter(|n| !base.contains(n)).cloned().collect(),
        base.iter().filter(|b| !now.contains(b)).cloned().collect(),
    )
}

/// Stands, in a run's `values`, for the baseline's values.
pub const SAME_AS_BASELINE: &str = "\u{1}same-as-baseline\u{1}";

/// One compared aspect across the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub code: Code,
    pub skipped: Option<&'static str>,
    pub baseline: Value,
    /// One value per compared run.
    pub values: Vec<Value>,
    /// The runs that differ from the baseline (with what changed).
    pub changed: Vec<Value>,
    pub baseline_count: Option<usize>,
}

impl Section {
    pub fn changed(&self) -> bool {
        !self.changed.is_empty()
    }
}

/// What changed across `--repeat` runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    /// `None` when no run completed initialize.
    pub baseline_run: Option<usize>,
    pub compared_runs: Vec<usize>,
    pub protocol: Option<Section>,
    pub capabilities: Option<Section>,
    pub tools: Option<Section>,
    pub resources: Option<Section>,
    pub prompts: Option<Section>,
    /// The tools whose definition changed in a later run.
    pub changed_definitions: Vec<String>,
}

impl Drift {
    pub fn sections(&self) -> impl Iterator<Item = &Section> {
        [
            &self.protocol,
            &self.capabilities,
            &self.tools,
            &self.resources,
            &self.prompts,
        ]
        .into_iter()
        .flatten()
    }

    pub fn changed(&self) -> bool {
        self.sections().any(Section::changed) || !self.changed_definitions.is_empty()
    }
}

fn section(code: Code, baseline: Value, values: Vec<Value>, changed: Vec<Value>) -> Section {
    Section {
        code,
        skipped: None,
        baseline,
        values,
        changed,
        baseline_count: None,
    }
}

/// One aspect compared across the initialized runs: `get` reads it from a
/// run, `show` writes it for one run, `change` says what differs in a run
/// that changed, `base` writes the baseline.
fn aspect<T: PartialEq>(
    code: Code,
    runs: &[&(usize, Facts)],
    get: impl Fn(&Facts) -> T,
    show: impl Fn(usize, &T) -> Value,
    change: impl Fn(usize, &T, &T) -> Value,
    base: impl Fn(&T) -> Value,
) -> Section {
    let first = get(&runs[0].1);
    let values = runs.iter().map(|(r, f)| show(*r, &get(f))).collect();
    let changed = runs[1..]
        .iter()
        .filter_map(|(r, f)| {
            let now = get(f);
            (now != first).then(|| change(*r, &first, &now))
        })
        .collect();
    section(code, base(&first), values, changed)
}

/// A list's item count across runs; skipped when the first run did not
/// list it.
fn list_count(runs: &[&(usize, Facts)], get: fn(&Facts) -> Option<usize>) -> Section {
    if get(&runs[0].1).is_none() {
        return Section {
            skipped: Some("run 1 did not list it"),
            ..section(Code::RepeatListShapeDrift, Value::Null, vec![], vec![])
        };
    }
    aspect(
        Code::RepeatListShapeDrift,
        runs,
        get,
        |r, v| obj! {"run" => r, "value" => v},
        |r, _, _| crate::object::ToValue::to_value(&r),
        |v| crate::object::ToValue::to_value(&v),
    )
}

/// Compares runs (1-based numbers with their facts) with the first
/// initialized one; returns the drift issues and the typed drift.
pub fn compare(runs: &[(usize, Facts)]) -> (Vec<Issue>, Drift) {
    let initialized: Vec<&(usize, Facts)> = runs.iter().filter(|(_, f)| f.initialized).collect();
    let Some(&&(base_run, _)) = initialized.first() else {
        let drift = Drift {
            baseline_run: None,
            compared_runs: Vec::new(),
            protocol: None,
            capabilities: None,
            tools: None,
            resources: None,
            prompts: None,
            changed_definitions: Vec::new(),
        };
        return (Vec::new(), drift);
    };
    let runs = &initialized;
    let protocol = aspect(
        Code::RepeatProtocolDrift,
        runs,
        |f| f.protocol.clone(),
        |r, p| obj! {"run" => r, "value" => p},
        |r, _, _| crate::object::ToValue::to_value(&r),
        |p| crate::object::ToValue::to_value(&p),
    );
    let capabilities = aspect(
        Code::RepeatCapabilityDrift,
        runs,
        |f| f.capabilities.clone(),
        |r, c| obj! {"run" => r, "values" => c},
        |r, was, now| {
            let (added, removed) = diff(was, now);
            obj! {"run" => r, "added" => added, "removed" => removed}
        },
        |c| crate::object::ToValue::to_value(&c),
    );
    let mut tools = aspect(
        Code::RepeatToolDrift,
        runs,
        Facts::tool_set,
        |r, t| obj! {"run" => r, "count" => t.1, "values" => t.0},
        |r, was, now| {
            let (added, removed) = diff(&was.0, &now.0);
            obj! {"run" => r, "added" => added, "removed" => removed, "count" => now.1}
        },
        |t| crate::object::ToValue::to_value(&t.0),
    );
    tools.baseline_count = Some(runs[0].1.tool_set().1);
    // A run that listed what the baseline listed holds a mark, not the
    // list again (the writer writes the baseline's list there): thirty
    // copies of a long list cost nothing.
    for (v, (_, f)) in tools.values.iter_mut().zip(runs.iter()) {
        if f.tool_set() == runs[0].1.tool_set() {
            v["values"] = SAME_AS_BASELINE.into();
        }
    }
    let definitions = definition_drift(runs);
    let drift = Drift {
        changed_definitions: definitions
            .iter()
            .filter_map(|i| {
                i.detail("toolName")
                    .and_then(Value::as_str)
                    .map(String::from)
            })
            .collect(),
        baseline_run: Some(base_run),
        compared_runs: runs.iter().map(|(r, _)| *r).collect(),
        protocol: Some(protocol),
        capabilities: Some(capabilities),
        tools: Some(tools),
        resources: Some(list_count(runs, |f| f.resources)),
        prompts: Some(list_count(runs, |f| f.prompts)),
    };
    let mut issues = drift_issues(&drift);
    issues.extend(definitions);
    (issues, drift)
}

/// `repeat-tool-definition-drift`: one warning per tool whose definition
/// changed in a later run, with the diff from its first change.
fn definition_drift(runs: &[&(usize, Facts)]) -> Vec<Issue> {
    let Some(base) = &runs[0].1.definitions else {
        return Vec::new();
    };
    let mut out: Vec<Issue> = Vec::new();
    for (run, facts) in &runs[1..] {
        for c in rugpull::changed(
            base,
            facts.definitions.as_deref().map_or(&[], Vec::as_slice),
        ) {
            if out
                .iter()
                .any(|i| i.detail("toolName").and_then(Value::as_str) == Some(&c.name))
            {
                continue;
            }
            let message = format!(
                "tool {} changed its definition in run {run} (a rug pull?): {}",
                crate::escape::quote(c.name.as_bytes()),
                c.changes.join("; ")
            );
            out.push(
                definition_issue(Code::RepeatToolDefinitionDrift, message, &c).with("run", *run),
            );
        }
    }
    out
}

fn definition_issue(code: Code, message: String, c: &rugpull::Changed) -> Issue {
    Issue::new(code, message)
        .with("toolName", c.name.clone())
        .with("changes", c.changes.clone())
        .with("baselineSha256", c.was.clone())
        .with("currentSha256", c.now.clone())
}

/// One warning per changed section, naming what changed and in which runs.
fn drift_issues(drift: &Drift) -> Vec<Issue> {
    let mut out = Vec::new();
    let runs = |s: &Section| {
        s.changed
            .iter()
            .map(|c| c.get("run").unwrap_or(c).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(s) = drift.protocol.as_ref().filter(|s| s.changed()) {
        out.push(issue(
            s,
            format!(
                "negotiated protocol changed across repeat runs (runs {})",
                runs(s)
            ),
        ));
    }
    if let Some(s) = drift.capabilities.as_ref().filter(|s| s.changed()) {
        out.push(issue(
            s,
            format!(
                "advertised capability keys changed across repeat runs: {}",
                changes(s)
            ),
        ));
    }
    if let Some(s) = drift.tools.as_ref().filter(|s| s.changed()) {
        out.push(issue(
            s,
            format!(
                "tools/list tool names or counts changed across repeat runs: {}",
                changes(s)
            ),
        ));
    }
    for (key, s) in [("resources", &drift.resources), ("prompts", &drift.prompts)] {
        if let Some(s) = s.as_ref().filter(|s| s.changed()) {
            out.push(issue(
                s,
                format!(
                    "{key}/list item counts changed across repeat runs (runs {})",
                    runs(s)
                ),
            ));
        }
    }
    out
}

/// `run 2: added x; removed y` for each changed run.
fn changes(s: &Section) -> String {
    let list = |v: Option<&Value>| {
        let names: Vec<String> = v
            .and_then(Value::as_array)
            .map(|a| a.iter().map(name_text).collect())
            .unwrap_or_default();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    s.changed
        .iter()
        .map(|c| {
            let count = c
                .get("count")
                .map_or(String::new(), |n| format!(", {n} in all"));
            format!(
                "run {}: added {}; removed {}{count}",
                c.get("run").unwrap_or(&Value::Null),
                list(c.get("added")),
                list(c.get("removed"))
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn issue(s: &Section, message: String) -> Issue {
    Issue::new(s.code, message).with("drift", section_json(s))
}

/// A section as the report's `drift` block shows it.
pub fn section_json(s: &Section) -> Value {
    let mut v = obj! {
        "status" => if s.skipped.is_some() { "skipped" } else if s.changed() { "warning" } else { "pass" },
        "issueCodes" => if s.changed() { vec![s.code.as_str()] } else { vec![] },
        "baseline" => s.baseline,
        "values" => s.values,
        "changedRuns" => s.changed,
    };
    if let Some(n) = s.baseline_count {
        v["baselineCount"] = crate::object::ToValue::to_value(&n);
    }
    if let Some(reason) = s.skipped {
        v["reason"] = crate::object::ToValue::to_value(&reason);
    }
    v
}

/// `evidence-drift-tool-definition`: each tool whose pinned hash differs
/// from the record's, with the diff.
fn definitions_against(baseline: &Facts, when: &str, current: &Facts) -> Vec<Issue> {
    let (Some(was), Some(now)) = (&baseline.definitions, &current.definitions) else {
        return Vec::new();
    };
    rugpull::changed(was, now)
        .iter()
        .map(|c| {
            let message = format!(
                "tool {} definition differs from the record of {when} (a rug pull?): {}",
                crate::escape::quote(c.name.as_bytes()),
                c.changes.join("; ")
            );
            definition_issue(Code::EvidenceDriftToolDefinition, message, c)
        })
        .collect()
}

/// The `--against` drift: this run's facts against an earlier record's.
pub fn against(baseline: &Facts, when: &str, current: &Facts) -> Vec<Issue> {
    let mut out = Vec::new();
    let (was, now) = (&baseline.server_version, &current.server_version);
    if was != now && !now.is_null() {
        out.push(
            Issue::new(
                Code::EvidenceDriftServerVersion,
                format!("server version is {now}, was {was} in the record of {when}"),
            )
            .with("baseline", was.clone())
            .with("current", now.clone()),
        );
    }
    let (was, now) = (&baseline.protocol, &current.protocol);
    if was != now && !now.is_empty() {
        let value = |p: &String| {
            if p.is_empty() {
                Value::Null
            } else {
                crate::object::ToValue::to_value(&p)
            }
        };
        let era = |p: &String| {
            if mcp::is_modern(p) {
                "2026-07-28 era"
            } else {
                "2025 era"
            }
        };
        let era_note = if !was.is_empty() && era(was) != era(now) {
            format!(" (the era changed: {} to {})", era(was), era(now))
        } else {
            String::new()
        };
        out.push(
            Issue::new(
                Code::EvidenceDriftProtocol,
                format!(
                    "negotiated protocol is {}, was {} in the record of {when}{era_note}",
                    value(now),
                    value(was)
                ),
            )
            .with("baseline", value(was))
            .with("current", value(now)),
        );
    }
    out.extend(definitions_against(baseline, when, current));
    if let (Some(was), Some(now)) = (&baseline.tools, &current.tools) {
        let was: Vec<String> = was.iter().map(name_text).collect();
        let now: Vec<String> = now.iter().map(name_text).collect();
        let (added, removed) = diff(&was, &now);
        if !added.is_empty() || !removed.is_empty() {
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(", ")
                }
            };
            out.push(
                Issue::new(
                    Code::EvidenceDriftTools,
                    format!(
                        "tools changed since the record of {when}: added {}; removed {}",
                        list(&added),
                        list(&removed)
                    ),
                )
                .with("added", added)
                .with("removed", removed),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(tools: &[&str], prompts: Option<usize>) -> Facts {
        Facts {
            initialized: true,
            protocol: "2025-11-25".into(),
            capabilities: vec!["tools".into()],
            tools: Some(Arc::new(tools.iter().map(|s| json!(s)).collect())),
            prompts,
            ..Facts::default()
        }
    }

    fn codes(issues: &[Issue]) -> Vec<(&'static str, &'static str)> {
        issues
            .iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect()
    }

    #[test]
    fn order_only_changes_do_not_warn_and_added_tools_do() {
        let (issues, drift) =
            compare(&[(1, f(&["a", "b"], Some(1))), (2, f(&["b", "a"], Some(1)))]);
        assert!(issues.is_empty());
        assert!(!drift.changed());
        let (issues, drift) = compare(&[(1, f(&["a"], Some(1))), (2, f(&["a", "c"], Some(2)))]);
        assert_eq!(
            codes(&issues),
            [
                ("repeat-tool-drift", "warning"),
                ("repeat-list-shape-drift", "warning")
            ]
        );
        assert!(
            issues[0].message.contains("run 2: added c; removed none"),
            "{}",
            issues[0].message
        );
        assert_eq!(
            drift.tools.as_ref().map(|s| s.changed.clone()),
            Some(vec![
                json!({"run": 2, "added": ["c"], "removed": [], "count": 2})
            ])
        );
        assert_eq!(
            drift.resources.as_ref().and_then(|s| s.skipped),
            Some("run 1 did not list it")
        );
    }

    #[test]
    fn version_protocol_and_tool_changes_against_a_record_are_warnings() {
        let old = Facts::from_record(&json!({"time": "t", "server": {"version": "1.0"},
            "negotiatedProtocol": "2025-06-18", "tools": ["a", "b"]}));
        let new = Facts::from_record(&json!({"server": {"version": "1.1"},
            "negotiatedProtocol": "2025-11-25", "tools": ["b", "c"]}));
        assert_eq!(
            codes(&against(&old, "t", &new)),
            [
                ("evidence-drift-server-version", "warning"),
                ("evidence-drift-protocol", "warning"),
                ("evidence-drift-tools", "warning"),
            ]
        );
        assert!(against(&old, "t", &old).is_empty());
    }
}
