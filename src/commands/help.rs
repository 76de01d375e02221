//! `help`, `--help`, `--version`, `help codes`, `help --man` and
//! `completions SHELL`: text made from the one declaration of every
//! setting and command, and the code table.

use crate::args::cli::HelpTopic;
use crate::args::help::{help_main, help_of, help_short};
use crate::args::words::Shell;
use crate::checks;
use crate::error::Error;
use crate::plan::outputs::{Kind, Outputs, Wanted};

fn print(text: &str) -> Result<u8, Error> {
    let mut out = Outputs::open(&[Wanted::new(Kind::Report, "-")], &[])?;
    out.write(Kind::Report, text.as_bytes())?;
    Ok(0)
}

/// Prints the help of a topic.
pub fn help(topic: HelpTopic) -> Result<u8, Error> {
    let text = match topic {
        HelpTopic::Main => help_main(),
        HelpTopic::Of(cmd) => help_of(cmd),
        HelpTopic::Short(cmd) => help_short(cmd),
        HelpTopic::Unknown(name) => {
            let names: Vec<&str> = crate::args::cli::COMMANDS.iter().map(|c| c.name).collect();
            return Err(Error::usage(
                format!("help has no topic '{name}'"),
                format!(
                    "the topics: {}, codes, --man (as in: mcp-stdio-guard help codes)",
                    names.join(", ")
                ),
            ));
        }
        HelpTopic::Codes => checks::code::listing(),
        HelpTopic::Man => crate::args::help::man_page(),
    };
    print(&text)
}

/// Prints a completion script.
pub fn completions(shell: Shell) -> Result<u8, Error> {
    print(&crate::args::help::completions(shell))
}

/// Prints the version.
pub fn version() -> Result<u8, Error> {
    print(&format!("mcp-stdio-guard {}\n", env!("CARGO_PKG_VERSION")))
}
