//! The static scanner against `grep -rE` and ripgrep on the same trees, in
//! the same run.
//!
//! Generates (once, under `target/scan-bench/`) a tree of at least 100 MB of
//! JavaScript and Python: functions, comments, docstrings, strings, template
//! literals, stderr logging, and now and then a stdout write; and a dense one
//! (`target/scan-bench-dense/`): every line a template literal or f-string,
//! a call and a comment, a real stdout write in one file of ten. For each,
//!
//! - `mcp-stdio-guard scan <tree>` (release build; it lexes every file,
//!   skipping comments and strings and tracking bracket depth, on every core),
//! - `grep -rEn <pattern>` with `LC_ALL=C`, the pattern matching the same
//!   calls line by line (no comments, strings or depth: it does less),
//! - `rg` (ripgrep, Debian's package) with the same pattern, on every core,
//!
//! all three over the same files: the scanner's languages, its skipped
//! directories left out. Then the same on the real trees that
//! `scripts/setup-interop.sh` installs (`node_modules`, `site-packages`).
//! Prints the medians and the ratios. Run with `cargo bench --bench
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
/// match when its stdout is /dev/null, so every tool writes into a pipe).
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

/// The file names the scanner reads (its languages' extensions).
const EXTENSIONS: &[&str] = &[
    "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "py", "pyw", "go", "rs", "java", "kt",
    "kts", "cs", "rb",
];

/// The directory names the scanner skips, from its own list.
fn skipped_dirs() -> &'static [&'static str] {
    mcp_stdio_guard::scan::walk::SKIP_DIRS
}

/// `grep -rEn` over the files the scanner reads: its extensions, its
/// skipped directories left out.
fn grep(dir: &Path) -> Command {
    let mut g = Command::new("grep");
    // From inside the tree: grep applies --exclude-dir to the root too.
    g.current_dir(dir)
        .env("LC_ALL", "C")
        .args(["-rEn", PATTERN]);
    for ext in EXTENSIONS {
        g.arg(format!("--include=*.{ext}"));
    }
    for d in skipped_dirs() {
        g.arg(format!("--exclude-dir={d}"));
    }
    g.arg(".");
    g
}

/// ripgrep over the same files: no ignore files, hidden files too, the
/// same extensions and skipped directories; on every core (its default).
fn rg(dir: &Path) -> Command {
    let mut r = Command::new("rg");
    r.current_dir(dir).args([
        "-n",
        "--no-heading",
        "--no-ignore",
        "--hidden",
        "-e",
        PATTERN,
    ]);
    for ext in EXTENSIONS {
        r.arg("--glob").arg(format!("*.{ext}"));
    }
    for d in skipped_dirs() {
        r.arg("--glob").arg(format!("!{d}"));
    }
    r.arg(".");
    r
}

fn has_rg() -> bool {
    Command::new("rg")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    let rounds: usize = std::env::var("SCAN_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let rg = has_rg();
    if !rg {
        println!("(ripgrep is not installed: `apt-get install ripgrep` adds it to the comparison)");
    }
    // The handler-shaped tree (stdout writes in every file), the dense one
    // (every line busy, a real write in one file of ten), then the real
    // trees the interop setup installs, when they are there.
    let mut trees = vec![
        tree("scan-bench", js_file, py_file),
        tree("scan-bench-dense", dense_js, dense_py),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(".interop");
    for real in ["node/node_modules", "venv/lib/python3.11/site-packages"] {
        let dir = root.join(real);
        if dir.is_dir() {
            trees.push(dir);
        } else {
            println!(
                "({} is missing: scripts/setup-interop.sh installs it)",
                dir.display()
            );
        }
    }
    for dir in &trees {
        bench(dir, rounds, rg);
    }
}

/// Megabytes of the files the scanner reads under `dir`.
fn megabytes(dir: &Path) -> f64 {
    fn walk(dir: &Path, total: &mut u64) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        for e in read.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            let name = e.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() && !skipped_dirs().contains(&name.as_ref()) {
                walk(&e.path(), total);
            } else if kind.is_file()
                && name
                    .rsplit_once('.')
                    .is_some_and(|(_, ext)| EXTENSIONS.contains(&ext))
            {
                *total += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    let mut total = 0;
    walk(dir, &mut total);
    total as f64 / (1024.0 * 1024.0)
}

fn bench(dir: &Path, rounds: usize, with_rg: bool) {
    let mb = megabytes(dir);
    println!("tree: {} ({mb:.1} MB of source)", dir.display());
    let (mut ours, mut greps, mut rgs) = (Vec::new(), Vec::new(), Vec::new());
    // Rounds interleave the tools; the first warms the page cache.
    for _ in 0..rounds + 1 {
        let mut c = Command::new(GUARD);
        c.current_dir(dir).args(["scan", "."]);
        let (t, ok, _) = time(c);
        assert!(ok, "scan failed");
        ours.push(t);
        let (t, ok, _) = time(grep(dir));
        assert!(ok, "grep failed");
        greps.push(t);
        if with_rg {
            let (t, ok, _) = time(rg(dir));
            assert!(ok, "rg failed");
            rgs.push(t);
        }
    }
    let line = |name: &str, mut v: Vec<Duration>| {
        v.remove(0);
        let m = median(v);
        println!(
            "  {name:<22} {:.3} s ({:.0} MB/s)",
            m.as_secs_f64(),
            mb / m.as_secs_f64()
        );
        m
    };
    let o = line("mcp-stdio-guard scan", ours);
    let g = line("grep -rEn", greps);
    let r = with_rg.then(|| line("rg", rgs));
    print!(
        "  ratio scan/grep: {:.2}",
        o.as_secs_f64() / g.as_secs_f64()
    );
    if let Some(r) = r {
        let ratio = o.as_secs_f64() / r.as_secs_f64();
        print!(
            "; ratio scan/rg: {ratio:.2} (goal: 1.00 or less: {})",
            if ratio <= 1.0 { "met" } else { "NOT met" }
        );
    }
    println!(" ({rounds} rounds, medians)");
}
