//! The robustness probe's calls, generated from each tool's own
//! `inputSchema`, deterministically: invalid ones for every tool a correct
//! server refuses without acting (each required property missing, a
//! property of a wrong JSON type, a value outside its `enum`, `const`,
//! range or length, an unknown property where `additionalProperties` is
//! false, `arguments` that are not an object), one call of a tool the server
//! does not list, and valid ones (boundaries, every `enum` value, Unicode
//! and long strings within limits) only for tools safe to run. A tool not
//! annotated read-only gets no call unless the user opts in (see `plan`). Every
//! generated argument set is checked against the schema (`schema`): an
//! invalid one must break it for certain, a valid one must not break what
//! can be checked. Pure.

use serde_json::{Map, Value, json};

use crate::args::settings::RobustnessSpec;
use crate::checks::schema;

/// What a call is expected to get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Input its schema rejects: a -32602 error or an `isError` result.
    Refusal,
    /// Valid input: an answer (a result, or the tool's own error).
    Answer,
}

/// One call to make.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedCall {
    pub tool: String,
    /// The `arguments` sent (not always an object).
    pub arguments: Value,
    pub expect: Expect,
    /// What the call tries, for the report (`required property "path" missing`).
    pub what: String,
}

/// A tool that gets no call, or fewer, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct NotCalled {
    pub tool: String,
    pub reason: String,
}

/// The phase's calls, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CallPlan {
    pub calls: Vec<PlannedCall>,
    pub not_called: Vec<NotCalled>,
}

/// The name no server lists.
pub const NO_SUCH_TOOL: &str = "mcp-stdio-guard-no-such-tool";

/// Invalid calls per tool, at most.
const INVALID_PER_TOOL: usize = 12;
/// Properties given a wrong type, at most.
const WRONG_TYPES: usize = 6;
/// How deep generation and `$ref` resolution go.
const MAX_DEPTH: usize = 8;
/// The longest string generated.
const LONG: usize = 1000;

/// Property names that say a tool reaches out (it would fetch what is
/// generated): a tool with one is not called with valid input unless named.
const REACHES_OUT: &[&str] = &[
    "url", "uri", "href", "endpoint", "host", "hostname", "domain", "webhook", "link", "address",
    "ip", "server", "remote", "website", "site",
];

fn annotation(tool: &Value, key: &str) -> Option<bool> {
    tool.pointer(&format!("/annotations/{key}"))
        .and_then(Value::as_bool)
}

/// Whether a tool is marked destructive (and not read-only).
pub fn destructive(tool: &Value) -> bool {
    annotation(tool, "destructiveHint") == Some(true)
        && annotation(tool, "readOnlyHint") != Some(true)
}

/// `schema` with every local `$ref` (`#/…`) replaced by what it points to,
/// to `MAX_DEPTH` levels.
pub fn inline(root: &Value) -> Value {
    fn walk(node: &Value, root: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return node.clone();
        }
        match node {
            Value::Object(map) => {
                if let Some(target) = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix('#'))
                    .and_then(|p| root.pointer(p))
                {
                    return walk(target, root, depth + 1);
                }
                Value::Object(
                    map.iter()
                        .map(|(k, v)| (k.clone(), walk(v, root, depth + 1)))
                        .collect(),
                )
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| walk(v, root, depth + 1)).collect())
            }
            other => other.clone(),
        }
    }
    walk(root, root, 0)
}

fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The first alternative of an `anyOf`/`oneOf` that is not `null`.
fn alternative(schema: &Value, variant: usize) -> Option<&Value> {
    let alts = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)?;
    let usable: Vec<&Value> = alts.iter().filter(|a| types(a) != ["null"]).collect();
    usable
        .get(variant % usable.len().max(1))
        .copied()
        .or(alts.first())
}

fn num(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

fn string_value(schema: &Value, variant: usize) -> Option<Value> {
    if schema.get("pattern").is_some() {
        return None;
    }
    let min = num(schema, "minLength").unwrap_or(0.0) as usize;
    let max = num(schema, "maxLength").map_or(LONG, |m| (m as usize).min(LONG));
    if min > max {
        return None;
    }
    let formatted = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => Some("2026-01-01T00:00:00Z"),
        Some("date") => Some("2026-01-01"),
        Some("time") => Some("00:00:00Z"),
        Some("email") => Some("someone@example.invalid"),
        Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
        Some(_) => return None,
        None => None,
    };
    if let Some(f) = formatted {
        return Some(Value::from(f));
    }
    let candidates = [
        "mcp-stdio-guard".to_string(),
        String::new(),
        "Grüße ✓ 日本語 🙂".to_string(),
        "x".repeat(max.min(LONG)),
    ];
    let mut s = candidates[variant % candidates.len()].clone();
    let len = s.chars().count();
    if len < min {
        s.push_str(&"x".repeat(min - len));
    } else if len > max {
        s = s.chars().take(max).collect();
    }
    Some(Value::from(s))
}

/// `x` as JSON: an integer as an integer (`-1`, never `-1.0`, which an
/// SDK refuses as a non-integer before the tool sees it).
fn number(x: f64, integer: bool) -> Option<Value> {
    let whole = x.fract() == 0.0 && x.abs() < 9.0e15;
    if whole && (integer || x.abs() < 1.0e15) {
        return Some(Value::from(x as i64));
    }
    serde_json::Number::from_f64(x).map(Value::Number)
}

fn number_value(schema: &Value, variant: usize, integer: bool) -> Option<Value> {
    let lo = num(schema, "minimum").or_else(|| num(schema, "exclusiveMinimum").map(|m| m + 1.0));
    let hi = num(schema, "maximum").or_else(|| num(schema, "exclusiveMaximum").map(|m| m - 1.0));
    let picks = [
        lo.unwrap_or(0.0),
        hi.unwrap_or(1.0),
        1.0,
        lo.map_or(2.0, |l| l + 1.0),
    ];
    let mut x = picks[variant % picks.len()];
    if let Some(l) = lo {
        x = x.max(l);
    }
    if let Some(h) = hi {
        x = x.min(h);
    }
    if integer {
        x = x.ceil();
        if hi.is_some_and(|h| x > h) {
            return None;
        }
    }
    number(x, integer)
}

/// A value `schema` accepts, varied by `variant`; `None` when none can be
/// made with confidence (a `pattern`, an unknown `format`).
pub fn valid_value(schema: &Value, variant: usize, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(c) = schema.get("const") {
        return Some(c.clone());
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return options.get(variant % options.len().max(1)).cloned();
    }
    if variant == 0
        && let Some(d) = schema.get("default")
    {
        return Some(d.clone());
    }
    if let Some(alt) = alternative(schema, variant) {
        return valid_value(alt, variant, depth + 1);
    }
    let ty = types(schema).into_iter().find(|t| *t != "null");
    match ty {
        Some("string") => string_value(schema, variant),
        Some("integer") => number_value(schema, variant, true),
        Some("number") => number_value(schema, variant, false),
        Some("boolean") => Some(Value::Bool(variant % 2 == 0)),
        Some("array") => {
            let min = num(schema, "minItems").unwrap_or(0.0) as usize;
            let want = if variant % 2 == 0 { min } else { min.max(1) };
            let item = schema.get("items").unwrap_or(&Value::Bool(true));
            let items: Option<Vec<Value>> = (0..want)
                .map(|i| valid_value(item, variant + i, depth + 1))
                .collect();
            items.map(Value::Array)
        }
        Some("object") => valid_object(schema, variant, depth),
        Some("null") => Some(Value::Null),
        None if schema.get("properties").is_some() => valid_object(schema, variant, depth),
        _ => Some(Value::from("mcp-stdio-guard")),
    }
}

/// An object with every required property (and, from the third variant on,
/// the optional ones too).
fn valid_object(schema: &Value, variant: usize, depth: usize) -> Option<Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            let needed = required.contains(&name.as_str());
            if needed || variant >= 2 {
                match valid_value(sub, variant, depth + 1) {
                    Some(v) => {
                        out.insert(name.clone(), v);
                    }
                    None if needed => return None,
                    None => {}
                }
            }
        }
    }
    if required.iter().any(|r| !out.contains_key(*r)) {
        return None;
    }
    Some(Value::Object(out))
}

/// A value of a JSON type `schema` does not allow (an object for a
/// primitive, an array for an object), when its `type` says so plainly.
fn wrong_type(schema: &Value) -> Option<Value> {
    if schema.get("anyOf").is_some()
        || schema.get("oneOf").is_some()
        || schema.get("allOf").is_some()
    {
        return None;
    }
    let ts = types(schema);
    if ts.is_empty() {
        return None;
    }
    if !ts.contains(&"object") {
        Some(json!({"unexpected": "object"}))
    } else if !ts.contains(&"array") {
        Some(json!(["unexpected", "array"]))
    } else {
        None
    }
}

/// Values outside a property's `enum`, `const`, range or length.
fn out_of_bounds(schema: &Value) -> Vec<(Value, String)> {
    let mut out = Vec::new();
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if options.iter().all(Value::is_string) {
            out.push((
                Value::from("mcp-stdio-guard-not-in-enum"),
                "a value outside its enum".into(),
            ));
        } else if options.iter().all(Value::is_number) {
            let max = options
                .iter()
                .filter_map(Value::as_f64)
                .fold(f64::MIN, f64::max);
            if let Some(n) = number((max + 1.0).floor(), true) {
                out.push((n, "a value outside its enum".into()));
            }
        }
    }
    if let Some(c) = schema.get("const") {
        let other = if c.is_string() {
            json!("mcp-stdio-guard-not-the-const")
        } else {
            json!(null)
        };
        out.push((other, "a value other than its const".into()));
    }
    let integer = types(schema).contains(&"integer");
    let step = if integer { 1.0 } else { 0.5 };
    // Just past each bound; an exclusive bound is itself outside.
    let below = num(schema, "minimum")
        .map(|m| (m - step, m))
        .or_else(|| num(schema, "exclusiveMinimum").map(|m| (m, m)));
    if let Some((x, m)) = below
        && let Some(n) = number(x, integer)
    {
        out.push((n.clone(), format!("{n} under its minimum {m}")));
    }
    let above = num(schema, "maximum")
        .map(|m| (m + step, m))
        .or_else(|| num(schema, "exclusiveMaximum").map(|m| (m, m)));
    if let Some((x, m)) = above
        && let Some(n) = number(x, integer)
    {
        out.push((n.clone(), format!("{n} over its maximum {m}")));
    }
    if num(schema, "minLength").is_some_and(|m| m >= 1.0) {
        out.push((
            Value::from(""),
            "an empty string under its minLength".into(),
        ));
    }
    if let Some(m) = num(schema, "maxLength").filter(|m| *m < 4096.0) {
        out.push((
            Value::from("x".repeat(m as usize + 1)),
            format!("a string over its maxLength {m}"),
        ));
    }
    out
}

/// The invalid calls of one tool: each certainly breaks its schema.
fn invalid_calls(name: &str, schema: &Value) -> Vec<PlannedCall> {
    let base = valid_value(schema, 0, 0)
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let mut tries: Vec<(Value, String)> = Vec::new();
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    for r in &required {
        let mut args = base.clone();
        if let Some(map) = args.as_object_mut() {
            map.remove(r);
        }
        tries.push((args, format!("required property \"{r}\" missing")));
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (prop, sub) in props.iter().take(WRONG_TYPES) {
            let mut variants: Vec<(Value, String)> = Vec::new();
            if let Some(v) = wrong_type(sub) {
                variants.push((v, format!("property \"{prop}\" of the wrong type")));
            }
            variants.extend(
                out_of_bounds(sub)
                    .into_iter()
                    .map(|(v, why)| (v, format!("property \"{prop}\": {why}"))),
            );
            for (value, what) in variants {
                let mut args = base.clone();
                if let Some(map) = args.as_object_mut() {
                    map.insert(prop.clone(), value);
                }
                tries.push((args, what));
            }
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut args = base.clone();
        if let Some(map) = args.as_object_mut() {
            map.insert("mcpStdioGuardUnknown".into(), Value::from(1));
        }
        tries.push((
            args,
            "an unknown property where additionalProperties is false".into(),
        ));
    }
    tries
        .into_iter()
        .filter(|(args, _)| !args.is_object() || !schema::validate(args, schema).errors.is_empty())
        .take(INVALID_PER_TOOL)
        .map(|(arguments, what)| PlannedCall {
            tool: name.to_string(),
            arguments,
            expect: Expect::Refusal,
            what,
        })
        .collect()
}

/// Up to `samples` distinct valid argument sets, each passing what the
/// schema subset checks.
fn valid_calls(name: &str, schema: &Value, samples: u64, seed: u64) -> Vec<PlannedCall> {
    let mut out: Vec<PlannedCall> = Vec::new();
    for k in 0..samples.saturating_mul(3) {
        if out.len() as u64 >= samples {
            break;
        }
        let variant = (k.wrapping_add(seed) % 16) as usize;
        let Some(args) = valid_value(schema, variant, 0).filter(Value::is_object) else {
            continue;
        };
        if !schema::validate(&args, schema).errors.is_empty()
            || out.iter().any(|c| c.arguments == args)
        {
            continue;
        }
        out.push(PlannedCall {
            tool: name.to_string(),
            arguments: args,
            expect: Expect::Answer,
            what: format!("valid input, variant {variant}"),
        });
    }
    out
}

/// Whether a tool's schema names a property that reaches out (a URL, a
/// host): `url`, `base_url`, `baseUrl`, a `uri` format.
fn reaches_out(schema: &Value) -> bool {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    props.iter().any(|(k, v)| {
        let k = k.to_ascii_lowercase();
        let named = REACHES_OUT.iter().any(|r| {
            k == *r
                || k.starts_with(&format!("{r}_"))
                || k.ends_with(&format!("_{r}"))
                || (r.len() >= 3 && k.ends_with(r))
        });
        named
            || matches!(
                v.get("format").and_then(Value::as_str),
                Some("uri" | "url" | "hostname" | "ipv4" | "ipv6" | "uri-reference")
            )
    })
}

/// The calls for `tools` under `spec`. No call at all, valid or invalid,
/// goes to a tool that is not annotated `readOnlyHint: true` (MCP's
/// default for a tool without annotations is that it may be destructive
/// and reach an open world: an SDK that drops an unknown key runs it),
/// unless the user names it (`--robustness-tool`) or allows side effects.
/// `sandboxed` (`--confine enforce` where the kernel holds writes and the
/// network) lets such a tool have the invalid-input calls; one marked
/// `destructiveHint: true` never gets a call without the opt-in.
pub fn plan(tools: &[Value], spec: &RobustnessSpec, sandboxed: bool) -> CallPlan {
    const OPT_IN: &str = "name it with --robustness-tool or pass --allow-side-effects";
    let mut out = CallPlan::default();
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let schema = inline(tool.get("inputSchema").unwrap_or(&Value::Null));
        let opted = spec.allow_side_effects || spec.tools.iter().any(|t| t == name);
        let read_only = annotation(tool, "readOnlyHint") == Some(true)
            && annotation(tool, "destructiveHint") != Some(true);
        if !opted && destructive(tool) {
            out.not_called.push(NotCalled {
                tool: name.into(),
                reason: format!("marked destructiveHint: true: no call ({OPT_IN})"),
            });
            continue;
        }
        if !opted && !read_only && !sandboxed {
            out.not_called.push(NotCalled {
                tool: name.into(),
                reason: format!(
                    "not annotated readOnlyHint: true (MCP's default: it may change things and reach the open world): no call ({OPT_IN}; or run under --confine enforce, where the kernel holds writes and the network, for the invalid-input calls)"
                ),
            });
            continue;
        }
        out.calls.extend(invalid_calls(name, &schema));
        // MCP's default for openWorldHint is true: only a tool that says
        // it stays in its closed world is safe to call with valid input.
        let closed = read_only && annotation(tool, "openWorldHint") == Some(false);
        if opted || closed && !reaches_out(&schema) {
            let valid = valid_calls(name, &schema, spec.samples, spec.seed);
            if valid.is_empty() {
                out.not_called.push(NotCalled {
                    tool: name.into(),
                    reason: "no valid arguments could be generated from its inputSchema (a pattern or format)".into(),
                });
            }
            out.calls.extend(valid);
        } else {
            let why = if !read_only {
                format!(
                    "invalid-input calls only (under --confine enforce): not annotated readOnlyHint: true; {OPT_IN} for valid calls"
                )
            } else if closed {
                "no valid calls: it takes a URL or a host (it may reach the outside world); name it with --robustness-tool".into()
            } else {
                "no valid calls: not marked openWorldHint: false (MCP's default is an open world); name it with --robustness-tool or pass --allow-side-effects".into()
            };
            out.not_called.push(NotCalled {
                tool: name.into(),
                reason: why,
            });
        }
    }
    // Arguments that are not an object break the request itself (every
    // tool's the same way): one call, to the first tool called.
    if let Some(first) = out.calls.first().map(|c| c.tool.clone()) {
        out.calls.insert(
            0,
            PlannedCall {
                tool: first,
                arguments: json!([]),
                expect: Expect::Refusal,
                what: "arguments that are not an object".into(),
            },
        );
    }
    out.calls.push(PlannedCall {
        tool: NO_SUCH_TOOL.into(),
        arguments: json!({}),
        expect: Expect::Refusal,
        what: "a tool the server does not list".into(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_bounds_go_out_as_integers_on_both_sides() {
        let schema = json!({"type": "integer", "minimum": 0, "maximum": 1000});
        let out: Vec<String> = out_of_bounds(&schema)
            .iter()
            .map(|(v, _)| v.to_string())
            .collect();
        assert_eq!(out, ["-1", "1001"]);
        let exclusive = json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10});
        let out: Vec<String> = out_of_bounds(&exclusive)
            .iter()
            .map(|(v, _)| v.to_string())
            .collect();
        assert_eq!(out, ["0", "10"], "an exclusive bound is itself outside");
        let number = json!({"type": "number", "minimum": 0.5});
        assert_eq!(out_of_bounds(&number)[0].0, json!(0), "0.5 - 0.5");
        let valid = valid_value(&schema, 1, 0).expect("a valid value");
        assert_eq!(valid.to_string(), "1000");
    }

    fn spec() -> RobustnessSpec {
        RobustnessSpec {
            samples: 4,
            seed: 1,
            ..RobustnessSpec::default()
        }
    }

    #[test]
    fn invalid_calls_each_break_the_schema_for_certain() {
        let tool = json!({"name": "t", "inputSchema": {"type": "object",
            "properties": {"path": {"type": "string", "minLength": 1},
                "mode": {"type": "string", "enum": ["a", "b"]},
                "n": {"type": "integer", "minimum": 1, "maximum": 9},
                "free": {"pattern": "^x"}},
            "required": ["path"], "additionalProperties": false}});
        // Not annotated read-only: no call unless the kernel holds it.
        assert!(
            plan(std::slice::from_ref(&tool), &spec(), false)
                .calls
                .iter()
                .all(|c| c.tool == NO_SUCH_TOOL)
        );
        let p = plan(&[tool], &spec(), true);
        let invalid: Vec<&str> = p
            .calls
            .iter()
            .filter(|c| c.expect == Expect::Refusal)
            .map(|c| c.what.as_str())
            .collect();
        for want in [
            "arguments that are not an object",
            "required property \"path\" missing",
            "property \"path\" of the wrong type",
            "property \"mode\": a value outside its enum",
            "property \"n\": 0 under its minimum 1",
            "property \"n\": 10 over its maximum 9",
            "an unknown property where additionalProperties is false",
            "a tool the server does not list",
        ] {
            assert!(invalid.contains(&want), "{want} in {invalid:#?}");
        }
        // No type was declared for "free": nothing certain to send.
        assert!(
            !invalid
                .iter()
                .any(|w| w.contains("\"free\" of the wrong type"))
        );
        // Not read-only: no valid call.
        assert!(p.calls.iter().all(|c| c.expect == Expect::Refusal));
    }

    #[test]
    fn valid_calls_go_only_to_tools_safe_to_run() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 5}}, "required": ["q"]});
        let safe = json!({"name": "read", "annotations": {"readOnlyHint": true, "openWorldHint": false}, "inputSchema": schema});
        let unsaid =
            json!({"name": "maybe", "annotations": {"readOnlyHint": true}, "inputSchema": schema});
        let open = json!({"name": "fetch", "annotations": {"readOnlyHint": true, "openWorldHint": true}, "inputSchema": schema});
        let url = json!({"name": "get", "annotations": {"readOnlyHint": true, "openWorldHint": false},
            "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}});
        let gone =
            json!({"name": "rm", "annotations": {"destructiveHint": true}, "inputSchema": schema});
        let p = plan(&[safe, unsaid, open, url, gone], &spec(), true);
        let valid: Vec<&str> = p
            .calls
            .iter()
            .filter(|c| c.expect == Expect::Answer)
            .map(|c| c.tool.as_str())
            .collect();
        assert!(
            !valid.is_empty() && valid.iter().all(|t| *t == "read"),
            "{valid:?}"
        );
        for c in p.calls.iter().filter(|c| c.expect == Expect::Answer) {
            assert!(
                schema::validate(&c.arguments, &schema).errors.is_empty(),
                "{c:?}"
            );
        }
        assert!(
            !p.calls.iter().any(|c| c.tool == "rm"),
            "a destructive tool gets no call"
        );
        assert!(p.not_called.iter().any(|n| n.tool == "rm"));
        let named = RobustnessSpec {
            tools: vec!["rm".into()],
            ..spec()
        };
        let p2 = plan(
            &[
                json!({"name": "rm", "annotations": {"destructiveHint": true}, "inputSchema": schema}),
            ],
            &named,
            false,
        );
        assert!(
            p2.calls
                .iter()
                .any(|c| c.tool == "rm" && c.expect == Expect::Answer)
        );
    }

    #[test]
    fn no_call_reaches_a_tool_not_annotated_read_only_without_opt_in() {
        let schema = json!({"type": "object", "properties": {"path": {"type": "string"}},
            "required": ["path"]});
        let bare = json!({"name": "write_file", "inputSchema": schema});
        let gone =
            json!({"name": "rm", "annotations": {"destructiveHint": true}, "inputSchema": schema});
        let tools = [bare.clone(), gone];
        for sandboxed in [false, true] {
            let p = plan(&tools, &spec(), sandboxed);
            assert!(!p.calls.iter().any(|c| c.tool == "rm"), "{sandboxed}");
            let write: Vec<&PlannedCall> =
                p.calls.iter().filter(|c| c.tool == "write_file").collect();
            if sandboxed {
                assert!(!write.is_empty() && write.iter().all(|c| c.expect == Expect::Refusal));
            } else {
                assert!(write.is_empty(), "{write:?}");
                let why = p
                    .not_called
                    .iter()
                    .find(|n| n.tool == "write_file")
                    .map(|n| n.reason.as_str())
                    .unwrap_or("");
                assert!(why.contains("--robustness-tool"), "{why}");
            }
        }
        let named = RobustnessSpec {
            tools: vec!["write_file".into()],
            ..spec()
        };
        let p = plan(&[bare], &named, false);
        assert!(
            p.calls
                .iter()
                .any(|c| c.tool == "write_file" && c.expect == Expect::Answer)
        );
    }

    #[test]
    fn refs_are_followed_and_generation_is_deterministic() {
        let tool = json!({"name": "t", "annotations": {"readOnlyHint": true, "openWorldHint": false}, "inputSchema": {"type": "object",
            "$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}},
            "properties": {"unit": {"$ref": "#/$defs/Unit"}}, "required": ["unit"]}});
        let a = plan(std::slice::from_ref(&tool), &spec(), false);
        let b = plan(std::slice::from_ref(&tool), &spec(), false);
        assert_eq!(a, b);
        assert!(a.calls.iter().any(|c| c.expect == Expect::Answer
            && c.arguments == json!({"unit": "c"})
            || c.arguments == json!({"unit": "f"})));
    }
}
