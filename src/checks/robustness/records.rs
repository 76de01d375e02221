//! From what the session runner says came of each probe call to the
//! probe's call records (a crash quoted by the line of stderr that names
//! its cause, a call never sent said why), and what the probe's own
//! sessions showed beside their answers: their stdout and their
//! confinement findings, one per finding however many restarts repeat it.
//! Pure.

use crate::checks::robustness::generate::PlannedCall;
use crate::checks::robustness::{CallRecord, Judging, Outcome};
use crate::checks::{self, Code, Context, Group, Issue};
use crate::plan::Plan;
use crate::session::runner::{End, Unsent};
use crate::session::transcript::Transcript;

impl Outcome {
    /// What the runner's end of a call means to the probe.
    pub fn of(end: End) -> Outcome {
        match end {
            End::Result(v) => Outcome::Result(v),
            End::Error(v) => Outcome::Error(v),
            End::TimedOut => Outcome::TimedOut,
            End::Crashed { exit, stderr } => Outcome::Crashed {
                exit,
                said: checks::said::read(&stderr).quote().map(String::from),
            },
            End::NotSent(why) => Outcome::NotSent(
                match why {
                    Unsent::TimedOut => "an earlier call of this tool timed out",
                    Unsent::Crashed => "this tool crashed the server three times",
                    Unsent::Deadline => "the --robustness-budget ran out",
                }
                .into(),
            ),
        }
    }
}

/// Each call with what came of it.
pub fn records(calls: &[PlannedCall], ends: Vec<(End, u64)>) -> Vec<CallRecord> {
    calls
        .iter()
        .zip(ends)
        .map(|(call, (end, ms))| CallRecord {
            call: call.clone(),
            outcome: Outcome::of(end),
            ms,
        })
        .collect()
}

/// What makes two findings of the probe's sessions the same: the code and
/// what it names (a restarted server's pid differs, its finding does not).
fn same_finding(i: &Issue) -> (Code, String) {
    let named = ["path", "address", "program", "paths", "phase", "line"]
        .iter()
        .filter_map(|k| i.detail(k).map(|v| v.to_string()))
        .collect::<Vec<_>>()
        .join(" ");
    let what = if named.is_empty() {
        i.message.clone()
    } else {
        named
    };
    (i.code, what)
}

/// What one probe session's stdout and confinement showed, added to
/// `found` unless an earlier session found the same. A crash is the
/// probe's to judge from its calls, so nothing else of the session is.
pub fn leg_findings(ctx: &Context, tr: &Transcript, found: &mut Vec<Issue>) {
    for issue in checks::run(ctx, tr) {
        let wanted = issue.in_group(Group::Stdout)
            || issue.in_group(Group::Confinement) && issue.code != Code::ConfineDenied;
        if !wanted {
            continue;
        }
        let issue = match issue.detail("phase") {
            Some(_) => issue,
            None => issue.with("phase", "robustness"),
        };
        let key = same_finding(&issue);
        if !found.iter().any(|i| same_finding(i) == key) {
            found.push(issue);
        }
    }
}

/// The values of the variables `--env` forwarded to the server.
fn forwarded(plan: &Plan) -> Vec<String> {
    let names: Vec<&str> = plan.settings.env.iter().map(|e| e.name()).collect();
    plan.launch
        .env
        .iter()
        .filter(|(k, _)| names.iter().any(|n| k.to_str() == Some(*n)))
        .map(|(_, v)| v.to_string_lossy().into_owned())
        .collect()
}

impl Judging {
    /// How the probe's records are judged for this plan; `modern` when
    /// the judged run spoke 2026-07-28.
    pub fn of(plan: &Plan, modern: bool) -> Judging {
        Judging {
            strict: plan.settings.profile == crate::args::words::Profile::Strict,
            modern,
            argv: plan
                .shown_argv
                .iter()
                .map(|a| super::shell_quote(a))
                .collect::<Vec<_>>()
                .join(" "),
            timeout_ms: plan.settings.timeout_ms,
            secrets: forwarded(plan),
        }
    }
}
