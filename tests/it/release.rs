//! The release binaries' size budget: the stripped dynamic build under
//! 2,000,000 bytes, the fully static one (glibc's static libraries add
//! about 900 KB) under 3,000,000, with `doctor`, `wrap` and the lint.
//! Measured (issue 38): 2,118,840 bytes before this round; 1,898,976 with
//! panic = "abort" and the lint's index built by the compiler.
//! `scripts/release-check.sh`
//! (run by `scripts/test.sh`) builds both and names them in
//! `target/release-check.env`; the test is in the ignored tier, and fails
//! with the fix when the file is missing.

use std::path::PathBuf;

const DYNAMIC_BUDGET: u64 = 2_000_000;
const STATIC_BUDGET: u64 = 3_000_000;

#[test]
#[ignore = "needs the release binaries: scripts/release-check.sh (scripts/test.sh runs it)"]
fn the_release_binaries_fit_their_size_budget() {
    let env = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release-check.env");
    let text = std::fs::read_to_string(&env).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run scripts/release-check.sh (scripts/test.sh does)",
            env.display()
        )
    });
    for line in text.lines() {
        let Some((key, path)) = line.split_once('=') else {
            continue;
        };
        let budget = match key {
            "MCP_GUARD_DYNAMIC_BIN" => DYNAMIC_BUDGET,
            "MCP_GUARD_STATIC_BIN" => STATIC_BUDGET,
            _ => continue,
        };
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("release: {key} {size} bytes (budget {budget})");
        assert!(
            size < budget,
            "{path} is {size} bytes, over the {budget}-byte budget"
        );
    }
}
