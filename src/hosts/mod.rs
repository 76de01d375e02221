//! Every MCP server configured on this machine, found in each host's
//! configuration files (Claude Desktop, Claude Code, Cursor, VS Code,
//! Windsurf, Cline, Gemini CLI, LM Studio, Zed, Codex CLI, Continue,
//! Goose), without starting anything. Reads files only; independent of
//! the runtime engine, like the static scanner.

pub mod jsonc;
pub mod toml;
pub mod tree;
pub mod yaml;
