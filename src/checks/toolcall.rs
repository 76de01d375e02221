//! `tools/call` results: `content` an array, `isError` a boolean, a tool
//! error reported as such, and `structuredContent` present and conforming
//! when the tool declares an `outputSchema` (checked with the `schema`
//! subset; what the subset cannot check is reported, never passed).

use serde_json::Value;

use crate::checks::schema::{self, Validation};
use crate::checks::{Code, Issue};
use crate::jsonrpc::describe;
use crate::session::transcript::{OpRecord, Transcript};

/// The tool object a call names, from the listed tools.
pub fn tool_for<'a>(tools: &[&'a Value], op: &OpRecord) -> Option<&'a Value> {
    let name = op.params.as_ref()?.get("name")?.as_str()?;
    tools
        .iter()
        .copied()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
}

/// How `structuredContent` fared against the tool's `outputSchema`.
pub fn structured_check(tools: &[&Value], op: &OpRecord) -> Option<Validation> {
    let result = op.result.as_ref()?;
    let schema = tool_for(tools, op)?.get("outputSchema")?;
    let content = result.get("structuredContent")?;
    Some(schema::validate(content, schema))
}

/// The text of a tool result's text blocks, joined.
pub fn text_of(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

pub fn check(tr: &Transcript, out: &mut Vec<Issue>) {
    let tools = tr.listed("tools/list");
    for op in tr.ops.iter().filter(|op| op.method == "tools/call") {
        let Some(result) = &op.result else {
            continue;
        };
        let name = op
            .params
            .as_ref()
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("?");
        let tag = |issue: Issue| issue.with("toolName", name);
        match result.get("content") {
            Some(Value::Array(_)) => {}
            other => out.push(tag(Issue::new(
                Code::ToolCallInvalidResult,
                format!(
                    "tools/call {name} result content must be an array, found {}",
                    other.map_or("nothing", describe)
                ),
            ))),
        }
        let is_error = match result.get("isError") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                out.push(tag(Issue::new(
                    Code::ToolCallInvalidResult,
                    format!(
                        "tools/call {name} result isError must be a boolean, not {}",
                        describe(other)
                    ),
                )));
                false
            }
        };
        if is_error {
            let text = text_of(result);
            out.push(tag(Issue::new(
                Code::ToolCallError,
                format!(
                    "tool {name} reported an error: {}",
                    crate::escape::quote(text.as_bytes())
                ),
            )));
            continue;
        }
        let Some(schema) = tool_for(&tools, op).and_then(|t| t.get("outputSchema")) else {
            continue;
        };
        let Some(content) = result.get("structuredContent") else {
            out.push(tag(Issue::new(
                Code::ToolCallStructuredContentMissing,
                format!(
                    "tool {name} declares an outputSchema but its result has no structuredContent"
                ),
            )));
            continue;
        };
        let v = schema::validate(content, schema);
        if !v.errors.is_empty() {
            out.push(
                tag(Issue::new(
                    Code::ToolCallStructuredContentInvalid,
                    format!(
                        "tool {name} structuredContent does not match its outputSchema: {}",
                        v.errors.join("; ")
                    ),
                ))
                .with("notChecked", v.unchecked),
            );
        }
    }
}
