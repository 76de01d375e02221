//! The eras of a check: which the server speaks (`modern`, `legacy`, or
//! `dual` when it lists or serves both), and with `--era both` what became
//! of the other era: its run (judged and counted), or why it is not served
//! (a modern-only server's -32022 to `initialize` is correct, not a
//! failure). Pure.

use crate::checks::Code;
use crate::mcp;
use crate::session::Speaks;
use crate::verdict::run::RunReport;

/// The eras of a check.
#[derive(Debug, Clone, Default)]
pub struct Eras {
    /// `modern`, `legacy` or `dual`; empty when no era was found.
    pub detected: &'static str,
    /// `--era both`: the legacy run, when both eras are served.
    pub other: Option<RunReport>,
    /// `--era both`: an era the server does not claim, and why.
    pub not_served: Vec<(&'static str, String)>,
}

impl Eras {
    /// What the eras came to. `other` is `--era both`'s 2025 run of a
    /// server that spoke 2026-07-28: kept when 2025 is served (or broke in
    /// its own way), dropped with a note when the server refused it as a
    /// modern-only server should.
    pub fn settle(runs: &[RunReport], other: Option<RunReport>, both: bool) -> Eras {
        let Some(e) = runs.first().and_then(|r| r.era.as_ref()) else {
            return Eras::default();
        };
        let lists_legacy = e.supported.iter().any(|v| !mcp::is_modern(v));
        let mut eras = Eras {
            detected: match e.speaks {
                Speaks::Modern if lists_legacy => "dual",
                s => s.as_str(),
            },
            ..Eras::default()
        };
        if !both {
            return eras;
        }
        let Some(legacy) = other else {
            // The server spoke 2025: it did not claim 2026-07-28.
            eras.not_served.push(("modern", e.reason.clone()));
            return eras;
        };
        if legacy.initialized {
            eras.detected = "dual";
            eras.other = Some(legacy);
        } else if legacy
            .issues
            .iter()
            .any(|i| i.code == Code::InitializeModernOnly)
        {
            eras.not_served.push((
                "legacy",
                "initialize answered -32022 naming only 2026-07-28 versions: a modern-only server"
                    .into(),
            ));
        } else {
            eras.other = Some(legacy);
        }
        eras
    }
}
