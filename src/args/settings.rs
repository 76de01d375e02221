//! Every setting of every command, declared once, the way ripgrep declares
//! a flag: its flag and its config field, the commands that take it, its
//! value's placeholder and words, its default, its help text, and the code
//! that applies a value of it to the one `Settings` struct. `--help`, the
//! man page, the completions, the config reader and the parser all read
//! this table; nothing else names a setting. The formats written beside
//! the report are declared in their own table (`formats::FORMATS`), and a
//! flag is made here for each of its rows.
//!
//! A run's settings are built in layers, each applied in order to the same
//! struct: the declared defaults, the profile's presets (themselves written
//! as flag values), the config file, the command line. A list setting
//! given in a layer replaces what earlier layers gave (`Value::fresh`),
//! except `env`, which adds. No I/O here.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::Value as Json;

use crate::args::call::CallSpec;
use crate::args::formats::{Declared, FORMATS, Format};
use crate::args::words::{
    self, Annotations, Bound, ColorChoice, Confine, EnvSpec, Era, NotOneOf, Probe, Profile,
};

/// The protocol version requested when none is given.
pub const DEFAULT_PROTOCOL: &str = "2025-11-25";

/// The commands, as the table scopes settings to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cmd {
    #[default]
    Check,
    Tools,
    Call,
    Bench,
    Batch,
    Scan,
    Demo,
    /// `servers`: list every configured MCP server, start nothing.
    Servers,
    /// `doctor`: check every configured stdio server as its host would
    /// start it.
    Doctor,
    /// `wrap`: relay a host's live session with the server, judging a copy.
    Wrap,
    /// `log`: the judged report of a `wrap` session.
    Log,
    /// `lint FILE...`: the definitions lint over files, no server.
    Lint,
}

impl Cmd {
    pub fn name(self) -> &'static str {
        match self {
            Cmd::Check => "check",
            Cmd::Tools => "tools",
            Cmd::Call => "call",
            Cmd::Bench => "bench",
            Cmd::Batch => "batch",
            Cmd::Scan => "scan",
            Cmd::Demo => "demo",
            Cmd::Servers => "servers",
            Cmd::Doctor => "doctor",
            Cmd::Wrap => "wrap",
            Cmd::Log => "log",
            Cmd::Lint => "lint",
        }
    }

    /// Whether the command runs a session against a server.
    pub fn runs_a_session(self) -> bool {
        matches!(self, Cmd::Check | Cmd::Tools | Cmd::Call | Cmd::Bench)
    }
}

/// The output limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
}

/// One request of the config file (`request`, `requests`) or `--request`.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub method: String,
    pub params: Option<Json>,
}

/// One tool call of the config file (`safeToolCalls`, `adversarialToolCalls`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Json,
}

/// What `bench` measures, and within which bounds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BenchSpec {
    /// Fresh processes for the cold start.
    pub samples: u64,
    /// Requests in flight in the burst.
    pub concurrency: u64,
    /// Requests of the burst, at most.
    pub requests: u64,
    /// Wall time of the burst, at most (ms).
    pub duration_ms: u64,
    /// The burst's method (default: the era's liveness request).
    pub method: Option<String>,
    /// The tool to time, with its arguments (`--tool NAME --arg ...`).
    pub call: Option<CallSpec>,
    /// A tool not marked read-only may be called.
    pub allow_side_effects: bool,
}

/// `--robustness`: what the probe of every tool may do.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RobustnessSpec {
    pub on: bool,
    /// `--robustness-tool`: tools to call with valid input even if not
    /// marked read-only.
    pub tools: Vec<String>,
    /// Valid calls per tool.
    pub samples: u64,
    /// The whole phase's time, at most (ms).
    pub budget_ms: u64,
    /// The generator's seed.
    pub seed: u64,
    /// Every tool may be called with valid input (`--allow-side-effects`).
    pub allow_side_effects: bool,
}

/// `--confine`: the mode and what the policy adds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfineSpec {
    pub mode: Confine,
    /// `--confine-read`: more trees the server may read.
    pub read: Vec<PathBuf>,
    /// `--confine-write`: more trees the server may write.
    pub write: Vec<PathBuf>,
    /// `--confine-connect`: `[udp:]HOST:PORT` the server may connect or
    /// send to.
    pub connect: Vec<Endpoint>,
    /// `--confine-exec`: programs (names on PATH, or paths) the server may
    /// run under enforce.
    pub exec: Vec<String>,
}

/// A `--confine-connect` entry: `HOST:PORT` for TCP, `udp:HOST:PORT` for
/// datagrams (`tcp:` may be written too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
    pub udp: bool,
}

impl Endpoint {
    /// Reads `[tcp:|udp:]HOST:PORT` (an IPv6 host in brackets).
    pub fn parse(text: &str) -> Option<Endpoint> {
        let (udp, rest) = match text.split_once(':') {
            Some(("udp", rest)) => (true, rest),
            Some(("tcp", rest)) => (false, rest),
            _ => (false, text),
        };
        let (host, port) = rest.rsplit_once(':')?;
        let host = host.trim_matches(['[', ']']).to_string();
        let port = port.parse::<u16>().ok().filter(|p| *p != 0)?;
        (!host.is_empty()).then_some(Endpoint { host, port, udp })
    }
}

/// One slice of a sharded batch: the `index`-th (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// `--shard`: a slice, or `auto` (read from the Indexed Job's environment
/// when the batch starts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardSpec {
    Fixed(Shard),
    /// `auto` or `auto/N`: `JOB_COMPLETION_INDEX` (and `JOB_COMPLETIONS`).
    Auto(Option<u64>),
}

/// The options of `batch`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchSettings {
    /// The manifest: a client config's `mcpServers`/`servers` map.
    pub manifest: Option<PathBuf>,
    /// Options after `--`, given to every check.
    pub check_args: Vec<OsString>,
    /// Jobs at a time; `None` is the number of cores.
    pub jobs: Option<u64>,
    pub shard: Option<ShardSpec>,
    /// `--out`: the JSONL results.
    pub out: Option<PathBuf>,
    /// `--merge`: JSONL files of earlier batches to join instead.
    pub merge: Vec<PathBuf>,
    /// `--summary`: the Markdown summary.
    pub summary: Option<PathBuf>,
    /// `--badges`: a directory for one badge per server.
    pub badges: Option<PathBuf>,
    /// `servers`, `doctor`: `--host` names (all when empty).
    pub hosts: Vec<String>,
    /// `servers`, `doctor`: where project configs are looked for.
    pub project: Option<PathBuf>,
}

/// `wrap` and `log`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WrapSettings {
    /// The server's name in the log directory (`--name`).
    pub name: Option<String>,
    /// `--log-dir`: the root the session logs go under.
    pub log_dir: Option<PathBuf>,
    /// `--log-content`: message contents in the log, scrubbed.
    pub content: bool,
    /// `--install HOST:NAME`, `--uninstall HOST:NAME`.
    pub install: Option<String>,
    pub uninstall: Option<String>,
    /// `log`: the server's name or a log file.
    pub log: Option<String>,
}

/// The config file read, as it was: where, and what it gave (for the
/// report's `config` block). Its values are applied as a layer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfigSource {
    /// The path as given, and absolute.
    pub path: String,
    pub resolved: PathBuf,
    /// The client config's entry (`mcpServers`), when one was read.
    pub server: Option<String>,
    /// The config fields it set, by key.
    pub keys: Vec<&'static str>,
    pub supplied: Supplied,
}

/// What a config file supplied, for the report's `config` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Supplied {
    pub command: bool,
    pub cwd: bool,
    /// Sorted.
    pub env_names: Vec<String>,
    pub requests: Vec<String>,
    pub safe_tool_calls: Vec<String>,
    pub adversarial_probes: Vec<&'static str>,
    pub adversarial_tool_calls: Vec<String>,
}

/// Every setting of a run, resolved.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    pub cmd: Cmd,
    pub profile: Profile,
    /// `--config FILE` as given.
    pub config_path: Option<PathBuf>,
    /// The config file read.
    pub config: Option<ConfigSource>,
    /// `--server NAME`: the entry of a client config.
    pub server: Option<String>,
    /// The server argv, program first.
    pub command: Vec<OsString>,
    pub cwd: Option<PathBuf>,
    /// In order: the config file's variables, then `--env` (later wins).
    pub env: Vec<EnvSpec>,
    pub inherit_env: bool,
    pub env_clear: bool,
    pub protocol: String,
    pub era: Era,
    pub era_window_ms: u64,
    pub timeout_ms: u64,
    /// `None`: the request timeout.
    pub startup_timeout_ms: Option<u64>,
    pub settle_ms: u64,
    pub shutdown_grace_ms: u64,
    pub limits: Limits,
    pub repeat: u64,
    /// `--request` (with `--params`): the first operation.
    pub request: Option<String>,
    pub params: Option<Json>,
    /// The config file's `request` and `requests`, after it.
    pub requests: Vec<Request>,
    pub safe_tool_calls: Vec<ToolCall>,
    /// `--no-capability-probes`: do not list what the server advertises.
    pub no_capability_probes: bool,
    pub adversarial: Vec<Probe>,
    pub adversarial_tool_calls: Vec<ToolCall>,
    /// `--scan` paths (and the `scan` command's operands).
    pub scan: Vec<PathBuf>,
    /// `lint`'s input files (`-` for stdin).
    pub lint: Vec<PathBuf>,
    /// `scan --fix`: apply the safe rewrites in place.
    pub scan_fix: bool,
    /// `scan --diff`: print the safe rewrites as a unified diff.
    pub scan_diff: bool,
    pub fail_on_static: bool,
    pub json: bool,
    pub color: ColorChoice,
    /// `--junit-skipped`: skipped checks are JUnit testcases too.
    pub junit_skipped: bool,
    /// `--progress` (`Some(true)`), `--no-progress` (`Some(false)`), or
    /// a line only when stderr is a terminal (`None`).
    pub progress: Option<bool>,
    pub verbose: bool,
    /// Where the report goes (`-`, stdout, by default).
    pub output: PathBuf,
    pub evidence: Option<PathBuf>,
    pub against: Option<PathBuf>,
    pub transcript: Option<PathBuf>,
    /// The formats written beside the report (`formats::FORMATS`), and where.
    pub formats: BTreeMap<Format, PathBuf>,
    /// An expected-failures baseline in the official suite's YAML form.
    pub expected_failures: Option<PathBuf>,
    /// `--baseline`: accepted findings (code and subject).
    pub baseline: Option<PathBuf>,
    /// `--context-budget`: tokens the definitions may add to a prompt.
    pub context_budget: u64,
    pub annotations: Annotations,
    /// `call`: the tool and its arguments.
    pub call: CallSpec,
    pub bench: BenchSpec,
    pub batch: BatchSettings,
    pub robustness: RobustnessSpec,
    pub confine: ConfineSpec,
    pub wrap: WrapSettings,
}

impl Settings {
    /// The declared defaults of a command.
    pub fn defaults(cmd: Cmd) -> Settings {
        let mut s = Settings {
            cmd,
            ..Settings::default()
        };
        for setting in SETTINGS {
            if let Fallback::Value(text) = setting.default {
                let v = Value::flag(setting, text);
                (setting.apply)(&mut s, &v).expect("invariant: a declared default applies");
            }
        }
        s
    }

    /// The startup timeout in force.
    pub fn startup_timeout_ms(&self) -> u64 {
        self.startup_timeout_ms.unwrap_or(self.timeout_ms)
    }
}

/// How a setting's value is written on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A flag without a value (`true` or `false` in a config file).
    Switch,
    /// A whole number within its bound.
    Number(Bound),
    /// One of these words.
    Word(&'static [&'static str]),
    /// Text, with its placeholder.
    Text(&'static str),
    /// A file or directory.
    Path(&'static str),
    /// A config file's own JSON shape: no flag.
    Json,
}

impl Kind {
    /// The placeholder `--help` shows, or `None` for a switch.
    pub fn placeholder(self) -> Option<&'static str> {
        match self {
            Kind::Switch | Kind::Json => None,
            Kind::Number(b) => Some(match b.unit {
                "ms" => "<ms>",
                "s" => "<s>",
                _ => "<n>",
            }),
            Kind::Word(_) => Some("<word>"),
            Kind::Text(p) | Kind::Path(p) => Some(p),
        }
    }
}

/// What `--help` says a setting defaults to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    None,
    /// A value, applied to every run before anything else.
    Value(&'static str),
    /// What happens without it, in words (`--timeout`, `the number of cores`).
    Note(&'static str),
}

/// One value of a setting, from the command line or from a config file.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// How the user named it: `--timeout` or `timeoutMs`.
    pub name: String,
    pub given: Given,
    /// The first value for this setting's field in its layer: a list
    /// setting starts over.
    pub fresh: bool,
    /// The directory a config file's relative paths start from.
    pub base: Option<PathBuf>,
}

/// The value as it came.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// A flag's text (a switch gives "").
    Text(String),
    /// A config field's JSON.
    Json(Json),
}

/// Why a value does not fit: a phrase that starts with its name, and a
/// hint when one helps.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub text: String,
    pub hint: Option<String>,
}

type Applied = Result<(), Problem>;

impl Value {
    /// A flag's value.
    pub fn flag(setting: &Setting, text: &str) -> Value {
        Value {
            name: format!("--{}", setting.long.unwrap_or("")),
            given: Given::Text(text.to_string()),
            fresh: true,
            base: None,
        }
    }

    fn bad(&self, problem: impl std::fmt::Display) -> Problem {
        Problem {
            text: format!("{} {problem}", self.name),
            hint: None,
        }
    }

    fn hinted(&self, problem: impl std::fmt::Display, hint: impl Into<String>) -> Problem {
        Problem {
            text: format!("{} {problem}", self.name),
            hint: Some(hint.into()),
        }
    }

    fn describe(v: &Json) -> &'static str {
        crate::jsonrpc::describe(v)
    }

    /// A switch: present on the command line, `true`/`false` in a file.
    pub fn switch(&self) -> Result<bool, Problem> {
        match &self.given {
            Given::Text(_) => Ok(true),
            Given::Json(Json::Bool(b)) => Ok(*b),
            Given::Json(v) => Err(self.bad(format!("must be true or false, not {v}"))),
        }
    }

    /// A whole number within `bound`.
    pub fn number(&self, bound: Bound) -> Result<u64, Problem> {
        match &self.given {
            Given::Text(t) => bound.parse(t).map_err(|p| {
                self.hinted(p, format!("for example {} {}", self.name, bound.example))
            }),
            Given::Json(Json::Number(n)) if n.is_u64() => bound
                .check(n.as_u64().unwrap_or(0))
                .map_err(|p| self.bad(p)),
            Given::Json(Json::Number(n)) if n.as_f64().is_some_and(|f| f > 0.0) => {
                Err(self.bad(format!("must be at most {} {}", bound.max, bound.unit)))
            }
            Given::Json(v) => Err(self.bad(format!(
                "must be a whole number of {} from {} to {}, not {v}",
                bound.unit, bound.min, bound.max
            ))),
        }
    }

    /// Non-empty text without a NUL byte.
    pub fn text(&self) -> Result<String, Problem> {
        match &self.given {
            Given::Text(t) => Ok(t.clone()),
            Given::Json(Json::String(s)) if s.contains('\0') => Err(self.bad("holds a NUL byte")),
            Given::Json(Json::String(s)) if !s.is_empty() => Ok(s.clone()),
            Given::Json(Json::String(_)) => Err(self.bad("must not be empty")),
            Given::Json(v) => Err(self.bad(format!("must be a string, not {}", Self::describe(v)))),
        }
    }

    /// Names: one from a flag, a list of strings from a config field.
    pub fn texts(&self) -> Result<Vec<String>, Problem> {
        match &self.given {
            Given::Json(Json::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Json::String(s) if !s.is_empty() && !s.contains('\0') => Ok(s.clone()),
                    other => Err(self.bad(format!(
                        "must be a list of names, not one holding {}",
                        Self::describe(other)
                    ))),
                })
                .collect(),
            _ => self.text().map(|t| vec![t]),
        }
    }

    /// One of a word enum's spellings.
    pub fn word<T: std::str::FromStr<Err = NotOneOf>>(&self) -> Result<T, Problem> {
        let text = self.text()?;
        text.parse().map_err(|e: NotOneOf| Problem {
            text: match &self.given {
                Given::Text(_) => format!("{}: {e}", self.name),
                Given::Json(_) => format!("{} {e}", self.name),
            },
            hint: None,
        })
    }

    /// A path: as given on the command line, relative to the config file's
    /// directory in a config file.
    pub fn path(&self) -> Result<PathBuf, Problem> {
        let text = self.text()?;
        Ok(match &self.base {
            Some(dir) => dir.join(text),
            None => PathBuf::from(text),
        })
    }

    /// One path, or (in a config file) an array of them.
    pub fn paths(&self) -> Result<Vec<PathBuf>, Problem> {
        match &self.given {
            Given::Json(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    Value {
                        name: format!("{}[{i}]", self.name),
                        given: Given::Json(item.clone()),
                        fresh: false,
                        base: self.base.clone(),
                    }
                    .path()
                })
                .collect(),
            _ => Ok(vec![self.path()?]),
        }
    }

    /// A config field's JSON (a flag's text as a JSON string).
    pub fn json(&self) -> Json {
        match &self.given {
            Given::Text(t) => Json::String(t.clone()),
            Given::Json(v) => v.clone(),
        }
    }

    /// A nested value's reader: `requests[0]`.
    fn at(&self, sub: &str, v: &Json) -> Value {
        Value {
            name: format!("{}{sub}", self.name),
            given: Given::Json(v.clone()),
            fresh: false,
            base: self.base.clone(),
        }
    }
}

/// One setting: its names, the commands that take it, its value, its
/// default, its help, and how a value of it is applied.
#[derive(Clone, Copy)]
pub struct Setting {
    /// The flag, without `--`; `None` for a config field only.
    pub long: Option<&'static str>,
    pub short: Option<char>,
    /// The config file's field.
    pub key: Option<&'static str>,
    /// The field of `Settings` it writes (settings that share one share a
    /// list's layer: `--adversarial-probe` and `--adversarial-probes`).
    pub field: &'static str,
    pub kind: Kind,
    pub default: Fallback,
    pub scope: &'static [Cmd],
    /// One or more lines; continuation lines are indented in `--help`.
    pub help: &'static str,
    pub apply: fn(&mut Settings, &Value) -> Applied,
}

/// Two settings are the same declaration.
impl PartialEq for Setting {
    fn eq(&self, other: &Setting) -> bool {
        (self.long, self.key, self.field) == (other.long, other.key, other.field)
    }
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setting")
            .field("long", &self.long)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Setting {
    /// The words its value may be, for completions.
    pub fn choices(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Word(w) => w,
            _ => &[],
        }
    }

    pub fn takes_value(&self) -> bool {
        !matches!(self.kind, Kind::Switch)
    }
}

const SESSION: &[Cmd] = &[Cmd::Check, Cmd::Tools, Cmd::Call, Cmd::Bench];
const OUTPUTS: &[Cmd] = &[
    Cmd::Check,
    Cmd::Tools,
    Cmd::Call,
    Cmd::Bench,
    Cmd::Batch,
    Cmd::Doctor,
    Cmd::Log,
];
const JSON_CMDS: &[Cmd] = &[
    Cmd::Check,
    Cmd::Tools,
    Cmd::Call,
    Cmd::Bench,
    Cmd::Batch,
    Cmd::Scan,
    Cmd::Servers,
    Cmd::Doctor,
    Cmd::Log,
    Cmd::Lint,
];
const COLOR_CMDS: &[Cmd] = &[
    Cmd::Check,
    Cmd::Tools,
    Cmd::Call,
    Cmd::Bench,
    Cmd::Scan,
    Cmd::Demo,
    Cmd::Lint,
];
const CALL_ARGS: &[Cmd] = &[Cmd::Call, Cmd::Bench];
const BENCH: &[Cmd] = &[Cmd::Bench];
const CHECK: &[Cmd] = &[Cmd::Check];
const SIDE_EFFECTS: &[Cmd] = &[Cmd::Bench, Cmd::Check];
const BATCH: &[Cmd] = &[Cmd::Batch];
/// The commands that check many servers: `batch` and `doctor`.
const FLEET: &[Cmd] = &[Cmd::Batch, Cmd::Doctor];
const HOSTS: &[Cmd] = &[Cmd::Servers, Cmd::Doctor];
const SCAN: &[Cmd] = &[Cmd::Scan];
/// The formats `scan` writes too (SARIF), with the other outputs.
const OUTPUTS_SCAN: &[Cmd] = &[
    Cmd::Check,
    Cmd::Tools,
    Cmd::Call,
    Cmd::Bench,
    Cmd::Batch,
    Cmd::Doctor,
    Cmd::Log,
    Cmd::Scan,
    Cmd::Lint,
];
const WRAP: &[Cmd] = &[Cmd::Wrap];
const TIMED: &[Cmd] = &[Cmd::Check, Cmd::Tools, Cmd::Call, Cmd::Bench, Cmd::Wrap];
const PROGRESS_CMDS: &[Cmd] = &[Cmd::Check, Cmd::Bench, Cmd::Batch, Cmd::Doctor, Cmd::Lint];

/// A flag (and maybe a config field) of the session commands.
const fn flag(
    long: &'static str,
    key: Option<&'static str>,
    kind: Kind,
    default: Fallback,
    help: &'static str,
    apply: fn(&mut Settings, &Value) -> Applied,
) -> Setting {
    Setting {
        long: Some(long),
        short: None,
        key,
        field: long,
        kind,
        default,
        scope: SESSION,
        help,
        apply,
    }
}

/// A config field with no flag.
const fn field(
    key: &'static str,
    field: &'static str,
    help: &'static str,
    apply: fn(&mut Settings, &Value) -> Applied,
) -> Setting {
    Setting {
        long: None,
        short: None,
        key: Some(key),
        field,
        kind: Kind::Json,
        default: Fallback::None,
        scope: SESSION,
        help,
        apply,
    }
}

const fn scoped(mut s: Setting, scope: &'static [Cmd]) -> Setting {
    s.scope = scope;
    s
}

const fn sharing(mut s: Setting, field: &'static str) -> Setting {
    s.field = field;
    s
}

/// Stores a value that fits; passes on why one does not.
fn set<T>(slot: &mut T, value: Result<T, Problem>) -> Applied {
    *slot = value?;
    Ok(())
}

fn path_of(v: &Value) -> Result<Option<PathBuf>, Problem> {
    v.path().map(Some)
}

fn probes_of(v: &Value) -> Result<Vec<Probe>, Problem> {
    let text = match &v.given {
        Given::Json(Json::Bool(true)) => return Ok(Probe::ALL.to_vec()),
        Given::Json(Json::Bool(false)) => return Ok(Vec::new()),
        Given::Json(Json::Array(items)) => {
            let mut names = Vec::new();
            for (i, item) in items.iter().enumerate() {
                names.push(v.at(&format!("[{i}]"), item).text()?);
            }
            names.join(",")
        }
        Given::Json(Json::String(s)) => s.clone(),
        Given::Json(other) => {
            return Err(v.bad(format!(
                "must be true, \"all\", \"none\" or a list of probe names, not {other}"
            )));
        }
        Given::Text(t) => t.clone(),
    };
    words::probe_list(&text).map_err(|e| match &v.given {
        Given::Text(_) => Problem {
            text: format!("{}: unknown probe '{}'", v.name, e.given),
            hint: Some(format!(
                "probes: {}, or all, or none",
                Probe::NAMES.join(", ")
            )),
        },
        Given::Json(_) => v.bad(e),
    })
}

fn request_of(v: &Value) -> Result<Request, Problem> {
    let Json::Object(obj) = v.json() else {
        return Err(v.bad("must be an object like {\"method\": \"tools/list\"}"));
    };
    if let Some(key) = obj.keys().find(|k| *k != "method" && *k != "params") {
        return Err(v
            .at(&format!(".{key}"), &Json::Null)
            .bad("is not a request field (method, params)"));
    }
    let method = v
        .at(".method", obj.get("method").unwrap_or(&Json::Null))
        .text()?;
    let params = obj.get("params").cloned();
    if params
        .as_ref()
        .is_some_and(|p| !p.is_object() && !p.is_array())
    {
        return Err(v
            .at(".params", &Json::Null)
            .bad("must be an object or an array"));
    }
    Ok(Request { method, params })
}

fn tool_calls_of(v: &Value) -> Result<Vec<ToolCall>, Problem> {
    let Json::Array(items) = v.json() else {
        return Err(v.bad("must be an array of {\"name\": ..., \"arguments\": {...}}"));
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = v.at(&format!("[{i}]"), item);
        let Json::Object(obj) = item else {
            return Err(at.bad("must be an object with name and arguments"));
        };
        if let Some(key) = obj.keys().find(|k| *k != "name" && *k != "arguments") {
            return Err(at
                .at(&format!(".{key}"), &Json::Null)
                .bad("is not a tool call field (name, arguments)"));
        }
        let name = at
            .at(".name", obj.get("name").unwrap_or(&Json::Null))
            .text()?;
        let arguments = obj
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| Json::Object(Default::default()));
        if !arguments.is_object() {
            return Err(at.at(".arguments", &Json::Null).bad("must be an object"));
        }
        out.push(ToolCall { name, arguments });
    }
    Ok(out)
}

fn env_object_of(v: &Value) -> Result<Vec<EnvSpec>, Problem> {
    let Json::Object(map) = v.json() else {
        return Err(v.bad("must be an object of NAME: value"));
    };
    let mut out = Vec::new();
    for (name, value) in &map {
        let at = v.at(&format!(".{name}"), value);
        let value = match value {
            Json::String(s) => s.clone(),
            Json::Number(n) => n.to_string(),
            Json::Bool(b) => b.to_string(),
            _ => return Err(at.bad("must be a string")),
        };
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            return Err(at.bad("is not a variable name"));
        }
        if value.contains('\0') {
            return Err(at.bad("holds a NUL byte, which no environment can carry"));
        }
        out.push(EnvSpec::Set(name.clone(), value));
    }
    Ok(out)
}

fn env_flag_of(v: &Value) -> Result<EnvSpec, Problem> {
    v.text()?.parse().map_err(|e: words::BadEnv| Problem {
        text: format!(
            "--env takes NAME or NAME=VALUE with a non-empty NAME: {}",
            e.0
        ),
        hint: Some("for example --env API_TOKEN or --env LOG_LEVEL=debug".into()),
    })
}

fn command_of(v: &Value) -> Result<Vec<OsString>, Problem> {
    match v.json() {
        Json::Array(items) => {
            let mut argv = Vec::new();
            for (i, item) in items.iter().enumerate() {
                argv.push(OsString::from(v.at(&format!("[{i}]"), item).text()?));
            }
            if argv.is_empty() {
                return Err(v.bad("must not be empty"));
            }
            Ok(argv)
        }
        Json::String(_) => Ok(vec![OsString::from(v.text()?)]),
        _ => Err(v.bad("must be an array like [\"node\", \"server.js\"] or a string with args")),
    }
}

fn args_of(v: &Value) -> Result<Vec<OsString>, Problem> {
    let Json::Array(items) = v.json() else {
        return Err(v.bad("must be an array of strings"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| v.at(&format!("[{i}]"), item).text().map(OsString::from))
        .collect()
}

fn protocol_of(v: &Value) -> Result<String, Problem> {
    let p = v.text()?;
    if crate::mcp::is_date_shaped(&p) {
        return Ok(p);
    }
    Err(match v.given {
        Given::Text(_) => Problem {
            text: format!("--protocol must be a version such as 2025-11-25, not '{p}'"),
            hint: None,
        },
        Given::Json(_) => v.bad(format!("'{p}' is not a version such as 2025-11-25")),
    })
}

fn method_of(v: &Value) -> Result<String, Problem> {
    let m = v.text()?;
    if m.trim() != m || m.chars().any(char::is_control) {
        return Err(v.bad(format!(
            "must be a method name such as tools/list, not '{m}'"
        )));
    }
    Ok(m)
}

fn params_of(v: &Value) -> Result<Json, Problem> {
    let text = v.text()?;
    let value: Json = serde_json::from_str(&text).map_err(|e| {
        v.hinted(
            format!("must be valid JSON: {e}"),
            r#"quote it for your shell, for example --params '{"cursor":"abc"}'"#,
        )
    })?;
    if !value.is_object() && !value.is_array() {
        return Err(v.hinted(
            "must be a JSON object or array",
            "JSON-RPC params are structured; MCP methods take an object",
        ));
    }
    Ok(value)
}

fn call_arg_of(v: &Value) -> Result<(String, String), Problem> {
    let text = v.text()?;
    match text.split_once('=').filter(|(n, _)| !n.is_empty()) {
        Some((name, value)) => Ok((name.to_string(), value.to_string())),
        None => Err(v.hinted(
            format!("must be NAME=VALUE, not '{text}'"),
            "as in: --arg text=hello",
        )),
    }
}

fn call_args_of(v: &Value) -> Result<serde_json::Map<String, Json>, Problem> {
    match serde_json::from_str::<Json>(&v.text()?) {
        Ok(Json::Object(map)) => Ok(map),
        Ok(_) => Err(v.hinted(
            "must be a JSON object",
            "tool arguments are named: '{\"text\":\"hi\"}'",
        )),
        Err(e) => Err(v.hinted(
            format!("must be valid JSON: {e}"),
            "quote it for your shell",
        )),
    }
}

/// Where `--arg`/`--args` go: the call, or the bench's tool.
fn call_spec(s: &mut Settings) -> &mut CallSpec {
    match s.cmd {
        Cmd::Bench => s.bench.call.get_or_insert_with(CallSpec::default),
        _ => &mut s.call,
    }
}

fn shard_of(v: &Value) -> Result<ShardSpec, Problem> {
    let text = v.text()?;
    let bad = |why: &str| {
        v.hinted(
            format!("{text}: {why}"),
            "as in: --shard 2/4, --shard auto/4 (reads JOB_COMPLETION_INDEX)",
        )
    };
    let (k, n) = text.split_once('/').unwrap_or((&text, ""));
    let count = if n.is_empty() {
        None
    } else {
        Some(
            n.trim()
                .parse::<u64>()
                .map_err(|_| bad("N is not a number"))?,
        )
    };
    if k == "auto" {
        return Ok(ShardSpec::Auto(count));
    }
    let index: u64 = k.trim().parse().map_err(|_| bad("K is not a number"))?;
    let count = count.ok_or_else(|| bad("give N, as in 2/4"))?;
    if count == 0 || index == 0 || index > count {
        return Err(bad("K must be 1 to N"));
    }
    Ok(ShardSpec::Fixed(Shard { index, count }))
}

/// Every setting, in `--help` order: those declared here, with a flag for
/// each format of `formats::FORMATS` after `--transcript`.
pub const SETTINGS: &[Setting] = &JOINED;

const COUNT: usize = HEAD.len() + FORMATS.len() + TAIL.len();
const JOINED: [Setting; COUNT] = join();

/// `HEAD`, the formats' flags, `TAIL`.
const fn join() -> [Setting; COUNT] {
    let mut out = [HEAD[0]; COUNT];
    let mut i = 0;
    while i < HEAD.len() {
        out[i] = HEAD[i];
        i += 1;
    }
    let mut j = 0;
    while j < FORMATS.len() {
        out[i] = format_flag(&FORMATS[j]);
        i += 1;
        j += 1;
    }
    j = 0;
    while j < TAIL.len() {
        out[i] = TAIL[j];
        i += 1;
        j += 1;
    }
    out
}

/// The flag of a format: a file path, for every command that has it.
const fn format_flag(d: &Declared) -> Setting {
    Setting {
        long: Some(d.flag),
        short: None,
        key: d.key,
        field: d.flag,
        kind: Kind::Path("<file>"),
        default: Fallback::None,
        scope: if d.scan {
            OUTPUTS_SCAN
        } else if d.batch {
            OUTPUTS
        } else {
            SESSION
        },
        help: d.help,
        apply: format_path,
    }
}

/// Stores where a format goes, the format found by the name it was given.
fn format_path(s: &mut Settings, v: &Value) -> Applied {
    let format = Format::named(&v.name).ok_or_else(|| v.bad("names no format"))?;
    s.formats.insert(format, v.path()?);
    Ok(())
}

/// The settings before the formats' flags, in `--help` order.
const HEAD: &[Setting] = &[
    flag(
        "profile",
        Some("profile"),
        Kind::Word(Profile::NAMES),
        Fallback::Value("custom"),
        "custom, smoke, registry, ci or strict",
        |s, v| set(&mut s.profile, v.word()),
    ),
    flag(
        "config",
        None,
        Kind::Path("<file>"),
        Fallback::None,
        "a JSON config (this tool's, or a Claude Desktop / VS Code /\nCursor style mcpServers file with --server)",
        |s, v| set(&mut s.config_path, path_of(v)),
    ),
    flag(
        "server",
        None,
        Kind::Text("<name>"),
        Fallback::None,
        "the mcpServers/servers entry of --config to check",
        |s, v| set(&mut s.server, v.text().map(Some)),
    ),
    flag(
        "repeat",
        Some("repeat"),
        Kind::Number(words::REPEAT),
        Fallback::Value("1"),
        "n fresh runs (1 to 100), then drift between them",
        |s, v| set(&mut s.repeat, v.number(words::REPEAT)),
    ),
    scoped(
        flag(
            "robustness",
            Some("robustness"),
            Kind::Switch,
            Fallback::None,
            "call every tool with input its schema rejects (and tools\nsafe to run with valid input); findings per tool",
            |s, v| set(&mut s.robustness.on, v.switch()),
        ),
        CHECK,
    ),
    scoped(
        flag(
            "robustness-tool",
            Some("robustnessTools"),
            Kind::Text("<name>"),
            Fallback::None,
            "--robustness: also call this tool with valid input\n(repeatable)",
            |s, v| {
                if v.fresh {
                    s.robustness.tools.clear();
                }
                for name in v.texts()? {
                    if !s.robustness.tools.contains(&name) {
                        s.robustness.tools.push(name);
                    }
                }
                Ok(())
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "robustness-samples",
            Some("robustnessSamples"),
            Kind::Number(words::ROBUSTNESS_SAMPLES),
            Fallback::Value("4"),
            "--robustness: valid calls per tool (1 to 50)",
            |s, v| {
                set(
                    &mut s.robustness.samples,
                    v.number(words::ROBUSTNESS_SAMPLES),
                )
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "robustness-budget",
            Some("robustnessBudget"),
            Kind::Number(words::ROBUSTNESS_BUDGET),
            Fallback::Value("60000"),
            "--robustness: the whole phase's time, at most (ms)",
            |s, v| {
                set(
                    &mut s.robustness.budget_ms,
                    v.number(words::ROBUSTNESS_BUDGET),
                )
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "confine",
            Some("confine"),
            Kind::Word(Confine::NAMES),
            Fallback::Value("off"),
            "off, observe, enforce or require: record what the server\nopens, runs and connects to (seccomp), and deny what the\npolicy does not allow (Landlock)",
            |s, v| set(&mut s.confine.mode, v.word()),
        ),
        CHECK,
    ),
    scoped(
        flag(
            "confine-read",
            Some("confineRead"),
            Kind::Path("<path>"),
            Fallback::None,
            "--confine: the server may also read this tree (repeatable)",
            |s, v| {
                if v.fresh {
                    s.confine.read.clear();
                }
                s.confine.read.extend(v.paths()?);
                Ok(())
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "confine-write",
            Some("confineWrite"),
            Kind::Path("<path>"),
            Fallback::None,
            "--confine: the server may also write this tree (repeatable)",
            |s, v| {
                if v.fresh {
                    s.confine.write.clear();
                }
                s.confine.write.extend(v.paths()?);
                Ok(())
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "confine-exec",
            Some("confineExec"),
            Kind::Text("<program>"),
            Fallback::None,
            "--confine enforce: the server may also run this program\n(a name on PATH or a path; repeatable)",
            |s, v| {
                if v.fresh {
                    s.confine.exec.clear();
                }
                s.confine.exec.extend(v.texts()?);
                Ok(())
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "confine-connect",
            Some("confineConnect"),
            Kind::Text("<[udp:]host:port>"),
            Fallback::None,
            "--confine: the server may connect to this TCP address,\nor send datagrams to it with udp: (repeatable)",
            |s, v| {
                if v.fresh {
                    s.confine.connect.clear();
                }
                for text in v.texts()? {
                    match Endpoint::parse(&text) {
                        Some(e) => s.confine.connect.push(e),
                        None => {
                            return Err(v.bad(format!(
                                "'{text}' is not HOST:PORT or udp:HOST:PORT (for example 127.0.0.1:8080)"
                            )));
                        }
                    }
                }
                Ok(())
            },
        ),
        CHECK,
    ),
    scoped(
        flag(
            "seed",
            Some("seed"),
            Kind::Number(words::SEED),
            Fallback::Value("1"),
            "--robustness: the seed of the generated arguments",
            |s, v| set(&mut s.robustness.seed, v.number(words::SEED)),
        ),
        CHECK,
    ),
    sharing(
        flag(
            "adversarial-probe",
            None,
            Kind::Word(Probe::NAMES),
            Fallback::None,
            "opt into one probe: invalid-method, invalid-params,\nnotification, malformed-json, missing-meta,\nunsupported-version (repeatable)",
            |s, v| {
                if v.fresh {
                    s.adversarial.clear();
                }
                for p in probes_of(v)? {
                    if !s.adversarial.contains(&p) {
                        s.adversarial.push(p);
                    }
                }
                Ok(())
            },
        ),
        "adversarial",
    ),
    sharing(
        flag(
            "adversarial-probes",
            Some("adversarialProbes"),
            Kind::Word(words::PROBE_LIST_WORDS),
            Fallback::None,
            "a comma-separated list, all, or none",
            |s, v| set(&mut s.adversarial, probes_of(v)),
        ),
        "adversarial",
    ),
    scoped(
        flag(
            "json",
            Some("json"),
            Kind::Switch,
            Fallback::None,
            "print the JSON report (schemaVersion 1)",
            |s, v| set(&mut s.json, v.switch()),
        ),
        JSON_CMDS,
    ),
    flag(
        "protocol",
        Some("protocol"),
        Kind::Text("<version>"),
        Fallback::Value(DEFAULT_PROTOCOL),
        "MCP protocol version to request (YYYY-MM-DD)",
        |s, v| set(&mut s.protocol, protocol_of(v)),
    ),
    flag(
        "era",
        Some("era"),
        Kind::Word(Era::NAMES),
        Fallback::Value("auto"),
        "auto|legacy|modern|both: which protocol era to speak;\nauto probes server/discover (2026-07-28) and falls\nback to initialize (2025)",
        |s, v| set(&mut s.era, v.word()),
    ),
    flag(
        "era-window",
        Some("eraWindowMs"),
        Kind::Number(words::ERA_WINDOW_MS),
        Fallback::Value("2000"),
        "how long auto gives a server that read the discover probe\nand keeps working before it also sends initialize; where\nthe process cannot be watched, from the probe (50 to 10000)",
        |s, v| set(&mut s.era_window_ms, v.number(words::ERA_WINDOW_MS)),
    ),
    scoped(
        flag(
            "timeout",
            Some("timeoutMs"),
            Kind::Number(words::TIMEOUT_MS),
            Fallback::Value("5000"),
            "per-request timeout, 100 to 3600000 (wrap: a request unanswered\nthis long while the server runs is a hang)",
            |s, v| set(&mut s.timeout_ms, v.number(words::TIMEOUT_MS)),
        ),
        TIMED,
    ),
    flag(
        "startup-timeout",
        None,
        Kind::Number(words::TIMEOUT_MS),
        Fallback::Note("--timeout"),
        "spawn until the initialize response",
        |s, v| {
            set(
                &mut s.startup_timeout_ms,
                v.number(words::TIMEOUT_MS).map(Some),
            )
        },
    ),
    flag(
        "request",
        None,
        Kind::Text("<method>"),
        Fallback::None,
        "one request after initialization, e.g. tools/list (id 2)",
        |s, v| set(&mut s.request, method_of(v).map(Some)),
    ),
    flag(
        "params",
        None,
        Kind::Text("<json>"),
        Fallback::None,
        "params for --request (a JSON object or array)",
        |s, v| set(&mut s.params, params_of(v).map(Some)),
    ),
    flag(
        "cwd",
        Some("cwd"),
        Kind::Path("<path>"),
        Fallback::None,
        "run the server in this directory",
        |s, v| set(&mut s.cwd, path_of(v)),
    ),
    sharing(
        flag(
            "env",
            None,
            Kind::Text("<NAME[=VALUE]>"),
            Fallback::None,
            "forward NAME from this environment, or set NAME=VALUE for\nthe server (repeatable)",
            |s, v| {
                s.env.push(env_flag_of(v)?);
                Ok(())
            },
        ),
        "env",
    ),
    flag(
        "inherit-env",
        None,
        Kind::Switch,
        Fallback::None,
        "pass this whole environment (default: a fixed allow-list)",
        |s, v| set(&mut s.inherit_env, v.switch()),
    ),
    flag(
        "env-clear",
        None,
        Kind::Switch,
        Fallback::None,
        "pass only the variables named with --env: no allow-list,\nnot even PATH",
        |s, v| set(&mut s.env_clear, v.switch()),
    ),
    flag(
        "max-stdout-bytes",
        Some("maxStdoutBytes"),
        Kind::Number(words::STDOUT_BYTES),
        Fallback::Value("67108864"),
        "stop the run past this much stdout (64 MiB; at most 1 GiB)",
        |s, v| {
            set(
                &mut s.limits.max_stdout_bytes,
                v.number(words::STDOUT_BYTES),
            )
        },
    ),
    flag(
        "max-stdout-line-bytes",
        Some("maxStdoutLineBytes"),
        Kind::Number(words::LINE_BYTES),
        Fallback::Value("16777216"),
        "longest stdout line accepted (16 MiB; at most 256 MiB)",
        |s, v| {
            set(
                &mut s.limits.max_stdout_line_bytes,
                v.number(words::LINE_BYTES),
            )
        },
    ),
    flag(
        "max-stderr-bytes",
        Some("maxStderrBytes"),
        Kind::Number(words::STDERR_BYTES),
        Fallback::Value("1048576"),
        "stderr kept for the report, head and tail (at most 256 MiB)",
        |s, v| {
            set(
                &mut s.limits.max_stderr_bytes,
                v.number(words::STDERR_BYTES),
            )
        },
    ),
    flag(
        "settle",
        None,
        Kind::Number(words::WINDOW_MS),
        Fallback::Value("50"),
        "keep observing after the last response (at most 60000)",
        |s, v| set(&mut s.settle_ms, v.number(words::WINDOW_MS)),
    ),
    scoped(
        flag(
            "shutdown-grace",
            None,
            Kind::Number(words::WINDOW_MS),
            Fallback::Value("2000"),
            "wait after closing stdin, and after SIGTERM (at most 60000)",
            |s, v| set(&mut s.shutdown_grace_ms, v.number(words::WINDOW_MS)),
        ),
        TIMED,
    ),
    flag(
        "no-capability-probes",
        None,
        Kind::Switch,
        Fallback::None,
        "do not list the advertised tools, resources, resource\ntemplates and prompts (on by default, every page)",
        |s, v| set(&mut s.no_capability_probes, v.switch()),
    ),
    scoped(
        sharing(
            flag(
                "scan",
                Some("scan"),
                Kind::Path("<path>"),
                Fallback::None,
                "also scan this source directory or file for stdout\nwrites (repeatable); findings are warnings",
                |s, v| {
                    if v.fresh {
                        s.scan.clear();
                    }
                    {
                        s.scan.extend(v.paths()?);
                        Ok(())
                    }
                },
            ),
            "scan",
        ),
        &[Cmd::Check, Cmd::Tools, Cmd::Call, Cmd::Bench],
    ),
    sharing(
        field(
            "scanPath",
            "scan",
            "a path (or an array of paths) to scan, relative to the config file",
            |s, v| {
                if v.fresh {
                    s.scan.clear();
                }
                {
                    s.scan.extend(v.paths()?);
                    Ok(())
                }
            },
        ),
        "scan",
    ),
    flag(
        "fail-on-static",
        Some("failOnStatic"),
        Kind::Switch,
        Fallback::None,
        "make static findings errors",
        |s, v| set(&mut s.fail_on_static, v.switch()),
    ),
    scoped(
        flag(
            "output",
            None,
            Kind::Path("<file>"),
            Fallback::Value("-"),
            "write the report to this file instead of stdout (-)",
            |s, v| set(&mut s.output, v.path()),
        ),
        SESSION,
    ),
    flag(
        "evidence",
        None,
        Kind::Path("<file>"),
        Fallback::None,
        "append one JSON record of this run to the file",
        |s, v| set(&mut s.evidence, path_of(v)),
    ),
    flag(
        "against",
        None,
        Kind::Path("<file>"),
        Fallback::None,
        "compare with the newest record for this command in the\nfile; report drift (server version, protocol, tools)",
        |s, v| set(&mut s.against, path_of(v)),
    ),
    flag(
        "transcript",
        None,
        Kind::Path("<file>"),
        Fallback::None,
        "write every message (both ways) and stderr line as JSON\nlines, even when the run fails",
        |s, v| set(&mut s.transcript, path_of(v)),
    ),
];

/// The settings after the formats' flags, in `--help` order.
const TAIL: &[Setting] = &[
    flag(
        "expected-failures",
        Some("expectedFailures"),
        Kind::Path("<file>"),
        Fallback::None,
        "a baseline of known failures in the official conformance\nsuite's YAML form (scenario or scenario:check-id): they\npass; a new failure or a stale entry fails (exit 1)",
        |s, v| set(&mut s.expected_failures, path_of(v)),
    ),
    flag(
        "baseline",
        Some("baseline"),
        Kind::Path("<file>"),
        Fallback::None,
        "accepted findings (by code and subject, as --write-baseline\nwrites them): they are reported but fail nothing; a stale\nentry is reported",
        |s, v| set(&mut s.baseline, path_of(v)),
    ),
    flag(
        "context-budget",
        Some("contextBudget"),
        Kind::Number(words::CONTEXT_BUDGET),
        Fallback::Value("10000"),
        "tokens (estimated as bytes/4) the tools and instructions may\nadd to every prompt before context-budget-exceeded warns",
        |s, v| set(&mut s.context_budget, v.number(words::CONTEXT_BUDGET)),
    ),
    flag(
        "annotations",
        None,
        Kind::Word(Annotations::NAMES),
        Fallback::Value("auto"),
        "github or none: GitHub workflow commands on stderr and a\nMarkdown summary in GITHUB_STEP_SUMMARY (auto when\nGITHUB_ACTIONS=true)",
        |s, v| set(&mut s.annotations, v.word()),
    ),
    flag(
        "verbose",
        None,
        Kind::Switch,
        Fallback::None,
        "list every check in the text report, skipped ones with\ntheir reason",
        |s, v| set(&mut s.verbose, v.switch()),
    ),
    // The config file's own fields.
    sharing(
        field(
            "command",
            "command",
            "[\"node\", \"server.js\"], or a string with args: used when no command follows --",
            |s, v| set(&mut s.command, command_of(v)),
        ),
        "command",
    ),
    sharing(
        field(
            "args",
            "command",
            "arguments, only with a string command",
            |s, v| {
                s.command.extend(args_of(v)?);
                Ok(())
            },
        ),
        "args",
    ),
    sharing(
        field(
            "env",
            "env",
            "{NAME: value} set for the server (a --env for the same name wins)",
            |s, v| {
                s.env.extend(env_object_of(v)?);
                Ok(())
            },
        ),
        "env",
    ),
    sharing(
        field(
            "request",
            "requests",
            "one request after initialize: {method, params?}",
            |s, v| {
                s.requests.insert(0, request_of(v)?);
                Ok(())
            },
        ),
        "request",
    ),
    field(
        "requests",
        "requests",
        "more requests, run in order after request",
        |s, v| {
            let Json::Array(items) = v.json() else {
                return Err(v.bad("must be an array of {\"method\": ...}"));
            };
            for (i, item) in items.iter().enumerate() {
                s.requests.push(request_of(&v.at(&format!("[{i}]"), item))?);
            }
            Ok(())
        },
    ),
    field(
        "safeToolCalls",
        "safeToolCalls",
        "[{name, arguments}]: tools/call requests you declare safe",
        |s, v| set(&mut s.safe_tool_calls, tool_calls_of(v)),
    ),
    field(
        "adversarialToolCalls",
        "adversarialToolCalls",
        "[{name, arguments}]: calls with deliberately invalid arguments",
        |s, v| set(&mut s.adversarial_tool_calls, tool_calls_of(v)),
    ),
    field("$schema", "$schema", "ignored", |_, _| Ok(())),
    // `call`.
    scoped(
        flag(
            "arg",
            None,
            Kind::Text("<NAME=VALUE>"),
            Fallback::None,
            "call: one tool argument, typed from the tool's inputSchema",
            |s, v| {
                let pair = call_arg_of(v)?;
                call_spec(s).args.push(pair);
                Ok(())
            },
        ),
        CALL_ARGS,
    ),
    scoped(
        flag(
            "raw-args",
            None,
            Kind::Text("<json>"),
            Fallback::None,
            "call: send exactly this JSON as the arguments (any type), with\nno check against the tool's inputSchema (a robustness replay)",
            |s, v| match serde_json::from_str::<Json>(&v.text()?) {
                Ok(raw) => {
                    s.call.raw = Some(raw);
                    Ok(())
                }
                Err(e) => Err(v.hinted(
                    format!("must be valid JSON: {e}"),
                    "quote it for your shell",
                )),
            },
        ),
        &[Cmd::Call],
    ),
    scoped(
        flag(
            "args",
            None,
            Kind::Text("<json>"),
            Fallback::None,
            "call: a JSON object of arguments (--arg values win)",
            |s, v| {
                let map = call_args_of(v)?;
                call_spec(s).args_json = Some(map);
                Ok(())
            },
        ),
        CALL_ARGS,
    ),
    // `bench`.
    scoped(
        flag(
            "samples",
            None,
            Kind::Number(words::SAMPLES),
            Fallback::Value("5"),
            "bench: fresh processes for the cold start",
            |s, v| set(&mut s.bench.samples, v.number(words::SAMPLES)),
        ),
        BENCH,
    ),
    scoped(
        flag(
            "concurrency",
            None,
            Kind::Number(words::CONCURRENCY),
            Fallback::Value("8"),
            "bench: requests in flight in the burst",
            |s, v| set(&mut s.bench.concurrency, v.number(words::CONCURRENCY)),
        ),
        BENCH,
    ),
    scoped(
        flag(
            "requests",
            None,
            Kind::Number(words::BENCH_REQUESTS),
            Fallback::Value("2000"),
            "bench: the burst's requests, at most",
            |s, v| set(&mut s.bench.requests, v.number(words::BENCH_REQUESTS)),
        ),
        BENCH,
    ),
    scoped(
        flag(
            "duration",
            None,
            Kind::Number(words::BENCH_DURATION_S),
            Fallback::Value("10"),
            "bench: the burst's wall time, at most",
            |s, v| {
                set(
                    &mut s.bench.duration_ms,
                    v.number(words::BENCH_DURATION_S).map(|n| n * 1000),
                )
            },
        ),
        BENCH,
    ),
    scoped(
        flag(
            "method",
            None,
            Kind::Text("<method>"),
            Fallback::None,
            "bench: the burst's request (default: the liveness request)",
            |s, v| set(&mut s.bench.method, method_of(v).map(Some)),
        ),
        BENCH,
    ),
    scoped(
        flag(
            "tool",
            None,
            Kind::Text("<name>"),
            Fallback::None,
            "bench: time this tool (with --arg/--args)",
            |s, v| {
                let tool = v.text()?;
                s.bench.call.get_or_insert_with(CallSpec::default).tool = tool;
                Ok(())
            },
        ),
        BENCH,
    ),
    scoped(
        flag(
            "allow-side-effects",
            None,
            Kind::Switch,
            Fallback::None,
            "bench: call a tool not marked read-only; check --robustness:\ncall every tool, destructive ones too, with valid input",
            |s, v| {
                let on = v.switch()?;
                s.bench.allow_side_effects = on;
                s.robustness.allow_side_effects = on;
                Ok(())
            },
        ),
        SIDE_EFFECTS,
    ),
    // `batch`.
    scoped(
        flag(
            "jobs",
            None,
            Kind::Number(words::JOBS),
            Fallback::Note("the number of cores"),
            "batch, doctor: checks run at once",
            |s, v| set(&mut s.batch.jobs, v.number(words::JOBS).map(Some)),
        ),
        FLEET,
    ),
    scoped(
        flag(
            "shard",
            None,
            Kind::Text("<K/N|auto[/N]>"),
            Fallback::None,
            "batch: the K-th of N slices of the entries (auto: the\nKubernetes Indexed Job's JOB_COMPLETION_INDEX)",
            |s, v| set(&mut s.batch.shard, shard_of(v).map(Some)),
        ),
        BATCH,
    ),
    scoped(
        flag(
            "out",
            None,
            Kind::Path("<file>"),
            Fallback::None,
            "batch, doctor: each check's JSON report as one line, as it\nfinishes",
            |s, v| set(&mut s.batch.out, path_of(v)),
        ),
        FLEET,
    ),
    scoped(
        flag(
            "merge",
            None,
            Kind::Path("<file>"),
            Fallback::None,
            "batch: join earlier batches' --out files instead of running\n(repeatable; further operands are files too)",
            |s, v| {
                s.batch.merge.push(v.path()?);
                Ok(())
            },
        ),
        BATCH,
    ),
    scoped(
        flag(
            "badges",
            None,
            Kind::Path("<dir>"),
            Fallback::None,
            "batch, doctor: write one shields.io badge per server into\nthis directory (NAME.json)",
            |s, v| set(&mut s.batch.badges, path_of(v)),
        ),
        FLEET,
    ),
    scoped(
        flag(
            "summary",
            None,
            Kind::Path("<file>"),
            Fallback::None,
            "batch, doctor: a Markdown summary table",
            |s, v| set(&mut s.batch.summary, path_of(v)),
        ),
        FLEET,
    ),
    // `servers` and `doctor`.
    scoped(
        flag(
            "host",
            None,
            Kind::Text("<name>"),
            Fallback::Note("every host"),
            "servers, doctor: only this host's configs (repeatable;\nclaude-desktop, claude-code, cursor, vscode, windsurf,\ncline, gemini-cli, lm-studio, zed, codex, continue, goose)",
            |s, v| {
                s.batch.hosts.push(v.text()?);
                Ok(())
            },
        ),
        HOSTS,
    ),
    scoped(
        flag(
            "project",
            None,
            Kind::Path("<dir>"),
            Fallback::Note("the working directory"),
            "servers, doctor: look for project configs from this\ndirectory up to its repository root",
            |s, v| set(&mut s.batch.project, path_of(v)),
        ),
        HOSTS,
    ),
    // `wrap` and `log`.
    scoped(
        flag(
            "name",
            None,
            Kind::Text("<name>"),
            Fallback::Note("the server's script or program name"),
            "wrap: the server's name in the log directory",
            |s, v| set(&mut s.wrap.name, v.text().map(Some)),
        ),
        WRAP,
    ),
    scoped(
        flag(
            "log-dir",
            None,
            Kind::Path("<dir>"),
            Fallback::Note("the user's state directory"),
            "wrap, log: where session logs are kept (NAME/ under it)",
            |s, v| set(&mut s.wrap.log_dir, path_of(v)),
        ),
        &[Cmd::Wrap, Cmd::Log],
    ),
    scoped(
        flag(
            "log-content",
            None,
            Kind::Switch,
            Fallback::None,
            "wrap: log message contents too (scrubbed); by default only\nmethods, ids, sizes, timings and findings",
            |s, v| set(&mut s.wrap.content, v.switch()),
        ),
        WRAP,
    ),
    scoped(
        flag(
            "install",
            None,
            Kind::Text("<host:name>"),
            Fallback::None,
            "wrap: rewrite that entry of the host's config to run through\nwrap (a backup beside the file, the diff shown)",
            |s, v| set(&mut s.wrap.install, v.text().map(Some)),
        ),
        WRAP,
    ),
    scoped(
        flag(
            "uninstall",
            None,
            Kind::Text("<host:name>"),
            Fallback::None,
            "wrap: undo --install for that entry",
            |s, v| set(&mut s.wrap.uninstall, v.text().map(Some)),
        ),
        WRAP,
    ),
    scoped(
        flag(
            "fix",
            None,
            Kind::Switch,
            Fallback::None,
            "move every write that is a straight swap to stderr, in place\n(atomically per file), then scan again; exit 0 when none is left",
            |s, v| set(&mut s.scan_fix, v.switch()),
        ),
        SCAN,
    ),
    scoped(
        flag(
            "diff",
            None,
            Kind::Switch,
            Fallback::None,
            "print those edits as a unified diff (git apply form) after\nthe writes left, with why; changes no file",
            |s, v| set(&mut s.scan_diff, v.switch()),
        ),
        SCAN,
    ),
    // Every command.
    scoped(
        flag(
            "color",
            None,
            Kind::Word(ColorChoice::NAMES),
            Fallback::Value("auto"),
            "auto, always or never (NO_COLOR is honoured)",
            |s, v| set(&mut s.color, v.word()),
        ),
        COLOR_CMDS,
    ),
    scoped(
        flag(
            "junit-skipped",
            None,
            Kind::Switch,
            Fallback::None,
            "with --junit: list skipped checks as skipped testcases\n(left out by default)",
            |s, v| set(&mut s.junit_skipped, v.switch()),
        ),
        OUTPUTS,
    ),
    scoped(
        sharing(
            flag(
                "progress",
                None,
                Kind::Switch,
                Fallback::Note("on when stderr is a terminal"),
                "one updating status line on stderr (batch, doctor, bench, lint,\n--robustness, --repeat), even when stderr is no terminal",
                |s, v| set(&mut s.progress, v.switch().map(Some)),
            ),
            "progress",
        ),
        PROGRESS_CMDS,
    ),
    scoped(
        sharing(
            flag(
                "no-progress",
                None,
                Kind::Switch,
                Fallback::None,
                "no status line, even on a terminal",
                |s, v| set(&mut s.progress, v.switch().map(|on| Some(!on))),
            ),
            "progress",
        ),
        PROGRESS_CMDS,
    ),
];

/// The switches every command takes besides its settings.
pub const HELP_FLAGS: &[(&str, char, &str)] = &[
    ("help", 'h', "print this help"),
    ("version", 'V', "print the version"),
];

/// The setting a flag names.
pub fn by_flag(long: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.long == Some(long))
}

/// The setting a short flag names.
pub fn by_short(c: char) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.short == Some(c))
}

/// The setting a config field names.
pub fn by_key(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.key == Some(key))
}

/// Every config field, for suggestions.
pub fn keys() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().filter_map(|s| s.key)
}

/// What a profile presets, as flag values, applied before the config file.
pub fn preset(profile: Profile) -> &'static [(&'static str, &'static str)] {
    match profile {
        Profile::Custom => &[],
        Profile::Smoke => &[("no-capability-probes", "")],
        Profile::Registry => &[("repeat", "2"), ("robustness", ""), ("confine", "observe")],
        Profile::Ci => &[("json", ""), ("fail-on-static", "")],
        Profile::Strict => &[
            ("repeat", "2"),
            ("json", ""),
            ("fail-on-static", ""),
            ("adversarial-probes", "all"),
            ("era", "both"),
            ("robustness", ""),
        ],
    }
}

/// Applies one layer (a profile's presets, a config file, the command
/// line): each value in order, a list starting over at its first value in
/// the layer.
pub fn apply_layer(s: &mut Settings, layer: &[(&'static Setting, Value)]) -> Result<(), Problem> {
    let mut seen: Vec<&str> = Vec::new();
    for (setting, value) in layer {
        let mut value = value.clone();
        value.fresh = !seen.contains(&setting.field);
        seen.push(setting.field);
        (setting.apply)(s, &value)?;
    }
    Ok(())
}

/// The presets of a profile as a layer.
pub fn preset_layer(profile: Profile) -> Vec<(&'static Setting, Value)> {
    preset(profile)
        .iter()
        .filter_map(|(long, text)| {
            let setting = by_flag(long)?;
            Some((setting, Value::flag(setting, text)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_named_once_and_every_default_applies() {
        let mut flags: Vec<&str> = SETTINGS.iter().filter_map(|s| s.long).collect();
        // `--args` (call) and the config's `args` share a spelling but not
        // a syntax; every flag is one declaration.
        flags.sort_unstable();
        let before = flags.len();
        flags.dedup();
        assert_eq!(before, flags.len(), "a flag declared twice");
        let mut keys: Vec<&str> = keys().collect();
        keys.sort_unstable();
        let before = keys.len();
        keys.dedup();
        assert_eq!(before, keys.len(), "a config field declared twice");
        let s = Settings::defaults(Cmd::Check);
        assert_eq!(s.protocol, "2025-11-25");
        assert_eq!((s.timeout_ms, s.startup_timeout_ms()), (5000, 5000));
        assert_eq!(
            s.limits,
            Limits {
                max_stdout_bytes: 64 << 20,
                max_stdout_line_bytes: 16 << 20,
                max_stderr_bytes: 1_048_576
            }
        );
        assert_eq!((s.settle_ms, s.shutdown_grace_ms, s.repeat), (50, 2000, 1));
        assert!(!s.no_capability_probes && !s.json && !s.fail_on_static);
        assert_eq!(s.output, PathBuf::from("-"));
        assert_eq!((s.bench.samples, s.bench.concurrency), (5, 8));
    }

    #[test]
    fn every_preset_names_a_flag_that_applies() {
        for p in Profile::ALL {
            let mut s = Settings::defaults(Cmd::Check);
            assert_eq!(preset_layer(*p).len(), preset(*p).len(), "{p}");
            apply_layer(&mut s, &preset_layer(*p)).expect("preset applies");
        }
    }

    #[test]
    fn a_list_starts_over_in_a_new_layer_and_adds_within_one() {
        let probe = by_flag("adversarial-probe").expect("flag");
        let mut s = Settings::defaults(Cmd::Check);
        apply_layer(&mut s, &preset_layer(Profile::Strict)).expect("strict");
        assert_eq!(s.adversarial, Probe::ALL);
        let layer = vec![
            (probe, Value::flag(probe, "notification")),
            (probe, Value::flag(probe, "invalid-method")),
        ];
        apply_layer(&mut s, &layer).expect("flags");
        assert_eq!(s.adversarial, [Probe::Notification, Probe::InvalidMethod]);
    }
}
