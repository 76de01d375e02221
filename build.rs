//! Build script: one link flag for the release binary on x86_64 Linux.
//! Without `.eh_frame_hdr` (27 KB) a panic still aborts cleanly after the
//! guard's own hook, which neither unwinds nor takes a backtrace, so nothing
//! looks frames up. Only the `bin` target of the release profile gets it:
//! test binaries unwind a failing assertion and need the table.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if release && os == "linux" && arch == "x86_64" {
        println!("cargo:rustc-link-arg-bins=-Wl,--no-eh-frame-hdr");
    }
}
