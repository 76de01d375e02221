//! `--confine` (issue 30): a server that reads a private key, connects to
//! a loopback port, runs `/bin/true` and writes into the home directory is
//! refused each under enforce (the key's bytes reach no output) and
//! recorded with its phase under observe; a refusal that makes the server
//! fail is named as the cause; clean servers pass under enforce; the guard
//! confines as `nobody`; `require` refuses before spawning where the kernel
//! cannot enforce.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{
    DEADLINE, FAST, Run, assert_no_survivors, fake_server, guard, marker, run_with_deadline,
    temp_dir,
};

const KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----\nconfine-canary-key-5150\n";

/// Whether this kernel confines (Landlock and seccomp notification): the
/// confinement tests need it, and fail with the reason where it is missing
/// (a kernel older than 6.12, or one built without Landlock), never skip.
pub fn supported() -> bool {
    let mut cmd = Command::new(guard());
    cmd.args(["--confine", "require", "--json", "--"])
        .arg(fake_server())
        .args(["ok", &marker("confine-probe")]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert!(
        !(run.code == Some(2) && run.stderr.contains("cannot enforce")),
        "the confinement tests need Landlock (ABI 6, Linux 6.12) and seccomp user notification: {}",
        run.stderr.trim()
    );
    true
}

/// A home with a private key in it.
pub fn home_with_key(name: &str) -> PathBuf {
    let home = temp_dir(name);
    std::fs::create_dir_all(home.join(".ssh")).expect("ssh dir");
    std::fs::write(home.join(".ssh/id_rsa"), KEY).expect("key");
    home
}

/// The guard in `mode` against a `touch` scenario, `HOME` set to `home`
/// for the guard (whose credential list it is) and given to the server by
/// its absolute path. An `extra` of `text` asks for the text report.
fn touch(mode: &str, scenario: &str, home: &Path, extra: &[&str]) -> Run {
    let m = marker(scenario);
    let fake_home = format!("FAKE_HOME={}", home.display());
    let mut cmd = Command::new(guard());
    let text = extra.contains(&"text");
    let base = if text { &FAST[1..] } else { FAST };
    let extra: Vec<&str> = extra.iter().copied().filter(|a| *a != "text").collect();
    cmd.args(base)
        .args(["--confine", mode, "--env", &fake_home])
        .args(extra)
        .arg("--")
        .arg(fake_server())
        .args([scenario, &m])
        .env("HOME", home);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    run
}

fn events(j: &Value, kind: &str) -> Vec<Value> {
    j["confinement"]["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["kind"] == kind)
        .cloned()
        .collect()
}

#[test]
fn enforce_refuses_the_key_the_connection_the_program_and_the_write_and_says_each() {
    if !supported() {
        return;
    }
    let home = home_with_key("confine-enforce");
    let run = touch("enforce", "touch", &home, &[]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let j = run.json();
    let secret = run.issue("confine-secret-read");
    assert_eq!(secret["severity"], "error");
    assert_eq!(secret["class"], "security");
    assert_eq!(secret["denied"], true);
    assert_eq!(secret["phase"], "startup");
    assert!(
        secret["path"]
            .as_str()
            .unwrap_or("")
            .ends_with(".ssh/id_rsa")
    );
    let net = run.issue("confine-network");
    assert_eq!(net["address"], "127.0.0.1:9");
    assert_eq!(net["denied"], true);
    let write = run.issue("confine-write-outside");
    assert!(
        write["paths"][0]
            .as_str()
            .unwrap_or("")
            .ends_with("touched.txt")
    );
    let exec = events(&j, "exec");
    assert!(
        exec.iter()
            .any(|e| e["target"] == "/bin/true" && e["denied"] == true),
        "{exec:?}"
    );
    assert!(
        !home.join("touched.txt").exists(),
        "the write was not refused"
    );
    // The server says what it could not do, and never had the key.
    let stderr = j["stderr"].as_str().unwrap_or("");
    for refused in [
        "key refused",
        "connect failed",
        "exec refused",
        "write refused",
    ] {
        assert!(stderr.contains(refused), "{refused}: {stderr}");
    }
    assert!(!run.stdout.contains("confine-canary-key"), "{}", run.stdout);
    assert_eq!(j["confinement"]["mode"], "enforce");
    assert!(
        j["confinement"]["landlockAbi"]
            .as_u64()
            .is_some_and(|a| a >= 1)
    );
    assert!(
        j["confinement"]["notifications"]
            .as_u64()
            .is_some_and(|n| n > 0)
    );
    assert_eq!(j["checks"]["confinement"]["status"], "fail");
    // The text report never shows the key either.
    let text = touch("enforce", "touch", &home, &["text"]);
    assert!(
        !text.stdout.contains("confine-canary-key"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("confinement: enforce"),
        "{}",
        text.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn observe_denies_nothing_and_records_the_same_with_its_phase() {
    if !supported() {
        return;
    }
    let home = home_with_key("confine-observe");
    let run = touch("observe", "touch", &home, &[]);
    let j = run.json();
    let stderr = j["stderr"].as_str().unwrap_or("");
    for done in ["key read", "exec ran", "write done"] {
        assert!(stderr.contains(done), "{done}: {stderr}");
    }
    assert!(home.join("touched.txt").exists());
    let secret = run.issue("confine-secret-read");
    assert_eq!(secret["denied"], false);
    assert_eq!(secret["phase"], "startup");
    assert_eq!(run.issue("confine-network")["denied"], false);
    run.issue("confine-write-outside");
    let programs = j["confinement"]["programs"].as_array().expect("programs");
    assert!(programs.iter().any(|p| p == "/bin/true"), "{programs:?}");
    assert!(
        j["confinement"]["events"]
            .as_array()
            .expect("events")
            .iter()
            .all(|e| e["denied"] == false && e["phase"].is_string())
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_refusal_that_makes_the_server_fail_is_named_as_the_cause() {
    if !supported() {
        return;
    }
    let home = home_with_key("confine-cause");
    let run = touch("enforce", "touch-fail", &home, &[]);
    assert_eq!(run.code, Some(1));
    let codes = run.codes();
    assert_eq!(codes[0], "confine-denied", "{codes:?}");
    assert!(!codes.contains(&"server-exited".to_string()), "{codes:?}");
    let root = run.issue("confine-denied");
    assert!(
        root["consequences"][0]
            .as_str()
            .unwrap_or("")
            .starts_with("server-exited"),
        "{root}"
    );
    assert!(
        root["message"].as_str().unwrap_or("").contains("id_rsa"),
        "{root}"
    );
    // Under observe nothing is refused: no denial to blame.
    let observed = touch("observe", "touch-fail", &home, &[]);
    assert!(!observed.codes().contains(&"confine-denied".to_string()));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn clean_servers_pass_under_enforce_with_no_finding() {
    if !supported() {
        return;
    }
    for scenario in ["ok", "stderr-log", "catalog-full", "flood-stderr"] {
        let m = marker(scenario);
        let mut cmd = Command::new(guard());
        cmd.args(FAST)
            .args(["--confine", "enforce", "--"])
            .arg(fake_server())
            .args([scenario, &m]);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        assert_eq!(run.code, Some(0), "{scenario}: {}", run.stdout);
        let j = run.json();
        assert_eq!(j["checks"]["confinement"]["status"], "pass", "{scenario}");
        assert!(
            !j["issues"]
                .as_array()
                .expect("issues")
                .iter()
                .any(|i| i["class"] == "security"),
            "{scenario}: {}",
            run.stdout
        );
    }
}

#[test]
fn the_guard_confines_as_an_unprivileged_user() {
    if !supported() {
        return;
    }
    if !crate::hostile::can_become_nobody() {
        panic!("this test runs the guard as nobody: it needs root and setpriv (util-linux)");
    }
    let m = marker("confine-nobody");
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
        .arg(guard())
        .args(FAST)
        .args(["--confine", "enforce", "--"])
        .arg(fake_server())
        .args(["touch", &m])
        .env("HOME", "/tmp");
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    let j = run.json();
    assert_eq!(j["confinement"]["mode"], "enforce");
    assert!(
        j["confinement"]["problem"].is_null(),
        "{}",
        j["confinement"]
    );
    let net = run.issue("confine-network");
    assert_eq!(net["denied"], true);
    assert!(
        events(&j, "exec")
            .iter()
            .any(|e| e["target"] == "/bin/true" && e["denied"] == true)
    );
}

#[test]
fn confinement_is_off_by_default_and_on_to_observe_in_the_registry_profile() {
    let m = marker("confine-default");
    let mut cmd = Command::new(guard());
    cmd.args(FAST).arg("--").arg(fake_server()).args(["ok", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    let j = run.json();
    assert!(j.get("confinement").is_none());
    assert_eq!(j["checks"]["confinement"]["status"], "skipped");
    let mut cmd = Command::new(guard());
    cmd.args(["--profile", "registry"])
        .args(FAST)
        .args(["--repeat", "1", "--"])
        .arg(fake_server())
        .args(["ok", &m]);
    let run = run_with_deadline(cmd, Duration::from_secs(60));
    assert_no_survivors(&m);
    assert_eq!(run.json()["confinement"]["mode"], "observe");
}

use std::time::Duration;
