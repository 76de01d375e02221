//! JSON as hosts write it: comments (`//`, `/* */`) and trailing commas
//! allowed (VS Code, Zed and Cursor files carry both), every value with its
//! line. Nesting is bounded; anything else that is not JSON is refused with
//! its line. Pure.

use super::tree::{MAX_DEPTH, Node, Refusal, Value};

/// Reads one JSON-with-comments document.
pub fn read(text: &str) -> Result<Node, Refusal> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        line: 1,
    };
    if p.s.starts_with(b"\xEF\xBB\xBF") {
        p.i = 3;
    }
    p.blank()?;
    let node = p.value(0)?;
    p.blank()?;
    if p.i < p.s.len() {
        return Err(p.refuse("more after the end of the document"));
    }
    Ok(node)
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

    /// Skips white space and comments, counting lines.
    fn blank(&mut self) -> Result<(), Refusal> {
        while let Some(b) = self.peek() {
            match b {
                b'\n' => {
                    self.line += 1;
                    self.i += 1;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'/' if self.s.get(self.i + 1) == Some(&b'/') => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'/' if self.s.get(self.i + 1) == Some(&b'*') => {
                    let start = self.line;
                    self.i += 2;
                    loop {
                        match self.peek() {
                            None => return Err(Refusal::at(start, "a /* comment is not closed")),
                            Some(b'*') if self.s.get(self.i + 1) == Some(&b'/') => {
                                self.i += 2;
                                break;
                            }
                            Some(b'\n') => self.line += 1,
                            _ => {}
                        }
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Node, Refusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(format!("values nest deeper than {MAX_DEPTH} levels")));
        }
        let line = self.line;
        let start = self.i;
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b) => return Err(self.refuse(format!("unexpected {}", shown(b)))),
            None => return Err(self.refuse("the document ends where a value should be")),
        };
        Ok(Node {
            line,
            value,
            span: (start, self.i),
        })
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, Refusal> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(value)
        } else {
            Err(self.refuse("unexpected word (strings need double quotes)"))
        }
    }

    fn number(&mut self) -> Result<Value, Refusal> {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        match serde_json::from_str::<serde_json::Number>(text) {
            Ok(_) => Ok(Value::Num(text.to_string())),
            Err(_) => Err(self.refuse(format!("'{text}' is not a JSON number"))),
        }
    }

    /// A list of values or of entries: `open` item (`,` item)* `,`? `close`.
    fn items(
        &mut self,
        close: u8,
        mut each: impl FnMut(&mut Self) -> Result<(), Refusal>,
    ) -> Result<(), Refusal> {
        self.i += 1;
        loop {
            self.blank()?;
            match self.peek() {
                Some(b) if b == close => {
                    self.i += 1;
                    return Ok(());
                }
                None => return Err(self.refuse(format!("'{}' is missing", close as char))),
                _ => each(self)?,
            }
            self.blank()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b) if b == close => {}
                Some(b) => {
                    return Err(self.refuse(format!(
                        "expected ',' or '{}', found {}",
                        close as char,
                        shown(b)
                    )));
                }
                None => return Err(self.refuse(format!("'{}' is missing", close as char))),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, Refusal> {
        let mut entries = Vec::new();
        self.items(b'}', |p| {
            if p.peek() != Some(b'"') {
                return Err(p.refuse("a key must be a string in double quotes"));
            }
            let key = p.string()?;
            p.blank()?;
            if p.peek() != Some(b':') {
                return Err(p.refuse(format!("expected ':' after the key \"{key}\"")));
            }
            p.i += 1;
            p.blank()?;
            entries.push((key, p.value(depth + 1)?));
            Ok(())
        })?;
        Ok(Value::Map(entries))
    }

    fn array(&mut self, depth: usize) -> Result<Value, Refusal> {
        let mut items = Vec::new();
        self.items(b']', |p| {
            items.push(p.value(depth + 1)?);
            Ok(())
        })?;
        Ok(Value::List(items))
    }

    fn string(&mut self) -> Result<String, Refusal> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.refuse("a string is not closed"));
            };
            self.i += 1;
            match b {
                b'"' => break,
                b'\n' => return Err(self.refuse("a string runs past the end of its line")),
                b'\\' => self.escape(&mut out)?,
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.refuse("a string is not valid UTF-8"))
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let Some(e) = self.peek() else {
            return Err(self.refuse("a string is not closed"));
        };
        self.i += 1;
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode()?,
            _ => return Err(self.refuse(format!("unknown escape \\{}", e as char))),
        };
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, Refusal> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|d| std::str::from_utf8(d).ok());
        let n = digits.and_then(|d| u32::from_str_radix(d, 16).ok());
        let n = n.ok_or_else(|| self.refuse("\\u needs four hex digits"))?;
        self.i += 4;
        Ok(n)
    }

    /// `\uXXXX`, a surrogate pair joined; a lone surrogate is U+FFFD, as
    /// the hosts' JavaScript would keep something there.
    fn unicode(&mut self) -> Result<char, Refusal> {
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
            let at = self.i;
            self.i += 2;
            let lo = self.hex4()?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            self.i = at;
        }
        Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }
}

fn shown(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_read_and_lines_kept() {
        let text = "// a host file\n{\n  /* servers */\n  \"servers\": {\n    \"a\": {\"command\": \"x\", \"args\": [\"-y\",],},\n  },\n}\n";
        let n = read(text).expect("read");
        let a = n.at(&["servers", "a"]).expect("a");
        assert_eq!(a.line, 5);
        assert_eq!(a.get("args").map(|l| l.items().len()), Some(1));
        assert_eq!(n.get("servers").map(|s| s.line), Some(4));
    }

    #[test]
    fn what_is_not_json_is_refused_with_its_line() {
        let cases = [
            ("{\n\"a\": 1\n\"b\": 2}", 3, "expected ','"),
            ("{\n 'a': 1}", 2, "double quotes"),
            ("[1,\n2", 2, "']' is missing"),
            ("/* open", 1, "not closed"),
            ("{\"a\": tru}", 1, "unexpected word"),
            ("{\"a\": 01x}", 1, "not a JSON number"),
            ("{} {}", 1, "more after"),
        ];
        for (text, line, why) in cases {
            let e = read(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e:?}");
            assert!(e.reason.contains(why), "{text}: {e:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 2);
        assert!(
            read(&deep)
                .expect_err("deep")
                .reason
                .contains("nest deeper")
        );
    }

    #[test]
    fn strings_unescape_as_json_does() {
        let n = read(r#"{"k": "a\n\u00e9\ud83d\ude00\"\\"}"#).expect("read");
        assert_eq!(
            n.get("k").and_then(Node::as_str),
            Some("a\n\u{e9}\u{1F600}\"\\")
        );
        let plain = r#"{"x": [1, -2.5e3, true, null, {"y": "z"}]}"#;
        let want: serde_json::Value = serde_json::from_str(plain).expect("json");
        assert_eq!(read(plain).expect("read").to_json(), want);
    }
}
