//! The shape of the source tree, checked. Each top-level module (a file or
//! a folder of `src/`) sits on a layer, and imports only from its own layer
//! or the layers below; the modules form no import circle; the files of a
//! folder form none either, its `mod.rs` included (a name `mod.rs`
//! re-exports counts as the file that defines it); and no function outside
//! tests and the code table (with its fixes) runs over 80 lines.
//!
//! Imports are read as Rust writes them: `crate::a::b`, grouped
//! `crate::{a, b::{c, d}}` over several lines, `super::x`, anywhere in the
//! code (a `use` or a path in an expression), comments and test modules
//! left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer, lowest first (see `src/lib.rs`).
const LAYERS: &[(&str, u8)] = &[
    ("error", 0),
    ("sys", 0),
    ("clock", 0),
    ("jsontext", 0),
    ("jsonrpc", 0),
    ("mcp", 0),
    ("fold", 0),
    ("escape", 0),
    ("plural", 0),
    ("progress", 0),
    ("sha256", 0),
    ("order", 0),
    ("object", 0),
    ("redact", 0),
    ("scan", 0),
    ("hosts", 0),
    ("args", 1),
    ("plan", 2),
    ("session", 3),
    ("checks", 4),
    ("verdict", 5),
    ("report", 6),
    ("commands", 7),
];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`report` for report/json.rs).
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(src()).expect("under src");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The code of a file without its `#[cfg(test)]` modules and comments.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            Some(at) if !l[..at].contains('"') => &l[..at],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a group or a path names: `a::{b, c::{d}}` gives `a::b` and
/// `a::c::d`; each path as its segments. `text` starts right after the
/// prefix (`crate::`); returns the paths and how many bytes were read.
fn read_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < bytes.len() && (bytes[*i] as char).is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i < bytes.len() && bytes[i] == b'{' {
        i += 1;
        let mut out = Vec::new();
        loop {
            skip_ws(&mut i);
            if i >= bytes.len() {
                break;
            }
            match bytes[i] {
                b'}' => {
                    i += 1;
                    break;
                }
                b',' => i += 1,
                _ => {
                    let (paths, used) = read_tree(&text[i..]);
                    out.extend(paths);
                    // An item that reads nothing (`*`): step over it.
                    i += used.max(1);
                }
            }
        }
        return (out, i);
    }
    let start = i;
    while i < bytes.len() && is_ident(bytes[i] as char) {
        i += 1;
    }
    if i == start {
        return (Vec::new(), i);
    }
    let head = text[start..i].to_string();
    if text[i..].starts_with("::") {
        let (rest, used) = read_tree(&text[i + 2..]);
        let mut out: Vec<Vec<String>> = rest
            .into_iter()
            .map(|mut p| {
                p.insert(0, head.clone());
                p
            })
            .collect();
        if out.is_empty() {
            out.push(vec![head]);
        }
        return (out, i + 2 + used);
    }
    (vec![vec![head]], i)
}

/// Every path the code names after `prefix` (`crate::` or `super::`).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find(prefix) {
        let start = at + found;
        let before = code[..start].chars().next_back();
        at = start + prefix.len();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let (paths, used) = read_tree(&code[at..]);
        out.extend(paths);
        at += used;
    }
    out
}

fn has_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

/// The top-level graph of the tree under `root`, and every arrow up.
fn module_graph(root: &Path) -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(root).expect("under the root");
        let module = rel
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer(&module) else {
            problems.push(format!("{module} is not in LAYERS"));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(file).expect("read"));
        for path in paths_after(&code, "crate::") {
            let used = path[0].as_str();
            let Some(theirs) = layer(used) else { continue };
            if used != module {
                graph
                    .entry(module.clone())
                    .or_default()
                    .insert(used.to_string());
            }
            if theirs > own {
                problems.push(format!(
                    "{} (layer {own}) imports {used} (layer {theirs})",
                    rel.display()
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    (graph, problems)
}

/// The names a folder's `mod.rs` re-exports (`pub use x::{A, B}`, or
/// `pub use crate::module::x::A`), with the sibling file that defines each;
/// a name re-exported from another module is not the folder's.
fn re_exports(mod_code: &str, module: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in mod_code.split(';') {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.strip_prefix("self::").unwrap_or(rest);
        for path in read_tree(rest).0 {
            let owner = match path.first().map(String::as_str) {
                Some("crate") if path.get(1).map(String::as_str) == Some(module) => path.get(2),
                Some("crate") => None,
                _ => path.first(),
            };
            if let (Some(owner), Some(last)) = (owner, path.last()) {
                out.insert(last.clone(), owner.clone());
            }
        }
    }
    out
}

/// The graph of the files of one folder: an edge to a sibling file for each
/// path that names it, and to `mod` for a name `mod.rs` defines itself.
fn folder_graph(dir: &Path, module: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let stem = |f: &Path| {
        f.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let siblings: BTreeSet<String> = files
        .iter()
        .filter(|f| f.parent() == Some(dir))
        .map(|f| stem(f))
        .collect();
    let mod_code = code_of(&std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default());
    let exported = re_exports(&mod_code, module);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files.iter().filter(|f| f.parent() == Some(dir)) {
        let me = stem(file);
        let mut code = code_of(&std::fs::read_to_string(file).expect("read"));
        if me == "mod" {
            // Declarations and re-exports are not uses.
            code = code
                .split(';')
                .filter(|s| {
                    let s = s.trim_start();
                    !(s.starts_with("pub use ")
                        || s.starts_with("pub mod ")
                        || s.starts_with("mod ")
                        || s.contains("\npub mod ")
                        || s.contains("\nmod "))
                })
                .collect::<Vec<_>>()
                .join(";");
        }
        let mut named: Vec<String> = Vec::new();
        for path in paths_after(&code, "crate::") {
            if path[0] == module && path.len() > 1 {
                named.push(path[1].clone());
            }
        }
        if me != "mod" {
            for path in paths_after(&code, "super::") {
                named.push(path[0].clone());
            }
        } else {
            // mod.rs names its children directly: `driver::Driver`.
            for child in &siblings {
                if child != "mod" && code.contains(&format!("{child}::")) {
                    let needle = format!("{child}::");
                    let used = code.match_indices(&needle).any(|(at, _)| {
                        !code[..at]
                            .chars()
                            .next_back()
                            .is_some_and(|c| is_ident(c) || c == ':')
                    });
                    if used {
                        named.push(child.clone());
                    }
                }
            }
        }
        for name in named {
            let target = if siblings.contains(&name) {
                name
            } else if let Some(owner) = exported.get(&name) {
                owner.clone()
            } else if name == "self" || name == "*" {
                continue;
            } else {
                "mod".to_string()
            };
            if target != me {
                graph.entry(me.clone()).or_default().insert(target);
            }
        }
    }
    graph
}

#[test]
fn every_module_imports_only_from_its_layer_or_below_and_nothing_is_circular() {
    let (graph, problems) = module_graph(&src());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(has_cycle(&graph), None, "module graph {graph:#?}");
}

#[test]
fn the_files_of_one_folder_import_each_other_without_a_circle() {
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(src()).expect("read src").flatten() {
        if entry.path().is_dir() {
            folders.push(entry.path());
        }
    }
    assert!(folders.len() >= 8, "{folders:?}");
    for dir in folders {
        let module = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let graph = folder_graph(&dir, &module);
        assert_eq!(has_cycle(&graph), None, "{module}: {graph:#?}");
    }
}

#[test]
fn the_import_reader_sees_grouped_and_nested_imports() {
    let code = "use crate::{bench, demo::{self, run},\n    report::json};\nlet x = crate::checks::modern::check_id(c);\nuse super::{a, b};";
    let crate_paths = paths_after(code, "crate::");
    let firsts: Vec<&str> = crate_paths.iter().map(|p| p[0].as_str()).collect();
    assert_eq!(firsts, ["bench", "demo", "demo", "report", "checks"]);
    assert_eq!(crate_paths[2], ["demo", "run"]);
    let supers: Vec<String> = paths_after(code, "super::")
        .into_iter()
        .map(|p| p[0].clone())
        .collect();
    assert_eq!(supers, ["a", "b"]);
    // A circle through a grouped import is found.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("app".into()).or_default().insert("demo".into());
    g.entry("demo".into()).or_default().insert("app".into());
    assert!(has_cycle(&g).is_some());
}

#[test]
fn a_folder_mod_rs_names_what_its_files_export() {
    let exported = re_exports(
        "pub use code::{Class, Code};\npub use issue::Issue;\npub use crate::sys::Proc;",
        "checks",
    );
    assert_eq!(exported.get("Proc"), None);
    assert_eq!(exported.get("Code").map(String::as_str), Some("code"));
    assert_eq!(exported.get("Issue").map(String::as_str), Some("issue"));
}

#[test]
fn no_function_outside_tests_runs_over_80_lines() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut long = Vec::new();
    for file in &files {
        if file.ends_with("checks/code.rs") || file.ends_with("checks/fix.rs") {
            continue; // the code table, and its fixes
        }
        let text = std::fs::read_to_string(file).expect("read");
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        let lines: Vec<&str> = code.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i].trim_start();
            let is_fn = (l.starts_with("fn ")
                || l.starts_with("pub fn ")
                || l.starts_with("pub(super) fn ")
                || l.starts_with("pub(crate) fn "))
                && !l.ends_with(';');
            if !is_fn {
                i += 1;
                continue;
            }
            let indent = lines[i].len() - l.len();
            let start = i;
            // The body ends at the next line that closes at the fn's indent.
            let mut j = i + 1;
            while j < lines.len() {
                let t = lines[j];
                if t.len() - t.trim_start().len() == indent && t.trim_start().starts_with('}') {
                    break;
                }
                j += 1;
            }
            if j - start > 80 {
                long.push(format!(
                    "{}:{} ({} lines)",
                    file.display(),
                    start + 1,
                    j - start
                ));
            }
            i = j + 1;
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}

/// What a timed assertion looks like: an assertion whose arguments read a
/// clock (`elapsed`, `Instant::now()`, a `took` measured by the test) or a
/// duration's count. Flaky on a loaded machine: benches measure time, and a
/// test may compare a ratio of two times taken in the same run.
const TIMED: &[&str] = &[
    "elapsed",
    "Instant::now()",
    "took",
    "as_millis()",
    "as_secs_f64()",
    "as_secs()",
    "as_micros()",
    "as_nanos()",
];

/// Every `assert!`, `assert_eq!` and `assert_ne!` in `text`, whole (over
/// several lines), with its line number.
fn assertions(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("assert") {
        let rest = &text[at..];
        let Some(open) = rest.find('(') else { continue };
        let head = &rest[..open];
        if !matches!(head.trim_end(), "assert!" | "assert_eq!" | "assert_ne!") {
            continue;
        }
        let (mut depth, mut in_string, mut escaped) = (0, false, false);
        let mut end = open;
        for (i, c) in rest[open..].char_indices() {
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = open + i;
                break;
            }
        }
        let line = text[..at].matches('\n').count() + 1;
        out.push((line, rest[..=end].to_string()));
    }
    out
}

/// `text` with the inside of its string literals blanked (a message that
/// says "took" reads no clock).
fn without_strings(text: &str) -> String {
    let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
    for c in text.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    out.push('"');
                }
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    out
}

/// Whether `word` stands in `text` as a word of its own (not inside
/// `mistook`).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && (word.ends_with(')') || !part(after))
    })
}

#[test]
fn no_test_asserts_wall_time() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("tests"), &mut files);
    rust_files(&root.join("src"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source");
        for (line, body) in assertions(&text) {
            let code = without_strings(&body);
            if let Some(word) = TIMED.iter().find(|w| has_word(&code, w)) {
                found.push(format!("{}:{line}: {word}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "timed assertions: {found:#?}");
}

#[test]
fn the_assertion_reader_sees_multi_line_assertions() {
    // Written in two pieces, so a plain grep of the tests for a clock in an
    // assertion does not stop at this fixture.
    let text = [
        "fn t() {\n    assert!(\n        started.",
        "elapsed() < LIMIT,\n        \"slow (\"\n    );\n    assert_eq!(a, b);\n}\n",
    ]
    .concat();
    let found = assertions(&text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, 2);
    let clock = ["started.", "elapsed() < LIMIT"].concat();
    assert!(found[0].1.contains(&clock));
}
