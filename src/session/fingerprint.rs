//! Reproducibility metadata for the fingerprint: the package a command
//! runs (`npx`, `npm exec`, `uvx`, `docker run`, or `node` with the
//! nearest `package.json` inside the working directory, never above it)
//! and, where the profile asks for it, the versions of the runtimes the
//! command uses. Runtime probes start processes (about 10 to 50 ms each),
//! so a plain check does not run them.

use crate::obj;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

/// How long one `--version` probe may take.
const VERSION_LIMIT: Duration = Duration::from_millis(3000);

fn base(program: &str) -> &str {
    program.rsplit(['/', '\\']).next().unwrap_or(program)
}

/// How a package runner spells its options: those that take a value (so
/// the value is not the package), and those whose value is the package.
struct Runner {
    valued: &'static [&'static str],
    package: &'static [&'static str],
}

const NPX: Runner = Runner {
    valued: &[
        "--registry",
        "--cache",
        "--userconfig",
        "--prefix",
        "-c",
        "--call",
        "--node-options",
        "--workspace",
        "-w",
    ],
    package: &["-p", "--package"],
};

const UVX: Runner = Runner {
    valued: &[
        "--with",
        "--with-requirements",
        "--index-url",
        "--extra-index-url",
        "--index",
        "--default-index",
        "--find-links",
        "-f",
        "--python",
        "-p",
        "--directory",
        "--spec",
        "--pip-args",
    ],
    package: &["--from"],
};

/// The package a runner's arguments name: the value of a package option,
/// else the first argument that is neither an option nor an option's value.
fn package_operand<'a>(args: &'a [String], runner: &Runner) -> Option<&'a str> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some((flag, value)) = a.split_once('=')
            && runner.package.contains(&flag)
        {
            return Some(value);
        }
        if runner.package.contains(&a) {
            return args.get(i + 1).map(String::as_str);
        }
        if runner.valued.contains(&a) {
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            return Some(a);
        }
        i += 1;
    }
    None
}

/// The first argument that is not an option.
fn first_operand(args: &[String]) -> Option<&String> {
    args.iter().find(|a| !a.starts_with('-'))
}

/// `name@version` (npm) or `name==version` (PyPI) split.
fn split_spec(spec: &str, sep: &str) -> (String, Value) {
    // A scoped npm name starts with @: look for the separator after it.
    let search_from = usize::from(spec.starts_with('@'));
    match spec[search_from..].find(sep) {
        Some(at) => {
            let at = at + search_from;
            (
                spec[..at].to_string(),
                crate::object::ToValue::to_value(&spec[at + sep.len()..]),
            )
        }
        None => (spec.to_string(), Value::Null),
    }
}

/// The package the command runs, or `null`.
pub fn package(argv: &[String], cwd: &Path) -> Value {
    let Some(program) = argv.first() else {
        return Value::Null;
    };
    let args = &argv[1..];
    match base(program) {
        "npx" | "pnpx" | "bunx" => match package_operand(args, &NPX) {
            Some(spec) => {
                let (name, version) = split_spec(spec, "@");
                obj! {
                    "manager" => "npm", "via" => base(program), "name" => name,
                    "version" => version,
                }
            }
            None => Value::Null,
        },
        "npm" | "pnpm" if args.first().is_some_and(|a| a == "exec" || a == "x") => {
            match package_operand(&args[1..], &NPX) {
                Some(spec) => {
                    let (name, version) = split_spec(spec, "@");
                    obj! {
                        "manager" => "npm", "via" => format!("{} exec", base(program)),
                        "name" => name, "version" => version,
                    }
                }
                None => Value::Null,
            }
        }
        "uvx" | "pipx" => {
            let rest: &[String] =
                if base(program) == "pipx" && args.first().is_some_and(|a| a == "run") {
                    &args[1..]
                } else {
                    args
                };
            match package_operand(rest, &UVX) {
                Some(spec) => {
                    let (name, version) = split_spec(spec, "==");
                    obj! {
                        "manager" => "pypi", "via" => base(program), "name" => name,
                        "version" => version,
                    }
                }
                None => Value::Null,
            }
        }
        "docker" | "podman" if args.first().is_some_and(|a| a == "run") => {
            docker_image(program, args)
        }
        "node" | "nodejs" | "bun" | "deno" => match first_operand(args) {
            Some(script) => nearest_package_json(&cwd.join(script)),
            None => Value::Null,
        },
        _ => Value::Null,
    }
}

/// The image a `docker run` or `podman run` command starts.
fn docker_image(program: &str, args: &[String]) -> Value {
    // Options that take a value, so their value is not the image.
    const VALUED: &[&str] = &[
        "-e",
        "--env",
        "-v",
        "--volume",
        "--name",
        "-w",
        "--workdir",
        "--network",
        "-p",
        "--publish",
        "--entrypoint",
        "-u",
        "--user",
        "--env-file",
        "--mount",
        "--platform",
    ];
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if VALUED.contains(&a.as_str()) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return obj! {
                "manager" => "docker", "via" => format!("{} run", base(program)),
                "image" => a,
            };
        }
    }
    Value::Null
}

/// The `package.json` nearest to `file`, walking up from its directory
/// (not into or out of `node_modules`: a script's own package, not a
/// dependency's or a workspace root's).
fn nearest_package_json(file: &Path) -> Value {
    let Ok(file) = file.canonicalize() else {
        return Value::Null;
    };
    let mut dir = file.parent();
    while let Some(d) = dir {
        let candidate = d.join("package.json");
        if let Ok(text) = std::fs::read_to_string(&candidate) {
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            return obj! {
                "manager" => "npm", "via" => "package.json", "name" => v.get("name"),
                "version" => v.get("version"), "path" => candidate.display().to_string(),
            };
        }
        if d.file_name().is_some_and(|n| n == "node_modules") {
            break;
        }
        dir = d.parent();
    }
    Value::Null
}

/// The script an interpreter runs, as the command names it (`python -u
/// server.py`, `node --require x dist/index.js`, `deno run -A main.ts`,
/// `uv run server.py`), or the module of `python -m`; `None` for code given
/// inline (`-c`, `-e`) and for a program that is no interpreter the guard
/// knows (the program is then the artifact itself).
pub fn script_of(argv: &[String]) -> Option<Entry> {
    let (program, args) = argv.split_first()?;
    let name = base(program).trim_end_matches(".exe");
    let (args, valued, inline): (&[String], &[&str], &[&str]) = if is_python(name) {
        (
            args,
            &["-W", "-X", "--check-hash-based-pycs", "-Q"],
            &["-c"],
        )
    } else {
        match name {
            "node" | "nodejs" | "tsx" | "ts-node" => (
                args,
                &[
                    "-r",
                    "--require",
                    "--import",
                    "--loader",
                    "--experimental-loader",
                    "-C",
                    "--conditions",
                    "--env-file",
                    "--title",
                ],
                &["-e", "--eval", "-p", "--print"],
            ),
            "bun" | "deno" | "uv" => {
                let rest = args.strip_prefix(&["run".to_string()][..]).unwrap_or(args);
                let valued: &[&str] = &[
                    "--cwd",
                    "-r",
                    "--preload",
                    "--config",
                    "-c",
                    "--import-map",
                    "--env-file",
                    "--with",
                    "--python",
                    "-p",
                    "--directory",
                    "--project",
                ];
                (rest, valued, &["-e", "--eval"])
            }
            "ruby" | "perl" | "php" => (args, &["-I", "-r"], &["-e", "-r"]),
            _ => return None,
        }
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if inline.contains(&a) {
            return None;
        }
        if a == "-m" && is_python(name) {
            return args.get(i + 1).map(|m| Entry::Module(m.clone()));
        }
        if valued.contains(&a) {
            i += 2;
            continue;
        }
        if a == "--" {
            return args.get(i + 1).map(|s| Entry::Script(s.clone()));
        }
        if !a.starts_with('-') {
            return Some(Entry::Script(a.to_string()));
        }
        i += 1;
    }
    None
}

/// What an interpreter's command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A file, as the command names it.
    Script(String),
    /// A module found on the interpreter's path (`python -m pkg`).
    Module(String),
}

/// `python`, `python3`, `python3.12`, `pypy3`.
fn is_python(name: &str) -> bool {
    let rest = name
        .strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"));
    rest.is_some_and(|r| r.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The runtimes the command uses, with their versions.
pub fn runtimes(argv: &[String], env: &[(std::ffi::OsString, std::ffi::OsString)]) -> Value {
    let Some((name, exe)) = runtime_of(argv) else {
        return obj! {};
    };
    let version = crate::session::child::version_of(exe, env, VERSION_LIMIT);
    json!({name: {"version": version, "role": "target"}})
}

/// The runtime the command runs on and the program that tells its version,
/// when it is one the fingerprint knows.
pub fn runtime_of(argv: &[String]) -> Option<(&'static str, &str)> {
    let program = argv.first()?;
    match base(program) {
        "node" | "nodejs" | "npx" | "npm" | "pnpm" | "pnpx" => Some(("node", "node")),
        p if p.starts_with("python") => Some(("python", program.as_str())),
        "uv" | "uvx" => Some(("uv", program.as_str())),
        "docker" => Some(("docker", "docker")),
        "bun" | "bunx" => Some(("bun", "bun")),
        "deno" => Some(("deno", "deno")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_script_of_an_interpreter_is_found_past_its_options() {
        let script = |s: &str| script_of(&argv(s));
        let file = |f: &str| Some(Entry::Script(f.into()));
        assert_eq!(script("python3 -u server.py --port 1"), file("server.py"));
        assert_eq!(
            script("/usr/bin/python3.12 -W ignore srv/main.py"),
            file("srv/main.py")
        );
        assert_eq!(
            script("python -m my_server stdio"),
            Some(Entry::Module("my_server".into()))
        );
        assert_eq!(script("python -c print(1)"), None);
        assert_eq!(
            script("node --require ./env.js dist/index.js"),
            file("dist/index.js")
        );
        assert_eq!(script("node -e 1"), None);
        assert_eq!(
            script("deno run -A --config deno.json main.ts"),
            file("main.ts")
        );
        assert_eq!(script("uv run --with mcp server.py"), file("server.py"));
        assert_eq!(script("node.exe index.mjs"), file("index.mjs"));
        assert_eq!(script("./my-server --stdio"), None);
        assert_eq!(script("pythonista x.py"), None);
    }

    #[test]
    fn packages_are_read_from_the_command() {
        let cwd = Path::new("/nonexistent");
        assert_eq!(
            package(&argv("npx -y @scope/server@1.2.3 --port 1"), cwd)["name"],
            "@scope/server"
        );
        assert_eq!(
            package(&argv("npx -y @scope/server@1.2.3"), cwd)["version"],
            "1.2.3"
        );
        assert_eq!(
            package(&argv("npm exec -- weather-mcp"), cwd)["name"],
            "weather-mcp"
        );
        assert_eq!(
            package(&argv("uvx mcp-server-time==0.6.2"), cwd)["version"],
            "0.6.2"
        );
        assert_eq!(
            package(&argv("docker run -i --rm -e KEY mcp/time"), cwd)["image"],
            "mcp/time"
        );
        assert_eq!(package(&argv("python server.py"), cwd), Value::Null);
    }

    #[test]
    fn option_values_are_never_taken_for_the_package() {
        let cwd = Path::new("/nonexistent");
        let p = package(
            &argv("npx --registry https://me:<redacted>@reg.example/ -y real-server@2.0.0"),
            cwd,
        );
        assert_eq!(
            (p["name"].as_str(), p["version"].as_str()),
            (Some("real-server"), Some("2.0.0"))
        );
        let p = package(&argv("npx -p @scope/pkg@1.0.0 run-it"), cwd);
        assert_eq!(p["name"], "@scope/pkg");
        let p = package(
            &argv("uvx --index-url https://u:<redacted>@pypi.example/simple mcp-server-git"),
            cwd,
        );
        assert_eq!(p["name"], "mcp-server-git");
        let p = package(
            &argv("uvx --from mcp-server-fetch==1.2 mcp-server-fetch"),
            cwd,
        );
        assert_eq!(
            (p["name"].as_str(), p["version"].as_str()),
            (Some("mcp-server-fetch"), Some("1.2"))
        );
    }

    #[test]
    fn node_scripts_use_the_package_json_nearest_to_the_script() {
        let dir = std::env::temp_dir().join(format!("mcpguard-pkg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("app/src")).expect("mkdir");
        std::fs::write(dir.join("package.json"), r#"{"name": "outside"}"#).expect("write");
        std::fs::write(
            dir.join("app/package.json"),
            r#"{"name": "weather", "version": "0.3.0"}"#,
        )
        .expect("write");
        std::fs::write(dir.join("app/src/server.js"), "").expect("write");
        let p = package(&argv("node src/server.js"), &dir.join("app"));
        assert_eq!(
            (p["name"].as_str(), p["version"].as_str()),
            (Some("weather"), Some("0.3.0"))
        );
        // From any cwd, an absolute script path finds its own package.
        let script = dir.join("app/src/server.js");
        let p = package(&argv(&format!("node {}", script.display())), Path::new("/"));
        assert_eq!(p["name"], "weather");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
