//! A finished check, tools, call or bench run (or several, with
//! `--repeat`), judged once: every issue in one list (each run's tagged
//! with its run, the other era's with its era, each with its official
//! check id), the checks over them, the per-class roll-up, the summary, the
//! repeat and call verdicts, and the exit status. Writers turn this into
//! bytes and decide nothing.

use crate::args::expected::ExpectedFailures;
use crate::checks::drift::Drift;
use crate::checks::{Class, Issue};
use crate::scan::ScanReport;
use crate::verdict::accepted::Accepted;
use crate::verdict::catalog;
use crate::verdict::check::{self, Check, Checks, Status, Summary};
use crate::verdict::eras::Eras;
use crate::verdict::expected::{self, Expected};
use crate::verdict::official;
use crate::verdict::probe::{self, Verdict};
use crate::verdict::run::{Baseline, RunReport, checks};
use crate::verdict::score::Score;
use crate::verdict::subject::Subject;

/// `--repeat`: how the runs went.
#[derive(Debug, Clone, PartialEq)]
pub struct Repeat {
    pub runs: usize,
    pub failed: Vec<usize>,
    /// `fail` when a run failed, else the drift's and the runs' worst.
    pub check: Check,
}

/// Why the `call` command's call counts as failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallFailure {
    NotCalled,
    ErrorResponse,
    NoResponse,
    IsError,
}

impl CallFailure {
    pub fn as_str(self) -> &'static str {
        match self {
            CallFailure::NotCalled => "not called",
            CallFailure::ErrorResponse => "error response",
            CallFailure::NoResponse => "no response",
            CallFailure::IsError => "isError",
        }
    }
}

/// Everything a writer needs, judged.
#[derive(Debug, Clone)]
pub struct Report {
    pub subject: Subject,
    /// Every run; the first is the one the top-level fields describe.
    pub runs: Vec<RunReport>,
    /// Every issue: each run's (tagged with `run` when there are several),
    /// the static scan's, the drift's, `--against`'s and the other era's
    /// (tagged with `era`).
    pub issues: Vec<Issue>,
    pub scan: Option<ScanReport>,
    pub baseline: Baseline,
    pub drift: Option<Drift>,
    pub checks: Checks,
    /// `issueClasses`, in the contract's order.
    pub classes: Vec<(Class, Check)>,
    pub summary: Summary,
    pub eras: Eras,
    pub repeat: Option<Repeat>,
    /// The `call` command's verdict on its call.
    pub call_failure: Option<CallFailure>,
    /// The audit procedure's verdict of each run, in run order.
    pub audit: Vec<Verdict>,
    /// `--expected-failures`: what the baseline made of the official
    /// records; it decides the exit status.
    pub expected: Option<Expected>,
    /// `--baseline`: the findings it accepted and its stale entries.
    pub accepted: Option<Accepted>,
    /// `--robustness`: what the probe of every tool did.
    pub robustness: Option<crate::checks::robustness::Summary>,
    /// `--confine`: the policy and what the server touched.
    pub confinement: Option<crate::checks::confine::Summary>,
    /// The 0-100 score and its grade.
    pub score: Score,
}

/// Adds the official check id an issue stands for, when it has one and
/// does not carry its own.
fn with_check_id(mut issue: Issue) -> Issue {
    if issue.detail("checkId").is_none()
        && let Some(id) = catalog::check_id(issue.code)
    {
        issue.details.push(("checkId", id.into()));
    }
    issue
}

fn stamp(run: &mut RunReport) {
    let issues = std::mem::take(&mut run.issues);
    run.issues = issues.into_iter().map(with_check_id).collect();
}

impl Report {
    /// The report over `runs` (at least one) and what came with them.
    pub fn new(
        subject: Subject,
        mut runs: Vec<RunReport>,
        extra: Vec<Issue>,
        scan: Option<ScanReport>,
        baseline: Baseline,
        drift: Option<Drift>,
        mut eras: Eras,
    ) -> Report {
        runs.iter_mut().for_each(stamp);
        if let Some(other) = &mut eras.other {
            stamp(other);
        }
        let several = runs.len() > 1;
        let mut issues: Vec<Issue> = Vec::new();
        for run in &runs {
            issues.extend(run.issues.iter().map(|i| match (several, run.number) {
                (true, Some(n)) => i.clone().with("run", n),
                _ => i.clone(),
            }));
        }
        issues.extend(extra.into_iter().map(with_check_id));
        if let Some(other) = &eras.other {
            let era = other.era.as_ref().map_or("legacy", |e| e.speaks.as_str());
            issues.extend(other.issues.iter().map(|i| i.clone().with("era", era)));
        }
        let issues = crate::checks::issue::fold(issues);
        let checks = checks(
            &runs[0],
            &issues,
            scan.as_ref(),
            &baseline,
            subject.adversarial,
        );
        let repeat = several.then(|| repeat_of(&runs, &issues));
        let call_failure = (subject.mode == "call")
            .then(|| call_failure(&runs[0]))
            .flatten();
        let mut report = Report {
            expected: None,
            accepted: None,
            robustness: None,
            confinement: None,
            score: Score::of(&checks, &Check::skipped(""), &[]),
            audit: runs.iter().map(probe::verdict).collect(),
            classes: check::classes(&issues),
            summary: Summary::of(&issues),
            subject,
            runs,
            issues,
            scan,
            baseline,
            drift,
            checks,
            eras,
            repeat,
            call_failure,
        };
        report.score = Score::of(&report.checks, &report.repeat_check(), &report.issues);
        report
    }

    /// Attaches the confinement's policy and record: every run's and
    /// every robustness session's (`probe`); their findings are among the
    /// issues already.
    pub fn attach_confinement(
        &mut self,
        policy: &crate::plan::confine::Policy,
        probe: &[crate::session::confine::Log],
    ) {
        let logs = self
            .runs
            .iter()
            .filter_map(|r| r.confinement.as_ref())
            .chain(probe);
        self.confinement = Some(crate::checks::confine::Summary::of(policy, logs));
    }

    /// Attaches the robustness phase (its findings are among the issues
    /// already): its block, its check, the score again.
    pub fn attach_robustness(&mut self, summary: crate::checks::robustness::Summary) {
        self.checks.robustness = if summary.calls_sent == 0 {
            let why = summary
                .not_called
                .iter()
                .find(|n| n.tool.is_empty())
                .map_or("no call was made", |_| "the server listed no tools to call");
            Check::skipped(why)
        } else {
            Check::of(
                self.issues
                    .iter()
                    .filter(|i| i.in_group(crate::checks::Group::Robustness)),
                check::Status::Pass,
            )
        };
        self.robustness = Some(summary);
        self.score = Score::of(&self.checks, &self.repeat_check(), &self.issues);
    }

    /// The run the top-level fields describe.
    pub fn first(&self) -> &RunReport {
        &self.runs[0]
    }

    /// No error issue.
    pub fn ok(&self) -> bool {
        !self.issues.iter().any(Issue::is_error)
    }

    /// The verdict a person reads first (`PASS`/`FAIL`): no error issue, or,
    /// under an expected-failures baseline, the baseline holds.
    pub fn passed(&self) -> bool {
        match &self.expected {
            Some(e) => e.holds(),
            None => self.ok(),
        }
    }

    /// The era found, as the report names it.
    pub fn detected_era(&self) -> Option<&'static str> {
        let e = self.first().era.as_ref()?;
        Some(if self.eras.detected.is_empty() {
            e.speaks.as_str()
        } else {
            self.eras.detected
        })
    }

    /// The `checks.repeat` check: skipped without `--repeat`.
    pub fn repeat_check(&self) -> Check {
        match &self.repeat {
            Some(r) => r.check.clone(),
            None => Check::skipped("--repeat was not used"),
        }
    }

    /// The official conformance suite's records of this report.
    pub fn official_records(&self) -> Vec<official::Record> {
        official::records_of(&self.runs[0], &self.issues, &self.checks)
    }

    /// Applies an expected-failures baseline to the official records.
    pub fn expect(&mut self, baseline: &ExpectedFailures, file: &str) {
        let records = self.official_records();
        self.expected = Some(expected::evaluate(&records, baseline, file));
    }

    /// The exit status: 0 no error issue, 1 an error issue (or, for
    /// `call`, a failed call), 2 a call the tool or its arguments refused
    /// before anything was called. Under an expected-failures baseline, 1
    /// for an unexpected failure or a stale entry instead of for an error.
    pub fn exit_code(&self) -> u8 {
        if self.first().call_problem.is_some() {
            return 2;
        }
        let failed = match &self.expected {
            Some(e) => !e.holds(),
            None => !self.ok(),
        };
        u8::from(failed || self.call_failure.is_some())
    }
}

fn repeat_of(runs: &[RunReport], issues: &[Issue]) -> Repeat {
    let failed: Vec<usize> = runs
        .iter()
        .filter(|r| !r.ok())
        .filter_map(|r| r.number)
        .collect();
    let repeat_issues = issues.iter().filter(|i| {
        (i.in_group(crate::checks::Group::Repeat) || i.detail("run").is_some())
            && !i.in_group(crate::checks::Group::StaticScan)
    });
    let mut check = Check::of(repeat_issues, Status::Pass);
    if !failed.is_empty() {
        check.status = Status::Fail;
    }
    Repeat {
        runs: runs.len(),
        failed,
        check,
    }
}

/// Why the call counts as failed (for the exit status), if it does.
fn call_failure(run: &RunReport) -> Option<CallFailure> {
    let Some(op) = run.cli_call() else {
        return Some(CallFailure::NotCalled);
    };
    if op.error.is_some() {
        return Some(CallFailure::ErrorResponse);
    }
    match &op.result {
        None => Some(CallFailure::NoResponse),
        Some(res) if res.get("isError") == Some(&serde_json::Value::Bool(true)) => {
            Some(CallFailure::IsError)
        }
        Some(_) => None,
    }
}
