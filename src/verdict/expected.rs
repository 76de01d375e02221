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

/// The baseline applied to `records`, in time linear in both.
pub fn evaluate(records: &[Record], baseline: &ExpectedFailures, file: &str) -> Expected {
    use std::collections::{HashMap, HashSet};
    let mut out = Expected {
        file: file.to_string(),
        ..Expected::default()
    };
    let mut scenarios: Vec<&str> = Vec::new();
    let mut checks: HashSet<(&str, &str)> = HashSet::new();
    for r in records {
        if !scenarios.contains(&r.scenario) {
            scenarios.push(r.scenario);
        }
        checks.insert((r.scenario, r.id.as_str()));
    }
    let known_scenarios: HashSet<&str> = scenarios.iter().copied().collect();
    // Per scenario: listed wholesale, and the checks listed.
    let mut wholesale: HashSet<&str> = HashSet::new();
    let mut named: HashMap<&str, HashSet<&str>> = HashMap::new();
    for entry in &baseline.server {
        let scenario = entry.scenario.as_str();
        let known = known_scenarios.contains(scenario)
            && entry
                .check
                .as_deref()
                .is_none_or(|c| checks.contains(&(scenario, c)));
        if !known {
            out.ignored.push(entry.text());
        }
        match &entry.check {
            None => {
                wholesale.insert(scenario);
            }
            Some(c) => {
                named.entry(scenario).or_default().insert(c.as_str());
            }
        }
    }
    let mut by_scenario: HashMap<&str, Vec<&Record>> = HashMap::new();
    for r in records {
        by_scenario.entry(r.scenario).or_default().push(r);
    }
    for scenario in scenarios {
        let of = &by_scenario[scenario];
        if wholesale.contains(scenario) {
            if of.iter().any(|r| failed(r)) {
                out.expected.push(scenario.to_string());
            } else if of.iter().any(|r| r.status == Status::Pass) {
                out.stale.push(scenario.to_string());
            }
            continue;
        }
        let listed = named.get(scenario);
        let is_named = |id: &str| listed.is_some_and(|l| l.contains(id));
        for r in of.iter().filter(|r| failed(r)) {
            let text = format!("{scenario}:{}", r.id);
            if is_named(&r.id) {
                out.expected.push(text);
            } else {
                out.unexpected.push(text);
            }
        }
        for r in of
            .iter()
            .filter(|r| r.status == Status::Pass && is_named(&r.id))
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

    /// Reads and applies a baseline of `n` entries: the time it took.
    fn applied(n: usize) -> std::time::Duration {
        let mut text = String::from("server:\n");
        for i in 0..n {
            text.push_str(&format!("  - scenario-{i}:check-{i}\n"));
        }
        text.push_str("  - caching:sep-2549-ttl-non-negative\n");
        let started = std::time::Instant::now();
        let b = parse(&text).expect("valid");
        let e = evaluate(&records(), &b, "b.yml");
        let took = started.elapsed();
        assert_eq!(e.expected, ["caching:sep-2549-ttl-non-negative"]);
        assert_eq!(e.ignored.len(), n);
        took
    }

    #[test]
    fn half_a_million_entries_are_read_and_applied_in_linear_time() {
        // Ten times the entries: ten times the work if linear, a hundred
        // if quadratic; the ratio, in the same run, says which (wide
        // margin: 40).
        let small = applied(50_000);
        let large = applied(500_000);
        let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
        assert!(ratio < 40.0, "{ratio:.1}x for ten times the entries");
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
