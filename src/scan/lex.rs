//! One small lexer for every language family the scanner reads. It turns
//! source bytes into identifiers, punctuation, numbers, string literals and
//! (where they end statements) newlines, and never yields anything from
//! inside a comment or a string: line and block comments (nested where the
//! language nests them), escapes, Python prefixed and triple-quoted strings,
//! Rust raw strings and lifetimes, Go raw strings, C# verbatim strings,
//! Ruby heredocs and `%q{}` literals. JavaScript template literals are the
//! one string whose `${…}` parts are lexed as code.
//!
//! A line longer than `MAX_LINE` marks the file as minified and stops the
//! lexer: generated code is not worth judging and would only cost time.

use crate::scan::bytes;

/// Lines longer than this mark a file as minified.
pub const MAX_LINE: usize = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    JavaScript,
    TypeScript,
    Python,
    Go,
    Rust,
    Java,
    Kotlin,
    CSharp,
    Ruby,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of(path: &std::path::Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        Some(match ext {
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "ts" | "mts" | "cts" | "tsx" => Language::TypeScript,
            "py" | "pyw" => Language::Python,
            "go" => Language::Go,
            "rs" => Language::Rust,
            "java" => Language::Java,
            "kt" | "kts" => Language::Kotlin,
            "cs" => Language::CSharp,
            "rb" => Language::Ruby,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Python => "python",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::Java => "java",
            Language::Kotlin => "kotlin",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
        }
    }

    fn is_js(self) -> bool {
        matches!(self, Language::JavaScript | Language::TypeScript)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ident,
    /// One punctuation byte.
    Punct,
    Number,
    /// A string (or char, or regex) literal, quotes included.
    Str,
    /// A newline that ends a statement: Python and Ruby at bracket depth 0,
    /// Go and Kotlin anywhere.
    Newline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
    /// 1-based line of the first byte (the column is computed for the few
    /// tokens that need one: `column`).
    pub line: u32,
}

/// The 1-based byte column of offset `at`.
pub fn column(src: &[u8], at: usize) -> u32 {
    let line_start = src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (at - line_start + 1) as u32
}

/// The 1-based column of byte `at` in Unicode code points.
pub fn char_column(src: &[u8], at: usize) -> u32 {
    let line_start = src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    src[line_start..at]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count() as u32
        + 1
}

/// The file has a line longer than `MAX_LINE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Minified;

/// Byte classes, looked up once per byte on the hot path.
const IDENT_START: u8 = 1;
const IDENT: u8 = 2;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 {
            t[b] = IDENT_START | IDENT;
        } else if c.is_ascii_digit() {
            t[b] = IDENT;
        }
        b += 1;
    }
    t
};

#[inline(always)]
fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

#[inline(always)]
fn is_ident_byte(b: u8) -> bool {
    CLASS[b as usize] & IDENT != 0
}

struct Lexer<'a> {
    src: &'a [u8],
    lang: Language,
    pos: usize,
    line: u32,
    line_start: usize,
    /// Open (, [, { not yet closed.
    depth: u32,
    /// Brace depths at which a JavaScript template's `${` was opened.
    templates: Vec<u32>,
    /// A Ruby heredoc id whose body starts after the current line.
    heredoc: Option<Vec<u8>>,
    /// The tokens: the first `len` of `out` (written in place, so the hot
    /// path makes no call to grow a vector; `grow` is the rare exception).
    out: &'a mut Vec<Tok>,
    len: usize,
}

/// A placeholder for the slots of `out` not written yet.
const NO_TOK: Tok = Tok {
    kind: Kind::Punct,
    start: 0,
    end: 0,
    line: 0,
};

/// Lexes `src` into `out` (cleared first).
pub fn lex(src: &[u8], lang: Language, out: &mut Vec<Tok>) -> Result<(), Minified> {
    out.clear();
    // About one token per five bytes of code: sized once, not on the way.
    out.resize(src.len() / 4 + 16, NO_TOK);
    let mut lx = Lexer {
        src,
        lang,
        pos: 0,
        line: 1,
        line_start: 0,
        depth: 0,
        templates: Vec::new(),
        heredoc: None,
        out,
        len: 0,
    };
    let result = lx.run();
    let len = lx.len;
    out.truncate(len);
    result
}

impl Lexer<'_> {
    #[inline(always)]
    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.src[self.pos..].starts_with(s)
    }

    /// Notes a newline at `at` (already consumed by the caller's scan).
    #[inline(always)]
    fn newline_at(&mut self, at: usize) -> Result<(), Minified> {
        if at - self.line_start > MAX_LINE {
            return Err(Minified);
        }
        self.line += 1;
        self.line_start = at + 1;
        Ok(())
    }

    /// Appends a token.
    #[inline(always)]
    fn emit(&mut self, tok: Tok) {
        if self.len == self.out.len() {
            self.grow();
        }
        self.out[self.len] = tok;
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let more = self.out.len().max(64);
        self.out.resize(self.out.len() + more, NO_TOK);
    }

    /// The last token so far.
    fn last(&self) -> Option<&Tok> {
        self.len.checked_sub(1).map(|i| &self.out[i])
    }

    #[inline(always)]
    fn push(&mut self, kind: Kind, start: usize) {
        self.emit(Tok {
            kind,
            start: start as u32,
            end: self.pos as u32,
            line: self.line,
        });
    }

    /// Pushes a token that may span lines, with the line it starts on.
    fn push_at(&mut self, kind: Kind, start: usize, line: u32) {
        self.emit(Tok {
            kind,
            start: start as u32,
            end: self.pos as u32,
            line,
        });
    }

    /// Inside a string: skips the plain run (only the quote `q`, a
    /// backslash or a newline can change anything) and returns whether one
    /// of those was found before the end.
    fn skip_plain(&mut self, q: u8) -> bool {
        let rest = &self.src[self.pos.min(self.src.len())..];
        match bytes::find3(rest, q, b'\\', b'\n') {
            Some(run) => {
                self.pos += run;
                true
            }
            None => {
                self.pos = self.src.len();
                false
            }
        }
    }

    /// A backslash escape: the backslash and the byte after it.
    fn skip_escape(&mut self) -> Result<(), Minified> {
        if self.peek(1) == b'\n' {
            self.newline_at(self.pos + 1)?;
        }
        self.pos += 2;
        Ok(())
    }

    /// Skips to `end` (exclusive), counting newlines.
    fn advance_to(&mut self, end: usize) -> Result<(), Minified> {
        let end = end.min(self.src.len());
        let start = self.pos.min(end);
        let mut at = start;
        while let Some(p) = bytes::find1(&self.src[at..end], b'\n') {
            self.newline_at(at + p)?;
            at += p + 1;
        }
        self.pos = end.max(self.pos);
        Ok(())
    }

    /// Index of the first `needle` at or after `from`, or the end.
    fn find(&self, from: usize, needle: &[u8]) -> usize {
        let from = from.min(self.src.len());
        let Some((&first, rest)) = needle.split_first() else {
            return from;
        };
        let mut at = from;
        // Find the first byte quickly, then compare the rest.
        while let Some(p) = bytes::find1(&self.src[at..], first) {
            let hit = at + p;
            if self.src[hit + 1..].starts_with(rest) {
                return hit;
            }
            at = hit + 1;
        }
        self.src.len()
    }

    fn run(&mut self) -> Result<(), Minified> {
        if self.lang == Language::Ruby {
            self.ruby_line_start()?;
        }
        let hash_comments = matches!(self.lang, Language::Python | Language::Ruby);
        while self.pos < self.src.len() {
            let b = self.src[self.pos];
            match b {
                b'\n' => self.newline()?,
                b' ' | b'\t' | b'\r' | 0x0c => {
                    self.pos += 1;
                    while matches!(self.src.get(self.pos), Some(b' ' | b'\t')) {
                        self.pos += 1;
                    }
                }
                b'$' | b'@'
                    if self.lang == Language::CSharp
                        && matches!(self.peek(1), b'"' | b'$' | b'@') =>
                {
                    self.csharp_prefixed()?
                }
                _ if is_ident_start(b) => self.ident_or_prefixed()?,
                b'0'..=b'9' => {
                    let start = self.pos;
                    while self.pos < self.src.len()
                        && (is_ident_byte(self.src[self.pos]) || self.src[self.pos] == b'.')
                    {
                        self.pos += 1;
                    }
                    self.push(Kind::Number, start);
                }
                b'#' if hash_comments => self.pos = self.find(self.pos, b"\n"),
                b'/' if !hash_comments && self.peek(1) == b'/' => {
                    self.pos = self.find(self.pos, b"\n")
                }
                b'/' if !hash_comments && self.peek(1) == b'*' => self.block_comment()?,
                b'"' | b'\'' | b'`' => self.string_at(self.pos)?,
                b'/' if self.regex_allowed() => self.regex()?,
                b'\\' if self.peek(1) == b'\n' => {
                    // A line continuation: no statement end.
                    self.pos += 1;
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                b'%' if self.lang == Language::Ruby && self.ruby_percent_literal()? => {}
                b'<' if self.lang == Language::Ruby && self.ruby_heredoc()? => {}
                _ => self.punct(b)?,
            }
        }
        if self.pos - self.line_start > MAX_LINE {
            return Err(Minified);
        }
        Ok(())
    }

    /// A newline: a statement end where the language ends statements there,
    /// then a Ruby heredoc body or line start.
    #[inline]
    fn newline(&mut self) -> Result<(), Minified> {
        self.newline_at(self.pos)?;
        self.pos += 1;
        if self.newline_ends_statement() {
            let at = self.pos - 1;
            self.emit(Tok {
                kind: Kind::Newline,
                start: at as u32,
                end: self.pos as u32,
                line: self.line - 1,
            });
        }
        if let Some(id) = self.heredoc.take() {
            self.skip_heredoc_body(&id)?;
        } else if self.lang == Language::Ruby {
            self.ruby_line_start()?;
        }
        Ok(())
    }

    /// Punctuation `b` (already read at `self.pos`): brackets track depth,
    /// and a `}` may end a template literal's `${…}`.
    #[inline]
    fn punct(&mut self, b: u8) -> Result<(), Minified> {
        let start = self.pos;
        self.pos += 1;
        match b {
            b'(' | b'[' | b'{' => self.depth += 1,
            b')' | b']' => self.depth = self.depth.saturating_sub(1),
            b'}' => {
                self.depth = self.depth.saturating_sub(1);
                if self.lang.is_js() && self.templates.last() == Some(&self.depth) {
                    // The end of a `${…}`: back into the template.
                    self.templates.pop();
                    return self.template_body(start);
                }
            }
            _ => {}
        }
        self.push(Kind::Punct, start);
        Ok(())
    }

    fn newline_ends_statement(&self) -> bool {
        match self.lang {
            Language::Python | Language::Ruby => self.depth == 0,
            Language::Go | Language::Kotlin => true,
            _ => false,
        }
    }

    fn block_comment(&mut self) -> Result<(), Minified> {
        let nests = matches!(self.lang, Language::Rust | Language::Kotlin);
        if !nests {
            // The first `*/` after the opening `/*` ends it.
            let end = self.find(self.pos + 2, b"*/");
            return self.advance_to(end + 2);
        }
        let mut level = 0u32;
        while self.pos < self.src.len() {
            match (self.src[self.pos], self.peek(1)) {
                (b'/', b'*') => {
                    level += 1;
                    self.pos += 2;
                    if !nests && level > 1 {
                        level = 1;
                    }
                }
                (b'*', b'/') => {
                    self.pos += 2;
                    level -= 1;
                    if level == 0 {
                        return Ok(());
                    }
                }
                (b'\n', _) => {
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    /// Whether a `/` here starts a regex literal (JavaScript, Ruby): not
    /// after something that ends an expression.
    fn regex_allowed(&self) -> bool {
        if !(self.lang.is_js() || self.lang == Language::Ruby) {
            return false;
        }
        if self.peek(1) == b'/' || self.peek(1) == b'*' {
            return false;
        }
        let Some(prev) = self.last() else {
            return true;
        };
        let text = &self.src[prev.start as usize..prev.end as usize];
        match prev.kind {
            Kind::Number | Kind::Str => false,
            Kind::Ident => matches!(
                text,
                b"return"
                    | b"typeof"
                    | b"instanceof"
                    | b"in"
                    | b"of"
                    | b"new"
                    | b"delete"
                    | b"void"
                    | b"throw"
                    | b"case"
                    | b"do"
                    | b"else"
                    | b"yield"
                    | b"await"
                    | b"when"
                    | b"if"
                    | b"unless"
                    | b"and"
                    | b"or"
                    | b"not"
            ),
            Kind::Punct => !matches!(text, b")" | b"]" | b"}"),
            Kind::Newline => true,
        }
    }

    fn regex(&mut self) -> Result<(), Minified> {
        let start = self.pos;
        self.pos += 1;
        let mut class = false;
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b'[' => {
                    class = true;
                    self.pos += 1;
                }
                b']' => {
                    class = false;
                    self.pos += 1;
                }
                b'/' if !class => {
                    self.pos += 1;
                    while self.pos < self.src.len() && self.src[self.pos].is_ascii_alphabetic() {
                        self.pos += 1;
                    }
                    break;
                }
                // An unterminated regex: it was a division after all.
                b'\n' => {
                    self.pos = start + 1;
                    self.push(Kind::Punct, start);
                    return Ok(());
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.src.len());
        self.push(Kind::Str, start);
        Ok(())
    }

    /// An identifier, or a string with a prefix (Python `rb"…"`, Rust
    /// `r#"…"#`, `b"…"`, `br"…"`).
    fn ident_or_prefixed(&mut self) -> Result<(), Minified> {
        let start = self.pos;
        while self.pos < self.src.len() && is_ident_byte(self.src[self.pos]) {
            self.pos += 1;
        }
        let word = &self.src[start..self.pos];
        let next = self.peek(0);
        match self.lang {
            Language::Python if (next == b'"' || next == b'\'') && word.len() <= 2 => {
                let lower: Vec<u8> = word.iter().map(u8::to_ascii_lowercase).collect();
                if matches!(
                    lower.as_slice(),
                    b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf"
                ) {
                    return self.python_string(start);
                }
            }
            Language::Rust if matches!(word, b"r" | b"br") && (next == b'"' || next == b'#') => {
                return self.rust_raw(start);
            }
            Language::Rust if word == b"b" && (next == b'"' || next == b'\'') => {
                return self.string_at(start);
            }
            _ => {}
        }
        // Ruby and Kotlin identifiers may end in ? or ! (Rust's macro bang
        // stays punctuation).
        if self.lang == Language::Ruby
            && matches!(next, b'?' | b'!')
            && self.peek(1) != b'='
            && !is_ident_byte(self.peek(1))
        {
            self.pos += 1;
        }
        self.push(Kind::Ident, start);
        Ok(())
    }

    /// A quoted literal whose opening quote is at `self.pos` (the token
    /// starts at `start`, before any prefix).
    fn string_at(&mut self, start: usize) -> Result<(), Minified> {
        let q = self.src[self.pos];
        match (q, self.lang) {
            (b'`', l) if l.is_js() => {
                self.pos += 1;
                return self.template_body(start);
            }
            (b'`', Language::Go) => {
                let line = self.line;
                let end = self.find(self.pos + 1, b"`");
                self.advance_to(end + 1)?;
                self.push_at(Kind::Str, start, line);
                return Ok(());
            }
            (b'\'', Language::Rust) => return self.rust_quote(start),
            (b'"' | b'\'', Language::Python) => return self.python_string(start),
            (b'"', Language::Java | Language::Kotlin | Language::CSharp)
                if self.starts_with(b"\"\"\"") =>
            {
                let line = self.line;
                let end = self.find(self.pos + 3, b"\"\"\"");
                self.advance_to(end + 3)?;
                self.push_at(Kind::Str, start, line);
                return Ok(());
            }
            _ => {}
        }
        let line = self.line;
        self.pos += 1;
        while self.skip_plain(q) {
            match self.src[self.pos] {
                b'\\' => self.skip_escape()?,
                b'\n' if q != b'`' && !matches!(self.lang, Language::Ruby | Language::Rust) => {
                    // An unterminated string ends at the line's end.
                    break;
                }
                b'\n' => {
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                c if c == q => {
                    self.pos += 1;
                    break;
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.src.len());
        self.push_at(Kind::Str, start, line);
        Ok(())
    }

    /// The body of a JavaScript template literal, from after its opening
    /// backtick (or after the `}` of a `${…}`) to its closing backtick or
    /// the next `${`, whose code is then lexed as code.
    fn template_body(&mut self, start: usize) -> Result<(), Minified> {
        let line = self.line;
        while self.pos < self.src.len() {
            // Nothing but these four bytes changes anything in a template.
            match bytes::find4(&self.src[self.pos..], [b'\\', b'`', b'$', b'\n']) {
                Some(run) => self.pos += run,
                None => {
                    self.pos = self.src.len();
                    break;
                }
            }
            match self.src[self.pos] {
                b'\\' => self.skip_escape()?,
                b'`' => {
                    self.pos += 1;
                    break;
                }
                b'$' if self.peek(1) == b'{' => {
                    self.pos += 2;
                    self.push_at(Kind::Str, start, line);
                    self.templates.push(self.depth);
                    self.depth += 1;
                    return Ok(());
                }
                b'\n' => {
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.src.len());
        self.push_at(Kind::Str, start, line);
        Ok(())
    }

    /// A Python string at `self.pos` (its quote), with its prefix from
    /// `start`; triple-quoted strings span lines.
    fn python_string(&mut self, start: usize) -> Result<(), Minified> {
        let line = self.line;
        let q = self.src[self.pos];
        let triple = self.peek(1) == q && self.peek(2) == q;
        self.pos += if triple { 3 } else { 1 };
        while self.skip_plain(q) {
            match self.src[self.pos] {
                // Even in a raw string a backslash keeps the next quote.
                b'\\' => self.skip_escape()?,
                b'\n' if !triple => break,
                b'\n' => {
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                c if c == q => {
                    if !triple {
                        self.pos += 1;
                        break;
                    }
                    if self.peek(1) == q && self.peek(2) == q {
                        self.pos += 3;
                        break;
                    }
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.src.len());
        self.push_at(Kind::Str, start, line);
        Ok(())
    }

    /// Rust `r"…"`, `r#"…"#`, `br##"…"##`; `self.pos` is after the prefix.
    fn rust_raw(&mut self, start: usize) -> Result<(), Minified> {
        let line = self.line;
        let mut hashes = 0;
        while self.peek(hashes) == b'#' {
            hashes += 1;
        }
        if self.peek(hashes) != b'"' {
            // `r#ident` (a raw identifier), not a string.
            self.pos += hashes;
            while self.pos < self.src.len() && is_ident_byte(self.src[self.pos]) {
                self.pos += 1;
            }
            self.push(Kind::Ident, start);
            return Ok(());
        }
        self.pos += hashes + 1;
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        let end = self.find(self.pos, &close);
        self.advance_to(end + close.len())?;
        self.push_at(Kind::Str, start, line);
        Ok(())
    }

    /// A Rust `'`: a char literal (`'a'`, `'\n'`, `'\u{1F600}'`) or a
    /// lifetime (`'a`), which is lexed as punctuation and an identifier.
    fn rust_quote(&mut self, start: usize) -> Result<(), Minified> {
        let next = self.peek(1);
        if next == b'\\' {
            let end = self.find(self.pos + 2, b"'");
            self.pos = (end + 1).min(self.src.len());
            self.push(Kind::Str, start);
            return Ok(());
        }
        // One UTF-8 character, then a closing quote, is a char literal.
        let width = match next {
            0..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        if self.peek(1 + width) == b'\'' {
            self.pos += 2 + width;
            self.push(Kind::Str, start);
        } else {
            self.pos += 1;
            self.push(Kind::Punct, start);
        }
        Ok(())
    }

    /// C# `@"…"` (verbatim: `""` escapes a quote), `$"…"`, `$@"…"`, `@$"…"`.
    fn csharp_prefixed(&mut self) -> Result<(), Minified> {
        let start = self.pos;
        let mut verbatim = false;
        while matches!(self.peek(0), b'@' | b'$') {
            verbatim |= self.peek(0) == b'@';
            self.pos += 1;
        }
        if !verbatim {
            return self.string_at(start);
        }
        let line = self.line;
        self.pos += 1;
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'"' if self.peek(1) == b'"' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\n' => {
                    self.newline_at(self.pos)?;
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        self.push_at(Kind::Str, start, line);
        Ok(())
    }

    /// Ruby `=begin … =end` at the start of a line.
    fn ruby_line_start(&mut self) -> Result<(), Minified> {
        if self.starts_with(b"=begin") {
            let end = self.find(self.pos, b"\n=end");
            self.advance_to(end + 5)?;
            let eol = self.find(self.pos, b"\n");
            self.pos = eol;
        }
        Ok(())
    }

    /// Ruby `%q{…}`, `%Q(…)`, `%w[…]`, `%i<…>`, `%(…)`: returns whether one
    /// was lexed.
    fn ruby_percent_literal(&mut self) -> Result<bool, Minified> {
        let kind = self.peek(1);
        let (delim_at, ok) = match kind {
            b'q' | b'Q' | b'w' | b'W' | b'i' | b'I' | b'r' | b's' | b'x' => (2, true),
            b'(' | b'[' | b'{' | b'<' | b'|' | b'!' | b'/' => (1, true),
            _ => (0, false),
        };
        let open = self.peek(delim_at);
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            b'|' | b'!' | b'/' => open,
            _ => 0,
        };
        // `x % (y)` after an expression is a modulo.
        let after_value = self.last().is_some_and(|t| {
            matches!(t.kind, Kind::Ident | Kind::Number | Kind::Str) || {
                let text = &self.src[t.start as usize..t.end as usize];
                matches!(text, b")" | b"]" | b"}")
            }
        });
        if !ok || close == 0 || (after_value && delim_at == 1) {
            return Ok(false);
        }
        let line = self.line;
        let start = self.pos;
        self.pos += delim_at + 1;
        let mut level = 1;
        while self.pos < self.src.len() && level > 0 {
            let c = self.src[self.pos];
            if c == b'\\' {
                self.pos += 2;
                continue;
            }
            if c == b'\n' {
                self.newline_at(self.pos)?;
            } else if c == close {
                level -= 1;
            } else if c == open && open != close {
                level += 1;
            }
            self.pos += 1;
        }
        self.pos = self.pos.min(self.src.len());
        self.push_at(Kind::Str, start, line);
        Ok(true)
    }

    /// A Ruby heredoc (`<<~EOS`, `<<-EOS`, `<<EOS`, quoted ids too): the
    /// body starts on the next line and ends at the line holding only the
    /// id. Returns whether one was lexed.
    fn ruby_heredoc(&mut self) -> Result<bool, Minified> {
        if self.peek(1) != b'<' {
            return Ok(false);
        }
        let mut at = self.pos + 2;
        if matches!(self.src.get(at), Some(b'~' | b'-')) {
            at += 1;
        }
        let quoted = matches!(self.src.get(at), Some(b'\'' | b'"'));
        if quoted {
            at += 1;
        }
        let id_start = at;
        while at < self.src.len()
            && (self.src[at].is_ascii_uppercase()
                || self.src[at] == b'_'
                || self.src[at].is_ascii_digit())
        {
            at += 1;
        }
        if at == id_start {
            return Ok(false);
        }
        let id = self.src[id_start..at].to_vec();
        if quoted {
            at += 1;
        }
        let start = self.pos;
        self.pos = at;
        self.push(Kind::Str, start);
        // The rest of this line is code; the body follows the newline.
        self.heredoc = Some(id);
        Ok(true)
    }

    /// After the newline that ends a heredoc's opening line: skips the
    /// body through the line holding only the id.
    fn skip_heredoc_body(&mut self, id: &[u8]) -> Result<(), Minified> {
        while self.pos < self.src.len() {
            let line_end = self.find(self.pos, b"\n");
            let done = self.src[self.pos..line_end].trim_ascii() == id;
            self.advance_to(line_end)?;
            if done {
                break;
            }
            if self.pos < self.src.len() {
                self.newline_at(self.pos)?;
                self.pos += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(src: &str, lang: Language) -> Vec<String> {
        let mut toks = Vec::new();
        lex(src.as_bytes(), lang, &mut toks).expect("not minified");
        toks.iter()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| src[t.start as usize..t.end as usize].to_string())
            .collect()
    }

    #[test]
    fn javascript_comments_strings_and_template_code() {
        let src = "// console.log\n/* print */ a('x // y', \"z\"); `t ${b(`in ${c}`)} u`; /re\\/g/.test(d) / e";
        assert_eq!(
            idents(src, Language::JavaScript),
            ["a", "b", "c", "test", "d", "e"]
        );
    }

    #[test]
    fn python_prefixed_and_triple_quoted_strings() {
        let src = "x = rb'\\''\n'''doc print(1)\n''' f\"{y}\" print(z)  # print(w)\n";
        assert_eq!(idents(src, Language::Python), ["x", "print", "z"]);
    }

    #[test]
    fn rust_raw_strings_nested_comments_chars_and_lifetimes() {
        let src = "r#\"println!(\"x\")\"# /* a /* b */ c */ fn f<'a>(x: &'a str) { '\"'; }";
        assert_eq!(
            idents(src, Language::Rust),
            ["fn", "f", "a", "x", "a", "str"]
        );
    }

    #[test]
    fn go_raw_strings_and_csharp_verbatim_strings() {
        assert_eq!(idents("`fmt.Println(\"a\")` b", Language::Go), ["b"]);
        assert_eq!(idents("@\"a\"\"Console\" b", Language::CSharp), ["b"]);
    }

    #[test]
    fn ruby_comments_heredocs_and_percent_literals() {
        let src =
            "=begin\nputs 1\n=end\nx = f(<<~EOS)\n  puts 2\nEOS\ny = %q{puts 3} # puts 4\nputs 5\n";
        assert_eq!(idents(src, Language::Ruby), ["x", "f", "y", "puts"]);
    }

    #[test]
    fn a_very_long_line_marks_the_file_as_minified() {
        let src = format!("a\n{}\n", "x".repeat(MAX_LINE + 1));
        let mut toks = Vec::new();
        assert_eq!(
            lex(src.as_bytes(), Language::JavaScript, &mut toks),
            Err(Minified)
        );
    }

    #[test]
    fn escaped_newlines_in_templates_keep_line_numbers() {
        let mut toks = Vec::new();
        lex(b"`a\\\nb`\nx", Language::JavaScript, &mut toks).expect("lex");
        assert_eq!(toks.last().map(|t| t.line), Some(3));
    }

    #[test]
    fn lines_and_columns_are_one_based() {
        let mut toks = Vec::new();
        lex(b"a\n  bb", Language::Rust, &mut toks).expect("lex");
        assert_eq!(toks[1].line, 2);
        assert_eq!(column(b"a\n  bb", toks[1].start as usize), 3);
    }
}
