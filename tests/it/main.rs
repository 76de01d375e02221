//! The integration tests, one crate with a module per area (as ripgrep
//! does): they run the real binary against `examples/fake_server.rs`
//! scenarios and the official SDK servers, or drive the session in memory
//! through the library. Every test has a deadline and proves that no
//! process it started survived.

#![allow(dead_code)]

mod architecture;
mod audit;
mod batch;
mod bench;
mod cli;
mod codes;
mod confine;
mod ecosystem;
mod eras;
mod escape;
mod fidelity;
mod formats;
mod fuzz;
mod golden;
mod hostile;
mod hosts;
mod inputs;
mod interop;
mod leaks;
mod lint;
mod lint_corpus;
mod memory;
mod outputs;
mod process;
mod profiles;
mod progress;
mod protocol;
mod release;
mod robustness;
mod scan;
mod scan_fix;
mod session;
mod soak;
mod util;
mod wrap;
