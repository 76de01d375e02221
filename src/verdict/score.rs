//! The score: 0 to 100, from the report's checks. Each check that applied
//! (not skipped: what a server does not offer, or what was not asked for,
//! is never counted against it) carries a weight; a check with an error
//! earns nothing, one with warnings loses a tenth of its weight per
//! warning, at most half; a passing check earns its weight. The score is
//! the share earned, rounded; a report with an error issue scores at most
//! 59 (a failing server never gets a passing grade), and a server that
//! never opened a session scores 0. The grade: A from 90, B from 80, C
//! from 70, D from 60, else F.
//! Pure.

use crate::checks::Issue;
use crate::verdict::check::{Check, Checks, Status};

/// Each check's weight, by its name in the `checks` object.
pub const WEIGHTS: &[(&str, u32)] = &[
    ("initialize", 20),
    ("stdout", 20),
    ("jsonRpc", 15),
    ("operation", 5),
    ("capabilities", 10),
    ("toolSchema", 10),
    ("definitions", 10),
    ("robustness", 10),
    ("confinement", 10),
    ("adversarial", 5),
    ("process", 5),
    ("pythonBuffering", 5),
    ("staticScan", 5),
    ("repeat", 5),
    ("against", 5),
];

/// The rule, as the report states it.
pub const RULE: &str = "weighted share of the applicable checks: a check with an error earns 0, each warning costs 10% of its check (at most 50%), skipped checks do not count; at most 59 with any error; 0 when the session never opened";

/// The most a report with an error issue scores.
pub const FAILING_MAX: u32 = 59;

/// One check's share.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub name: &'static str,
    pub weight: u32,
    pub earned: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    pub value: u32,
    pub grade: &'static str,
    pub parts: Vec<Part>,
}

impl Score {
    /// The score of `checks` (with the repeat check) over `issues`.
    pub fn of(checks: &Checks, repeat: &Check, issues: &[Issue]) -> Score {
        let mut named: Vec<(&'static str, Option<crate::checks::Group>, &Check)> = checks
            .named()
            .into_iter()
            .map(|(n, g, c)| (n, Some(g), c))
            .collect();
        named.push(("repeat", None, repeat));
        let mut parts = Vec::new();
        for (name, group, check) in named {
            let weight = WEIGHTS.iter().find(|(n, _)| *n == name).map_or(0, |w| w.1);
            if check.status == Status::Skipped || weight == 0 {
                continue;
            }
            let warnings = match group {
                Some(g) => issues
                    .iter()
                    .filter(|i| i.in_group(g) && !i.is_error())
                    .count(),
                None => check.codes.len(),
            };
            let earned = match check.status {
                Status::Fail => 0.0,
                Status::Warning => {
                    f64::from(weight) * (1.0 - (0.1 * warnings.max(1) as f64).min(0.5))
                }
                _ => f64::from(weight),
            };
            parts.push(Part {
                name,
                weight,
                earned,
            });
        }
        let total: u32 = parts.iter().map(|p| p.weight).sum();
        let earned: f64 = parts.iter().map(|p| p.earned).sum();
        let opened = checks.initialize.status != Status::Fail;
        let value = if opened && total > 0 {
            (100.0 * earned / f64::from(total)).round() as u32
        } else {
            0
        };
        let value = if issues.iter().any(Issue::is_error) {
            value.min(FAILING_MAX)
        } else {
            value
        };
        Score {
            value,
            grade: grade(value),
            parts,
        }
    }

    /// The badge colour of the grade (shields.io names).
    pub fn color(&self) -> &'static str {
        match self.grade {
            "A" => "brightgreen",
            "B" => "green",
            "C" => "yellow",
            "D" => "orange",
            _ => "red",
        }
    }
}

pub fn grade(value: u32) -> &'static str {
    match value {
        90.. => "A",
        80..=89 => "B",
        70..=79 => "C",
        60..=69 => "D",
        _ => "F",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Code;

    fn pass() -> Check {
        Check::of([].iter(), Status::Pass)
    }

    fn checks() -> Checks {
        let mut c = Checks::all_skipped("not offered");
        c.initialize = pass();
        c.stdout = pass();
        c.json_rpc = pass();
        c.tool_schema = pass();
        c
    }

    #[test]
    fn skipped_checks_do_not_count_and_warnings_cost_a_tenth_each() {
        let none = Check::skipped("--repeat was not used");
        let all = Score::of(&checks(), &none, &[]);
        assert_eq!((all.value, all.grade), (100, "A"));
        assert_eq!(all.parts.len(), 4);
        let warn = Issue::new(Code::ToolDescriptionMissing, "w");
        let mut c = checks();
        c.tool_schema = Check::of([warn.clone(), warn.clone()].iter(), Status::Pass);
        // 65 of 65, less 20% of toolSchema's 10: 63/65.
        let s = Score::of(&c, &none, &[warn.clone(), warn]);
        assert_eq!((s.value, s.grade), (97, "A"));
        let err = Issue::new(Code::StdoutNonJson, "e");
        c.stdout = Check::of(std::slice::from_ref(&err).iter(), Status::Pass);
        let s = Score::of(&c, &none, std::slice::from_ref(&err));
        // 43 of 65 is 66, but an error caps the score at 59.
        assert_eq!((s.value, s.grade, s.color()), (59, "F", "red"));
        c.stdout = pass();
        c.json_rpc = Check::of(std::slice::from_ref(&err).iter(), Status::Pass);
        let s = Score::of(&c, &none, std::slice::from_ref(&err));
        assert_eq!(s.value, 59);
        c.initialize.status = Status::Fail;
        assert_eq!(Score::of(&c, &none, &[]).value, 0);
    }
}
