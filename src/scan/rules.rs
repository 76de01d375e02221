//! The rules: token patterns that write to stdout, per language, each with a
//! stable reason id and a message that says what to use instead.
//!
//! Two things keep the rules precise. A write whose only payload is a JSON
//! serialization (`JSON.stringify(…)`, `json.dumps(…)`, `json.Marshal`
//! output kept in a variable, `serde_json::to_string(…)`, …) is a
//! hand-rolled server speaking the protocol, and is not flagged. And a write
//! that runs when the module loads (JavaScript and Python top level, a Go
//! `init` function) also carries the reason `startup-output`: it reaches
//! the client before the server has said a word.

use std::cell::OnceCell;

use crate::scan::lex::{Kind, Language, Tok};

pub const STARTUP: &str = "startup-output";

/// One rule match: the token the finding points at and what it means.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub tok: usize,
    pub reason: &'static str,
    pub message: String,
    pub startup: bool,
}

/// One file's tokens, with what the rules derive from them. The JSON
/// variables are collected on first use, and brackets are matched by a
/// short local walk: most tokens never interest a rule, and the scan must
/// run at grep speed.
pub(super) struct Src<'a> {
    src: &'a [u8],
    toks: &'a [Tok],
    /// Identifiers assigned from a JSON serialization in this file.
    json_vars: OnceCell<Vec<&'a [u8]>>,
}

impl<'a> Src<'a> {
    /// Token `i`'s byte range (empty past the end).
    pub(super) fn span(&self, i: usize) -> (usize, usize) {
        self.toks
            .get(i)
            .map_or((self.src.len(), self.src.len()), |t| {
                (t.start as usize, t.end as usize)
            })
    }

    pub(super) fn len(&self) -> usize {
        self.toks.len()
    }

    pub(super) fn source(&self) -> &'a [u8] {
        self.src
    }

    pub(super) fn new(src: &'a [u8], toks: &'a [Tok]) -> Src<'a> {
        Src {
            src,
            toks,
            json_vars: OnceCell::new(),
        }
    }

    /// The bracket byte of token `i`, if it is one.
    #[inline(always)]
    fn bracket(&self, i: usize) -> u8 {
        match self.toks.get(i) {
            Some(t) if t.kind == Kind::Punct => self.src[t.start as usize],
            _ => 0,
        }
    }

    /// The index of the bracket that closes the one opened at `open`.
    pub(super) fn closer(&self, open: usize) -> Option<usize> {
        if !matches!(self.bracket(open), b'(' | b'[' | b'{') {
            return None;
        }
        let mut depth = 0u32;
        for i in open..self.toks.len() {
            match self.bracket(i) {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The index of the bracket that opens the one closed at `close`.
    fn opener(&self, close: usize) -> Option<usize> {
        if !matches!(self.bracket(close), b')' | b']' | b'}') {
            return None;
        }
        let mut depth = 0u32;
        for i in (0..=close).rev() {
            match self.bracket(i) {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn is_json_var(&self, name: &[u8]) -> bool {
        self.json_vars
            .get_or_init(|| self.collect_json_vars())
            .contains(&name)
    }

    #[inline(always)]
    pub(super) fn text(&self, i: usize) -> &'a [u8] {
        match self.toks.get(i) {
            Some(t) => &self.src[t.start as usize..t.end as usize],
            None => b"",
        }
    }

    #[inline(always)]
    pub(super) fn is(&self, i: usize, s: &str) -> bool {
        let t = self.text(i);
        // Punctuation is one byte: no comparison call for it.
        match (t, s.as_bytes()) {
            ([a], [b]) => a == b,
            (t, s) => t.len() == s.len() && t == s,
        }
    }

    #[inline(always)]
    pub(super) fn kind(&self, i: usize) -> Option<Kind> {
        self.toks.get(i).map(|t| t.kind)
    }

    /// Whether the tokens from `i` are exactly `pat`.
    #[inline]
    pub(super) fn seq(&self, i: usize, pat: &[&str]) -> bool {
        pat.iter().enumerate().all(|(k, p)| self.is(i + k, p))
    }

    #[inline(always)]
    pub(super) fn prev_is(&self, i: usize, s: &str) -> bool {
        i > 0 && self.is(i - 1, s)
    }

    /// Whether token `i` follows `::` (Rust paths).
    fn after_path(&self, i: usize) -> bool {
        i >= 2 && self.is(i - 1, ":") && self.is(i - 2, ":")
    }

    /// The arguments of the call whose `(` is at `open`, as token ranges
    /// split at top-level commas.
    pub(super) fn args(&self, open: usize) -> Vec<(usize, usize)> {
        let Some(close) = self.closer(open) else {
            return Vec::new();
        };
        self.split_args(open + 1, close)
    }

    fn split_args(&self, from: usize, to: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = from;
        let mut i = from;
        while i < to {
            if let Some(c) = self.closer(i) {
                i = c + 1;
                continue;
            }
            if self.is(i, ",") {
                out.push((start, i));
                start = i + 1;
            }
            i += 1;
        }
        if start < to {
            out.push((start, to));
        }
        out
    }

    /// Whether token `i` names a JSON serialization call.
    fn is_json_call(&self, i: usize) -> bool {
        if self.kind(i) != Some(Kind::Ident) {
            return false;
        }
        // Every name below is at least 4 bytes and starts with one of these.
        let t = self.text(i);
        if t.len() < 4 || !matches!(t[0], b's' | b'd' | b'M' | b't' | b'S' | b'g' | b'w' | b'e') {
            return false;
        }
        let owner = |name: &str| i >= 2 && self.is(i - 1, ".") && self.is(i - 2, name);
        match self.text(i) {
            b"stringify" => owner("JSON"),
            b"dumps" => owner("json"),
            b"Marshal" | b"MarshalIndent" => owner("json"),
            b"to_string" | b"to_string_pretty" | b"to_vec" | b"to_vec_pretty" | b"to_writer"
            | b"to_writer_pretty" => self.after_path(i) && self.is(i - 3, "serde_json"),
            b"Serialize" => owner("JsonSerializer"),
            b"SerializeObject" => owner("JsonConvert"),
            b"generate" | b"dump" => owner("JSON"),
            b"toJson" | b"writeValueAsString" | b"encodeToString" | b"to_json" => {
                self.prev_is(i, ".")
            }
            _ => false,
        }
    }

    /// Variables assigned from a JSON serialization: `x = JSON.stringify(…)`,
    /// `let line = serde_json::to_string(…)`, `data, err := json.Marshal(…)`.
    fn collect_json_vars(&self) -> Vec<&'a [u8]> {
        let mut vars = Vec::new();
        for i in 0..self.toks.len() {
            if !self.is_json_call(i) {
                continue;
            }
            // The start of the call expression: `JSON` in `JSON.stringify`,
            // `serde_json` in `serde_json::to_string`.
            let start = if self.after_path(i) {
                i - 3
            } else {
                i.saturating_sub(2)
            };
            if start == 0 || !self.is(start - 1, "=") {
                continue;
            }
            let mut v = start - 1;
            if v > 0 && self.is(v - 1, ":") {
                v -= 1; // Go `:=`
            }
            if v == 0 {
                continue;
            }
            let mut var = v - 1;
            // `data, err := …`: the first name.
            if var >= 2 && self.is(var - 1, ",") {
                var -= 2;
            }
            // `frame: string = …`, `line: String = …`: the annotated name.
            if var >= 2 && self.is(var - 1, ":") && !self.is(var - 2, ":") {
                var -= 2;
            }
            if self.kind(var) == Some(Kind::Ident) {
                vars.push(self.text(var));
            }
        }
        vars
    }

    /// Whether the tokens of one argument carry a JSON serialization.
    fn arg_is_json(&self, (from, to): (usize, usize)) -> bool {
        (from..to).any(|i| {
            self.is_json_call(i)
                || (self.kind(i) == Some(Kind::Ident) && self.is_json_var(self.text(i)))
                || (self.kind(i) == Some(Kind::Str) && self.inline_json_var(i))
        })
    }

    /// A Rust format string `"{line}"` naming a JSON variable.
    fn inline_json_var(&self, i: usize) -> bool {
        let t = self.text(i);
        let inner = t.strip_prefix(b"\"").and_then(|t| t.strip_suffix(b"\""));
        let Some(inner) = inner else {
            return false;
        };
        let inner = inner.strip_suffix(b"\\n").unwrap_or(inner);
        let name = inner.strip_prefix(b"{").and_then(|t| t.strip_suffix(b"}"));
        name.is_some_and(|n| self.is_json_var(n))
    }

    /// A string literal that is only a format placeholder (`"{}"`, `"%s\n"`).
    fn is_format_only(&self, (from, to): (usize, usize)) -> bool {
        if to != from + 1 || self.kind(from) != Some(Kind::Str) {
            return false;
        }
        let t = self.text(from);
        let inner = &t[1.min(t.len())..t.len().saturating_sub(1)];
        let mut rest = Vec::new();
        let mut k = 0;
        while k < inner.len() {
            match inner[k] {
                b'{' => {
                    while k < inner.len() && inner[k] != b'}' {
                        k += 1;
                    }
                }
                b'%' | b'\\' => k += 1,
                c => rest.push(c),
            }
            k += 1;
        }
        rest.is_empty()
    }

    /// Whether a write's payload is exactly one JSON serialization: the
    /// positional arguments (a leading format-only string dropped, keyword
    /// arguments ignored) are one argument, and it is JSON.
    fn payload_is_json(&self, args: &[(usize, usize)]) -> bool {
        let mut positional: Vec<(usize, usize)> = args
            .iter()
            .copied()
            .filter(|&(f, t)| {
                !(t > f + 1
                    && self.kind(f) == Some(Kind::Ident)
                    && self.is(f + 1, "=")
                    && !self.is(f + 2, "="))
            })
            .collect();
        if positional.len() == 2 && self.is_format_only(positional[0]) {
            positional.remove(0);
        }
        match positional.as_slice() {
            [one] => self.arg_is_json(*one),
            _ => false,
        }
    }

    /// The value tokens of keyword argument `name=` among `args`.
    pub(super) fn kwarg(&self, args: &[(usize, usize)], name: &str) -> Option<(usize, usize)> {
        args.iter()
            .find(|&&(f, t)| t > f + 2 && self.is(f, name) && self.is(f + 1, "="))
            .map(|&(f, t)| (f + 2, t))
    }

    fn range_has(&self, (from, to): (usize, usize), pat: &[&str]) -> bool {
        (from..to).any(|i| self.seq(i, pat))
    }

    /// The tokens after a Ruby command name up to the end of its line.
    fn ruby_args(&self, i: usize) -> Vec<(usize, usize)> {
        if self.is(i + 1, "(") {
            return self.args(i + 1);
        }
        let mut end = i + 1;
        while end < self.toks.len() && self.kind(end) != Some(Kind::Newline) {
            match self.closer(end) {
                Some(c) => end = c + 1,
                None => end += 1,
            }
        }
        self.split_args(i + 1, end.min(self.toks.len()))
    }
}

/// Which tokens, up to `upto`, run when the module is loaded.
fn startup_tokens(s: &Src, lang: Language, upto: usize) -> Vec<bool> {
    let n = (upto + 1).min(s.toks.len());
    match lang {
        Language::JavaScript | Language::TypeScript => js_top_level(s, n),
        Language::Python => python_top_level(s, n),
        Language::Go => go_init(s),
        _ => vec![false; s.toks.len()],
    }
}

/// JavaScript: outside every function body (`function`, methods, `=>`).
fn js_top_level(s: &Src, n: usize) -> Vec<bool> {
    let mut top = vec![true; n];
    let mut braces: Vec<bool> = Vec::new();
    let mut arrows: Vec<u32> = Vec::new();
    let mut depth: u32 = 0;
    let mut in_fn: u32 = 0;
    for (i, t) in s.toks[..n].iter().enumerate() {
        top[i] = in_fn == 0;
        if t.kind != Kind::Punct {
            continue;
        }
        match s.src[t.start as usize] {
            b'{' => {
                let is_fn = js_opens_function(s, i);
                braces.push(is_fn);
                in_fn += u32::from(is_fn);
                depth += 1;
            }
            b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                if s.is(i, "}") && braces.pop() == Some(true) {
                    in_fn -= 1;
                }
                depth = depth.saturating_sub(1);
                while arrows.last().is_some_and(|&d| d > depth) {
                    arrows.pop();
                    in_fn -= 1;
                }
            }
            b';' | b',' => {
                while arrows.last() == Some(&depth) {
                    arrows.pop();
                    in_fn -= 1;
                }
            }
            b'>' if s.prev_is(i, "=") && !s.is(i + 1, "{") && adjacent(s, i - 1, i) => {
                arrows.push(depth);
                in_fn += 1;
            }
            _ => {}
        }
    }
    top
}

fn adjacent(s: &Src, a: usize, b: usize) -> bool {
    s.toks[a].end == s.toks[b].start
}

/// Whether the `{` at `i` opens a function body.
fn js_opens_function(s: &Src, i: usize) -> bool {
    if i == 0 {
        return false;
    }
    if s.is(i - 1, ">") && i >= 2 && s.is(i - 2, "=") && adjacent(s, i - 2, i - 1) {
        return true;
    }
    // `) {`, or `): Type {` in TypeScript.
    let mut close = i - 1;
    if !s.is(close, ")") {
        let mut k = i - 1;
        let mut found = None;
        for _ in 0..16 {
            if k == 0 || s.is(k, ";") || s.is(k, "{") || s.is(k, "}") || s.is(k, "=") {
                break;
            }
            if s.is(k, ":") && s.is(k - 1, ")") {
                found = Some(k - 1);
                break;
            }
            k -= 1;
        }
        match found {
            Some(c) => close = c,
            None => return false,
        }
    }
    let Some(open) = s.opener(close).filter(|&o| o > 0) else {
        return false;
    };
    let before = s.text(open - 1);
    !matches!(
        before,
        b"if" | b"for" | b"while" | b"switch" | b"catch" | b"with"
    )
}

/// Python: outside every `def` (class bodies run at import).
fn python_top_level(s: &Src, n: usize) -> Vec<bool> {
    let mut top = vec![true; n];
    let mut defs: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < n {
        while i < n && s.kind(i) == Some(Kind::Newline) {
            i += 1;
        }
        if i >= n {
            break;
        }
        let indent = crate::scan::lex::column(s.src, s.toks[i].start as usize);
        while defs.last().is_some_and(|&d| d >= indent) {
            defs.pop();
        }
        let is_def = s.is(i, "def") || (s.is(i, "async") && s.is(i + 1, "def"));
        let deferred = !defs.is_empty() || is_def;
        let mut j = i;
        while j < n && s.kind(j) != Some(Kind::Newline) {
            top[j] = !deferred;
            j += 1;
        }
        if is_def {
            defs.push(indent);
        }
        i = j;
    }
    top
}

/// Go: inside `func init() { … }`.
fn go_init(s: &Src) -> Vec<bool> {
    let mut init = vec![false; s.toks.len()];
    for i in 0..s.toks.len() {
        if s.seq(i, &["func", "init", "(", ")", "{"])
            && let Some(close) = s.closer(i + 4)
        {
            init[i + 5..close].fill(true);
        }
    }
    init
}

const JS_CONSOLE: &[&str] = &[
    "log",
    "info",
    "debug",
    "dir",
    "dirxml",
    "table",
    "count",
    "group",
    "groupCollapsed",
    "timeLog",
    "timeEnd",
];

/// Every rule match in one file, in token order.
pub fn find(src: &[u8], lang: Language, toks: &[Tok]) -> Vec<Hit> {
    let s = Src::new(src, toks);
    let mut raw: Vec<(usize, &'static str, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || !is_trigger(lang, &src[t.start as usize..t.end as usize]) {
            continue;
        }
        let hit = match lang {
            Language::JavaScript | Language::TypeScript => javascript(&s, i),
            Language::Python => python(&s, i),
            Language::Go => go(&s, i),
            Language::Rust => rust(&s, i),
            Language::Java => jvm(&s, i, "java"),
            Language::Kotlin => jvm(&s, i, "kotlin").or_else(|| kotlin(&s, i)),
            Language::CSharp => csharp(&s, i),
            Language::Ruby => ruby(&s, i),
        };
        if let Some((reason, message)) = hit {
            raw.push((i, reason, message));
        }
    }
    if raw.is_empty() {
        return Vec::new();
    }
    let last = raw.last().map_or(0, |r| r.0);
    let startup = startup_tokens(&s, lang, last);
    raw.into_iter()
        .map(|(tok, reason, message)| Hit {
            tok,
            reason,
            message,
            startup: startup[tok],
        })
        .collect()
}

/// The identifiers a rule of `lang` can start at: everything else is
/// skipped without a look at its neighbours.
#[inline(always)]
fn is_trigger(lang: Language, word: &[u8]) -> bool {
    // Most identifiers fail on their length and first byte, without a
    // comparison.
    let Some(&first) = word.first() else {
        return false;
    };
    let maybe = match lang {
        Language::JavaScript | Language::TypeScript => {
            matches!(
                (word.len(), first),
                (7, b'c' | b'p') | (11, b'd') | (10, b't')
            )
        }
        Language::Python => matches!(
            (word.len(), first),
            (5, b'p' | b'c' | b't') | (3, b's') | (11, b'b') | (13, b'S')
        ),
        Language::Go => matches!((word.len(), first), (3, b'f' | b'l') | (2, b'o')),
        Language::Rust => matches!((word.len(), first), (7 | 5, b'p') | (6, b's')),
        Language::Java => first == b'S',
        Language::Kotlin => matches!(first, b'S' | b'p'),
        Language::CSharp => first == b'C',
        Language::Ruby => matches!(first, b'p' | b'$' | b'S'),
    };
    if !maybe {
        return false;
    }
    match lang {
        Language::JavaScript | Language::TypeScript => {
            matches!(
                word,
                b"console" | b"process" | b"destination" | b"transports"
            )
        }
        Language::Python => matches!(
            word,
            b"print" | b"sys" | b"basicConfig" | b"StreamHandler" | b"click" | b"typer"
        ),
        Language::Go => matches!(word, b"fmt" | b"os" | b"log"),
        Language::Rust => matches!(word, b"println" | b"print" | b"stdout"),
        Language::Java => word == b"System",
        Language::Kotlin => matches!(word, b"System" | b"println" | b"print"),
        Language::CSharp => word == b"Console",
        Language::Ruby => matches!(word, b"puts" | b"print" | b"$stdout" | b"STDOUT"),
    }
}

/// Words one of which the text of every finding of a language contains:
/// a file that holds none has no finding, and is not lexed. Each rule below
/// names what it needs: `console.log(` holds "console", `process.stdout`
/// and `sys.stdout` hold "stdout" (rarer than "process" or "sys", which
/// nearly every file names), `click.echo(` holds "echo", Go's
/// `fmt.Print*`/`Fprint*` hold "Print" and its `os.Stdout` "Stdout".
pub fn filter_words(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::JavaScript | Language::TypeScript => {
            &["console", "stdout", "destination", "transports"]
        }
        Language::Python => &["print", "stdout", "echo"],
        Language::Go => &["Print", "Stdout"],
        Language::Rust => &["print", "stdout"],
        Language::Java => &["System"],
        Language::Kotlin => &["System", "print"],
        Language::CSharp => &["Console"],
        Language::Ruby => &["puts", "print", "$stdout", "STDOUT"],
    }
}

type Found = Option<(&'static str, String)>;

fn javascript(s: &Src, i: usize) -> Found {
    if s.is(i, "console") && s.is(i + 1, ".") && s.is(i + 3, "(") && !s.prev_is(i, ".") {
        let m = s.text(i + 2);
        if JS_CONSOLE.iter().any(|c| c.as_bytes() == m) && !s.payload_is_json(&s.args(i + 3)) {
            let m = String::from_utf8_lossy(m);
            return Some((
                "javascript-console-stdout",
                format!(
                    "console.{m} writes to stdout in Node, the MCP channel; use console.error (stderr) for diagnostics"
                ),
            ));
        }
    }
    if s.seq(i, &["process", ".", "stdout"]) {
        if s.seq(i + 3, &[".", "write", "("]) {
            if s.payload_is_json(&s.args(i + 5)) {
                return None;
            }
            return Some((
                "javascript-process-stdout-write",
                "process.stdout.write writes to the MCP channel; only JSON-RPC messages belong there, diagnostics go to process.stderr".into(),
            ));
        }
        let value_use = matches!(s.text(i + 3), b"," | b")" | b"}");
        if value_use && i > 0 && matches!(s.text(i - 1), b"(" | b"," | b":") {
            return Some((
                "javascript-logger-stdout",
                "process.stdout is handed to a logger or stream as its destination; point it at process.stderr".into(),
            ));
        }
    }
    if s.seq(i, &["destination", "("]) && s.prev_is(i, ".") {
        let args = s.args(i + 1);
        let fd1 = args
            .first()
            .is_some_and(|&(f, t)| t == f + 1 && s.is(f, "1"))
            || args.iter().any(|&r| s.range_has(r, &["dest", ":", "1"]));
        if fd1 {
            return Some((
                "javascript-logger-stdout",
                "the logger's destination is fd 1 (stdout); use pino.destination(2) (stderr)"
                    .into(),
            ));
        }
    }
    if s.seq(i, &["transports", ".", "Console", "("]) {
        let args = s.args(i + 3);
        if !args.iter().any(|&r| s.range_has(r, &["stderrLevels"])) {
            return Some((
                "javascript-logger-stdout",
                "winston's Console transport writes to stdout; set stderrLevels to every level (or log to a file)".into(),
            ));
        }
    }
    None
}

fn python(s: &Src, i: usize) -> Found {
    if s.seq(i, &["print", "("]) && !s.prev_is(i, ".") && !s.prev_is(i, "def") {
        let args = s.args(i + 1);
        if args.iter().any(|&(f, _)| s.is(f, "*") && s.is(f + 1, "*")) {
            return None; // **kwargs may carry file=
        }
        let to_stdout = match s.kwarg(&args, "file") {
            Some(value) => s.range_has(value, &["sys", ".", "stdout"]),
            None => true,
        };
        if to_stdout && !s.payload_is_json(&args) {
            return Some((
                "python-print-stdout",
                "print() writes to stdout, the MCP channel; pass file=sys.stderr (or use logging, which writes to stderr)".into(),
            ));
        }
        return None;
    }
    if s.seq(i, &["sys", ".", "stdout", "."]) && !s.prev_is(i, ".") {
        let at = if s.seq(i + 4, &["buffer", "."]) {
            i + 6
        } else {
            i + 4
        };
        if (s.is(at, "write") || s.is(at, "writelines")) && s.is(at + 1, "(") {
            if s.payload_is_json(&s.args(at + 1)) {
                return None;
            }
            return Some((
                "python-sys-stdout-write",
                "sys.stdout.write writes to the MCP channel; only JSON-RPC messages belong there, diagnostics go to sys.stderr".into(),
            ));
        }
    }
    if s.seq(i, &["basicConfig", "("]) {
        let args = s.args(i + 1);
        if s.kwarg(&args, "stream")
            .is_some_and(|v| s.range_has(v, &["sys", ".", "stdout"]))
        {
            return Some((
                "python-logging-stdout",
                "logging.basicConfig(stream=sys.stdout) sends every log record to the MCP channel; leave stream unset (stderr)".into(),
            ));
        }
    }
    if s.seq(i, &["StreamHandler", "("]) {
        let args = s.args(i + 1);
        if args
            .iter()
            .any(|&r| s.range_has(r, &["sys", ".", "stdout"]))
        {
            return Some((
                "python-logging-stdout",
                "StreamHandler(sys.stdout) sends log records to the MCP channel; use StreamHandler() (stderr)".into(),
            ));
        }
    }
    if (s.is(i, "click") || s.is(i, "typer"))
        && s.is(i + 1, ".")
        && (s.is(i + 2, "echo") || s.is(i + 2, "secho"))
        && s.is(i + 3, "(")
    {
        let args = s.args(i + 3);
        let err = s
            .kwarg(&args, "err")
            .is_some_and(|(f, t)| t == f + 1 && s.is(f, "True"));
        if !err && !s.payload_is_json(&args) {
            return Some((
                "python-click-echo-stdout",
                "click.echo writes to stdout, the MCP channel; pass err=True".into(),
            ));
        }
    }
    None
}

fn go(s: &Src, i: usize) -> Found {
    if s.is(i, "fmt") && s.is(i + 1, ".") && s.is(i + 3, "(") {
        let f = s.text(i + 2);
        if matches!(f, b"Print" | b"Println" | b"Printf") {
            if s.payload_is_json(&s.args(i + 3)) {
                return None;
            }
            let f = String::from_utf8_lossy(f);
            return Some((
                "go-fmt-print",
                format!(
                    "fmt.{f} writes to stdout, the MCP channel; use fmt.Fprintln(os.Stderr, ...) or log (stderr by default)"
                ),
            ));
        }
        if matches!(f, b"Fprint" | b"Fprintln" | b"Fprintf") && s.seq(i + 4, &["os", ".", "Stdout"])
        {
            let args = s.args(i + 3);
            if s.payload_is_json(args.get(1..).unwrap_or_default()) {
                return None;
            }
            return Some((
                "go-fprint-stdout",
                "fmt.Fprint* to os.Stdout writes to the MCP channel; write diagnostics to os.Stderr".into(),
            ));
        }
    }
    if s.seq(i, &["os", ".", "Stdout", "."])
        && (s.is(i + 4, "Write") || s.is(i + 4, "WriteString"))
        && s.is(i + 5, "(")
    {
        if s.payload_is_json(&s.args(i + 5)) {
            return None;
        }
        return Some((
            "go-os-stdout-write",
            "os.Stdout.Write writes to the MCP channel; only JSON-RPC messages belong there, diagnostics go to os.Stderr".into(),
        ));
    }
    if s.seq(i, &["log", ".", "SetOutput", "(", "os", ".", "Stdout"]) {
        return Some((
            "go-log-stdout",
            "log.SetOutput(os.Stdout) sends every log line to the MCP channel; keep the log package on os.Stderr".into(),
        ));
    }
    None
}

fn rust(s: &Src, i: usize) -> Found {
    if (s.is(i, "println") || s.is(i, "print")) && s.seq(i + 1, &["!", "("]) && !s.prev_is(i, ".") {
        if s.payload_is_json(&s.args(i + 2)) {
            return None;
        }
        let m = String::from_utf8_lossy(s.text(i));
        return Some((
            "rust-print-macro",
            format!(
                "{m}! writes to stdout, the MCP channel; use eprintln!/eprint! or a logger on stderr"
            ),
        ));
    }
    if s.seq(i, &["stdout", "(", ")"]) && !s.prev_is(i, ".") && !s.prev_is(i, "fn") {
        if inside_call_to(s, i, &["to_writer", "to_writer_pretty"]) {
            return None;
        }
        return Some((
            "rust-stdout-handle",
            "std::io::stdout() opens the MCP channel for writing; only JSON-RPC messages belong there, diagnostics go to std::io::stderr()".into(),
        ));
    }
    None
}

/// Whether token `i` is inside the arguments of a call to one of `names`.
fn inside_call_to(s: &Src, i: usize, names: &[&str]) -> bool {
    let mut k = i;
    while k > 0 {
        k -= 1;
        if s.is(k, "(") && s.closer(k).is_some_and(|c| c > i) {
            return k > 0 && names.iter().any(|n| s.is(k - 1, n));
        }
    }
    false
}

fn jvm(s: &Src, i: usize, lang: &str) -> Found {
    if !s.seq(i, &["System", ".", "out"]) {
        return None;
    }
    if s.is(i + 3, ".") && s.is(i + 5, "(") && s.payload_is_json(&s.args(i + 5)) {
        return None;
    }
    let reason = if lang == "java" {
        "java-system-out"
    } else {
        "kotlin-system-out"
    };
    Some((
        reason,
        "System.out writes to stdout, the MCP channel; use System.err or a logger configured for stderr".into(),
    ))
}

fn kotlin(s: &Src, i: usize) -> Found {
    if (s.is(i, "println") || s.is(i, "print"))
        && s.is(i + 1, "(")
        && !s.prev_is(i, ".")
        && !s.prev_is(i, "fun")
    {
        if s.payload_is_json(&s.args(i + 1)) {
            return None;
        }
        let m = String::from_utf8_lossy(s.text(i));
        return Some((
            "kotlin-println",
            format!("{m}() writes to stdout, the MCP channel; use System.err.println"),
        ));
    }
    None
}

fn csharp(s: &Src, i: usize) -> Found {
    if !s.seq(i, &["Console", "."]) {
        return None;
    }
    let message = "Console.Write/Console.Out write to stdout, the MCP channel; use Console.Error (or a logger on stderr)";
    if (s.is(i + 2, "Write") || s.is(i + 2, "WriteLine")) && s.is(i + 3, "(") {
        if s.payload_is_json(&s.args(i + 3)) {
            return None;
        }
        return Some(("csharp-console-write", message.into()));
    }
    if s.is(i + 2, "Out") {
        if s.is(i + 3, ".") && s.is(i + 5, "(") && s.payload_is_json(&s.args(i + 5)) {
            return None;
        }
        return Some(("csharp-console-write", message.into()));
    }
    None
}

fn ruby(s: &Src, i: usize) -> Found {
    if (s.is(i, "puts") || s.is(i, "print"))
        && !s.prev_is(i, ".")
        && !s.prev_is(i, "def")
        && !s.prev_is(i, ":")
        && !s.is(i + 1, "=")
        && !s.is(i + 1, ".")
    {
        if s.payload_is_json(&s.ruby_args(i)) {
            return None;
        }
        let m = String::from_utf8_lossy(s.text(i));
        return Some((
            "ruby-puts-print",
            format!("{m} writes to stdout, the MCP channel; use warn or $stderr.puts"),
        ));
    }
    if s.is(i, "$stdout") || s.is(i, "STDOUT") {
        let message = "$stdout/STDOUT used for output; write diagnostics to $stderr";
        if s.is(i + 1, ".") {
            let m = s.text(i + 2);
            if matches!(
                m,
                b"puts" | b"print" | b"write" | b"printf" | b"syswrite" | b"<<"
            ) {
                if s.payload_is_json(&s.ruby_args(i + 2)) {
                    return None;
                }
                return Some(("ruby-stdout-object", message.into()));
            }
            return None;
        }
        if s.is(i + 1, "<") && s.is(i + 2, "<") {
            return Some(("ruby-stdout-object", message.into()));
        }
        if i > 0 && matches!(s.text(i - 1), b"(" | b",") {
            return Some(("ruby-stdout-object", message.into()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::lex::lex;

    fn reasons(src: &str, lang: Language) -> Vec<(u32, &'static str, bool)> {
        let mut toks = Vec::new();
        lex(src.as_bytes(), lang, &mut toks).expect("lex");
        find(src.as_bytes(), lang, &toks)
            .into_iter()
            .map(|h| (toks[h.tok].line, h.reason, h.startup))
            .collect()
    }

    #[test]
    fn javascript_top_level_and_function_bodies() {
        let src = "console.log('a');\nfunction f() { console.info('b'); }\nconst g = () => console.debug('c');\nif (x) { console.table(y); }\nconsole.error('e'); console.trace('t');\n";
        assert_eq!(
            reasons(src, Language::JavaScript),
            [
                (1, "javascript-console-stdout", true),
                (2, "javascript-console-stdout", false),
                (3, "javascript-console-stdout", false),
                (4, "javascript-console-stdout", true),
            ]
        );
    }

    #[test]
    fn json_payloads_are_the_protocol_channel() {
        let js = "process.stdout.write(JSON.stringify(msg) + '\\n');\nprocess.stdout.write('x');\nconsole.log('req', JSON.stringify(r));\n";
        assert_eq!(
            reasons(js, Language::JavaScript),
            [
                (2, "javascript-process-stdout-write", true),
                (3, "javascript-console-stdout", true)
            ]
        );
        let go = "func send(m any) {\n\tdata, _ := json.Marshal(m)\n\tos.Stdout.Write(append(data, '\\n'))\n\tfmt.Println(string(data))\n\tfmt.Println(\"hi\")\n}\n";
        assert_eq!(reasons(go, Language::Go), [(5, "go-fmt-print", false)]);
        let rs = "fn send(m: &M) { let line = serde_json::to_string(m).unwrap(); println!(\"{line}\"); println!(\"{}\", serde_json::to_string(m).unwrap()); println!(\"x\"); }";
        assert_eq!(
            reasons(rs, Language::Rust),
            [(1, "rust-print-macro", false)]
        );
    }

    #[test]
    fn python_print_with_file_over_several_lines() {
        let src = "import sys\nprint(\n    'a',\n    file=sys.stderr,\n)\nprint('b')\ndef f():\n    print('c', file=sys.stdout)\n    print(json.dumps(m), flush=True)\n";
        assert_eq!(
            reasons(src, Language::Python),
            [
                (6, "python-print-stdout", true),
                (8, "python-print-stdout", false)
            ]
        );
    }

    #[test]
    fn go_init_is_startup() {
        let src =
            "func init() {\n\tfmt.Println(\"x\")\n}\nfunc main() {\n\tfmt.Printf(\"%d\", 1)\n}\n";
        assert_eq!(
            reasons(src, Language::Go),
            [(2, "go-fmt-print", true), (5, "go-fmt-print", false)]
        );
    }
}
