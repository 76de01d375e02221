//! One run, distilled: everything any output needs of a session and its
//! issues, and nothing it does not (an earlier `--repeat` run keeps no
//! transcript). Also the roll-up of a run's checks: each check's status
//! over the issues of its group, with what the run did (a list not asked
//! for is skipped with the reason, one not answered is never a pass).

use serde_json::Value;

use crate::checks::catalog::{self, ToolSummary};
use crate::checks::drift::Facts;
use crate::checks::lint::cost::{self, ContextCost};
use crate::checks::lint::pin;
use crate::checks::{Code, Group, Issue, adversarial};
use crate::mcp::{self, ListSpec};
use crate::plan::AdvProbe;
use crate::scan::ScanReport;
use crate::session::transcript::{
    EntryKind, OpRecord, Shutdown, SpawnError, StderrCapture, Transcript,
};
use crate::session::{EndedBy, Speaks, Stage, Stop};
use crate::verdict::check::{Check, Checks, Status, in_group};

/// What `--against` compared this run with.
#[derive(Debug, Clone, PartialEq)]
pub enum Baseline {
    NotUsed,
    /// The file has no record for this command.
    NoRecord,
    /// The time stamp of the record compared with.
    Record(String),
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

/// One adversarial probe as the report shows it.
#[derive(Debug, Clone)]
pub struct ProbeView {
    pub probe: AdvProbe,
    pub method: String,
    pub started: bool,
    pub duration_ms: Option<u64>,
    pub check: Check,
}

/// How a run found its era.
#[derive(Debug, Clone, PartialEq)]
pub struct EraView {
    pub speaks: Speaks,
    pub reason: String,
    /// What the discover probe got (`result`, `error -32601`, `silence`,
    /// `exit`, `not-sent`) and when.
    pub probe: String,
    pub probe_ms: Option<u64>,
    pub supported: Vec<String>,
    /// The probe cost a process; this run is a fresh one.
    pub fresh_process: bool,
}

impl EraView {
    fn of(tr: &Transcript) -> Option<EraView> {
        let era = tr.era.as_ref()?;
        let first = tr.era_probe.as_ref().unwrap_or(era);
        let mut supported = first.supported.clone();
        for v in &era.supported {
            if !supported.contains(v) {
                supported.push(v.clone());
            }
        }
        if let Some(list) = tr
            .discover_result()
            .and_then(|r| r.get("supportedVersions"))
            .and_then(Value::as_array)
        {
            for v in list.iter().filter_map(Value::as_str) {
                if !supported.iter().any(|s| s == v) {
                    supported.push(v.to_string());
                }
            }
        }
        Some(EraView {
            speaks: era.speaks,
            reason: first.reason.clone(),
            probe: first.probe.clone(),
            probe_ms: first.probe_ms,
            supported,
            fresh_process: tr.era_probe.is_some(),
        })
    }
}

/// One run, distilled: everything a writer needs, no transcript.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The run number with `--repeat` (1-based).
    pub number: Option<usize>,
    pub issues: Vec<Issue>,
    pub facts: Facts,
    pub pid: Option<u32>,
    pub executable: Option<String>,
    pub spawn_error: Option<SpawnError>,
    pub stop: Option<Stop>,
    pub init_result: Option<Value>,
    /// `serverInfo` (2025) or the DiscoverResult's `_meta` serverInfo.
    pub server_info: Option<Value>,
    pub init_replied: bool,
    pub init_reply_at_ms: Option<u64>,
    pub initialized: bool,
    pub ops: Vec<OpRecord>,
    pub call_problem: Option<String>,
    /// How the `call` command's `structuredContent` fared against the
    /// tool's `outputSchema`, when both exist.
    pub structured: Option<crate::checks::schema::Validation>,
    pub lists: Vec<ListView>,
    /// The server's tool objects, every page, unaltered.
    pub tools: Vec<Value>,
    /// A tools list was asked for.
    pub tools_asked: bool,
    /// A tools list was asked and every page answered with a result.
    pub tools_answered: bool,
    /// How many tools were listed (kept when a later run lets go of
    /// `tools`).
    pub tool_count: usize,
    /// The first listed tool without a string name or an object
    /// `inputSchema`.
    pub tool_unusable: Option<usize>,
    pub tool_summary: ToolSummary,
    pub probes: Vec<ProbeView>,
    /// The stage an exit interrupted, when the server exited by itself.
    pub exit_stage: Option<Stage>,
    pub shutdown: Shutdown,
    pub stdout_bytes: u64,
    pub stderr: StderrCapture,
    /// `--confine`: what the supervisor saw.
    pub confinement: Option<crate::session::confine::Log>,
    /// Every valid JSON-RPC message the server wrote, as written.
    pub frames: crate::session::frames::Frames,
    pub invalid_lines: u64,
    pub duration_ms: u64,
    /// The run's own checks, classes and summary (over its own issues).
    pub checks: Checks,
    pub classes: Vec<(crate::checks::Class, Check)>,
    pub summary: crate::verdict::check::Summary,
    /// The era the session spoke, and how it was found.
    pub era: Option<EraView>,
    /// What the tools and instructions cost every prompt.
    pub context_cost: ContextCost,
    /// One hash over the tools' pinned hashes (`facts.definitions`) and
    /// the instructions, when tools were listed.
    pub definitions_sha256: Option<String>,
}

/// What the run was asked to do, for the skip reasons of its checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked {
    pub capability_probes: bool,
    pub adversarial: bool,
    /// The `call` command: the tool's `isError` is the command's failure.
    pub call: bool,
    /// `--context-budget`, in tokens.
    pub context_budget: u64,
}

/// What a run's tool list was, apart from the tools themselves.
struct ToolListing {
    asked: bool,
    answered: bool,
    count: usize,
    unusable: Option<usize>,
}

impl ToolListing {
    fn of(tr: &Transcript) -> ToolListing {
        let chain = tr.list_chain("tools/list");
        let listed = tr.listed("tools/list");
        ToolListing {
            asked: !chain.is_empty(),
            answered: !chain.is_empty() && chain.iter().all(|p| p.result.is_some()),
            count: listed.len(),
            unusable: listed.iter().position(|t| {
                !t.get("name").is_some_and(Value::is_string)
                    || !t.get("inputSchema").is_some_and(Value::is_object)
            }),
        }
    }
}

impl RunReport {
    /// Distills a judged run. The transcript is consumed: what the report
    /// keeps of it (the ops, the listed tools) is moved, never copied.
    pub fn build(
        mut tr: Transcript,
        issues: Vec<Issue>,
        number: Option<usize>,
        asked: Asked,
    ) -> RunReport {
        let mut issues = crate::checks::issue::fold(issues);
        if asked.call {
            // The call command exists to run the tool: its isError is the
            // command's failure (exit 1), and the label says so.
            for issue in issues.iter_mut().filter(|i| i.code == Code::ToolCallError) {
                issue.severity = crate::checks::Severity::Error;
            }
        }
        let tr = &mut tr;
        let lists = lists(tr, &issues, asked.capability_probes);
        let probes = probes(tr);
        let listing = ToolListing::of(tr);
        let exit_stage = tr.entries.iter().find_map(|e| match e.kind {
            EntryKind::Exited { stage, .. } if stage != Stage::Shutdown => Some(stage),
            _ => None,
        });
        let mut run = RunReport {
            number,
            facts: Facts::of(tr),
            pid: tr.pid,
            executable: tr.executable.clone(),
            spawn_error: tr.spawn_error.clone(),
            stop: tr.stop,
            init_result: tr.init_result().cloned(),
            server_info: tr.server_info().cloned(),
            // The opening was answered: initialize, or discover in 2026-07-28.
            init_replied: tr.init_reply.is_some() || tr.modern() && tr.discover_reply.is_some(),
            // When the opening was answered, in either era.
            init_reply_at_ms: if tr.modern() {
                tr.discover_reply_at_ms
            } else {
                tr.init_reply_at_ms
            },
            initialized: tr.initialized(),
            ops: Vec::new(),
            call_problem: tr.call_problem.clone(),
            structured: tr.cli_call().and_then(|op| {
                crate::checks::toolcall::structured_check(&tr.listed("tools/list"), op)
            }),
            lists,
            tools_asked: listing.asked,
            tools_answered: listing.answered,
            tool_count: listing.count,
            tool_unusable: listing.unusable,
            tools: Vec::new(),
            tool_summary: catalog::tool_summary(tr, &issues),
            probes,
            exit_stage,
            shutdown: tr.shutdown.clone(),
            stdout_bytes: tr.stdout_bytes,
            stderr: tr.stderr.clone(),
            confinement: tr.confinement.take(),
            frames: tr.take_frames(),
            invalid_lines: tr.invalid_line_count(),
            duration_ms: tr.duration_ms,
            checks: Checks::all_skipped("not judged"),
            classes: crate::verdict::check::classes(&issues),
            summary: crate::verdict::check::Summary::of(&issues),
            era: EraView::of(tr),
            context_cost: ContextCost::default(),
            definitions_sha256: None,
            issues,
        };
        run.tools = tr.take_listed("tools/list");
        run.ops = std::mem::take(&mut tr.ops);
        run.pin_definitions(tr, asked.context_budget);
        run.checks = checks(
            &run,
            &run.issues,
            None,
            &Baseline::NotUsed,
            asked.adversarial,
        );
        run
    }

    /// The context cost and the hash over the pinned definitions.
    fn pin_definitions(&mut self, tr: &Transcript, budget: u64) {
        let instructions = cost::instructions(tr);
        self.context_cost = ContextCost::of(&self.tools, instructions, budget);
        self.definitions_sha256 = self.facts.definitions.as_ref().map(|pinned| {
            let pins: Vec<(String, String)> = pinned
                .iter()
                .map(|p| (p.name.clone(), p.sha256.clone()))
                .collect();
            pin::definitions_sha256(&pins, instructions)
        });
    }

    /// Lets go of what only the first run's report shows (the tools, the
    /// results of its requests, all but the opening's version and
    /// capabilities), keeping every summary, verdict and issue: a later
    /// `--repeat` run costs a few kilobytes however large its listing.
    /// Pinned definitions that equal `first`'s share its text.
    pub fn let_go(&mut self, first: &RunReport) {
        self.tools = Vec::new();
        for op in &mut self.ops {
            op.result = None;
            op.params = None;
        }
        if let Some(Value::Object(init)) = &mut self.init_result {
            init.retain(|k, _| k == "protocolVersion" || k == "capabilities");
        }
        let facts = &mut self.facts;
        if let (Some(mine), Some(theirs)) = (&facts.tools, &first.facts.tools)
            && mine == theirs
        {
            facts.tools = Some(std::sync::Arc::clone(theirs));
        }
        if let (Some(mine), Some(theirs)) = (&mut facts.definitions, &first.facts.definitions) {
            if self.definitions_sha256 == first.definitions_sha256 {
                *mine = std::sync::Arc::clone(theirs);
            } else {
                for pin in std::sync::Arc::make_mut(mine) {
                    pin.share(theirs);
                }
            }
        }
        if self.context_cost == first.context_cost {
            self.context_cost = first.context_cost.clone();
        }
    }

    /// The `call` command's tool call, once it was made.
    pub fn cli_call(&self) -> Option<&OpRecord> {
        self.ops
            .iter()
            .find(|op| op.source == crate::plan::OpSource::CliCall)
    }

    pub fn negotiated(&self) -> &str {
        &self.facts.protocol
    }

    pub fn ok(&self) -> bool {
        !self.issues.iter().any(Issue::is_error)
    }

    /// Whether the session spoke 2026-07-28.
    pub fn modern(&self) -> bool {
        self.era
            .as_ref()
            .is_some_and(|e| e.speaks == Speaks::Modern)
    }

    /// `exited`, `timeout`, `spawn-failed` or `guard-terminated`.
    pub fn outcome(&self) -> &'static str {
        if self.spawn_error.is_some() {
            "spawn-failed"
        } else if !self.timeout_code().is_empty() {
            "timeout"
        } else if self.shutdown.ended_by == EndedBy::ItsOwnExit {
            "exited"
        } else {
            "guard-terminated"
        }
    }

    /// The code of the timeout of the opening or an operation, if any.
    pub fn timeout_code(&self) -> &'static str {
        self.issues
            .iter()
            .find(|i| matches!(i.code, Code::InitializeTimeout | Code::OperationTimeout))
            .map_or("", |i| i.code.as_str())
    }

    /// Where the conversation was when it ended.
    pub fn phase(&self) -> &'static str {
        if self.spawn_error.is_some() {
            "startup"
        } else if matches!(self.exit_stage, Some(Stage::Adversarial(_))) {
            "adversarial"
        } else if !self.init_replied {
            "initialize"
        } else if self.initialized && self.ops.iter().any(|op| !op.responded) {
            "operation"
        } else {
            "post-initialize"
        }
    }

    /// Whether the guard had to signal the server to end it.
    pub fn killed_by_guard(&self) -> bool {
        self.pid.is_some()
            && matches!(
                self.shutdown.ended_by,
                EndedBy::Sigterm | EndedBy::Sigkill | EndedBy::Unknown
            )
    }

    /// Why the guard stopped the server, or "" when it exited by itself.
    pub fn kill_reason(&self) -> &'static str {
        if self.spawn_error.is_some() || self.shutdown.ended_by == EndedBy::ItsOwnExit {
            return "";
        }
        if !self.timeout_code().is_empty() {
            return "timeout";
        }
        match self.stop {
            None | Some(Stop::Timeout) => "guard-finished",
            Some(Stop::OutputLimit) => "output-limit",
            Some(Stop::ProtocolError) => "protocol-error",
            Some(Stop::Interrupted(_)) => "interrupted",
            // A process the era probe cost is not reported (its run is
            // replaced by a fresh one); the arm only completes the match.
            Some(Stop::Restart(_)) => "era-probe",
        }
    }

    /// The shutdown step that ended the server, as the reports name it.
    pub fn ended_by(&self) -> &'static str {
        if self.pid.is_none() {
            return "";
        }
        match self.shutdown.ended_by {
            EndedBy::ItsOwnExit => "own-exit",
            EndedBy::StdinClose => "stdin-close",
            EndedBy::Sigterm => "SIGTERM",
            EndedBy::Sigkill => "SIGKILL",
            EndedBy::Unknown => "unknown",
        }
    }

    /// The signal that ended the server, when the guard had to send one.
    pub fn kill_signal(&self) -> &'static str {
        match self.shutdown.ended_by {
            EndedBy::Sigterm => "SIGTERM",
            EndedBy::Sigkill | EndedBy::Unknown if self.pid.is_some() => "SIGKILL",
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
                    Code::StdoutOutputLimitExceeded | Code::StdoutLineTooLarge
                )
            })
            .map_or("", |i| i.code.as_str())
    }
}

/// The adversarial probes, each with its own check.
fn probes(tr: &Transcript) -> Vec<ProbeView> {
    tr.adversarial
        .iter()
        .enumerate()
        .map(|(i, a)| ProbeView {
            probe: a.probe.clone(),
            method: a.method.clone(),
            started: a.started,
            duration_ms: a.duration_ms,
            check: match (&a.skipped, a.started) {
                (Some(_), _) => {
                    Check::skipped("a 2026-07-28 probe; this session spoke the 2025 era")
                }
                (None, true) => Check::of(&adversarial::probe_issues(tr, i), Status::Pass),
                (None, false) => Check::skipped("the session ended before this probe"),
            },
        })
        .collect()
}

fn detail_is(issue: &Issue, key: &str, value: &str) -> bool {
    issue.detail(key).and_then(Value::as_str) == Some(value)
}

/// The capability lists, in probe order, with their check.
fn lists(tr: &Transcript, issues: &[Issue], capability_probes: bool) -> Vec<ListView> {
    let advertised = tr.opening_result().map(mcp::advertised).unwrap_or_default();
    mcp::LISTS
        .iter()
        .map(|spec| {
            let chain = tr.list_chain(spec.method);
            let is_advertised = advertised.contains(&spec.capability);
            let check = if !is_advertised {
                Check::skipped("not advertised")
            } else if !tr.initialized() {
                Check::skipped("the server did not complete initialize")
            } else if chain.is_empty() && !capability_probes {
                Check::skipped("capability probes are off (--no-capability-probes)")
            } else if chain.is_empty() {
                Check::skipped("the session ended before this list was probed")
            } else {
                let own = issues.iter().filter(|i| {
                    i.in_group(Group::Capabilities) && detail_is(i, "method", spec.method)
                });
                let all_answered = chain.iter().all(|p| p.responded);
                Check::of(
                    own,
                    if all_answered {
                        Status::Pass
                    } else {
                        Status::Fail
                    },
                )
            };
            ListView {
                spec,
                advertised: is_advertised,
                responded: !chain.is_empty() && chain.iter().all(|p| p.responded),
                pages: chain.len(),
                item_count: tr.list_item_count(spec.method),
                error: chain.iter().find_map(|p| p.error.clone()),
                check,
            }
        })
        .collect()
}

fn operation_check(run: &RunReport, issues: &[Issue]) -> Check {
    if run.ops.is_empty() {
        return Check::skipped("no --request was given");
    }
    if !run.initialized {
        return Check::skipped("the server did not complete initialize");
    }
    let all = run.ops.iter().all(|op| op.responded);
    Check::of(
        in_group(issues, Group::Operation),
        if all { Status::Pass } else { Status::Fail },
    )
}

/// Skipped when nothing was probed; a list that was not answered is never
/// a pass.
fn capabilities_check(run: &RunReport, issues: &[Issue]) -> Check {
    if !run.initialized {
        return Check::skipped("the server did not complete initialize");
    }
    if !run.lists.iter().any(|l| l.advertised) {
        return Check::skipped("the server advertises no tools, resources or prompts");
    }
    if run.lists.iter().all(|l| l.check.status == Status::Skipped) {
        return Check::skipped("no advertised list was probed");
    }
    let unanswered = run.lists.iter().any(|l| l.check.status == Status::Fail);
    Check::of(
        in_group(issues, Group::Capabilities),
        if unanswered {
            Status::Fail
        } else {
            Status::Pass
        },
    )
}

/// The reason of a check a server that never started did not reach.
pub const NOT_STARTED: &str = "not reached: the server never started";

/// `check`, or, for a server that never started (it wrote nothing to
/// judge), a skip where the check would otherwise pass.
fn reached(run: &RunReport, check: Check) -> Check {
    if run.spawn_error.is_some() && check.codes.is_empty() {
        Check::skipped(NOT_STARTED)
    } else {
        check
    }
}

/// Every check of `run`'s facts over `issues` (the run's own, or the whole
/// report's).
pub fn checks(
    run: &RunReport,
    issues: &[Issue],
    scan: Option<&ScanReport>,
    baseline: &Baseline,
    adversarial: bool,
) -> Checks {
    let initialized = run.initialized;
    let init_issues = issues.iter().filter(|i| {
        i.in_group(Group::Initialize)
            || (!initialized && (i.in_group(Group::Stdout) || i.in_group(Group::JsonRpc)))
    });
    let tool_schema = if run.tool_summary.checked {
        Check::of(in_group(issues, Group::ToolSchema), Status::Pass)
    } else {
        Check::skipped("no tools/list result to check")
    };
    let static_scan = if scan.is_some() {
        Check::of(in_group(issues, Group::StaticScan), Status::Pass)
    } else {
        Check::skipped("no --scan path was given")
    };
    let adversarial = if !adversarial {
        Check::skipped("adversarial probes were not requested")
    } else if !run.probes.iter().any(|p| p.started) {
        Check::skipped("the session ended before the probes")
    } else {
        Check::of(in_group(issues, Group::Adversarial), Status::Pass)
    };
    let against = match baseline {
        Baseline::NotUsed => Check::skipped("--against was not used"),
        Baseline::NoRecord => Check::skipped("the --against file has no record for this command"),
        Baseline::Record(_) => Check::of(in_group(issues, Group::Against), Status::Pass),
    };
    let reached = |c: Check| reached(run, c);
    Checks {
        initialize: Check::of(
            init_issues,
            if initialized {
                Status::Pass
            } else {
                Status::Fail
            },
        ),
        stdout: reached(Check::of(in_group(issues, Group::Stdout), Status::Pass)),
        json_rpc: reached(Check::of(in_group(issues, Group::JsonRpc), Status::Pass)),
        operation: reached(operation_check(run, issues)),
        capabilities: reached(capabilities_check(run, issues)),
        tool_schema,
        adversarial,
        process: reached(Check::of(in_group(issues, Group::Process), Status::Pass)),
        python_buffering: reached(Check::of(
            in_group(issues, Group::PythonBuffering),
            Status::Pass,
        )),
        static_scan,
        against,
        robustness: Check::skipped("--robustness was not used"),
        confinement: match &run.confinement {
            Some(log) if log.problem.is_some() && log.notifications == 0 => Check::skipped(
                "nothing could be observed (the report's confinement block says why)",
            ),
            Some(_) => Check::of(in_group(issues, Group::Confinement), Status::Pass),
            None => Check::skipped("--confine was not used"),
        },
        definitions: if run.init_result.is_none()
            && !run.tools_answered
            && run.server_info.is_none()
        {
            Check::skipped("the server listed no definitions")
        } else {
            Check::of(in_group(issues, Group::Definitions), Status::Pass)
        },
    }
}
