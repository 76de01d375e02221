//! Turning a judged run into bytes: the shared model (check statuses,
//! summary, process outcome) and its two renderings, `text` and `json`.
//! No process work happens here, and every byte passes the `Redactor`.

use serde_json::Value;

use crate::checks::catalog::{self, ToolSummary};
use crate::checks::{Class, Group, Issue, Severity};
use crate::mcp::{self, ListSpec};
use crate::plan::Plan;
use crate::scan::ScanReport;
use crate::transcript::{EndedBy, OpRecord, Stop, Transcript};

pub mod audit;
pub mod json;
pub mod record;
pub mod scan;
pub mod text;

/// A finished run, ready to render.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    pub plan: &'a Plan,
    pub tr: &'a Transcript,
    pub issues: &'a [Issue],
    /// The `--scan` result, when one ran.
    pub scan: Option<&'a ScanReport>,
    pub baseline: Baseline,
}

/// What `--against` compared this run with.
#[derive(Debug, Clone, PartialEq)]
pub enum Baseline {
    NotUsed,
    /// The file has no record for this command.
    NoRecord,
    /// The time stamp of the record compared with.
    Record(String),
}

/// A badge-friendly check: `pass`, `fail`, `warning` or `skipped`.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub status: &'static str,
    pub codes: Vec<&'static str>,
    /// Why a skipped check did not run (additive to the 1.0 contract).
    pub reason: Option<&'static str>,
}

impl Check {
    pub fn skipped(reason: &'static str) -> Check {
        Check {
            status: "skipped",
            codes: Vec::new(),
            reason: Some(reason),
        }
    }

    /// `fail` with any error, `warning` with only warnings, else `otherwise`.
    pub fn of<'i>(issues: impl Iterator<Item = &'i Issue>, otherwise: &'static str) -> Check {
        let mut codes = Vec::new();
        let mut worst = None;
        for issue in issues {
            codes.push(issue.code);
            worst = worst.max(Some(issue.severity));
        }
        codes.sort_unstable();
        codes.dedup();
        let status = match worst {
            Some(Severity::Error) => "fail",
            Some(Severity::Warning) => "warning",
            None => otherwise,
        };
        Check {
            status,
            codes,
            reason: None,
        }
    }
}

/// One advertised-capability list as the report shows it.
#[derive(Debug, Clone)]
pub struct ListView {
    pub spec: &'static ListSpec,
    pub advertised: bool,
    /// Every page requested had a response.
    pub responded: bool,
    pub pages: usize,
    /// Items over all pages, when any page had an item array.
    pub item_count: Option<usize>,
    /// The first error response.
    pub error: Option<Value>,
    pub check: Check,
}

impl Report<'_> {
    pub fn ok(&self) -> bool {
        !self.issues.iter().any(Issue::is_error)
    }

    fn in_group(&self, group: Group) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(move |i| i.in_group(group))
    }

    pub fn check_initialize(&self) -> Check {
        let initialized = self.tr.initialized();
        let issues = self.issues.iter().filter(|i| {
            i.in_group(Group::Initialize)
                || (!initialized && (i.in_group(Group::Stdout) || i.in_group(Group::JsonRpc)))
        });
        Check::of(issues, if initialized { "pass" } else { "fail" })
    }

    pub fn check_operation(&self) -> Check {
        if self.tr.ops.is_empty() {
            return Check::skipped("no --request was given");
        }
        if !self.tr.initialized() {
            return Check::skipped("the server did not complete initialize");
        }
        let all_responded = self.tr.ops.iter().all(|op| op.responded);
        Check::of(
            self.in_group(Group::Operation),
            if all_responded { "pass" } else { "fail" },
        )
    }

    /// The capability lists, in probe order, with their check.
    pub fn lists(&self) -> Vec<ListView> {
        let advertised = self
            .tr
            .init_result()
            .map(mcp::advertised)
            .unwrap_or_default();
        mcp::LISTS
            .iter()
            .map(|spec| {
                let chain = self.tr.list_chain(spec.method);
                let is_advertised = advertised.contains(&spec.capability);
                let check = if !is_advertised {
                    Check::skipped("not advertised")
                } else if !self.tr.initialized() {
                    Check::skipped("the server did not complete initialize")
                } else if chain.is_empty() && !self.plan.session.capability_probes {
                    Check::skipped("capability probes are off (--no-capability-probes)")
                } else if chain.is_empty() {
                    Check::skipped("the session ended before this list was probed")
                } else {
                    Check::of(
                        self.in_group(Group::Capabilities)
                            .filter(|i| detail_is(i, "method", spec.method)),
                        "pass",
                    )
                };
                ListView {
                    spec,
                    advertised: is_advertised,
                    responded: !chain.is_empty() && chain.iter().all(|p| p.responded),
                    pages: chain.len(),
                    item_count: self.tr.list_item_count(spec.method),
                    error: chain.iter().find_map(|p: &&OpRecord| p.error.clone()),
                    check,
                }
            })
            .collect()
    }

    /// `checks.capabilities`: skipped when nothing was probed.
    pub fn check_capabilities(&self, lists: &[ListView]) -> Check {
        if !self.tr.initialized() {
            return Check::skipped("the server did not complete initialize");
        }
        if !lists.iter().any(|l| l.advertised) {
            return Check::skipped("the server advertises no tools, resources or prompts");
        }
        if lists.iter().all(|l| l.check.status == "skipped") {
            return Check::skipped("no advertised list was probed");
        }
        Check::of(self.in_group(Group::Capabilities), "pass")
    }

    pub fn tool_summary(&self) -> ToolSummary {
        catalog::tool_summary(self.tr, self.issues)
    }

    /// `checks.toolSchema`: skipped when no tools/list result was checked.
    pub fn check_tool_schema(&self, summary: &ToolSummary) -> Check {
        if !summary.checked {
            return Check::skipped("no tools/list result to check");
        }
        Check::of(self.in_group(Group::ToolSchema), "pass")
    }

    /// `checks.against` (additive): skipped without `--against` or without
    /// an earlier record for this command.
    pub fn check_against(&self) -> Check {
        match self.baseline {
            Baseline::NotUsed => Check::skipped("--against was not used"),
            Baseline::NoRecord => {
                Check::skipped("the --against file has no record for this command")
            }
            Baseline::Record(_) => Check::of(self.in_group(Group::Against), "pass"),
        }
    }

    /// `checks.adversarial`: skipped when no probe was asked for or none
    /// could run.
    pub fn check_adversarial(&self) -> Check {
        if self.plan.session.adversarial.is_empty() {
            return Check::skipped("adversarial probes were not requested");
        }
        if !self.tr.adversarial.iter().any(|a| a.started) {
            return Check::skipped("the session ended before the probes");
        }
        Check::of(self.in_group(Group::Adversarial), "pass")
    }

    /// `checks.staticScan`: skipped without `--scan`, else by its findings.
    pub fn check_static_scan(&self) -> Check {
        if self.scan.is_none() {
            return Check::skipped("no --scan path was given");
        }
        Check::of(self.in_group(Group::StaticScan), "pass")
    }

    pub fn check_group(&self, group: Group) -> Check {
        Check::of(self.in_group(group), "pass")
    }

    pub fn check_class(&self, class: Class) -> Check {
        Check::of(self.issues.iter().filter(|i| i.class == class), "pass")
    }

    pub fn errors(&self) -> usize {
        self.issues.iter().filter(|i| i.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.issues.len() - self.errors()
    }

    /// `pass`, `warning`, `needs_inspection` (errors are all install/runtime)
    /// or `fail`.
    pub fn summary_status(&self) -> &'static str {
        let mut errors = self.issues.iter().filter(|i| i.is_error()).peekable();
        if errors.peek().is_none() {
            return if self.issues.is_empty() {
                "pass"
            } else {
                "warning"
            };
        }
        if errors.all(|i| i.class == Class::InstallRuntime) {
            "needs_inspection"
        } else {
            "fail"
        }
    }

    /// The issue a listing shows first: the first error, else the first
    /// warning.
    pub fn primary(&self) -> Option<&Issue> {
        self.issues
            .iter()
            .find(|i| i.is_error())
            .or_else(|| self.issues.first())
    }

    /// The class shared by the issues that decide the status (the errors,
    /// or the warnings when there is no error): "", one class, or "mixed".
    pub fn summary_class(&self) -> &'static str {
        let errors = self.errors() > 0;
        let mut classes = self
            .issues
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

    /// `starting`, `running`, `exited`, `timeout`, `spawn-failed` or
    /// `guard-terminated`.
    pub fn outcome(&self) -> &'static str {
        if self.tr.spawn_error.is_some() {
            "spawn-failed"
        } else if self.tr.stop == Some(Stop::Timeout) {
            "timeout"
        } else if self.tr.shutdown.ended_by == EndedBy::ItsOwnExit {
            "exited"
        } else {
            "guard-terminated"
        }
    }

    /// Where the conversation was when it ended.
    pub fn phase(&self) -> &'static str {
        if self.tr.spawn_error.is_some() {
            "startup"
        } else if self.tr.init_reply.is_none() {
            "initialize"
        } else if self.tr.initialized() && self.tr.ops.iter().any(|op| !op.responded) {
            "operation"
        } else {
            "post-initialize"
        }
    }

    /// Why the guard stopped the server, or "" when it exited by itself.
    pub fn kill_reason(&self) -> &'static str {
        if self.outcome() == "exited" || self.tr.spawn_error.is_some() {
            return "";
        }
        match self.tr.stop {
            None => "guard-finished",
            Some(Stop::Timeout) => "timeout",
            Some(Stop::OutputLimit) => "output-limit",
            Some(Stop::ProtocolError) => "protocol-error",
            Some(Stop::Interrupted(_)) => "interrupted",
        }
    }

    /// The shutdown step that ended the server, as the reports name it.
    pub fn ended_by(&self) -> &'static str {
        if self.tr.pid.is_none() {
            return "";
        }
        match self.tr.shutdown.ended_by {
            EndedBy::ItsOwnExit => "own-exit",
            EndedBy::StdinClose => "stdin-close",
            EndedBy::Sigterm => "SIGTERM",
            EndedBy::Sigkill => "SIGKILL",
            EndedBy::Unknown => "unknown",
        }
    }

    /// The signal that ended the server, when the guard had to send one.
    pub fn kill_signal(&self) -> &'static str {
        match self.tr.shutdown.ended_by {
            EndedBy::Sigterm => "SIGTERM",
            EndedBy::Sigkill => "SIGKILL",
            _ => "",
        }
    }

    /// The code of the limit that stopped the run, if one did.
    pub fn exceeded_code(&self) -> &'static str {
        self.issues
            .iter()
            .find(|i| {
                matches!(
                    i.code,
                    "stdout-output-limit-exceeded" | "stdout-line-too-large"
                )
            })
            .map_or("", |i| i.code)
    }
}

fn detail_is(issue: &Issue, key: &str, value: &str) -> bool {
    issue
        .details
        .iter()
        .any(|(k, v)| *k == key && v.as_str() == Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_status_follows_the_worst_issue() {
        let warn = Issue::new("stdout-empty-line", "w");
        let err = Issue::new("stdout-non-json", "e");
        assert_eq!(Check::of([].iter(), "pass").status, "pass");
        assert_eq!(Check::of([warn.clone()].iter(), "pass").status, "warning");
        let both = [warn, err.clone(), err];
        let c = Check::of(both.iter(), "pass");
        assert_eq!(c.status, "fail");
        assert_eq!(c.codes, ["stdout-empty-line", "stdout-non-json"]);
    }
}
