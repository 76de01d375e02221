//! The badge-friendly checks of a report: each check's status over the
//! issues it gathers (`fail` with an error, `warning` with only warnings),
//! the JSON `checks` object's roll-up, the per-class `issueClasses`, and
//! the `summary` (status, class, primary issue, counts, badge). Pure.

use crate::checks::{Class, Code, Group, Issue, Severity};

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Warning,
    Skipped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Warning => "warning",
            Status::Skipped => "skipped",
        }
    }

    /// The official conformance suite's spelling.
    pub fn official(self) -> &'static str {
        match self {
            Status::Pass => "SUCCESS",
            Status::Fail => "FAILURE",
            Status::Warning => "WARNING",
            Status::Skipped => "SKIPPED",
        }
    }
}

/// A check: its status, the codes behind it, and why it was skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub status: Status,
    /// Sorted by spelling, unique.
    pub codes: Vec<Code>,
    pub reason: Option<&'static str>,
}

impl Check {
    pub fn skipped(reason: &'static str) -> Check {
        Check {
            status: Status::Skipped,
            codes: Vec::new(),
            reason: Some(reason),
        }
    }

    /// `fail` with any error, `warning` with only warnings, else `otherwise`.
    pub fn of<'i>(issues: impl IntoIterator<Item = &'i Issue>, otherwise: Status) -> Check {
        let mut codes = Vec::new();
        let mut worst = None;
        for issue in issues {
            codes.push(issue.code);
            worst = worst.max(Some(issue.severity));
        }
        crate::order::sort_by_key(&mut codes, |c| c.as_str());
        codes.dedup();
        let status = match worst {
            Some(Severity::Error) => Status::Fail,
            Some(Severity::Warning) => Status::Warning,
            None => otherwise,
        };
        Check {
            status,
            codes,
            reason: None,
        }
    }
}

/// The `checks` object of a report, computed over its issues.
#[derive(Debug, Clone)]
pub struct Checks {
    pub initialize: Check,
    pub stdout: Check,
    pub json_rpc: Check,
    pub operation: Check,
    pub capabilities: Check,
    pub tool_schema: Check,
    pub adversarial: Check,
    pub process: Check,
    pub python_buffering: Check,
    pub static_scan: Check,
    pub against: Check,
    /// The lint of what the server tells the model.
    pub definitions: Check,
    /// `--robustness`: every tool with bad (and safe valid) input.
    pub robustness: Check,
    /// `--confine`: what the server touched.
    pub confinement: Check,
}

impl Checks {
    /// Every check with its name (as in the JSON `checks` object) and the
    /// issue group it gathers, in report order.
    pub fn named(&self) -> [(&'static str, Group, &Check); 14] {
        [
            ("initialize", Group::Initialize, &self.initialize),
            ("stdout", Group::Stdout, &self.stdout),
            ("jsonRpc", Group::JsonRpc, &self.json_rpc),
            ("operation", Group::Operation, &self.operation),
            ("capabilities", Group::Capabilities, &self.capabilities),
            ("toolSchema", Group::ToolSchema, &self.tool_schema),
            ("adversarial", Group::Adversarial, &self.adversarial),
            ("process", Group::Process, &self.process),
            (
                "pythonBuffering",
                Group::PythonBuffering,
                &self.python_buffering,
            ),
            ("staticScan", Group::StaticScan, &self.static_scan),
            ("against", Group::Against, &self.against),
            ("definitions", Group::Definitions, &self.definitions),
            ("robustness", Group::Robustness, &self.robustness),
            ("confinement", Group::Confinement, &self.confinement),
        ]
    }

    /// Every check skipped for the same reason (a run that was not judged).
    pub fn all_skipped(reason: &'static str) -> Checks {
        let s = || Check::skipped(reason);
        Checks {
            initialize: s(),
            stdout: s(),
            json_rpc: s(),
            operation: s(),
            capabilities: s(),
            tool_schema: s(),
            adversarial: s(),
            process: s(),
            python_buffering: s(),
            static_scan: s(),
            against: s(),
            definitions: s(),
            robustness: s(),
            confinement: s(),
        }
    }
}

/// The issues of one group.
pub fn in_group(issues: &[Issue], group: Group) -> impl Iterator<Item = &Issue> {
    issues.iter().filter(move |i| i.in_group(group))
}

/// `issueClasses`: one check per class, in the contract's order.
pub fn classes(issues: &[Issue]) -> Vec<(Class, Check)> {
    Class::ALL
        .iter()
        .map(|class| {
            let c = Check::of(issues.iter().filter(|i| i.class == *class), Status::Pass);
            (*class, c)
        })
        .collect()
}

/// The 1.0 `summary` block: the status and what decided it.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// `pass`, `warning`, `needs_inspection` or `fail`.
    pub status: &'static str,
    /// The class of the deciding issues: "", one class, or "mixed".
    pub class: &'static str,
    pub primary_code: &'static str,
    pub primary_class: &'static str,
    pub errors: usize,
    pub warnings: usize,
    /// The badge: message and colour.
    pub badge: (&'static str, &'static str),
    pub display: &'static str,
}

impl Summary {
    pub fn of(issues: &[Issue]) -> Summary {
        let status = summary_status(issues);
        let (message, color, display) = match status {
            "pass" => ("pass", "brightgreen", "verified"),
            "warning" => ("warning", "yellow", "verified with warnings"),
            "needs_inspection" => (
                "needs inspection",
                "orange",
                "runtime or install issue; inspect before presenting as protocol failure",
            ),
            _ => ("fail", "red", "stdio transport or MCP protocol failure"),
        };
        let primary = primary(issues);
        // A folded issue counts for every one it stands for.
        let count = |i: &Issue| 1 + i.folded();
        let errors: usize = issues.iter().filter(|i| i.is_error()).map(count).sum();
        let all: usize = issues.iter().map(count).sum();
        Summary {
            status,
            class: summary_class(issues),
            primary_code: primary.map_or("", |i| i.code.as_str()),
            primary_class: primary.map_or("", |i| i.class.as_str()),
            errors,
            warnings: all - errors,
            badge: (message, color),
            display,
        }
    }
}

/// `pass`, `warning`, `needs_inspection` (errors are all install/runtime)
/// or `fail`.
fn summary_status(issues: &[Issue]) -> &'static str {
    let mut errors = issues.iter().filter(|i| i.is_error()).peekable();
    if errors.peek().is_none() {
        return if issues.is_empty() { "pass" } else { "warning" };
    }
    if errors.all(|i| i.class == Class::InstallRuntime) {
        "needs_inspection"
    } else {
        "fail"
    }
}

/// The issue a listing shows first: the first error, else the first
/// warning.
pub fn primary(issues: &[Issue]) -> Option<&Issue> {
    issues
        .iter()
        .find(|i| i.is_error())
        .or_else(|| issues.first())
}

/// The class shared by the issues that decide the status (the errors, or
/// the warnings when there is no error): "", one class, or "mixed".
fn summary_class(issues: &[Issue]) -> &'static str {
    let errors = issues.iter().any(Issue::is_error);
    let mut classes = issues
        .iter()
        .filter(|i| i.is_error() == errors)
        .map(|i| i.class);
    let Some(first) = classes.next() else {
        return "";
    };
    if classes.all(|c| c == first) {
        first.as_str()
    } else {
        "mixed"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_status_follows_the_worst_issue() {
        let warn = Issue::new(Code::StdoutEmptyLine, "w");
        let err = Issue::new(Code::StdoutNonJson, "e");
        assert_eq!(Check::of([].iter(), Status::Pass).status, Status::Pass);
        assert_eq!(
            Check::of([warn.clone()].iter(), Status::Pass).status,
            Status::Warning
        );
        let both = [warn, err.clone(), err];
        let c = Check::of(both.iter(), Status::Pass);
        assert_eq!(c.status, Status::Fail);
        assert_eq!(c.codes, [Code::StdoutEmptyLine, Code::StdoutNonJson]);
    }

    #[test]
    fn the_summary_names_what_decided_it() {
        let runtime = Issue::new(Code::InitializeTimeout, "t");
        let s = Summary::of(std::slice::from_ref(&runtime));
        assert_eq!((s.status, s.class), ("needs_inspection", "installRuntime"));
        let both = [runtime, Issue::new(Code::StdoutNonJson, "x")];
        let s = Summary::of(&both);
        assert_eq!((s.status, s.class, s.badge.1), ("fail", "mixed", "red"));
        assert_eq!(s.primary_code, "initialize-timeout");
        let s = Summary::of(&[Issue::new(Code::StdoutEmptyLine, "w")]);
        assert_eq!((s.status, s.errors, s.warnings), ("warning", 0, 1));
        assert_eq!(Summary::of(&[]).status, "pass");
    }
}
