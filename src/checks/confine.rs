//! What the server touched under `--confine`, judged: a credential opened
//! (`confine-secret-read`), a connection or datagram to an address the
//! policy does not allow (`confine-network`), writes outside the allowed
//! trees (`confine-write-outside`), and, under enforce, a refusal that made
//! the server fail (`confine-denied`, which takes the place of the
//! failure it caused). Programs run and reads outside the allowed trees
//! are listed in the report, not judged. Reads only the transcript.

use serde_json::{Value, json};

use crate::checks::{Code, Issue};
use crate::plan::confine::Policy;
use crate::session::confine::{Event, Kind, Log};
use crate::session::transcript::Transcript;

/// Paths or addresses named in one issue, at most.
const NAMED: usize = 20;

fn evidence(ev: &Event) -> Value {
    json!({
        "target": ev.target,
        "phase": ev.phase,
        "pid": ev.pid,
        "program": ev.program,
        "denied": ev.denied,
        "count": ev.count,
    })
}

/// Events the report lists, at most.
const LISTED: usize = 200;

/// The `confinement` block: the policy in force and what the server did.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub mode: &'static str,
    pub landlock_abi: u32,
    pub seccomp: bool,
    pub enforced: Vec<String>,
    pub not_enforced: Vec<String>,
    pub observed: Vec<String>,
    pub not_observed: Vec<String>,
    pub limits: Vec<String>,
    /// Events of every run, in order, at most `LISTED`.
    pub events: Vec<Event>,
    /// Events past `LISTED` (and past each process's bound), counted.
    pub events_dropped: u64,
    pub notifications: u64,
    /// The programs run (distinct, in order).
    pub programs: Vec<String>,
    /// Why something could not be observed, if so.
    pub problem: Option<String>,
}

impl Summary {
    pub fn of<'a>(policy: &Policy, logs: impl Iterator<Item = &'a Log>) -> Summary {
        let mut s = Summary {
            mode: policy.mode.as_str(),
            landlock_abi: policy.support.landlock_abi,
            seccomp: policy.support.notify,
            enforced: policy.enforced.clone(),
            not_enforced: policy.not_enforced.clone(),
            observed: policy.observed.clone(),
            not_observed: policy.not_observed.clone(),
            limits: policy.limits.clone(),
            events: Vec::new(),
            events_dropped: 0,
            notifications: 0,
            programs: Vec::new(),
            problem: None,
        };
        for log in logs {
            s.notifications += log.notifications;
            s.events_dropped += log.dropped;
            if s.problem.is_none() {
                s.problem.clone_from(&log.problem);
            }
            for ev in &log.events {
                if ev.kind == Kind::Exec && !ev.denied && !s.programs.contains(&ev.target) {
                    s.programs.push(ev.target.clone());
                }
                if s.events.len() < LISTED {
                    s.events.push(ev.clone());
                } else {
                    s.events_dropped += 1;
                }
            }
        }
        s
    }
}

/// The issues of one run's confinement log.
pub fn check(tr: &Transcript, enforcing: bool, issues: &mut Vec<Issue>) {
    let Some(log) = &tr.confinement else {
        return;
    };
    secrets_and_addresses(log, issues);
    let writes: Vec<&Event> = log
        .events
        .iter()
        .filter(|e| e.kind == Kind::WriteOutside)
        .collect();
    if let Some(first) = writes.first() {
        let named: Vec<&str> = writes
            .iter()
            .take(NAMED)
            .map(|e| e.target.as_str())
            .collect();
        let more = writes.len().saturating_sub(NAMED);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let refused = if writes.iter().all(|e| e.denied) {
            " (refused)"
        } else {
            ""
        };
        issues.push(
            Issue::new(
                Code::ConfineWriteOutside,
                format!(
                    "the server wrote outside the allowed trees{refused}, first during {}: {}{tail}",
                    first.phase,
                    named.join(", ")
                ),
            )
            .with("paths", named)
            .with("phase", first.phase.clone())
            .with("evidence", writes.iter().take(NAMED).map(|e| evidence(e)).collect::<Vec<_>>()),
        );
    }
    for ev in log.events.iter().filter(|e| e.kind == Kind::HiddenExec) {
        let outcome = if ev.denied {
            "tried to run (refused)"
        } else {
            "ran"
        };
        issues.push(
            Issue::new(
                Code::ConfineHiddenExec,
                format!(
                    "the server {outcome} a program that is not a file on disk, {}, during {} ({}, pid {})",
                    ev.target, ev.phase, ev.program, ev.pid
                ),
            )
            .with("program", ev.target.clone())
            .with("phase", ev.phase.clone())
            .with("denied", ev.denied)
            .with("evidence", evidence(ev)),
        );
    }
    if enforcing {
        fold_denial(tr, issues);
    }
}

/// One issue per credential file and per address.
fn secrets_and_addresses(log: &Log, issues: &mut Vec<Issue>) {
    for ev in log.events.iter().filter(|e| e.kind == Kind::SecretRead) {
        let outcome = match (ev.denied, ev.absent) {
            (true, _) => "tried to open (refused)",
            (false, true) => "looked for (it does not exist)",
            (false, false) => "opened",
        };
        issues.push(
            Issue::new(
                Code::ConfineSecretRead,
                format!(
                    "the server {outcome} the credential file {} during {} ({}, pid {})",
                    ev.target, ev.phase, ev.program, ev.pid
                ),
            )
            .with("path", ev.target.clone())
            .with("phase", ev.phase.clone())
            .with("denied", ev.denied)
            .with("absent", ev.absent)
            .with("evidence", evidence(ev)),
        );
    }
    for ev in log.events.iter().filter(|e| e.kind == Kind::Network) {
        // An address is reached; a socket or a send the filter flagged is
        // made.
        let made = ev.target.starts_with("a ") || ev.target.starts_with("an ");
        let outcome = match (ev.denied, made) {
            (true, false) => "tried to reach (refused)",
            (false, false) => "reached",
            (true, true) => "tried to make (refused)",
            (false, true) => "made",
        };
        issues.push(
            Issue::new(
                Code::ConfineNetwork,
                format!(
                    "the server {outcome} {} during {} ({}, pid {}, {} time(s))",
                    ev.target, ev.phase, ev.program, ev.pid, ev.count
                ),
            )
            .with("address", ev.target.clone())
            .with("phase", ev.phase.clone())
            .with("denied", ev.denied)
            .with("evidence", evidence(ev)),
        );
    }
}

/// Under enforce: when the server failed (it never opened a session, or it
/// exited before the guard closed its stdin) after something was refused,
/// the refusal is the cause, and the failure is folded into it.
fn fold_denial(tr: &Transcript, issues: &mut Vec<Issue>) {
    let Some(log) = &tr.confinement else {
        return;
    };
    let refused: Vec<&Event> = log.events.iter().filter(|e| e.denied).collect();
    if refused.is_empty() {
        return;
    }
    let exited_early = match (tr.shutdown.exited_at_ms, tr.shutdown.stdin_closed_at_ms) {
        (Some(exit), Some(closed)) => exit < closed,
        (Some(_), None) => true,
        _ => false,
    };
    let failure = |c: Code| {
        matches!(
            c,
            Code::ServerExited
                | Code::ServerCrashed
                | Code::InitializeTimeout
                | Code::OperationTimeout
                | Code::OperationMissingResponse
                | Code::ServerPrintedUsage
        )
    };
    let failed = issues.iter().any(|i| failure(i.code));
    if !(failed && (exited_early || !tr.handshake)) {
        return;
    }
    let consequences: Vec<String> = issues
        .iter()
        .filter(|i| failure(i.code))
        .map(|i| format!("{}: {}", i.code.as_str(), i.message))
        .collect();
    let named: Vec<String> = refused
        .iter()
        .take(NAMED)
        .map(|e| format!("{} {} ({})", e.kind.as_str(), e.target, e.phase))
        .collect();
    let root = Issue::new(
        Code::ConfineDenied,
        format!(
            "the server failed after the confinement refused it: {} (what followed is not reported apart: {})",
            named.join("; "),
            consequences.join("; ")
        ),
    )
    .with("refused", named)
    .with("consequences", consequences)
    .with("phase", refused[0].phase.clone());
    issues.retain(|i| !failure(i.code));
    issues.insert(0, root);
}
