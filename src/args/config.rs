//! `--config FILE`'s text: this tool's JSON config (the 1.0 fields), or a
//! client config users already have (Claude Desktop, VS Code, Cursor: a
//! `mcpServers` or `servers` map, one entry picked with `--server`). Every
//! field is a setting of `settings::SETTINGS`, read as a layer of values;
//! an unknown field (with a suggestion for a likely typo), a wrong type or
//! a bad value is an error naming the field, before anything starts.
//! Relative paths start from the file's directory. Pure: `plan` reads the
//! file.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use crate::args::settings::{
    self, ConfigSource, Given, Problem, Setting, Settings, Supplied, Value, apply_layer,
};
use crate::args::words::{self, Profile};
use crate::error::Error;

/// A config file, read: where it is, what it gave, and its values as a
/// layer of settings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfigFile {
    pub source: ConfigSource,
    pub values: Vec<(&'static Setting, Value)>,
    /// The profile it names, which decides the presets under it.
    pub profile: Option<Profile>,
}

impl ConfigFile {
    /// What the file supplied, read off its values alone.
    pub fn supplied(&self) -> Supplied {
        let mut s = Settings::default();
        let _ = apply_layer(&mut s, &self.values);
        let mut env_names: Vec<String> = s.env.iter().map(|e| e.name().to_string()).collect();
        crate::order::sort(&mut env_names);
        let names = |calls: &[settings::ToolCall]| calls.iter().map(|t| t.name.clone()).collect();
        Supplied {
            command: !s.command.is_empty(),
            cwd: s.cwd.is_some(),
            env_names,
            requests: s.requests.iter().map(|r| r.method.clone()).collect(),
            safe_tool_calls: names(&s.safe_tool_calls),
            adversarial_probes: s.adversarial.iter().map(|p| p.as_str()).collect(),
            adversarial_tool_calls: names(&s.adversarial_tool_calls),
        }
    }
}

/// Reads a config file's text; `shown` names it in errors and `resolved`
/// (absolute) is what relative paths are resolved against.
pub fn parse_text(
    text: &str,
    shown: &str,
    resolved: &Path,
    server: Option<&str>,
) -> Result<ConfigFile, Error> {
    let value: Json = serde_json::from_str(text).map_err(|e| {
        Error::usage(
            format!("config {shown} is not valid JSON: {e}"),
            "fix the config file; nothing was started",
        )
    })?;
    let Json::Object(top) = value else {
        return Err(Error::usage(
            format!("config {shown} must be a JSON object"),
            "see docs/options.md, Config files",
        ));
    };
    let r = Reader {
        shown,
        dir: resolved
            .parent()
            .map_or_else(PathBuf::new, Path::to_path_buf),
    };
    let mut config = ConfigFile {
        source: ConfigSource {
            path: shown.to_string(),
            resolved: resolved.to_path_buf(),
            ..ConfigSource::default()
        },
        ..ConfigFile::default()
    };
    if let Some(servers) = top.get("mcpServers").or_else(|| top.get("servers")) {
        r.client_entry(&mut config, servers, server)?;
    } else if server.is_some() {
        return Err(Error::usage(
            format!("config {shown} has no mcpServers or servers map for --server"),
            "--server picks an entry of a Claude Desktop / VS Code / Cursor config",
        ));
    } else {
        r.own_format(&mut config, &top)?;
    }
    // Every value is checked now, so a bad one fails before anything runs.
    let mut probe = Settings::default();
    apply_layer(&mut probe, &config.values).map_err(|p| r.problem(p))?;
    config.profile = config
        .values
        .iter()
        .any(|(s, _)| s.key == Some("profile"))
        .then_some(probe.profile);
    config.source.keys = config.values.iter().filter_map(|(s, _)| s.key).collect();
    config.source.supplied = config.supplied();
    Ok(config)
}

/// Reads the values of one file, naming the file in every error.
struct Reader<'a> {
    shown: &'a str,
    dir: PathBuf,
}

impl Reader<'_> {
    fn problem(&self, p: Problem) -> Error {
        Error::usage(
            format!("config {}: {}", self.shown, p.text),
            "fix the config file; nothing was started",
        )
    }

    fn bad(&self, field: &str, problem: impl std::fmt::Display) -> Error {
        self.problem(Problem {
            text: format!("{field} {problem}"),
            hint: None,
        })
    }

    fn value(&self, name: String, v: &Json) -> Value {
        Value {
            name,
            given: Given::Json(v.clone()),
            fresh: false,
            base: Some(self.dir.clone()),
        }
    }

    /// This tool's own format: every field a setting, unknown ones refused.
    /// `command` comes before `args`, which extends it.
    fn own_format(&self, config: &mut ConfigFile, top: &Map<String, Json>) -> Result<(), Error> {
        let string_command = top.get("command").is_some_and(Json::is_string);
        let mut keys: Vec<&String> = top.keys().collect();
        crate::order::sort_by_key(&mut keys, |k| *k == "args");
        for key in keys {
            let Some(setting) = settings::by_key(key) else {
                return Err(self.unknown_field(key));
            };
            if key == "args" && !string_command {
                return Err(self.bad("args", "is used only with a string command"));
            }
            config
                .values
                .push((setting, self.value(key.clone(), &top[key])));
        }
        Ok(())
    }

    fn unknown_field(&self, other: &str) -> Error {
        let known: Vec<&str> = settings::keys().filter(|k| *k != "$schema").collect();
        let hint = match words::closest(other, known.iter().copied(), 3) {
            Some(f) => format!("did you mean {f}?"),
            None => format!("known fields: {}", known.join(", ")),
        };
        Error::usage(
            format!("config {}: unknown field '{other}'", self.shown),
            hint,
        )
    }

    /// One entry of a client config's server map: its `command`, `args`,
    /// `env` and `cwd`, named `mcpServers.NAME.…` in errors.
    fn client_entry(
        &self,
        config: &mut ConfigFile,
        servers: &Json,
        pick: Option<&str>,
    ) -> Result<(), Error> {
        let Some(map) = servers.as_object() else {
            return Err(self.bad("mcpServers", "must be an object of server entries"));
        };
        let names: Vec<&str> = map.keys().map(String::as_str).collect();
        let name = match pick {
            Some(name) if map.contains_key(name) => name,
            Some(name) => {
                return Err(Error::usage(
                    format!("config {}: no server named '{name}'", self.shown),
                    format!("its servers: {}", names.join(", ")),
                ));
            }
            None if names.len() == 1 => names[0],
            None => {
                return Err(Error::usage(
                    format!(
                        "config {} lists {}; pick one with --server",
                        self.shown,
                        crate::plural::count(names.len(), "server")
                    ),
                    format!("its servers: {}", names.join(", ")),
                ));
            }
        };
        let field = |k: &str| format!("mcpServers.{name}.{k}");
        let entry = map[name]
            .as_object()
            .ok_or_else(|| self.bad(&field(""), "must be an object"))?;
        if let Some(t) = entry.get("type").and_then(Json::as_str)
            && t != "stdio"
        {
            return Err(self.bad(
                &field("type"),
                format!("is '{t}': only stdio servers can be checked"),
            ));
        }
        if entry.contains_key("url") && !entry.contains_key("command") {
            return Err(self.bad(
                &field("url"),
                "names a remote server: only stdio servers can be checked",
            ));
        }
        let command = entry
            .get("command")
            .ok_or_else(|| self.bad(&field("command"), "is missing"))?;
        if !command.is_string() {
            let v = self.value(field("command"), command);
            v.text().map_err(|p| self.problem(p))?;
        }
        for key in ["command", "args", "env", "cwd"] {
            if let (Some(v), Some(setting)) = (entry.get(key), settings::by_key(key)) {
                config.values.push((setting, self.value(field(key), v)));
            }
        }
        config.source.server = Some(name.to_string());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::settings::Cmd;
    use crate::args::words::Probe;

    fn read(text: &str, server: Option<&str>) -> Result<(ConfigFile, Settings), String> {
        let c = parse_text(text, "c.json", Path::new("/etc/mcp/c.json"), server)
            .map_err(|e| e.to_string())?;
        let mut s = Settings::defaults(Cmd::Check);
        apply_layer(&mut s, &c.values).map_err(|p| p.text)?;
        Ok((c, s))
    }

    #[test]
    fn every_field_is_read_and_paths_are_relative_to_the_file() {
        let (c, s) = read(
            r#"{"profile": "registry", "args": ["server.js"], "command": "node", "cwd": "srv",
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
        assert_eq!(s.command, ["node", "server.js"]);
        assert_eq!(s.cwd, Some(PathBuf::from("/etc/mcp/srv")));
        assert_eq!(c.supplied().env_names, ["API_TOKEN"]);
        assert_eq!((s.timeout_ms, s.repeat, s.json), (2000, 3, true));
        let methods: Vec<&str> = s.requests.iter().map(|r| r.method.as_str()).collect();
        assert_eq!(methods, ["tools/list", "prompts/list"]);
        assert_eq!(s.safe_tool_calls[0].name, "echo");
        assert_eq!(s.adversarial, [Probe::Notification, Probe::InvalidMethod]);
        assert_eq!(s.scan, [PathBuf::from("/etc/mcp/src")]);
    }

    #[test]
    fn unknown_fields_wrong_types_and_bad_values_name_the_field() {
        let e = read(r#"{"timeoutMS": 5}"#, None).expect_err("typo");
        assert!(
            e.contains("unknown field 'timeoutMS'") && e.contains("did you mean timeoutMs?"),
            "{e}"
        );
        let e = read(r#"{"timeoutMs": "5000"}"#, None).expect_err("type");
        assert!(e.contains("timeoutMs must be a whole number"), "{e}");
        let e = read(r#"{"timeoutMs": 1e30}"#, None).expect_err("huge");
        assert!(e.contains("timeoutMs must be at most 3600000 ms"), "{e}");
        let e = read(r#"{"repeat": 101}"#, None).expect_err("range");
        assert!(e.contains("repeat must be from 1 to 100 runs"), "{e}");
        let e = read(r#"{"profile": "fast"}"#, None).expect_err("value");
        assert!(e.contains("profile 'fast' is not one of"), "{e}");
        let e = read(r#"{"requests": [{"method": "x", "id": 1}]}"#, None).expect_err("nested");
        assert!(e.contains("requests[0].id"), "{e}");
        let e = read(r#"{"command": []}"#, None).expect_err("empty");
        assert!(e.contains("command must not be empty"), "{e}");
        let e = read(r#"{"command": ["a"], "args": ["b"]}"#, None).expect_err("args");
        assert!(e.contains("args is used only with a string command"), "{e}");
        assert!(
            read("[1]", None)
                .expect_err("array")
                .contains("must be a JSON object")
        );
    }

    #[test]
    fn a_nul_byte_is_a_config_error_not_a_spawn_failure() {
        let e = read(r#"{"env": {"A": "x\u0000y"}}"#, None).expect_err("env");
        assert!(e.contains("env.A holds a NUL byte"), "{e}");
        let e = read(r#"{"command": ["node", "a\u0000b"]}"#, None).expect_err("argv");
        assert!(e.contains("command[1] holds a NUL byte"), "{e}");
    }

    #[test]
    fn client_configs_pick_one_server() {
        let text = r#"{"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"], "env": {"KEY": "v"}},
                       "files": {"command": "npx", "args": ["-y", "files"]}}}"#;
        let (c, s) = read(text, Some("files")).expect("picked");
        assert_eq!(s.command, ["npx", "-y", "files"]);
        assert_eq!(c.source.server.as_deref(), Some("files"));
        let e = read(text, None).expect_err("ambiguous");
        assert!(
            e.contains("lists 2 servers") && e.contains("weather, files"),
            "{e}"
        );
        let e = read(text, Some("nope")).expect_err("missing");
        assert!(
            e.contains("no server named 'nope'") && e.contains("weather, files"),
            "{e}"
        );
        let vscode =
            r#"{"servers": {"a": {"type": "stdio", "command": "node", "args": ["a.js"]}}}"#;
        let (c, _) = read(vscode, None).expect("only one");
        assert_eq!(c.source.server.as_deref(), Some("a"));
        let http = r#"{"servers": {"a": {"type": "http", "url": "https://x"}}}"#;
        assert!(read(http, None).expect_err("remote").contains("only stdio"));
        let e = read(r#"{"mcpServers": {"a": {"command": ["x"]}}}"#, None).expect_err("array");
        assert!(e.contains("mcpServers.a.command must be a string"), "{e}");
    }
}
