//! `servers`: every MCP server configured on this machine, from every
//! host's config (`hosts`), listed without starting anything. Exit 0
//! whatever the files hold: a file that cannot be read is a row.

use std::path::PathBuf;

use crate::args::settings::Settings;
use crate::error::Error;
use crate::hosts::{self, Discovery};
use crate::plan::outputs::{Kind, Outputs, Wanted};
use crate::redact::{Redactor, Secret};
use crate::report;

/// Finds the servers the settings ask for (`--host`, `--project`), and
/// installs their secret environment values as secrets every output
/// scrubs.
pub fn discover(s: &Settings) -> Result<Discovery, Error> {
    let hosts = hosts::pick(&s.batch.hosts)
        .map_err(|e| Error::usage(e, "see docs/hosts.md for the hosts and their files"))?;
    let project = match &s.batch.project {
        Some(p) => p.clone(),
        None => std::env::current_dir()
            .map_err(|e| Error::io("cannot read the working directory", e))?,
    };
    let project = std::fs::canonicalize(&project).unwrap_or(project);
    if !project.is_dir() {
        return Err(Error::usage(
            format!("--project {} is not a directory", project.display()),
            "give the directory whose project configs to read",
        ));
    }
    let var = |n: &str| std::env::var(n).ok();
    let roots = hosts::places::Roots::from_env(&var, &project);
    let found = hosts::discover(&hosts, &roots, &var);
    let secrets = found
        .servers
        .iter()
        .flat_map(|f| f.env.iter())
        .filter_map(|(name, value)| Secret::of_variable(name, value));
    crate::redact::install(&Redactor::new(secrets));
    Ok(found)
}

/// The directory relative paths of an entry are taken from: its file's.
pub fn base_dir(f: &hosts::Found) -> PathBuf {
    PathBuf::from(&f.file)
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// Lists the servers; returns the exit status.
pub fn run(s: &Settings) -> Result<u8, Error> {
    let mut outputs = Outputs::open(&[Wanted::new(Kind::Report, "-")], &[])?;
    let found = discover(s)?;
    let text = if s.json {
        report::servers::json(&found)
    } else {
        report::servers::table(&found)
    };
    outputs.write(Kind::Report, text.as_bytes())?;
    outputs.commit()?;
    Ok(0)
}
