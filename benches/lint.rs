//! How well and how fast the lint reads definitions, in one run: recall
//! per family on the poisoned corpus (any finding, and as an error), the
//! rate of benign definitions flagged per set, then the time to lint
//! 10,000 tools and a 1 MiB description against a baseline measured in the
//! same run (copying the same JSON). The corpora are `lint_corpus.rs`'s.
//! Run with `cargo bench --bench lint` (`-- tables` or `-- time` for one
//! part).

#[path = "lint_corpus.rs"]
mod lint_corpus;

use std::time::{Duration, Instant};

use mcp_stdio_guard::checks::lint::{Definitions, lint};
use serde_json::Value;

fn print_tables() {
    let poisoned = lint_corpus::poisoned();
    let verdicts = lint_corpus::judge(&poisoned);
    let benign = lint_corpus::benign();
    let benign_verdicts = lint_corpus::judge(&benign);
    println!("Poisoned definitions, by family (precision: of the definitions, poisoned");
    println!("or benign, that carry the family's code, those poisoned in that family)");
    println!();
    println!(
        "| Family | Cases | Caught (any) | Recall | Caught as error | Recall as error | Precision |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut total = lint_corpus::Row::default();
    for (family, row) in lint_corpus::table(&poisoned, &verdicts, true) {
        let precision = lint_corpus::family_code(&family).map_or("-".to_string(), |code| {
            let carries = |v: &lint_corpus::Verdict| v.codes.iter().any(|c| c == code);
            let right = poisoned
                .iter()
                .zip(&verdicts)
                .filter(|(c, v)| carries(v) && c.family.as_deref() == Some(family.as_str()))
                .count();
            let all = verdicts
                .iter()
                .chain(&benign_verdicts)
                .filter(|v| carries(v))
                .count();
            format!("{:.1}%", right as f64 * 100.0 / all.max(1) as f64)
        });
        println!(
            "| {family} | {} | {} | {:.1}% | {} | {:.1}% | {precision} |",
            row.cases,
            row.flagged,
            row.rate(),
            row.errors,
            row.error_rate()
        );
        total.cases += row.cases;
        total.flagged += row.flagged;
        total.errors += row.errors;
        for w in &row.wrong {
            eprintln!("missed ({family}): {w}");
        }
    }
    println!(
        "| all | {} | {} | {:.1}% | {} | {:.1}% | |",
        total.cases,
        total.flagged,
        total.rate(),
        total.errors,
        total.error_rate()
    );
    let sets = lint_corpus::poisoned_sets();
    for set in [
        "payloads.txt",
        "heldout.txt",
        "fresh.txt",
        "final.txt",
        "blind.txt",
        "r5.txt",
        "r6.txt",
        "r7.txt",
        "r8.txt",
        "r9.txt",
        "r10.txt",
        "r11.txt",
        "r12.txt",
        "r13.txt",
        "r14.txt",
        "r15.txt",
        "r16.txt",
        "r17.txt",
    ] {
        let (mut n, mut any, mut err, mut named) = (0, 0, 0, 0);
        for ((s, v), c) in sets.iter().zip(&verdicts).zip(&poisoned) {
            if s == set {
                n += 1;
                any += usize::from(v.flagged);
                err += usize::from(v.error);
                named += usize::from(v.names(c));
            }
        }
        println!(
            "{set}: {any}/{n} caught ({:.1}%), {err}/{n} as errors ({:.1}%), {named} under their own family",
            any as f64 * 100.0 / n.max(1) as f64,
            err as f64 * 100.0 / n.max(1) as f64
        );
    }
    let caught: Vec<(&lint_corpus::Case, &lint_corpus::Verdict)> = poisoned
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.flagged)
        .collect();
    let named = caught.iter().filter(|(c, v)| v.names(c)).count();
    println!(
        "Of the {} caught, {named} ({:.1}%) carry their own family's code",
        caught.len(),
        named as f64 * 100.0 / caught.len().max(1) as f64
    );
    let languages = lint_corpus::poisoned_languages();
    let mut by_language: std::collections::BTreeMap<&str, (usize, usize, usize)> =
        Default::default();
    for (lang, v) in languages.iter().zip(&verdicts) {
        let e = by_language.entry(lang).or_default();
        e.0 += 1;
        e.1 += usize::from(v.flagged);
        e.2 += usize::from(v.error);
    }
    println!();
    println!("Poisoned definitions by language (the disguised English ones under en)");
    println!();
    println!("| Language | Cases | Caught | Rate | As error | Rate |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (l, (n, c, e)) in &by_language {
        let pct = |k: &usize| *k as f64 * 100.0 / (*n).max(1) as f64;
        println!(
            "| {l} | {n} | {c} | {:.1}% | {e} | {:.1}% |",
            pct(c),
            pct(e)
        );
    }
    println!();
    let verdicts = benign_verdicts;
    println!("Benign definitions flagged, by set");
    println!();
    println!("| Set | Definitions | Flagged (any) | Rate | Flagged as error | Rate |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (set, row) in lint_corpus::table(&benign, &verdicts, false) {
        println!(
            "| {set} | {} | {} | {:.2}% | {} | {:.2}% |",
            row.cases,
            row.flagged,
            row.rate(),
            row.errors,
            row.error_rate()
        );
        for w in &row.wrong {
            eprintln!("flagged ({set}): {w}");
        }
    }
    println!();
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// The lint of `tools` against a baseline that copies them (the work any
/// reader of the definitions does), medians of `rounds`.
fn time(label: &str, tools: &[Value], rounds: usize) {
    let mut lint_runs = Vec::new();
    let mut copy_runs = Vec::new();
    for _ in 0..rounds {
        let started = Instant::now();
        let copy: Vec<Value> = tools.to_vec();
        std::hint::black_box(&copy);
        copy_runs.push(started.elapsed());
        let defs = Definitions {
            tools: tools.iter().collect(),
            complete: true,
            ..Definitions::default()
        };
        let started = Instant::now();
        let mut issues = Vec::new();
        lint(&defs, &mut issues);
        std::hint::black_box(&issues);
        lint_runs.push(started.elapsed());
    }
    let (l, c) = (median(lint_runs), median(copy_runs));
    println!(
        "{label}: lint {:.1} ms, copying the same JSON {:.1} ms (ratio {:.0})",
        l.as_secs_f64() * 1e3,
        c.as_secs_f64() * 1e3,
        l.as_secs_f64() / c.as_secs_f64().max(1e-9)
    );
}

/// `lint FILE` by the release binary, one process: 1,000 definitions of
/// the corpora (poisoned and benign), as JSON Lines of 100 servers with
/// 10 tools each, against `cat` of the same file (a process that reads
/// it), medians of 11 runs.
fn command() {
    let bin =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/mcp-stdio-guard");
    if !bin.exists() {
        println!("lint command: build the release binary first (cargo build --release)");
        return;
    }
    let cases: Vec<Value> = lint_corpus::poisoned()
        .into_iter()
        .chain(lint_corpus::benign())
        .filter(|c| c.kind == "tool")
        .map(|c| c.definition)
        .collect();
    let mut text = String::new();
    for server in 0..100 {
        let tools: Vec<Value> = (0..10)
            .map(|i| {
                let mut t = cases[(server * 10 + i) % cases.len()].clone();
                t["name"] = Value::from(format!("tool_{i}"));
                t
            })
            .collect();
        text.push_str(&serde_json::json!({"tools": tools}).to_string());
        text.push('\n');
    }
    let file = std::env::temp_dir().join(format!("lint-bench-{}.jsonl", std::process::id()));
    std::fs::write(&file, &text).expect("write the bench input");
    let run = |program: &std::path::Path, args: &[&std::ffi::OsStr]| {
        let started = Instant::now();
        let out = std::process::Command::new(program)
            .args(args)
            .output()
            .expect("run");
        std::hint::black_box(&out.stdout);
        started.elapsed()
    };
    let mut lint_runs = Vec::new();
    let mut cat_runs = Vec::new();
    for _ in 0..11 {
        lint_runs.push(run(
            &bin,
            &["lint".as_ref(), "--json".as_ref(), file.as_os_str()],
        ));
        cat_runs.push(run(std::path::Path::new("cat"), &[file.as_os_str()]));
    }
    let (l, c) = (median(lint_runs), median(cat_runs));
    println!(
        "lint command, 1,000 definitions in 100 servers ({:.1} MB JSONL): {:.1} ms, cat {:.1} ms (ratio {:.0})",
        text.len() as f64 / 1e6,
        l.as_secs_f64() * 1e3,
        c.as_secs_f64() * 1e3,
        l.as_secs_f64() / c.as_secs_f64().max(1e-9)
    );
    let _ = std::fs::remove_file(&file);
}

/// Every string of `v` but names and types, rewritten by `f`.
fn rewrite(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::String(s) => Value::String(f(s)),
        Value::Array(items) => Value::Array(items.iter().map(|i| rewrite(i, f)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let keep = matches!(k.as_str(), "name" | "type" | "uri");
                    (k.clone(), if keep { x.clone() } else { rewrite(x, f) })
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One way of rewriting a definition.
type Rewrite = Box<dyn Fn(&Value) -> Value>;

/// Words and the synonyms a rewrite puts in their place (a table written
/// for this measurement, not from the rules' word lists).
const SYNONYMS: &[(&str, &str)] = &[
    ("ignore", "overlook"),
    ("previous", "foregoing"),
    ("instructions", "guidance"),
    ("send", "dispatch"),
    ("forward", "relay"),
    ("user", "operator"),
    ("tell", "inform"),
    ("always", "invariably"),
    ("never", "at no point"),
    ("read", "peruse"),
    ("file", "document"),
    ("password", "passphrase"),
    ("secret", "confidential item"),
    ("key", "credential string"),
    ("hide", "withhold"),
    ("delete", "erase"),
    ("confirm", "verify"),
    ("asking", "checking with"),
    ("use", "employ"),
    ("other", "alternative"),
    ("tool", "utility"),
    ("tools", "utilities"),
    ("system", "platform"),
    ("conversation", "dialogue"),
    ("include", "incorporate"),
    ("contents", "body"),
    ("run", "execute"),
    ("command", "directive"),
    ("before", "prior to"),
    ("mention", "bring up"),
];

/// A second table, written on 2026-12-06 before the lint's synonym
/// reading (`lexicon::SYNONYMS`) was made: other words, other choices,
/// several of them phrases. Its losses were read for the second round of
/// that reading, so it is a development table now.
const SYNONYMS_2: &[(&str, &str)] = &[
    ("ignore", "look past"),
    ("previous", "past"),
    ("instructions", "directives"),
    ("send", "ship"),
    ("forward", "pass on"),
    ("user", "human"),
    ("tell", "notify"),
    ("always", "in every case"),
    ("never", "under no circumstances"),
    ("read", "open"),
    ("file", "record"),
    ("password", "login code"),
    ("secret", "private value"),
    ("hide", "conceal"),
    ("delete", "wipe"),
    ("confirm", "double-check"),
    ("asking", "consulting"),
    ("use", "utilize"),
    ("other", "different"),
    ("tool", "function"),
    ("tools", "functions"),
    ("system", "host"),
    ("conversation", "exchange"),
    ("include", "attach"),
    ("contents", "content"),
    ("run", "launch"),
    ("command", "order"),
    ("before", "ahead of"),
    ("mention", "reference"),
    ("upload", "push"),
    ("credentials", "login details"),
    ("approval", "sign-off"),
    ("immediately", "right away"),
    ("must", "has to"),
];

/// A third table, written on 2026-12-06 after the first synonym reading
/// and before the second (which read the second table's losses), and
/// never tuned on.
const SYNONYMS_3: &[(&str, &str)] = &[
    ("ignore", "discount"),
    ("previous", "older"),
    ("instructions", "guidance notes"),
    ("send", "ferry"),
    ("forward", "redirect"),
    ("user", "client"),
    ("tell", "advise"),
    ("always", "every time"),
    ("never", "not once"),
    ("read", "inspect"),
    ("password", "PIN"),
    ("secret", "sensitive value"),
    ("hide", "keep back"),
    ("delete", "remove"),
    ("confirm", "approve"),
    ("asking", "querying"),
    ("use", "apply"),
    ("other", "external"),
    ("tool", "action"),
    ("tools", "actions"),
    ("conversation", "thread"),
    ("include", "append"),
    ("contents", "data"),
    ("run", "invoke"),
    ("command", "instruction"),
    ("before", "earlier than"),
    ("mention", "cite"),
    ("credentials", "keys"),
    ("approval", "okay"),
    ("immediately", "promptly"),
    ("must", "is to"),
    ("assistant", "agent"),
];

/// A fourth table, written on 2026-12-06 before the thesaurus pass over
/// the rules' words; its losses were never read, but the pass names 7 of
/// its 32 pairs (`docs/lint.md`).
const SYNONYMS_4: &[(&str, &str)] = &[
    ("ignore", "tune out"),
    ("previous", "earlier"),
    ("instructions", "marching orders"),
    ("send", "transmit"),
    ("forward", "hand on"),
    ("user", "person"),
    ("tell", "let know"),
    ("always", "constantly"),
    ("never", "never ever"),
    ("read", "go through"),
    ("file", "dossier"),
    ("password", "secret phrase"),
    ("secret", "hidden value"),
    ("hide", "mask"),
    ("delete", "purge"),
    ("confirm", "validate"),
    ("asking", "prompting"),
    ("use", "rely on"),
    ("other", "rival"),
    ("tool", "helper"),
    ("tools", "helpers"),
    ("system", "core"),
    ("conversation", "chat"),
    ("include", "bundle"),
    ("contents", "insides"),
    ("run", "fire off"),
    ("command", "call"),
    ("before", "preceding"),
    ("mention", "speak of"),
    ("immediately", "instantly"),
    ("must", "shall"),
    ("assistant", "copilot"),
];

/// A fifth table, written on 2026-12-07 (morning) for development, without
/// reading the third or fourth: the synonyms a general pass over the rule
/// words is chosen on.
const SYNONYMS_5: &[(&str, &str)] = &[
    ("ignore", "neglect"),
    ("previous", "former"),
    ("instructions", "guidance"),
    ("send", "deliver"),
    ("sends", "delivers"),
    ("forward", "route"),
    ("user", "end-user"),
    ("users", "end-users"),
    ("tell", "alert"),
    ("always", "consistently"),
    ("never", "not ever"),
    ("read", "load"),
    ("password", "passcode"),
    ("secret", "confidential"),
    ("hide", "mask"),
    ("delete", "erase"),
    ("confirm", "verify"),
    ("ask", "check with"),
    ("use", "opt for"),
    ("other", "alternative"),
    ("tool", "plugin"),
    ("tools", "plugins"),
    ("conversation", "thread"),
    ("include", "embed"),
    ("contents", "body"),
    ("run", "execute"),
    ("before", "prior to"),
    ("mention", "bring up"),
    ("upload", "transfer"),
    ("approval", "okay"),
    ("immediately", "promptly"),
    ("must", "is required to"),
];

/// Every word of `SYNONYMS` replaced by its synonym (case kept for the
/// first letter).
fn synonyms(text: &str) -> String {
    replace_words(text, SYNONYMS)
}

/// Every word of `table` replaced by its synonym (case kept for the first
/// letter).
fn replace_words(text: &str, table: &[(&str, &str)]) -> String {
    text.split(' ')
        .map(|w| {
            let core = w.trim_end_matches(|c: char| !c.is_alphanumeric());
            let tail = &w[core.len()..];
            let lower = core.to_lowercase();
            match table.iter().find(|(a, _)| *a == lower) {
                Some((_, b)) if core.starts_with(char::is_uppercase) => {
                    let mut c = b.chars();
                    let first = c.next().map(|f| f.to_uppercase().collect::<String>());
                    format!("{}{}{tail}", first.unwrap_or_default(), c.as_str())
                }
                Some((_, b)) => format!("{b}{tail}"),
                None => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the lint still catches of the poisoned definitions it catches
/// unmodified, once rewritten: a letter swap in every long word, synonyms,
/// both, the description in a code fence. `LINT_SHOW_LOST=1` prints each
/// rewritten definition of a development set no longer caught as an
/// error.
fn rewrites() {
    let (cases, sets): (Vec<lint_corpus::Case>, Vec<String>) = lint_corpus::poisoned()
        .into_iter()
        .zip(lint_corpus::poisoned_sets())
        .filter(|(c, _)| c.group != "hidden-channel")
        .unzip();
    // `LINT_SHOW_LOST` shows only the development sets' definitions: the
    // measuring sets' sentences are not read.
    let developed = |set: &str| matches!(set, "payloads.txt" | "heldout.txt" | "fresh.txt");
    let plain = lint_corpus::judge(&cases);
    let fence = |d: &Value| {
        let mut d = d.clone();
        if let Some(text) = d.get("description").and_then(Value::as_str) {
            d["description"] = Value::from(format!("Usage:\n```\n{text}\n```"));
        }
        d
    };
    let ways: [(&str, Rewrite); 8] = [
        (
            "a letter swap in every long word",
            Box::new(|d| rewrite(d, &lint_corpus::letter_swaps)),
        ),
        (
            "synonyms (30 common words)",
            Box::new(|d| rewrite(d, &synonyms)),
        ),
        (
            "synonyms and letter swaps",
            Box::new(|d| rewrite(&rewrite(d, &synonyms), &lint_corpus::letter_swaps)),
        ),
        ("the description in a code fence", Box::new(fence)),
        (
            "synonyms, a second table (34 words, development)",
            Box::new(|d| rewrite(d, &|t| replace_words(t, SYNONYMS_2))),
        ),
        (
            "synonyms, a third table (32 words, held out)",
            Box::new(|d| rewrite(d, &|t| replace_words(t, SYNONYMS_3))),
        ),
        (
            "synonyms, a fourth table (32 words, written before the pass)",
            Box::new(|d| rewrite(d, &|t| replace_words(t, SYNONYMS_4))),
        ),
        (
            "synonyms, a fifth table (32 words, development)",
            Box::new(|d| rewrite(d, &|t| replace_words(t, SYNONYMS_5))),
        ),
    ];
    let caught = plain.iter().filter(|v| v.flagged).count();
    let errors = plain.iter().filter(|v| v.error).count();
    println!(
        "Rewrites of the {} poisoned definitions (disguised ones aside): unmodified {caught} caught, {errors} as errors",
        cases.len()
    );
    for (how, f) in ways {
        let rewritten: Vec<lint_corpus::Case> = cases
            .iter()
            .map(|c| lint_corpus::Case {
                definition: f(&c.definition),
                ..c.clone()
            })
            .collect();
        let verdicts = lint_corpus::judge(&rewritten);
        let still = plain
            .iter()
            .zip(&verdicts)
            .filter(|(p, v)| p.flagged && v.flagged)
            .count();
        if std::env::var_os("LINT_SHOW_LOST").is_some() {
            for (((p, v), c), set) in plain.iter().zip(&verdicts).zip(&rewritten).zip(&sets) {
                if p.error && !v.error && developed(set) {
                    println!(
                        "LOST[{how}] {}",
                        c.definition
                            .get("description")
                            .map(|d| d.to_string())
                            .unwrap_or_default()
                            .chars()
                            .take(300)
                            .collect::<String>()
                    );
                }
            }
        }
        let still_err = plain
            .iter()
            .zip(&verdicts)
            .filter(|(p, v)| p.error && v.error)
            .count();
        println!(
            "  {how}: {still} of {caught} still caught ({:.1}% lost), {still_err} of {errors} as errors ({:.1}% lost)",
            100.0 - still as f64 * 100.0 / caught.max(1) as f64,
            100.0 - still_err as f64 * 100.0 / errors.max(1) as f64
        );
    }
}

fn main() {
    // `cargo bench --bench lint -- tables` prints only the tables, `-- time`
    // only the times, `-- command` only the lint command's time,
    // `-- rewrites` only what rewritten definitions lose.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    if wants("tables") {
        print_tables();
    }
    if wants("command") {
        command();
    }
    if wants("rewrites") {
        rewrites();
    }
    if !wants("time") && !wants("big") {
        return;
    }
    let prose =
        "Returns the weather for a city, with the temperature in Celsius and the wind speed. ";
    let description: String = prose.repeat((1 << 20) / prose.len() + 1)[..1 << 20].to_string();
    let big = vec![
        serde_json::json!({"name": "big", "description": description,
        "inputSchema": {"type": "object"}}),
    ];
    if only.iter().any(|o| o == "big") {
        time("one 1 MiB description", &big, 15);
        return;
    }
    let benign = lint_corpus::benign();
    let real: Vec<Value> = benign
        .iter()
        .filter(|c| c.kind == "tool")
        .map(|c| c.definition.clone())
        .collect();
    let mut tools = Vec::with_capacity(10_000);
    for i in 0..10_000 {
        let mut t = real[i % real.len()].clone();
        t["name"] = Value::from(format!("tool_{i}"));
        tools.push(t);
    }
    let bytes: usize = tools.iter().map(|t| t.to_string().len()).sum();
    time(
        &format!(
            "10,000 real tool definitions ({:.1} MB)",
            bytes as f64 / 1e6
        ),
        &tools,
        5,
    );
    time("one 1 MiB description", &big, 5);
}
