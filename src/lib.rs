//! mcp-stdio-guard: starts an MCP stdio server, runs a real MCP session
//! against it, judges every byte it writes, and reports what is wrong.
//!
//! The layers, each importing only from those before it:
//!
//! 1. foundation: `error`, `sys`, `jsonrpc`, `jsontext`, `mcp`, `redact`,
//!    `escape`, and the independent static scanner `scan`;
//! 2. the user's words: `options` (vocabulary), `call`, `cli`;
//! 3. what to do: `config`, `settings`, `plan`;
//! 4. doing it: `child`, `wire`, `session` (which emits records and judges
//!    nothing);
//! 5. what happened: `transcript` (a fold of the session's records),
//!    `fingerprint`;
//! 6. judgement: `checks` (pure functions of the transcript);
//! 7. bytes out: `report` (one writer per format), `evidence`;
//! 8. orchestration: `app`, `demo`.
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
pub mod jsonrpc;
pub mod jsontext;
pub mod mcp;
pub mod object;
pub mod order;
pub mod plan;
pub mod redact;
pub mod report;
pub mod scan;
pub mod session;
pub mod sha256;
pub mod sys;
pub mod verdict;
