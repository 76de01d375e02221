//! The user's words: the vocabulary (`words`), every setting declared once
//! (`settings`), argv (`cli`), the config file (`config`), the `call`
//! command's arguments (`call`), and the help, manual page and completions
//! made from the same declarations (`help`). No process is started here.

pub mod call;
pub mod cli;
pub mod config;
pub mod help;
pub mod settings;
pub mod words;
