//! The shape of the source tree, checked: every module imports only from
//! its own layer or the layers below (as `src/lib.rs` lists them), the
//! modules form no import circle, nor do the files inside one module, and
//! no function outside tests and the code table runs over 80 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer, lowest first (see `src/lib.rs`).
const LAYERS: &[(&str, u8)] = &[
    ("error", 0),
    ("sys", 0),
    ("jsonrpc", 0),
    ("jsontext", 0),
    ("mcp", 0),
    ("redact", 0),
    ("escape", 0),
    ("scan", 0),
    ("options", 1),
    ("call", 1),
    ("cli", 1),
    ("config", 2),
    ("settings", 2),
    ("plan", 2),
    ("child", 3),
    ("wire", 3),
    ("session", 3),
    ("transcript", 4),
    ("fingerprint", 4),
    ("checks", 5),
    ("report", 6),
    ("evidence", 6),
    ("docs", 2),
    ("app", 7),
    ("batch", 7),
    ("bench", 7),
    ("demo", 7),
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

/// Identifiers that follow `prefix` in `text` (`crate::` -> `report`).
fn names_after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.push(&rest[..end]);
        }
    }
    out
}

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The code of a file without its `#[cfg(test)] mod tests` block and its
/// comments.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn has_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            return Some(stack[at..].to_vec());
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

#[test]
fn every_module_imports_only_from_its_layer_or_below_and_nothing_is_circular() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for file in &files {
        let module = module_of(file);
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer(&module) else {
            problems.push(format!("{module} is not in LAYERS"));
            continue;
        };
        let text = code_of(&std::fs::read_to_string(file).expect("read"));
        for used in names_after(&text, "crate::") {
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
                    file.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(has_cycle(&graph), None, "module graph {graph:#?}");
}

#[test]
fn the_files_of_one_module_import_each_other_without_a_circle() {
    for module in ["report", "checks", "session", "scan"] {
        let dir = src().join(module);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        let siblings: Vec<String> = files
            .iter()
            .filter_map(|f| f.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .filter(|s| s != "mod")
            .collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let me = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if me == "mod" {
                continue;
            }
            let text = code_of(&std::fs::read_to_string(file).expect("read"));
            let prefix = format!("crate::{module}::");
            let used = names_after(&text, &prefix)
                .into_iter()
                .chain(names_after(&text, "super::"));
            for u in used {
                if u != me && siblings.iter().any(|s| s == u) {
                    graph.entry(me.clone()).or_default().insert(u.to_string());
                }
            }
        }
        assert_eq!(has_cycle(&graph), None, "{module}: {graph:#?}");
    }
}

#[test]
fn no_function_outside_tests_runs_over_80_lines() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut long = Vec::new();
    for file in &files {
        if file.ends_with("checks/code.rs") {
            continue; // the code table
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
