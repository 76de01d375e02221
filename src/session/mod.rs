//! The session: a state machine that speaks MCP to the server. It opens the
//! session (`open`), sends the operations, probes and calls (`script`),
//! matches every response to its request by id, value and type
//! (`correlate`), answers the server's own requests, enforces every
//! deadline with `recv_timeout` (`driver`), and stops the server politely
//! while it keeps reading (`shutdown`). What the report shows of the
//! server's messages is kept as their raw lines (`frames`).
//!
//! It judges nothing. Everything that happens is emitted, in order, as a
//! `Record` to a `Recorder` (the transcript, a file writer, a test); the
//! one decision that needs a judge, whether an initialize result is usable
//! at all, is asked of the `Rules` the caller hands in. The session can run
//! over a real process or over channels in memory (`memory`).

pub mod bench;
pub mod child;
pub mod confine;
mod correlate;
mod driver;
pub mod fingerprint;
pub mod frames;
pub mod memory;
mod open;
mod record;
pub mod relay;
mod run;
pub mod runner;
mod script;
mod shutdown;
pub mod transcript;
pub mod wire;

pub use crate::session::child::Exit;
pub use crate::sys::Proc;
pub use record::{
    Answer, EndedBy, EraFinding, Lenient, Process, Record, Recorder, Request, Role, Rules, Speaks,
    Stage, StdoutLine, Stop, Target,
};
pub use run::{drive, run};
