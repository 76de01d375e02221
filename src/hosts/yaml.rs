//! The YAML that host configs use (Continue's `config.yaml`, Goose's
//! `config.yaml`): one document of block mappings and sequences by
//! indentation, flow lists and maps (`[a, b]`, `{k: v}`, over several lines
//! too), plain, single- and double-quoted scalars, literal and folded block
//! scalars, comments; scalars typed by the YAML 1.2 core schema. Anchors,
//! aliases, tags, complex keys, several documents, a key defined twice, tabs
//! in indentation and a plain scalar continued on the next line are refused
//! with their line: what is read is what a reference parser reads. Pure.

use super::tree::{MAX_DEPTH, Node, Refusal, Value};

/// One line of the file: its number, indentation and the text after it
/// (a comment taken off where it is one).
#[derive(Debug, Clone)]
struct Line {
    number: u32,
    indent: usize,
    text: String,
    /// The text with any comment kept (a block scalar's content).
    raw: String,
}

/// Reads one YAML document.
pub fn read(text: &str) -> Result<Node, Refusal> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    let mut started = false;
    let mut ended = false;
    for (n, raw) in text.split('\n').enumerate() {
        let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start_matches(' ');
        let indent = raw.len() - body.len();
        if body.starts_with('\t') {
            return Err(Refusal::at(
                number,
                "a tab in indentation (YAML indents with spaces)",
            ));
        }
        let text = strip_comment(body).trim_end().to_string();
        if text.is_empty() {
            continue;
        }
        if ended {
            return Err(Refusal::at(
                number,
                "content after the document's end (...)",
            ));
        }
        if indent == 0 && (text == "---" || text.starts_with("--- ")) {
            if started || text != "---" {
                return Err(Refusal::at(
                    number,
                    "more than one document, or content after ---",
                ));
            }
            started = true;
            continue;
        }
        if indent == 0 && text.starts_with('%') {
            return Err(Refusal::at(number, "a directive (not read)"));
        }
        if indent == 0 && text == "..." {
            ended = true;
            continue;
        }
        started = true;
        let raw = body.to_string();
        lines.push(Line {
            number,
            indent,
            text,
            raw,
        });
    }
    let source = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut p = Parser {
        lines,
        pos: 0,
        source,
    };
    let Some(first) = p.lines.first() else {
        return Ok(Node::new(1, Value::Null));
    };
    let (indent, line) = (first.indent, first.number);
    let root = p.block(indent, 0)?;
    if let Some(rest) = p.lines.get(p.pos) {
        return Err(Refusal::at(
            rest.number,
            "this line is indented less than the document it is in",
        ));
    }
    Ok(Node { line, ..root })
}

/// The text before a comment: `#` at the start or after white space,
/// outside quotes.
fn strip_comment(text: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '#') if prev == ' ' || prev == '\t' => return &text[..i],
            (None, '"' | '\'') if i == 0 || " \t[{,:-".contains(prev) => quote = Some(c),
            (Some('"'), '\\') => {}
            (Some(q), _) if c == q && !(q == '"' && prev == '\\') => quote = None,
            _ => {}
        }
        prev = if prev == '\\' && c == '\\' { ' ' } else { c };
    }
    text
}

struct Parser<'a> {
    lines: Vec<Line>,
    pos: usize,
    /// The file's lines as written, for block scalars.
    source: Vec<&'a str>,
}

impl Parser<'_> {
    fn line(&self) -> Option<&Line> {
        self.lines.get(self.pos)
    }

    /// The block at `indent` starting at the current line.
    fn block(&mut self, indent: usize, depth: usize) -> Result<Node, Refusal> {
        let Some(line) = self.line() else {
            return Ok(Node::new(0, Value::Null));
        };
        if depth > MAX_DEPTH {
            return Err(Refusal::at(
                line.number,
                format!("values nest deeper than {MAX_DEPTH} levels"),
            ));
        }
        if is_item(&line.text) {
            self.sequence(indent, depth)
        } else if split_key(&line.text, line.number)?.is_some() {
            self.mapping(indent, depth)
        } else {
            let (number, text) = (line.number, line.text.clone());
            self.pos += 1;
            let node = self.inline(&text, (number, indent), depth)?;
            if let Some(next) = self.line().filter(|l| l.indent > indent) {
                return Err(Refusal::at(
                    next.number,
                    "a value continues on the next line (not read)",
                ));
            }
            Ok(node)
        }
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Result<Node, Refusal> {
        let start = self.lines[self.pos].number;
        let mut items = Vec::new();
        while let Some(line) = self
            .line()
            .filter(|l| l.indent == indent && is_item(&l.text))
        {
            let number = line.number;
            let rest = line.text[1..].trim_start_matches(' ');
            if rest.starts_with('\t') {
                return Err(Refusal::at(
                    number,
                    "a tab after '- ' (YAML indents with spaces)",
                ));
            }
            if rest.is_empty() {
                self.pos += 1;
                items.push(self.child(indent, number, depth)?);
                continue;
            }
            if rest.starts_with('|') || rest.starts_with('>') {
                let head = rest.to_string();
                self.pos += 1;
                items.push(self.block_scalar(&head, indent, number)?);
                continue;
            }
            // `- key: value` or `- - x`: the rest is a block at its column.
            let column = indent + line.text.len() - rest.len();
            let rest = rest.to_string();
            let raw = line.raw[line.raw.len().min(line.text.len() - rest.len())..].to_string();
            self.lines[self.pos] = Line {
                number,
                indent: column,
                text: rest,
                raw,
            };
            items.push(self.block(column, depth + 1)?);
        }
        self.check_dedent(indent)?;
        Ok(Node::new(start, Value::List(items)))
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Result<Node, Refusal> {
        let start = self.lines[self.pos].number;
        let mut entries: Vec<(String, Node)> = Vec::new();
        while let Some(line) = self.line().filter(|l| l.indent == indent) {
            let number = line.number;
            let text = line.text.clone();
            if is_item(&text) {
                break;
            }
            let Some((key, rest)) = split_key(&text, number)? else {
                return Err(Refusal::at(number, "expected 'key: value' in a mapping"));
            };
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(Refusal::at(
                    number,
                    format!("the key '{key}' is defined twice"),
                ));
            }
            self.pos += 1;
            let value = if rest.is_empty() {
                match self.line() {
                    Some(l) if l.indent == indent && is_item(&l.text) => {
                        self.sequence(indent, depth + 1)?
                    }
                    _ => self.child(indent, number, depth)?,
                }
            } else if rest.starts_with('|') || rest.starts_with('>') {
                self.block_scalar(rest, indent, number)?
            } else {
                let node = self.inline(rest, (number, indent), depth)?;
                if let Some(next) = self.line().filter(|l| l.indent > indent) {
                    return Err(Refusal::at(
                        next.number,
                        "a value continues on the next line (not read)",
                    ));
                }
                node
            };
            entries.push((key, value));
        }
        self.check_dedent(indent)?;
        Ok(Node::new(start, Value::Map(entries)))
    }

    /// The value under a key or `-` with nothing after it: a block indented
    /// more, or null.
    fn child(&mut self, indent: usize, number: u32, depth: usize) -> Result<Node, Refusal> {
        match self.line() {
            Some(l) if l.indent > indent => {
                let inner = l.indent;
                self.block(inner, depth + 1)
            }
            _ => Ok(Node::new(number, Value::Null)),
        }
    }

    /// After a block: the next line must close it (less indented) or be
    /// its sibling; a line indented between is an error.
    fn check_dedent(&self, indent: usize) -> Result<(), Refusal> {
        match self.line() {
            Some(l) if l.indent > indent => Err(Refusal::at(
                l.number,
                "this line's indentation matches nothing above it",
            )),
            _ => Ok(()),
        }
    }

    /// A value on the line of its key: a flow list or map (joined with the
    /// next lines until it closes), or a scalar.
    fn inline(
        &mut self,
        text: &str,
        (number, indent): (u32, usize),
        depth: usize,
    ) -> Result<Node, Refusal> {
        if text.starts_with('[') || text.starts_with('{') {
            let mut joined = text.to_string();
            let mut last = number;
            loop {
                let (closed, open_quote) = closes(&joined);
                if closed {
                    break;
                }
                if open_quote {
                    return Err(Refusal::at(
                        last,
                        "a quoted string runs past its line (not read)",
                    ));
                }
                let Some(next) = self.line() else {
                    return Err(Refusal::at(number, "a flow list or map is not closed"));
                };
                if next.indent <= indent {
                    return Err(Refusal::at(
                        next.number,
                        "a flow list or map continues at its key's indentation or less",
                    ));
                }
                if next.number != last + 1 {
                    return Err(Refusal::at(
                        last + 1,
                        "a blank line or comment inside a flow list or map (not read)",
                    ));
                }
                last = next.number;
                joined.push(' ');
                joined.push_str(&next.text);
                self.pos += 1;
            }
            let mut f = Flow {
                s: joined.as_bytes(),
                i: 0,
                number,
            };
            let node = f.value(depth)?;
            f.spaces();
            if f.i < f.s.len() {
                return Err(Refusal::at(number, "more after a flow list or map"));
            }
            return Ok(node);
        }
        scalar(text, number).map(|v| Node::new(number, v))
    }

    /// `|` or `>` (with `-` or `+`): the lines indented more than `indent`.
    fn block_scalar(&mut self, head: &str, indent: usize, number: u32) -> Result<Node, Refusal> {
        let (folded, chomp) = (head.starts_with('>'), &head[1..]);
        if !matches!(chomp, "" | "-" | "+") {
            return Err(Refusal::at(
                number,
                "a block scalar header other than |, |-, |+, >, >-, >+",
            ));
        }
        // Read from the source lines: blank lines and `#` belong to it.
        let mut lines: Vec<&str> = Vec::new();
        let mut base = None;
        let mut k = number as usize;
        while let Some(raw) = self.source.get(k) {
            let body = raw.trim_start_matches(' ');
            let ind = raw.len() - body.len();
            let line = u32::try_from(k + 1).unwrap_or(u32::MAX);
            if body.is_empty() {
                if base.is_some_and(|b| ind > b) {
                    return Err(Refusal::at(
                        line,
                        "a blank line with more spaces than its block scalar (not read)",
                    ));
                }
                lines.push("");
                k += 1;
                continue;
            }
            if body.starts_with('\t') {
                return Err(Refusal::at(
                    line,
                    "a tab in indentation (YAML indents with spaces)",
                ));
            }
            if ind <= indent || base.is_some_and(|b| ind < b && body.starts_with('#')) {
                break;
            }
            let b = *base.get_or_insert(ind);
            if ind < b {
                return Err(Refusal::at(
                    line,
                    "a block scalar line indented less than its first",
                ));
            }
            if folded && ind != b {
                return Err(Refusal::at(
                    line,
                    "a folded scalar with more-indented lines (not read)",
                ));
            }
            lines.push(&raw[b..]);
            k += 1;
        }
        let trailing = lines.iter().rev().take_while(|l| l.is_empty()).count();
        let body = &lines[..lines.len() - trailing];
        if body.first().is_some_and(|l| l.is_empty()) || folded && body.contains(&"") {
            return Err(Refusal::at(
                number + 1,
                "a blank line inside a block scalar (not read)",
            ));
        }
        let mut out = body.join(if folded { " " } else { "\n" });
        if !body.is_empty() {
            match chomp {
                "-" => {}
                "+" => out.push_str(&"\n".repeat(trailing + 1)),
                _ => out.push('\n'),
            }
        } else if chomp == "+" {
            return Err(Refusal::at(number, "an empty kept block scalar (not read)"));
        }
        let end = u32::try_from(k).unwrap_or(u32::MAX);
        while self.line().is_some_and(|l| l.number <= end) {
            self.pos += 1;
        }
        Ok(Node::new(number, Value::Str(out)))
    }
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Whether a flow value's brackets all close (outside quotes), and
/// whether a quote is left open at its end.
fn closes(text: &str) -> (bool, bool) {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for c in text.chars() {
        match (quote, c) {
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q && !(q == '"' && prev == '\\') => quote = None,
            _ => {}
        }
        prev = if prev == '\\' && c == '\\' { ' ' } else { c };
    }
    (depth <= 0 && quote.is_none(), quote.is_some())
}

/// `key: rest` of a mapping line, or `None` when the line is no mapping
/// entry. A quoted key is unquoted; `? ` keys are refused.
fn split_key(text: &str, number: u32) -> Result<Option<(String, &str)>, Refusal> {
    if text.starts_with("? ") || text == "?" {
        return Err(Refusal::at(number, "a complex key (? ) is not read"));
    }
    if text.starts_with('"') || text.starts_with('\'') {
        let mut f = Flow {
            s: text.as_bytes(),
            i: 0,
            number,
        };
        let key = f.quoted()?;
        let rest = &text[f.i..];
        let rest = rest.trim_start_matches(' ');
        return Ok(rest
            .strip_prefix(':')
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .map(|r| (key, r.trim_start())));
    }
    if text.starts_with(['[', '{']) {
        return Ok(None);
    }
    let mut from = 0;
    while let Some(at) = text[from..].find(':') {
        let at = from + at;
        let after = &text[at + 1..];
        if after.is_empty() || after.starts_with([' ', '\t']) {
            let key = text[..at].trim_end();
            if key.is_empty() {
                return Err(Refusal::at(number, "an empty key"));
            }
            return match scalar(key, number)? {
                Value::Str(k) => Ok(Some((k, after.trim_start()))),
                Value::Null => Err(Refusal::at(number, "a null key")),
                _ => Ok(Some((key.to_string(), after.trim_start()))),
            };
        }
        from = at + 1;
    }
    Ok(None)
}

/// A plain or quoted scalar, typed by the YAML 1.2 core schema.
fn scalar(text: &str, number: u32) -> Result<Value, Refusal> {
    if text.starts_with('"') || text.starts_with('\'') {
        let mut f = Flow {
            s: text.as_bytes(),
            i: 0,
            number,
        };
        let s = f.quoted()?;
        if f.i < text.len() {
            return Err(Refusal::at(number, "more after a quoted string"));
        }
        return Ok(Value::Str(s));
    }
    plain(text, number)
}

fn plain(text: &str, number: u32) -> Result<Value, Refusal> {
    if let Some(c) = text.chars().next()
        && "&*!%@`|>:?,[]{}#\"'".contains(c)
    {
        let what = match c {
            '&' => "an anchor",
            '*' => "an alias",
            '!' => "a tag",
            _ => "a reserved indicator",
        };
        return Err(Refusal::at(number, format!("{what} ({c}) is not read")));
    }
    if text == "-" || text.starts_with("- ") || text.starts_with("-\t") {
        return Err(Refusal::at(number, "a list item where a value belongs"));
    }
    if text.contains(": ") || text.contains(":\t") || text.ends_with(':') {
        return Err(Refusal::at(number, "a plain value holds ': ' (quote it)"));
    }
    Ok(match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => number_of(text).map_or_else(|| Value::Str(text.to_string()), Value::Num),
    })
}

/// A core-schema number as JSON writes it, or `None` (then a string).
fn number_of(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let (sign, body) = match b.first() {
        Some(b'-') => (-1, &text[1..]),
        Some(b'+') => (1, &text[1..]),
        _ => (1, text),
    };
    for (prefix, radix) in [("0x", 16), ("0o", 8)] {
        if let Some(n) = body.strip_prefix(prefix) {
            let ok = !n.is_empty() && n.bytes().all(|c| (c as char).is_digit(radix));
            return ok
                .then(|| i64::from_str_radix(n, radix).ok())
                .flatten()
                .map(|n| (sign * n).to_string());
        }
    }
    let unsigned = b
        .strip_prefix(b"-")
        .or_else(|| b.strip_prefix(b"+"))
        .unwrap_or(b);
    if digits(unsigned) {
        // `007` stays a string, as the reference parsers keep it.
        if unsigned.len() > 1 && unsigned[0] == b'0' {
            return None;
        }
        return text.parse::<i64>().ok().map(|n| n.to_string());
    }
    let (mantissa, exp) = match unsigned.iter().position(|&c| c == b'e' || c == b'E') {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let exp_ok = exp.is_none_or(|e| {
        digits(
            e.strip_prefix(b"-")
                .or_else(|| e.strip_prefix(b"+"))
                .unwrap_or(e),
        )
    });
    let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
        Some(at) => (&mantissa[..at], Some(&mantissa[at + 1..])),
        None => (mantissa, None),
    };
    let mantissa_ok = match frac {
        Some(f) => {
            (digits(int) || int.is_empty())
                && (digits(f) || f.is_empty())
                && !(int.is_empty() && f.is_empty())
        }
        None => digits(int) && exp.is_some(),
    };
    if !(exp_ok && mantissa_ok) {
        return None;
    }
    let f: f64 = text.parse().ok()?;
    f.is_finite()
        .then(|| serde_json::Number::from_f64(f).map(|n| n.to_string()))
        .flatten()
}

/// A cursor over one flow value (on its line, or lines joined).
struct Flow<'a> {
    s: &'a [u8],
    i: usize,
    number: u32,
}

impl Flow<'_> {
    fn refuse(&self, reason: impl Into<String>) -> Refusal {
        Refusal::at(self.number, reason)
    }

    fn spaces(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Refusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(format!("values nest deeper than {MAX_DEPTH} levels")));
        }
        self.spaces();
        let value = match self.s.get(self.i) {
            Some(b'[') => {
                let mut items = Vec::new();
                self.each(b']', |f| {
                    items.push(f.value(depth + 1)?);
                    Ok(())
                })?;
                Value::List(items)
            }
            Some(b'{') => {
                let mut entries: Vec<(String, Node)> = Vec::new();
                self.each(b'}', |f| {
                    let key = match f.value(depth + 1)?.value {
                        Value::Str(k) => k,
                        Value::Num(n) => n,
                        Value::Bool(b) => b.to_string(),
                        _ => return Err(f.refuse("a flow map key that is not a scalar")),
                    };
                    f.spaces();
                    let value = if f.s.get(f.i) == Some(&b':') {
                        f.i += 1;
                        f.spaces();
                        if matches!(f.s.get(f.i), Some(b',' | b'}')) {
                            return Err(f.refuse("a flow map key without a value (not read)"));
                        }
                        f.value(depth + 1)?
                    } else {
                        Node::new(f.number, Value::Null)
                    };
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(f.refuse(format!("the key '{key}' is defined twice")));
                    }
                    entries.push((key, value));
                    Ok(())
                })?;
                Value::Map(entries)
            }
            Some(b'"' | b'\'') => Value::Str(self.quoted()?),
            _ => {
                let start = self.i;
                while let Some(&c) = self.s.get(self.i) {
                    let ends_key = c == b':'
                        && matches!(
                            self.s.get(self.i + 1),
                            None | Some(b' ' | b',' | b']' | b'}')
                        );
                    if matches!(c, b',' | b']' | b'}' | b'[' | b'{') || ends_key {
                        break;
                    }
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i])
                    .unwrap_or("")
                    .trim_end();
                if text.is_empty() {
                    return Err(self.refuse("an empty entry in a flow list or map"));
                }
                let odd_colon = text
                    .as_bytes()
                    .windows(2)
                    .any(|w| w[0] == b':' && b"?:,[]{}#&*!|>'\"%@`".contains(&w[1]));
                if odd_colon {
                    return Err(
                        self.refuse("a ':' the reader cannot place in a flow value (quote it)")
                    );
                }
                plain(text, self.number)?
            }
        };
        Ok(Node::new(self.number, value))
    }

    /// `open` item (`,` item)* `,`? `close`, the cursor on `open`.
    fn each(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<(), Refusal>,
    ) -> Result<(), Refusal> {
        self.i += 1;
        loop {
            self.spaces();
            match self.s.get(self.i) {
                Some(&c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                None => return Err(self.refuse("a flow list or map is not closed")),
                _ => item(self)?,
            }
            self.spaces();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(&c) if c == close => {}
                _ => return Err(self.refuse(format!("expected ',' or '{}'", close as char))),
            }
        }
    }

    /// A single- or double-quoted string on one line, the cursor on the
    /// quote.
    fn quoted(&mut self) -> Result<String, Refusal> {
        let q = self.s[self.i];
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err(self.refuse("a quoted string is not closed on its line (not read)"));
            };
            self.i += 1;
            match c {
                b'\'' if q == b'\'' && self.s.get(self.i) == Some(&b'\'') => {
                    self.i += 1;
                    out.push(b'\'');
                }
                _ if c == q => break,
                b'\\' if q == b'"' => self.escape(&mut out)?,
                _ => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.refuse("a string is not valid UTF-8"))
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let Some(&e) = self.s.get(self.i) else {
            return Err(self.refuse("a quoted string is not closed"));
        };
        self.i += 1;
        let c = match e {
            b'0' => '\0',
            b'a' => '\u{7}',
            b'b' => '\u{8}',
            b't' | b'\t' => '\t',
            b'n' => '\n',
            b'v' => '\u{b}',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'e' => '\u{1b}',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
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
        let c = self
            .s
            .get(self.i..self.i + n)
            .and_then(|d| std::str::from_utf8(d).ok())
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .and_then(char::from_u32)
            .ok_or_else(|| {
                self.refuse(format!(
                    "an escape needs {n} hex digits of a Unicode scalar value"
                ))
            })?;
        self.i += n;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn j(text: &str) -> serde_json::Value {
        read(text).expect(text).to_json()
    }

    #[test]
    fn a_continue_config_and_a_goose_config_read_with_their_lines() {
        let text = "name: My Config\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: SQLite MCP # the db\n    command: npx\n    args:\n      - \"-y\"\n      - mcp-sqlite\n    env:\n      KEY: 'it''s'\n";
        let n = read(text).expect("read");
        let first = &n.get("mcpServers").expect("servers").items()[0];
        assert_eq!(first.line, 5);
        assert_eq!(first.get("name").and_then(Node::as_str), Some("SQLite MCP"));
        assert_eq!(
            first.at(&["env", "KEY"]).and_then(Node::as_str),
            Some("it's")
        );
        let goose = "extensions:\n  github:\n    cmd: npx\n    args: [-y, \"@modelcontextprotocol/server-github\"]\n    enabled: true\n    envs: { \"GITHUB_TOKEN\": \"<YOUR_TOKEN>\" }\n    timeout: 300\n";
        assert_eq!(
            j(goose),
            json!({"extensions": {"github": {"cmd": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                "enabled": true, "envs": {"GITHUB_TOKEN": "<YOUR_TOKEN>"}, "timeout": 300}}})
        );
    }

    #[test]
    fn scalars_follow_the_core_schema_and_block_scalars_their_chomping() {
        assert_eq!(
            j("a: yes\nb: 1.5\nc: ~\nd: 0x1f\ne: \"x\\ty\"\nf: -3\ng: 1e3\n"),
            json!({"a": "yes", "b": 1.5, "c": null, "d": 31, "e": "x\ty", "f": -3, "g": 1000.0})
        );
        assert_eq!(
            j("s: |\n  one\n  two\nt: >-\n  a\n  b\n"),
            json!({"s": "one\ntwo\n", "t": "a b"})
        );
        assert_eq!(j("k:\n- a\n- b\n"), json!({"k": ["a", "b"]}));
        assert_eq!(j("- - x\n  - y\n- z\n"), json!([["x", "y"], "z"]));
        assert_eq!(
            j("f: [a, {b: c,\n  d: e}]\n"),
            json!({"f": ["a", {"b": "c", "d": "e"}]})
        );
        assert_eq!(
            j("u: http://x.example/a#frag # c\n"),
            json!({"u": "http://x.example/a#frag"})
        );
    }

    #[test]
    fn what_the_reader_does_not_read_is_refused_with_its_line() {
        let cases = [
            ("a: &x 1\n", 1, "anchor"),
            ("a: 1\nb: *x\n", 2, "alias"),
            ("a: !!str 1\n", 1, "tag"),
            ("a: 1\na: 2\n", 2, "defined twice"),
            ("a:\n\tb: 1\n", 2, "tab"),
            ("a: one\n  two\n", 2, "continues"),
            ("---\na: 1\n---\nb: 2\n", 3, "more than one document"),
            ("? a\n: b\n", 1, "complex key"),
            ("a: [1, 2\n", 1, "not closed"),
            ("a:\n    b: 1\n  c: 2\n", 3, "matches nothing"),
            ("a: \"open\n", 1, "not closed"),
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
