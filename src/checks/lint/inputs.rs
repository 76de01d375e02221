//! The definitions a JSON document holds, for `lint FILE`: a `tools/list`
//! result (or the JSON-RPC response around it, or several lists' results
//! in one object), a bare array of tools, a `server.json` or a registry
//! entry with `tools` (under `server` too), or a `check --json` report (a
//! batch results line), whose frames hold the server's own answers. Every
//! form is found where it stands, without a flag saying which it is. Pure.

use crate::checks::lint::needle::Joined;
use serde_json::Value;

use crate::checks::lint::Definitions;

/// Whether `v` is a document of several servers: an array whose items are
/// lists' results, responses, reports or entries rather than tools.
pub fn is_many(v: &Value) -> bool {
    v.as_array().is_some_and(|items| {
        !items.is_empty()
            && items.iter().all(|i| {
                Joined("tools|result|frames|server|prompts|resources")
                    .iter()
                    .any(|k| i.get(k).is_some())
            })
    })
}

/// The definitions `v` holds (empty when it holds none). A tool, prompt
/// or resource named twice (a report's repeated lists) counts once.
pub fn definitions(v: &Value) -> Definitions<'_> {
    let mut defs = Definitions {
        complete: true,
        ..Definitions::default()
    };
    gather(v, &mut defs, 0);
    for list in [
        &mut defs.tools,
        &mut defs.prompts,
        &mut defs.resources,
        &mut defs.templates,
    ] {
        // A set: a document may list a million tools.
        let mut seen = std::collections::HashSet::new();
        list.retain(|item| {
            item.get("name")
                .and_then(Value::as_str)
                .is_none_or(|name| seen.insert(name))
        });
    }
    defs
}

/// How deep the wrappers may nest (`{"server": {"result": ...}}`).
const DEPTH: usize = 4;

fn gather<'a>(v: &'a Value, defs: &mut Definitions<'a>, depth: usize) {
    if depth > DEPTH {
        return;
    }
    match v {
        Value::Array(items) => defs.tools.extend(items.iter().filter(|t| t.is_object())),
        Value::Object(m) => {
            if let Some(frames) = m.get("frames").and_then(Value::as_array) {
                for frame in frames {
                    if let Some(result) = frame.get("result").filter(|r| r.is_object()) {
                        gather(result, defs, depth + 1);
                    }
                }
            }
            for key in ["result", "server"] {
                if let Some(inner) = m.get(key).filter(|r| r.is_object()) {
                    gather(inner, defs, depth + 1);
                }
            }
            let lists: [(&str, &mut Vec<&'a Value>); 4] = [
                ("tools", &mut defs.tools),
                ("prompts", &mut defs.prompts),
                ("resources", &mut defs.resources),
                ("resourceTemplates", &mut defs.templates),
            ];
            for (key, list) in lists {
                if let Some(items) = m.get(key).and_then(Value::as_array) {
                    list.extend(items.iter().filter(|t| t.is_object()));
                }
            }
            if m.get("nextCursor").is_some_and(|c| !c.is_null()) {
                defs.complete = false;
            }
            if let Some(info) = m.get("serverInfo").filter(|i| i.is_object()) {
                defs.server_info.get_or_insert(info);
            }
            if let Some(text) = m.get("instructions").filter(|i| i.is_string()) {
                defs.instructions.get_or_insert(text);
            }
        }
        _ => {}
    }
}

/// The name a document gives its server: a batch line's entry, else the
/// server's own name.
pub fn name(v: &Value, defs: &Definitions) -> Option<String> {
    let entry = v.get("batch").and_then(|b| b.get("entry"));
    let own = defs.server_info.and_then(|i| i.get("name"));
    let registry = v.get("name").filter(|_| v.get("tools").is_some());
    entry
        .or(own)
        .or(registry)
        .and_then(Value::as_str)
        .map(String::from)
}

/// How many definitions of each kind, for a report line.
pub fn counts(defs: &Definitions) -> [usize; 4] {
    [
        defs.tools.len(),
        defs.prompts.len(),
        defs.resources.len(),
        defs.templates.len(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_form_is_found_where_it_stands() {
        let tool = json!({"name": "t", "description": "d", "inputSchema": {"type": "object"}});
        let forms = [
            json!({"tools": [tool]}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}}),
            json!([tool]),
            json!({"name": "io.x/s", "version": "1", "tools": [tool]}),
            json!({"server": {"name": "io.x/s", "tools": [tool]}}),
            json!({"schemaVersion": 1, "frames": [
                {"jsonrpc": "2.0", "id": 1, "result": {"serverInfo": {"name": "s"}, "capabilities": {}}},
                {"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool]}},
                {"jsonrpc": "2.0", "id": 3, "result": {"tools": [tool]}}
            ]}),
        ];
        for f in &forms {
            let d = definitions(f);
            assert_eq!(counts(&d), [1, 0, 0, 0], "{f}");
            assert!(d.complete);
        }
        assert_eq!(
            name(&forms[5], &definitions(&forms[5])).as_deref(),
            Some("s")
        );
        assert!(is_many(&json!([{"tools": []}, {"result": {}}])));
        assert!(!is_many(&json!([tool])));
        let paged = json!({"tools": [tool], "nextCursor": "2"});
        assert!(!definitions(&paged).complete);
    }
}
