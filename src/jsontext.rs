//! Reading JSON text as servers write it, in bounded memory. serde_json
//! reads small texts; everything else, and the three things JSON allows and
//! serde refuses (a lone surrogate escape, `"caf\udce9.txt"`, what Python's
//! `json.dumps` makes of a non-UTF-8 file name; nesting deeper than 128;
//! a number beyond a double's range, `1e400`), goes through a small
//! iterative parser. It first measures the text (its containers and their
//! sizes, its strings, its depth) without building anything, refuses a text
//! whose parsed form would take more memory than the caller allows
//! (`Fail::TooLarge`: a dense valid message costs up to 70 times its bytes
//! as `Value`s), then builds every array and object at its exact size (no
//! doubling, no slack). A lone surrogate becomes U+FFFD, a huge number the
//! largest double of its sign (both noted), and what is nested deeper than
//! `MAX_DEPTH` is read past and kept as the `ELIDED` marker (noted), so a
//! message of any depth is still a message and its envelope is judged.
//! When a text is refused, the message says why.

use serde_json::{Map, Number, Value};

/// Deepest nesting kept; what lies deeper is replaced by `ELIDED`.
pub const MAX_DEPTH: usize = 1024;
/// What stands where a value nested deeper than `MAX_DEPTH` was.
pub const ELIDED: &str = "<nested deeper than 1024 levels: not kept>";
/// Texts this short go to serde_json first (their parsed form is small
/// whatever they hold).
const SMALL: usize = 64 * 1024;

/// What was unusual about a JSON text that was still accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quirks {
    /// A `\uD800`-`\uDFFF` escape without its pair (replaced by U+FFFD).
    pub lone_surrogate: bool,
    /// A number beyond the range of a double (clamped).
    pub huge_number: bool,
    /// Nesting deeper than `MAX_DEPTH` (elided).
    pub too_deep: bool,
}

/// How deeply `value` nests (a scalar is 0, `[]` is 1), without recursion.
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        deepest = deepest.max(d + 1);
        stack.extend(children.map(|c| (c, d + 1)));
    }
    deepest
}

/// Replaces every container nested deeper than `levels` with the string
/// `mark`, without recursion.
pub fn cut(value: &mut Value, levels: usize, mark: &str) {
    let mut stack: Vec<(&mut Value, usize)> = vec![(value, 1)];
    while let Some((v, depth)) = stack.pop() {
        let children: Vec<&mut Value> = match v {
            Value::Array(items) => items.iter_mut().collect(),
            Value::Object(map) => map.values_mut().collect(),
            _ => continue,
        };
        for child in children {
            if depth >= levels && (child.is_array() || child.is_object()) {
                *child = Value::String(mark.into());
            } else {
                stack.push((child, depth + 1));
            }
        }
    }
}

/// Why a text was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fail {
    /// Not JSON: why.
    Syntax(String),
    /// JSON whose parsed form would take about `estimate` bytes, more
    /// than `budget`.
    TooLarge { estimate: u64, budget: u64 },
}

/// The memory a message of `len` bytes may take once parsed: 40 times its
/// size and a megabyte (any real server's message fits: ordinary JSON
/// takes about 8 times its size), at most 192 MiB.
pub fn message_budget(len: usize) -> u64 {
    (len as u64)
        .saturating_mul(40)
        .saturating_add(1 << 20)
        .min(192 << 20)
}

/// Parses one JSON text, bounded only by its size.
pub fn parse(text: &str) -> Result<(Value, Quirks), String> {
    parse_within(text, u64::MAX).map_err(|f| match f {
        Fail::Syntax(why) => why,
        Fail::TooLarge { .. } => "too large".to_string(),
    })
}

/// Parses one JSON text whose parsed form may take at most `budget` bytes.
pub fn parse_within(text: &str, budget: u64) -> Result<(Value, Quirks), Fail> {
    if text.len() <= SMALL
        && let Ok(v) = serde_json::from_str(text)
    {
        return Ok((v, Quirks::default()));
    }
    let shape = measure_within(text, budget)?;
    let mut p = Parser {
        src: text.as_bytes(),
        pos: 0,
        quirks: Quirks::default(),
        sizes: shape.sizes,
        next_size: 0,
    };
    match p.document() {
        Ok(v) => Ok((v, p.quirks)),
        Err(Some(why)) => Err(Fail::Syntax(why)),
        Err(None) => Err(Fail::Syntax("the text ends inside a value".into())),
    }
}

/// Whether a text's parsed form would fit in `budget` bytes (what
/// `parse_within` refuses as `Fail::TooLarge`), measured without building
/// it; a broken bracket or string is `Fail::Syntax`.
pub fn fits(text: &str, budget: u64) -> Result<(), Fail> {
    if text.len() <= SMALL {
        return Ok(());
    }
    measure_within(text, budget).map(|_| ())
}

/// A text's shape, refused when its parsed form would pass `budget`.
fn measure_within(text: &str, budget: u64) -> Result<Shape, Fail> {
    let shape = measure(text.as_bytes()).map_err(Fail::Syntax)?;
    if shape.estimate > budget {
        return Err(Fail::TooLarge {
            estimate: shape.estimate,
            budget,
        });
    }
    Ok(shape)
}

/// The deepest nesting `value_end` reads (deeper is `None`: the caller
/// parses the text, which reads any depth).
const STRICT_DEPTH: usize = 128;

/// The index after the whitespace at `i`.
pub fn skip_ws(src: &[u8], mut i: usize) -> usize {
    while matches!(src.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Where the JSON value that starts at `i` ends, read strictly as RFC 8259
/// writes it and without building anything; `None` for anything else, and
/// for what `parse` reads only with a quirk (a surrogate escape, nesting
/// deeper than `STRICT_DEPTH`): the caller then parses the text, which
/// says why. `src` is UTF-8 (the caller checked it).
pub fn value_end(src: &[u8], mut i: usize) -> Option<usize> {
    // The open containers: true for an object.
    let mut open: Vec<bool> = Vec::new();
    loop {
        // A value.
        i = skip_ws(src, i);
        match *src.get(i)? {
            b'{' | b'[' => {
                let object = src[i] == b'{';
                i = skip_ws(src, i + 1);
                if src.get(i) == Some(if object { &b'}' } else { &b']' }) {
                    i += 1;
                } else {
                    if open.len() == STRICT_DEPTH {
                        return None;
                    }
                    open.push(object);
                    if object {
                        i = member_key(src, i)?;
                    }
                    continue;
                }
            }
            b'"' => i = string_end_strict(src, i)?,
            b't' => i = literal(src, i, b"true")?,
            b'f' => i = literal(src, i, b"false")?,
            b'n' => i = literal(src, i, b"null")?,
            b'-' | b'0'..=b'9' => i = number_end(src, i)?,
            _ => return None,
        }
        // After a value: the containers it closes, then the next value.
        loop {
            let Some(&object) = open.last() else {
                return Some(i);
            };
            i = skip_ws(src, i);
            match *src.get(i)? {
                b',' => {
                    i += 1;
                    if object {
                        i = member_key(src, skip_ws(src, i))?;
                    }
                    break;
                }
                b'}' if object => {
                    open.pop();
                    i += 1;
                }
                b']' if !object => {
                    open.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

/// A member's key and its colon, from `i`: where its value may start.
fn member_key(src: &[u8], i: usize) -> Option<usize> {
    if src.get(i) != Some(&b'"') {
        return None;
    }
    let i = skip_ws(src, string_end_strict(src, i)?);
    (src.get(i) == Some(&b':')).then_some(i + 1)
}

fn literal(src: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    src.get(i..i + word.len())
        .filter(|w| *w == word)
        .map(|_| i + word.len())
}

/// The index after the string whose opening quote is at `i`: no raw
/// control character, every escape one of JSON's; a `\u` escape of a
/// surrogate is `None` (`parse` reads lone ones with a quirk).
pub fn string_end_strict(src: &[u8], i: usize) -> Option<usize> {
    let mut k = i + 1;
    loop {
        k = plain_run_end(src, k);
        match *src.get(k)? {
            b'"' => return Some(k + 1),
            b'\\' => match *src.get(k + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => k += 2,
                b'u' => {
                    let hex = src.get(k + 2..k + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit)
                        || matches!(hex[0], b'd' | b'D') && !matches!(hex[1], b'0'..=b'7')
                    {
                        return None;
                    }
                    k += 6;
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => k += 1,
        }
    }
}

/// Bytes of a block that are 0 (the high bit of each such byte set): the
/// word-at-a-time test, exact for whether any byte is.
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080
}

/// Where the run of bytes from `k` that end no string and escape nothing
/// (not `"`, not `\\`, not a control character) ends, read eight bytes at
/// a time; the byte there is looked at by the caller.
fn plain_run_end(src: &[u8], mut k: usize) -> usize {
    while let Some(block) = src.get(k..k + 8) {
        let x = u64::from_le_bytes(block.try_into().unwrap_or([0; 8]));
        let quote = zero_bytes(x ^ 0x2222_2222_2222_2222);
        let backslash = zero_bytes(x ^ 0x5c5c_5c5c_5c5c_5c5c);
        let control = x.wrapping_sub(0x2020_2020_2020_2020) & !x & 0x8080_8080_8080_8080;
        if quote | backslash | control != 0 {
            break;
        }
        k += 8;
    }
    k
}

/// The first `needle` in `hay`, read eight bytes at a time.
pub fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let splat = u64::from(needle) * 0x0101_0101_0101_0101;
    let mut k = 0;
    while let Some(block) = hay.get(k..k + 8) {
        let x = u64::from_le_bytes(block.try_into().unwrap_or([0; 8]));
        let hit = zero_bytes(x ^ splat);
        if hit != 0 {
            return Some(k + hit.trailing_zeros() as usize / 8);
        }
        k += 8;
    }
    hay[k..].iter().position(|&b| b == needle).map(|p| k + p)
}

/// The index after the number that starts at `i`.
fn number_end(src: &[u8], mut i: usize) -> Option<usize> {
    let digits = |src: &[u8], mut i: usize| {
        let from = i;
        while src.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > from).then_some(i)
    };
    if src.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match src.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(src, i)?,
        _ => return None,
    };
    if src.get(i) == Some(&b'.') {
        i = digits(src, i + 1)?;
    }
    if matches!(src.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(src.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(src, i)?;
    }
    Some(i)
}

/// What a text will take once parsed, read without building it.
struct Shape {
    /// Each container's element count, in the order they open.
    sizes: Vec<u32>,
    /// About how many bytes the parsed form takes.
    estimate: u64,
}

/// Bytes a `Value` takes in its parent; what an object member adds (its
/// key's `String` and hash, its index); what an allocation costs beyond
/// its bytes.
const VALUE: u64 = 72;
const MEMBER: u64 = 48;
const ALLOC: u64 = 16;

/// Measures `src` in one pass; an error names a broken bracket or string
/// (the builder checks the rest). Nothing is allocated per value.
fn measure(src: &[u8]) -> Result<Shape, String> {
    let at = |what: &str, i: usize| format!("{what} at column {}", i + 1);
    let mut sizes: Vec<u32> = Vec::new();
    // Open containers: (index in `sizes`, is an object, saw an element).
    let mut open: Vec<(usize, bool, bool)> = Vec::new();
    let mut estimate: u64 = VALUE;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        match b {
            b'[' | b'{' => {
                if let Some(top) = open.last_mut() {
                    top.2 = true;
                }
                estimate += VALUE + ALLOC;
                open.push((sizes.len(), b == b'{', false));
                sizes.push(0);
                i += 1;
            }
            b']' | b'}' => {
                let Some((k, object, saw)) = open.pop() else {
                    return Err(at("a closing bracket that closes nothing", i));
                };
                if object != (b == b'}') {
                    return Err(at("a closing bracket of the wrong kind", i));
                }
                if saw {
                    sizes[k] += 1;
                }
                i += 1;
            }
            b',' => {
                let Some(&(k, _, _)) = open.last() else {
                    return Err(at("trailing characters", i));
                };
                sizes[k] += 1;
                i += 1;
            }
            b'"' => {
                let Some(end) = string_end(src, i + 1) else {
                    return Err(at("an unterminated string", i));
                };
                let len = (end - i - 1) as u64;
                let is_key = open.last().is_some_and(|t| t.1)
                    && src[end + 1..]
                        .iter()
                        .find(|c| !c.is_ascii_whitespace())
                        .is_some_and(|&c| c == b':');
                estimate += len + ALLOC + if is_key { MEMBER } else { VALUE };
                if let Some(top) = open.last_mut() {
                    top.2 = true;
                }
                i = end + 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b':' => i += 1,
            _ => {
                // A number or a literal: one value.
                if let Some(top) = open.last_mut() {
                    top.2 = true;
                }
                estimate += VALUE;
                while i < src.len() && !b"[]{},: \t\n\r\"".contains(&src[i]) {
                    i += 1;
                }
            }
        }
    }
    if !open.is_empty() {
        return Err("the text ends before its brackets close".into());
    }
    Ok(Shape { sizes, estimate })
}

/// Where the string that starts at `from` (after its quote) ends: the
/// index of its closing quote.
fn string_end(src: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let rel = src[from..].iter().position(|&b| b == b'"' || b == b'\\')?;
        let at = from + rel;
        if src[at] == b'"' {
            return Some(at);
        }
        from = at + 2;
        if from > src.len() {
            return None;
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
    /// Each container's element count, in the order they open.
    sizes: Vec<u32>,
    next_size: usize,
}

/// A parse failure: why, or `None` for a text that ends too soon.
type Why = Option<String>;

impl Parser<'_> {
    fn fail<T>(&self, what: &str) -> Result<T, Why> {
        Err(Some(format!("{what} at column {}", self.pos + 1)))
    }

    fn skip_ws(&mut self) {
        while matches!(self.src.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn document(&mut self) -> Result<Value, Why> {
        let v = self.value()?;
        self.skip_ws();
        if self.pos != self.src.len() {
            return self.fail("trailing characters after the JSON value");
        }
        Ok(v)
    }

    /// One value, containers included, with an explicit stack.
    fn value(&mut self) -> Result<Value, Why> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            self.skip_ws();
            let mut done = match self.src.get(self.pos) {
                Some(b'[') | Some(b'{') if stack.len() >= MAX_DEPTH => {
                    self.quirks.too_deep = true;
                    self.skip_container();
                    Value::String(ELIDED.to_string())
                }
                Some(b'[') | Some(b'{') => {
                    let size = self.sizes.get(self.next_size).copied().unwrap_or(0) as usize;
                    self.next_size += 1;
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
                        stack.push(Open::Array(Vec::with_capacity(size)));
                        continue;
                    } else {
                        let key = self.key()?;
                        stack.push(Open::Object(Map::with_capacity(size), Some(key)));
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

    /// Reads past the container at `pos` (deeper than `MAX_DEPTH`), its
    /// brackets and strings only (`measure` found them balanced), and the
    /// sizes of the containers inside it.
    fn skip_container(&mut self) {
        let mut depth = 0usize;
        while let Some(&b) = self.src.get(self.pos) {
            match b {
                b'[' | b'{' => {
                    depth += 1;
                    self.next_size += 1;
                }
                b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                }
                b'"' => {
                    self.pos = string_end(self.src, self.pos + 1).unwrap_or(self.src.len());
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// An object key and its colon.
    fn key(&mut self) -> Result<String, Why> {
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

    fn scalar(&mut self) -> Result<Value, Why> {
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

    fn number(&mut self) -> Result<Value, Why> {
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

    fn hex4(&mut self) -> Result<u32, Why> {
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
    fn string(&mut self) -> Result<String, Why> {
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
    fn escape(&mut self, out: &mut String) -> Result<(), Why> {
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
    fn surrogates(&mut self, hi: u32) -> Result<char, Why> {
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
    fn nesting_past_the_bound_is_elided_and_the_rest_kept() {
        let deep = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
        let (v, q) = parse(&deep).expect("1000 levels");
        assert!(v.is_array() && !q.too_deep);
        let deeper = format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{{"x":{}1{}}}}}"#,
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let (v, q) = parse(&deeper).expect("5000 levels");
        assert!(q.too_deep);
        assert_eq!(v["id"], 7);
        let mut at = &v["result"]["x"];
        let mut levels = 1;
        while let Some(inner) = at.get(0) {
            at = inner;
            levels += 1;
        }
        assert_eq!(at, ELIDED);
        assert_eq!(levels, MAX_DEPTH - 1);
        let objects = format!("{}1{}", "{\"a\":".repeat(500), "}".repeat(500));
        assert!(parse(&objects).is_ok());
    }

    #[test]
    fn a_dense_text_is_refused_before_it_is_built_and_a_kept_one_has_no_slack() {
        // About 46 MB once built (40 times its size): refused under a
        // 20 MiB budget, never built.
        let dense = format!("[{}0]", "[0],".repeat(300_000));
        match parse_within(&dense, 20 << 20) {
            Err(Fail::TooLarge { estimate, budget }) => {
                assert!(estimate > 40_000_000 && budget == 20 << 20, "{estimate}")
            }
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("built"),
        }
        assert!(parse_within(&dense, message_budget(dense.len())).is_ok());
        let zeros = format!("[{}0]", "0,".repeat(250_000));
        let (v, _) = parse_within(&zeros, message_budget(zeros.len())).expect("kept");
        let items = v.as_array().expect("array");
        assert_eq!(items.len(), 250_001);
        assert_eq!(items.capacity(), items.len());
        let big_object = format!(
            "{{{}\"z\":0}}",
            (0..20_000)
                .map(|i| format!("\"k{i}\":[1,2],"))
                .collect::<String>()
        );
        let (v, _) = parse(&big_object).expect("object");
        assert_eq!(v.as_object().map(|m| m.len()), Some(20_001));
        assert_eq!(v["k7"], serde_json::json!([1, 2]));
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

    #[test]
    fn the_block_readers_find_what_a_byte_loop_finds() {
        let text =
            "{\"a\":\"0123456789abcdef\\\"x\",\"b\":\"tab\there\",\"c\":\"\\u00e9 caf\u{e9}\"}"
                .as_bytes();
        for from in 0..text.len() {
            let hay = &text[from..];
            for needle in [b'"', b'\\', b'x', b'\n', b'}'] {
                assert_eq!(
                    find_byte(hay, needle),
                    hay.iter().position(|&b| b == needle),
                    "{from} {needle}"
                );
            }
            let slow = (from..text.len())
                .find(|&k| matches!(text[k], b'"' | b'\\' | 0..=0x1f))
                .unwrap_or(text.len());
            let fast = plain_run_end(text, from);
            assert!(
                fast <= slow && (from..fast).all(|k| !matches!(text[k], b'"' | b'\\' | 0..=0x1f)),
                "{from}"
            );
        }
        assert_eq!(string_end_strict(br#""abc\"def" "#, 0), Some(10));
        assert_eq!(string_end_strict(b"\"a\tb\"", 0), None);
    }
}
