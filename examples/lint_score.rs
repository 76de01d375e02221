//! A development aid for the lint: reads text lines from stdin and prints,
//! for each sentence, whether the classifier reads it and its score against
//! the warning and error thresholds. Reads nothing else and writes only to
//! stdout. `cargo run --release --example lint_score < sentences.txt`
use std::io::BufRead;

use mcp_stdio_guard::checks::lint::{model, read, rules};

fn main() {
    let header = model::header();
    println!(
        "thresholds: warn {:.2}, error {:.2}",
        header.warn, header.error
    );
    let mut scratch = Vec::new();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let text = line.replace("\\n", "\n");
        let read_by_model = rules::model_sentences(&text);
        for s in read::sentences(&text) {
            let logit = model::logit(&s, &mut scratch);
            let reads = read_by_model.iter().any(|m| m.span == s.span);
            let said = &text[s.span.0..s.span.1];
            println!("{} {logit:6.2} {said}", if reads { "read" } else { "skip" });
        }
    }
}
