//! Secrets at the output boundary (issue 26): a server that hides a
//! secret's value in its definitions (base64, hex, URL-encoded, spelled in
//! Tag characters, written with Cyrillic lookalikes) gets it decoded by the
//! lint, and every output of `check` and `batch` is searched for the secret
//! in every form a reader could decode; a plain setting never rewrites the
//! server's protocol data.

use std::path::Path;
use std::process::Command;

use crate::util::{
    DEADLINE, assert_no_survivors, fake_server, guard, marker, run_with_deadline, temp_dir,
};

const SECRET: &str = "sesame-Open-4217xq";

fn base64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// Every form of `secret` a reader could decode: as is, JSON- and
/// HTML-escaped, percent-encoded (both ways), hex, and base64 at each of
/// the three alignments in both alphabets (the characters that depend on
/// the secret alone).
fn forms(secret: &str) -> Vec<String> {
    let mut out = vec![
        secret.to_string(),
        serde_json::to_string(secret)
            .expect("json")
            .trim_matches('"')
            .to_string(),
        secret.replace('&', "&amp;").replace('<', "&lt;"),
        secret.bytes().map(|b| format!("%{b:02X}")).collect(),
        secret.bytes().map(|b| format!("%{b:02x}")).collect(),
        secret.bytes().map(|b| format!("{b:02x}")).collect(),
        secret.bytes().map(|b| format!("{b:02X}")).collect(),
    ];
    for alphabet in [
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    ] {
        for k in 0..3usize {
            let mut bytes = vec![b'~'; k];
            bytes.extend_from_slice(secret.as_bytes());
            bytes.extend_from_slice(b"~~~");
            let encoded = base64(&bytes, alphabet);
            // Skip the characters that hold pad bits; keep those of the
            // secret alone.
            let first = (8 * k).div_ceil(6);
            let last = 8 * (k + secret.len()) / 6;
            out.push(encoded[first..last].to_string());
        }
    }
    out
}

fn assert_clean(what: &str, text: &str) {
    for form in forms(SECRET) {
        assert!(
            !text.contains(&form),
            "{what} holds the secret as {form:?}:\n{text}"
        );
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn a_secret_the_lint_decodes_reaches_no_output_of_check_or_batch() {
    let dir = temp_dir("decoded-secret");
    let m = marker("decoded-secret");
    let summary = dir.join("summary.md");
    let files = [
        ("--html", "card.html"),
        ("--junit", "junit.xml"),
        ("--sarif", "r.sarif"),
        ("--checks-json", "checks.json"),
        ("--write-baseline", "baseline.json"),
        ("--badge", "badge.json"),
        ("--evidence", "e.jsonl"),
        ("--transcript", "t.jsonl"),
    ];
    let mut seen = 0;
    for json in [true, false] {
        let mut cmd = Command::new(guard());
        cmd.env("API_TOKEN", SECRET)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .args(["--annotations", "github", "--env", "API_TOKEN"])
            .args(["--timeout", "3000", "--shutdown-grace", "300"]);
        if json {
            cmd.arg("--json");
        }
        for (flag, name) in files {
            cmd.arg(flag).arg(dir.join(name));
        }
        cmd.arg("--")
            .arg(fake_server())
            .args(["secret-definitions", &m]);
        let run = run_with_deadline(cmd, DEADLINE);
        assert_clean("stdout", &run.stdout);
        assert_clean("stderr", &run.stderr);
        for (flag, name) in files {
            let text = read(&dir.join(name));
            assert!(!text.is_empty(), "{flag} wrote nothing");
            assert_clean(flag, &text);
        }
        assert_clean("the step summary", &read(&summary));
        // The lint did decode it (else this proves nothing): the blob, or
        // the directive found inside it.
        assert!(
            run.stdout.contains("definition-encoded-blob") || run.stdout.contains("base64"),
            "nothing decoded from base64:\n{}",
            run.stdout
        );
        for code in ["definition-hidden-tag-text", "definition-confusable-name"] {
            assert!(run.stdout.contains(code), "{code} missing:\n{}", run.stdout);
        }
        seen += usize::from(run.stdout.contains("<redacted>"));
    }
    assert_eq!(seen, 2, "the decoded text was shown, scrubbed");

    let manifest = dir.join("manifest.json");
    let entry = serde_json::json!({"command": fake_server(), "args": ["secret-definitions", &m],
        "env": {"API_TOKEN": SECRET}});
    std::fs::write(
        &manifest,
        serde_json::json!({"mcpServers": {"leaky": entry}}).to_string(),
    )
    .expect("manifest");
    let outs = [
        ("--out", "batch.jsonl"),
        ("--junit", "batch.xml"),
        ("--sarif", "batch.sarif"),
        ("--summary", "batch.md"),
    ];
    let mut cmd = Command::new(guard());
    cmd.arg("batch").arg(&manifest);
    for (flag, name) in outs {
        cmd.arg(flag).arg(dir.join(name));
    }
    let run = run_with_deadline(cmd, DEADLINE);
    assert_clean("batch stdout", &run.stdout);
    assert_clean("batch stderr", &run.stderr);
    for (flag, name) in outs {
        let text = read(&dir.join(name));
        assert!(!text.is_empty(), "batch {flag} wrote nothing");
        assert_clean(flag, &text);
    }
    assert_no_survivors(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plain_setting_never_rewrites_the_servers_protocol_data() {
    let m = marker("plain-setting");
    let mut cmd = Command::new(guard());
    cmd.args([
        "--json",
        "--env",
        "BROWSER=puppeteer",
        "--shutdown-grace",
        "300",
    ])
    .args(["--request", "tools/list", "--"])
    .arg(fake_server())
    .args(["catalog-full", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    // catalog-full lists "add" and "echo": a value that happens to be a
    // tool name's part must leave it alone; here "puppeteer" is not one,
    // so look at the whole report: no <redacted> anywhere but the
    // fingerprint's never-shown env values.
    let mut j = run.json();
    j["fingerprint"]["env"]["values"] = serde_json::json!({});
    assert!(!j.to_string().contains("<redacted>"), "{j}");
    let mut cmd = Command::new(guard());
    cmd.args([
        "--json",
        "--env",
        "WORD=echo",
        "--shutdown-grace",
        "300",
        "--",
    ])
    .arg(fake_server())
    .args(["catalog-full", &m]);
    let run = run_with_deadline(cmd, DEADLINE);
    assert!(
        !run.codes().contains(&"tool-name-invalid".to_string()),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\"echo\""), "{}", run.stdout);
    assert_no_survivors(&m);
}
