//! Reading JSON text as servers write it. serde_json does almost all of it;
//! three things JSON allows it refuses, and real SDKs write them: a lone
//! surrogate escape (`"caf\udce9.txt"`, what Python's `json.dumps` makes of
//! a non-UTF-8 file name), nesting deeper than 128 (Node and Python accept
//! about 1000), and a number beyond the range of a double (`1e400`). For
//! those lines a small iterative parser builds the value itself: a lone
//! surrogate becomes U+FFFD (and is noted), a huge number the largest
//! double of its sign, and nesting is bounded at `MAX_DEPTH` without
//! recursion. When a line is rejected, the message says why.

use serde_json::{Map, Number, Value};

/// Deepest nesting accepted.
pub const MAX_DEPTH: usize = 1024;

/// What was unusual about a JSON text that was still accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quirks {
    /// A `\uD800`-`\uDFFF` escape without its pair (replaced by U+FFFD).
    pub lone_surrogate: bool,
    /// A number beyond the range of a double (clamped).
    pub huge_number: bool,
}

/// Parses one JSON text.
pub fn parse(text: &str) -> Result<(Value, Quirks), String> {
    match serde_json::from_str(text) {
        Ok(v) => Ok((v, Quirks::default())),
        Err(e) => {
            let mut p = Parser {
                src: text.as_bytes(),
                pos: 0,
                quirks: Quirks::default(),
            };
            match p.document() {
                Ok(v) => Ok((v, p.quirks)),
                // Our own words where we know better, else serde's.
                Err(Some(why)) => Err(why),
                Err(None) => Err(e.to_string()),
            }
        }
    }
}

/// A container being filled.
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, Option<String>),
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    quirks: Quirks,
}

/// A parse failure: our message, or `None` to let serde's stand.
type Fail = Option<String>;

impl Parser<'_> {
    fn fail<T>(&self, what: &str) -> Result<T, Fail> {
        Err(Some(format!("{what} at column {}", self.pos + 1)))
    }

    fn skip_ws(&mut self) {
        while matches!(self.src.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn document(&mut self) -> Result<Value, Fail> {
        let v = self.value()?;
        self.skip_ws();
        if self.pos != self.src.len() {
            return self.fail("trailing characters after the JSON value");
        }
        Ok(v)
    }

    /// One value, containers included, with an explicit stack.
    fn value(&mut self) -> Result<Value, Fail> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            self.skip_ws();
            let mut done = match self.src.get(self.pos) {
                Some(b'[') | Some(b'{') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(Some(format!(
                            "nested deeper than {MAX_DEPTH} levels at column {}",
                            self.pos + 1
                        )));
                    }
                    let array = self.src[self.pos] == b'[';
                    self.pos += 1;
                    self.skip_ws();
                    let close = if array { b']' } else { b'}' };
                    if self.src.get(self.pos) == Some(&close) {
                        self.pos += 1;
                        if array {
                            Value::Array(Vec::new())
                        } else {
                            Value::Object(Map::new())
                        }
                    } else if array {
                        stack.push(Open::Array(Vec::new()));
                        continue;
                    } else {
                        let key = self.key()?;
                        stack.push(Open::Object(Map::new(), Some(key)));
                        continue;
                    }
                }
                _ => self.scalar()?,
            };
            // Hand the finished value to the containers it closes.
            loop {
                let Some(top) = stack.last_mut() else {
                    return Ok(done);
                };
                match top {
                    Open::Array(items) => items.push(done),
                    Open::Object(map, key) => {
                        if let Some(k) = key.take() {
                            map.insert(k, done);
                        }
                    }
                }
                self.skip_ws();
                let is_array = matches!(top, Open::Array(_));
                match (self.src.get(self.pos), is_array) {
                    (Some(b','), true) => {
                        self.pos += 1;
                        break;
                    }
                    (Some(b','), false) => {
                        self.pos += 1;
                        let k = self.key()?;
                        if let Some(Open::Object(_, key)) = stack.last_mut() {
                            *key = Some(k);
                        }
                        break;
                    }
                    (Some(b']'), true) | (Some(b'}'), false) => {
                        self.pos += 1;
                        done = match stack.pop() {
                            Some(Open::Array(items)) => Value::Array(items),
                            Some(Open::Object(map, _)) => Value::Object(map),
                            None => return self.fail("unbalanced brackets"),
                        };
                    }
                    _ => return self.fail("expected , or a closing bracket"),
                }
            }
        }
    }

    /// An object key and its colon.
    fn key(&mut self) -> Result<String, Fail> {
        self.skip_ws();
        if self.src.get(self.pos) != Some(&b'"') {
            return self.fail("expected a string key");
        }
        let k = self.string()?;
        self.skip_ws();
        if self.src.get(self.pos) != Some(&b':') {
            return self.fail("expected :");
        }
        self.pos += 1;
        Ok(k)
    }

    fn scalar(&mut self) -> Result<Value, Fail> {
        let rest = &self.src[self.pos..];
        for (word, v) in [
            (&b"true"[..], Value::Bool(true)),
            (b"false", Value::Bool(false)),
            (b"null", Value::Null),
        ] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return Ok(v);
            }
        }
        match rest.first() {
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.fail("expected a value"),
            None => Err(None),
        }
    }

    fn number(&mut self) -> Result<Value, Fail> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while matches!(p.src.get(p.pos), Some(b'0'..=b'9')) {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.src.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let leading_zero = self.src.get(self.pos) == Some(&b'0');
        if !digits(self) {
            return self.fail("expected digits");
        }
        if leading_zero && self.pos - start > 1 + usize::from(self.src[start] == b'-') {
            return self.fail("a number with a leading zero");
        }
        if self.src.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return self.fail("expected digits after the decimal point");
            }
        }
        if matches!(self.src.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.src.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return self.fail("expected exponent digits");
            }
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("0");
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        let f: f64 = text.parse().unwrap_or(0.0);
        let f = if f.is_finite() {
            f
        } else {
            self.quirks.huge_number = true;
            f64::MAX.copysign(f)
        };
        Ok(Number::from_f64(f).map_or(Value::Null, Value::Number))
    }

    fn hex4(&mut self) -> Result<u32, Fail> {
        let digits = self.src.get(self.pos..self.pos + 4);
        let Some(v) = digits
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
        else {
            return self.fail("expected four hex digits after \\u");
        };
        self.pos += 4;
        Ok(v)
    }

    /// A string at `self.pos` (its opening quote).
    fn string(&mut self) -> Result<String, Fail> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.src[self.pos..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            let Some(run) = run else {
                return self.fail("unterminated string");
            };
            out.push_str(
                std::str::from_utf8(&self.src[self.pos..self.pos + run]).unwrap_or("\u{fffd}"),
            );
            self.pos += run;
            match self.src[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => self.escape(&mut out)?,
                _ => return self.fail("a control character inside a string"),
            }
        }
    }

    /// One escape (at its backslash).
    fn escape(&mut self, out: &mut String) -> Result<(), Fail> {
        self.pos += 1;
        let c = match self.src.get(self.pos) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let hi = self.hex4()?;
                out.push(self.surrogates(hi)?);
                return Ok(());
            }
            _ => return self.fail("an invalid escape"),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    /// The character of `\uXXXX` (its hex already read), pairing a high
    /// surrogate with a following low one; a lone one is U+FFFD.
    fn surrogates(&mut self, hi: u32) -> Result<char, Fail> {
        if !(0xD800..0xE000).contains(&hi) {
            return Ok(char::from_u32(hi).unwrap_or('\u{fffd}'));
        }
        if hi < 0xDC00 && self.src[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4()?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
            self.pos = save;
        }
        self.quirks.lone_surrogate = true;
        Ok('\u{fffd}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_serde_reads_is_read_unchanged() {
        let (v, q) = parse(r#"{"a":[1,2.5,"x\n",null,true]}"#).expect("json");
        assert_eq!(v, json!({"a": [1, 2.5, "x\n", null, true]}));
        assert_eq!(q, Quirks::default());
    }

    #[test]
    fn a_lone_surrogate_is_accepted_and_noted() {
        let (v, q) = parse(r#"{"name":"caf\udce9.txt","ok":"\ud83d\ude00"}"#).expect("json");
        assert_eq!(v["name"], "caf\u{fffd}.txt");
        assert_eq!(v["ok"], "😀");
        assert!(q.lone_surrogate);
    }

    #[test]
    fn deep_nesting_is_accepted_up_to_the_bound_and_refused_past_it() {
        let deep = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
        let (v, _) = parse(&deep).expect("1000 levels");
        assert!(v.is_array());
        let deeper = format!("{}1{}", "[".repeat(2000), "]".repeat(2000));
        let e = parse(&deeper).expect_err("2000 levels");
        assert!(e.contains("nested deeper than 1024"), "{e}");
        let objects = format!("{}1{}", "{\"a\":".repeat(500), "}".repeat(500));
        assert!(parse(&objects).is_ok());
    }

    #[test]
    fn huge_numbers_are_clamped_and_noted() {
        let (v, q) =
            parse(r#"{"n": 1e400, "m": -1e400, "i": 18446744073709551615}"#).expect("json");
        assert_eq!(v["n"], json!(f64::MAX));
        assert_eq!(v["m"], json!(-f64::MAX));
        assert_eq!(v["i"], json!(u64::MAX));
        assert!(q.huge_number);
    }

    #[test]
    fn rejections_name_the_cause() {
        assert!(parse("{not json}").is_err());
        let e = parse(r#"{"a": 1} x"#).expect_err("trailing");
        assert!(e.contains("trailing"), "{e}");
        assert!(parse("\"\\udce9").is_err());
        assert!(parse("").is_err());
        assert!(parse("[1,]").is_err());
        assert!(parse("[01]").is_err());
        assert!(parse("[-0, 0.5, 10]").is_ok());
        assert!(parse("{\"a\" 1}").is_err());
    }
}
