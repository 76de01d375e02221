//! The user's words: the vocabulary (`words`), every setting of every
//! command declared once (`settings`), the formats beside the report
//! (`formats`), argv (`cli`), a config file's text
//! (`config`), an expected-failures baseline's text (`expected`), an
//! accepted-findings baseline's text (`baseline`), the one
//! rule that layers them (`resolve`), the `call`
//! command's arguments (`call`), and the help, manual page and completions
//! made from the same declarations (`help`). No process is started, no file
//! is read.

pub mod baseline;
pub mod call;
pub mod cli;
pub mod config;
pub mod expected;
pub mod formats;
pub mod help;
pub mod resolve;
pub mod settings;
pub mod words;
