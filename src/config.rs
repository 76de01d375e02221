//! `--config FILE`: this tool's JSON config (the 1.0 fields), or a client
//! config users already have (Claude Desktop, VS Code, Cursor: a
//! `mcpServers` or `servers` map, one entry picked with `--server`). Read
//! and validated before anything starts: an unknown field (with a
//! suggestion for a likely typo), a wrong type or a bad value is an error
//! naming the field. Paths are resolved against the file's directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::cli::{self, Profile};
use crate::error::Error;

/// One request or tool call from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub method: String,
    pub params: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
}

/// What a config file sets; `None` where it is silent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// The path as given, and absolute.
    pub path: String,
    pub resolved: PathBuf,
    /// A client config entry (`mcpServers`), and its name.
    pub server: Option<String>,
    pub command: Option<Vec<OsString>>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub profile: Option<Profile>,
    pub protocol: Option<String>,
    pub timeout_ms: Option<u64>,
    pub repeat: Option<u32>,
    pub json: Option<bool>,
    pub max_stdout_bytes: Option<u64>,
    pub max_stdout_line_bytes: Option<u64>,
    pub max_stderr_bytes: Option<u64>,
    pub scan: Vec<PathBuf>,
    pub fail_on_static: Option<bool>,
    pub requests: Vec<Request>,
    pub safe_tool_calls: Vec<ToolCall>,
    pub adversarial: Option<Vec<String>>,
    pub adversarial_tool_calls: Vec<ToolCall>,
}

const FIELDS: &[&str] = &[
    "$schema",
    "command",
    "args",
    "cwd",
    "env",
    "profile",
    "protocol",
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

    fn string(&self, v: &Value, field: &str) -> Result<String, Error> {
        match v {
            Value::String(s) if !s.is_empty() => Ok(s.clone()),
            Value::String(_) => Err(self.bad(field, "must not be empty")),
            other => Err(self.bad(
                field,
                format!("must be a string, not {}", crate::jsonrpc::describe(other)),
            )),
        }
    }

    fn number(&self, v: &Value, field: &str, min: u64) -> Result<u64, Error> {
        match v.as_u64() {
            Some(n) if n >= min => Ok(n),
            Some(_) => Err(self.bad(field, format!("must be at least {min}"))),
            None => Err(self.bad(field, format!("must be a whole number, not {v}"))),
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
        Ok(self.dir.join(self.string(v, field)?))
    }

    fn env(&self, v: &Value, field: &str) -> Result<Vec<(String, String)>, Error> {
        let Some(map) = v.as_object() else {
            return Err(self.bad(field, "must be an object of NAME: value"));
        };
        let mut out = Vec::new();
        for (name, value) in map {
            let value = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(self.bad(&format!("{field}.{name}"), "must be a string")),
            };
            if name.is_empty() || name.contains('=') {
                return Err(self.bad(&format!("{field}.{name}"), "is not a variable name"));
            }
            out.push((name.clone(), value));
        }
        Ok(out)
    }

    fn request(&self, v: &Value, field: &str) -> Result<Request, Error> {
        let Some(obj) = v.as_object() else {
            return Err(self.bad(field, "must be an object like {\"method\": \"tools/list\"}"));
        };
        for key in obj.keys() {
            if key != "method" && key != "params" {
                return Err(self.bad(
                    &format!("{field}.{key}"),
                    "is not a request field (method, params)",
                ));
            }
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

    fn tool_calls(&self, v: &Value, field: &str) -> Result<Vec<ToolCall>, Error> {
        let Some(items) = v.as_array() else {
            return Err(self.bad(
                field,
                "must be an array of {\"name\": ..., \"arguments\": {...}}",
            ));
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let f = format!("{field}[{i}]");
            let Some(obj) = item.as_object() else {
                return Err(self.bad(&f, "must be an object with name and arguments"));
            };
            for key in obj.keys() {
                if key != "name" && key != "arguments" {
                    return Err(self.bad(
                        &format!("{f}.{key}"),
                        "is not a tool call field (name, arguments)",
                    ));
                }
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
            out.push(ToolCall { name, arguments });
        }
        Ok(out)
    }
}

/// Reads and validates a config file.
pub fn load(path: &OsString, server: Option<&str>) -> Result<Config, Error> {
    let shown = path.to_string_lossy().into_owned();
    let resolved = crate::evidence::absolute(Path::new(path));
    // Not a regular file (a FIFO, a terminal) could block the read forever.
    if !resolved.is_file() {
        return Err(Error::usage(
            format!("config {shown} is not a file"),
            "give the path of a JSON config file",
        ));
    }
    let text = std::fs::read_to_string(&resolved)
        .map_err(|e| Error::io(format!("cannot read the config file {shown}"), e))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
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
    let mut config = Config {
        path: shown.clone(),
        resolved: resolved.clone(),
        ..Config::default()
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
    for (key, v) in &top {
        match key.as_str() {
            "$schema" => {}
            "command" => {
                config.command = Some(match v {
                    Value::Array(_) => {
                        let argv = r.strings(v, "command")?;
                        if argv.is_empty() {
                            return Err(r.bad("command", "must not be empty"));
                        }
                        argv.into_iter().map(OsString::from).collect()
                    }
                    Value::String(_) => {
                        let mut argv = vec![OsString::from(r.string(v, "command")?)];
                        if let Some(args) = top.get("args") {
                            argv.extend(r.strings(args, "args")?.into_iter().map(OsString::from));
                        }
                        argv
                    }
                    _ => {
                        return Err(r.bad(
                            "command",
                            "must be an array like [\"node\", \"server.js\"] or a string with args",
                        ));
                    }
                });
            }
            "args" => {
                if !top.get("command").is_some_and(Value::is_string) {
                    return Err(r.bad("args", "is used only with a string command"));
                }
            }
            "cwd" => config.cwd = Some(r.path(v, "cwd")?),
            "env" => config.env = r.env(v, "env")?,
            "profile" => {
                let name = r.string(v, "profile")?;
                config.profile = Some(Profile::parse(&name).ok_or_else(|| {
                    r.bad(
                        "profile",
                        format!("'{name}' is not one of {}", Profile::NAMES.join(", ")),
                    )
                })?);
            }
            "protocol" => {
                let p = r.string(v, "protocol")?;
                if !crate::mcp::is_date_shaped(&p) {
                    return Err(r.bad(
                        "protocol",
                        format!("'{p}' is not a version such as 2025-11-25"),
                    ));
                }
                config.protocol = Some(p);
            }
            "timeoutMs" => {
                config.timeout_ms = Some(r.number(v, "timeoutMs", cli::MIN_TIMEOUT_MS)?)
            }
            "repeat" => {
                let n = r.number(v, "repeat", 1)?;
                config.repeat = Some(u32::try_from(n.min(100)).unwrap_or(100));
            }
            "json" => config.json = Some(r.boolean(v, "json")?),
            "maxStdoutBytes" => config.max_stdout_bytes = Some(r.number(v, "maxStdoutBytes", 1)?),
            "maxStdoutLineBytes" => {
                config.max_stdout_line_bytes = Some(r.number(v, "maxStdoutLineBytes", 1)?)
            }
            "maxStderrBytes" => config.max_stderr_bytes = Some(r.number(v, "maxStderrBytes", 1)?),
            "scan" | "scanPath" => match v {
                Value::Array(_) => {
                    for (i, p) in r.strings(v, key)?.into_iter().enumerate() {
                        let _ = i;
                        config.scan.push(r.dir.join(p));
                    }
                }
                _ => config.scan.push(r.path(v, key)?),
            },
            "failOnStatic" => config.fail_on_static = Some(r.boolean(v, "failOnStatic")?),
            "request" => config.requests.insert(0, r.request(v, "request")?),
            "requests" => {
                let Some(items) = v.as_array() else {
                    return Err(r.bad("requests", "must be an array of {\"method\": ...}"));
                };
                for (i, item) in items.iter().enumerate() {
                    config
                        .requests
                        .push(r.request(item, &format!("requests[{i}]"))?);
                }
            }
            "safeToolCalls" => config.safe_tool_calls = r.tool_calls(v, "safeToolCalls")?,
            "adversarialProbes" => {
                config.adversarial = Some(match v {
                    Value::Bool(true) => cli::ADVERSARIAL_PROBES
                        .iter()
                        .map(|p| p.to_string())
                        .collect(),
                    Value::Bool(false) => Vec::new(),
                    Value::String(s) => cli::probe_list(s, "adversarialProbes").map_err(|_| {
                        r.bad(
                            "adversarialProbes",
                            format!("'{s}' is not all, none or a probe name"),
                        )
                    })?,
                    Value::Array(_) => {
                        let names = r.strings(v, "adversarialProbes")?;
                        cli::probe_list(&names.join(","), "adversarialProbes")
                            .map_err(|e| r.bad("adversarialProbes", e))?
                    }
                    other => return Err(r.bad(
                        "adversarialProbes",
                        format!(
                            "must be true, \"all\", \"none\" or a list of probe names, not {other}"
                        ),
                    )),
                });
            }
            "adversarialToolCalls" => {
                config.adversarial_tool_calls = r.tool_calls(v, "adversarialToolCalls")?
            }
            other => {
                let hint = FIELDS
                    .iter()
                    .map(|f| (cli::edit_distance(other, f), *f))
                    .filter(|(d, _)| *d <= 3)
                    .min()
                    .map_or_else(
                        || format!("known fields: {}", FIELDS[1..].join(", ")),
                        |(_, f)| format!("did you mean {f}?"),
                    );
                return Err(Error::usage(
                    format!("config {shown}: unknown field '{other}'"),
                    hint,
                ));
            }
        }
    }
    Ok(config)
}

/// One entry of a client config's server map.
fn client_entry(
    r: &Reader,
    mut config: Config,
    servers: &Value,
    pick: Option<&str>,
) -> Result<Config, Error> {
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

    fn load_text(text: &str, server: Option<&str>) -> Result<Config, String> {
        let path = std::env::temp_dir().join(format!(
            "mcpguard-config-{}-{}.json",
            std::process::id(),
            text.len()
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
            Some(vec![
                "notification".to_string(),
                "invalid-method".to_string()
            ])
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
