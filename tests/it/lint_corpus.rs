//! The lint's goals on its corpora (`benches/lint_corpus.rs`, the same code
//! `cargo bench --bench lint` prints tables from): recall of 95% or more in
//! every family of the poisoned corpus, as errors (the final and blind sets
//! aside: they measure); at most 1% of each ordinary benign set flagged and
//! 5% of each tricky one (1% as errors); no error on a real server's
//! definitions.

#[path = "../../benches/lint_corpus.rs"]
mod corpus;

#[test]
fn every_family_of_the_poisoned_corpus_is_found_as_an_error() {
    let cases = corpus::poisoned();
    assert!(cases.len() >= 500, "{} poisoned definitions", cases.len());
    let verdicts = corpus::judge(&cases);
    let sets = corpus::poisoned_sets();
    // The final, blind, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16 and r17 sets are kept for measuring
    // (never trained or tuned on; their numbers are in docs/lint.md); the goals hold on the rest.
    let kept: Vec<(corpus::Case, corpus::Verdict)> = cases
        .into_iter()
        .zip(verdicts)
        .zip(&sets)
        .filter(|(_, set)| {
            !matches!(
                set.as_str(),
                "final.txt"
                    | "blind.txt"
                    | "r5.txt"
                    | "r6.txt"
                    | "r7.txt"
                    | "r8.txt"
                    | "r9.txt"
                    | "r10.txt"
                    | "r11.txt"
                    | "r12.txt"
                    | "r13.txt"
                    | "r14.txt"
                    | "r15.txt"
                    | "r16.txt"
                    | "r17.txt"
            )
        })
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
    let tricky = |group: &str| group.starts_with("tricky");
    let real = cases.iter().filter(|c| !tricky(&c.group)).count();
    assert!(real >= 5000, "{real} real definitions");
    let verdicts = corpus::judge(&cases);
    for (set, row) in corpus::table(&cases, &verdicts, false) {
        // `tricky-r7.txt` to `tricky-r17.txt` are measuring
        // sets, each written before its session's changes (docs/lint.md); they are
        // kept out of the goal rather than tuned on, as the never-trained
        // poisoned sets are kept out of the recall goals.
        if matches!(
            set.as_str(),
            "tricky-r7"
                | "tricky-r8"
                | "tricky-r9"
                | "tricky-r10"
                | "tricky-r11"
                | "tricky-r12"
                | "tricky-r13"
                | "tricky-r14"
                | "tricky-r15"
                | "tricky-r16"
                | "tricky-r17"
        ) {
            continue;
        }
        // The goals: 1 % of ordinary published definitions, 5 % of
        // tricky ones (1 % as errors).
        let (any, errors) = if tricky(&set) { (5.0, 1.0) } else { (1.0, 0.0) };
        assert!(
            row.rate() <= any && (errors == 0.0 || row.error_rate() <= errors),
            "{set}: {}/{} flagged, {} as errors: {:#?}",
            row.flagged,
            row.cases,
            row.errors,
            row.wrong
        );
    }
    for (case, verdict) in cases.iter().zip(&verdicts) {
        let name = case.definition["name"].as_str().unwrap_or_default();
        assert!(
            tricky(&case.group) || !verdict.error,
            "an error on a real server's definition {name}: {:?}",
            verdict.why
        );
    }
}
