//! The expected-failures baseline applied to a report's official records,
//! as the official suite applies it: a failure (FAILURE or WARNING) the
//! baseline names is expected; one it does not name is unexpected; an entry
//! whose checks now pass is stale. Unexpected failures and stale entries
//! fail the run (exit 1); expected ones do not. A whole-scenario entry
//! (`caching`) covers every check of the scenario, a per-check entry
//! (`caching:sep-2549-ttl-non-negative`) that check alone. A scenario or a
//! check the run skipped gives no signal either way; an entry naming what
//! the guard never checks (another scenario of the suite) is ignored, and
//! said so. Pure.

use crate::args::expected::ExpectedFailures;
use crate::verdict::check::Status;
use crate::verdict::official::Record;

/// What the baseline made of the records.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Expected {
    /// The baseline file, as given.
    pub file: String,
    pub expected: Vec<String>,
    pub unexpected: Vec<String>,
    pub stale: Vec<String>,
    /// Entries naming what the guard does not check.
    pub ignored: Vec<String>,
}

impl Expected {
    /// Whether the baseline holds: nothing unexpected, nothing stale.
    pub fn holds(&self) -> bool {
        self.unexpected.is_empty() && self.stale.is_empty()
    }
}

fn failed(r: &Record) -> bool {
    matches!(r.status, Status::Fail | Status::Warning)
}

/// The baseline applied to `records`.
pub fn evaluate(records: &[Record], baseline: &ExpectedFailures, file: &str) -> Expected {
    let mut out = Expected {
        file: file.to_string(),
        ..Expected::default()
    };
    let mut scenarios: Vec<&str> = Vec::new();
    for r in records {
        if !scenarios.contains(&r.scenario) {
            scenarios.push(r.scenario);
        }
    }
    for entry in &baseline.server {
        let known = scenarios.contains(&entry.scenario.as_str())
            && entry.check.as_ref().is_none_or(|c| {
                records
                    .iter()
                    .any(|r| &r.id == c && r.scenario == entry.scenario)
            });
        if !known {
            out.ignored.push(entry.text());
        }
    }
    for scenario in scenarios {
        let of: Vec<&Record> = records.iter().filter(|r| r.scenario == scenario).collect();
        let entries: Vec<_> = baseline
            .server
            .iter()
            .filter(|e| e.scenario == scenario)
            .collect();
        if entries.iter().any(|e| e.check.is_none()) {
            if of.iter().any(|r| failed(r)) {
                out.expected.push(scenario.to_string());
            } else if of.iter().any(|r| r.status == Status::Pass) {
                out.stale.push(scenario.to_string());
            }
            continue;
        }
        let named = |id: &str| entries.iter().any(|e| e.check.as_deref() == Some(id));
        for r in of.iter().filter(|r| failed(r)) {
            let text = format!("{scenario}:{}", r.id);
            if named(&r.id) {
                out.expected.push(text);
            } else {
                out.unexpected.push(text);
            }
        }
        for r in of
            .iter()
            .filter(|r| r.status == Status::Pass && named(&r.id))
        {
            out.stale.push(format!("{scenario}:{}", r.id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::expected::parse;

    fn record(scenario: &'static str, id: &str, status: Status) -> Record {
        Record {
            id: id.into(),
            name: id.into(),
            scenario,
            description: String::new(),
            status,
            spec: &[],
            issues: Vec::new(),
            skip_reason: None,
        }
    }

    fn records() -> Vec<Record> {
        vec![
            record("caching", "sep-2549-ttl-non-negative", Status::Fail),
            record("caching", "sep-2549-cache-scope-valid", Status::Pass),
            record(
                "server-stateless",
                "sep-2575-server-implements-discover",
                Status::Pass,
            ),
            record("tools-list", "tools-name-format", Status::Warning),
            record("tools-list", "tools-list", Status::Skipped),
        ]
    }

    #[test]
    fn named_failures_are_expected_and_the_rest_unexpected() {
        let b = parse("server:\n  - caching:sep-2549-ttl-non-negative\n").expect("b");
        let e = evaluate(&records(), &b, "b.yml");
        assert_eq!(e.expected, ["caching:sep-2549-ttl-non-negative"]);
        assert_eq!(e.unexpected, ["tools-list:tools-name-format"]);
        assert!(!e.holds());
        let b = parse("server:\n  - caching\n  - tools-list\n").expect("b");
        let e = evaluate(&records(), &b, "b.yml");
        assert_eq!(e.expected, ["caching", "tools-list"]);
        assert!(e.holds(), "{e:?}");
    }

    #[test]
    fn an_entry_that_now_passes_is_stale_and_a_skipped_one_gives_no_signal() {
        let b = parse(
            "server:\n  - caching:sep-2549-cache-scope-valid\n  - server-stateless\n  - tools-list:tools-list\n  - caching:sep-2549-ttl-non-negative\n  - tools-list:tools-name-format\n",
        )
        .expect("b");
        let e = evaluate(&records(), &b, "b.yml");
        assert_eq!(
            e.stale,
            ["caching:sep-2549-cache-scope-valid", "server-stateless"]
        );
        assert!(e.unexpected.is_empty());
    }

    #[test]
    fn an_entry_the_guard_never_checks_is_ignored_and_said_so() {
        let b = parse("server:\n  - tools-call-simple-text\n  - caching:sep-9999-nothing\n")
            .expect("b");
        let e = evaluate(&records(), &b, "b.yml");
        assert_eq!(
            e.ignored,
            ["tools-call-simple-text", "caching:sep-9999-nothing"]
        );
    }
}
