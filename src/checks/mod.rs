//! Judgement: pure functions from a transcript (and the run's settings) to
//! issues. Nothing here touches a process or a file, so every rule is tested
//! on hand-made transcripts. `code` is the table of issue codes, `issue`
//! what a finding is; one file per concern judges.

pub mod adversarial;
pub mod bench;
pub mod capabilities;
pub mod catalog;
pub mod code;
pub mod confine;
mod context;
pub mod drift;
pub mod fix;
pub mod initialize;
pub mod issue;
mod judge;
pub mod lifecycle;
pub mod lint;
pub mod live;
pub mod modern;
pub mod robustness;
pub mod said;
pub mod schema;
pub mod stdout;
pub mod toolcall;
pub mod traffic;

pub use code::{Class, Code, Group, Severity};
pub use context::{Context, SessionRules};
pub use issue::Issue;
pub use judge::{promote_shoulds, run, static_scan};
