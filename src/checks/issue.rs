//! What a finding is: its code, severity, class, message and details.

use serde_json::Value;

use super::code::{Class, Code, Group, Severity};

/// One finding. `details` are the additive fields of the JSON issue
/// (`detailCode`, `phase`, `line`, ...), in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub code: Code,
    pub severity: Severity,
    pub class: Class,
    pub message: String,
    pub details: Vec<(&'static str, Value)>,
}

impl Issue {
    /// An issue with its code's default class and severity.
    pub fn new(code: Code, message: impl Into<String>) -> Issue {
        let info = code.info();
        Issue {
            code,
            severity: info.severity,
            class: info.class,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// The same issue at another severity, for rules whose force depends
    /// on the protocol version (MUST in one, SHOULD in another).
    pub fn at(mut self, severity: Severity) -> Issue {
        self.severity = severity;
        self
    }

    pub fn with(mut self, key: &'static str, value: impl Into<Value>) -> Issue {
        self.details.push((key, value.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn in_group(&self, group: Group) -> bool {
        self.code.info().groups.contains(&group)
    }

    /// A detail's value.
    pub fn detail(&self, key: &str) -> Option<&Value> {
        self.details.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// How many issues of its code this one stands for besides itself
    /// (`fold`).
    pub fn folded(&self) -> usize {
        self.detail("folded")
            .and_then(Value::as_u64)
            .map_or(0, |n| n as usize)
    }
}

/// Issues of one code a report lists, at most; the last one listed says
/// how many more there were (`folded`), and the counts include them.
pub const PER_CODE: usize = 50;

/// The issues with each code's past the first `PER_CODE` folded into its
/// last listed one: a server that breaks one rule 100,000 times gets a
/// bounded report that still counts every time.
pub fn fold(issues: Vec<Issue>) -> Vec<Issue> {
    let mut seen: std::collections::HashMap<Code, (usize, usize)> =
        std::collections::HashMap::new();
    let mut out: Vec<Issue> = Vec::with_capacity(issues.len().min(1024));
    for issue in issues {
        let more = issue.folded();
        let entry = seen.entry(issue.code).or_insert((0, 0));
        if entry.0 < PER_CODE {
            entry.0 += 1;
            entry.1 = out.len();
            out.push(issue);
            continue;
        }
        let last = &mut out[entry.1];
        let folded = last.folded() + 1 + more;
        last.details.retain(|(k, _)| *k != "folded");
        last.details.push(("folded", Value::from(folded)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_past_the_bound_of_their_code_are_folded_and_counted() {
        let mut issues: Vec<Issue> = (0..PER_CODE + 30)
            .map(|i| Issue::new(Code::StdoutNonJson, format!("line {i}")))
            .collect();
        issues.push(Issue::new(Code::StdoutEmptyLine, "blank"));
        let folded = fold(issues);
        assert_eq!(folded.len(), PER_CODE + 1);
        assert_eq!(folded[PER_CODE - 1].folded(), 30);
        assert_eq!(folded[PER_CODE].code, Code::StdoutEmptyLine);
        let total: usize = folded.iter().map(|i| 1 + i.folded()).sum();
        assert_eq!(total, PER_CODE + 31);
        // Folding again changes nothing.
        assert_eq!(fold(folded.clone()), folded);
    }
}
