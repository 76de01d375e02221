//! The catalog: every successful list result, from a probe or from an
//! explicit request, joined page by page. Tools get the full treatment
//! (names, input and output schemas, descriptions) and the `toolSchema`
//! summary of the report; resources, resource templates and prompts get
//! the shape checks of their required members.

use serde_json::{Map, Value};

use crate::checks::{Code, Context, Group, Issue, Severity};
use crate::jsonrpc::describe;
use crate::mcp::{self, LISTS, ListSpec};
use crate::session::transcript::Transcript;

/// The spec's SHOULD for tool names: `^[A-Za-z0-9_.-]{1,128}$`.
const TOOL_NAME_MAX: usize = 128;

/// The items of one list, in page order, with whether any page had a
/// usable result at all.
struct Items<'a> {
    checked: bool,
    items: Vec<&'a Value>,
}

/// Joins the pages of one list; reports pages whose result has no array.
fn items<'a>(tr: &'a Transcript, spec: &ListSpec, out: &mut Vec<Issue>) -> Items<'a> {
    let mut all = Items {
        checked: false,
        items: Vec::new(),
    };
    for (page, record) in tr.list_chain(spec.method).iter().enumerate() {
        let Some(result) = &record.result else {
            break;
        };
        match result.get(spec.items).and_then(Value::as_array) {
            Some(list) => {
                all.checked = true;
                all.items.extend(list.iter());
            }
            None => {
                let code = if spec.method == "tools/list" {
                    Code::ToolsListInvalidResult
                } else {
                    Code::CapabilityListInvalidResult
                };
                let found = result.get(spec.items).map_or("nothing", describe);
                out.push(
                    Issue::new(
                        code,
                        format!(
                            "{} result page {} must have a {} array, found {found}",
                            spec.method,
                            page + 1,
                            spec.items
                        ),
                    )
                    .with("method", spec.method),
                );
                break;
            }
        }
    }
    all
}

pub fn check(ctx: &Context, tr: &Transcript, out: &mut Vec<Issue>) {
    let version = mcp::effective_version(&ctx.protocol, tr.negotiated_protocol());
    for spec in &LISTS {
        let list = items(tr, spec, out);
        match spec.method {
            "tools/list" => tools(&list.items, version, out),
            "resources/list" => named_items(&list.items, spec, "uri", Code::ResourceInvalid, out),
            "resources/templates/list" => named_items(
                &list.items,
                spec,
                "uriTemplate",
                Code::ResourceTemplateInvalid,
                out,
            ),
            _ => prompts(&list.items, out),
        }
    }
}

fn tool_name(tool: &Value) -> &str {
    tool.get("name").and_then(Value::as_str).unwrap_or("")
}

fn tools(tools: &[&Value], version: &str, out: &mut Vec<Issue>) {
    let mut first_index: std::collections::HashMap<&str, usize> = Default::default();
    for (index, tool) in tools.iter().enumerate() {
        let Some(obj) = tool.as_object() else {
            out.push(
                Issue::new(
                    Code::ToolsListInvalidResult,
                    format!(
                        "tools/list item {index} must be an object, not {}",
                        describe(tool)
                    ),
                )
                .with("toolIndex", index),
            );
            continue;
        };
        let name = tool_name(tool);
        let tag = |issue: Issue| issue.with("toolIndex", index).with("toolName", name);
        if let Some(issue) = name_issue(obj.get("name"), index) {
            out.push(tag(issue));
        }
        if obj.get("name").is_some_and(Value::is_string) {
            match first_index.get(name) {
                Some(&first) => out.push(
                    tag(Issue::new(
                        Code::ToolNameDuplicate,
                        format!("tools/list returned duplicate tool name \"{name}\""),
                    ))
                    .with("firstToolIndex", first),
                ),
                None => {
                    first_index.insert(name, index);
                }
            }
        }
        input_schema(obj.get("inputSchema"), name, out, &tag);
        if let Some(schema) = obj.get("outputSchema")
            && let Some(problem) = output_schema_problem(schema, version)
        {
            out.push(tag(Issue::new(
                Code::ToolOutputSchemaInvalid,
                format!("tool \"{name}\" outputSchema {problem}"),
            )));
        }
        let described = obj
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty());
        if !described {
            out.push(tag(Issue::new(Code::ToolDescriptionMissing,
                format!("tool \"{name}\" has no description; clients and models rely on it to choose tools"),
            )));
        }
    }
}

fn name_issue(name: Option<&Value>, index: usize) -> Option<Issue> {
    let text = match name {
        None => {
            return Some(Issue::new(
                Code::ToolNameInvalid,
                format!("tools/list item {index} has no name"),
            ));
        }
        Some(Value::String(s)) => s,
        Some(other) => {
            return Some(Issue::new(
                Code::ToolNameInvalid,
                format!(
                    "tools/list item {index} name must be a string, not {}",
                    describe(other)
                ),
            ));
        }
    };
    if text.is_empty() {
        return Some(Issue::new(
            Code::ToolNameInvalid,
            format!("tools/list item {index} has an empty name"),
        ));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if text.chars().count() > TOOL_NAME_MAX || !text.chars().all(allowed) {
        return Some(
            Issue::new(Code::ToolNameInvalid,
                format!(
                    "tool name \"{text}\" should be 1 to {TOOL_NAME_MAX} characters of A-Z, a-z, 0-9, _, . and - (spaces, commas and slashes break some clients)"
                ),
            )
            .at(Severity::Warning),
        );
    }
    None
}

/// Checks `properties` and `required` of an object schema: what is wrong
/// with their shape, and which required names are not defined.
fn object_members(schema: &Map<String, Value>) -> Result<Vec<&str>, String> {
    let properties = match schema.get("properties") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(other) => {
            return Err(format!(
                "properties must be an object, not {}",
                describe(other)
            ));
        }
    };
    if let Some((key, value)) = properties
        .into_iter()
        .flatten()
        .find(|(_, v)| !v.is_object() && !v.is_boolean())
    {
        return Err(format!(
            "property \"{key}\" must be a schema object, not {}",
            describe(value)
        ));
    }
    let required = match schema.get("required") {
        None => return Ok(Vec::new()),
        Some(Value::Array(r)) => r,
        Some(other) => {
            return Err(format!(
                "required must be an array, not {}",
                describe(other)
            ));
        }
    };
    let mut missing = Vec::new();
    for entry in required {
        let Some(name) = entry.as_str() else {
            return Err(format!(
                "required must list property names, not {}",
                describe(entry)
            ));
        };
        if !properties.is_some_and(|p| p.contains_key(name)) {
            missing.push(name);
        }
    }
    Ok(missing)
}

fn input_schema(
    schema: Option<&Value>,
    name: &str,
    out: &mut Vec<Issue>,
    tag: &dyn Fn(Issue) -> Issue,
) {
    let invalid = |problem: String| {
        tag(Issue::new(
            Code::ToolInputSchemaInvalid,
            format!("tool \"{name}\" inputSchema {problem}"),
        ))
        .with("schemaPath", "inputSchema")
    };
    let Some(schema) = schema else {
        out.push(invalid(
            "is missing; every tool needs an object schema, {\"type\": \"object\"} at least".into(),
        ));
        return;
    };
    let Some(obj) = schema.as_object() else {
        out.push(invalid(format!(
            "must be an object, not {}",
            describe(schema)
        )));
        return;
    };
    match obj.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            out.push(invalid(format!("type must be \"object\", not {other}")));
            return;
        }
        None => {
            out.push(invalid("has no type; it must be \"object\"".into()));
            return;
        }
    }
    match object_members(obj) {
        Err(problem) => out.push(invalid(problem)),
        Ok(missing) => {
            for property in missing {
                out.push(
                    tag(Issue::new(
                        Code::ToolInputSchemaRequiredMissing,
                        format!("inputSchema.required references missing property \"{property}\""),
                    ))
                    .with("schemaPath", "inputSchema")
                    .with("propertyName", property),
                );
            }
        }
    }
}

/// What is wrong with an `outputSchema`, if anything. Before 2026-07-28 the
/// root must be an object schema.
fn output_schema_problem(schema: &Value, version: &str) -> Option<String> {
    let Some(obj) = schema.as_object() else {
        return Some(format!("must be an object, not {}", describe(schema)));
    };
    let object_root = obj.get("type") == Some(&Value::from("object"));
    if !mcp::at_least(version, mcp::MODERN_VERSION) && !object_root {
        let found = obj
            .get("type")
            .map_or("no type".to_string(), |t| format!("type {t}"));
        return Some(format!(
            "must have type \"object\" at the root under {version}, found {found}"
        ));
    }
    if !object_root {
        return None;
    }
    match object_members(obj) {
        Err(problem) => Some(problem),
        Ok(missing) => missing
            .first()
            .map(|p| format!("required references missing property \"{p}\"")),
    }
}

/// Resources and resource templates: objects with a string `key` (the uri
/// or uriTemplate, not empty) and a string `name`.
fn named_items(items: &[&Value], spec: &ListSpec, key: &str, code: Code, out: &mut Vec<Issue>) {
    for (index, item) in items.iter().enumerate() {
        let problem = match item.as_object() {
            None => Some(format!("must be an object, not {}", describe(item))),
            Some(obj) => match (obj.get(key), obj.get("name")) {
                (Some(Value::String(u)), Some(Value::String(_))) if !u.is_empty() => None,
                (Some(Value::String(u)), _) if u.is_empty() => Some(format!("has an empty {key}")),
                (Some(Value::String(_)), name) => Some(match name {
                    None => "has no name".to_string(),
                    Some(n) => format!("name must be a string, not {}", describe(n)),
                }),
                (None, _) => Some(format!("has no {key}")),
                (Some(other), _) => {
                    Some(format!("{key} must be a string, not {}", describe(other)))
                }
            },
        };
        if let Some(problem) = problem {
            out.push(
                Issue::new(code, format!("{} item {index} {problem}", spec.method))
                    .with("method", spec.method)
                    .with("itemIndex", index),
            );
        }
    }
}

fn prompts(items: &[&Value], out: &mut Vec<Issue>) {
    for (index, item) in items.iter().enumerate() {
        if let Some(problem) = prompt_problem(item) {
            out.push(
                Issue::new(
                    Code::PromptInvalid,
                    format!("prompts/list item {index} {problem}"),
                )
                .with("method", "prompts/list")
                .with("itemIndex", index),
            );
        }
    }
}

fn prompt_problem(item: &Value) -> Option<String> {
    let Some(obj) = item.as_object() else {
        return Some(format!("must be an object, not {}", describe(item)));
    };
    match obj.get("name") {
        Some(Value::String(n)) if !n.is_empty() => {}
        Some(Value::String(_)) => return Some("has an empty name".into()),
        None => return Some("has no name".into()),
        Some(other) => return Some(format!("name must be a string, not {}", describe(other))),
    }
    let arguments = match obj.get("arguments") {
        None => return None,
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Some(format!(
                "arguments must be an array, not {}",
                describe(other)
            ));
        }
    };
    for (i, arg) in arguments.iter().enumerate() {
        if !arg.get("name").is_some_and(Value::is_string) {
            return Some(format!("argument {i} has no string name"));
        }
    }
    None
}

/// The report's `toolSchema` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolSummary {
    pub checked: bool,
    pub tool_count: usize,
    /// Unique names, in list order.
    pub tool_names: Vec<String>,
    pub valid_tool_count: usize,
    pub warning_count: usize,
    pub error_count: usize,
    pub duplicate_names: Vec<String>,
}

/// Sums up the tool list and the tool-schema issues found on it.
pub fn tool_summary(tr: &Transcript, issues: &[Issue]) -> ToolSummary {
    let spec = &LISTS[0];
    let list = items(tr, spec, &mut Vec::new());
    let mut summary = ToolSummary {
        checked: list.checked,
        tool_count: list.items.len(),
        ..ToolSummary::default()
    };
    let mut seen = std::collections::HashSet::new();
    let mut duplicated = std::collections::HashSet::new();
    for tool in &list.items {
        let name = tool_name(tool);
        if tool.get("name").is_some_and(Value::is_string) {
            if !seen.insert(name) {
                if duplicated.insert(name) {
                    summary.duplicate_names.push(name.to_string());
                }
            } else {
                summary.tool_names.push(name.to_string());
            }
        }
    }
    let mut broken = std::collections::HashSet::new();
    for issue in issues.iter().filter(|i| i.in_group(Group::ToolSchema)) {
        if issue.is_error() {
            summary.error_count += 1;
            let index = issue
                .details
                .iter()
                .find(|(k, _)| *k == "toolIndex")
                .and_then(|(_, v)| v.as_u64());
            if let Some(index) = index {
                broken.insert(index);
            }
        } else {
            summary.warning_count += 1;
        }
    }
    summary.valid_tool_count = summary.tool_count.saturating_sub(broken.len());
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::transcript::OpRecord;
    use serde_json::json;

    fn ctx() -> Context {
        Context::for_tests()
    }

    fn listed(method: &str, result: Value) -> Vec<Issue> {
        let mut tr = Transcript::for_tests();
        let mut page = OpRecord::new(method, None, crate::plan::OpSource::CapabilityProbe);
        page.responded = true;
        page.result = Some(result);
        tr.probes.push(page);
        let mut out = Vec::new();
        check(&ctx(), &tr, &mut out);
        out
    }

    fn codes(method: &str, result: Value) -> Vec<(&'static str, &'static str)> {
        listed(method, result)
            .iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect()
    }

    fn tool(name: &str) -> Value {
        json!({"name": name, "description": "d", "inputSchema": {"type": "object"}})
    }

    #[test]
    fn well_formed_tools_pass() {
        let t = json!({"tools": [
            tool("read_file"),
            {"name": "search.v2", "description": "d",
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
             "outputSchema": {"type": "object", "properties": {"hits": {"type": "array"}}}},
        ]});
        assert!(codes("tools/list", t).is_empty());
    }

    #[test]
    fn duplicate_and_invalid_names() {
        let t = json!({"tools": [tool("echo"), tool("echo"), tool(""), tool("my tool")]});
        let issues = listed("tools/list", t);
        let dup = issues
            .iter()
            .find(|i| i.code == "tool-name-duplicate")
            .expect("dup");
        assert_eq!(
            dup.message,
            "tools/list returned duplicate tool name \"echo\""
        );
        assert!(dup.details.contains(&("firstToolIndex", json!(0))));
        let got: Vec<_> = issues
            .iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("tool-name-duplicate", "error"),
                ("tool-name-invalid", "error"),
                ("tool-name-invalid", "warning"),
            ]
        );
    }

    #[test]
    fn input_schema_rules() {
        let with = |schema: Value| json!({"tools": [{"name": "t", "description": "d", "inputSchema": schema}]});
        let bad = [("tool-input-schema-invalid", "error")];
        assert_eq!(
            codes(
                "tools/list",
                json!({"tools": [{"name": "t", "description": "d"}]})
            ),
            bad
        );
        assert_eq!(codes("tools/list", with(json!("object"))), bad);
        assert_eq!(codes("tools/list", with(json!({"type": "array"}))), bad);
        assert_eq!(
            codes(
                "tools/list",
                with(json!({"type": "object", "properties": []}))
            ),
            bad
        );
        assert_eq!(
            codes(
                "tools/list",
                with(json!({"type": "object", "required": "q"}))
            ),
            bad
        );
        let issues = listed(
            "tools/list",
            with(json!({"type": "object", "properties": {"a": {}}, "required": ["a", "query"]})),
        );
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "tool-input-schema-required-missing");
        assert_eq!(
            issues[0].message,
            "inputSchema.required references missing property \"query\""
        );
    }

    #[test]
    fn output_schema_must_be_an_object_schema_before_the_stateless_revision() {
        let with = |schema: Value| json!({"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}, "outputSchema": schema}]});
        let bad = [("tool-output-schema-invalid", "error")];
        assert_eq!(codes("tools/list", with(json!({"type": "array"}))), bad);
        assert_eq!(codes("tools/list", with(json!(true))), bad);
        assert_eq!(
            codes(
                "tools/list",
                with(json!({"type": "object", "required": ["x"]}))
            ),
            bad
        );
    }

    #[test]
    fn a_missing_description_is_a_warning() {
        let t = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
        assert_eq!(
            codes("tools/list", t),
            [("tool-description-missing", "warning")]
        );
    }

    #[test]
    fn results_without_item_arrays_are_invalid() {
        assert_eq!(
            codes("tools/list", json!({"tools": {}})),
            [("tools-list-invalid-result", "error")]
        );
        assert_eq!(
            codes("prompts/list", json!({})),
            [("capability-list-invalid-result", "error")]
        );
    }

    #[test]
    fn resources_templates_and_prompts_need_their_members() {
        assert!(
            codes(
                "resources/list",
                json!({"resources": [{"uri": "file:///a", "name": "a"}]})
            )
            .is_empty()
        );
        assert_eq!(
            codes("resources/list", json!({"resources": [{"name": "a"}]})),
            [("resource-invalid", "error")]
        );
        assert_eq!(
            codes(
                "resources/templates/list",
                json!({"resourceTemplates": [{"uriTemplate": "file:///{p}"}]})
            ),
            [("resource-template-invalid", "error")]
        );
        assert!(
            codes(
                "prompts/list",
                json!({"prompts": [{"name": "p", "arguments": [{"name": "x"}]}]})
            )
            .is_empty()
        );
        assert_eq!(
            codes(
                "prompts/list",
                json!({"prompts": [{"name": "p", "arguments": [{"required": true}]}]})
            ),
            [("prompt-invalid", "error")]
        );
    }

    #[test]
    fn the_summary_counts_tools_names_and_broken_tools() {
        let mut tr = Transcript::for_tests();
        let mut page = OpRecord::new("tools/list", None, crate::plan::OpSource::CapabilityProbe);
        page.result = Some(json!({"tools": [tool("a"), tool("b"), tool("a"), {"name": "c"}]}));
        tr.probes.push(page);
        let mut issues = Vec::new();
        check(&ctx(), &tr, &mut issues);
        let s = tool_summary(&tr, &issues);
        assert!(s.checked);
        assert_eq!(s.tool_count, 4);
        assert_eq!(s.tool_names, ["a", "b", "c"]);
        assert_eq!(s.duplicate_names, ["a"]);
        // The duplicate and c's missing schema are errors; c's description a warning.
        assert_eq!(
            (s.error_count, s.warning_count, s.valid_tool_count),
            (2, 1, 2)
        );
    }
}
