//! Where each host keeps its MCP servers: the table of hosts, their files
//! on Linux, macOS and Windows (every layout looked at, each rooted at the
//! variable that names it: `HOME`, `XDG_CONFIG_HOME`, `APPDATA`,
//! `USERPROFILE`, …, so a fixture home stands in for any of them), the
//! shape of each file and the variables its host expands. Pure: the
//! caller lists the files that exist.

use std::path::{Path, PathBuf};

/// How a file's servers are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{"mcpServers": {NAME: {command, args, env, …}}}`.
    McpServers,
    /// `~/.claude.json`: top-level `mcpServers` (user) and
    /// `projects.<path>.mcpServers` (local to that project).
    ClaudeJson,
    /// VS Code's `mcp.json`: `servers` and `inputs`.
    VsCode,
    /// VS Code's `settings.json`: the same under `mcp`.
    VsCodeSettings,
    /// Zed's `settings.json`: `context_servers`.
    Zed,
    /// Codex's `config.toml`: `[mcp_servers.NAME]`.
    Codex,
    /// Continue's YAML: `mcpServers` as a list of `{name, …}`.
    Continue,
    /// Goose's `config.yaml`: `extensions.NAME` with `cmd` and `envs`.
    Goose,
}

/// The file's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Toml,
    Yaml,
}

/// The variables a host expands in a server's strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vars {
    /// Taken as written.
    None,
    /// Claude Code: `${VAR}`, `${VAR:-default}`.
    Shell,
    /// Cursor, VS Code, Windsurf: `${env:VAR}`, `${userHome}`,
    /// `${workspaceFolder}`, `${input:ID}`.
    Editor,
    /// Gemini CLI: `$VAR`, `${VAR}`.
    Dollar,
    /// Continue: `${{ secrets.NAME }}`, `${{ inputs.NAME }}`.
    Continue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    User,
    Project,
    /// Claude Code's servers of one project kept in `~/.claude.json`.
    Local,
    Managed,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Managed => "managed",
        }
    }
}

/// The directory a location is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    Home,
    /// `XDG_CONFIG_HOME`, else `~/.config`.
    XdgConfig,
    /// `~/Library/Application Support` (macOS).
    MacSupport,
    /// `%APPDATA%` (Windows).
    AppData,
    /// `$CODEX_HOME`, else `~/.codex`.
    CodexHome,
    /// A system directory: `/etc`, `/Library/Application Support`,
    /// `%ProgramFiles%`, `%ProgramData%`.
    Etc,
    MacSystem,
    ProgramFiles,
    ProgramData,
    /// Each directory from the project up to the repository root (or home).
    Project,
}

/// One file (or, with a `*` segment, every entry of a directory) a host
/// reads.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    pub root: Root,
    pub path: &'static str,
    pub scope: Scope,
    pub shape: Shape,
    pub syntax: Syntax,
}

#[derive(Debug)]
pub struct Host {
    /// The name `--host` takes and reports show.
    pub id: &'static str,
    pub name: &'static str,
    pub vars: Vars,
    pub places: &'static [Place],
}

const fn at(root: Root, path: &'static str, scope: Scope, shape: Shape, syntax: Syntax) -> Place {
    Place {
        root,
        path,
        scope,
        shape,
        syntax,
    }
}

use Root::*;
use Scope::{Managed, Project as Proj, User};
use Shape::*;
use Syntax::*;

/// Every host, in the order reports list them.
pub const HOSTS: &[Host] = &[
    Host {
        id: "claude-desktop",
        name: "Claude Desktop",
        vars: Vars::None,
        places: &[
            at(
                XdgConfig,
                "Claude/claude_desktop_config.json",
                User,
                McpServers,
                Json,
            ),
            at(
                MacSupport,
                "Claude/claude_desktop_config.json",
                User,
                McpServers,
                Json,
            ),
            at(
                AppData,
                "Claude/claude_desktop_config.json",
                User,
                McpServers,
                Json,
            ),
        ],
    },
    Host {
        id: "claude-code",
        name: "Claude Code",
        vars: Vars::Shell,
        places: &[
            at(Home, ".claude.json", User, ClaudeJson, Json),
            at(Project, ".mcp.json", Proj, McpServers, Json),
            at(
                Etc,
                "claude-code/managed-mcp.json",
                Managed,
                McpServers,
                Json,
            ),
            at(
                MacSystem,
                "ClaudeCode/managed-mcp.json",
                Managed,
                McpServers,
                Json,
            ),
            at(
                ProgramFiles,
                "ClaudeCode/managed-mcp.json",
                Managed,
                McpServers,
                Json,
            ),
        ],
    },
    Host {
        id: "cursor",
        name: "Cursor",
        vars: Vars::Editor,
        places: &[
            at(Home, ".cursor/mcp.json", User, McpServers, Json),
            at(Project, ".cursor/mcp.json", Proj, McpServers, Json),
        ],
    },
    Host {
        id: "vscode",
        name: "VS Code",
        vars: Vars::Editor,
        places: &[
            at(XdgConfig, "Code/User/mcp.json", User, VsCode, Json),
            at(MacSupport, "Code/User/mcp.json", User, VsCode, Json),
            at(AppData, "Code/User/mcp.json", User, VsCode, Json),
            at(
                XdgConfig,
                "Code/User/profiles/*/mcp.json",
                User,
                VsCode,
                Json,
            ),
            at(
                MacSupport,
                "Code/User/profiles/*/mcp.json",
                User,
                VsCode,
                Json,
            ),
            at(AppData, "Code/User/profiles/*/mcp.json", User, VsCode, Json),
            at(
                XdgConfig,
                "Code/User/settings.json",
                User,
                VsCodeSettings,
                Json,
            ),
            at(
                MacSupport,
                "Code/User/settings.json",
                User,
                VsCodeSettings,
                Json,
            ),
            at(
                AppData,
                "Code/User/settings.json",
                User,
                VsCodeSettings,
                Json,
            ),
            at(Home, ".copilot/mcp-config.json", User, McpServers, Json),
            at(Project, ".vscode/mcp.json", Proj, VsCode, Json),
        ],
    },
    Host {
        id: "windsurf",
        name: "Windsurf",
        vars: Vars::Editor,
        places: &[at(
            Home,
            ".codeium/windsurf/mcp_config.json",
            User,
            McpServers,
            Json,
        )],
    },
    Host {
        id: "cline",
        name: "Cline",
        vars: Vars::None,
        places: &[
            at(
                Home,
                ".cline/data/settings/cline_mcp_settings.json",
                User,
                McpServers,
                Json,
            ),
            at(
                XdgConfig,
                "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
                User,
                McpServers,
                Json,
            ),
            at(
                MacSupport,
                "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
                User,
                McpServers,
                Json,
            ),
            at(
                AppData,
                "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
                User,
                McpServers,
                Json,
            ),
        ],
    },
    Host {
        id: "gemini-cli",
        name: "Gemini CLI",
        vars: Vars::Dollar,
        places: &[
            at(Home, ".gemini/settings.json", User, McpServers, Json),
            at(Project, ".gemini/settings.json", Proj, McpServers, Json),
            at(Etc, "gemini-cli/settings.json", Managed, McpServers, Json),
        ],
    },
    Host {
        id: "lm-studio",
        name: "LM Studio",
        vars: Vars::None,
        places: &[
            at(Home, ".lmstudio/mcp.json", User, McpServers, Json),
            at(Home, ".cache/lm-studio/mcp.json", User, McpServers, Json),
        ],
    },
    Host {
        id: "zed",
        name: "Zed",
        vars: Vars::None,
        places: &[
            at(XdgConfig, "zed/settings.json", User, Zed, Json),
            at(AppData, "Zed/settings.json", User, Zed, Json),
            at(Project, ".zed/settings.json", Proj, Zed, Json),
        ],
    },
    Host {
        id: "codex",
        name: "Codex CLI",
        vars: Vars::None,
        places: &[
            at(CodexHome, "config.toml", User, Codex, Toml),
            at(Project, ".codex/config.toml", Proj, Codex, Toml),
            at(Etc, "codex/config.toml", Managed, Codex, Toml),
            at(
                ProgramData,
                "OpenAI/Codex/config.toml",
                Managed,
                Codex,
                Toml,
            ),
        ],
    },
    Host {
        id: "continue",
        name: "Continue",
        vars: Vars::Continue,
        places: &[
            at(Home, ".continue/config.yaml", User, Continue, Yaml),
            at(Home, ".continue/mcpServers/*.yaml", User, Continue, Yaml),
            at(Home, ".continue/mcpServers/*.json", User, McpServers, Json),
            at(Project, ".continue/mcpServers/*.yaml", Proj, Continue, Yaml),
            at(
                Project,
                ".continue/mcpServers/*.json",
                Proj,
                McpServers,
                Json,
            ),
        ],
    },
    Host {
        id: "goose",
        name: "Goose",
        vars: Vars::None,
        places: &[
            at(XdgConfig, "goose/config.yaml", User, Goose, Yaml),
            at(AppData, "Block/goose/config/config.yaml", User, Goose, Yaml),
        ],
    },
];

/// The directories the roots stand for, from the environment.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    pub home: Option<PathBuf>,
    pub xdg_config: Option<PathBuf>,
    pub appdata: Option<PathBuf>,
    pub codex_home: Option<PathBuf>,
    pub program_files: Option<PathBuf>,
    pub program_data: Option<PathBuf>,
    /// `/` on Unix; `None` where system paths do not apply (tests).
    pub system: Option<PathBuf>,
    /// The project directories, nearest first.
    pub project: Vec<PathBuf>,
}

impl Roots {
    /// The roots from a variable lookup (the process environment, or a
    /// test's); `project` is where the walk up starts.
    pub fn from_env(var: &dyn Fn(&str) -> Option<String>, project: &Path) -> Roots {
        let path = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = path("HOME").or_else(|| path("USERPROFILE"));
        let xdg_config =
            path("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")));
        let codex_home = path("CODEX_HOME").or_else(|| home.as_ref().map(|h| h.join(".codex")));
        let project = project_dirs(project, home.as_deref());
        Roots {
            appdata: path("APPDATA"),
            program_files: path("ProgramFiles"),
            program_data: path("ProgramData"),
            // A mounted image of another machine's disk, or a test's.
            system: path("MCP_GUARD_SYSTEM_ROOT")
                .or_else(|| cfg!(unix).then(|| PathBuf::from("/"))),
            home,
            xdg_config,
            codex_home,
            project,
        }
    }

    /// The directories `root` stands for.
    pub fn of(&self, root: Root) -> Vec<PathBuf> {
        let one = |p: &Option<PathBuf>| p.iter().cloned().collect();
        match root {
            Home => one(&self.home),
            XdgConfig => one(&self.xdg_config),
            MacSupport => self
                .home
                .iter()
                .map(|h| h.join("Library/Application Support"))
                .collect(),
            AppData => one(&self.appdata),
            CodexHome => one(&self.codex_home),
            Etc => self.system.iter().map(|s| s.join("etc")).collect(),
            MacSystem => self
                .system
                .iter()
                .map(|s| s.join("Library/Application Support"))
                .collect(),
            ProgramFiles => one(&self.program_files),
            ProgramData => one(&self.program_data),
            Project => self.project.clone(),
        }
    }
}

/// From `start` up to the first directory holding `.git` (included) or
/// to `home` (excluded: its files are the user's), nearest first.
fn project_dirs(start: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut dir = Some(start);
    while let Some(d) = dir {
        if home.is_some_and(|h| h == d) {
            break;
        }
        dirs.push(d.to_path_buf());
        if d.join(".git").exists() {
            break;
        }
        dir = d.parent();
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_come_from_the_environment_with_their_defaults() {
        let env = |name: &str| match name {
            "HOME" => Some("/h".to_string()),
            "APPDATA" => Some("/w/AppData/Roaming".to_string()),
            _ => None,
        };
        let r = Roots::from_env(&env, Path::new("/h/src/app"));
        assert_eq!(r.of(XdgConfig), [PathBuf::from("/h/.config")]);
        assert_eq!(r.of(CodexHome), [PathBuf::from("/h/.codex")]);
        assert_eq!(r.of(AppData), [PathBuf::from("/w/AppData/Roaming")]);
        assert_eq!(
            r.of(MacSupport),
            [PathBuf::from("/h/Library/Application Support")]
        );
        assert_eq!(
            r.of(Project),
            [PathBuf::from("/h/src/app"), PathBuf::from("/h/src")]
        );
        assert!(r.of(ProgramFiles).is_empty());
    }

    #[test]
    fn every_host_has_a_unique_id_and_a_place() {
        for (i, h) in HOSTS.iter().enumerate() {
            assert!(!h.places.is_empty(), "{}", h.id);
            assert!(HOSTS[i + 1..].iter().all(|o| o.id != h.id), "{}", h.id);
        }
    }
}
