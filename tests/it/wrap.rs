//! `wrap` as a host meets it: a fake host (this test) speaks to a server
//! through the wrapper as a host does (initialize, lists, calls, a
//! cancellation, then it closes stdin or kills the wrapper). The streams
//! are byte-identical to a direct run; a banner mid-session, a call never
//! answered and a crash are named in the log and by `log --json` with the
//! codes `check` uses; every kill path leaves no process; exit statuses
//! pass through; logs are private; `--install` and `--uninstall` round-trip
//! a config.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{assert_no_survivors, fake_server, guard, marker, temp_dir};

const DEADLINE: Duration = Duration::from_secs(30);

/// What a host sends: an initialize, its notification, a list, two calls,
/// a cancellation of a request it never sent, a ping.
const SCRIPT: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fake-host","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"one"}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"two"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
];

/// Stdout as it comes, and a signal for each chunk.
type Seen = std::sync::Arc<(std::sync::Mutex<Vec<u8>>, std::sync::Condvar)>;

/// A host's end of a server: its stdin, and what it read back (stdout as
/// it comes, so the host can wait for an answer).
struct Host {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    seen: Seen,
    out: std::thread::JoinHandle<Vec<u8>>,
    err: std::thread::JoinHandle<Vec<u8>>,
}

impl Host {
    fn start(mut cmd: Command) -> Host {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn");
        let out = child.stdout.take().expect("stdout");
        let err = child.stderr.take().expect("stderr");
        let seen: Seen = Default::default();
        let read = |mut r: Box<dyn Read + Send>, seen: Option<Seen>| {
            std::thread::spawn(move || {
                let mut all = Vec::new();
                let mut buf = [0u8; 8192];
                while let Ok(n) = r.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    all.extend_from_slice(&buf[..n]);
                    if let Some(seen) = &seen {
                        seen.0.lock().expect("seen").extend_from_slice(&buf[..n]);
                        seen.1.notify_all();
                    }
                }
                all
            })
        };
        Host {
            stdin: child.stdin.take(),
            out: read(Box::new(out), Some(std::sync::Arc::clone(&seen))),
            err: read(Box::new(err), None),
            seen,
            child,
        }
    }

    /// Waits (bounded) until stdout has held `needle`: the host waits for
    /// its last answer before it closes stdin, as hosts do.
    fn wait_for(&self, needle: &str) {
        let end = Instant::now() + DEADLINE;
        let mut seen = self.seen.0.lock().expect("seen");
        while !seen.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            crate::util::hang_guard(end, "the last answer never came");
            let left = end.saturating_duration_since(Instant::now());
            seen = self.seen.1.wait_timeout(seen, left).expect("seen").0;
        }
    }

    fn send(&mut self, lines: &[&str]) {
        let stdin = self.stdin.as_mut().expect("open stdin");
        for l in lines {
            let _ = stdin.write_all(l.as_bytes());
            let _ = stdin.write_all(b"\n");
        }
        let _ = stdin.flush();
    }

    /// Closes stdin and waits (bounded) for the exit: status, stdout, stderr.
    fn close(mut self) -> (Option<i32>, Vec<u8>, Vec<u8>) {
        drop(self.stdin.take());
        self.wait()
    }

    fn wait(mut self) -> (Option<i32>, Vec<u8>, Vec<u8>) {
        let end = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            crate::util::hang_guard(end, "the wrapped server did not end");
            std::thread::yield_now();
        };
        let code = status.code().or_else(|| {
            #[cfg(unix)]
            {
                std::os::unix::process::ExitStatusExt::signal(&status).map(|s| 128 + s)
            }
            #[cfg(not(unix))]
            None
        });
        (
            code,
            self.out.join().expect("out"),
            self.err.join().expect("err"),
        )
    }
}

fn wrapped(logs: &Path, extra: &[&str], server: &[String]) -> Command {
    let mut cmd = Command::new(guard());
    cmd.arg("wrap")
        .arg("--log-dir")
        .arg(logs)
        .args(extra)
        .arg("--")
        .args(server);
    cmd
}

fn fake(scenario: &str, m: &str) -> Vec<String> {
    vec![
        fake_server().display().to_string(),
        scenario.into(),
        m.into(),
    ]
}

/// The newest log under `logs`, as `log --json` reports it.
fn log_json(logs: &Path) -> Value {
    let mut cmd = Command::new(guard());
    cmd.arg("log").arg("--json").arg("--log-dir").arg(logs);
    let run = crate::util::run_with_deadline(cmd, DEADLINE);
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|_| panic!("log --json: {}{}", run.stdout, run.stderr))
}

fn codes(report: &Value) -> Vec<String> {
    report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .map(|i| i["code"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_wrapped_session_is_byte_identical_to_a_direct_one_and_names_nothing() {
    let m = marker("wrap-same");
    let logs = temp_dir(&m);
    let mut direct = Command::new(fake_server());
    direct.args(["stderr-log", &m]);
    let mut host = Host::start(direct);
    host.send(SCRIPT);
    let (code_a, out_a, err_a) = host.close();
    let mut host = Host::start(wrapped(&logs, &[], &fake("stderr-log", &m)));
    host.send(SCRIPT);
    let (code_b, out_b, err_b) = host.close();
    assert_eq!(code_a, code_b, "the exit status passes through");
    assert!(
        !out_a.is_empty() && !err_a.is_empty(),
        "the server spoke on both streams"
    );
    assert_eq!(out_a, out_b, "stdout byte for byte");
    assert_eq!(err_a, err_b, "stderr byte for byte");
    let report = log_json(&logs);
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(codes(&report), Vec::<String>::new(), "{report}");
    assert_eq!(
        report["traffic"]["messages"]["in"],
        SCRIPT.len() as u64,
        "{report}"
    );
    assert_no_survivors(&m);
}

/// Waits until the newest log holds an event for which `found` is true.
fn await_event(logs: &Path, what: &str, found: impl Fn(&Value) -> bool) {
    let end = Instant::now() + DEADLINE;
    loop {
        let text = newest_log(logs)
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        if text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .any(|v| found(&v))
        {
            return;
        }
        crate::util::hang_guard(end, what);
        std::thread::yield_now();
    }
}

fn newest_log(logs: &Path) -> Option<PathBuf> {
    let mut all = Vec::new();
    for dir in std::fs::read_dir(logs).ok()?.flatten() {
        for f in std::fs::read_dir(dir.path()).ok()?.flatten() {
            all.push(f.path());
        }
    }
    all.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
    all.pop()
}

#[test]
fn a_banner_mid_session_a_call_never_answered_and_a_crash_are_named() {
    for (scenario, want, status) in [
        ("live-banner", vec!["stdout-non-json"], Some(0)),
        ("live-hang", vec!["operation-timeout"], Some(0)),
        (
            "live-crash",
            vec!["operation-missing-response", "server-crashed"],
            Some(1),
        ),
    ] {
        let m = marker(scenario);
        let logs = temp_dir(&m);
        let mut host = Host::start(wrapped(&logs, &["--timeout", "300"], &fake(scenario, &m)));
        host.send(&SCRIPT[..5]);
        if scenario == "live-hang" {
            await_event(&logs, "the hang finding", |v| {
                v["code"] == "operation-timeout"
            });
        }
        // The crashing server ends the session itself, its stdin still open.
        let (code, out, _) = if scenario == "live-crash" {
            host.wait()
        } else {
            host.close()
        };
        assert_eq!(code, status, "{scenario}: the server's status");
        let report = log_json(&logs);
        assert_eq!(codes(&report), want, "{scenario}: {report}");
        let text = serde_json::to_string(&report).expect("json");
        match scenario {
            "live-banner" => {
                assert!(text.contains("debug: cache warmed"), "quoted: {text}");
                assert!(
                    String::from_utf8_lossy(&out).contains("debug: cache warmed\n"),
                    "relayed as it came"
                );
            }
            "live-hang" => assert!(
                text.contains("the tools/call request (id 4) has had no response"),
                "{text}"
            ),
            _ => assert!(
                text.contains("KeyError: 'city'"),
                "the stderr tail is quoted: {text}"
            ),
        }
        assert_no_survivors(&m);
    }
}

#[cfg(unix)]
fn kill(pid: u32, sig: &str) {
    let status = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn every_kill_path_leaves_no_process_and_the_status_passes_through() {
    // SIGKILL and SIGTERM of the wrapper, with the server and its child
    // (in its group) running.
    for sig in ["KILL", "TERM"] {
        let m = marker(&format!("wrap-{sig}"));
        let logs = temp_dir(&m);
        let mut host = Host::start(wrapped(
            &logs,
            &["--shutdown-grace", "300"],
            &fake("grandchild", &m),
        ));
        host.send(&SCRIPT[..2]);
        let end = Instant::now() + DEADLINE;
        while crate::util::survivors(&m).len() < 2 {
            crate::util::hang_guard(end, "the server and its child start");
            std::thread::yield_now();
        }
        kill(host.child.id(), sig);
        let (code, _, _) = host.wait();
        let end = Instant::now() + DEADLINE;
        while !crate::util::survivors(&m).is_empty() {
            let left: Vec<String> = crate::util::survivors(&m)
                .iter()
                .map(|p| {
                    std::fs::read_to_string(format!("/proc/{p}/cmdline"))
                        .unwrap_or_default()
                        .replace('\0', " ")
                })
                .collect();
            crate::util::hang_guard(
                end,
                &format!("the server's group outlived SIG{sig} of its wrapper: {left:?}"),
            );
            std::thread::yield_now();
        }
        if sig == "TERM" {
            assert_eq!(
                code,
                Some(128 + 15),
                "the server ended by the forwarded SIGTERM"
            );
            let report = log_json(&logs);
            assert!(
                !codes(&report).contains(&"server-crashed".to_string()),
                "the host stopped it: {report}"
            );
        }
    }
    // A server that ignores the host's EOF: the grace, then TERM.
    let m = marker("wrap-eof");
    let logs = temp_dir(&m);
    let mut host = Host::start(wrapped(
        &logs,
        &["--shutdown-grace", "200"],
        &fake("ignore-eof", &m),
    ));
    host.send(&SCRIPT[..3]);
    let (code, _, _) = host.close();
    assert_eq!(code, Some(128 + 15), "TERM after the grace");
    assert_eq!(codes(&log_json(&logs)), ["shutdown-signal-required"]);
    assert_no_survivors(&m);
    // Exit statuses pass through: a code, a signal.
    for (scenario, want) in [("exit-nonzero", 3), ("exit-signal", 128 + 6)] {
        let m = marker(scenario);
        let logs = temp_dir(&m);
        let host = Host::start(wrapped(&logs, &[], &fake(scenario, &m)));
        let (code, _, _) = host.close();
        assert_eq!(code, Some(want), "{scenario}");
        assert_no_survivors(&m);
    }
}

#[test]
fn logs_are_private_hold_no_content_by_default_and_scrub_it_when_asked() {
    let m = marker("wrap-private");
    let logs = temp_dir(&m);
    let secret = "ghp_wrapSecretValue0123456789abcdefXYZ";
    for content in [false, true] {
        let extra: &[&str] = if content {
            &["--log-content", "--name", "echo"]
        } else {
            &["--name", "echo"]
        };
        let mut cmd = wrapped(&logs, extra, &fake("ok", &m));
        cmd.env("GITHUB_TOKEN", secret);
        let mut host = Host::start(cmd);
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{secret}"}}}}}}"#
        );
        host.send(&SCRIPT[..2]);
        host.send(&[&call]);
        let (code, out, _) = host.close();
        assert_eq!(code, Some(0));
        assert!(
            String::from_utf8_lossy(&out).contains(secret),
            "the wire itself is untouched"
        );
        let log = std::fs::read_to_string(newest_log(&logs).expect("a log")).expect("log");
        assert!(
            !log.contains(secret),
            "content: {content}: the secret reached the log"
        );
        assert_eq!(
            log.contains("\"text\":"),
            content,
            "contents only when asked"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = logs.join("echo");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700, "the server's log directory");
        assert_eq!(
            mode(&newest_log(&logs).expect("log")),
            0o600,
            "the log file"
        );
    }
    assert_no_survivors(&m);
}

#[test]
fn install_and_uninstall_round_trip_claude_desktop_cursor_and_vs_code_configs() {
    let home = temp_dir(&marker("wrap-install"));
    let configs = [
        (
            "claude-desktop",
            ".config/Claude/claude_desktop_config.json",
            "{\n  \"mcpServers\": {\n    \"files\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"],\n      \"env\": {\"TOKEN\": \"ghp_installSecretValue0123456789abcdef\"}\n    },\n    \"other\": {\"command\": \"x\", \"args\": []}\n  }\n}\n",
        ),
        (
            "cursor",
            ".cursor/mcp.json",
            "// cursor\n{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"files\"]}}}\n",
        ),
        (
            "vscode",
            ".config/Code/User/mcp.json",
            "{\n  // inputs first\n  \"inputs\": [],\n  \"servers\": {\n    \"files\": {\"type\": \"stdio\", \"command\": \"node\", \"args\": [\"s.js\"]},\n  },\n}\n",
        ),
    ];
    for (host, rel, text) in configs {
        let file = home.join(rel);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, text).expect("write");
        let run = |flag: &str| {
            let mut cmd = Command::new(guard());
            cmd.env_clear()
                .env("HOME", &home)
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .args(["wrap", flag, &format!("{host}:files")]);
            crate::util::run_with_deadline(cmd, DEADLINE)
        };
        let installed = run("--install");
        assert_eq!(installed.code, Some(0), "{host}: {}", installed.stderr);
        assert!(
            installed.stdout.contains("@@ ") && installed.stdout.contains("now runs through wrap"),
            "{}",
            installed.stdout
        );
        assert!(
            !installed.stdout.contains("ghp_installSecretValue"),
            "the diff shows no secret"
        );
        let wrapped_text = std::fs::read_to_string(&file).expect("read");
        assert!(
            wrapped_text.contains("\"wrap\", \"--name\", \"files\", \"--\""),
            "{wrapped_text}"
        );
        let backup = PathBuf::from(format!("{}.mcp-stdio-guard.bak", file.display()));
        assert_eq!(std::fs::read_to_string(&backup).expect("backup"), text);
        // Every byte outside the entry is kept.
        let entry = |t: &str| t.find("\"files\"").expect("entry");
        assert_eq!(
            wrapped_text[..entry(&wrapped_text)],
            text[..entry(text)],
            "{host}: before the entry"
        );
        assert!(
            run("--install").code == Some(2),
            "{host}: a second install is refused"
        );
        let removed = run("--uninstall");
        assert_eq!(removed.code, Some(0), "{host}: {}", removed.stderr);
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            text,
            "{host}: byte for byte"
        );
    }
    let _ = std::fs::remove_dir_all(&home);
}

/// The four SDK servers' commands (and environment), as the interop tests
/// start them.
/// An SDK server: its name, argv and environment.
type SdkServer = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn sdk_servers() -> Vec<SdkServer> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = |p: PathBuf| p.display().to_string();
    let mut all = Vec::new();
    if let Some(py) = crate::util::interop_path("venv/bin/python") {
        let script = s(root.join("testdata/interop/py_server.py"));
        all.push((
            "python",
            vec![s(py), script, "clean".into()],
            vec![("PYTHONUNBUFFERED", "1".to_string())],
        ));
    }
    for (sdk, dir, script) in [
        ("typescript", "node", "ts_server.cjs"),
        ("typescript-v2", "node2", "ts2_server.cjs"),
    ] {
        if crate::util::interop_path(&format!("{dir}/node_modules")).is_some() {
            let modules = s(root.join(".interop").join(dir).join("node_modules"));
            let script = s(root.join("testdata/interop").join(script));
            all.push((
                sdk,
                vec!["node".into(), script, "clean".into()],
                vec![("NODE_PATH", modules)],
            ));
        }
    }
    if let Some(server) = crate::util::interop_path("rmcp/server") {
        all.push(("rmcp", vec![s(server), "clean".into()], Vec::new()));
    }
    all
}

#[test]
#[ignore = "interop: needs scripts/setup-interop.sh; cargo test -- --include-ignored runs it"]
fn every_sdk_server_gets_the_same_bytes_through_wrap_and_its_log_names_nothing() {
    for (sdk, argv, env) in sdk_servers() {
        let m = marker(&format!("wrap-{sdk}"));
        let logs = temp_dir(&m);
        let run = |mut cmd: Command| {
            for (k, v) in &env {
                cmd.env(k, v);
            }
            let mut host = Host::start(cmd);
            host.send(SCRIPT);
            // The host waits for its last answer before it closes stdin, as
            // hosts do: a server may drop what is still in flight at EOF.
            host.wait_for("\"id\":5");
            host.close()
        };
        let mut direct = Command::new(&argv[0]);
        direct.args(&argv[1..]);
        let (code_a, out_a, _) = run(direct);
        let (code_b, out_b, _) = run(wrapped(&logs, &["--name", sdk], &argv));
        assert_eq!(code_a, code_b, "{sdk}: the exit status");
        assert!(!out_a.is_empty(), "{sdk}: the server answered");
        assert_eq!(
            crate::util::sha256_hex(&out_a),
            crate::util::sha256_hex(&out_b),
            "{sdk}: stdout byte for byte"
        );
        let report = log_json(&logs);
        assert_eq!(codes(&report), Vec::<String>::new(), "{sdk}: {report}");
        assert_no_survivors(&m);
        let _ = std::fs::remove_dir_all(&logs);
    }
}
