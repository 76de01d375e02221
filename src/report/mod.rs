//! The writers: each turns the verdict's model (`verdict::Report`, or a
//! batch's report lines) into the bytes of one format and decides nothing
//! about the server. `json` (the 1.0 contract), `text`, `audit` (`tools`,
//! `call`), `record` (the evidence record), `scan`, `junit`, `sarif`,
//! `annotations` (GitHub workflow commands and the step summary),
//! `checks_json` (the official suite's records), `html` (the report card),
//! `fleet` (batch's page of every server), `badge` (shields.io), `baseline`
//! (`--write-baseline`), `bench` and `batch` (those commands' summaries);
//! what several share is in `common`, colour in `style`. One writer is not
//! a pure function of a finished report: `transcript` is a tap the session
//! feeds while it runs, writing each message and stderr line to its file as
//! it happens. Server-provided text is escaped for the format it lands in.
//!
//! The formats of the table (`args::formats::FORMATS`) are written through
//! `write` and `write_batch` below: one exhaustive `match` each, the only
//! place a format meets its writer.

pub mod annotations;
pub mod audit;
pub mod badge;
pub mod baseline;
pub mod batch;
pub mod bench;
pub mod checks_json;
pub mod common;
pub mod diff;
pub mod fleet;
pub mod html;
pub mod json;
pub mod junit;
pub mod record;
pub mod rendered;
pub mod sarif;
pub mod scan;
pub mod servers;
pub mod style;
pub mod text;
pub mod transcript;
pub mod wrap;

use serde_json::Value;

use crate::args::formats::Format;
use crate::error::Error;
use crate::verdict::{Report, Suite};

/// A format's bytes for a finished report; `time` (RFC 3339) stamps the
/// official check records.
pub fn write(format: Format, r: &Report, options: &FormatOptions) -> String {
    let time = options.time;
    match format {
        Format::Junit => junit::render(
            "mcp-stdio-guard",
            &[Suite::of_report(r)],
            options.junit_skipped,
        ),
        Format::Sarif => {
            let suite = [Suite::of_report(r)];
            common::pretty(&sarif::render(&suite, &suite[0].command))
        }
        Format::ChecksJson => common::pretty(&checks_json::render(&r.official_records(), time)),
        Format::Baseline => baseline::render(r),
        Format::Badge => badge::render(r),
        Format::Html => html::render(r, time),
    }
}

/// What a written format needs besides the report: when it was written,
/// and the user's choices about formats.
#[derive(Debug, Clone, Copy)]
pub struct FormatOptions<'a> {
    /// RFC 3339, the time the card, the fleet page and the official
    /// records carry.
    pub time: &'a str,
    /// `--junit-skipped`: skipped checks are JUnit testcases too.
    pub junit_skipped: bool,
}

/// Calls its argument with every report line of a batch, one at a time.
pub type EachReport<'a> = dyn FnMut(&mut dyn FnMut(&Value)) -> Result<(), Error> + 'a;

/// A format's bytes for a batch, from its reports read back one at a time
/// (only a small summary of each is kept); `None` for a format `batch`
/// does not write (its row says `batch: false`).
pub fn write_batch(
    format: Format,
    each: &mut EachReport,
    options: &FormatOptions,
) -> Result<Option<String>, Error> {
    let suites = |each: &mut EachReport| -> Result<Vec<Suite>, Error> {
        let mut suites = Vec::new();
        each(&mut |r| suites.extend(Suite::of_batch_line(r)))?;
        Ok(suites)
    };
    Ok(Some(match format {
        Format::Junit => junit::render(
            "mcp-stdio-guard batch",
            &suites(each)?,
            options.junit_skipped,
        ),
        Format::Sarif => common::pretty(&sarif::render(&suites(each)?, "mcp-stdio-guard batch")),
        Format::Html => {
            let mut entries = Vec::new();
            each(&mut |r| entries.push(fleet::entry(r)))?;
            fleet::render(&mut entries, options.time)
        }
        Format::ChecksJson | Format::Baseline | Format::Badge => return Ok(None),
    }))
}
