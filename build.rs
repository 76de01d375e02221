//! Build script: the release binary on x86_64 Linux links without unwind
//! tables. The release profile aborts on panic, and the guard's panic hook
//! (`sys::install_panic_hook`) ends the run itself (custody killed,
//! temporary files removed, exit 101) without unwinding or taking a
//! backtrace, so nothing ever reads `.eh_frame`, its index
//! `.eh_frame_hdr` or the landing-pad tables `.gcc_except_table`: about
//! 250 KB of the stripped binary. A linker script inserted into the
//! default layout discards them. Only the `bin` target of the release
//! profile: test binaries unwind a failed assertion and need them.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    // The release profile aborts on panic (Cargo.toml); the hook exits
    // before any unwinding even where a build unwinds.
    if !(release && os == "linux" && arch == "x86_64") {
        return;
    }
    let script = out.join("no-unwind-tables.ld");
    let text =
        "SECTIONS { /DISCARD/ : { *(.eh_frame) *(.gcc_except_table*) } } INSERT AFTER .text;\n";
    if std::fs::write(&script, text).is_err() {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-Wl,--no-eh-frame-hdr");
    println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
}
