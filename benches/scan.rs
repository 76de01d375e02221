//! The static scanner against `grep -rE` on the same tree, in the same run.
//!
//! Generates (once, under `target/scan-bench/`) a tree of at least 100 MB of
//! JavaScript and Python: functions, comments, docstrings, strings, template
//! literals, stderr logging, and now and then a stdout write; and a dense one
//! (`target/scan-bench-dense/`): every line a template literal or f-string,
//! a call and a comment, a real stdout write in one file of ten. For each,
//!
//! - `mcp-stdio-guard scan <tree>` (release build; it lexes every file,
//!   skipping comments and strings and tracking bracket depth, on every core),
//! - `grep -rEn <pattern> <tree>` with `LC_ALL=C`, the pattern matching the
//!   same calls line by line (no comments, strings or depth: it does less),
//!
//! and prints the medians and their ratio. Run with `cargo bench --bench
//! scan`; SCAN_BENCH_ROUNDS overrides the number of rounds (default 5).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GUARD: &str = env!("CARGO_BIN_EXE_mcp-stdio-guard");
const TARGET_BYTES: u64 = 100 * 1024 * 1024;
const PATTERN: &str = r"console\.(log|info|debug|dir|dirxml|table|count|group|groupCollapsed|timeLog|timeEnd)\(|process\.stdout\.write\(|process\.stdout[,)}]|destination\(|transports\.Console\(|print\(|sys\.stdout\.(buffer\.)?write|basicConfig\(|StreamHandler\(|(click|typer)\.s?echo\(";

fn js_file(seed: usize) -> String {
    let mut s = String::from("// Generated module for the scan benchmark.\n'use strict';\n\n");
    for f in 0..60 {
        let n = seed * 1000 + f;
        let _ = write!(
            s,
            r#"/**
 * Handles request kind {n}. Example: console.log("not code") in a comment.
 */
function handle{n}(request, options = {{}}) {{
  const started = Date.now();
  const label = `request ${{request.id}} of kind {n}: ${{JSON.stringify(options)}}`;
  if (!request || typeof request.method !== "string") {{
    console.error("invalid request", label);
    return {{ error: {{ code: -32600, message: "Invalid Request" }} }};
  }}
  const items = [];
  for (let i = 0; i < (options.limit || 10); i++) {{
    items.push({{ id: i, name: "item-" + i, tags: ["a", "b", 'c'] }});
  }}
  /* A block comment mentioning process.stdout.write("x") */
  const pattern = /console\.log\(/g;
  const elapsed = Date.now() - started;
  console.warn(`slow path: ${{elapsed}} ms`);
  return {{ result: {{ items, elapsed, text: "print('hello') inside a string" }} }};
}}

"#
        );
        if f % 20 == 7 {
            let _ = writeln!(s, "console.log('loaded handler {n}');\n");
        }
    }
    s.push_str("module.exports = {};\n");
    s
}

fn py_file(seed: usize) -> String {
    let mut s = String::from(
        "\"\"\"Generated module for the scan benchmark.\n\nprint('in a docstring')\n\"\"\"\nimport json\nimport sys\n\n",
    );
    for f in 0..60 {
        let n = seed * 1000 + f;
        let _ = write!(
            s,
            r#"

def handle_{n}(request, limit=10):
    """Handle request kind {n}; print() here is documentation."""
    if not isinstance(request, dict):
        print("invalid request", file=sys.stderr)
        return {{"error": {{"code": -32600, "message": "Invalid Request"}}}}
    items = [{{"id": i, "name": f"item-{{i}}", "tags": ["a", "b"]}} for i in range(limit)]
    # print("a commented-out debug line")
    text = 'sys.stdout.write("inside a string")'
    total = sum(item["id"] for item in items)
    print(
        "summary", total,
        file=sys.stderr,
    )
    return {{"result": {{"items": items, "total": total, "text": text}}}}
"#
        );
        if f % 20 == 7 {
            let _ = writeln!(s, "\nprint('loaded handler {n}')");
        }
    }
    s
}

/// A dense JavaScript file: every line holds a template literal, a call
/// and a comment; one file in ten has a real stdout write.
fn dense_js(seed: usize) -> String {
    let mut s = String::from("'use strict';\n");
    for l in 0..2000 {
        let _ = writeln!(
            s,
            "const v{l} = fmt(`value ${{a{l} + b}} of ${{name.slice({l})}}`, {{ depth: {l} }}); // note {seed}/{l} about fmt(`x`)"
        );
    }
    if seed % 10 == 3 {
        s.push_str("console.log('the real write');\n");
    }
    s
}

/// A dense Python file: f-strings, calls and comments on every line.
fn dense_py(seed: usize) -> String {
    let mut s = String::from("import json\n");
    for l in 0..2000 {
        let _ = writeln!(
            s,
            "v{l} = fmt(f\"value {{a{l} + b}} of {{name[{l}:]}}\", depth={l})  # note {seed}/{l} about fmt(f\"x\")"
        );
    }
    if seed % 10 == 3 {
        s.push_str("print('the real write')\n");
    }
    s
}

type Gen = fn(usize) -> String;

/// Writes the tree unless a complete one is already there.
fn tree(name: &str, js: Gen, py: Gen) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join(name);
    let stamp = dir.join("COMPLETE");
    if stamp.exists() {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut total = 0u64;
    let mut i = 0;
    while total < TARGET_BYTES {
        let sub = dir.join(format!("pkg{:03}/src", i / 50));
        std::fs::create_dir_all(&sub).expect("mkdir");
        let (name, text) = if i % 2 == 0 {
            (format!("mod{i}.js"), js(i))
        } else {
            (format!("mod{i}.py"), py(i))
        };
        total += text.len() as u64;
        std::fs::write(sub.join(name), text).expect("write");
        i += 1;
    }
    std::fs::write(&stamp, format!("{total} bytes in {i} files\n")).expect("stamp");
    dir
}

/// Runs a command, reading all its output (GNU grep stops at the first
/// match when its stdout is /dev/null, so both write into a pipe).
fn time(mut cmd: Command) -> (Duration, bool, usize) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    let start = Instant::now();
    let out = cmd.output().expect("run");
    let ok = out.status.code() == Some(1) || out.status.success();
    (start.elapsed(), ok, out.stdout.len())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::var("SCAN_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    // The handler-shaped tree (stdout writes in every file), then the dense
    // one (every line busy, a real write in one file of ten).
    bench(&tree("scan-bench", js_file, py_file), rounds);
    bench(&tree("scan-bench-dense", dense_js, dense_py), rounds);
}

fn bench(dir: &Path, rounds: usize) {
    let dir = dir.to_path_buf();
    let info = std::fs::read_to_string(dir.join("COMPLETE")).unwrap_or_default();
    println!("tree: {} ({})", dir.display(), info.trim());
    let mut ours = Vec::new();
    let mut grep = Vec::new();
    for _ in 0..rounds + 1 {
        let mut c = Command::new(GUARD);
        c.arg("scan").arg(&dir);
        let (t, ok, bytes) = time(c);
        assert!(ok && bytes > 0, "scan failed");
        ours.push(t);
        let mut g = Command::new("grep");
        g.env("LC_ALL", "C").args(["-rEn", PATTERN]).arg(&dir);
        let (t, ok, bytes) = time(g);
        assert!(ok && bytes > 0, "grep failed");
        grep.push(t);
    }
    // The first round warms the cache.
    ours.remove(0);
    grep.remove(0);
    let (o, g) = (median(ours), median(grep));
    let mb = TARGET_BYTES as f64 / (1024.0 * 1024.0);
    println!("rounds: {rounds}");
    println!(
        "mcp-stdio-guard scan median: {:.3} s ({:.0} MB/s)",
        o.as_secs_f64(),
        mb / o.as_secs_f64()
    );
    println!(
        "grep -rE median:             {:.3} s ({:.0} MB/s)",
        g.as_secs_f64(),
        mb / g.as_secs_f64()
    );
    println!("ratio scan/grep: {:.2}", o.as_secs_f64() / g.as_secs_f64());
}
