//! The host-config readers held to reference parsers: every file of the
//! corpus (`testdata/hosts/corpus`, written from the hosts' documentation)
//! reads as `toml` and `serde_norway` read it, and a fuzz of mutated
//! corpus files never finds the readers accepting what the reference
//! refuses or reading it differently (refusing what the reference reads is
//! allowed: a refusal names its line).

use std::path::{Path, PathBuf};

use mcp_stdio_guard::hosts::{toml as our_toml, yaml as our_yaml};
use serde_json::Value;

fn corpus(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosts/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} file in {}", dir.display());
    files
}

fn reference_toml(text: &str) -> Option<Value> {
    toml::from_str::<Value>(text).ok()
}

fn reference_yaml(text: &str) -> Option<Value> {
    serde_norway::from_str::<Value>(text).ok()
}

fn ours_toml(text: &str) -> Option<Value> {
    our_toml::read(text).ok().map(|n| n.to_json())
}

fn ours_yaml(text: &str) -> Option<Value> {
    our_yaml::read(text).ok().map(|n| n.to_json())
}

#[test]
fn every_corpus_file_reads_as_the_reference_parsers_read_it() {
    for (ext, ours, reference) in [
        (
            "toml",
            ours_toml as fn(&str) -> Option<Value>,
            reference_toml as fn(&str) -> Option<Value>,
        ),
        ("yaml", ours_yaml, reference_yaml),
    ] {
        for file in corpus(ext) {
            let text = std::fs::read_to_string(&file).expect("read");
            let want = reference(&text)
                .unwrap_or_else(|| panic!("the reference reads {}", file.display()));
            let got = match ext {
                "toml" => our_toml::read(&text).map(|n| n.to_json()),
                _ => our_yaml::read(&text).map(|n| n.to_json()),
            };
            let got =
                got.unwrap_or_else(|e| panic!("{}: line {}: {}", file.display(), e.line, e.reason));
            assert_eq!(got, want, "{}", file.display());
            assert_eq!(ours(&text), Some(want));
        }
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `text`: a byte deleted, a character from the formats'
/// own punctuation inserted, a line duplicated, dropped or re-indented.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const BITS: &[&str] = &[
        "\"", "'", "[", "]", "{", "}", ",", "=", ":", "-", " ", "  ", "\t", "\n", "#", ".", "\\",
        "- ", "&a ", "*a", "!!str ", "|", ">", "0x", "_", "1e", "'''", "\"\"\"", "~", "? ",
    ];
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let at = rng.below(lines.len());
    match rng.below(5) {
        0 => {
            let line = &mut lines[at];
            if !line.is_empty() {
                let cut = rng.below(line.len());
                if line.is_char_boundary(cut) && line.is_char_boundary(cut + 1) {
                    line.remove(cut);
                }
            }
        }
        1 => {
            let line = &mut lines[at];
            let mut pos = rng.below(line.len() + 1);
            while !line.is_char_boundary(pos) {
                pos -= 1;
            }
            line.insert_str(pos, BITS[rng.below(BITS.len())]);
        }
        2 => {
            let copy = lines[at].clone();
            lines.insert(at, copy);
        }
        3 => {
            lines.remove(at);
        }
        _ => {
            let line = &mut lines[at];
            if rng.below(2) == 0 {
                line.insert_str(0, "  ");
            } else if line.starts_with(' ') {
                line.remove(0);
            }
        }
    }
    lines.join("\n") + "\n"
}

fn fuzz(ext: &str, ours: fn(&str) -> Option<Value>, reference: fn(&str) -> Option<Value>) {
    let seed = std::env::var("MCP_GUARD_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut rng = Rng(seed.unwrap_or(0x9E37_79B9_7F4A_7C15));
    let mut accepted = 0;
    let files = corpus(ext);
    let rounds: usize = std::env::var("MCP_GUARD_FUZZ_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(4000);
    for round in 0..rounds {
        let base = std::fs::read_to_string(&files[round % files.len()]).expect("read");
        let mut text = base;
        for _ in 0..1 + rng.below(3) {
            text = mutate(&text, &mut rng);
        }
        if let Some(got) = ours(&text) {
            accepted += 1;
            let want = reference(&text);
            if want.as_ref() != Some(&got) {
                std::fs::write(format!("/tmp/fuzz-{ext}.txt"), &text).ok();
            }
            assert!(
                want.as_ref() == Some(&got),
                "the reader guessed on:\n{text}\nours: {got}\nreference: {want:?}"
            );
        }
    }
    assert!(
        accepted > 400,
        "the fuzz exercises reads, not only refusals ({accepted})"
    );
}

#[test]
fn the_toml_reader_never_guesses_on_mutated_files() {
    fuzz("toml", ours_toml, reference_toml);
}

#[test]
fn the_yaml_reader_never_guesses_on_mutated_files() {
    fuzz("yaml", ours_yaml, reference_yaml);
}

/// The fixture home (`testdata/hosts/home`, laid out as on Linux) copied
/// into `dest` in another layout: `mac` moves the Application Support
/// files, `windows` the roaming application data.
fn lay_out(layout: &str, dest: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosts/home");
    let mut files = Vec::new();
    walk(&src, &mut files);
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .into_owned();
        let moved = relocate(layout, &rel);
        let to = dest.join(moved);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&file, &to).expect("copy");
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Where a Linux-layout path lives in `layout`.
fn relocate(layout: &str, rel: &str) -> String {
    let moves: &[(&str, &str)] = match layout {
        "mac" => &[
            (".config/Claude/", "Library/Application Support/Claude/"),
            (".config/Code/", "Library/Application Support/Code/"),
        ],
        "windows" => &[
            (".config/Claude/", "AppData/Roaming/Claude/"),
            (".config/Code/", "AppData/Roaming/Code/"),
            (".config/zed/", "AppData/Roaming/Zed/"),
            (
                ".config/goose/config.yaml",
                "AppData/Roaming/Block/goose/config/config.yaml",
            ),
        ],
        _ => &[],
    };
    for (from, to) in moves {
        if let Some(rest) = rel.strip_prefix(from) {
            return format!("{to}{rest}");
        }
    }
    rel.to_string()
}

/// Back from `layout` to the Linux layout.
fn unrelocate(layout: &str, rel: &str) -> String {
    for linux in [
        ".config/Claude/",
        ".config/Code/",
        ".config/zed/",
        ".config/goose/config.yaml",
    ] {
        let moved = relocate(layout, linux);
        if let Some(rest) = rel.strip_prefix(&moved) {
            return format!("{linux}{rest}");
        }
    }
    rel.to_string()
}

/// `servers` (or `doctor`) with a clean environment: only `vars`.
fn guard_env(args: &[&str], vars: &[(&str, String)]) -> crate::util::Run {
    let mut cmd = std::process::Command::new(crate::util::guard());
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    crate::util::run_with_deadline(cmd, std::time::Duration::from_secs(120))
}

fn layout_env(layout: &str, home: &Path) -> Vec<(&'static str, String)> {
    let h = home.display().to_string();
    let mut vars = vec![
        (
            "MCP_GUARD_SYSTEM_ROOT",
            home.join("system").display().to_string(),
        ),
        ("FIXTURE_GEM_DIR", "/srv".to_string()),
    ];
    match layout {
        "windows" => {
            vars.push(("USERPROFILE", h));
            vars.push((
                "APPDATA",
                home.join("AppData/Roaming").display().to_string(),
            ));
        }
        _ => vars.push(("HOME", h)),
    }
    vars
}

#[test]
fn servers_lists_every_host_of_a_fixture_home_exactly_in_every_layout() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosts/expected.json");
    for layout in ["linux", "mac", "windows"] {
        let home = crate::util::temp_dir(&crate::util::marker(&format!("hosts-{layout}")));
        lay_out(layout, &home);
        let project = home.join("work/app/sub");
        std::fs::create_dir_all(&project).expect("project");
        let run = guard_env(
            &["servers", "--json", "--project", &project.to_string_lossy()],
            &layout_env(layout, &home),
        );
        assert_eq!(run.code, Some(0), "{layout}: {}", run.stderr);
        let prefix = format!("{}/", home.display());
        let text = run.stdout.replace(&prefix, "HOME/");
        let mut rows: Value = serde_json::from_str(&text).expect("a JSON array");
        for row in rows.as_array_mut().expect("array") {
            if let Some(f) = row["file"].as_str().and_then(|f| f.strip_prefix("HOME/")) {
                row["file"] = format!("HOME/{}", unrelocate(layout, f)).into();
            }
        }
        if layout == "linux" && std::env::var_os("MCP_GUARD_BLESS").is_some() {
            let pretty = serde_json::to_string_pretty(&rows).expect("json") + "\n";
            std::fs::write(&golden, pretty).expect("bless");
        }
        let want: Value = serde_json::from_str(&std::fs::read_to_string(&golden).expect("golden"))
            .expect("golden json");
        let (got, want) = (
            rows.as_array().expect("rows"),
            want.as_array().expect("golden rows"),
        );
        for (g, w) in got.iter().zip(want) {
            assert_eq!(
                g, w,
                "{layout}: a row differs from testdata/hosts/expected.json"
            );
        }
        assert_eq!(got.len(), want.len(), "{layout}: the number of rows");
        assert!(
            !run.stdout.contains("ghp_fixtureSecretValue"),
            "an env value reached the output"
        );
        let table = guard_env(
            &["servers", "--project", &project.to_string_lossy()],
            &layout_env(layout, &home),
        );
        assert!(
            table
                .stdout
                .contains("32 servers (23 stdio) in 16 files; 1 file not read"),
            "{}",
            table.stdout
        );
        assert!(!table.stdout.contains("ghp_fixtureSecretValue"));
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn files_that_cannot_be_read_are_rows_and_the_listing_goes_on() {
    let home = crate::util::temp_dir(&crate::util::marker("hosts-bad"));
    lay_out("linux", &home);
    // A symlink loop, a directory where a file belongs, a file too large.
    #[cfg(unix)]
    {
        let cursor = home.join(".cursor/mcp.json");
        std::fs::remove_file(&cursor).expect("rm");
        std::os::unix::fs::symlink(home.join(".cursor/loop-b"), home.join(".cursor/loop-a"))
            .expect("ln");
        std::os::unix::fs::symlink(home.join(".cursor/loop-a"), home.join(".cursor/loop-b"))
            .expect("ln");
        std::os::unix::fs::symlink(home.join(".cursor/loop-a"), &cursor).expect("ln");
    }
    let lm = home.join(".lmstudio/mcp.json");
    std::fs::remove_file(&lm).expect("rm");
    std::fs::create_dir_all(&lm).expect("dir in place of a file");
    let big = home.join(".gemini/settings.json");
    let f = std::fs::File::create(&big).expect("big");
    f.set_len(17 << 20).expect("sparse 17 MiB");
    let run = guard_env(&["servers", "--json"], &layout_env("linux", &home));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Value = serde_json::from_str(&run.stdout).expect("json");
    let problem = |file: &str| {
        rows.as_array()
            .expect("rows")
            .iter()
            .find(|r| r["file"].as_str().is_some_and(|f| f.ends_with(file)) && r["name"].is_null())
            .and_then(|r| r["problem"].as_str().map(String::from))
            .unwrap_or_default()
    };
    #[cfg(unix)]
    assert!(
        problem(".cursor/mcp.json").contains("cannot read"),
        "{}",
        problem(".cursor/mcp.json")
    );
    assert_eq!(problem(".lmstudio/mcp.json"), "not a regular file");
    assert_eq!(
        problem(".gemini/settings.json"),
        "larger than 16 MiB: not read"
    );
    assert!(
        rows.as_array()
            .expect("rows")
            .iter()
            .any(|r| r["host"] == "goose" && r["name"] == "github"),
        "the hosts after the bad files are still listed"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// A home whose Claude Desktop and Cursor configs name `clean`, `polluting`
/// and `remote` servers (and Cursor the clean launch again, and a disabled
/// one); the clean one carries a secret-named variable.
fn doctor_home(
    clean: (&str, &[&str]),
    polluting: (&str, &[&str]),
    env: &[(&str, &str)],
) -> PathBuf {
    let home = crate::util::temp_dir(&crate::util::marker("doctor"));
    let mut clean_env = serde_json::Map::new();
    clean_env.insert(
        "GITHUB_TOKEN".into(),
        "ghp_doctorSecretValue0123456789abcdefXYZ".into(),
    );
    for (k, v) in env {
        clean_env.insert((*k).into(), (*v).into());
    }
    let entry = |(command, args): (&str, &[&str]), env: serde_json::Map<String, Value>| serde_json::json!({"command": command, "args": args, "env": env});
    let mut polluting_env = serde_json::Map::new();
    for (k, v) in env {
        polluting_env.insert((*k).into(), (*v).into());
    }
    let desktop = serde_json::json!({"mcpServers": {
        "clean": entry(clean, clean_env.clone()),
        "polluting": entry(polluting, polluting_env),
        "remote": {"url": "https://remote.example/mcp"},
    }});
    let cursor = serde_json::json!({"mcpServers": {
        "same-clean": entry(clean, clean_env),
        "off": {"command": "false", "disabled": true},
    }});
    for (path, doc) in [
        (".config/Claude/claude_desktop_config.json", desktop),
        (".cursor/mcp.json", cursor),
    ] {
        let file = home.join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, serde_json::to_string_pretty(&doc).expect("json")).expect("write");
    }
    home
}

/// Runs `doctor` in `home` with every format written; asserts what any
/// doctor run must: the remote, duplicate and disabled entries are not
/// checked, exit 1, and the secret is in no output.
fn doctor_in(home: &Path) -> crate::util::Run {
    let out = home.join("out");
    std::fs::create_dir_all(&out).expect("out");
    let file = |n: &str| out.join(n).display().to_string();
    let run = guard_env(
        &[
            "doctor",
            "--jobs",
            "2",
            "--out",
            &file("r.jsonl"),
            "--html",
            &file("f.html"),
            "--sarif",
            &file("r.sarif"),
            "--junit",
            &file("r.xml"),
            "--summary",
            &file("s.md"),
            "--project",
            &home.display().to_string(),
        ],
        &[("HOME", home.display().to_string())],
    );
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let row = |name: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or("")
            .to_string()
    };
    assert!(
        row("claude-desktop:clean ").contains(" pass "),
        "{}",
        run.stdout
    );
    assert!(
        row("claude-desktop:polluting ").contains(" fail "),
        "{}",
        run.stdout
    );
    assert!(
        row("claude-desktop:remote ").contains("not checked  not stdio (http)"),
        "{}",
        run.stdout
    );
    assert!(
        row("cursor:same-clean ").contains("same launch as claude-desktop:clean, checked there"),
        "{}",
        run.stdout
    );
    assert!(
        row("cursor:off ").contains("not checked  disabled"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("2 servers checked: 1 passed, 1 failed; 3 not checked"),
        "{}",
        run.stdout
    );
    for (what, text) in [
        ("stdout", run.stdout.clone()),
        ("stderr", run.stderr.clone()),
    ]
    .into_iter()
    .chain(["r.jsonl", "f.html", "r.sarif", "r.xml", "s.md"].map(|n| {
        (
            n,
            std::fs::read_to_string(out.join(n)).unwrap_or_else(|_| panic!("{n} was written")),
        )
    })) {
        assert!(
            !text.contains("ghp_doctorSecretValue"),
            "the secret reached {what}"
        );
    }
    let lines = std::fs::read_to_string(out.join("r.jsonl"))
        .expect("jsonl")
        .lines()
        .count();
    assert_eq!(lines, 2, "each distinct launch checked once");
    run
}

#[test]
fn doctor_checks_each_launch_once_as_its_host_starts_it() {
    let m = crate::util::marker("doctor");
    let fake = crate::util::fake_server().display().to_string();
    let home = doctor_home((&fake, &["ok", &m]), (&fake, &["banner", &m]), &[]);
    let run = doctor_in(&home);
    assert!(
        run.stdout.contains(
            "stdout-non-json: stdout line 1 is not JSON-RPC: \"Fake server 1.0 listening on stdio\""
        ),
        "the polluting line is quoted: {}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("fix: write only JSON-RPC messages to stdout"),
        "{}",
        run.stdout
    );
    crate::util::assert_no_survivors(&m);
    let json = guard_env(
        &["doctor", "--json", "--project", &home.display().to_string()],
        &[("HOME", home.display().to_string())],
    );
    let doc: Value = serde_json::from_str(&json.stdout).expect("doctor --json");
    let verdicts: Vec<(String, String)> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| {
            (
                format!(
                    "{}:{}",
                    s["host"].as_str().unwrap_or(""),
                    s["name"].as_str().unwrap_or("")
                ),
                s["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = [
        ("claude-desktop:clean", "pass"),
        ("claude-desktop:polluting", "fail"),
        ("claude-desktop:remote", "not checked"),
        ("cursor:same-clean", "not checked"),
        ("cursor:off", "not checked"),
    ];
    assert_eq!(verdicts, want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_eq!(doc["ok"], false);
    crate::util::assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
#[ignore = "interop: needs scripts/setup-interop.sh; cargo test -- --include-ignored runs it"]
fn doctor_passes_a_clean_sdk_server_and_fails_a_polluting_one() {
    let Some(python) = crate::util::interop_path("venv/bin/python") else {
        return;
    };
    let python = python.display().to_string();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/interop/py_server.py");
    let script = script.display().to_string();
    let home = doctor_home(
        (&python, &[&script, "clean"]),
        (&python, &[&script, "banner"]),
        &[("PYTHONUNBUFFERED", "1")],
    );
    let run = doctor_in(&home);
    assert!(
        run.stdout.contains("Starting weather server"),
        "the banner is quoted: {}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&home);
}
