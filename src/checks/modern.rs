//! The 2026-07-28 (stateless) rules, judged on a session that spoke that
//! era: the DiscoverResult's shape, `resultType` on every result, caching
//! hints (`ttlMs`, `cacheScope`) on discover, list and read results,
//! `serverInfo` in every result's `_meta` (a SHOULD), no request from the
//! server on stdout, and no `notifications/message` unless a request set a
//! `logLevel` (the guard never does). Also the era's answer to a 2025
//! client: a modern-only server's -32022 to `initialize` is correct.
//! Each rule names the official conformance check id where one exists.

use serde_json::Value;

use crate::checks::{Code, Context, Issue};
use crate::escape::quote;
use crate::mcp;
use crate::plan::Opening;
use crate::session::Role;
use crate::session::transcript::{OpRecord, Transcript};

/// The methods whose complete result must carry caching hints.
pub const CACHE_HINT_METHODS: &[&str] = &[
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// The official caching-hints check id of one method (the suite has one
/// per list and one for `resources/read`; none for discover).
pub fn caching_check_id(method: &str) -> Option<&'static str> {
    Some(match method {
        "tools/list" => "sep-2549-tools-list-caching-hints",
        "prompts/list" => "sep-2549-prompts-list-caching-hints",
        "resources/list" => "sep-2549-resources-list-caching-hints",
        "resources/templates/list" => "sep-2549-resources-templates-list-caching-hints",
        "resources/read" => "sep-2549-resources-read-caching-hints",
        _ => return None,
    })
}

/// Whether a method's complete result must carry caching hints.
fn needs_cache_hints(method: &str) -> bool {
    CACHE_HINT_METHODS.contains(&method)
}

/// Every rule of the era, on a session that spoke it; and, when the era
/// was required (`--era modern`), a server/discover that failed.
pub fn check(ctx: &Context, tr: &Transcript, out: &mut Vec<Issue>) {
    if ctx.opening == Opening::Modern
        && let Some(Err(error)) = &tr.discover_reply
    {
        out.push(Issue::new(
            Code::DiscoverUnsupported,
            format!(
                "server/discover returned error: {}; a 2026-07-28 server MUST implement it (use --era auto for a 2025-era server)",
                crate::jsonrpc::error_message(error)
            ),
        ));
    }
    if !tr.modern() {
        return;
    }
    if let Some(result) = tr.discover_result() {
        out.extend(discover_issues(result, tr.init_reply.as_ref()));
    }
    let mut results: Vec<(&str, &Value)> = Vec::new();
    if let Some(result) = tr.discover_result() {
        results.push(("server/discover", result));
    }
    let records = tr
        .ops
        .iter()
        .chain(tr.probes.iter())
        .chain(tr.adversarial.iter().map(|a| &a.request));
    results.extend(
        records.filter_map(|op: &OpRecord| Some((op.method.as_str(), op.result.as_ref()?))),
    );
    let mut without_info: Vec<&str> = Vec::new();
    for (method, result) in results {
        out.extend(result_issues(method, result));
        let info = result
            .get("_meta")
            .and_then(|m| m.get(mcp::META_SERVER_INFO));
        if info.is_none_or(|i| !i.is_object()) && !without_info.contains(&method) {
            without_info.push(method);
        }
    }
    if !without_info.is_empty() {
        out.push(
            Issue::new(
                Code::ModernServerInfoMissing,
                format!(
                    "results of {} carry no _meta[\"{}\"]; servers SHOULD identify themselves in every result",
                    without_info.join(", "),
                    mcp::META_SERVER_INFO
                ),
            )
            .with("methods", without_info.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
        );
    }
}

/// The DiscoverResult's required members, as one finding; an `initialize`
/// the server refused because of it is named as its consequence.
fn discover_issues(result: &Value, init_reply: Option<&Result<Value, Value>>) -> Vec<Issue> {
    let mut why: Vec<&str> = Vec::new();
    if !result.is_object() {
        why.push("is not an object");
    } else {
        match result.get("supportedVersions").and_then(Value::as_array) {
            None => why.push("has no supportedVersions array"),
            Some(list) if list.is_empty() => why.push("lists no supportedVersions"),
            Some(list)
                if !list
                    .iter()
                    .all(|v| v.as_str().is_some_and(|s| !s.is_empty())) =>
            {
                why.push("has a supportedVersions entry that is not a non-empty string")
            }
            Some(_) => {}
        }
        if !result.get("capabilities").is_some_and(Value::is_object) {
            why.push("has no capabilities object");
        }
    }
    if why.is_empty() {
        return Vec::new();
    }
    let mut issue = Issue::new(
        Code::DiscoverInvalidResult,
        format!("the server/discover result {}", why.join(" and ")),
    );
    if let Some(Err(error)) = init_reply {
        let refused = if modern_only_answer(error).is_some() {
            Code::InitializeModernOnly
        } else {
            Code::InitializeError
        };
        issue.message.push_str(&format!(
            "; so the guard fell back to initialize, which the server refused ({}): a consequence, not reported apart",
            crate::jsonrpc::error_message(error)
        ));
        issue = issue.with("consequences", vec![refused.as_str()]);
    }
    vec![issue]
}

/// `resultType` and caching hints of one result.
fn result_issues(method: &str, result: &Value) -> Vec<Issue> {
    let mut out = Vec::new();
    let result_type = result.get("resultType").and_then(Value::as_str);
    if !matches!(result_type, Some("complete" | "input_required")) {
        let shown = result
            .get("resultType")
            .map_or("none".to_string(), |v| quote(v.to_string().as_bytes()));
        out.push(
            Issue::new(
                Code::ModernResultTypeInvalid,
                format!(
                    "the {method} result's resultType is {shown}, not \"complete\" or \"input_required\""
                ),
            )
            .with("method", method),
        );
    }
    if result_type != Some("complete") || !needs_cache_hints(method) {
        return out;
    }
    let check_id = caching_check_id(method);
    let with_id = |issue: Issue, id: Option<&'static str>| match id {
        Some(id) => issue.with("checkId", id),
        None => issue,
    };
    let ttl = result.get("ttlMs");
    let scope = result.get("cacheScope");
    let missing: Vec<&str> = [("ttlMs", ttl), ("cacheScope", scope)]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
    if !missing.is_empty() {
        let issue = Issue::new(
            Code::ModernCacheHintsMissing,
            format!("the {method} result has no {}", missing.join(" and ")),
        )
        .with("method", method);
        out.push(with_id(issue, check_id));
    }
    if let Some(ttl) = ttl
        && !(ttl.is_u64() || ttl.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0))
    {
        out.push(
            Issue::new(
                Code::ModernCacheHintsInvalid,
                format!("the {method} result's ttlMs {ttl} is not a non-negative integer"),
            )
            .with("method", method)
            .with("checkId", "sep-2549-ttl-non-negative"),
        );
    }
    if let Some(scope) = scope
        && !matches!(scope.as_str(), Some("public" | "private"))
    {
        out.push(
            Issue::new(
                Code::ModernCacheHintsInvalid,
                format!(
                    "the {method} result's cacheScope {scope} is not \"public\" or \"private\""
                ),
            )
            .with("method", method)
            .with("checkId", "sep-2549-cache-scope-valid"),
        );
    }
    out
}

/// What the server starts on its own, in 2026-07-28: no request at all
/// (there is no channel for the client's answer), and no log message
/// unless a request asked for one.
pub fn traffic(n: u64, role: &Role, method: &str, value: &Value) -> Option<Issue> {
    match role {
        Role::ServerRequest(_) => Some(
            Issue::new(
                Code::ModernServerRequest,
                format!(
                    "the server sent a {method} request (id {}, stdout line {n}); in 2026-07-28 a server MUST NOT send requests on stdio",
                    value.get("id").map_or("none".to_string(), Value::to_string)
                ),
            )
            .with("method", method),
        ),
        Role::Notification if method == "notifications/message" => Some(
            Issue::new(
                Code::ModernUnrequestedLog,
                format!(
                    "the server sent notifications/message (stdout line {n}) though no request set _meta[\"{}\"]",
                    mcp::META_LOG_LEVEL
                ),
            )
            .with("method", method),
        ),
        _ => None,
    }
}

/// A -32022 to `initialize` naming only 2026-07-28 (or later) versions: a
/// modern-only server answering a 2025 client as the spec asks.
pub fn modern_only_answer(error: &Value) -> Option<Vec<String>> {
    let list = mcp::unsupported_versions(error)?;
    (!list.is_empty() && list.iter().all(|v| mcp::is_modern(v))).then_some(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(issues: &[Issue]) -> Vec<&str> {
        issues.iter().map(|i| i.code.as_str()).collect()
    }

    #[test]
    fn a_complete_discover_result_passes() {
        let r = json!({"supportedVersions": ["2026-07-28"], "capabilities": {}, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"});
        assert!(discover_issues(&r, None).is_empty());
        assert!(result_issues("server/discover", &r).is_empty());
    }

    #[test]
    fn discover_without_versions_or_capabilities_is_one_root_cause() {
        let r = json!({"supportedVersions": [], "resultType": "complete"});
        let issues = discover_issues(&r, None);
        assert_eq!(codes(&issues), ["discover-invalid-result"]);
        assert!(
            issues[0]
                .message
                .contains("lists no supportedVersions and has no capabilities"),
            "{}",
            issues[0].message
        );
        let r = json!({"supportedVersions": [3], "capabilities": {}});
        assert_eq!(
            codes(&discover_issues(&r, None)),
            ["discover-invalid-result"]
        );
        // The refused initialize that follows is named, not reported apart.
        let refusal = json!({"code": -32602, "message": "missing the required _meta envelope"});
        let issues = discover_issues(&json!({}), Some(&Err(refusal)));
        assert_eq!(
            issues[0].detail("consequences"),
            Some(&json!(["initialize-error"]))
        );
        let refusal =
            json!({"code": -32022, "message": "x", "data": {"supported": ["2026-07-28"]}});
        let issues = discover_issues(&json!({}), Some(&Err(refusal)));
        assert_eq!(
            issues[0].detail("consequences"),
            Some(&json!(["initialize-modern-only"]))
        );
    }

    #[test]
    fn list_results_need_result_type_and_valid_caching_hints() {
        let r = json!({"tools": []});
        assert_eq!(
            codes(&result_issues("tools/list", &r)),
            ["modern-result-type-invalid"]
        );
        let r = json!({"tools": [], "resultType": "complete"});
        assert_eq!(
            codes(&result_issues("tools/list", &r)),
            ["modern-cache-hints-missing"]
        );
        let r = json!({"tools": [], "resultType": "complete", "ttlMs": -1, "cacheScope": "shared"});
        assert_eq!(
            codes(&result_issues("tools/list", &r)),
            ["modern-cache-hints-invalid"; 2]
        );
        // A tools/call result needs no caching hints.
        let r = json!({"content": [], "resultType": "complete"});
        assert!(result_issues("tools/call", &r).is_empty());
    }

    #[test]
    fn any_server_request_and_an_unrequested_log_are_errors() {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let answer = crate::session::Answer::Pong;
        let issue = traffic(3, &Role::ServerRequest(answer), "ping", &ping).expect("issue");
        assert_eq!(issue.code, Code::ModernServerRequest);
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}});
        let issue = traffic(4, &Role::Notification, "notifications/message", &log).expect("issue");
        assert_eq!(issue.code, Code::ModernUnrequestedLog);
        let other = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        assert!(
            traffic(
                5,
                &Role::Notification,
                "notifications/tools/list_changed",
                &other
            )
            .is_none()
        );
    }

    #[test]
    fn a_modern_only_answer_to_initialize_names_only_modern_versions() {
        let e = json!({"code": -32022, "message": "x", "data": {"supported": ["2026-07-28"]}});
        assert_eq!(modern_only_answer(&e), Some(vec!["2026-07-28".to_string()]));
        let e = json!({"code": -32022, "data": {"supported": ["2025-11-25"]}});
        assert_eq!(modern_only_answer(&e), None);
        let e = json!({"code": -32602, "data": {"supported": ["2026-07-28"]}});
        assert_eq!(modern_only_answer(&e), None);
    }
}
