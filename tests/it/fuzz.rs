//! A deterministic fuzz harness: a seeded generator mutates realistic
//! inputs (JSON-RPC lines, config files, source code) and feeds them to the
//! stdout framer, the JSON-RPC classifier, the JSON reader, the config
//! parser and the scanner's lexers. Nothing may panic, and nothing may
//! hold more than its bound (a framed line never exceeds the line limit, a
//! token stream never outgrows its source).
//!
//! The run is short in `cargo test`; `MCP_GUARD_FUZZ_ITERS=1000000 cargo
//! test --test it fuzz` runs a long one, and `MCP_GUARD_FUZZ_SEED=N` picks
//! another seed.

use std::sync::mpsc;

use mcp_stdio_guard::args::config;
use mcp_stdio_guard::session::wire;
use mcp_stdio_guard::{jsonrpc, jsontext, scan};

/// xorshift64*: small, fast, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn iterations() -> usize {
    std::env::var("MCP_GUARD_FUZZ_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500)
}

fn seed() -> u64 {
    std::env::var("MCP_GUARD_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_cafe_f00d_1234)
}

/// Bytes that break parsers: quotes, escapes, brackets, line ends, invalid
/// UTF-8, surrogate escapes, a BOM.
const SPICE: &[&[u8]] = &[
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xff",
    b"\xe2\x82",
    b"\\u",
    b"\\ud800",
    b"\\udc00",
    b"\xef\xbb\xbf",
    b"\0",
    b"1e400",
    b"-",
    b":",
    b",",
    b"/*",
    b"*/",
    b"//",
    b"#",
    b"`",
    b"${",
    b"'''",
    b"\"\"\"",
    b"r#\"",
    b"\"#",
    b"<<~EOS\n",
];

/// A mutation of `seed`: flips, deletions, insertions of spice, splices.
fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..=rng.below(6) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] = rng.next() as u8;
            }
            1 if !out.is_empty() => {
                let end = (at + rng.below(8)).min(out.len());
                out.drain(at.min(end)..end);
            }
            2 => {
                let spice = *rng.pick(SPICE);
                out.splice(at..at, spice.iter().copied());
            }
            3 => {
                let copy: Vec<u8> = out.clone();
                let from = rng.below(copy.len() + 1);
                let to = (from + rng.below(64)).min(copy.len());
                out.splice(at..at, copy[from..to].iter().copied());
            }
            _ => {
                let n = rng.below(3000);
                let b = *rng.pick(b"\n[{ x");
                out.splice(at..at, std::iter::repeat_n(b, n));
            }
        }
    }
    out
}

const LINES: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"caf\udce9"}}"#,
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    r#"[{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}]"#,
    "Content-Length: 52",
    "Starting server...",
];

#[test]
fn the_framer_never_panics_and_never_holds_a_line_past_its_limit() {
    let mut rng = Rng(seed());
    for _ in 0..iterations() / 3 {
        let mut stream = Vec::new();
        for _ in 0..rng.below(6) {
            let seed = rng_line(&mut rng);
            stream.extend(mutate(&mut rng, seed));
            stream.push(b'\n');
        }
        let max_line = 1 + rng.below(4096) as u64;
        let max_total = 1 + rng.below(1 << 16) as u64;
        let (tx, rx) = mpsc::sync_channel(1 << 16);
        let tail = wire::Tail::default();
        wire::frame_stdout(
            std::io::Cursor::new(stream.clone()),
            max_line,
            max_total,
            &tx,
            &tail,
        );
        drop(tx);
        let mut total = 0;
        for event in rx {
            match event {
                wire::Event::StdoutLine { bytes, .. } => {
                    assert!(bytes.len() as u64 <= max_line, "a line past its limit")
                }
                wire::Event::StdoutOversize { head, len, .. } => {
                    assert!(head.len() <= 512 && len > max_line)
                }
                wire::Event::StdoutClosed { total: t } => total = t,
                _ => {}
            }
        }
        assert_eq!(total, stream.len() as u64, "every byte counted");
    }
}

fn rng_line(rng: &mut Rng) -> &'static [u8] {
    rng.pick(LINES).as_bytes()
}

#[test]
fn the_classifier_and_the_json_reader_never_panic() {
    let mut rng = Rng(seed() ^ 1);
    for _ in 0..iterations() {
        let seed = rng_line(&mut rng);
        let line = mutate(&mut rng, seed);
        let c = jsonrpc::classify(&line);
        if let Ok(text) = std::str::from_utf8(&line) {
            let parsed = jsontext::parse(text);
            // A line the classifier calls a message is JSON the reader reads.
            if matches!(c.line, jsonrpc::Line::Message(_)) {
                let text = text.strip_suffix('\r').unwrap_or(text);
                assert!(jsontext::parse(text).is_ok() || parsed.is_ok(), "{text}");
            }
        }
    }
    // Deep nesting: kept to the bound, elided past it, never an overflow.
    for depth in [127, 128, 129, 1000, 1024, 1025, 100_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let (_, quirks) = jsontext::parse(&text).expect("deep JSON is JSON");
        assert_eq!(quirks.too_deep, depth > jsontext::MAX_DEPTH, "{depth}");
        let _ = jsonrpc::classify(text.as_bytes());
    }
}

const CONFIGS: &[&str] = &[
    r#"{"command": ["node", "server.js"], "env": {"A": "1"}, "timeoutMs": 2000, "requests": [{"method": "tools/list"}]}"#,
    r#"{"mcpServers": {"a": {"command": "uvx", "args": ["x"], "env": {"K": "v"}}, "b": {"url": "https://x"}}}"#,
    r#"{"profile": "strict", "adversarialProbes": ["notification"], "safeToolCalls": [{"name": "echo", "arguments": {}}]}"#,
    r#"{"scan": ["src", "lib"], "maxStdoutBytes": 10, "repeat": 3, "protocol": "2025-06-18"}"#,
];

#[test]
fn the_config_parser_never_panics() {
    let mut rng = Rng(seed() ^ 2);
    let dir = std::path::Path::new("/tmp/mcpguard-fuzz/c.json");
    for _ in 0..iterations() {
        let seed = *rng.pick(CONFIGS);
        let text = mutate(&mut rng, seed.as_bytes());
        let text = String::from_utf8_lossy(&text);
        let server = rng.pick(&[None, Some("a"), Some("b"), Some("zz")]);
        let _ = config::parse_text(&text, "c.json", dir, *server);
    }
}

const SOURCES: &[(&str, &str)] = &[
    (
        "js",
        "const x = `a ${b + `c ${d}`} e`; // print(\nconsole.log(\"hi\"); /* console.log(1) */ process.stdout.write(JSON.stringify(m));\n",
    ),
    (
        "py",
        "def f():\n    print(\"\"\"doc\n\"\"\", file=sys.stderr)\nprint(f'{x!r:>{w}}')\nsys.stdout.write(json.dumps(m))\n",
    ),
    (
        "go",
        "func init() { fmt.Println(`raw\n`) }\nfmt.Fprintf(os.Stdout, \"%s\", x)\n",
    ),
    (
        "rs",
        "fn main() { println!(r#\"a \" b\"#); let c = 'x'; /* /* nested */ */ eprintln!(\"e\"); }\n",
    ),
    ("rb", "puts <<~EOS\n  text\nEOS\n$stdout.puts %q{x}\n"),
    ("cs", "Console.WriteLine($@\"{x} \"\"q\"\"\");\n"),
    ("kt", "println(\"\"\"x\"\"\")\nSystem.out.println(1)\n"),
    ("java", "System.out.println(\"\"\"\n text\n\"\"\");\n"),
];

#[test]
fn the_scanner_never_panics_and_its_tokens_fit_the_source() {
    let mut rng = Rng(seed() ^ 3);
    let mut toks = Vec::new();
    for _ in 0..iterations() {
        let (ext, src) = rng.pick(SOURCES);
        let source = mutate(&mut rng, src.as_bytes());
        let path = std::path::PathBuf::from(format!("f.{ext}"));
        let Some(lang) = scan::lex::Language::of(&path) else {
            continue;
        };
        if let Ok(found) = scan::scan_source(&source, lang, "f", &mut toks) {
            assert!(toks.len() <= source.len() + 1, "more tokens than bytes");
            for f in found {
                assert!(f.line >= 1);
            }
        }
    }
}

/// What a hostile server puts in its strings, for the writers.
const MARKUP: &[&str] = &[
    "\u{1b}[5m",
    "\u{1b}]8;;https://e.example\u{7}",
    "\u{1b}]0;title\u{7}",
    "\u{7}",
    "\u{0}",
    "\u{85}",
    "\u{9b}",
    "\u{7f}",
    "\u{202e}",
    "\u{2066}",
    "\u{2069}",
    "\u{200b}",
    "\u{feff}",
    "\u{e0041}",
    "\n",
    "\r",
    "\t",
    "::error::x",
    "::set-env name=A::b",
    "%0A",
    "%",
    "<img src=x>",
    "<script>",
    "[link](https://e.example)",
    "![i](x)",
    "]]>",
    "`",
    "|",
    "&amp;",
    "\\",
    "\"",
    "'",
    "https://e.example",
    "www.e.example",
    "plain",
    "é",
];

/// The writers over reports whose every server string is random markup:
/// no raw control, bidi or invisible character reaches a text, workflow
/// command, Markdown or XML output, every workflow command line is the
/// guard's own, Markdown holds no tag, link or code span of the server's,
/// the XML stays well formed and the HTML report card holds only its own
/// tags.
#[test]
fn the_writers_never_let_a_control_byte_or_markup_through() {
    use mcp_stdio_guard::report::{annotations, html, junit, style::Paint, text};
    use mcp_stdio_guard::verdict::{Suite, example::hostile_report};
    let mut rng = Rng(seed() ^ 0xa11);
    let rounds = (iterations() / 50).clamp(20, 2000);
    for round in 0..rounds {
        let mut s = String::new();
        for _ in 0..rng.below(12) + 1 {
            s.push_str(MARKUP[rng.below(MARKUP.len())]);
        }
        let r = hostile_report(&s);
        let txt = text::render(&r, Paint { on: false }, true);
        let cmds = annotations::commands(&r);
        let md = annotations::summary(&r, "2026-12-03T00:00:00.000+00:00");
        let xml = junit::render("mcp-stdio-guard", &[Suite::of_report(&r)], true);
        let page = html::render(&r, "2026-12-03T00:00:00.000+00:00");
        for (name, out) in [
            ("text", &txt),
            ("annotations", &cmds),
            ("summary", &md),
            ("junit", &xml),
            ("html", &page),
        ] {
            for c in out.chars() {
                assert!(
                    c == '\n' || !mcp_stdio_guard::escape::is_hidden(c),
                    "round {round} ({s:?}): {name} has a raw U+{:04X}",
                    c as u32
                );
            }
        }
        for line in cmds.lines() {
            assert!(
                line.starts_with("::error title=") || line.starts_with("::warning title="),
                "round {round} ({s:?}): {line}"
            );
        }
        holds_none(
            &md,
            &["<img", "<script", "](", "`e", "https://", "www.e"],
            || format!("round {round} ({s:?}): the summary"),
        );
        assert_eq!(
            xml.matches('<').count(),
            xml.matches('>').count(),
            "round {round} ({s:?}): unbalanced XML"
        );
        assert!(!xml.contains("]]>"), "round {round}");
        // The card's own markup only: every server `<` is an entity.
        holds_none(
            &page,
            &["<img", "<script", "<a ", "<link", "<iframe"],
            || format!("round {round} ({s:?}): the card"),
        );
        assert_eq!(
            page.matches('<').count(),
            page.matches('>').count(),
            "round {round} ({s:?}): unbalanced HTML"
        );
    }
}

/// Fails when `text` holds any of `bad`, naming where it came from.
fn holds_none(text: &str, bad: &[&str], what: impl Fn() -> String) {
    for b in bad {
        assert!(!text.contains(b), "{} holds {b:?}", what());
    }
}
