//! A small JSON Schema subset for checking `structuredContent` against a
//! tool's `outputSchema` (and the robustness probe's arguments against an
//! `inputSchema`): `type`, `properties`, `required`, `items`, `enum`,
//! `const`, `additionalProperties`, the numeric bounds (`minimum`,
//! `maximum` and their exclusive forms), the lengths (`minLength`,
//! `maxLength`, `minItems`, `maxItems`) and boolean schemas. Annotations are
//! ignored; every other keyword is listed as not checked, so a result is
//! never reported as conforming on the strength of a rule that was not
//! applied. Depth is bounded.

use serde_json::Value;

/// Keywords that only annotate: nothing to check.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$id",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

const CHECKED: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "additionalProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Validation {
    /// Where the instance breaks the schema: `path: problem`.
    pub errors: Vec<String>,
    /// Keywords met but not applied, with their schema path.
    pub unchecked: Vec<String>,
}

pub fn validate(instance: &Value, schema: &Value) -> Validation {
    let mut v = Validation::default();
    walk(instance, schema, "$", 0, &mut v);
    crate::order::sort(&mut v.unchecked);
    v.unchecked.dedup();
    v
}

fn type_fits(instance: &Value, ty: &str) -> bool {
    match ty {
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "string" => instance.is_string(),
        "boolean" => instance.is_boolean(),
        "null" => instance.is_null(),
        "number" => instance.is_number(),
        "integer" => {
            instance.is_i64()
                || instance.is_u64()
                || instance.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

fn walk(instance: &Value, schema: &Value, path: &str, depth: usize, v: &mut Validation) {
    let obj = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => {
            v.errors
                .push(format!("{path}: the schema allows nothing here"));
            return;
        }
        Value::Object(obj) => obj,
        _ => {
            v.unchecked
                .push(format!("{path}: a schema that is not an object"));
            return;
        }
    };
    if depth > MAX_DEPTH {
        v.unchecked
            .push(format!("{path}: deeper than {MAX_DEPTH} levels"));
        return;
    }
    for key in obj.keys() {
        if !CHECKED.contains(&key.as_str()) && !ANNOTATIONS.contains(&key.as_str()) {
            v.unchecked.push(format!("{path}: {key}"));
        }
    }
    if let Some(ty) = obj.get("type") {
        let types: Vec<&str> = match ty {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !types.is_empty() && !types.iter().any(|t| type_fits(instance, t)) {
            v.errors.push(format!(
                "{path}: expected {}, found {}",
                types.join(" or "),
                crate::jsonrpc::describe(instance)
            ));
            return;
        }
    }
    if let Some(Value::Array(options)) = obj.get("enum")
        && !options.contains(instance)
    {
        v.errors
            .push(format!("{path}: {instance} is not one of the enum values"));
    }
    if let Some(c) = obj.get("const")
        && c != instance
    {
        v.errors.push(format!("{path}: expected the constant {c}"));
    }
    bounds(instance, obj, path, v);
    members(instance, obj, path, depth, v);
    if let (Value::Array(items), Some(item_schema)) = (instance, obj.get("items")) {
        for (i, item) in items.iter().enumerate() {
            walk(item, item_schema, &format!("{path}[{i}]"), depth + 1, v);
        }
    }
}

/// An object's required members, and each member against its schema.
fn members(
    instance: &Value,
    obj: &serde_json::Map<String, Value>,
    path: &str,
    depth: usize,
    v: &mut Validation,
) {
    if let Value::Object(map) = instance {
        if let Some(Value::Array(required)) = obj.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(name) {
                    v.errors
                        .push(format!("{path}: missing required property \"{name}\""));
                }
            }
        }
        let properties = obj.get("properties").and_then(Value::as_object);
        for (key, value) in map {
            let child = format!("{path}.{key}");
            match properties.and_then(|p| p.get(key)) {
                Some(sub) => walk(value, sub, &child, depth + 1, v),
                None => match obj.get("additionalProperties") {
                    Some(Value::Bool(false)) => v
                        .errors
                        .push(format!("{path}: property \"{key}\" is not allowed")),
                    Some(sub @ Value::Object(_)) => walk(value, sub, &child, depth + 1, v),
                    _ => {}
                },
            }
        }
    }
}

/// The numeric bounds and the lengths of strings and arrays.
fn bounds(instance: &Value, obj: &serde_json::Map<String, Value>, path: &str, v: &mut Validation) {
    let num = |k: &str| obj.get(k).and_then(Value::as_f64);
    if let Some(x) = instance.as_f64() {
        let broken = [
            ("minimum", num("minimum").is_some_and(|m| x < m)),
            ("maximum", num("maximum").is_some_and(|m| x > m)),
            (
                "exclusiveMinimum",
                num("exclusiveMinimum").is_some_and(|m| x <= m),
            ),
            (
                "exclusiveMaximum",
                num("exclusiveMaximum").is_some_and(|m| x >= m),
            ),
        ];
        for (key, _) in broken.iter().filter(|(_, b)| *b) {
            v.errors
                .push(format!("{path}: {x} breaks its {key} {}", obj[*key]));
        }
    }
    let len = match instance {
        Value::String(s) => Some((s.chars().count() as f64, "minLength", "maxLength")),
        Value::Array(a) => Some((a.len() as f64, "minItems", "maxItems")),
        _ => None,
    };
    if let Some((n, min, max)) = len {
        if num(min).is_some_and(|m| n < m) {
            v.errors.push(format!(
                "{path}: length {n} is under its {min} {}",
                obj[min]
            ));
        }
        if num(max).is_some_and(|m| n > m) {
            v.errors
                .push(format!("{path}: length {n} is over its {max} {}", obj[max]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_subset_checks_types_members_items_and_values() {
        let schema = json!({"type": "object", "title": "Out",
            "properties": {"sum": {"type": "integer"}, "tags": {"type": "array", "items": {"enum": ["a", "b"]}},
                "kind": {"const": "add"}},
            "required": ["sum"], "additionalProperties": false});
        assert_eq!(
            validate(&json!({"sum": 3, "tags": ["a"], "kind": "add"}), &schema),
            Validation::default()
        );
        let bad = validate(
            &json!({"sum": 1.5, "tags": ["c"], "kind": "x", "extra": 1}),
            &schema,
        );
        assert_eq!(bad.errors.len(), 4, "{:?}", bad.errors);
        let missing = validate(&json!({}), &schema);
        assert_eq!(missing.errors, ["$: missing required property \"sum\""]);
    }

    #[test]
    fn keywords_outside_the_subset_are_reported_as_not_checked() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "string", "pattern": "^a"}}, "oneOf": []});
        let v = validate(&json!({"n": "b"}), &schema);
        assert!(v.errors.is_empty());
        assert_eq!(v.unchecked, ["$.n: pattern", "$: oneOf"]);
        let bounded = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 9},
            "s": {"type": "string", "maxLength": 2}, "a": {"type": "array", "minItems": 1}}});
        let v = validate(&json!({"n": -1, "s": "abc", "a": []}), &bounded);
        assert_eq!(v.errors.len(), 3, "{:?}", v.errors);
        assert!(v.unchecked.is_empty());
    }
}
