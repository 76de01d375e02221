//! The one tree the config readers (JSON with comments, the TOML and YAML
//! subsets) produce: values with the line each starts on, so a server
//! entry is named by file and line. A refusal says where and why. Pure.

/// A value and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub line: u32,
    pub value: Value,
    /// Its bytes in the text (JSON only; empty elsewhere): where `wrap
    /// --install` rewrites an entry, leaving every other byte as it was.
    pub span: (usize, usize),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number as written (a host's number is never computed with).
    Num(String),
    Str(String),
    List(Vec<Node>),
    /// Keys in file order; a repeated key's last value wins (`get`).
    Map(Vec<(String, Node)>),
}

/// What a reader would not read: the line and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: u32,
    pub reason: String,
}

impl Refusal {
    pub fn at(line: u32, reason: impl Into<String>) -> Refusal {
        Refusal {
            line,
            reason: reason.into(),
        }
    }
}

/// How deep a file's values may nest: configs nest a few levels; a deeper
/// file is refused rather than read with unbounded recursion.
pub const MAX_DEPTH: usize = 64;

impl Node {
    pub fn new(line: u32, value: Value) -> Node {
        Node {
            line,
            value,
            span: (0, 0),
        }
    }

    /// The entry named `name` whose value starts on `line`, anywhere in
    /// the tree (a server entry as discovery found it).
    pub fn find(&self, name: &str, line: u32) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().find_map(|(k, v)| {
                if k == name && v.line == line {
                    Some(v)
                } else {
                    v.find(name, line)
                }
            }),
            Value::List(l) => l.iter().find_map(|v| v.find(name, line)),
            _ => None,
        }
    }

    /// The value of `key` in a map (the last, when repeated).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a dotted path of map keys.
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |n, k| n.get(k))
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// A map's entries, each key once (its last value), in file order.
    pub fn entries(&self) -> Vec<(&str, &Node)> {
        let Value::Map(m) = &self.value else {
            return Vec::new();
        };
        m.iter()
            .enumerate()
            .filter(|(i, (k, _))| !m[i + 1..].iter().any(|(later, _)| later == k))
            .map(|(_, (k, v))| (k.as_str(), v))
            .collect()
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::List(l) => l,
            _ => &[],
        }
    }

    /// The kind of value, for a reason that names what was found.
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Num(_) => "a number",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// As JSON (numbers that JSON cannot hold as written become strings):
    /// how the readers are compared with reference parsers.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Num(n) => match (n.parse::<i64>(), n.parse::<f64>()) {
                (Ok(i), _) => J::from(i),
                (_, Ok(f)) => {
                    serde_json::Number::from_f64(f).map_or_else(|| J::String(n.clone()), J::Number)
                }
                _ => J::String(n.clone()),
            },
            Value::Str(s) => J::String(s.clone()),
            Value::List(l) => J::Array(l.iter().map(Node::to_json).collect()),
            Value::Map(_) => J::Object(
                self.entries()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_keeps_its_last_value() {
        let n = |v| Node::new(1, v);
        let map = n(Value::Map(vec![
            ("a".into(), n(Value::Num("1".into()))),
            ("b".into(), n(Value::Bool(true))),
            ("a".into(), n(Value::Num("2".into()))),
        ]));
        assert_eq!(
            map.get("a").map(|v| v.value.clone()),
            Some(Value::Num("2".into()))
        );
        let keys: Vec<&str> = map.entries().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(map.to_json().to_string(), r#"{"b":true,"a":2}"#);
    }
}
