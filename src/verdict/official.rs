//! The official conformance suite's per-check records of a report: for
//! every id of the catalogue, its status (SUCCESS, FAILURE, WARNING or
//! SKIPPED with the reason: an era the server did not speak, a capability
//! it does not declare, a probe not asked for), the issues behind it and
//! its error message; then one record per check of the guard's own, keyed
//! `mcp-stdio-guard/<check>`, holding the issues no official id covers. So
//! every issue counts in exactly one record, which is what an
//! expected-failures baseline matches.

use serde_json::Value;

use crate::args::words::Probe;
use crate::checks::Issue;
use crate::plan::AdvProbe;
use crate::verdict::catalog::{self, Gate, OFFICIAL};
use crate::verdict::check::{Checks, Status};
use crate::verdict::run::RunReport;

/// One record, decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: String,
    pub name: String,
    /// The suite's scenario (`mcp-stdio-guard` for the guard's own checks).
    pub scenario: &'static str,
    pub description: String,
    pub status: Status,
    /// The spec references: id and URL.
    pub spec: &'static [(&'static str, &'static str)],
    /// The issues behind the status, in report order.
    pub issues: Vec<Issue>,
    pub skip_reason: Option<&'static str>,
}

impl Record {
    /// The first error's message, the suite's `errorMessage`.
    pub fn error_message(&self) -> Option<&str> {
        self.issues
            .iter()
            .find(|i| i.is_error())
            .map(|i| i.message.as_str())
    }
}

/// The official check id an issue counts toward.
pub fn issue_check_id(issue: &Issue) -> Option<&str> {
    issue
        .detail("checkId")
        .and_then(Value::as_str)
        .or_else(|| catalog::check_id(issue.code))
}

fn status_of(issues: &[Issue]) -> Status {
    if issues.iter().any(Issue::is_error) {
        Status::Fail
    } else if issues.is_empty() {
        Status::Pass
    } else {
        Status::Warning
    }
}

/// Why a gated check does not apply to this run, if it does not.
fn gate_skip(gate: Gate, run: &RunReport) -> Option<&'static str> {
    let advertised = |cap: &str| {
        run.lists
            .iter()
            .any(|l| l.advertised && l.spec.capability == cap)
    };
    match gate {
        Gate::Opened => None,
        Gate::Capability("tools") if !run.tools_asked => {
            Some("the server declares no tools capability")
        }
        Gate::Capability(cap) if cap != "tools" && !advertised(cap) => Some(match cap {
            "prompts" => "the server declares no prompts capability",
            _ => "the server declares no resources capability",
        }),
        Gate::Capability(_) => None,
        Gate::Templates if !advertised("resources") => {
            Some("the server declares no resources capability")
        }
        Gate::Templates => None,
        Gate::Method(m) if !run.ops.iter().any(|op| op.method == m) => {
            Some("no resources/read request was made")
        }
        Gate::Method(_) => None,
        Gate::VersionProbe => {
            let asked = run
                .probes
                .iter()
                .any(|v| v.started && v.probe == AdvProbe::Builtin(Probe::UnsupportedVersion));
            (!asked).then_some("--adversarial-probe unsupported-version was not asked")
        }
    }
}

/// Every record of a report: the first run's facts over every issue, with
/// the report's checks (`Report::official_records`).
pub fn records_of(run: &RunReport, all: &[Issue], checks: &Checks) -> Vec<Record> {
    let speaks = run.era.as_ref().map(|e| e.speaks);
    let mut out = Vec::new();
    for o in OFFICIAL {
        let issues: Vec<Issue> = all
            .iter()
            .filter(|i| issue_check_id(i) == Some(o.id))
            .cloned()
            .collect();
        let skip = if o.era.is_some() && speaks.is_some() && o.era != speaks {
            Some("the server spoke the other protocol era")
        } else if !run.initialized && issues.is_empty() {
            Some("the session did not open")
        } else {
            gate_skip(o.gate, run)
        };
        let status = match skip {
            Some(_) if issues.is_empty() => Status::Skipped,
            _ => status_of(&issues),
        };
        out.push(Record {
            id: o.id.to_string(),
            name: o.name.to_string(),
            scenario: o.scenario,
            description: o.description.to_string(),
            status,
            spec: o.spec,
            issues,
            skip_reason: skip.filter(|_| status == Status::Skipped),
        });
    }
    for (name, group, check) in checks.named() {
        let issues: Vec<Issue> = all
            .iter()
            .filter(|i| i.in_group(group) && issue_check_id(i).is_none())
            .cloned()
            .collect();
        let status = match check.status {
            Status::Skipped => Status::Skipped,
            _ if issues.is_empty() && check.status == Status::Fail && check.codes.is_empty() => {
                Status::Fail
            }
            _ => status_of(&issues),
        };
        out.push(Record {
            id: format!("mcp-stdio-guard/{name}"),
            name: name.to_string(),
            scenario: catalog::GUARD_SCENARIO,
            description: format!("the guard's {name} check (issues no official check id covers)"),
            status,
            spec: catalog::GUARD_SPEC,
            issues,
            skip_reason: check.reason,
        });
    }
    out
}
