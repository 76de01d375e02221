//! The verdict: between the checks and the writers, everything a report
//! decides is decided here, once. A run's transcript and issues are
//! distilled into a `RunReport` (`run`); the runs, the static scan, the
//! drift, `--against` and the eras into a `Report` (`report`): the checks
//! and their roll-up per class (`check`), era settling (`eras`), the repeat
//! and call verdicts, the exit status, the official conformance records
//! (`catalog`, `official`) and the audit procedure's verdict (`probe`).
//! What the report is about comes from the plan as plain data (`subject`).
//! Pure: no process, no file.

pub mod accepted;
pub mod catalog;
pub mod check;
pub mod eras;
pub mod example;
pub mod expected;
pub mod official;
pub mod probe;
pub mod report;
pub mod run;
pub mod score;
pub mod subject;
pub mod suite;

pub use check::{Check, Checks, Status, Summary};
pub use eras::Eras;
pub use report::{CallFailure, Report};
pub use run::{Asked, Baseline, RunReport};
pub use subject::Subject;
pub use suite::Suite;
