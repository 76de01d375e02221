//! `--config FILE`: this tool's JSON config (the 1.0 fields), or a client
//! config users already have (Claude Desktop, VS Code, Cursor: a
//! `mcpServers` or `servers` map, one entry picked with `--server`). Read
//! and validated before anything starts: an unknown field (with a
//! suggestion for a likely typo), a wrong type or a bad value is an error
//! naming the field. Paths are resolved against the file's directory.
//! Numbers obey the same ranges as their flags (`words::Bound`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::args::words::{self, Bound, EnvSpec, Probe, Profile};
use crate::error::Error;

/// One request from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub method: String,
    pub params: Option<Value>,
}

/// One tool call from the file (`safeToolCalls`, `adversarialToolCalls`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
}

/// What a config file sets; `None` (or empty) where it is silent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfigFile {
    /// The path as given, and absolute.
    pub path: String,
    pub resolved: PathBuf,
    /// The name of the client config entry (`mcpServers`) that was read.
    pub server: Option<String>,
    pub command: Option<Vec<OsString>>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub profile: Option<Profile>,
    pub protocol: Option<String>,
    pub era: Option<words::Era>,
    pub era_window_ms: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub repeat: Option<u64>,
    pub json: Option<bool>,
    pub max_stdout_bytes: Option<u64>,
    pub max_stdout_line_bytes: Option<u64>,
    pub max_stderr_bytes: Option<u64>,
    pub scan: Vec<PathBuf>,
    pub fail_on_static: Option<bool>,
    pub requests: Vec<Request>,
    pub safe_tool_calls: Vec<ToolCall>,
    pub adversarial: Option<Vec<Probe>>,
    pub adversarial_tool_calls: Vec<ToolCall>,
}

impl ConfigFile {
    /// The file's environment as `--env NAME=VALUE` specs, in file order.
    pub fn env_specs(&self) -> Vec<EnvSpec> {
        self.env
            .iter()
            .map(|(k, v)| EnvSpec::Set(k.clone(), v.clone()))
            .collect()
    }
}

/// Every field of this tool's format.
pub const FIELDS: &[&str] = &[
    "$schema",
    "command",
    "args",
    "cwd",
    "env",
    "profile",
    "protocol",
    "era",
    "eraWindowMs",
    "timeoutMs",
    "repeat",
    "json",
    "maxStdoutBytes",
    "maxStdoutLineBytes",
    "maxStderrBytes",
    "scan",
    "scanPath",
    "failOnStatic",
    "request",
    "requests",
    "safeToolCalls",
    "adversarialProbes",
    "adversarialToolCalls",
];

/// Reads values of one file, naming the field in every error.
struct Reader<'a> {
    path: &'a str,
    dir: PathBuf,
}

impl Reader<'_> {
    fn bad(&self, field: &str, problem: impl std::fmt::Display) -> Error {
        Error::usage(
            format!("config {}: {field} {problem}", self.path),
            "fix the config file; nothing was started",
        )
    }

    /// A non-empty string that a process can carry (no NUL byte).
    fn string(&self, v: &Value, field: &str) -> Result<String, Error> {
        match v {
            Value::String(s) if s.contains('\0') => Err(self.bad(field, "holds a NUL byte")),
            Value::String(s) if !s.is_empty() => Ok(s.clone()),
            Value::String(_) => Err(self.bad(field, "must not be empty")),
            other => Err(self.bad(
                field,
                format!("must be a string, not {}", crate::jsonrpc::describe(other)),
            )),
        }
    }

    fn number(&self, v: &Value, field: &str, bound: Bound) -> Result<u64, Error> {
        match v {
            Value::Number(n) if n.is_u64() => bound
                .check(n.as_u64().unwrap_or(0))
                .map_err(|p| self.bad(field, p)),
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f > 0.0) => Err(self.bad(
                field,
                format!("must be at most {} {}", bound.max, bound.unit),
            )),
            _ => Err(self.bad(
                field,
                format!(
                    "must be a whole number of {} from {} to {}, not {v}",
                    bound.unit, bound.min, bound.max
                ),
            )),
        }
    }

    fn boolean(&self, v: &Value, field: &str) -> Result<bool, Error> {
        v.as_bool()
            .ok_or_else(|| self.bad(field, format!("must be true or false, not {v}")))
    }

    fn strings(&self, v: &Value, field: &str) -> Result<Vec<String>, Error> {
        let Some(items) = v.as_array() else {
            return Err(self.bad(field, "must be an array of strings"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.string(item, &format!("{field}[{i}]")))
            .collect()
    }

    fn path(&self, v: &Value, field: &str) -> Result<PathBuf, Error> {
        Ok(normalize(&self.dir.join(self.string(v, field)?)))
    }

    fn paths(&self, v: &Value, field: &str) -> Result<Vec<PathBuf>, Error> {
        match v {
            Value::Array(_) => Ok(self
                .strings(v, field)?
                .into_iter()
                .map(|p| normalize(&self.dir.join(p)))
                .collect()),
            _ => Ok(vec![self.path(v, field)?]),
        }
    }

    fn env(&self, v: &Value, field: &str) -> Result<Vec<(String, String)>, Error> {
        let Some(map) = v.as_object() else {
            return Err(self.bad(field, "must be an object of NAME: value"));
        };
        let mut out = Vec::new();
        for (name, value) in map {
            let at = format!("{field}.{name}");
            let value = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(self.bad(&at, "must be a string")),
            };
            if name.is_empty() || name.contains('=') || name.contains('\0') {
                return Err(self.bad(&at, "is not a variable name"));
            }
            if value.contains('\0') {
                return Err(self.bad(&at, "holds a NUL byte, which no environment can carry"));
            }
            out.push((name.clone(), value));
        }
        Ok(out)
    }

    fn word<T: std::str::FromStr<Err = words::NotOneOf>>(
        &self,
        v: &Value,
        field: &str,
    ) -> Result<T, Error> {
        let text = self.string(v, field)?;
        text.parse()
            .map_err(|e: words::NotOneOf| self.bad(field, e))
    }

    fn protocol(&self, v: &Value) -> Result<String, Error> {
        let p = self.string(v, "protocol")?;
        if !crate::mcp::is_date_shaped(&p) {
            return Err(self.bad(
                "protocol",
                format!("'{p}' is not a version such as 2025-11-25"),
            ));
        }
        Ok(p)
    }

    fn request(&self, v: &Value, field: &str) -> Result<Request, Error> {
        let Some(obj) = v.as_object() else {
            return Err(self.bad(field, "must be an object like {\"method\": \"tools/list\"}"));
        };
        if let Some(key) = obj.keys().find(|k| *k != "method" && *k != "params") {
            return Err(self.bad(
                &format!("{field}.{key}"),
                "is not a request field (method, params)",
            ));
        }
        let method = self.string(
            obj.get("method").unwrap_or(&Value::Null),
            &format!("{field}.method"),
        )?;
        let params = obj.get("params").cloned();
        if params
            .as_ref()
            .is_some_and(|p| !p.is_object() && !p.is_array())
        {
            return Err(self.bad(&format!("{field}.params"), "must be an object or an array"));
        }
        Ok(Request { method, params })
    }

    fn requests(&self, v: &Value) -> Result<Vec<Request>, Error> {
        let Some(items) = v.as_array() else {
            return Err(self.bad("requests", "must be an array of {\"method\": ...}"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.request(item, &format!("requests[{i}]")))
            .collect()
    }

    fn tool_call(&self, item: &Value, f: &str) -> Result<ToolCall, Error> {
        let Some(obj) = item.as_object() else {
            return Err(self.bad(f, "must be an object with name and arguments"));
        };
        if let Some(key) = obj.keys().find(|k| *k != "name" && *k != "arguments") {
            return Err(self.bad(
                &format!("{f}.{key}"),
                "is not a tool call field (name, arguments)",
            ));
        }
        let name = self.string(
            obj.get("name").unwrap_or(&Value::Null),
            &format!("{f}.name"),
        )?;
        let arguments = obj
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        if !arguments.is_object() {
            return Err(self.bad(&format!("{f}.arguments"), "must be an object"));
        }
        Ok(ToolCall { name, arguments })
    }

    fn tool_calls(&self, v: &Value, field: &str) -> Result<Vec<ToolCall>, Error> {
        let Some(items) = v.as_array() else {
            return Err(self.bad(
                field,
                "must be an array of {\"name\": ..., \"arguments\": {...}}",
            ));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.tool_call(item, &format!("{field}[{i}]")))
            .collect()
    }

    fn probes(&self, v: &Value) -> Result<Vec<Probe>, Error> {
        let field = "adversarialProbes";
        let text = match v {
            Value::Bool(true) => return Ok(Probe::ALL.to_vec()),
            Value::Bool(false) => return Ok(Vec::new()),
            Value::String(s) => s.clone(),
            Value::Array(_) => self.strings(v, field)?.join(","),
            other => {
                return Err(self.bad(
                    field,
                    format!(
                        "must be true, \"all\", \"none\" or a list of probe names, not {other}"
                    ),
                ));
            }
        };
        words::probe_list(&text).map_err(|e| self.bad(field, e))
    }

    /// `command` (an array, or a string with `args`).
    fn command(&self, top: &Map<String, Value>, v: &Value) -> Result<Vec<OsString>, Error> {
        match v {
            Value::Array(_) => {
                let argv = self.strings(v, "command")?;
                if argv.is_empty() {
                    return Err(self.bad("command", "must not be empty"));
                }
                Ok(argv.into_iter().map(OsString::from).collect())
            }
            Value::String(_) => {
                let mut argv = vec![OsString::from(self.string(v, "command")?)];
                if let Some(args) = top.get("args") {
                    argv.extend(self.strings(args, "args")?.into_iter().map(OsString::from));
                }
                Ok(argv)
            }
            _ => Err(self.bad(
                "command",
                "must be an array like [\"node\", \"server.js\"] or a string with args",
            )),
        }
    }
}

/// Reads and validates a config file.
pub fn load(path: &OsString, server: Option<&str>) -> Result<ConfigFile, Error> {
    let shown = path.to_string_lossy().into_owned();
    let resolved = std::path::absolute(Path::new(path)).unwrap_or_else(|_| PathBuf::from(path));
    // Not a regular file (a FIFO, a terminal) could block the read forever.
    if !resolved.is_file() {
        return Err(Error::usage(
            format!("config {shown} is not a file"),
            "give the path of a JSON config file",
        ));
    }
    let text = std::fs::read_to_string(&resolved)
        .map_err(|e| Error::io(format!("cannot read the config file {shown}"), e))?;
    parse_text(&text, &shown, &resolved, server)
}

/// Reads and validates a config file's text; `shown` names it in errors
/// and `resolved` (absolute) is what relative paths are resolved against.
pub fn parse_text(
    text: &str,
    shown: &str,
    resolved: &Path,
    server: Option<&str>,
) -> Result<ConfigFile, Error> {
    let shown = shown.to_string();
    let resolved = resolved.to_path_buf();
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Error::usage(
            format!("config {shown} is not valid JSON: {e}"),
            "fix the config file; nothing was started",
        )
    })?;
    let Value::Object(top) = value else {
        return Err(Error::usage(
            format!("config {shown} must be a JSON object"),
            "see README.md, Config files",
        ));
    };
    let dir = resolved
        .parent()
        .map_or_else(PathBuf::new, Path::to_path_buf);
    let r = Reader { path: &shown, dir };
    let config = ConfigFile {
        path: shown.clone(),
        resolved: resolved.clone(),
        ..ConfigFile::default()
    };
    if let Some(servers) = top.get("mcpServers").or_else(|| top.get("servers")) {
        return client_entry(&r, config, servers, server);
    }
    if server.is_some() {
        return Err(Error::usage(
            format!("config {shown} has no mcpServers or servers map for --server"),
            "--server picks an entry of a Claude Desktop / VS Code / Cursor config",
        ));
    }
    own_format(&r, config, &top)
}

/// This tool's own format: every field checked, unknown ones refused.
fn own_format(
    r: &Reader,
    mut config: ConfigFile,
    top: &Map<String, Value>,
) -> Result<ConfigFile, Error> {
    for (key, v) in top {
        match key.as_str() {
            "$schema" => {}
            "command" => config.command = Some(r.command(top, v)?),
            "args" if !top.get("command").is_some_and(Value::is_string) => {
                return Err(r.bad("args", "is used only with a string command"));
            }
            "args" => {}
            "cwd" => config.cwd = Some(r.path(v, "cwd")?),
            "env" => config.env = r.env(v, "env")?,
            "profile" => config.profile = Some(r.word(v, "profile")?),
            "protocol" => config.protocol = Some(r.protocol(v)?),
            "era" => config.era = Some(r.word(v, "era")?),
            "eraWindowMs" => config.era_window_ms = Some(r.number(v, key, words::ERA_WINDOW_MS)?),
            "timeoutMs" => config.timeout_ms = Some(r.number(v, key, words::TIMEOUT_MS)?),
            "repeat" => config.repeat = Some(r.number(v, key, words::REPEAT)?),
            "json" => config.json = Some(r.boolean(v, "json")?),
            "maxStdoutBytes" => {
                config.max_stdout_bytes = Some(r.number(v, key, words::STDOUT_BYTES)?)
            }
            "maxStdoutLineBytes" => {
                config.max_stdout_line_bytes = Some(r.number(v, key, words::LINE_BYTES)?)
            }
            "maxStderrBytes" => {
                config.max_stderr_bytes = Some(r.number(v, key, words::STDERR_BYTES)?)
            }
            "scan" | "scanPath" => config.scan.extend(r.paths(v, key)?),
            "failOnStatic" => config.fail_on_static = Some(r.boolean(v, key)?),
            "request" => config.requests.insert(0, r.request(v, "request")?),
            "requests" => config.requests.extend(r.requests(v)?),
            "safeToolCalls" => config.safe_tool_calls = r.tool_calls(v, key)?,
            "adversarialProbes" => config.adversarial = Some(r.probes(v)?),
            "adversarialToolCalls" => config.adversarial_tool_calls = r.tool_calls(v, key)?,
            other => return Err(unknown_field(r, other)),
        }
    }
    Ok(config)
}

fn unknown_field(r: &Reader, other: &str) -> Error {
    let hint = match words::closest(other, FIELDS.iter().copied(), 3) {
        Some(f) => format!("did you mean {f}?"),
        None => format!("known fields: {}", FIELDS[1..].join(", ")),
    };
    Error::usage(format!("config {}: unknown field '{other}'", r.path), hint)
}

/// One entry of a client config's server map.
fn client_entry(
    r: &Reader,
    mut config: ConfigFile,
    servers: &Value,
    pick: Option<&str>,
) -> Result<ConfigFile, Error> {
    let Some(map) = servers.as_object() else {
        return Err(r.bad("mcpServers", "must be an object of server entries"));
    };
    let names: Vec<&str> = map.keys().map(String::as_str).collect();
    let name = match pick {
        Some(name) if map.contains_key(name) => name,
        Some(name) => {
            return Err(Error::usage(
                format!("config {}: no server named '{name}'", r.path),
                format!("its servers: {}", names.join(", ")),
            ));
        }
        None if names.len() == 1 => names[0],
        None => {
            return Err(Error::usage(
                format!(
                    "config {} lists {} servers; pick one with --server",
                    r.path,
                    names.len()
                ),
                format!("its servers: {}", names.join(", ")),
            ));
        }
    };
    let field = |k: &str| format!("mcpServers.{name}.{k}");
    let entry = map[name]
        .as_object()
        .ok_or_else(|| r.bad(&field(""), "must be an object"))?;
    if let Some(t) = entry.get("type").and_then(Value::as_str)
        && t != "stdio"
    {
        return Err(r.bad(
            &field("type"),
            format!("is '{t}': only stdio servers can be checked"),
        ));
    }
    if entry.contains_key("url") && !entry.contains_key("command") {
        return Err(r.bad(
            &field("url"),
            "names a remote server: only stdio servers can be checked",
        ));
    }
    let command = entry
        .get("command")
        .ok_or_else(|| r.bad(&field("command"), "is missing"))?;
    let mut argv = vec![OsString::from(r.string(command, &field("command"))?)];
    if let Some(args) = entry.get("args") {
        argv.extend(
            r.strings(args, &field("args"))?
                .into_iter()
                .map(OsString::from),
        );
    }
    config.command = Some(argv);
    config.server = Some(name.to_string());
    if let Some(env) = entry.get("env") {
        config.env = r.env(env, &field("env"))?;
    }
    if let Some(cwd) = entry.get("cwd") {
        config.cwd = Some(r.path(cwd, &field("cwd"))?);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str, server: Option<&str>) -> Result<ConfigFile, String> {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "mcpguard-config-{}-{}.json",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        std::fs::write(&path, text).expect("write");
        let got = load(&path.clone().into_os_string(), server).map_err(|e| e.to_string());
        let _ = std::fs::remove_file(&path);
        got
    }

    #[test]
    fn every_field_is_read_and_paths_are_relative_to_the_file() {
        let c = load_text(
            r#"{"profile": "registry", "command": "node", "args": ["server.js"], "cwd": "srv",
                "env": {"API_TOKEN": "x"}, "protocol": "2025-06-18", "timeoutMs": 2000, "repeat": 3,
                "json": true, "maxStdoutBytes": 10, "maxStdoutLineBytes": 5, "maxStderrBytes": 7,
                "scanPath": "src", "failOnStatic": true, "request": {"method": "tools/list"},
                "requests": [{"method": "prompts/list", "params": {}}],
                "safeToolCalls": [{"name": "echo", "arguments": {"text": "hi"}}],
                "adversarialProbes": ["notification", "invalid-method"],
                "adversarialToolCalls": [{"name": "echo", "arguments": {"bad": true}}]}"#,
            None,
        )
        .expect("valid");
        assert_eq!(c.profile, Some(Profile::Registry));
        assert_eq!(c.command, Some(vec!["node".into(), "server.js".into()]));
        assert!(
            c.cwd
                .as_ref()
                .is_some_and(|p| p.is_absolute() && p.ends_with("srv"))
        );
        assert_eq!(c.env, [("API_TOKEN".to_string(), "x".to_string())]);
        assert_eq!(
            (c.timeout_ms, c.repeat, c.json),
            (Some(2000), Some(3), Some(true))
        );
        assert_eq!(
            c.requests
                .iter()
                .map(|r| r.method.as_str())
                .collect::<Vec<_>>(),
            ["tools/list", "prompts/list"]
        );
        assert_eq!(c.safe_tool_calls[0].name, "echo");
        assert_eq!(
            c.adversarial,
            Some(vec![Probe::Notification, Probe::InvalidMethod])
        );
        assert!(c.scan[0].ends_with("src"));
    }

    #[test]
    fn unknown_fields_wrong_types_and_bad_values_name_the_field() {
        let e = load_text(r#"{"timeoutMS": 5}"#, None).expect_err("typo");
        assert!(
            e.contains("unknown field 'timeoutMS'") && e.contains("did you mean timeoutMs?"),
            "{e}"
        );
        let e = load_text(r#"{"timeoutMs": "5000"}"#, None).expect_err("type");
        assert!(e.contains("timeoutMs must be a whole number"), "{e}");
        let e = load_text(r#"{"timeoutMs": 1e30}"#, None).expect_err("huge");
        assert!(e.contains("timeoutMs must be at most 3600000 ms"), "{e}");
        let e = load_text(r#"{"repeat": 101}"#, None).expect_err("range");
        assert!(e.contains("repeat must be at most 100 runs"), "{e}");
        let e = load_text(r#"{"profile": "fast"}"#, None).expect_err("value");
        assert!(e.contains("profile 'fast' is not one of"), "{e}");
        let e = load_text(r#"{"requests": [{"method": "x", "id": 1}]}"#, None).expect_err("nested");
        assert!(e.contains("requests[0].id"), "{e}");
        let e = load_text(r#"{"command": []}"#, None).expect_err("empty");
        assert!(e.contains("command must not be empty"), "{e}");
        assert!(
            load_text("[1]", None)
                .expect_err("array")
                .contains("must be a JSON object")
        );
        let dir = std::env::temp_dir().into_os_string();
        assert!(
            load(&dir, None)
                .expect_err("a directory")
                .to_string()
                .contains("is not a file")
        );
    }

    #[test]
    fn a_nul_byte_is_a_config_error_not_a_spawn_failure() {
        let e = load_text(r#"{"env": {"A": "x\u0000y"}}"#, None).expect_err("env");
        assert!(e.contains("env.A holds a NUL byte"), "{e}");
        let e = load_text(r#"{"command": ["node", "a\u0000b"]}"#, None).expect_err("argv");
        assert!(e.contains("command[1] holds a NUL byte"), "{e}");
    }

    #[test]
    fn client_configs_pick_one_server() {
        let text = r#"{"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"], "env": {"KEY": "v"}},
                       "files": {"command": "npx", "args": ["-y", "files"]}}}"#;
        let c = load_text(text, Some("files")).expect("picked");
        assert_eq!(
            c.command,
            Some(vec!["npx".into(), "-y".into(), "files".into()])
        );
        assert_eq!(c.server.as_deref(), Some("files"));
        let e = load_text(text, None).expect_err("ambiguous");
        assert!(
            e.contains("lists 2 servers") && e.contains("weather, files"),
            "{e}"
        );
        let e = load_text(text, Some("nope")).expect_err("missing");
        assert!(
            e.contains("no server named 'nope'") && e.contains("weather, files"),
            "{e}"
        );
        let vscode =
            r#"{"servers": {"a": {"type": "stdio", "command": "node", "args": ["a.js"]}}}"#;
        assert_eq!(
            load_text(vscode, None).expect("only one").server.as_deref(),
            Some("a")
        );
        let http = r#"{"servers": {"a": {"type": "http", "url": "https://x"}}}"#;
        assert!(
            load_text(http, None)
                .expect_err("remote")
                .contains("only stdio")
        );
    }
}

/// A config-relative path made readable: `.` dropped and `a/..` folded
/// where that names the same file (`a` is not a symbolic link, whose `..`
/// is elsewhere); a `..` that would climb above the start is kept.
pub fn normalize(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_))
                    if !std::fs::symlink_metadata(out.iter().collect::<PathBuf>())
                        .is_ok_and(|m| m.file_type().is_symlink()) =>
                {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod normalize_tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn config_relative_paths_are_shown_without_dot_segments() {
        assert_eq!(
            normalize(Path::new("cfg/../src_scan")),
            Path::new("src_scan")
        );
        assert_eq!(normalize(Path::new("/a/b/./c/../d")), Path::new("/a/b/d"));
        assert_eq!(normalize(Path::new("../x")), Path::new("../x"));
        assert_eq!(normalize(Path::new("/..")), Path::new("/"));
        assert_eq!(normalize(Path::new("a/..")), Path::new("."));
    }
}
