//! The writers: each turns the verdict's model (`verdict::Report`) into the
//! bytes of one format, and decides nothing. `json` (the 1.0 contract),
//! `text`, `audit` (`tools`, `call`), `record` (the evidence record),
//! `transcript` (the JSON-lines file, streamed while the session runs),
//! `scan`, `junit`, `sarif`, `annotations` (GitHub workflow commands and
//! the step summary), `checks_json` (the official suite's records),
//! `html` (the report card), `badge` (shields.io), `baseline`
//! (`--write-baseline`); what
//! several share is in `common`, colour in `style`. Server-provided text is
//! escaped for the format it lands in.

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
