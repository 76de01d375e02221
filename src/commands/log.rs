//! `log [NAME|FILE]`: the judged report of a wrapped server's last session
//! (the newest log under its directory), of a log file, or, with no
//! operand, of the session that started last across every server. Text,
//! `--json`, `--html FILE`. Exit 1 when the session had an error finding.

use std::path::{Path, PathBuf};

use crate::args::formats::Format;
use crate::args::settings::Settings;
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Wanted};
use crate::plan::wrap as place;
use crate::report::wrap::{self, Session};

/// The log the operand names.
fn which(s: &Settings) -> Result<PathBuf, Error> {
    let root = place::root(s.wrap.log_dir.as_deref(), &|n| std::env::var(n).ok())?;
    let newest = |dir: &Path| place::sessions(dir).pop();
    let found = match s.wrap.log.as_deref() {
        Some(op) if Path::new(op).is_file() => Some(PathBuf::from(op)),
        Some(name) => newest(&root.join(name)),
        None => std::fs::read_dir(&root)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| newest(&e.path()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
            .into_iter()
            .max_by_key(|p| p.file_name().map(|n| n.to_os_string())),
    };
    found.ok_or_else(|| {
        let what = s
            .wrap
            .log
            .as_deref()
            .map_or_else(|| "any server".to_string(), |n| format!("'{n}'"));
        Error::usage(
            format!("no wrap session log of {what} under {}", root.display()),
            "run the server through 'mcp-stdio-guard wrap' first, or give a log file",
        )
    })
}

/// Prints the report; returns the exit status.
pub fn run(s: &Settings) -> Result<u8, Error> {
    if let Some(other) = s.formats.keys().find(|f| **f != Format::Html) {
        return Err(Error::usage(
            format!("log writes --html only, not {other:?}"),
            "use --json for the report as JSON",
        ));
    }
    let path = which(s)?;
    let text = crate::plan::inputs::read_text(&path, "log")?;
    let session = Session::read(&path.display().to_string(), &text);
    let mut wanted = vec![Wanted::new(Kind::Report, "-")];
    if let Some(html) = s.formats.get(&Format::Html) {
        wanted.push(Wanted::new(Kind::Format(Format::Html), html.clone()));
    }
    let mut outputs = Outputs::open(&wanted, &[])?;
    if outputs.wants(Kind::Format(Format::Html)) {
        let time = crate::clock::rfc3339(crate::clock::now_ms());
        outputs.write(
            Kind::Format(Format::Html),
            wrap::html(&session, &time).as_bytes(),
        )?;
    }
    let report = if s.json {
        wrap::json(&session)
    } else {
        wrap::text(&session)
    };
    outputs.write(Kind::Report, report.as_bytes())?;
    outputs.commit()?;
    Ok(u8::from(!session.ok()))
}
