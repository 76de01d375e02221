//! `--checks-json FILE`: the official MCP conformance suite's per-check
//! records (`id`, `name`, `description`, `status` SUCCESS / FAILURE /
//! WARNING / SKIPPED / INFO, `timestamp`, `specReferences`, `details`,
//! `errorMessage`), keyed by the suite's check ids where one exists and by
//! `mcp-stdio-guard/<check>` otherwise. A check for something the server
//! does not declare or an era it does not speak is SKIPPED, never FAILURE.

use serde_json::{Value, json};

use crate::checks::Issue;
use crate::report::{Report, Status};
use crate::session::Speaks;

/// The official checks the guard can answer on any stdio server: id,
/// description, the era it belongs to (`None`: both), the spec page, and
/// the guard's own check (in the JSON `checks` object) that covers it.
const OFFICIAL: &[(&str, &str, Option<Speaks>, &str, &str)] = &[
    (
        "server-initialize",
        "the 2025-era initialize result has a valid structure",
        Some(Speaks::Legacy),
        "basic/lifecycle",
        "initialize",
    ),
    (
        "tools-list",
        "tools/list answers with a valid structure",
        None,
        "server/tools",
        "toolSchema",
    ),
    (
        "tools-name-format",
        "tool names match ^[A-Za-z0-9_.-]{1,128}$ (SHOULD)",
        None,
        "server/tools",
        "toolSchema",
    ),
    (
        "sep-2575-server-implements-discover",
        "servers MUST implement server/discover",
        Some(Speaks::Modern),
        "server/discover",
        "initialize",
    ),
    (
        "sep-2575-server-identifies-in-result-meta",
        "results carry _meta serverInfo (SHOULD)",
        Some(Speaks::Modern),
        "basic/index",
        "initialize",
    ),
    (
        "sep-2575-server-unsupported-version-error",
        "an unsupported version gets -32022 listing the supported versions",
        Some(Speaks::Modern),
        "basic/versioning",
        "adversarial",
    ),
    (
        "sep-2575-server-no-log-without-loglevel",
        "no notifications/message without a logLevel",
        Some(Speaks::Modern),
        "basic/index",
        "jsonRpc",
    ),
    (
        "sep-2575-discover-capabilities-match-handlers",
        "what discover advertises is served",
        Some(Speaks::Modern),
        "server/discover",
        "capabilities",
    ),
    (
        "sep-2549-tools-list-caching-hints",
        "tools/list results carry ttlMs and cacheScope",
        Some(Speaks::Modern),
        "server/utilities/caching",
        "capabilities",
    ),
    (
        "sep-2549-ttl-non-negative",
        "every ttlMs is a non-negative integer",
        Some(Speaks::Modern),
        "server/utilities/caching",
        "capabilities",
    ),
    (
        "sep-2549-cache-scope-valid",
        "every cacheScope is public or private",
        Some(Speaks::Modern),
        "server/utilities/caching",
        "capabilities",
    ),
];

/// The official check ids a check of the JSON `checks` object covers.
pub fn ids_of(check: &str) -> Vec<&'static str> {
    OFFICIAL
        .iter()
        .filter(|o| o.4 == check)
        .map(|o| o.0)
        .collect()
}

fn issue_check_id(issue: &Issue) -> Option<String> {
    if let Some(id) = issue.detail("checkId").and_then(Value::as_str) {
        return Some(id.to_string());
    }
    crate::checks::modern::check_id(issue.code).map(String::from)
}

fn record(
    id: &str,
    name: &str,
    description: &str,
    status: &str,
    time: &str,
    spec: &str,
    issues: &[&Issue],
) -> Value {
    let mut v = json!({
        "id": id,
        "name": name,
        "description": description,
        "status": status,
        "timestamp": time,
        "specReferences": [{
            "id": spec,
            "url": format!("https://modelcontextprotocol.io/specification/2026-07-28/{spec}"),
        }],
        "details": {
            "issueCodes": issues.iter().map(|i| i.code.as_str()).collect::<Vec<_>>(),
            "issues": issues.iter().map(|i| i.message.clone()).collect::<Vec<_>>(),
        },
    });
    if let Some(e) = issues.iter().find(|i| i.is_error()) {
        v["errorMessage"] = e.message.clone().into();
    }
    v
}

fn status_of(issues: &[&Issue]) -> &'static str {
    if issues.iter().any(|i| i.is_error()) {
        "FAILURE"
    } else if issues.is_empty() {
        "SUCCESS"
    } else {
        "WARNING"
    }
}

/// The records of a report; `time` is the run's RFC 3339 timestamp.
pub fn render(r: &Report, time: &str) -> Value {
    let run = r.first();
    let speaks = run.era.as_ref().map(|e| e.speaks);
    let asked = |p: crate::options::Probe| {
        run.probes
            .iter()
            .any(|v| v.started && v.probe == crate::plan::AdvProbe::Builtin(p))
    };
    let mut out = Vec::new();
    for (id, description, era, spec, _) in OFFICIAL {
        let issues: Vec<&Issue> = r
            .issues
            .iter()
            .filter(|i| issue_check_id(i).as_deref() == Some(*id))
            .collect();
        let skip = if era.is_some() && speaks.is_some() && *era != speaks {
            Some("the server spoke the other protocol era")
        } else if !run.initialized && issues.is_empty() {
            Some("the session did not open")
        } else if id.starts_with("tools-") && !run.tools_asked {
            Some("the server declares no tools capability")
        } else if *id == "sep-2575-server-unsupported-version-error"
            && !asked(crate::options::Probe::UnsupportedVersion)
        {
            Some("--adversarial-probe unsupported-version was not asked")
        } else {
            None
        };
        let status = match skip {
            Some(_) if issues.is_empty() => "SKIPPED",
            _ => status_of(&issues),
        };
        let mut rec = record(id, id, description, status, time, spec, &issues);
        if let (Some(reason), "SKIPPED") = (skip, status) {
            rec["details"]["reason"] = reason.into();
        }
        out.push(rec);
    }
    for (name, group, check) in r.checks.named() {
        let issues: Vec<&Issue> = r.issues.iter().filter(|i| i.in_group(group)).collect();
        let status = match check.status {
            Status::Pass => "SUCCESS",
            Status::Fail => "FAILURE",
            Status::Warning => "WARNING",
            Status::Skipped => "SKIPPED",
        };
        let id = format!("mcp-stdio-guard/{name}");
        let mut rec = record(
            &id,
            name,
            &format!("the guard's {name} check"),
            status,
            time,
            "basic/transports/stdio",
            &issues,
        );
        if let Some(reason) = check.reason {
            rec["details"]["reason"] = reason.into();
        }
        out.push(rec);
    }
    Value::Array(out)
}
