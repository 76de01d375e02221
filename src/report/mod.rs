//! The report model and its writers. A run's transcript and issues are
//! distilled once into a `RunReport` (everything any output needs, nothing
//! it does not: an earlier `--repeat` run keeps no transcript), and the
//! runs, the static scan, the drift and the `--against` comparison into a
//! `Report`. Each writer is a pure function of the model, one file per
//! format: `json`, `text`, `audit` (`tools`, `call`), `record` (evidence),
//! `transcript` (the JSON-lines file, streamed), `scan`. Secrets never reach
//! the model: the transcript scrubbed the server's bytes as they came, and
//! the plan the user's strings.

use serde_json::Value;

use crate::checks::catalog::{self, ToolSummary};
use crate::checks::drift::{Drift, Facts};
use crate::checks::{Class, Code, Group, Issue, Severity, adversarial};
use crate::mcp::{self, ListSpec};
use crate::plan::{AdvProbe, Plan};
use crate::scan::ScanReport;
use crate::session::{EndedBy, Speaks, Stage, Stop};
use crate::transcript::{EntryKind, OpRecord, Shutdown, SpawnError, StderrCapture, Transcript};

pub mod annotations;
pub mod audit;
pub mod checks_json;
pub mod json;
pub mod junit;
pub mod record;
pub mod sarif;
pub mod scan;
pub mod style;
pub mod text;
pub mod transcript;

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
}

/// A badge-friendly check: its status, the codes behind it, and why it was
/// skipped.
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
        codes.sort_by_key(|c| c.as_str());
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
    pub lists: Vec<ListView>,
    /// The server's tool objects, every page, unaltered.
    pub tools: Vec<Value>,
    /// A tools list was asked for.
    pub tools_asked: bool,
    /// A tools list was asked and every page answered with a result.
    pub tools_answered: bool,
    pub tool_summary: ToolSummary,
    pub probes: Vec<ProbeView>,
    /// The stage an exit interrupted, when the server exited by itself.
    pub exit_stage: Option<Stage>,
    pub shutdown: Shutdown,
    pub stdout_bytes: u64,
    pub stderr: StderrCapture,
    pub frames: Vec<Value>,
    pub invalid_lines: u64,
    pub duration_ms: u64,
    pub checks: Checks,
    /// The era the session spoke, and how it was found.
    pub era: Option<EraView>,
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

/// The eras of a check: which the server speaks, and (with `--era both`)
/// the other era's run and what the era not served answered.
#[derive(Debug, Clone, Default)]
pub struct Eras {
    /// `modern`, `legacy` or `dual`; empty when no era was found.
    pub detected: &'static str,
    /// `--era both`: the legacy run, when both eras are served.
    pub other: Option<RunReport>,
    /// `--era both`: an era the server does not claim, and why.
    pub not_served: Vec<(&'static str, String)>,
}

impl Eras {
    /// What the eras came to. `other` is `--era both`'s 2025 run of a
    /// server that spoke 2026-07-28: kept when 2025 is served (or broke in
    /// its own way), dropped with a note when the server refused it as a
    /// modern-only server should.
    pub fn settle(runs: &[RunReport], other: Option<RunReport>, both: bool) -> Eras {
        let Some(e) = runs.first().and_then(|r| r.era.as_ref()) else {
            return Eras::default();
        };
        let lists_legacy = e.supported.iter().any(|v| !mcp::is_modern(v));
        let mut eras = Eras {
            detected: match e.speaks {
                Speaks::Modern if lists_legacy => "dual",
                s => s.as_str(),
            },
            ..Eras::default()
        };
        if !both {
            return eras;
        }
        let Some(legacy) = other else {
            // The server spoke 2025: it did not claim 2026-07-28.
            eras.not_served.push(("modern", e.reason.clone()));
            return eras;
        };
        if legacy.initialized {
            eras.detected = "dual";
            eras.other = Some(legacy);
        } else if legacy
            .issues
            .iter()
            .any(|i| i.code == Code::InitializeModernOnly)
        {
            eras.not_served.push((
                "legacy",
                "initialize answered -32022 naming only 2026-07-28 versions: a modern-only server"
                    .into(),
            ));
        } else {
            eras.other = Some(legacy);
        }
        eras
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
}

impl Checks {
    /// Every check with its name (as in the JSON `checks` object) and the
    /// issue group it gathers, in report order.
    pub fn named(&self) -> [(&'static str, Group, &Check); 11] {
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
        ]
    }
}

impl RunReport {
    /// Distills a judged run.
    pub fn build(
        plan: &Plan,
        tr: &Transcript,
        issues: Vec<Issue>,
        number: Option<usize>,
    ) -> RunReport {
        let lists = lists(plan, tr, &issues);
        let tools: Vec<Value> = tr.listed("tools/list").into_iter().cloned().collect();
        let chain = tr.list_chain("tools/list");
        let probes = tr
            .adversarial
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
            .collect();
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
            ops: tr.ops.clone(),
            call_problem: tr.call_problem.clone(),
            lists,
            tools_asked: !chain.is_empty(),
            tools_answered: !chain.is_empty() && chain.iter().all(|p| p.result.is_some()),
            tools,
            tool_summary: catalog::tool_summary(tr, &issues),
            probes,
            exit_stage,
            shutdown: tr.shutdown.clone(),
            stdout_bytes: tr.stdout_bytes,
            stderr: tr.stderr.clone(),
            frames: tr.frames().collect(),
            invalid_lines: tr.invalid_line_count(),
            duration_ms: tr.duration_ms,
            checks: placeholder_checks(),
            era: EraView::of(tr),
            issues,
        };
        run.checks = checks(plan, &run, &run.issues, None, &Baseline::NotUsed);
        run
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

/// A finished check, tools or call run (or several, with `--repeat`),
/// ready to render.
#[derive(Debug)]
pub struct Report<'a> {
    pub plan: &'a Plan,
    /// Every run; the first is the one the top-level fields describe.
    pub runs: Vec<RunReport>,
    /// Every issue: each run's (tagged with `run` when there are several),
    /// the static scan's, the drift's and `--against`'s.
    pub issues: Vec<Issue>,
    pub scan: Option<ScanReport>,
    pub baseline: Baseline,
    pub drift: Option<Drift>,
    /// The fingerprint's `package` and `runtimes`.
    pub package: Value,
    pub runtimes: Value,
    pub checks: Checks,
    pub eras: Eras,
}

impl<'a> Report<'a> {
    /// The report over `runs` (at least one) and what came with them.
    pub fn new(
        plan: &'a Plan,
        runs: Vec<RunReport>,
        extra: Vec<Issue>,
        scan: Option<ScanReport>,
        baseline: Baseline,
        drift: Option<Drift>,
    ) -> Report<'a> {
        let several = runs.len() > 1;
        let mut issues: Vec<Issue> = Vec::new();
        for run in &runs {
            issues.extend(run.issues.iter().map(|i| match (several, run.number) {
                (true, Some(n)) => i.clone().with("run", n),
                _ => i.clone(),
            }));
        }
        issues.extend(extra);
        let checks = checks(plan, &runs[0], &issues, scan.as_ref(), &baseline);
        Report {
            plan,
            runs,
            issues,
            scan,
            baseline,
            drift,
            package: Value::Null,
            runtimes: Value::Object(Default::default()),
            checks,
            eras: Eras::default(),
        }
    }

    /// Adds what `--era` found; the other era's issues (tagged with their
    /// `era`) count toward the verdict.
    pub fn set_eras(&mut self, eras: Eras) {
        if let Some(other) = &eras.other {
            let era = other.era.as_ref().map_or("legacy", |e| e.speaks.as_str());
            let tagged: Vec<Issue> = other
                .issues
                .iter()
                .map(|i| i.clone().with("era", era))
                .collect();
            self.issues.extend(tagged);
            self.checks = checks(
                self.plan,
                &self.runs[0],
                &self.issues,
                self.scan.as_ref(),
                &self.baseline,
            );
        }
        self.eras = eras;
    }

    /// The run the top-level fields describe.
    pub fn first(&self) -> &RunReport {
        &self.runs[0]
    }

    pub fn ok(&self) -> bool {
        !self.issues.iter().any(Issue::is_error)
    }

    pub fn errors(&self) -> usize {
        self.issues.iter().filter(|i| i.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.issues.len() - self.errors()
    }

    pub fn summary_status(&self) -> &'static str {
        summary_status(&self.issues)
    }

    pub fn check_class(&self, class: Class) -> Check {
        Check::of(
            self.issues.iter().filter(|i| i.class == class),
            Status::Pass,
        )
    }

    /// The runs that failed (1-based), for `checks.repeat`.
    pub fn failed_runs(&self) -> Vec<usize> {
        self.runs
            .iter()
            .filter(|r| !r.ok())
            .filter_map(|r| r.number)
            .collect()
    }
}

/// `pass`, `warning`, `needs_inspection` (errors are all install/runtime)
/// or `fail`.
pub fn summary_status(issues: &[Issue]) -> &'static str {
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
pub fn summary_class(issues: &[Issue]) -> &'static str {
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

fn placeholder_checks() -> Checks {
    let s = || Check::skipped("");
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
    }
}

fn in_group(issues: &[Issue], group: Group) -> impl Iterator<Item = &Issue> {
    issues.iter().filter(move |i| i.in_group(group))
}

fn detail_is(issue: &Issue, key: &str, value: &str) -> bool {
    issue.detail(key).and_then(Value::as_str) == Some(value)
}

/// The capability lists, in probe order, with their check.
fn lists(plan: &Plan, tr: &Transcript, issues: &[Issue]) -> Vec<ListView> {
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
            } else if chain.is_empty() && !plan.session.capability_probes {
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

/// Every check of a report over `issues`, for `run`'s facts.
fn checks(
    plan: &Plan,
    run: &RunReport,
    issues: &[Issue],
    scan: Option<&ScanReport>,
    baseline: &Baseline,
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
    Checks {
        initialize: Check::of(
            init_issues,
            if initialized {
                Status::Pass
            } else {
                Status::Fail
            },
        ),
        stdout: Check::of(in_group(issues, Group::Stdout), Status::Pass),
        json_rpc: Check::of(in_group(issues, Group::JsonRpc), Status::Pass),
        operation: operation_check(run, issues),
        capabilities: capabilities_check(run, issues),
        tool_schema,
        adversarial: adversarial_check(plan, run, issues),
        process: Check::of(in_group(issues, Group::Process), Status::Pass),
        python_buffering: Check::of(in_group(issues, Group::PythonBuffering), Status::Pass),
        static_scan,
        against: against_check(baseline, issues),
    }
}

fn adversarial_check(plan: &Plan, run: &RunReport, issues: &[Issue]) -> Check {
    if plan.session.adversarial.is_empty() {
        Check::skipped("adversarial probes were not requested")
    } else if !run.probes.iter().any(|p| p.started) {
        Check::skipped("the session ended before the probes")
    } else {
        Check::of(in_group(issues, Group::Adversarial), Status::Pass)
    }
}

fn against_check(baseline: &Baseline, issues: &[Issue]) -> Check {
    match baseline {
        Baseline::NotUsed => Check::skipped("--against was not used"),
        Baseline::NoRecord => Check::skipped("the --against file has no record for this command"),
        Baseline::Record(_) => Check::of(in_group(issues, Group::Against), Status::Pass),
    }
}

/// The exit status for an interrupt, after saying so on stderr.
pub fn interrupted(sig: i32) -> u8 {
    eprintln!(
        "mcp-stdio-guard: interrupted by {}; the server's process group was killed",
        crate::sys::signal_name(sig)
    );
    u8::try_from(128 + sig).unwrap_or(128)
}

/// Writes to stdout; a closed stdout (`guard | head`) is not an error, and
/// an interrupt stops the write (the caller then exits as interrupted).
pub fn write_stdout(text: &str) -> Result<(), crate::error::Error> {
    match crate::sys::write_stdout(text.as_bytes()) {
        Err(e)
            if !matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::Interrupted
            ) =>
        {
            Err(crate::error::Error::io("cannot write the report", e))
        }
        _ => Ok(()),
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
}
