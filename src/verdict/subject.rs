//! What a report is about, as plain data: the command as shown (secrets
//! redacted), the settings the run used, the config file and what it
//! supplied, the server's environment (names only), the working directory
//! and the machine. Taken once from the plan and the command's own look
//! around (the directory, the host, the package, the runtimes), so writers
//! never read the plan and a test can make one by hand.

use serde_json::Value;

use crate::args::settings::Limits;
use crate::args::words::{Era, Profile};
use crate::plan::{EnvironmentReport, Plan};

/// The 1.0 `config` block: which config file, and what it supplied.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfigView {
    /// The path as given, and absolute.
    pub path: String,
    pub resolved: String,
    pub command: bool,
    pub cwd: bool,
    /// Sorted.
    pub env_names: Vec<String>,
    pub requests: Vec<String>,
    pub safe_tool_calls: Vec<String>,
    pub adversarial_probes: Vec<&'static str>,
    pub adversarial_tool_calls: Vec<String>,
    /// The client config's entry (`mcpServers`), when one was read.
    pub server: Option<String>,
}

/// The working directory: as asked, as resolved, and whether it exists.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CwdView {
    pub requested: String,
    pub resolved: String,
    pub exists: bool,
}

/// The machine the guard ran on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Host {
    pub name: String,
    pub platform: &'static str,
    pub arch: &'static str,
    pub os_release: String,
}

/// Everything a writer needs to know besides the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// `check`, `tools`, `call` or `bench`.
    pub mode: &'static str,
    /// The server argv as shown: secret values redacted.
    pub command: Vec<String>,
    pub profile: Profile,
    /// The version requested in `initialize`.
    pub protocol: String,
    pub era_mode: Era,
    pub timeout_ms: u64,
    pub limits: Limits,
    /// `--repeat` as set.
    pub repeat: u64,
    pub capability_probes: bool,
    /// Adversarial probes were asked for.
    pub adversarial: bool,
    pub fail_on_static: bool,
    pub config: Option<ConfigView>,
    pub environment: EnvironmentReport,
    /// Names given with `--env` (or the config's `env`), sorted.
    pub explicit_env: Vec<String>,
    pub inherit_env: bool,
    pub cwd: CwdView,
    pub host: Host,
    /// The fingerprint's package and runtimes.
    pub package: Value,
    pub runtimes: Value,
}

impl Subject {
    /// The subject of a plan; `cwd`, `host`, `package` and `runtimes` are
    /// what the command found around it.
    pub fn of(plan: &Plan, cwd: CwdView, host: Host, package: Value, runtimes: Value) -> Subject {
        let s = &plan.settings;
        Subject {
            mode: s.cmd.name(),
            command: plan.shown_argv.clone(),
            profile: s.profile,
            protocol: s.protocol.clone(),
            era_mode: s.era,
            timeout_ms: s.timeout_ms,
            limits: s.limits,
            repeat: s.repeat,
            capability_probes: plan.session.capability_probes,
            adversarial: !plan.session.adversarial.is_empty(),
            fail_on_static: s.fail_on_static,
            config: s.config.as_ref().map(|c| ConfigView {
                path: c.path.clone(),
                resolved: c.resolved.display().to_string(),
                command: c.supplied.command,
                cwd: c.supplied.cwd,
                env_names: c.supplied.env_names.clone(),
                requests: c.supplied.requests.clone(),
                safe_tool_calls: c.supplied.safe_tool_calls.clone(),
                adversarial_probes: c.supplied.adversarial_probes.clone(),
                adversarial_tool_calls: c.supplied.adversarial_tool_calls.clone(),
                server: c.server.clone(),
            }),
            environment: plan.environment.clone(),
            explicit_env: plan.explicit_env.clone(),
            inherit_env: s.inherit_env,
            cwd,
            host,
            package,
            runtimes,
        }
    }

    /// A subject for writer tests: a plain check of `node server.js`.
    pub fn example() -> Subject {
        Subject {
            mode: "check",
            command: vec!["node".into(), "server.js".into()],
            profile: Profile::Custom,
            protocol: "2025-11-25".into(),
            era_mode: Era::Auto,
            timeout_ms: 5000,
            limits: Limits {
                max_stdout_bytes: 1 << 20,
                max_stdout_line_bytes: 256 << 10,
                max_stderr_bytes: 1 << 20,
            },
            repeat: 1,
            capability_probes: true,
            adversarial: false,
            fail_on_static: false,
            config: None,
            environment: EnvironmentReport {
                mode: "allow-list",
                names: vec!["HOME".into(), "PATH".into()],
                set: Vec::new(),
                forwarded: Vec::new(),
                missing: Vec::new(),
            },
            explicit_env: Vec::new(),
            inherit_env: false,
            cwd: CwdView {
                requested: "/srv".into(),
                resolved: "/srv".into(),
                exists: true,
            },
            host: Host {
                name: "ci-runner".into(),
                platform: "linux",
                arch: "x86_64",
                os_release: "6.1.0".into(),
            },
            package: Value::Null,
            runtimes: Value::Object(Default::default()),
        }
    }
}
