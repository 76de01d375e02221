//! The hostile round 4 (issue 37): each way out of `--confine` a server
//! tried, written as a fake-server scenario (`attack-*`,
//! `examples/fake_server/attacks.rs`), held against what really happened
//! (datagrams a listener received, file modes, the key's bytes): refused
//! under enforce with its finding and phase, recorded under observe where
//! it still happens. Also: a kernel without Landlock (`no_landlock`), the
//! robustness probe's own sessions, a probe that calls no tool not
//! annotated read-only, and servers launched through version managers.

use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::confine::{home_with_key, supported};
use crate::util::{
    DEADLINE, FAST, Run, assert_no_survivors, fake_server, guard, marker, run_with_deadline,
    temp_dir,
};

/// A loopback UDP listener standing in for whatever a datagram reaches.
fn listener() -> (UdpSocket, u16) {
    let sock = UdpSocket::bind("127.0.0.1:0").expect("udp listener");
    sock.set_nonblocking(true).expect("nonblocking");
    let port = sock.local_addr().expect("addr").port();
    (sock, port)
}

/// Datagrams the listener holds (the guard has returned: every one sent
/// is there).
fn received(sock: &UdpSocket) -> usize {
    let mut buf = [0u8; 64];
    let mut n = 0;
    while sock.recv(&mut buf).is_ok() {
        n += 1;
    }
    n
}

/// The no_landlock wrapper built from `examples/no_landlock.rs`.
fn no_landlock() -> PathBuf {
    fake_server().with_file_name(format!("no_landlock{}", std::env::consts::EXE_SUFFIX))
}

struct Attack<'a> {
    scenario: &'a str,
    mode: &'a str,
    home: &'a Path,
    env: Vec<String>,
    extra: Vec<&'a str>,
    /// Run the guard under `no_landlock`.
    without_landlock: bool,
    cwd: Option<&'a Path>,
}

impl<'a> Attack<'a> {
    fn new(scenario: &'a str, mode: &'a str, home: &'a Path) -> Attack<'a> {
        Attack {
            scenario,
            mode,
            home,
            env: Vec::new(),
            extra: Vec::new(),
            without_landlock: false,
            cwd: None,
        }
    }

    fn env(mut self, pair: String) -> Self {
        self.env.push(pair);
        self
    }

    fn run(&self) -> Run {
        let m = marker(self.scenario);
        let mut cmd = if self.without_landlock {
            let mut c = Command::new(no_landlock());
            c.arg(guard());
            c
        } else {
            Command::new(guard())
        };
        cmd.args(FAST)
            .args(["--confine", self.mode])
            .args(["--env", &format!("FAKE_HOME={}", self.home.display())]);
        for e in &self.env {
            cmd.args(["--env", e]);
        }
        cmd.args(&self.extra)
            .arg("--")
            .arg(fake_server())
            .args([self.scenario, &m])
            .env("HOME", self.home);
        if let Some(dir) = self.cwd {
            cmd.current_dir(dir);
        }
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        run
    }
}

/// What the server said of its attack.
fn said(run: &Run, scenario: &str) -> String {
    let j = run.json();
    let name = scenario.trim_start_matches("attack-");
    j["stderr"]
        .as_str()
        .unwrap_or("")
        .lines()
        .find_map(|l| l.strip_prefix(&format!("attack: {name} ")))
        .map(String::from)
        .unwrap_or_else(|| panic!("no attack line: {}", run.stdout))
}

/// The security issues of `code`.
fn issues(run: &Run, code: &str) -> Vec<Value> {
    run.json()["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter(|i| i["code"] == code)
        .cloned()
        .collect()
}

#[test]
fn every_datagram_attack_is_refused_under_enforce_and_recorded_under_observe() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-udp");
    for scenario in [
        "attack-unspec",
        "attack-handoff",
        "attack-sendmmsg",
        "attack-race",
    ] {
        let (sock, port) = listener();
        let run = Attack::new(scenario, "enforce", &home)
            .env(format!("FAKE_PORT={port}"))
            .run();
        assert!(said(&run, scenario).starts_with("refused"), "{scenario}");
        assert_eq!(received(&sock), 0, "{scenario}: a datagram got out");
        let net = issues(&run, "confine-network");
        assert!(
            net.iter().any(|i| i["denied"] == true
                && i["phase"] == "startup"
                && i["address"].as_str().unwrap_or("").contains("UDP")),
            "{scenario}: {net:?}"
        );

        let (sock, port) = listener();
        let run = Attack::new(scenario, "observe", &home)
            .env(format!("FAKE_PORT={port}"))
            .run();
        assert!(said(&run, scenario).starts_with("done"), "{scenario}");
        assert!(received(&sock) > 0, "{scenario}: nothing was delivered");
        let to = format!("127.0.0.1:{port}");
        let net = issues(&run, "confine-network");
        assert!(
            net.iter()
                .any(|i| i["address"] == to.as_str() && i["denied"] == false),
            "{scenario}: {to} not recorded in {net:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn an_allowed_udp_destination_does_not_carry_a_refused_one() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-udp-allowed");
    let (allowed_sock, allowed) = listener();
    let (sock, port) = listener();
    let mut attack = Attack::new("attack-sendmmsg", "enforce", &home)
        .env(format!("FAKE_PORT={port}"))
        .env(format!("FAKE_ALLOWED_PORT={allowed}"));
    let entry = format!("udp:127.0.0.1:{allowed}");
    attack.extra = vec!["--confine-connect", &entry];
    let run = attack.run();
    assert!(said(&run, "attack-sendmmsg").starts_with("refused"));
    assert_eq!(received(&sock), 0, "the second message got out");
    assert_eq!(received(&allowed_sock), 0, "the call was refused whole");
    let to = format!("127.0.0.1:{port}");
    assert!(
        issues(&run, "confine-network")
            .iter()
            .any(|i| i["address"] == to.as_str() && i["denied"] == true)
    );
    // The race on a datagram's address is the supervisor's to lose, and
    // the report says so rather than claim it.
    let j = run.json();
    let limits = j["confinement"]["limits"].to_string();
    assert!(limits.contains("the address of each datagram"), "{limits}");
    let enforced = j["confinement"]["enforced"].to_string();
    assert!(enforced.contains("and UDP"), "{enforced}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn another_programs_named_socket_is_refused_and_a_vsock_socket_too() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-agent");
    let dir = temp_dir("escape-agent-sock");
    let path = dir.join("agent.sock");
    let agent = std::os::unix::net::UnixListener::bind(&path).expect("agent socket");
    agent.set_nonblocking(true).expect("nonblocking");
    let sock_env = format!("FAKE_SOCK={}", path.display());
    let run = Attack::new("attack-agent", "enforce", &home)
        .env(sock_env.clone())
        .run();
    assert!(said(&run, "attack-agent").starts_with("refused"));
    assert!(agent.accept().is_err(), "the agent was reached");
    let target = format!("unix:{}", path.display());
    let net = issues(&run, "confine-network");
    assert!(
        net.iter().any(|i| i["address"] == target.as_str()
            && i["denied"] == true
            && i["phase"] == "startup"),
        "{net:?}"
    );
    let run = Attack::new("attack-agent", "observe", &home)
        .env(sock_env)
        .run();
    assert!(said(&run, "attack-agent").starts_with("done"));
    assert!(agent.accept().is_ok(), "observe refused the agent");
    assert!(
        issues(&run, "confine-network")
            .iter()
            .any(|i| i["address"] == target.as_str() && i["denied"] == false)
    );

    let run = Attack::new("attack-vsock", "enforce", &home).run();
    assert!(said(&run, "attack-vsock").starts_with("refused"));
    assert!(
        issues(&run, "confine-network").iter().any(|i| i["address"]
            .as_str()
            .unwrap_or("")
            .contains("AF_VSOCK")
            && i["denied"] == true)
    );
    let run = Attack::new("attack-vsock", "observe", &home).run();
    assert!(
        issues(&run, "confine-network").iter().any(|i| i["address"]
            .as_str()
            .unwrap_or("")
            .contains("AF_VSOCK")
            && i["denied"] == false)
    );
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .expect("meta")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn metadata_and_nodes_outside_the_write_trees_are_refused_and_recorded() {
    if !supported() {
        return;
    }
    for (mode_name, without_landlock) in [("enforce", false), ("enforce", true), ("observe", false)]
    {
        let home = home_with_key(&format!("escape-meta-{without_landlock}"));
        let key = home.join(".ssh/id_rsa");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("mode");
            std::fs::set_permissions(home.join(".ssh"), std::fs::Permissions::from_mode(0o700))
                .expect("mode");
        }
        let mut attack = Attack::new("attack-metadata", mode_name, &home);
        attack.without_landlock = without_landlock;
        let run = attack.run();
        let line = said(&run, "attack-metadata");
        let write = issues(&run, "confine-write-outside");
        let paths = write
            .first()
            .map(|w| w["paths"].to_string())
            .unwrap_or_default();
        for planted in [
            ".ssh/id_rsa",
            "planted-link",
            "planted-fifo",
            "planted-sock",
        ] {
            assert!(paths.contains(planted), "{mode_name}: {planted} in {paths}");
        }
        if mode_name == "enforce" {
            assert!(!line.contains("=done"), "{without_landlock}: {line}");
            assert_eq!(mode(&key), 0o600);
            assert_eq!(mode(&home.join(".ssh")), 0o700);
            assert!(!home.join("planted-link").exists());
            assert!(!home.join("planted-fifo").exists());
            assert!(
                write[0]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("(refused)")
            );
        } else {
            assert!(!line.contains("=refused"), "{line}");
            assert_eq!(mode(&key), 0o644);
        }
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn a_program_run_from_a_memfd_is_refused_and_named() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-memfd");
    let run = Attack::new("attack-memfd", "enforce", &home).run();
    assert_eq!(
        said(&run, "attack-memfd"),
        "execveat=refused proc-path=refused"
    );
    let hidden = issues(&run, "confine-hidden-exec");
    assert!(
        hidden.iter().all(|i| i["denied"] == true)
            && hidden.iter().any(|i| i["program"]
                .as_str()
                .unwrap_or("")
                .contains("memfd:payload")),
        "{hidden:?}"
    );
    let run = Attack::new("attack-memfd", "observe", &home).run();
    assert_eq!(said(&run, "attack-memfd"), "execveat=done proc-path=done");
    assert!(
        issues(&run, "confine-hidden-exec")
            .iter()
            .any(|i| i["denied"] == false)
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_hard_link_to_the_key_is_the_key() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-link");
    for without_landlock in [false, true] {
        let mut attack = Attack::new("attack-hardlink", "enforce", &home);
        attack.without_landlock = without_landlock;
        let run = attack.run();
        assert!(
            said(&run, "attack-hardlink").starts_with("refused"),
            "{without_landlock}"
        );
        assert_eq!(run.json()["ok"], false);
        assert!(!run.stdout.contains("confine-canary-key"));
        assert!(
            issues(&run, "confine-secret-read")
                .iter()
                .all(|i| i["denied"] == true)
        );
    }
    let run = Attack::new("attack-hardlink", "observe", &home).run();
    assert!(said(&run, "attack-hardlink").starts_with("read through a link"));
    let secret = issues(&run, "confine-secret-read");
    // The link's own path, known by its inode.
    assert!(
        secret
            .iter()
            .any(|i| !i["path"].as_str().unwrap_or("").contains(".ssh")),
        "{secret:?}"
    );

    // A link that was there before the run, inside a tree the server may
    // read (its working directory), under both kernels.
    let project = temp_dir("escape-link-project");
    std::fs::create_dir_all(project.join("alt/.ssh")).expect("dir");
    std::fs::hard_link(home.join(".ssh/id_rsa"), project.join("alt/.ssh/id_rsa")).expect("link");
    for without_landlock in [false, true] {
        let alt = project.join("alt");
        let mut attack = Attack::new("touch", "enforce", &alt);
        attack.without_landlock = without_landlock;
        attack.cwd = Some(&project);
        // The guard's own HOME stays the real home with the key.
        let m = marker("escape-link-touch");
        let mut cmd = if without_landlock {
            let mut c = Command::new(no_landlock());
            c.arg(guard());
            c
        } else {
            Command::new(guard())
        };
        cmd.args(FAST)
            .args(["--confine", "enforce", "--env"])
            .arg(format!("FAKE_HOME={}", alt.display()))
            .arg("--")
            .arg(fake_server())
            .args(["touch", &m])
            .env("HOME", &home)
            .current_dir(&project);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        let j = run.json();
        assert!(
            j["stderr"].as_str().unwrap_or("").contains("key refused"),
            "{without_landlock}: {}",
            j["stderr"]
        );
        assert!(!run.stdout.contains("confine-canary-key"));
        assert_eq!(j["ok"], false);
    }
    let _ = std::fs::remove_dir_all(&project);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn without_landlock_the_report_claims_only_what_the_kernel_holds() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-nolandlock");
    let mut attack = Attack::new("ok", "enforce", &home);
    attack.without_landlock = true;
    let run = attack.run();
    let c = &run.json()["confinement"];
    assert_eq!(c["landlockAbi"], 0);
    let enforced = c["enforced"].to_string();
    assert!(!enforced.contains("files:"), "{enforced}");
    assert!(!enforced.contains("credential"), "{enforced}");
    assert!(enforced.contains("seccomp filter"), "{enforced}");
    assert!(c["notEnforced"].to_string().contains("Landlock"));
    let limits = c["limits"].to_string();
    assert!(limits.contains("by inode"), "{limits}");
    assert!(limits.contains("no Landlock"), "{limits}");
    // require still refuses before starting anything.
    let m = marker("escape-require");
    let mut cmd = Command::new(no_landlock());
    cmd.arg(guard())
        .args(["--json", "--confine", "require", "--"])
        .arg(fake_server())
        .args(["ok", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert_no_survivors(&m);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("cannot enforce"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&home);
}

/// `--robustness` with `key=value` environment and mode.
fn probe(scenario: &str, mode: &str, home: &Path, extra: &[&str], cwd: &Path) -> Run {
    let m = marker(scenario);
    let mut cmd = Command::new(guard());
    cmd.args(FAST)
        .args(["--robustness", "--confine", mode, "--env"])
        .arg(format!("FAKE_HOME={}", home.display()))
        .args(extra)
        .arg("--")
        .arg(fake_server())
        .args([scenario, &m])
        .env("HOME", home)
        .current_dir(cwd);
    let run = run_with_deadline(cmd, Duration::from_secs(60));
    assert_no_survivors(&m);
    run
}

#[test]
fn the_probes_sessions_and_restarts_are_confined_and_reported() {
    if !supported() {
        return;
    }
    let home = home_with_key("escape-probe");
    let cwd = temp_dir("escape-probe-cwd");
    std::fs::write(home.join("victim.txt"), "keep").expect("victim");
    let run = probe("robust-snoop", "enforce", &home, &[], &cwd);
    let j = run.json();
    assert!(j["robustness"]["restarts"].as_u64().unwrap_or(0) >= 1);
    assert!(
        home.join("victim.txt").exists(),
        "the probe's session deleted it"
    );
    let secret = issues(&run, "confine-secret-read");
    assert!(
        secret
            .iter()
            .any(|i| i["phase"] == "tools/call lookup" && i["denied"] == true),
        "{secret:?}"
    );
    let write = issues(&run, "confine-write-outside");
    assert!(
        write.iter().any(|i| i["phase"] == "tools/call lookup"),
        "{write:?}"
    );
    // lookup is annotated read-only: what it did during its call says
    // otherwise.
    let contradict = issues(&run, "tool-annotations-contradict");
    assert!(
        contradict
            .iter()
            .any(|i| i["toolName"] == "lookup" && i["event"] == "write-outside"),
        "{contradict:?}"
    );
    let events = j["confinement"]["events"].as_array().expect("events");
    assert!(
        events
            .iter()
            .any(|e| e["kind"] == "secret-read" && e["phase"] == "tools/call lookup")
    );
    let run = probe("robust-snoop", "observe", &home, &[], &cwd);
    assert!(!home.join("victim.txt").exists());
    assert!(
        issues(&run, "confine-secret-read")
            .iter()
            .any(|i| i["phase"] == "tools/call lookup" && i["denied"] == false)
    );
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&cwd);
}

#[test]
fn the_probe_calls_no_tool_that_is_not_annotated_read_only_unless_named() {
    let dir = temp_dir("escape-writer");
    let log = dir.join("calls.log");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).expect("work");
    let log_env = format!("FAKE_WRITE_LOG={}", log.display());
    let run_it = |extra: &[&str]| {
        let m = marker("escape-writer");
        let mut cmd = Command::new(guard());
        cmd.args(FAST)
            .args(["--robustness", "--env", &log_env])
            .args(extra)
            .arg("--")
            .arg(fake_server())
            .args(["robust-writer", &m])
            .current_dir(&work);
        let run = run_with_deadline(cmd, Duration::from_secs(60));
        assert_no_survivors(&m);
        run
    };
    let run = run_it(&[]);
    assert!(!log.exists(), "write_file was called");
    assert_eq!(
        std::fs::read_dir(&work).expect("work").count(),
        0,
        "a file was written"
    );
    let j = run.json();
    let not_called = j["robustness"]["notCalled"].as_array().expect("notCalled");
    let why = not_called
        .iter()
        .find(|n| n["tool"] == "write_file")
        .map(|n| n["reason"].as_str().unwrap_or("").to_string())
        .unwrap_or_default();
    assert!(
        why.contains("readOnlyHint") && why.contains("--robustness-tool"),
        "{why}"
    );
    let run = run_it(&["--robustness-tool", "write_file"]);
    assert!(
        log.exists(),
        "write_file named and not called: {}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake home whose `python3` is a pyenv shim and whose `node` is nvm's.
fn version_managers(name: &str) -> PathBuf {
    let home = temp_dir(name);
    let python = real_python();
    let node = which("node");
    let pyenv = home.join(".pyenv");
    for dir in ["shims", "libexec", "versions/3.11.7/bin"] {
        std::fs::create_dir_all(pyenv.join(dir)).expect("pyenv tree");
    }
    std::fs::write(pyenv.join("version"), "3.11.7\n").expect("version");
    // As `pyenv rehash` writes a shim: the root spelled out.
    write_exec(
        &pyenv.join("shims/python3"),
        &format!(
            "#!/usr/bin/env bash\nset -e\nprogram=\"${{0##*/}}\"\nexport PYENV_ROOT=\"{root}\"\nexec \"{root}/libexec/pyenv\" exec \"$program\" \"$@\"\n",
            root = pyenv.display()
        ),
    );
    write_exec(
        &pyenv.join("libexec/pyenv"),
        "#!/usr/bin/env bash\nset -e\n[ \"$1\" = exec ] || exit 1\nshift\nprogram=\"$1\"; shift\nversion=\"$(cat \"$PYENV_ROOT/version\")\"\nexec \"$PYENV_ROOT/versions/$version/bin/$program\" \"$@\"\n",
    );
    symlink(&python, &pyenv.join("versions/3.11.7/bin/python3"));
    let nvm = home.join(".nvm/versions/node/v20.20.2/bin");
    std::fs::create_dir_all(&nvm).expect("nvm tree");
    symlink(&node, &nvm.join("node"));
    std::fs::write(home.join(".nvm/nvm.sh"), "# nvm\n").expect("nvm.sh");
    home
}

/// The Python binary itself (not a shim of this machine's own manager).
fn real_python() -> PathBuf {
    let out = Command::new("python3")
        .args([
            "-c",
            "import os, sys; print(os.path.realpath(sys.executable))",
        ])
        .output()
        .expect("python3 is needed on PATH for this test");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

fn which(program: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
        .unwrap_or_else(|| panic!("{program} is needed on PATH for this test"))
}

fn write_exec(path: &Path, text: &str) {
    std::fs::write(path, text).expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("mode");
    }
}

fn symlink(target: &Path, link: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[test]
fn servers_launched_through_pyenv_and_nvm_pass_under_enforce() {
    if !supported() {
        return;
    }
    let home = version_managers("escape-managers");
    let project = temp_dir("escape-managers-project");
    let py = project.join("server.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/servers/plain_server.py"),
        &py,
    )
    .expect("server");
    let js = project.join("server.js");
    std::fs::write(
        &js,
        "const rl = require('readline').createInterface({ input: process.stdin });\n\
         rl.on('line', (line) => { let m; try { m = JSON.parse(line); } catch { return; }\n\
           if (m.id === undefined) return;\n\
           const result = m.method === 'initialize' ? { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: 'nvm-node', version: '1.0.0' } } : {};\n\
           process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n'); });\n",
    )
    .expect("server");
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        home.join(".pyenv/shims").display(),
        home.join(".nvm/versions/node/v20.20.2/bin").display()
    );
    // Where this machine keeps the real runtimes, when that is not the
    // system's tree (its own pyenv, say): the fake managers link to them.
    let mut extra = Vec::new();
    for real in [real_python(), which("node")] {
        let prefix = real.parent().and_then(Path::parent).expect("prefix");
        if !prefix.starts_with("/usr") {
            extra.push("--confine-read".to_string());
            extra.push(prefix.display().to_string());
        }
    }
    for (program, script) in [("python3", &py), ("node", &js)] {
        let m = marker("escape-managers");
        let mut cmd = Command::new(guard());
        cmd.args(FAST)
            .args(["--confine", "enforce"])
            .args(&extra)
            .arg("--")
            .arg(program)
            .arg(script)
            .arg(&m)
            .env("HOME", &home)
            .env("PATH", &path)
            .current_dir(&project);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_no_survivors(&m);
        let j = run.json();
        assert_eq!(run.code, Some(0), "{program}: {}", run.stdout);
        assert_eq!(j["checks"]["confinement"]["status"], "pass", "{program}");
        // The launch went through the manager's tree.
        let through = j["confinement"]["programs"].to_string();
        let root = if program == "python3" {
            ".pyenv/libexec/pyenv"
        } else {
            ".nvm/versions"
        };
        assert!(through.contains(root), "{program}: {through}");
    }
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&project);
}
