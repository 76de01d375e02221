//! The TOML that host configs use (Codex's `config.toml`): tables, arrays
//! of tables, dotted and quoted keys, the four kinds of string, integers
//! (decimal, hex, octal, binary), floats, booleans, arrays and inline
//! tables (over several lines, as TOML 1.1 allows), every value with its
//! line. A date-time is refused (no host
//! writes one), and so is whatever TOML forbids (a key or table defined
//! twice, a table extended after it was closed): what is read is what the
//! reference parser reads, and the rest is refused with its line. Pure.

use std::collections::HashMap;

use super::tree::{MAX_DEPTH, Node, Refusal, Value};

/// How a table came to be, which decides what may extend it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    /// `[a]`: defined; a second `[a]` is an error.
    Header,
    /// A parent of a header (`a` of `[a.b]`): may still get its own header.
    Implicit,
    /// By a dotted key (`a.b = 1`): closed to headers, open to dotted keys
    /// of the same table.
    Dotted,
    /// An inline table or array, or a plain value: closed.
    Closed,
    /// `[[a]]`.
    Tables,
}

/// Reads one TOML document.
pub fn read(text: &str) -> Result<Node, Refusal> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        line: 1,
    };
    if p.s.starts_with(b"\xEF\xBB\xBF") {
        p.i = 3;
    }
    let mut doc = Doc {
        root: Node::new(1, Value::Map(Vec::new())),
        made: HashMap::new(),
        table: Vec::new(),
    };
    loop {
        p.spaces();
        match p.peek() {
            None => break,
            Some(b'\n') => p.newline(),
            Some(b'\r') if p.s.get(p.i + 1) == Some(&b'\n') => p.newline(),
            Some(b'#') => p.comment()?,
            Some(b'[') => {
                let line = p.line;
                let (path, many) = p.header()?;
                doc.open(&path, many, line)?;
                p.end_of_line()?;
            }
            Some(_) => {
                let line = p.line;
                let key = p.key()?;
                p.spaces();
                p.expect(b'=', "expected '=' after a key")?;
                p.spaces();
                let value = p.value(0)?;
                doc.assign(&key, value, line)?;
                p.end_of_line()?;
            }
        }
    }
    Ok(doc.root)
}

/// The document being built: the tree, how each table was made (by its
/// path, array-of-tables elements numbered), and the open table's path.
struct Doc {
    root: Node,
    made: HashMap<String, Made>,
    table: Vec<String>,
}

/// One step of a path: a key, and for an array of tables the element.
fn step<'a>(node: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    let Value::Map(m) = &mut node.value else {
        return None;
    };
    let found = m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)?;
    if matches!(&found.value, Value::List(l) if !l.is_empty()) {
        let Value::List(l) = &mut found.value else {
            return None;
        };
        return l.last_mut();
    }
    Some(found)
}

impl Doc {
    /// The path key of `keys`: each key, and past an array of tables the
    /// element a later key lies in (the last).
    fn id(&self, keys: &[String]) -> String {
        let mut id = String::new();
        let mut node = Some(&self.root);
        for (n, k) in keys.iter().enumerate() {
            id.push('\u{0}');
            id.push_str(k);
            node = node.and_then(|parent| parent.get(k));
            if n + 1 < keys.len()
                && self.made.get(&id) == Some(&Made::Tables)
                && let Some(Value::List(l)) = node.map(|t| &t.value)
            {
                id.push_str(&format!("#{}", l.len()));
                node = l.last();
            }
        }
        id
    }

    /// `[path]` or `[[path]]`.
    fn open(&mut self, path: &[String], many: bool, line: u32) -> Result<(), Refusal> {
        for n in 1..path.len() {
            let id = self.id(&path[..n]);
            match self.made.get(&id) {
                None => {
                    self.made.insert(id, Made::Implicit);
                    self.ensure(&path[..n], line)?;
                }
                Some(Made::Closed) => {
                    return Err(Refusal::at(
                        line,
                        format!(
                            "'{}' is not a table that can be extended",
                            path[..n].join(".")
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        let id = self.id(path);
        let name = path.join(".");
        match (self.made.get(&id), many) {
            (None | Some(Made::Implicit), false) => {
                self.made.insert(id, Made::Header);
                self.ensure(path, line)?;
            }
            (None, true) => {
                self.made.insert(id, Made::Tables);
                self.push_table(path, line, true)?;
            }
            (Some(Made::Tables), true) => self.push_table(path, line, false)?,
            _ => {
                return Err(Refusal::at(
                    line,
                    format!("the table '{name}' is defined twice"),
                ));
            }
        }
        self.table = path.to_vec();
        Ok(())
    }

    /// The map at `path`, created where missing.
    fn ensure(&mut self, path: &[String], line: u32) -> Result<&mut Node, Refusal> {
        let mut node = &mut self.root;
        for k in path {
            let Value::Map(m) = &mut node.value else {
                return Err(Refusal::at(
                    line,
                    format!("'{k}' is under a value that is not a table"),
                ));
            };
            if !m.iter().any(|(key, _)| key == k) {
                m.push((k.clone(), Node::new(line, Value::Map(Vec::new()))));
            }
            node = step(node, k).expect("invariant: the key was just found or added");
            if !matches!(node.value, Value::Map(_)) {
                return Err(Refusal::at(
                    line,
                    format!("'{k}' is already a value, not a table"),
                ));
            }
        }
        Ok(node)
    }

    fn push_table(&mut self, path: &[String], line: u32, first: bool) -> Result<(), Refusal> {
        let (last, parent) = path.split_last().expect("invariant: a header names a key");
        let parent = self.ensure(parent, line)?;
        let Value::Map(m) = &mut parent.value else {
            return Err(Refusal::at(line, "an array of tables under a value"));
        };
        let table = Node::new(line, Value::Map(Vec::new()));
        if first {
            if m.iter().any(|(k, _)| k == last) {
                return Err(Refusal::at(line, format!("'{last}' is already defined")));
            }
            m.push((last.clone(), Node::new(line, Value::List(vec![table]))));
        } else if let Some((
            _,
            Node {
                value: Value::List(l),
                ..
            },
        )) = m.iter_mut().find(|(k, _)| k == last)
        {
            l.push(table);
        }
        Ok(())
    }

    /// `a.b.c = value` in the open table.
    fn assign(&mut self, key: &[String], value: Node, line: u32) -> Result<(), Refusal> {
        let (last, dotted) = key.split_last().expect("invariant: a key has a part");
        let mut path = self.table.clone();
        for k in dotted {
            path.push(k.clone());
            let id = self.id(&path);
            match self.made.get(&id) {
                None => {
                    self.made.insert(id, Made::Dotted);
                }
                Some(Made::Dotted) => {}
                Some(_) => {
                    return Err(Refusal::at(
                        line,
                        format!(
                            "the table '{}' cannot be extended by a dotted key",
                            path.join(".")
                        ),
                    ));
                }
            }
        }
        let parent = self.ensure(&path, line)?;
        let Value::Map(m) = &mut parent.value else {
            return Err(Refusal::at(line, "a key under a value"));
        };
        if m.iter().any(|(k, _)| k == last) {
            return Err(Refusal::at(
                line,
                format!("the key '{}' is defined twice", key.join(".")),
            ));
        }
        m.push((last.clone(), value));
        path.push(last.clone());
        let id = self.id(&path);
        self.made.insert(id, Made::Closed);
        Ok(())
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    line: u32,
}

impl Parser<'_> {
    fn refuse(&self, reason: impl Into<String>) -> Refusal {
        Refusal::at(self.line, reason)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, b: u8, why: &str) -> Result<(), Refusal> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.refuse(why))
        }
    }

    fn spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn newline(&mut self) {
        if self.peek() == Some(b'\r') {
            self.i += 1;
        }
        self.i += 1;
        self.line += 1;
    }

    fn comment(&mut self) -> Result<(), Refusal> {
        while let Some(b) = self.peek() {
            if b == b'\n' || (b == b'\r' && self.s.get(self.i + 1) == Some(&b'\n')) {
                break;
            }
            if b < 0x20 && b != b'\t' || b == 0x7f {
                return Err(self.refuse("a control character in a comment"));
            }
            self.i += 1;
        }
        Ok(())
    }

    /// After a key/value pair or a header: spaces, a comment, the line's end.
    fn end_of_line(&mut self) -> Result<(), Refusal> {
        self.spaces();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        match self.peek() {
            None => Ok(()),
            Some(b'\n') => Ok(()),
            Some(b'\r') if self.s.get(self.i + 1) == Some(&b'\n') => Ok(()),
            _ => Err(self.refuse("more on the line after a value (one key = value a line)")),
        }
    }

    /// Blank lines and comments inside an array.
    fn blank(&mut self) -> Result<(), Refusal> {
        loop {
            self.spaces();
            match self.peek() {
                Some(b'\n') => self.newline(),
                Some(b'\r') if self.s.get(self.i + 1) == Some(&b'\n') => self.newline(),
                Some(b'#') => self.comment()?,
                _ => return Ok(()),
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: the path and whether it is an array of tables.
    fn header(&mut self) -> Result<(Vec<String>, bool), Refusal> {
        self.i += 1;
        let many = self.peek() == Some(b'[');
        if many {
            self.i += 1;
        }
        self.spaces();
        let path = self.key()?;
        self.spaces();
        self.expect(b']', "a table header is not closed with ']'")?;
        if many {
            self.expect(b']', "an array-of-tables header is not closed with ']]'")?;
        }
        Ok((path, many))
    }

    /// A key: bare or quoted parts joined by dots.
    fn key(&mut self) -> Result<Vec<String>, Refusal> {
        let mut parts = Vec::new();
        loop {
            self.spaces();
            let part = match self.peek() {
                Some(b'"') if !self.s[self.i..].starts_with(b"\"\"\"") => self.basic()?,
                Some(b'\'') if !self.s[self.i..].starts_with(b"'''") => self.literal()?,
                _ => {
                    let start = self.i;
                    while self
                        .peek()
                        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                    {
                        self.i += 1;
                    }
                    if start == self.i {
                        return Err(self.refuse("expected a key"));
                    }
                    String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
                }
            };
            parts.push(part);
            self.spaces();
            if self.peek() != Some(b'.') {
                return Ok(parts);
            }
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Refusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(format!("values nest deeper than {MAX_DEPTH} levels")));
        }
        let line = self.line;
        let rest = &self.s[self.i..];
        let value = match self.peek() {
            Some(b'"') if rest.starts_with(b"\"\"\"") => Value::Str(self.multi(b'"')?),
            Some(b'\'') if rest.starts_with(b"'''") => Value::Str(self.multi(b'\'')?),
            Some(b'"') => Value::Str(self.basic()?),
            Some(b'\'') => Value::Str(self.literal()?),
            Some(b'[') => self.array(depth)?,
            Some(b'{') => self.inline(depth)?,
            Some(_) => self.scalar()?,
            None => return Err(self.refuse("a value is missing")),
        };
        Ok(Node::new(line, value))
    }

    fn array(&mut self, depth: usize) -> Result<Value, Refusal> {
        let opened = self.line;
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.blank()?;
            match self.peek() {
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::List(items));
                }
                None => return Err(Refusal::at(opened, "an array is not closed")),
                _ => {}
            }
            items.push(self.value(depth + 1)?);
            self.blank()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {}
                None => return Err(Refusal::at(opened, "an array is not closed")),
                _ => return Err(self.refuse("expected ',' or ']' in an array")),
            }
        }
    }

    /// `{ a = 1, b.c = "x" }`; as TOML 1.1 allows (and Codex reads), over
    /// several lines, with comments and a trailing comma.
    fn inline(&mut self, depth: usize) -> Result<Value, Refusal> {
        let line = self.line;
        self.i += 1;
        let mut doc = Doc {
            root: Node::new(line, Value::Map(Vec::new())),
            made: HashMap::new(),
            table: Vec::new(),
        };
        loop {
            self.blank()?;
            match self.peek() {
                Some(b'}') => {
                    self.i += 1;
                    return Ok(doc.root.value);
                }
                None => return Err(Refusal::at(line, "an inline table is not closed")),
                _ => {}
            }
            let at = self.line;
            let key = self.key()?;
            self.spaces();
            self.expect(b'=', "expected '=' after a key")?;
            self.spaces();
            let value = self.value(depth + 1)?;
            doc.assign(&key, value, at)?;
            self.blank()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                None => return Err(Refusal::at(line, "an inline table is not closed")),
                _ => return Err(self.refuse("expected ',' or '}' in an inline table")),
            }
        }
    }

    /// A bare value: a boolean, a number; a date-time is refused.
    fn scalar(&mut self) -> Result<Value, Refusal> {
        let start = self.i;
        while self.peek().is_some_and(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'_' | b'.' | b':')
        }) {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        match word {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "" => return Err(self.refuse("expected a value")),
            _ => {}
        }
        let b = word.as_bytes();
        let dated = b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
        let timed = b.len() >= 3 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b':';
        if dated || timed {
            return Err(self.refuse("a date-time (not read: no host config uses one)"));
        }
        number(word).map(Value::Num).ok_or_else(|| {
            self.refuse(format!(
                "'{word}' is not a TOML value (strings need quotes)"
            ))
        })
    }

    fn basic(&mut self) -> Result<String, Refusal> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.refuse("a string is not closed"));
            };
            self.i += 1;
            match b {
                b'"' => break,
                b'\\' => self.escape(&mut out)?,
                b'\n' => return Err(self.refuse("a string runs past the end of its line")),
                _ if b < 0x20 && b != b'\t' || b == 0x7f => {
                    return Err(self.refuse("a control character in a string"));
                }
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.refuse("a string is not valid UTF-8"))
    }

    fn literal(&mut self) -> Result<String, Refusal> {
        self.i += 1;
        let start = self.i;
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(self.refuse("a string is not closed on its line")),
                Some(b'\'') => break,
                Some(b) if b < 0x20 && b != b'\t' || b == 0x7f => {
                    return Err(self.refuse("a control character in a string"));
                }
                _ => self.i += 1,
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i])
            .map_err(|_| self.refuse("a string is not valid UTF-8"))?;
        self.i += 1;
        Ok(text.to_string())
    }

    /// `"""…"""` or `'''…'''`: a newline right after the opening is
    /// dropped; in the basic kind a backslash at a line's end joins lines.
    fn multi(&mut self, quote: u8) -> Result<String, Refusal> {
        self.i += 3;
        if self.peek() == Some(b'\n') || self.s[self.i..].starts_with(b"\r\n") {
            self.newline();
        }
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.refuse("a multi-line string is not closed"));
            };
            if b == quote && self.s[self.i..].starts_with(&[quote; 3]) {
                let run = self.s[self.i..].iter().take_while(|&&c| c == quote).count();
                if run > 5 {
                    return Err(self.refuse("too many quotes closing a multi-line string"));
                }
                out.extend(std::iter::repeat_n(quote, run - 3));
                self.i += run;
                break;
            }
            self.i += 1;
            match b {
                b'\n' => {
                    self.line += 1;
                    out.push(b'\n');
                }
                b'\\' if quote == b'"' => self.escape_or_join(&mut out)?,
                b'\r' if self.peek() == Some(b'\n') => out.push(b'\r'),
                _ if b < 0x20 && b != b'\t' || b == 0x7f => {
                    return Err(self.refuse("a control character in a string"));
                }
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.refuse("a string is not valid UTF-8"))
    }

    /// In `"""`: a backslash before the line's end drops the white space
    /// up to the next text; else an escape.
    fn escape_or_join(&mut self, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let rest = &self.s[self.i..];
        let ws = rest
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        let at_end = matches!(rest.get(ws), Some(b'\n')) || rest[ws..].starts_with(b"\r\n");
        if !at_end {
            return self.escape(out);
        }
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let Some(e) = self.peek() else {
            return Err(self.refuse("a string is not closed"));
        };
        self.i += 1;
        let c = match e {
            b'b' => '\u{8}',
            b't' => '\t',
            b'n' => '\n',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'"' => '"',
            b'\\' => '\\',
            b'e' => '\u{1b}',
            b'x' => self.hex(2)?,
            b'u' => self.hex(4)?,
            b'U' => self.hex(8)?,
            _ => return Err(self.refuse(format!("unknown escape \\{}", e as char))),
        };
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    fn hex(&mut self, n: usize) -> Result<char, Refusal> {
        let digits = self
            .s
            .get(self.i..self.i + n)
            .and_then(|d| std::str::from_utf8(d).ok());
        let c = digits
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .and_then(char::from_u32)
            .ok_or_else(|| {
                self.refuse(format!(
                    "\\u needs {n} hex digits of a Unicode scalar value"
                ))
            })?;
        self.i += n;
        Ok(c)
    }
}

/// A TOML number as JSON would write it, or `None`: integers in range
/// (hex, octal and binary turned decimal), floats as written without
/// underscores; `inf` and `nan` kept as words.
fn number(word: &str) -> Option<String> {
    let (sign, body) = match word.as_bytes().first() {
        Some(b'+') => ("", &word[1..]),
        Some(b'-') => ("-", &word[1..]),
        _ => ("", word),
    };
    if matches!(body, "inf" | "nan") {
        return Some(format!("{sign}{body}"));
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = body.strip_prefix(prefix) {
            if sign.len() + usize::from(word.starts_with('+')) > 0 || !underscored(digits, radix) {
                return None;
            }
            let n = i64::from_str_radix(&digits.replace('_', ""), radix).ok()?;
            return Some(n.to_string());
        }
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let leading_zero = int.len() > 1 && int.starts_with('0');
    if !underscored(int, 10) || leading_zero || frac.is_some_and(|f| !underscored(f, 10)) {
        return None;
    }
    if let Some(e) = exponent {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if !underscored(e, 10) {
            return None;
        }
    }
    let text = format!("{sign}{}", body.replace('_', ""));
    if frac.is_none() && exponent.is_none() {
        return text.parse::<i64>().ok().map(|n| n.to_string());
    }
    text.parse::<f64>().ok().filter(|f| f.is_finite())?;
    Some(text)
}

/// Digits of `radix`, underscores only between two digits.
fn underscored(digits: &str, radix: u32) -> bool {
    let b = digits.as_bytes();
    !b.is_empty()
        && b.iter().enumerate().all(|(i, &c)| {
            (c as char).is_digit(radix)
                || c == b'_'
                    && i > 0
                    && i + 1 < b.len()
                    && (b[i - 1] as char).is_digit(radix)
                    && (b[i + 1] as char).is_digit(radix)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> serde_json::Value {
        read(text).expect(text).to_json()
    }

    #[test]
    fn a_codex_config_is_read_with_its_lines() {
        let text = "model = \"o3\" # the model\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\n  \"-y\", # the package\n  \"docs-mcp\",\n]\nenv = { API_KEY = \"x\", \"quoted key\" = 'lit' }\nenabled = false\nstartup_timeout_sec = 20\n\n[mcp_servers.docs.extra]\nk = 1_000\n";
        let n = read(text).expect("read");
        let docs = n.at(&["mcp_servers", "docs"]).expect("docs");
        assert_eq!(docs.line, 3);
        assert_eq!(docs.get("args").map(|a| a.items().len()), Some(2));
        assert_eq!(
            docs.at(&["env", "quoted key"]).and_then(Node::as_str),
            Some("lit")
        );
        assert_eq!(docs.get("enabled").and_then(Node::as_bool), Some(false));
        assert_eq!(
            docs.at(&["extra", "k"]).map(|k| k.to_json()),
            Some(serde_json::json!(1000))
        );
    }

    #[test]
    fn tables_dotted_keys_and_arrays_of_tables_build_one_tree() {
        let got = json(
            "a.b = 1\n[x.y]\nz = 2\n[x]\nw = 3\n[[t]]\nn = 1\n[[t]]\nn = 2\n[t.sub]\nq = 'q'\n",
        );
        let want = serde_json::json!({"a": {"b": 1}, "x": {"y": {"z": 2}, "w": 3},
            "t": [{"n": 1}, {"n": 2, "sub": {"q": "q"}}]});
        assert_eq!(got, want);
        assert_eq!(
            json("s = \"\"\"\nline\\\n   joined \"q\"\"\"\"\n"),
            serde_json::json!({"s": "linejoined \"q\""})
        );
        assert_eq!(
            json("s = '''\nraw \\n'''\n"),
            serde_json::json!({"s": "raw \\n"})
        );
        assert_eq!(
            json("h = 0xff\no = 0o17\nb = 0b101\nf = -1.5e3\ni = +7\n"),
            serde_json::json!({"h": 255, "o": 15, "b": 5, "f": -1500.0, "i": 7})
        );
    }

    #[test]
    fn what_toml_forbids_or_the_reader_does_not_read_is_refused_with_its_line() {
        let cases = [
            ("a = 1\na = 2\n", 2, "defined twice"),
            ("[t]\n[t]\n", 2, "defined twice"),
            ("[f]\napple.color = 1\n[f.apple]\n", 3, "defined twice"),
            ("t = {a = 1}\n[t]\n", 2, "defined twice"),
            ("d = 1979-05-27T07:32:00Z\n", 1, "date-time"),
            ("a = 1 b = 2\n", 1, "more on the line"),
            ("a = \"open\n", 1, "past the end"),
            ("a = 01\n", 1, "not a TOML value"),
            ("a = 1__0\n", 1, "not a TOML value"),
            ("a = bare\n", 1, "strings need quotes"),
            ("\n\na = [1,\n2\n", 3, "not closed"),
            ("a = [1 2]\n", 1, "expected ','"),
            ("a = { b = 1\n", 1, "not closed"),
            ("a = { b = 1 c = 2 }\n", 1, "expected ','"),
            ("a = \"\\q\"\n", 1, "unknown escape"),
        ];
        for (text, line, why) in cases {
            let e = read(text).expect_err(text);
            assert_eq!(
                (e.line, e.reason.contains(why)),
                (line, true),
                "{text}: {e:?}"
            );
        }
    }
}
