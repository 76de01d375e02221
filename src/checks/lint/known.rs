//! What a server defines, for the rules that tell its own tools from
//! another server's: its tool and parameter names, the prefixes its tools
//! share, the words of its name, and whether its list was read whole. Pure.

use std::collections::HashSet;

use crate::checks::lint::needle::Joined;

/// What the server defines, for the rules that tell its own tools from
/// another server's: its tool and parameter names, the prefixes its tools
/// share (its families: `extension` on a server of `extension_*` tools),
/// and whether its list was read whole (when it was not, every name may be
/// its own).
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub tools: HashSet<String>,
    pub params: HashSet<String>,
    families: HashSet<String>,
    tokens: HashSet<String>,
    /// The words of the server's name (`circleci` of `mcp-server-circleci`).
    server: HashSet<String>,
    pub complete: bool,
}

/// A name's words: split at `_`, `-`, `.` and lower-to-upper steps.
pub fn name_tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ' | '/' | '@') || (prev_lower && c.is_uppercase()) {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if matches!(c, '_' | '-' | '.' | ' ' | '/' | '@') {
                prev_lower = false;
                continue;
            }
        }
        prev_lower = c.is_lowercase();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

impl Known {
    /// From the server's tool (and prompt) names and parameter names.
    pub fn new<'a>(
        names: impl IntoIterator<Item = &'a str>,
        params: impl IntoIterator<Item = &'a str>,
        complete: bool,
    ) -> Known {
        let mut known = Known {
            complete,
            ..Known::default()
        };
        let mut prefixes: std::collections::HashMap<String, usize> = Default::default();
        for name in names {
            known.tools.insert(name.to_lowercase());
            let tokens = name_tokens(name);
            if let Some(first) = tokens.first().filter(|_| tokens.len() > 1) {
                *prefixes.entry(first.clone()).or_default() += 1;
            }
            known.tokens.extend(tokens);
        }
        known.families = prefixes
            .into_iter()
            .filter(|(p, n)| *n >= 2 && p.len() >= 3)
            .map(|(p, _)| p)
            .collect();
        known.params = params.into_iter().map(str::to_lowercase).collect();
        known
    }

    /// With the words of the server's name (its family in prose).
    pub fn with_server(mut self, name: &str) -> Known {
        const GENERIC: Joined =
            Joined("mcp|server|tool|tools|npm|pypi|the|api|modelcontextprotocol");
        self.server = name_tokens(name)
            .into_iter()
            .filter(|t| t.len() >= 3 && !GENERIC.has(t))
            .collect();
        self
    }

    /// Whether `word` (folded) names the server itself or a family of its
    /// tools.
    pub fn family_word(&self, word: &str) -> bool {
        self.families.contains(word) || self.server.contains(word)
    }

    /// Whether `word` (folded) names the server's own tool, parameter or
    /// family, or a tool of its under an older name (every word of it is a
    /// word of the server's names); always, when the list was not read
    /// whole.
    pub fn owns(&self, word: &str) -> bool {
        if !self.complete {
            return true;
        }
        let suffix_of = |t: &String| {
            t.len() > word.len()
                && t.ends_with(word)
                && matches!(t.as_bytes()[t.len() - word.len() - 1], b'_' | b'-')
        };
        if self.tools.contains(word)
            || self.params.contains(word)
            || self.family_word(word)
            || self.tools.iter().any(suffix_of)
        {
            return true;
        }
        let tokens = name_tokens(word);
        if tokens.first().is_some_and(|t| self.families.contains(t)) {
            return true;
        }
        tokens.len() >= 2
            && tokens.iter().all(|t| {
                self.tokens.iter().any(|own| {
                    own == t
                        || (t.len() >= 4 && own.starts_with(t.as_str()))
                        || (own.len() >= 4 && t.starts_with(own.as_str()))
                })
            })
    }
}
