//! An MCP server made with the official Rust SDK, rmcp 3.11, for the guard's
//! interop tests: one read-only tool, `forecast`.
//!
//! Usage: rmcp-interop-server [default|modern-only|legacy-only]
//!   default      every version rmcp knows (2024-11-05 … 2026-07-28)
//!   modern-only  2026-07-28 only: `initialize` gets -32022, then it exits
//!   legacy-only  the 2025-era versions only: `server/discover` gets -32022

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

const MODERN: &[ProtocolVersion] = &[ProtocolVersion::V_2026_07_28];
const LEGACY: &[ProtocolVersion] = &[
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
];

struct Weather {
    versions: &'static [ProtocolVersion],
}

fn forecast_tool() -> Tool {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    });
    let schema: JsonObject = match schema {
        serde_json::Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    let mut tool = Tool::new("forecast", "Return a canned forecast for a city.", Arc::new(schema));
    tool.annotations = Some(ToolAnnotations::new().read_only(true));
    tool
}

impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("weather", "0.3.0"))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(self.versions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![forecast_tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Validate as the tool's inputSchema says (MCP: servers MUST
        // validate all tool inputs).
        if request.name != "forecast" {
            return Err(ErrorData::invalid_params(format!("unknown tool {}", request.name), None));
        }
        let args = request.arguments.unwrap_or_default();
        let Some(city) = args.get("city").and_then(|v| v.as_str()) else {
            return Err(ErrorData::invalid_params("city (a string) is required", None));
        };
        if args.get("days").is_some_and(|d| !d.is_i64() && !d.is_u64()) {
            return Err(ErrorData::invalid_params("days must be an integer", None));
        }
        let text = format!("{city}: sunny");
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let versions = match std::env::args().nth(1).as_deref() {
        Some("modern-only") => MODERN,
        Some("legacy-only") => LEGACY,
        _ => ProtocolVersion::KNOWN_VERSIONS,
    };
    let service = Weather { versions }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
