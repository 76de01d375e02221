//! The lint's goals on its corpora (`benches/lint_corpus.rs`, the same code
//! `cargo bench --bench lint` prints tables from): recall of 95% or more in
//! every family of the poisoned corpus, as errors; at most 1% of each
//! benign set flagged; no error on a real server's definitions but the
//! findings triaged as true.

#[path = "../../benches/lint_corpus.rs"]
mod corpus;

/// Real servers' definitions the lint flags, each read and found true: the
/// tool and why.
const TRIAGED: &[(&str, &str)] = &[(
    "render_map_tool",
    "@mapbox/mcp-server tells the model, while its server is active, never to use built-in or fallback map display tools (names another server's places_map_display_v0): tool shadowing",
)];

#[test]
fn every_family_of_the_poisoned_corpus_is_found_as_an_error() {
    let cases = corpus::poisoned();
    assert!(cases.len() >= 500, "{} poisoned definitions", cases.len());
    let verdicts = corpus::judge(&cases);
    let sets = corpus::poisoned_sets();
    // The final and blind sets are kept for measuring (never trained or
    // tuned on; their numbers are in the README); the goals hold on the rest.
    let kept: Vec<(corpus::Case, corpus::Verdict)> = cases
        .into_iter()
        .zip(verdicts)
        .zip(&sets)
        .filter(|(_, set)| !matches!(set.as_str(), "final.txt" | "blind.txt"))
        .map(|(cv, _)| cv)
        .collect();
    let (cases, verdicts): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
    for (family, row) in corpus::table(&cases, &verdicts, true) {
        assert!(row.cases >= 8, "{family}: {} cases", row.cases);
        assert!(
            row.error_rate() >= 95.0,
            "{family}: {}/{} as errors; missed: {:#?}",
            row.errors,
            row.cases,
            row.wrong
        );
    }
}

#[test]
fn benign_definitions_are_left_alone() {
    let cases = corpus::benign();
    let real = cases.iter().filter(|c| c.group != "tricky").count();
    assert!(real >= 5000, "{real} real definitions");
    let verdicts = corpus::judge(&cases);
    for (set, row) in corpus::table(&cases, &verdicts, false) {
        assert!(
            row.rate() <= 1.0,
            "{set}: {}/{} flagged: {:#?}",
            row.flagged,
            row.cases,
            row.wrong
        );
    }
    for (case, verdict) in cases.iter().zip(&verdicts) {
        let name = case.definition["name"].as_str().unwrap_or_default();
        if case.group != "tricky" && verdict.error {
            assert!(
                TRIAGED.iter().any(|(tool, _)| *tool == name),
                "an error on a real server's definition: {:?}",
                verdict.why
            );
        }
    }
}
