//! mcp-stdio-guard: starts an MCP stdio server, runs a real MCP session
//! against it, judges every byte it writes, and reports what is wrong.
//!
//! The layers, each importing only from those before it (the folders
//! follow the pipeline; `tests/it/architecture.rs` holds the order):
//!
//! 0. foundation: `error`, `sys` (every platform call, confinement's
//!    Landlock and seccomp included), `clock`, `jsontext`, `jsonrpc`, `mcp`,
//!    `fold`, `escape`, `sha256`, `order`, `plural`, `object`, `redact`, and the
//!    independent static scanner `scan`;
//! 1. the user's words: `args` (settings, the format table, flags, config
//!    files, words);
//! 2. what to do: `plan` (the launch, the session's configuration, the
//!    inputs and outputs, the confinement policy);
//! 3. doing it: `session` (the server's one owner `child`, the pipes
//!    `wire`, the driver, the supervisor `confine`, the transcript: records
//!    of what happened, judging nothing);
//! 4. judgement: `checks` (pure functions of the transcript);
//! 5. the verdict: `verdict` (checks, score, runs and suites);
//! 6. bytes out: `report` (one writer per format);
//! 7. orchestration: `commands` (check, batch, bench, tools, call, scan,
//!    demo, help).
//!
//! The library exists so protocol tests can drive the session in memory
//! (`session::memory`) and so the binary stays a thin `main`.

pub mod args;
pub mod checks;
pub mod clock;
pub mod commands;
pub mod error;
pub mod escape;
pub mod fold;
pub mod hosts;
pub mod jsonrpc;
pub mod jsontext;
pub mod mcp;
pub mod object;
pub mod order;
pub mod plan;
pub mod plural;
pub mod progress;
pub mod redact;
pub mod report;
pub mod scan;
pub mod session;
pub mod sha256;
pub mod sys;
pub mod verdict;
