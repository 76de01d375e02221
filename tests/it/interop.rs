//! Interoperability with servers built on the official SDKs: the Python
//! SDK's FastMCP and the TypeScript SDK's McpServer. A clean server passes
//! with no issue, a server printing a banner fails with stdout-non-json, and
//! a server logging to stderr passes.
//!
//! The SDKs are installed into `.interop/` by `scripts/setup-interop.sh`
//! (`.ci/run` does it). Outside CI a missing install skips these tests with a
//! note; in CI (`CI` set) it fails them, so they can never be skipped there.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::util::{assert_no_survivors, guard, marker, run_with_deadline};

const DEADLINE: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

enum Sdk {
    Python,
    TypeScript,
}

fn check(sdk: Sdk, mode: &str) -> Option<crate::util::Run> {
    let m = marker(mode);
    let mut cmd = Command::new(guard());
    cmd.args(["--json", "--timeout", "20000", "--request", "tools/list"]);
    match sdk {
        Sdk::Python => {
            let python = crate::util::interop_path("venv/bin/python")?;
            cmd.args(["--env", "PYTHONUNBUFFERED=1", "--"])
                .arg(python)
                .arg(root().join("testdata/interop/py_server.py"));
        }
        Sdk::TypeScript => {
            crate::util::interop_path("node/node_modules/@modelcontextprotocol/sdk")?;
            let modules = root().join(".interop/node/node_modules");
            cmd.arg("--env")
                .arg(format!("NODE_PATH={}", modules.display()))
                .args(["--", "node"])
                .arg(root().join("testdata/interop/ts_server.cjs"));
        }
    }
    cmd.args([mode, &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    Some(run)
}

fn assert_clean(run: &crate::util::Run) {
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new(), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["summary"]["status"], "pass");
    assert_eq!(j["capabilityChecks"]["tools"]["itemCount"], 1);
    assert_eq!(j["process"]["shutdown"]["endedBy"], "stdin-close");
    // Every advertised list was probed and passed: a tool, a resource, a
    // resource template and a prompt.
    let caps = &j["checks"]["capabilities"];
    assert_eq!(caps["status"], "pass", "{caps}");
    for key in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert_eq!(caps[key]["status"], "pass", "{key}: {caps}");
        assert_eq!(j["capabilityChecks"][key]["itemCount"], 1, "{key}");
    }
    assert_eq!(
        j["toolSchema"]["toolNames"],
        serde_json::json!(["forecast"])
    );
    assert_eq!(j["checks"]["toolSchema"]["status"], "pass");
}

fn assert_banner_fails(run: &crate::util::Run) {
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let issue = run.issue("stdout-non-json");
    assert_eq!(issue["line"], 1);
    assert!(
        issue["message"]
            .as_str()
            .unwrap_or("")
            .contains("Starting weather server")
    );
}

#[test]
fn python_sdk_clean_server_passes() {
    if let Some(run) = check(Sdk::Python, "clean") {
        assert_clean(&run);
    }
}

#[test]
fn python_sdk_server_with_a_stdout_banner_fails() {
    if let Some(run) = check(Sdk::Python, "banner") {
        assert_banner_fails(&run);
    }
}

#[test]
fn python_sdk_server_logging_to_stderr_passes() {
    if let Some(run) = check(Sdk::Python, "stderr") {
        assert_clean(&run);
        assert!(
            run.json()["stderr"]
                .as_str()
                .unwrap_or("")
                .contains("starting weather server")
        );
    }
}

#[test]
fn typescript_sdk_clean_server_passes() {
    if let Some(run) = check(Sdk::TypeScript, "clean") {
        assert_clean(&run);
    }
}

#[test]
fn typescript_sdk_server_with_a_stdout_banner_fails() {
    if let Some(run) = check(Sdk::TypeScript, "banner") {
        assert_banner_fails(&run);
    }
}

#[test]
fn typescript_sdk_server_logging_to_stderr_passes() {
    if let Some(run) = check(Sdk::TypeScript, "stderr") {
        assert_clean(&run);
        assert!(
            run.json()["stderr"]
                .as_str()
                .unwrap_or("")
                .contains("starting weather server")
        );
    }
}
