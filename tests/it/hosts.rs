//! The host-config readers held to reference parsers: every file of the
//! corpus (`testdata/hosts/corpus`, written from the hosts' documentation)
//! reads as `toml` and `serde_norway` read it, and a fuzz of mutated
//! corpus files never finds the readers accepting what the reference
//! refuses or reading it differently (refusing what the reference reads is
//! allowed: a refusal names its line).

use std::path::{Path, PathBuf};

use mcp_stdio_guard::hosts::{toml as our_toml, yaml as our_yaml};
use serde_json::Value;

fn corpus(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosts/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} file in {}", dir.display());
    files
}

fn reference_toml(text: &str) -> Option<Value> {
    toml::from_str::<Value>(text).ok()
}

fn reference_yaml(text: &str) -> Option<Value> {
    serde_norway::from_str::<Value>(text).ok()
}

fn ours_toml(text: &str) -> Option<Value> {
    our_toml::read(text).ok().map(|n| n.to_json())
}

fn ours_yaml(text: &str) -> Option<Value> {
    our_yaml::read(text).ok().map(|n| n.to_json())
}

#[test]
fn every_corpus_file_reads_as_the_reference_parsers_read_it() {
    for (ext, ours, reference) in [
        (
            "toml",
            ours_toml as fn(&str) -> Option<Value>,
            reference_toml as fn(&str) -> Option<Value>,
        ),
        ("yaml", ours_yaml, reference_yaml),
    ] {
        for file in corpus(ext) {
            let text = std::fs::read_to_string(&file).expect("read");
            let want = reference(&text)
                .unwrap_or_else(|| panic!("the reference reads {}", file.display()));
            let got = match ext {
                "toml" => our_toml::read(&text).map(|n| n.to_json()),
                _ => our_yaml::read(&text).map(|n| n.to_json()),
            };
            let got =
                got.unwrap_or_else(|e| panic!("{}: line {}: {}", file.display(), e.line, e.reason));
            assert_eq!(got, want, "{}", file.display());
            assert_eq!(ours(&text), Some(want));
        }
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `text`: a byte deleted, a character from the formats'
/// own punctuation inserted, a line duplicated, dropped or re-indented.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const BITS: &[&str] = &[
        "\"", "'", "[", "]", "{", "}", ",", "=", ":", "-", " ", "  ", "\t", "\n", "#", ".", "\\",
        "- ", "&a ", "*a", "!!str ", "|", ">", "0x", "_", "1e", "'''", "\"\"\"", "~", "? ",
    ];
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let at = rng.below(lines.len());
    match rng.below(5) {
        0 => {
            let line = &mut lines[at];
            if !line.is_empty() {
                let cut = rng.below(line.len());
                if line.is_char_boundary(cut) && line.is_char_boundary(cut + 1) {
                    line.remove(cut);
                }
            }
        }
        1 => {
            let line = &mut lines[at];
            let mut pos = rng.below(line.len() + 1);
            while !line.is_char_boundary(pos) {
                pos -= 1;
            }
            line.insert_str(pos, BITS[rng.below(BITS.len())]);
        }
        2 => {
            let copy = lines[at].clone();
            lines.insert(at, copy);
        }
        3 => {
            lines.remove(at);
        }
        _ => {
            let line = &mut lines[at];
            if rng.below(2) == 0 {
                line.insert_str(0, "  ");
            } else if line.starts_with(' ') {
                line.remove(0);
            }
        }
    }
    lines.join("\n") + "\n"
}

fn fuzz(ext: &str, ours: fn(&str) -> Option<Value>, reference: fn(&str) -> Option<Value>) {
    let seed = std::env::var("MCP_GUARD_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut rng = Rng(seed.unwrap_or(0x9E37_79B9_7F4A_7C15));
    let mut accepted = 0;
    let files = corpus(ext);
    let rounds: usize = std::env::var("MCP_GUARD_FUZZ_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(4000);
    for round in 0..rounds {
        let base = std::fs::read_to_string(&files[round % files.len()]).expect("read");
        let mut text = base;
        for _ in 0..1 + rng.below(3) {
            text = mutate(&text, &mut rng);
        }
        if let Some(got) = ours(&text) {
            accepted += 1;
            let want = reference(&text);
            if want.as_ref() != Some(&got) {
                std::fs::write(format!("/tmp/fuzz-{ext}.txt"), &text).ok();
            }
            assert!(
                want.as_ref() == Some(&got),
                "the reader guessed on:\n{text}\nours: {got}\nreference: {want:?}"
            );
        }
    }
    assert!(
        accepted > 400,
        "the fuzz exercises reads, not only refusals ({accepted})"
    );
}

#[test]
fn the_toml_reader_never_guesses_on_mutated_files() {
    fuzz("toml", ours_toml, reference_toml);
}

#[test]
fn the_yaml_reader_never_guesses_on_mutated_files() {
    fuzz("yaml", ours_yaml, reference_yaml);
}
