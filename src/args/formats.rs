//! The formats written beside the report, declared once, the way
//! hyperfine declares its exporters: each row names a format's flag, its
//! config field, its help line and whether `batch` writes it too. The
//! settings table makes a flag of every row (`settings::SETTINGS`), the
//! plan opens a file for every format given (`plan::wanted_outputs`), and
//! `report::write` / `report::write_batch` turn a report into its bytes by
//! an exhaustive `match` on `Format`, so a new row does not compile until
//! its writer exists. The transcript and the evidence record are not
//! here: one is written while the session runs, the other is appended.

/// A format written from a finished report, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    Junit,
    Sarif,
    ChecksJson,
    Baseline,
    Badge,
    Html,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    pub format: Format,
    /// The flag, without `--`.
    pub flag: &'static str,
    /// The config file's field, when it has one.
    pub key: Option<&'static str>,
    /// `--help`'s text (continuation lines are indented there).
    pub help: &'static str,
    /// `batch` writes it too (from the reports read back from `--out`).
    pub batch: bool,
    /// `scan` writes it too (its findings alone).
    pub scan: bool,
}

/// Every format, in `--help` order.
pub const FORMATS: &[Declared] = &[
    Declared {
        format: Format::Junit,
        flag: "junit",
        key: None,
        help: "also write the report as JUnit XML (one testcase per check)",
        batch: true,
        scan: false,
    },
    Declared {
        format: Format::Sarif,
        flag: "sarif",
        key: None,
        help: "also write the report as SARIF 2.1.0 (static findings with\nregions, runtime issues on the server command)",
        batch: true,
        scan: true,
    },
    Declared {
        format: Format::ChecksJson,
        flag: "checks-json",
        key: None,
        help: "also write the official conformance suite's per-check records",
        batch: false,
        scan: false,
    },
    Declared {
        format: Format::Baseline,
        flag: "write-baseline",
        key: None,
        help: "write this run's findings as a baseline for --baseline",
        batch: false,
        scan: false,
    },
    Declared {
        format: Format::Badge,
        flag: "badge",
        key: None,
        help: "also write the score as a shields.io endpoint badge (JSON)",
        batch: false,
        scan: false,
    },
    Declared {
        format: Format::Html,
        flag: "html",
        key: None,
        help: "also write a self-contained HTML report card (no script, no\nexternal asset); batch: the fleet page of every server",
        batch: true,
        scan: false,
    },
];

impl Format {
    /// Its row.
    pub fn declared(self) -> &'static Declared {
        FORMATS
            .iter()
            .find(|d| d.format == self)
            .expect("invariant: every format has its row in FORMATS")
    }

    /// Its flag, without `--`.
    pub fn flag(self) -> &'static str {
        self.declared().flag
    }

    /// The format a setting's name stands for: `--junit`, or a config field.
    pub fn named(name: &str) -> Option<Format> {
        FORMATS
            .iter()
            .find(|d| name.strip_prefix("--") == Some(d.flag) || d.key == Some(name))
            .map(|d| d.format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_row_and_one_flag() {
        let all = [
            Format::Junit,
            Format::Sarif,
            Format::ChecksJson,
            Format::Baseline,
            Format::Badge,
            Format::Html,
        ];
        assert_eq!(FORMATS.len(), all.len());
        for f in all {
            assert_eq!(FORMATS.iter().filter(|d| d.format == f).count(), 1);
            assert_eq!(Format::named(&format!("--{}", f.flag())), Some(f));
        }
        assert_eq!(Format::named("--output"), None);
    }
}
