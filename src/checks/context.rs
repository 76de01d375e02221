//! What the checks need to know about the run besides the transcript (the
//! argv, the environment, the limits, the protocol asked for, how the
//! session opened, the profile), and the one judgement the session asks
//! for while it runs (whether an initialize result is usable at all).

use crate::checks::initialize;
use crate::plan::Plan;

/// What the checks need to know about the run besides the transcript.
#[derive(Debug, Clone)]
pub struct Context {
    /// The server argv as given (program first).
    pub argv: Vec<String>,
    /// The server's environment (names and values), for the buffering check.
    pub env: Vec<(String, String)>,
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
    pub grace_ms: u64,
    /// The protocol version the guard requested.
    pub protocol: String,
    /// How the session opened (`--era`).
    pub opening: crate::plan::Opening,
    /// `--profile strict`: SHOULD-level warnings become errors.
    pub strict: bool,
    /// The guard's own environment sets PYTHONUNBUFFERED (which the
    /// allow-list does not pass on).
    pub parent_unbuffered: bool,
    /// `--context-budget`, in tokens.
    pub context_budget: u64,
    /// `--confine enforce` or `require`: refusals may be a failure's cause.
    pub confine_enforcing: bool,
}

impl Context {
    pub fn of(plan: &Plan) -> Context {
        let limits = plan.settings.limits;
        Context {
            argv: plan
                .settings
                .command
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            env: plan
                .launch
                .env
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string_lossy().into_owned(),
                        v.to_string_lossy().into_owned(),
                    )
                })
                .collect(),
            max_stdout_bytes: limits.max_stdout_bytes,
            max_stdout_line_bytes: limits.max_stdout_line_bytes,
            max_stderr_bytes: limits.max_stderr_bytes,
            grace_ms: plan.settings.shutdown_grace_ms,
            protocol: plan.settings.protocol.clone(),
            opening: plan.session.opening,
            strict: plan.settings.profile == crate::args::words::Profile::Strict,
            parent_unbuffered: std::env::var_os("PYTHONUNBUFFERED").is_some_and(|v| !v.is_empty()),
            context_budget: plan.settings.context_budget,
            confine_enforcing: plan.launch.confine.as_ref().is_some_and(|p| p.enforcing()),
        }
    }

    /// A context for examples and writer tests: the default limits and
    /// protocol, no argv or environment.
    pub fn for_examples() -> Context {
        Context {
            argv: vec![],
            env: vec![],
            max_stdout_bytes: 1 << 20,
            max_stdout_line_bytes: 256 << 10,
            max_stderr_bytes: 1 << 20,
            grace_ms: 2000,
            protocol: "2025-11-25".into(),
            opening: crate::plan::Opening::Legacy,
            strict: false,
            parent_unbuffered: false,
            context_budget: 10_000,
            confine_enforcing: false,
        }
    }

    /// A context for unit tests: small limits, the default protocol.
    #[cfg(test)]
    pub fn for_tests() -> Context {
        Context {
            argv: vec![],
            env: vec![],
            max_stdout_bytes: 1000,
            max_stdout_line_bytes: 100,
            max_stderr_bytes: 1000,
            grace_ms: 2000,
            protocol: "2025-11-25".into(),
            opening: crate::plan::Opening::Legacy,
            strict: false,
            parent_unbuffered: false,
            context_budget: 10_000,
            confine_enforcing: false,
        }
    }
}

/// The judgements the session asks for while it runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionRules;

impl crate::session::Rules for SessionRules {
    fn handshake_usable(&self, result: &serde_json::Value, requested: &str) -> bool {
        !initialize::blocks_handshake(result, requested)
    }

    fn failed_to_start(&self, stderr: &[u8]) -> bool {
        let said = crate::checks::said::read(&String::from_utf8_lossy(stderr));
        said.config || said.cause.is_some()
    }
}
