//! The writers: each turns the verdict's model (`verdict::Report`, or a
//! batch's report lines) into the bytes of one format and decides nothing
//! about the server. `json` (the 1.0 contract), `text`, `audit` (`tools`,
//! `call`), `record` (the evidence record), `scan`, `junit`, `sarif`,
//! `annotations` (GitHub workflow commands and the step summary),
//! `checks_json` (the official suite's records), `html` (the report card),
//! `fleet` (batch's page of every server), `badge` (shields.io), `baseline`
//! (`--write-baseline`), `bench`; what several share is in `common`, colour
//! in `style`. One writer is not a pure function of a finished report:
//! `transcript` is a tap the session feeds while it runs, writing each
//! message and stderr line to its file as it happens. Server-provided text
//! is escaped for the format it lands in.

pub mod annotations;
pub mod audit;
pub mod badge;
pub mod baseline;
pub mod bench;
pub mod checks_json;
pub mod common;
pub mod fleet;
pub mod html;
pub mod json;
pub mod junit;
pub mod record;
pub mod rendered;
pub mod sarif;
pub mod scan;
pub mod style;
pub mod text;
pub mod transcript;
