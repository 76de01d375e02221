//! What the MCP specification fixes that both the session and the checks
//! need: the released protocol versions, the paginated list methods behind
//! each server capability, and the page bound. Constants and small pure
//! helpers only.

use crate::obj;
use serde_json::Value;

/// Released protocol versions that use the `initialize` handshake, oldest
/// first.
pub const HANDSHAKE_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The first stateless revision: no handshake. A server may only answer
/// `initialize` with it when it was the version requested.
pub const MODERN_VERSION: &str = "2026-07-28";

/// The `_meta` keys of the 2026-07-28 request envelope and result.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The error code of an unsupported protocol version (2026-07-28).
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// A version no server supports, for the unsupported-version probe.
pub const BOGUS_VERSION: &str = "1999-01-01";

/// Who the client is, as both eras send it.
pub fn client_info() -> Value {
    crate::obj! {"name" => "mcp-stdio-guard", "version" => env!("CARGO_PKG_VERSION")}
}

/// The `initialize` params of the 2025 handshake: the version asked for,
/// no client capability.
pub fn initialize_params(version: &str) -> Value {
    crate::obj! {"protocolVersion" => version, "capabilities" => obj! {}, "clientInfo" => client_info()}
}

/// The `_meta` envelope every 2026-07-28 request carries: the version, the
/// client's capabilities (none) and who the client is.
pub fn envelope(version: &str) -> Value {
    serde_json::json!({
        META_PROTOCOL_VERSION: version,
        META_CLIENT_CAPABILITIES: {},
        META_CLIENT_INFO: client_info(),
    })
}

/// `params` with the envelope added under `_meta` (kept when the caller
/// set its own `_meta` object: its keys win). Non-object params are sent
/// as given.
pub fn with_envelope(params: Option<&Value>, version: &str) -> Option<Value> {
    let mut params = params.cloned().unwrap_or_else(|| crate::obj! {});
    let Some(object) = params.as_object_mut() else {
        return Some(params);
    };
    let mut meta = envelope(version);
    if let (Some(Value::Object(own)), Some(meta)) = (object.get("_meta"), meta.as_object_mut()) {
        for (k, v) in own {
            meta.insert(k.clone(), v.clone());
        }
    }
    object.insert("_meta".into(), meta);
    Some(params)
}

/// Whether a version string names the stateless era or a later one.
pub fn is_modern(version: &str) -> bool {
    is_date_shaped(version) && version >= MODERN_VERSION
}

/// The `data.supported` list of a -32022 error, when it is one.
pub fn unsupported_versions(error: &Value) -> Option<Vec<String>> {
    if error.get("code").and_then(Value::as_i64) != Some(UNSUPPORTED_VERSION) {
        return None;
    }
    let list = error.get("data")?.get("supported")?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
    )
}

/// The version from which servers MUST use only negotiated capabilities
/// (before it, SHOULD).
pub const CAPABILITIES_MUST_FROM: &str = "2025-06-18";

/// The only version whose wire carries JSON-RPC batches.
pub const BATCH_VERSION: &str = "2025-03-26";

/// The version from which an error response may omit its id.
pub const ERROR_ID_OPTIONAL_FROM: &str = "2025-11-25";

/// How many pages of one list the guard follows before it gives up.
pub const MAX_PAGES: usize = 100;

/// A paginated list method behind a server capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListSpec {
    /// The `capabilities` key that advertises it.
    pub capability: &'static str,
    pub method: &'static str,
    /// The result member that holds the items.
    pub items: &'static str,
    /// The key of this list in the report's `capabilityChecks`.
    pub key: &'static str,
}

/// The lists the capability probes walk, in probe order.
pub const LISTS: [ListSpec; 4] = [
    ListSpec {
        capability: "tools",
        method: "tools/list",
        items: "tools",
        key: "tools",
    },
    ListSpec {
        capability: "resources",
        method: "resources/list",
        items: "resources",
        key: "resources",
    },
    ListSpec {
        capability: "resources",
        method: "resources/templates/list",
        items: "resourceTemplates",
        key: "resourceTemplates",
    },
    ListSpec {
        capability: "prompts",
        method: "prompts/list",
        items: "prompts",
        key: "prompts",
    },
];

pub fn list_spec(method: &str) -> Option<&'static ListSpec> {
    LISTS.iter().find(|s| s.method == method)
}

/// Whether `text` has the shape of a protocol version: `YYYY-MM-DD`.
pub fn is_date_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

pub fn is_released(version: &str) -> bool {
    HANDSHAKE_VERSIONS.contains(&version) || version == MODERN_VERSION
}

/// The protocol version whose rules apply to the session: the negotiated one
/// when the server answered with a known version, else the requested one.
pub fn effective_version<'a>(requested: &'a str, negotiated: &'a str) -> &'a str {
    if is_released(negotiated) {
        negotiated
    } else {
        requested
    }
}

/// Whether `version` is `since` or later (versions are dates, so they
/// compare as strings).
pub fn at_least(version: &str, since: &str) -> bool {
    is_date_shaped(version) && version >= since
}

/// The capability keys an `initialize` result advertises (empty when the
/// result or its `capabilities` is not an object).
pub fn advertised(result: &Value) -> Vec<&str> {
    result
        .get("capabilities")
        .and_then(Value::as_object)
        .map(|caps| caps.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The keys of a capabilities object (empty when it is not an object).
pub fn advertised_keys(capabilities: &Value) -> Vec<String> {
    capabilities
        .as_object()
        .map(|caps| caps.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_dates_and_compare_in_order() {
        assert!(is_date_shaped("2025-11-25"));
        assert!(!is_date_shaped("2025-1-25"));
        assert!(!is_date_shaped("v2025-11-2"));
        assert!(at_least("2025-11-25", CAPABILITIES_MUST_FROM));
        assert!(!at_least("2025-03-26", CAPABILITIES_MUST_FROM));
        assert!(!at_least("latest", CAPABILITIES_MUST_FROM));
        assert_eq!(effective_version("2025-11-25", "2025-03-26"), "2025-03-26");
        assert_eq!(effective_version("2025-11-25", "1999-01-01"), "2025-11-25");
    }
}
