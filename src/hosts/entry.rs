//! The servers of one read file, by its host's shape: each entry's name,
//! line, transport, whether it is enabled, its command, arguments,
//! environment (values resolved and kept for `doctor`, never shown), working
//! directory, URL, and what it needs from the user. An entry the host
//! could not use is a row with its problem. Pure.

use std::path::Path;

use super::places::{Host, Place, Scope, Shape};
use super::tree::{Node, Value};
use super::vars::{self, Context};

/// One configured server (or an entry that is not one, with its problem).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub host: &'static str,
    pub scope: Scope,
    pub file: String,
    pub line: u32,
    pub name: String,
    /// `stdio`, `http`, `sse`, or the host's own word (`builtin`).
    pub transport: String,
    pub enabled: bool,
    pub command: Option<String>,
    pub args: Vec<String>,
    /// Names and resolved values: values never leave `doctor`'s launch.
    pub env: Vec<(String, String)>,
    pub cwd: Option<String>,
    pub url: Option<String>,
    pub needs: Vec<String>,
    /// `host:name` of the first entry with the same launch.
    pub duplicate_of: Option<String>,
    /// Why the host could not use this entry.
    pub problem: Option<String>,
}

/// What one file's entries are read with.
pub struct Reading<'a> {
    pub host: &'static Host,
    pub place: &'a Place,
    pub file: &'a Path,
    pub var: &'a dyn Fn(&str) -> Option<String>,
    pub home: Option<&'a str>,
    /// The project directory a project file was found in.
    pub workspace: Option<&'a str>,
}

impl std::fmt::Debug for Reading<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Every server entry of a file's tree.
pub fn servers(root: &Node, r: &Reading) -> Vec<Found> {
    let mut out = Vec::new();
    match r.place.shape {
        Shape::McpServers => map(
            root.get("mcpServers"),
            r,
            r.place.scope,
            r.workspace,
            &mut out,
        ),
        Shape::VsCode => map(root.get("servers"), r, r.place.scope, r.workspace, &mut out),
        Shape::VsCodeSettings => map(
            root.at(&["mcp", "servers"]),
            r,
            r.place.scope,
            r.workspace,
            &mut out,
        ),
        Shape::Zed => map(
            root.get("context_servers"),
            r,
            r.place.scope,
            r.workspace,
            &mut out,
        ),
        Shape::Codex => map(
            root.get("mcp_servers"),
            r,
            r.place.scope,
            r.workspace,
            &mut out,
        ),
        Shape::Goose => map(
            root.get("extensions"),
            r,
            r.place.scope,
            r.workspace,
            &mut out,
        ),
        Shape::ClaudeJson => {
            map(root.get("mcpServers"), r, Scope::User, None, &mut out);
            if let Some(projects) = root.get("projects") {
                for (path, project) in projects.entries() {
                    map(
                        project.get("mcpServers"),
                        r,
                        Scope::Local,
                        Some(path),
                        &mut out,
                    );
                }
            }
        }
        Shape::Continue => {
            for item in root.get("mcpServers").map_or(&[][..], Node::items) {
                let name = item.get("name").and_then(Node::as_str).unwrap_or("");
                let mut f = one(name, item, r, r.place.scope, r.workspace);
                if name.is_empty() {
                    f.problem
                        .get_or_insert_with(|| "the entry has no name".into());
                }
                out.push(f);
            }
        }
    }
    out
}

/// The entries of a map of servers (`NAME: {…}`).
fn map(
    servers: Option<&Node>,
    r: &Reading,
    scope: Scope,
    workspace: Option<&str>,
    out: &mut Vec<Found>,
) {
    let Some(servers) = servers else { return };
    if !matches!(servers.value, Value::Map(_)) {
        let mut f = blank(r, scope, servers.line, "");
        f.problem = Some(format!(
            "the servers are {}, not a map of entries",
            servers.kind()
        ));
        out.push(f);
        return;
    }
    for (name, entry) in servers.entries() {
        out.push(one(name, entry, r, scope, workspace));
    }
}

fn blank(r: &Reading, scope: Scope, line: u32, name: &str) -> Found {
    Found {
        host: r.host.id,
        scope,
        file: r.file.display().to_string(),
        line,
        name: name.to_string(),
        transport: String::new(),
        enabled: true,
        command: None,
        args: Vec::new(),
        env: Vec::new(),
        cwd: None,
        url: None,
        needs: Vec::new(),
        duplicate_of: None,
        problem: None,
    }
}

/// A scalar as the text a host passes on (numbers and booleans as
/// written), or `None` for a list, a map or null.
fn text(node: &Node) -> Option<String> {
    match &node.value {
        Value::Str(s) => Some(s.clone()),
        Value::Num(n) => Some(n.clone()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// One entry.
fn one(name: &str, entry: &Node, r: &Reading, scope: Scope, workspace: Option<&str>) -> Found {
    let mut f = blank(r, scope, entry.line, name);
    if !matches!(entry.value, Value::Map(_)) {
        f.problem = Some(format!("the entry is {}, not a map", entry.kind()));
        return f;
    }
    let cx = Context {
        var: r.var,
        home: r.home,
        workspace,
    };
    let host_vars = r.host.vars;
    let mut needs = Vec::new();
    let mut expand = |s: &str| vars::expand(s, host_vars, &cx, &mut needs);
    let goose = r.place.shape == Shape::Goose;
    // Zed's older shape: `"command": {"path", "args", "env"}`.
    let command_node = entry.get(if goose { "cmd" } else { "command" });
    let (command_node, holder) = match command_node {
        Some(c) if matches!(c.value, Value::Map(_)) => (c.get("path"), c),
        other => (other, entry),
    };
    let mut problems = Vec::new();
    if let Some(c) = command_node {
        match text(c) {
            Some(c) => f.command = Some(expand(&c)),
            None => problems.push(format!("command is {}, not a string", c.kind())),
        }
    }
    if let Some(args) = holder.get("args") {
        match &args.value {
            Value::List(items) => {
                for a in items {
                    match text(a) {
                        Some(a) => f.args.push(expand(&a)),
                        None => problems.push(format!("an argument is {}, not a string", a.kind())),
                    }
                }
            }
            _ => problems.push(format!("args is {}, not a list", args.kind())),
        }
    }
    if let Some(env) = holder.get(if goose { "envs" } else { "env" }) {
        if !matches!(env.value, Value::Map(_)) {
            problems.push(format!("env is {}, not a map", env.kind()));
        }
        for (k, v) in env.entries() {
            match text(v) {
                Some(v) => f.env.push((k.to_string(), expand(&v))),
                None => problems.push(format!("env {k} is {}, not a string", v.kind())),
            }
        }
    }
    if let Some(cwd) = entry.get("cwd").and_then(text) {
        f.cwd = Some(expand(&cwd));
    }
    let url = ["url", "serverUrl", "httpUrl", "uri"]
        .iter()
        .find_map(|k| entry.get(k).and_then(text).map(|u| (*k, u)));
    if let Some((_, u)) = &url {
        f.url = Some(expand(u));
    }
    forward(entry, r, &mut f, &mut needs);
    f.needs = needs;
    f.transport = transport(entry, f.command.is_some(), url.map(|(k, _)| k), r.host.id);
    f.enabled = entry.get("disabled").and_then(Node::as_bool) != Some(true)
        && entry.get("enabled").and_then(Node::as_bool) != Some(false);
    if f.transport == "stdio" && f.command.is_none() && problems.is_empty() {
        problems.push("a stdio entry has no command".into());
    }
    if !problems.is_empty() {
        f.problem = Some(problems.join("; "));
    }
    f
}

/// Codex's `env_vars`: the named variables of the host's own environment,
/// forwarded; an unset one is needed.
fn forward(entry: &Node, r: &Reading, f: &mut Found, needs: &mut Vec<String>) {
    for n in entry.get("env_vars").map_or(&[][..], Node::items) {
        if let Some(n) = n.as_str() {
            match (r.var)(n) {
                Some(v) => f.env.push((n.to_string(), v)),
                None => needs.push(format!("{n} is not set")),
            }
        }
    }
}

/// The transport: the entry's `type` (its spellings made one), else
/// `stdio` for a command and `http` (Gemini's `url`: `sse`) for a URL.
fn transport(entry: &Node, command: bool, url_key: Option<&str>, host: &str) -> String {
    if let Some(t) = entry
        .get("type")
        .or_else(|| entry.get("transport"))
        .and_then(Node::as_str)
    {
        return match t {
            "stdio" | "local" => "stdio",
            "http" | "streamable-http" | "streamable_http" | "streamableHttp" | "remote" => "http",
            "sse" => "sse",
            other => return other.to_string(),
        }
        .to_string();
    }
    match (command, url_key) {
        (true, _) => "stdio",
        (false, Some("url")) if host == "gemini-cli" => "sse",
        (false, Some(_)) => "http",
        (false, None) if entry.get("source").and_then(Node::as_str) == Some("extension") => {
            "extension"
        }
        (false, None) => "stdio",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::places::{HOSTS, Syntax};

    fn read(host: &str, shape: Shape, text: &str) -> Vec<Found> {
        let host = HOSTS.iter().find(|h| h.id == host).expect("host");
        let place = Place {
            root: crate::hosts::places::Root::Home,
            path: "x",
            scope: Scope::User,
            shape,
            syntax: Syntax::Json,
        };
        let var = |n: &str| (n == "TOKEN").then(|| "secret".to_string());
        let r = Reading {
            host,
            place: &place,
            file: Path::new("/h/x.json"),
            var: &var,
            home: Some("/h"),
            workspace: None,
        };
        let root = crate::hosts::jsonc::read(text).expect("json");
        servers(&root, &r)
    }

    #[test]
    fn a_map_of_servers_reads_each_entry_with_its_line_and_transport() {
        let text = r#"{
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "fs", 8], "env": {"KEY": "${TOKEN}"}},
    "web": {"url": "https://x.example/mcp"},
    "off": {"command": "x", "disabled": true},
    "bad": {"command": ["x"]}
  }
}"#;
        let got = read("claude-code", Shape::McpServers, text);
        assert_eq!(got.len(), 4);
        assert_eq!((got[0].line, got[0].transport.as_str()), (3, "stdio"));
        assert_eq!(got[0].args, ["-y", "fs", "8"]);
        assert_eq!(got[0].env, [("KEY".to_string(), "secret".to_string())]);
        assert_eq!(
            (got[1].transport.as_str(), got[1].url.as_deref()),
            ("http", Some("https://x.example/mcp"))
        );
        assert!(!got[2].enabled);
        assert_eq!(
            got[3].problem.as_deref(),
            Some("command is a list, not a string")
        );
    }

    #[test]
    fn claude_json_projects_zed_commands_and_goose_extensions_are_read() {
        let claude = r#"{"mcpServers": {"a": {"command": "a"}},
            "projects": {"/work/app": {"mcpServers": {"b": {"command": "b", "args": ["${X:-d}"]}}}}}"#;
        let got = read("claude-code", Shape::ClaudeJson, claude);
        assert_eq!((got[0].scope, got[1].scope), (Scope::User, Scope::Local));
        assert_eq!(got[1].args, ["d"]);
        let zed = r#"{"context_servers": {"z": {"command": {"path": "zs", "args": ["-v"]}, "settings": {}},
            "ext": {"source": "extension", "settings": {}}}}"#;
        let got = read("zed", Shape::Zed, zed);
        assert_eq!(
            (got[0].command.as_deref(), got[0].args.as_slice()),
            (Some("zs"), &["-v".to_string()][..])
        );
        assert_eq!(got[1].transport, "extension");
        let goose = r#"{"extensions": {"gh": {"cmd": "npx", "envs": {"T": "v"}, "type": "stdio", "enabled": false},
            "dev": {"type": "builtin", "enabled": true}}}"#;
        let got = read("goose", Shape::Goose, goose);
        assert_eq!(
            (got[0].command.as_deref(), got[0].enabled),
            (Some("npx"), false)
        );
        assert_eq!(got[1].transport, "builtin");
    }

    #[test]
    fn vs_code_inputs_are_needs_and_a_bad_servers_value_is_a_problem_row() {
        let text = r#"{"servers": {"gh": {"type": "stdio", "command": "gh-mcp", "env": {"T": "${input:token}"}}}}"#;
        let got = read("vscode", Shape::VsCode, text);
        assert_eq!(
            got[0].needs,
            ["input 'token' (the host asks the user for it)"]
        );
        let got = read("cursor", Shape::McpServers, r#"{"mcpServers": ["x"]}"#);
        assert_eq!(
            got[0].problem.as_deref(),
            Some("the servers are a list, not a map of entries")
        );
    }
}
