//! The official MCP conformance suite's check ids the guard answers, in one
//! table: each id with what it asserts, the era it belongs to, what the
//! server must offer for it to apply (a check on a capability the server
//! does not declare is SKIPPED, never FAILURE), its spec page, and the
//! guard's own check that covers it. `check_id` names the id an issue code
//! stands for; the caching-hint codes carry their list's id themselves.

use crate::checks::Code;
use crate::session::Speaks;

/// What a server must offer (or a run must do) for an official check to
/// apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Any server that opened a session.
    Opened,
    /// A listed capability: `tools`, `prompts`, `resources`.
    Capability(&'static str),
    /// `resources/templates/list` was answered (resources advertised).
    Templates,
    /// A request of this method was made.
    Method(&'static str),
    /// The unsupported-version probe ran.
    VersionProbe,
}

/// One official check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Official {
    pub id: &'static str,
    /// The suite's name of the check (`ServerInitialize`).
    pub name: &'static str,
    /// The suite's scenario that holds it (`server-stateless`), for the
    /// expected-failures baseline (`scenario:check-id`).
    pub scenario: &'static str,
    pub description: &'static str,
    /// The era it belongs to (`None`: both).
    pub era: Option<Speaks>,
    pub gate: Gate,
    /// The suite's spec references: id and URL.
    pub spec: &'static [(&'static str, &'static str)],
    /// The guard's check (in the JSON `checks` object) that covers it.
    pub guard_check: &'static str,
}

/// One check's suite name and scenario.
struct Named {
    name: &'static str,
    scenario: &'static str,
}

const fn named(name: &'static str, scenario: &'static str) -> Named {
    Named { name, scenario }
}

const fn official(
    id: &'static str,
    n: Named,
    description: &'static str,
    era: Option<Speaks>,
    gate: Gate,
    spec: &'static [(&'static str, &'static str)],
    guard_check: &'static str,
) -> Official {
    Official {
        id,
        name: n.name,
        scenario: n.scenario,
        description,
        era,
        gate,
        spec,
        guard_check,
    }
}

const MODERN: Option<Speaks> = Some(Speaks::Modern);
const INITIALIZE: &[(&str, &str)] = &[(
    "MCP-Initialize",
    "https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#initialization",
)];
const TOOLS_LIST: &[(&str, &str)] = &[(
    "MCP-Tools-List",
    "https://modelcontextprotocol.io/specification/2025-06-18/server/tools#listing-tools",
)];
const TOOL_NAMES: &[(&str, &str)] = &[
    (
        "MCP-Tools-List",
        "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools",
    ),
    (
        "SEP-986",
        "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    ),
];
const STATELESS: &[(&str, &str)] = &[(
    "SEP-2575",
    "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2575",
)];
const CACHING: &[(&str, &str)] = &[
    (
        "MCP-Caching",
        "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching",
    ),
    (
        "SEP-2549",
        "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2549",
    ),
];

/// Every official check id the guard emits, in report order.
pub const OFFICIAL: &[Official] = &[
    official(
        "server-initialize",
        named("ServerInitialize", "server-initialize"),
        "the 2025-era initialize result has a valid structure",
        Some(Speaks::Legacy),
        Gate::Opened,
        INITIALIZE,
        "initialize",
    ),
    official(
        "tools-list",
        named("ToolsList", "tools-list"),
        "tools/list answers with a valid structure",
        None,
        Gate::Capability("tools"),
        TOOLS_LIST,
        "toolSchema",
    ),
    official(
        "tools-name-format",
        named("ToolsNameFormat", "tools-list"),
        "tool names match ^[A-Za-z0-9_.-]{1,128}$ (SHOULD)",
        None,
        Gate::Capability("tools"),
        TOOL_NAMES,
        "toolSchema",
    ),
    official(
        "sep-2575-server-implements-discover",
        named("ServerImplementsDiscover", "server-stateless"),
        "servers MUST implement server/discover",
        MODERN,
        Gate::Opened,
        STATELESS,
        "initialize",
    ),
    official(
        "sep-2575-server-identifies-in-result-meta",
        named("ServerIdentifiesInResultMeta", "server-stateless"),
        "results carry _meta serverInfo (SHOULD)",
        MODERN,
        Gate::Opened,
        STATELESS,
        "initialize",
    ),
    official(
        "sep-2575-server-unsupported-version-error",
        named("ServerUnsupportedVersionError", "server-stateless"),
        "an unsupported version gets -32022 listing the supported versions",
        MODERN,
        Gate::VersionProbe,
        STATELESS,
        "adversarial",
    ),
    official(
        "sep-2575-server-no-log-without-loglevel",
        named("ServerNoLogWithoutLogLevel", "server-stateless"),
        "no notifications/message without a logLevel",
        MODERN,
        Gate::Opened,
        STATELESS,
        "jsonRpc",
    ),
    official(
        "sep-2575-discover-capabilities-match-handlers",
        named("DiscoverCapabilitiesMatchHandlers", "server-stateless"),
        "what discover advertises is served",
        MODERN,
        Gate::Opened,
        STATELESS,
        "capabilities",
    ),
    official(
        "sep-2549-tools-list-caching-hints",
        named("ToolsListCachingHints", "caching"),
        "tools/list results carry ttlMs and cacheScope",
        MODERN,
        Gate::Capability("tools"),
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-prompts-list-caching-hints",
        named("PromptsListCachingHints", "caching"),
        "prompts/list results carry ttlMs and cacheScope",
        MODERN,
        Gate::Capability("prompts"),
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-resources-list-caching-hints",
        named("ResourcesListCachingHints", "caching"),
        "resources/list results carry ttlMs and cacheScope",
        MODERN,
        Gate::Capability("resources"),
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-resources-templates-list-caching-hints",
        named("ResourcesTemplatesListCachingHints", "caching"),
        "resources/templates/list results carry ttlMs and cacheScope",
        MODERN,
        Gate::Templates,
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-resources-read-caching-hints",
        named("ResourcesReadCachingHints", "caching"),
        "resources/read results carry ttlMs and cacheScope",
        MODERN,
        Gate::Method("resources/read"),
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-ttl-non-negative",
        named("TtlNonNegative", "caching"),
        "every ttlMs is a non-negative integer",
        MODERN,
        Gate::Opened,
        CACHING,
        "capabilities",
    ),
    official(
        "sep-2549-cache-scope-valid",
        named("CacheScopeValid", "caching"),
        "every cacheScope is public or private",
        MODERN,
        Gate::Opened,
        CACHING,
        "capabilities",
    ),
];

/// The scenario the guard's own checks are baselined under
/// (`mcp-stdio-guard:mcp-stdio-guard/stdout`).
pub const GUARD_SCENARIO: &str = crate::args::expected::GUARD_SCENARIO;

/// The spec reference of the guard's own checks.
pub const GUARD_SPEC: &[(&str, &str)] = &[(
    "MCP-Transports-Stdio",
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#stdio",
)];

/// The official check id an issue code stands for, where it has one (a
/// caching-hint issue carries its list's id in its `checkId` detail).
pub fn check_id(code: Code) -> Option<&'static str> {
    Some(match code {
        Code::InitializeError
        | Code::InitializeInvalidResult
        | Code::InitializeMissingProtocolVersion
        | Code::InitializeInvalidProtocolVersion
        | Code::InitializeMissingCapabilities
        | Code::InitializeInvalidCapabilities
        | Code::InitializeMissingServerInfo
        | Code::InitializeInvalidServerInfo => "server-initialize",
        Code::ToolsListInvalidResult => "tools-list",
        Code::ToolNameInvalid => "tools-name-format",
        Code::DiscoverUnsupported | Code::DiscoverInvalidResult => {
            "sep-2575-server-implements-discover"
        }
        Code::ModernServerInfoMissing => "sep-2575-server-identifies-in-result-meta",
        Code::ModernUnsupportedVersionError => "sep-2575-server-unsupported-version-error",
        Code::ModernUnrequestedLog => "sep-2575-server-no-log-without-loglevel",
        Code::CapabilityListUnsupported => "sep-2575-discover-capabilities-match-handlers",
        _ => return None,
    })
}

/// The official ids a check of the JSON `checks` object covers.
pub fn ids_of(guard_check: &str) -> Vec<&'static str> {
    OFFICIAL
        .iter()
        .filter(|o| o.guard_check == guard_check)
        .map(|o| o.id)
        .collect()
}

/// The table entry of an id.
pub fn find(id: &str) -> Option<&'static Official> {
    OFFICIAL.iter().find(|o| o.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_the_guard_emits_has_a_record() {
        for code in Code::ALL {
            if let Some(id) = check_id(*code) {
                assert!(find(id).is_some(), "{code}: {id}");
            }
        }
        for method in crate::checks::modern::CACHE_HINT_METHODS {
            if let Some(id) = crate::checks::modern::caching_check_id(method) {
                assert!(find(id).is_some(), "{method}: {id}");
            }
        }
        assert!(find("sep-2549-ttl-non-negative").is_some());
        let mut ids: Vec<&str> = OFFICIAL.iter().map(|o| o.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), OFFICIAL.len(), "an id listed twice");
    }
}
