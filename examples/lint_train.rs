//! Trains the lint's sentence classifier (`src/checks/lint/model.rs`) and
//! writes `src/checks/lint/model.bin`. Deterministic: the same corpora give
//! the same bytes.
//!
//! Data (all in `testdata/lint/`, provenance in `benches/lint_corpus.rs`
//! and the scripts under `scripts/lint-corpus/`):
//! - instructions (label 1): every sentence of `poisoned/payloads.txt`,
//!   `poisoned/heldout.txt` and `poisoned/fresh.txt`, written for this
//!   project;
//! - descriptions (label 0): every prose sentence of the benign corpora
//!   (real servers' definitions, BFCL's published tool list, the tricky
//!   benign definitions).
//!
//! `poisoned/final.txt` is never trained on: it measures the lint on text
//! it has not seen. One benign sentence in five (by a hash of its text) is
//! held out to choose the thresholds: a warning where 1 in 2,000 held-out
//! benign sentences scores above, an error where 1 in 20,000 does. The run
//! prints the recall of the final set at each.
//!
//! Run: `cargo run --release --example lint_train` (`-- dev` to compare
//! a change on heldout.txt and fresh.txt, trained without them).

#[path = "../benches/lint_corpus.rs"]
#[allow(dead_code)]
mod lint_corpus;

use mcp_stdio_guard::checks::lint::Definitions;
use mcp_stdio_guard::checks::lint::model::{self, BUCKET_BITS};
use mcp_stdio_guard::checks::lint::{read, rules};

const BUCKETS: usize = 1 << BUCKET_BITS;
const EPOCHS: usize = 60;
const L2: f32 = 6e-5;
/// How far above every held-out benign sentence an error starts.
const ERROR_MARGIN: f32 = 0.5;

struct Example {
    features: Vec<u32>,
    label: f32,
}

fn sentences_of(text: &str, label: f32, out: &mut Vec<Example>) {
    for s in read::sentences(text) {
        let mut features = Vec::new();
        model::features(&s, &mut features);
        if !features.is_empty() {
            out.push(Example { features, label });
        }
    }
}

fn payload_lines(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(lint_corpus::root().join("poisoned").join(file))
        .unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.splitn(3, '|').nth(2))
        .map(|t| t.replace("\\n", "\n"))
        .collect()
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The benign corpora's prose strings, split into training and held out.
fn benign_texts() -> (Vec<String>, Vec<String>) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for case in lint_corpus::benign() {
        let value = case.definition.clone();
        let defs = Definitions {
            tools: vec![&value],
            complete: true,
            ..Definitions::default()
        };
        defs.each_text(&mut |t| {
            if t.prose {
                let text = t.text.to_string();
                if fnv(&text) % 5 == 0 {
                    held.push(text);
                } else {
                    train.push(text);
                }
            }
        });
    }
    (train, held)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn train(examples: &[Example]) -> (Vec<f32>, f32) {
    let mut w = vec![0f32; BUCKETS];
    let mut bias = -4.0f32;
    let positives = examples.iter().filter(|e| e.label > 0.5).count().max(1);
    let negatives = examples.len() - positives;
    let pos_weight = (negatives as f32 / positives as f32).min(50.0);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for epoch in 0..EPOCHS {
        // A fixed shuffle per epoch (xorshift): the same run, the same model.
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let lr = 0.5 / (1.0 + epoch as f32 * 0.3);
        for &i in &order {
            let e = &examples[i];
            let z = model::logit_with(&e.features, bias, |f| w[f as usize]);
            let g = sigmoid(z) - e.label;
            let g = if e.label > 0.5 { g * pos_weight } else { g };
            let norm = (e.features.len() as f32).sqrt();
            for &f in &e.features {
                let wf = &mut w[f as usize];
                *wf -= lr * (g / norm + L2 * *wf);
            }
            bias -= lr * g * 0.1;
        }
    }
    (w, bias)
}

/// The score above which `share` of `scores` stand.
fn quantile(scores: &mut [f32], share: f64) -> f32 {
    scores.sort_by(|a, b| b.total_cmp(a));
    let at = ((scores.len() as f64) * share).floor() as usize;
    scores[at.min(scores.len() - 1)]
}

fn main() {
    // `-- dev`: train without heldout.txt and fresh.txt and measure on them
    // (how a change to the data or the features is chosen, never on the
    // final or blind sets); model.bin is not written.
    let dev = std::env::args().any(|a| a == "dev");
    let trained: &[&str] = if dev {
        &["payloads.txt", "train.txt"]
    } else {
        &["payloads.txt", "heldout.txt", "fresh.txt", "train.txt"]
    };
    let measured: &[&str] = if dev {
        &["heldout.txt", "fresh.txt"]
    } else {
        &["final.txt", "blind.txt"]
    };
    let mut examples = Vec::new();
    for &file in trained {
        for line in payload_lines(file) {
            sentences_of(&line, 1.0, &mut examples);
        }
    }
    let positives = examples.len();
    let (train_texts, held_texts) = benign_texts();
    for text in &train_texts {
        sentences_of(text, 0.0, &mut examples);
    }
    let written =
        std::fs::read_to_string(lint_corpus::root().join("benign/train.txt")).unwrap_or_default();
    for line in written.lines().filter(|l| !l.starts_with('#')) {
        sentences_of(line, 0.0, &mut examples);
    }
    println!(
        "training on {positives} instruction sentences and {} description sentences",
        examples.len() - positives
    );
    let (w, bias) = train(&examples);
    let max = w.iter().fold(0f32, |m, x| m.max(x.abs())).max(1e-6);
    let scale = max / 127.0;
    let quantized: Vec<i8> = w.iter().map(|x| (x / scale).round() as i8).collect();
    let logit = |s: &read::Sentence| {
        let mut f = Vec::new();
        model::features(s, &mut f);
        model::logit_with(&f, bias, |b| f32::from(quantized[b as usize]) * scale)
    };
    let score = |text: &str| -> Vec<f32> { read::sentences(text).iter().map(logit).collect() };
    // The thresholds are chosen over the held-out sentences the lint lets
    // the classifier read.
    let mut held: Vec<f32> = held_texts
        .iter()
        .flat_map(|t| {
            rules::model_sentences(t)
                .iter()
                .map(logit)
                .collect::<Vec<_>>()
        })
        .collect();
    let warn = quantile(&mut held, 1.0 / 1000.0);
    let error = (quantile(&mut held, 0.0) + ERROR_MARGIN).max(warn);
    println!(
        "held-out benign sentences: {}; warning above {warn:.3}, error above {error:.3}",
        held.len()
    );
    let best = |t: &str| score(t).into_iter().fold(f32::MIN, f32::max);
    if std::env::var_os("LINT_TRAIN_DEBUG").is_some() {
        println!("top held-out benign: {:?}", &held[..20.min(held.len())]);
        let gated = |t: &str| {
            rules::model_sentences(t)
                .iter()
                .map(logit)
                .fold(f32::MIN, f32::max)
        };
        let mut texts: Vec<(f32, &String)> = held_texts.iter().map(|t| (gated(t), t)).collect();
        texts.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (score, text) in texts.iter().take(12) {
            println!(
                "  {score:.2} {:?}",
                text.chars().take(160).collect::<String>()
            );
        }
        for &set in measured {
            let mut b: Vec<f32> = payload_lines(set).iter().map(|t| best(t)).collect();
            b.sort_by(|x, y| y.total_cmp(x));
            println!(
                "{set} scores: {:?}",
                b.iter()
                    .map(|x| (x * 10.0).round() / 10.0)
                    .collect::<Vec<_>>()
            );
        }
    }
    for &set in measured {
        let lines = payload_lines(set);
        let over = |th: f32| lines.iter().filter(|t| best(t) > th).count();
        println!(
            "{set}: {}/{} above the warning, {}/{} above the error",
            over(warn),
            lines.len(),
            over(error),
            lines.len()
        );
    }
    if dev {
        return;
    }
    let mut bytes = Vec::with_capacity(16 + BUCKETS);
    for v in [bias, scale, warn, error] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend(quantized.iter().map(|q| *q as u8));
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks/lint/model.bin");
    std::fs::write(&out, &bytes).expect("write model.bin");
    println!("wrote {} ({} bytes)", out.display(), bytes.len());
}
