//! Every writer over one fixed model (`verdict::example::hostile_report`: a
//! real session in memory, times fixed, every server string hostile),
//! compared byte for byte with `testdata/golden/`; and the escaping rule
//! of each format over one table of hostile strings, exact bytes asserted.
//! `MCP_GUARD_BLESS=1 cargo test --test it golden` rewrites the files after
//! a deliberate change (then read the diff).

use std::path::PathBuf;

use mcp_stdio_guard::args::formats::FORMATS;
use mcp_stdio_guard::escape;
use mcp_stdio_guard::report::{self, annotations, audit, common, json, record, style::Paint, text};
use mcp_stdio_guard::verdict::example::hostile_report;

/// A string with a bit of everything a hostile server sends: an ESC
/// sequence (blink), an OSC 8 link, a bell, C1 controls, a right-to-left
/// override and isolates, a zero-width space, Tag characters spelling a
/// hidden instruction, a workflow command after a newline, percent
/// escapes, HTML, a Markdown link, the end of a CDATA section.
pub const HOSTILE: &str = "A\u{1b}[5mB\u{1b}]8;;https://evil.example\u{7}link\u{1b}]8;;\u{7} \u{85}\u{9b}2J \u{202e}txt.exe\u{2066}x\u{2069} z\u{200b}w \u{e0049}\u{e0047}\u{e004e} \r\n::set-env name=X::1 %0A <img src=x onerror=alert(1)> [link](https://evil.example) ]]> `tick` | pipe & amp";

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/golden")
        .join(name)
}

fn compare(name: &str, got: &str) {
    let path = golden(name);
    if std::env::var_os("MCP_GUARD_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::fs::write(&path, got).expect("bless");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing: run with MCP_GUARD_BLESS=1", path.display()));
    if want != got {
        let line = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{name} differs from its golden file at line {}:\n  want: {:?}\n   got: {:?}",
            line + 1,
            want.lines().nth(line),
            got.lines().nth(line)
        );
    }
}

/// No byte a terminal, a CI log or a workflow runner acts on.
fn assert_inert(name: &str, text: &str) {
    for (i, c) in text.char_indices() {
        let allowed = c == '\n' || c == '\t';
        assert!(
            allowed || !escape::is_hidden(c),
            "{name}: raw {:?} at byte {i}",
            c
        );
    }
}

#[test]
fn every_writer_matches_its_golden_file_and_writes_no_raw_control() {
    let r = hostile_report(HOSTILE);
    let again = hostile_report(HOSTILE);
    assert_eq!(
        json::render(&r).to_text(),
        json::render(&again).to_text(),
        "the model is not fixed"
    );
    let mut outputs = vec![
        (
            "report.txt".to_string(),
            text::render(&r, Paint { on: false }, true),
        ),
        ("report.json".into(), json::render(&r).to_text()),
        ("annotations.txt".into(), annotations::commands(&r)),
        (
            "summary.md".into(),
            annotations::summary(&r, "2026-12-03T00:00:00.000+00:00"),
        ),
        ("tools.txt".into(), audit::render_tools(&r, false, 100)),
        (
            "evidence.json".into(),
            common::pretty(&record::evidence(&r, 0, "/audit/evidence.jsonl")),
        ),
    ];
    // Every format of the table, by its flag: a new format fails here
    // until its golden file is blessed.
    for d in FORMATS {
        let time = "2026-12-03T00:00:00.000+00:00";
        outputs.push((
            format!("format-{}.golden", d.flag),
            report::write(
                d.format,
                &r,
                &report::FormatOptions {
                    time,
                    junit_skipped: true,
                },
            ),
        ));
    }
    for (name, out) in &outputs {
        compare(name, out);
        if serde_json::from_str::<serde_json::Value>(out).is_err() {
            assert_inert(name, out);
        }
    }
    // The two reproductions of the issue: the tool name's ESC never
    // reaches the runner, and the banner's tag never reaches the summary.
    let commands = &outputs[2].1;
    assert!(!commands.contains('\u{1b}'), "{commands}");
    assert!(
        commands
            .lines()
            .all(|l| l.starts_with("::error ") || l.starts_with("::warning ")),
        "a line that is not the guard's own command: {commands}"
    );
    let summary = &outputs[3].1;
    assert!(!summary.contains("<img"), "{summary}");
    assert!(
        summary.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{summary}"
    );
}

#[test]
fn the_transcript_scan_and_bench_writers_match_their_golden_files() {
    use mcp_stdio_guard::plan::outputs::{Kind, Outputs, Wanted};
    use mcp_stdio_guard::report::transcript::TranscriptFile;
    use mcp_stdio_guard::session::bench::{Burst, Measured, Stats};
    // The transcript, streamed by its tap as the fixed records fold.
    let dir = std::env::temp_dir().join(format!("mcpguard-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("t.jsonl");
    let mut outputs =
        Outputs::open(&[Wanted::new(Kind::Transcript, path.clone())], &[]).expect("open");
    let sink = outputs.take(Kind::Transcript).expect("sink");
    let argv = vec!["node".to_string(), "server.js".to_string()];
    mcp_stdio_guard::verdict::example::hostile_session(
        HOSTILE,
        Some(Box::new(TranscriptFile::new(sink, argv, None))),
    );
    let transcript = std::fs::read_to_string(&path).expect("transcript");
    let _ = std::fs::remove_dir_all(&dir);
    compare("transcript.jsonl", &transcript);
    for line in transcript.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("each line is JSON");
    }
    // The scan command's writers over the labelled corpus (relative root).
    let scanned = mcp_stdio_guard::scan::scan(&[PathBuf::from("testdata/scan")]).expect("scan");
    compare(
        "scan.txt",
        &mcp_stdio_guard::report::scan::render_text(&scanned, false, false),
    );
    compare(
        "scan.json",
        &mcp_stdio_guard::report::scan::render_json(&scanned),
    );
    // The bench's writers over fixed figures.
    let stats = |p50_us: u64| Stats {
        count: 100,
        p50_us,
        p95_us: p50_us * 2,
        p99_us: p50_us * 3,
        max_us: p50_us * 4,
        mean_us: p50_us,
    };
    let burst = |c: u64, p50: u64| Burst {
        concurrency: c,
        sent: 2000,
        ok: 1990,
        errors: 10,
        timeouts: 0,
        wall_us: 1_000_000,
        latency: stats(p50),
    };
    let m = Measured {
        speaks: Some(mcp_stdio_guard::session::Speaks::Legacy),
        liveness: "ping",
        method: "ping".into(),
        cold_start: stats(40_000),
        warm_liveness: stats(50),
        tools_list: stats(80),
        tool: Some((HOSTILE.to_string(), stats(120))),
        sequential: burst(1, 50),
        burst: burst(8, 60),
        guard_share: stats(4),
        warm_opened: true,
    };
    let text = mcp_stdio_guard::report::bench::text(&m);
    assert_inert("bench.txt", &text);
    compare("bench.txt", &text);
    compare(
        "bench.json",
        &common::pretty(&mcp_stdio_guard::report::bench::value(&m)),
    );
}

/// One hostile input and what each format makes of it, exactly.
struct Row {
    input: &'static str,
    text: &'static str,
    annotation: &'static str,
    markdown: &'static str,
    xml: &'static str,
    json: &'static str,
}

const ROWS: &[Row] = &[
    Row {
        input: "\u{1b}[31mred",
        text: "\\u{1b}[31mred",
        annotation: "\\u{1b}[31mred",
        markdown: "&#92;u{1b}&#91;31mred",
        xml: "\\u{1b}[31mred",
        json: "\"\\u001b[31mred\"",
    },
    Row {
        input: "\u{1b}]8;;https://x.example\u{7}go\u{1b}]8;;\u{7}",
        text: "\\u{1b}]8;;https://x.example\\u{7}go\\u{1b}]8;;\\u{7}",
        annotation: "\\u{1b}]8;;https://x.example\\u{7}go\\u{1b}]8;;\\u{7}",
        markdown: "&#92;u{1b}&#93;8;;https:&#47;&#47;x.example&#92;u{7}go&#92;u{1b}&#93;8;;&#92;u{7}",
        xml: "\\u{1b}]8;;https://x.example\\u{7}go\\u{1b}]8;;\\u{7}",
        json: "\"\\u001b]8;;https://x.example\\u0007go\\u001b]8;;\\u0007\"",
    },
    Row {
        input: "a\u{85}b\u{9f}c\u{7f}",
        text: "a\\u{85}b\\u{9f}c\\u{7f}",
        annotation: "a\\u{85}b\\u{9f}c\\u{7f}",
        markdown: "a&#92;u{85}b&#92;u{9f}c&#92;u{7f}",
        xml: "a\\u{85}b\\u{9f}c\\u{7f}",
        json: "\"a\u{85}b\u{9f}c\u{7f}\"",
    },
    Row {
        input: "evil\u{202e}gnp.exe \u{2066}\u{2067}\u{2068}\u{2069}",
        text: "evil\\u{202e}gnp.exe \\u{2066}\\u{2067}\\u{2068}\\u{2069}",
        annotation: "evil\\u{202e}gnp.exe \\u{2066}\\u{2067}\\u{2068}\\u{2069}",
        markdown: "evil&#92;u{202e}gnp.exe &#92;u{2066}&#92;u{2067}&#92;u{2068}&#92;u{2069}",
        xml: "evil\\u{202e}gnp.exe \\u{2066}\\u{2067}\\u{2068}\\u{2069}",
        json: "\"evil\u{202e}gnp.exe \u{2066}\u{2067}\u{2068}\u{2069}\"",
    },
    Row {
        input: "ok\u{e0069}\u{e0067}\u{200b}\u{feff}",
        text: "ok\\u{e0069}\\u{e0067}\\u{200b}\\u{feff}",
        annotation: "ok\\u{e0069}\\u{e0067}\\u{200b}\\u{feff}",
        markdown: "ok&#92;u{e0069}&#92;u{e0067}&#92;u{200b}&#92;u{feff}",
        xml: "ok\\u{e0069}\\u{e0067}\\u{200b}\\u{feff}",
        json: "\"ok\u{e0069}\u{e0067}\u{200b}\u{feff}\"",
    },
    Row {
        input: "x\n::set-env name=PATH::/tmp\r\n%0A",
        text: "x\\n::set-env name=PATH::/tmp\\r\\n%0A",
        annotation: "x\\n::set-env name=PATH::/tmp\\r\\n%250A",
        markdown: "x&#92;n::set-env name=PATH::/tmp&#92;r&#92;n%0A",
        xml: "x\\n::set-env name=PATH::/tmp\\r\\n%0A",
        json: "\"x\\n::set-env name=PATH::/tmp\\r\\n%0A\"",
    },
    Row {
        input: "<img src=x onerror=alert(1)> [link](x) `c` a|b & ]]> \\",
        text: "<img src=x onerror=alert(1)> [link](x) `c` a|b & ]]> \\",
        annotation: "<img src=x onerror=alert(1)> [link](x) `c` a|b & ]]> \\",
        markdown: "&lt;img src=x onerror=alert(1)&gt; &#91;link&#93;(x) &#96;c&#96; a&#124;b &amp; &#93;&#93;&gt; &#92;",
        xml: "&lt;img src=x onerror=alert(1)&gt; [link](x) `c` a|b &amp; ]]&gt; \\",
        json: "\"<img src=x onerror=alert(1)> [link](x) `c` a|b & ]]> \\\\\"",
    },
    Row {
        input: "\\ud800 is a lone surrogate escape",
        text: "\\ud800 is a lone surrogate escape",
        annotation: "\\ud800 is a lone surrogate escape",
        markdown: "&#92;ud800 is a lone surrogate escape",
        xml: "\\ud800 is a lone surrogate escape",
        json: "\"\\\\ud800 is a lone surrogate escape\"",
    },
];

#[test]
fn each_format_escapes_the_hostile_table_exactly() {
    for (i, row) in ROWS.iter().enumerate() {
        assert_eq!(escape::line(row.input), row.text, "text, row {i}");
        assert_eq!(
            escape::annotation_data(row.input),
            row.annotation,
            "annotation, row {i}"
        );
        assert_eq!(
            escape::markdown(row.input),
            row.markdown,
            "markdown, row {i}"
        );
        assert_eq!(escape::xml(row.input), row.xml, "xml, row {i}");
        assert_eq!(
            serde_json::to_string(row.input).expect("json"),
            row.json,
            "json, row {i}"
        );
    }
    // Every C0 and C1 control, one at a time, is shown, never sent.
    for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
        let s = c.to_string();
        for (name, out) in [
            ("text", escape::line(&s)),
            ("annotation", escape::annotation_data(&s)),
            ("markdown", escape::markdown(&s)),
            ("xml", escape::xml(&s)),
        ] {
            assert!(!out.contains(c), "{name}: U+{:04X} passed raw", c as u32);
        }
    }
}
