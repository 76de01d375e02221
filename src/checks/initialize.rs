//! The initialize result: its shape, the protocol version the server chose,
//! its capabilities and its `serverInfo`. The errors here fail the run
//! before `notifications/initialized` is sent (the session asks
//! `blocks_handshake`); `serverInfo` problems are warnings.

use serde_json::Value;

use crate::checks::{Code, Issue};
use crate::jsonrpc::describe;
use crate::mcp;

/// The server capabilities whose value must be an object, and the members
/// of each that must be booleans when present.
const CAPABILITY_FLAGS: &[(&str, &[&str])] = &[
    ("tools", &["listChanged"]),
    ("resources", &["subscribe", "listChanged"]),
    ("prompts", &["listChanged"]),
    ("logging", &[]),
    ("completions", &[]),
    ("experimental", &[]),
];

/// Every issue with an initialize result, for a session that requested
/// `requested`.
pub fn result_issues(result: &Value, requested: &str) -> Vec<Issue> {
    let mut out = Vec::new();
    let Some(obj) = result.as_object() else {
        out.push(Issue::new(Code::InitializeInvalidResult,
            format!(
                "initialize result must be an object with protocolVersion, capabilities and serverInfo, not {}",
                describe(result)
            ),
        ));
        return out;
    };
    match obj.get("protocolVersion") {
        None => out.push(Issue::new(
            Code::InitializeMissingProtocolVersion,
            "initialize result has no protocolVersion",
        )),
        Some(v) => {
            if let Some(problem) = version_problem(v, requested) {
                out.push(
                    Issue::new(
                        Code::InitializeInvalidProtocolVersion,
                        format!("initialize result protocolVersion {problem}"),
                    )
                    .with("protocolVersion", v.clone())
                    .with("requestedProtocol", requested),
                );
            }
        }
    }
    match obj.get("capabilities") {
        None => out.push(Issue::new(
            Code::InitializeMissingCapabilities,
            "initialize result has no capabilities object",
        )),
        Some(caps) => {
            if let Some(problem) = capabilities_problem(caps) {
                out.push(Issue::new(
                    Code::InitializeInvalidCapabilities,
                    format!("initialize result capabilities {problem}"),
                ));
            }
        }
    }
    match obj.get("serverInfo") {
        None => out.push(Issue::new(
            Code::InitializeMissingServerInfo,
            "initialize result has no serverInfo (name and version of the server)",
        )),
        Some(info) => {
            if let Some(problem) = server_info_problem(info) {
                out.push(Issue::new(
                    Code::InitializeInvalidServerInfo,
                    format!("initialize result serverInfo {problem}"),
                ));
            }
        }
    }
    out
}

/// Whether the result is too broken to go on with the session.
/// serverInfo problems are errors (the schema requires it) but a client
/// can go on without it.
pub fn blocks_handshake(result: &Value, requested: &str) -> bool {
    result_issues(result, requested).iter().any(|i| {
        i.is_error()
            && !matches!(
                i.code,
                Code::InitializeMissingServerInfo | Code::InitializeInvalidServerInfo
            )
    })
}

/// What is wrong with the version the server answered, if anything. It must
/// be a released handshake version (or `requested` itself, when that is a
/// version newer than any this guard knows, or the stateless revision the
/// user asked for). Echoing an unknown requested version is the bug: a
/// server that does not support the request must answer with one it does.
fn version_problem(v: &Value, requested: &str) -> Option<String> {
    let Some(text) = v.as_str() else {
        return Some(format!("must be a string, not {}", describe(v)));
    };
    if !mcp::is_date_shaped(text) {
        return Some(format!(
            "{v} is not a protocol version (versions look like 2025-11-25)"
        ));
    }
    if mcp::HANDSHAKE_VERSIONS.contains(&text) {
        return None;
    }
    let newest_known = mcp::MODERN_VERSION;
    if text == requested && text >= newest_known {
        return None;
    }
    if text == requested {
        return Some(format!(
            "{v} echoes the requested version, which is not a released MCP version; a server that does not support the requested version must answer with one it does"
        ));
    }
    if text == newest_known {
        return Some(format!(
            "{v} is the stateless revision, which initialize cannot negotiate (initialize selects the handshake revisions up to 2025-11-25)"
        ));
    }
    Some(format!(
        "{v} is neither the requested version ({requested}) nor a released MCP version"
    ))
}

fn capabilities_problem(caps: &Value) -> Option<String> {
    let Some(obj) = caps.as_object() else {
        return Some(format!("must be an object, not {}", describe(caps)));
    };
    for (key, flags) in CAPABILITY_FLAGS {
        let Some(value) = obj.get(*key) else {
            continue;
        };
        let Some(inner) = value.as_object() else {
            return Some(format!(
                "member {key} must be an object, not {}",
                describe(value)
            ));
        };
        for flag in *flags {
            if let Some(f) = inner.get(*flag)
                && !f.is_boolean()
            {
                return Some(format!(
                    "member {key}.{flag} must be a boolean, not {}",
                    describe(f)
                ));
            }
        }
    }
    None
}

fn server_info_problem(info: &Value) -> Option<String> {
    let Some(obj) = info.as_object() else {
        return Some(format!(
            "must be an object with name and version, not {}",
            describe(info)
        ));
    };
    for field in ["name", "version"] {
        match obj.get(field) {
            Some(Value::String(_)) => {}
            None => return Some(format!("has no {field}")),
            Some(other) => {
                return Some(format!("{field} must be a string, not {}", describe(other)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(result: Value, requested: &str) -> Vec<&'static str> {
        result_issues(&result, requested)
            .iter()
            .map(|i| i.code.as_str())
            .collect()
    }

    fn good() -> Value {
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": {"name": "s", "version": "1"},
        })
    }

    #[test]
    fn a_complete_result_passes() {
        assert!(codes(good(), "2025-11-25").is_empty());
        assert!(!blocks_handshake(&good(), "2025-11-25"));
    }

    #[test]
    fn an_older_released_version_is_fine() {
        let mut r = good();
        r["protocolVersion"] = json!("2024-11-05");
        assert!(codes(r, "2025-11-25").is_empty());
    }

    #[test]
    fn a_result_that_is_not_an_object_blocks_the_handshake() {
        assert_eq!(
            codes(json!([]), "2025-11-25"),
            ["initialize-invalid-result"]
        );
        assert!(blocks_handshake(&Value::Null, "2025-11-25"));
    }

    #[test]
    fn protocol_version_rules() {
        let with = |v: Value| {
            let mut r = good();
            r["protocolVersion"] = v;
            r
        };
        let bad = ["initialize-invalid-protocol-version"];
        assert_eq!(codes(with(json!(20251125)), "2025-11-25"), bad);
        assert_eq!(codes(with(json!("latest")), "2025-11-25"), bad);
        assert_eq!(codes(with(json!("1999-01-01")), "2025-11-25"), bad);
        // Echoing an unknown requested version is the bug to catch.
        assert_eq!(codes(with(json!("1999-01-01")), "1999-01-01"), bad);
        // A version newer than the guard knows, when asked for, is not judged.
        assert!(codes(with(json!("2030-01-01")), "2030-01-01").is_empty());
        assert_eq!(codes(with(json!("2026-07-28")), "2025-11-25"), bad);
        let mut r = good();
        r.as_object_mut().map(|o| o.remove("protocolVersion"));
        assert_eq!(
            codes(r, "2025-11-25"),
            ["initialize-missing-protocol-version"]
        );
    }

    #[test]
    fn capabilities_must_be_objects_with_boolean_flags() {
        let with = |v: Value| {
            let mut r = good();
            r["capabilities"] = v;
            r
        };
        let bad = ["initialize-invalid-capabilities"];
        assert_eq!(codes(with(json!([])), "2025-11-25"), bad);
        assert_eq!(codes(with(json!({"tools": true})), "2025-11-25"), bad);
        assert_eq!(
            codes(
                with(json!({"resources": {"subscribe": "yes"}})),
                "2025-11-25"
            ),
            bad
        );
        assert!(codes(with(json!({"custom": 1})), "2025-11-25").is_empty());
        let mut r = good();
        r.as_object_mut().map(|o| o.remove("capabilities"));
        assert_eq!(
            codes(r.clone(), "2025-11-25"),
            ["initialize-missing-capabilities"]
        );
        assert!(blocks_handshake(&r, "2025-11-25"));
    }

    #[test]
    fn server_info_problems_are_errors_that_do_not_block() {
        let mut r = good();
        r["serverInfo"] = json!({"name": 5, "version": "1"});
        assert_eq!(
            codes(r.clone(), "2025-11-25"),
            ["initialize-invalid-server-info"]
        );
        assert!(!blocks_handshake(&r, "2025-11-25"));
        r.as_object_mut().map(|o| o.remove("serverInfo"));
        assert_eq!(codes(r, "2025-11-25"), ["initialize-missing-server-info"]);
    }
}
