//! Pinned definition hashes: the SHA-256 of each tool's canonical JSON
//! (every member but `_meta`, which carries transport metadata, not what
//! the model reads), and one hash over all of them with the server's
//! instructions, so an evidence record can prove later that the
//! definitions a model was given have not changed. Pure.

use serde_json::Value;

use crate::sha256;

/// A tool's canonical JSON without `_meta` (members sorted, no
/// whitespace), written without copying the tool.
pub fn canonical(tool: &Value) -> String {
    sha256::canonical_skipping(tool, "_meta")
}

/// The SHA-256 of a tool's canonical JSON (without `_meta`).
pub fn tool_sha256(tool: &Value) -> String {
    sha256::hex(canonical(tool).as_bytes())
}

/// One hash over every tool's (by name, then hash) and the instructions.
pub fn definitions_sha256(tools: &[(String, String)], instructions: Option<&str>) -> String {
    let mut sorted: Vec<&(String, String)> = tools.iter().collect();
    crate::order::sort(&mut sorted);
    let mut text = String::new();
    for (name, hash) in sorted {
        text.push_str(&serde_json::json!([name, hash]).to_string());
        text.push('\n');
    }
    text.push_str(&crate::object::ToValue::to_value(&instructions).to_string());
    sha256::hex(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_hash_ignores_member_order_and_meta_but_not_a_word() {
        let a = json!({"name": "t", "description": "Adds.", "inputSchema": {"type": "object"}});
        let b = json!({"inputSchema": {"type": "object"}, "_meta": {"x": 1}, "description": "Adds.", "name": "t"});
        let c = json!({"name": "t", "description": "Adds!", "inputSchema": {"type": "object"}});
        assert_eq!(tool_sha256(&a), tool_sha256(&b));
        assert_ne!(tool_sha256(&a), tool_sha256(&c));
        let one = definitions_sha256(&[("a".into(), "1".into()), ("b".into(), "2".into())], None);
        let other = definitions_sha256(&[("b".into(), "2".into()), ("a".into(), "1".into())], None);
        assert_eq!(one, other);
        assert_ne!(one, definitions_sha256(&[("a".into(), "1".into())], None));
    }
}
