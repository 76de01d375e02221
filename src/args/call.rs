//! The `call` command's tool and arguments: `--args` JSON and
//! `--arg NAME=VALUE` pairs, typed from the tool's `inputSchema` (integer,
//! number, boolean, string; objects and arrays as JSON) and refused, with a
//! reason, before anything is sent when the tool or an argument does not
//! exist or a value does not fit. Pure.

use serde_json::{Map, Value};

/// The tool `call` calls and the arguments as given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CallSpec {
    pub tool: String,
    /// `--arg NAME=VALUE`, in order; typed later from the tool's schema.
    pub args: Vec<(String, String)>,
    /// `--args JSON`: an object the `--arg` values are merged over.
    pub args_json: Option<Map<String, Value>>,
    /// `--raw-args JSON`: the `arguments` sent exactly as given (any JSON,
    /// an array or a wrong type included), nothing checked first: how a
    /// robustness finding's call is replayed.
    pub raw: Option<Value>,
}

/// The `arguments` object for `tools/call`, or why there is none.
pub fn arguments(tools: &[Value], spec: &CallSpec) -> Result<Value, String> {
    if let Some(raw) = &spec.raw {
        return Ok(raw.clone());
    }
    let Some(tool) = tools
        .iter()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(spec.tool.as_str()))
    else {
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        return Err(if names.is_empty() {
            format!(
                "the server lists no tools, so there is no tool '{}'",
                spec.tool
            )
        } else {
            let guess = crate::args::words::closest(&spec.tool, names.iter().copied(), 3)
                .map(|n| format!("did you mean '{n}'? "))
                .unwrap_or_default();
            format!(
                "the server has no tool '{}'; {guess}its tools: {}",
                spec.tool,
                names.join(", ")
            )
        });
    };
    let schema = tool.get("inputSchema");
    let properties = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let open = schema
        .and_then(|s| s.get("additionalProperties"))
        .is_none_or(|a| a != &Value::Bool(false))
        && properties.is_none_or(Map::is_empty);
    let mut args: Map<String, Value> = spec.args_json.clone().unwrap_or_default();
    for (name, raw) in &spec.args {
        let prop = properties.and_then(|p| p.get(name));
        if prop.is_none() && !open {
            let known: Vec<&str> = properties
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            return Err(format!(
                "tool '{}' has no argument '{name}'; its arguments: {}",
                spec.tool,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
        let value = typed(raw, prop.and_then(|p| p.get("type")))
            .map_err(|why| format!("--arg {name}={raw}: {why}"))?;
        args.insert(name.clone(), value);
    }
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let missing: Vec<&str> = required
        .into_iter()
        .filter(|r| !args.contains_key(*r))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "tool '{}' requires {}; give it with --arg NAME=VALUE",
            spec.tool,
            missing.join(", ")
        ));
    }
    Ok(Value::Object(args))
}

/// Converts one `--arg` value to the JSON type its schema names.
fn typed(raw: &str, ty: Option<&Value>) -> Result<Value, String> {
    let types: Vec<&str> = match ty {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let parsed = serde_json::from_str::<Value>(raw).ok();
    let fits = |v: &Value, t: &str| match t {
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "null" => v.is_null(),
        _ => false,
    };
    if types.is_empty() {
        // No type: JSON when it parses, else the text.
        return Ok(parsed.unwrap_or_else(|| Value::String(raw.to_string())));
    }
    if let Some(v) = &parsed
        && types.iter().any(|t| *t != "string" && fits(v, t))
    {
        return Ok(v.clone());
    }
    if types.contains(&"string") {
        return Ok(Value::String(raw.to_string()));
    }
    Err(format!("expected {}", types.join(" or ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(args: &[(&str, &str)]) -> CallSpec {
        CallSpec {
            tool: "add".into(),
            args: args
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            args_json: None,
            raw: None,
        }
    }

    fn tools() -> Vec<Value> {
        vec![json!({"name": "add", "inputSchema": {"type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "number"},
                "label": {"type": "string"}, "flag": {"type": "boolean"}, "tags": {"type": "array"}},
            "required": ["a"]}})]
    }

    #[test]
    fn values_are_typed_from_the_schema() {
        let args = arguments(
            &tools(),
            &spec(&[
                ("a", "2"),
                ("b", "2.5"),
                ("label", "42"),
                ("flag", "true"),
                ("tags", "[\"x\"]"),
            ]),
        )
        .expect("fits");
        assert_eq!(
            args,
            json!({"a": 2, "b": 2.5, "label": "42", "flag": true, "tags": ["x"]})
        );
    }

    #[test]
    fn unknown_tools_arguments_and_bad_values_are_refused() {
        let mut s = spec(&[("a", "1")]);
        s.tool = "sub".into();
        assert_eq!(
            arguments(&tools(), &s).expect_err("refused"),
            "the server has no tool 'sub'; did you mean 'add'? its tools: add"
        );
        assert!(
            arguments(&tools(), &spec(&[("a", "1"), ("c", "1")]))
                .expect_err("refused")
                .contains("no argument 'c'")
        );
        assert!(
            arguments(&tools(), &spec(&[("a", "x")]))
                .expect_err("refused")
                .contains("expected integer")
        );
        assert!(
            arguments(&tools(), &spec(&[]))
                .expect_err("refused")
                .contains("requires a")
        );
    }
}
