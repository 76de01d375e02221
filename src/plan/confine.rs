//! The confinement policy (`--confine`): which trees the server may read
//! and write, where it may connect, which files are credentials, and what
//! this kernel can enforce or observe. Built once before anything starts,
//! from the settings, the launch and the guard's environment; `require`
//! refuses here, before a spawn. Reads the filesystem only to resolve the
//! command and find its trees (a version manager's too) and to know the
//! credential files by inode; no other effect.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use crate::args::settings::{ConfineSpec, Endpoint};
use crate::args::words::Confine;
use crate::error::Error;
use crate::sys::confine::Support;

/// Read and execute, always: the system.
const SYSTEM: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys",
];

/// Devices the server may read and write.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
];

/// Credential files and trees, relative to the home directory: SSH, cloud,
/// registries, netrc, git credentials, browser profiles, MCP client
/// configurations, keyrings.
pub const CREDENTIALS: &[&str] = &[
    ".ssh",
    ".aws",
    ".azure",
    ".kube",
    ".gnupg",
    ".password-store",
    ".docker/config.json",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".netrc",
    ".git-credentials",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".config/git/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".local/share/keyrings",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".cursor/mcp.json",
    ".config/Claude",
    ".claude.json",
    ".claude",
    ".codeium/windsurf/mcp_config.json",
    ".vscode/mcp.json",
];

/// Files a launcher reads as its own configuration: a read by these
/// launchers is recorded, not judged.
const LAUNCHER_CONFIG: &[(&[&str], &str)] = &[
    (
        &["npx", "npm", "pnpm", "pnpx", "yarn", "bun", "bunx"],
        ".npmrc",
    ),
    (&["uv", "uvx", "pip", "pipx", "pip3"], ".netrc"),
];

/// What marks the top of a package or project.
const MARKERS: &[&str] = &[
    "package.json",
    "node_modules",
    "pyproject.toml",
    "setup.py",
    "pyvenv.cfg",
    "Cargo.toml",
    "go.mod",
    ".venv",
];

/// The policy of one check: the same for every process it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// `Observe` or `Enforce` (`require` enforces).
    pub mode: Confine,
    pub support: Support,
    pub read: Vec<PathBuf>,
    /// The server's own trees (its directory, its package, its
    /// environment, `--confine-read`): programs in them may run.
    pub own: Vec<PathBuf>,
    /// The launch chain: the program, and the interpreter its `#!` line
    /// names (through `env`). Under enforce only these, the own trees and
    /// programs already running may be executed.
    pub exec: Vec<PathBuf>,
    pub devices: Vec<PathBuf>,
    /// Trees the server may write besides its private home (under
    /// `observe`: where writing is usual, the temporary and cache trees).
    pub write: Vec<PathBuf>,
    pub connect: Vec<Endpoint>,
    pub credentials: Vec<PathBuf>,
    /// The credential files by what they are (device, inode), sorted: a
    /// hard link or a bind mount of one is the credential.
    pub credential_ids: Vec<(u64, u64)>,
    /// The user's home: writing in it counts as outside unless a write
    /// tree inside it allows it (even when the home is under the
    /// temporary directory).
    pub home: Option<PathBuf>,
    /// Credential files the launcher reads as its own configuration.
    pub launcher_config: Vec<PathBuf>,
    /// What the kernel enforces, what it does not, what is recorded and
    /// what is not, in words.
    pub enforced: Vec<String>,
    pub observed: Vec<String>,
    pub not_enforced: Vec<String>,
    pub not_observed: Vec<String>,
    /// What the policy itself leaves open, whatever the kernel (a tree
    /// too wide to allow, the host of an allowed port).
    pub limits: Vec<String>,
}

impl Policy {
    pub fn enforcing(&self) -> bool {
        matches!(self.mode, Confine::Enforce | Confine::Require)
    }

    /// Whether Landlock applies (enforcing, and the kernel has it).
    pub fn landlock(&self) -> bool {
        self.enforcing() && self.support.landlock_abi > 0
    }

    pub fn may_read(&self, path: &Path) -> bool {
        under_any(path, &self.read)
            || under_any(path, &self.write)
            || self.devices.iter().any(|d| d == path)
    }

    pub fn may_write(&self, path: &Path, private: Option<&Path>) -> bool {
        let home = self.home.as_deref().filter(|h| path.starts_with(h));
        self.write
            .iter()
            .any(|t| path.starts_with(t) && home.is_none_or(|h| t.starts_with(h)))
            || private.is_some_and(|p| path.starts_with(p))
            || self.devices.iter().any(|d| d == path)
    }

    pub fn is_credential(&self, path: &Path) -> bool {
        under_any(path, &self.credentials)
    }

    /// Whether the file of `(device, inode)` is a credential file.
    pub fn is_credential_id(&self, id: (u64, u64)) -> bool {
        self.credential_ids.binary_search(&id).is_ok()
    }

    /// Whether a `--confine-connect` entry asks for UDP.
    pub fn udp(&self) -> bool {
        self.connect.iter().any(|e| e.udp)
    }

    pub fn is_launcher_config(&self, path: &Path) -> bool {
        self.launcher_config.iter().any(|c| c == path)
    }

    /// Whether a connection (or, `udp`, a datagram) to `ip:port` is
    /// allowed.
    pub fn may_connect(&self, ip: &std::net::IpAddr, port: u16, udp: bool) -> bool {
        self.connect.iter().any(|e| {
            e.port == port
                && e.udp == udp
                && (e.host == "*"
                    || e.host.parse::<std::net::IpAddr>().is_ok_and(|h| h == *ip)
                    || e.host == "localhost" && ip.is_loopback())
        })
    }
}

fn under_any(path: &Path, trees: &[PathBuf]) -> bool {
    trees.iter().any(|t| path.starts_with(t))
}

/// The path with `.` and `..` resolved by their names (no symlink read).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The policy for `spec`, or `None` when confinement is off. `require`
/// fails here when the kernel cannot enforce everything.
pub fn policy(
    spec: &ConfineSpec,
    program: &OsStr,
    args: &[std::ffi::OsString],
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    cwd: &Path,
) -> Result<Option<Policy>, Error> {
    if spec.mode == Confine::Off {
        return Ok(None);
    }
    let support = crate::sys::confine::support();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute());
    let mut p = Policy {
        mode: spec.mode,
        support,
        read: Vec::new(),
        own: Vec::new(),
        exec: Vec::new(),
        devices: DEVICES.iter().map(PathBuf::from).collect(),
        write: Vec::new(),
        connect: spec.connect.clone(),
        credentials: Vec::new(),
        credential_ids: Vec::new(),
        home: home.clone(),
        launcher_config: Vec::new(),
        enforced: Vec::new(),
        observed: Vec::new(),
        not_enforced: Vec::new(),
        not_observed: Vec::new(),
        limits: Vec::new(),
    };
    credentials(&mut p, program);
    trees(&mut p, spec, program, args, env, cwd);
    for w in &spec.write {
        add_both(&mut p.write, &lexical(&cwd.join(w)));
    }
    if !p.enforcing() {
        add_both(&mut p.write, &std::env::temp_dir());
        if let Some(home) = &home {
            for usual in [".cache", ".npm", ".local/state"] {
                add_both(&mut p.write, &home.join(usual));
            }
        }
    }
    state(&mut p);
    if spec.mode == Confine::Require && !p.not_enforced.is_empty() {
        return Err(Error::usage(
            format!(
                "--confine require: this system cannot enforce everything: {}",
                p.not_enforced.join("; ")
            ),
            "use --confine enforce to run with what can be enforced, or observe",
        ));
    }
    Ok(Some(p))
}

/// The credential list, and the launcher's own configuration files.
fn credentials(p: &mut Policy, program: &OsStr) {
    let Some(home) = p.home.clone() else { return };
    for c in CREDENTIALS {
        add_both(&mut p.credentials, &home.join(c));
    }
    let mut left = CREDENTIAL_FILES;
    for c in &p.credentials {
        credential_ids(c, 0, &mut left, &mut p.credential_ids);
    }
    crate::order::sort(&mut p.credential_ids);
    p.credential_ids.dedup();
    if left == 0 {
        p.limits.push(format!(
            "the credential trees hold more than {CREDENTIAL_FILES} files: the rest are known by their paths only (a hard link to one is not recognised)"
        ));
    }
    let launcher = Path::new(program)
        .file_name()
        .and_then(OsStr::to_str)
        .unwrap_or("");
    for (names, file) in LAUNCHER_CONFIG {
        if names.contains(&launcher) {
            add_both(&mut p.launcher_config, &home.join(file));
        }
    }
}

/// Credential files known by inode, at most.
const CREDENTIAL_FILES: usize = 4096;

/// Adds the (device, inode) of every file under `path` (not following a
/// symlink below the top), `left` bounding how many are looked at.
fn credential_ids(path: &Path, depth: u32, left: &mut usize, out: &mut Vec<(u64, u64)>) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if *left == 0 {
            return;
        }
        *left -= 1;
        let meta = if depth == 0 {
            std::fs::metadata(path)
        } else {
            std::fs::symlink_metadata(path)
        };
        let Ok(meta) = meta else { return };
        if meta.is_file() {
            out.push((meta.dev(), meta.ino()));
        } else if meta.is_dir()
            && depth < 8
            && let Ok(entries) = std::fs::read_dir(path)
        {
            for entry in entries.flatten() {
                if *left == 0 {
                    return;
                }
                credential_ids(&entry.path(), depth + 1, left, out);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (path, depth, left, out);
}

/// Version managers: the variable that moves each one's root, and its
/// root under the home directory. A launch through one (a pyenv or asdf
/// shim, an nvm or volta node, a uv-managed Python) needs the whole root:
/// the shim runs the manager's own programs, which pick a runtime there.
const MANAGERS: &[(&str, &str)] = &[
    ("PYENV_ROOT", ".pyenv"),
    ("ASDF_DATA_DIR", ".asdf"),
    ("MISE_DATA_DIR", ".local/share/mise"),
    ("RBENV_ROOT", ".rbenv"),
    ("NODENV_ROOT", ".nodenv"),
    ("VOLTA_HOME", ".volta"),
    ("NVM_DIR", ".nvm"),
    ("FNM_DIR", ".local/share/fnm"),
    ("UV_PYTHON_INSTALL_DIR", ".local/share/uv/python"),
];

/// The files a manager reads to pick a version, looked for from the
/// working directory up.
const VERSION_FILES: &[&str] = &[
    ".python-version",
    ".node-version",
    ".nvmrc",
    ".ruby-version",
    ".tool-versions",
    ".mise.toml",
];

/// The small programs a manager's shell scripts run (`pyenv`, `rbenv`,
/// `asdf` before 0.16): allowed on PATH when the launch goes through one.
const MANAGER_HELPERS: &[&str] = &[
    "bash", "sh", "env", "cat", "cut", "head", "tail", "tr", "sed", "awk", "grep", "dirname",
    "basename", "readlink", "realpath", "uname", "sort", "uniq", "wc", "ls", "id", "mkdir",
];

/// The roots the version managers may have: the variable given to the
/// server, the guard's own, and the default under the home directory (a
/// shim spells its root out, whatever the variables say now).
fn manager_roots(
    home: Option<&Path>,
    env: &[(std::ffi::OsString, std::ffi::OsString)],
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (var, default) in MANAGERS {
        let given = env
            .iter()
            .find(|(k, _)| k == var)
            .map(|(_, v)| PathBuf::from(v));
        let own = std::env::var_os(var).map(PathBuf::from);
        let under_home = home.map(|h| h.join(default));
        for root in [given, own, under_home].into_iter().flatten() {
            let root = lexical(&root);
            if root.is_absolute() && !out.contains(&root) {
                out.push(root);
            }
        }
    }
    out
}

/// The roots of the version managers the launch chain goes through (their
/// trees to read and run from); with one, the helpers its scripts run join
/// the launch chain and the version files up from the working directory
/// become readable.
fn managed_trees(
    p: &mut Policy,
    home: Option<&Path>,
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    path_var: Option<&OsStr>,
    cwd: &Path,
) -> Vec<PathBuf> {
    let roots: Vec<PathBuf> = manager_roots(home, env)
        .into_iter()
        .filter(|r| r.is_dir())
        .collect();
    if roots.is_empty() {
        return Vec::new();
    }
    let chain: Vec<PathBuf> = p
        .exec
        .iter()
        .flat_map(|e| [Some(e.clone()), std::fs::canonicalize(e).ok()])
        .flatten()
        .collect();
    let used: Vec<PathBuf> = roots
        .into_iter()
        .filter(|root| chain.iter().any(|e| e.starts_with(root)))
        .collect();
    if used.is_empty() {
        return used;
    }
    for helper in MANAGER_HELPERS {
        if let Some(exe) = resolve(OsStr::new(helper), path_var, cwd) {
            add_both(&mut p.exec, &exe);
        }
    }
    for dir in cwd.ancestors() {
        for f in VERSION_FILES {
            let file = dir.join(f);
            if file.is_file() {
                add_both(&mut p.read, &file);
            }
        }
    }
    used
}

/// The read trees (the system, the working directory, the command's own
/// trees, `--confine-read`) and the launch chain.
fn trees(
    p: &mut Policy,
    spec: &ConfineSpec,
    program: &OsStr,
    args: &[std::ffi::OsString],
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    cwd: &Path,
) {
    let home = p.home.clone();
    for s in SYSTEM {
        add_both(&mut p.read, Path::new(s));
    }
    let forbidden =
        |t: &Path| t == Path::new("/") || home.as_deref().is_some_and(|h| h.starts_with(t));
    let mut trees = vec![cwd.to_path_buf()];
    let path_var = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone());
    let named = spec.exec.iter().map(OsStr::new);
    for named in named.chain(words_run(program, args)) {
        if let Some(exe) = resolve(named, path_var.as_deref(), cwd) {
            launch_chain(&exe, path_var.as_deref(), cwd, &mut p.exec);
        }
    }
    if let Some(exe) = resolve(program, path_var.as_deref(), cwd) {
        launch_chain(&exe, path_var.as_deref(), cwd, &mut p.exec);
        trees.extend(tree_of(&exe, home.as_deref()));
        if let Ok(real) = std::fs::canonicalize(&exe) {
            trees.extend(tree_of(&real, home.as_deref()));
        }
    }
    trees.extend(managed_trees(
        p,
        home.as_deref(),
        env,
        path_var.as_deref(),
        cwd,
    ));
    for arg in args {
        let a = cwd.join(arg);
        if arg.len() < 4096 && a.is_file() {
            trees.extend(tree_of(&a, home.as_deref()));
        }
    }
    trees.extend(spec.read.iter().map(|r| cwd.join(r)));
    for t in trees {
        let t = lexical(&t);
        if forbidden(&t) {
            p.limits.push(format!(
                "{} is the root or holds the home directory: it is not readable under enforce",
                t.display()
            ));
            continue;
        }
        add_tree(&mut p.read, &t, &p.credentials);
        add_tree(&mut p.own, &t, &p.credentials);
    }
}

/// Says what the kernel enforces, what the supervisor refuses on what it
/// reads (a limit: the server's memory can change after it is read), what
/// is recorded and what is not. Nothing the supervisor decides is listed as
/// enforced.
fn state(p: &mut Policy) {
    let linux = cfg!(target_os = "linux");
    let no_notify = if linux {
        "seccomp user notification is not available"
    } else {
        "seccomp is Linux's; this platform has no confinement"
    };
    if p.support.notify {
        p.observed.push(
            "opens, programs run, connections, datagrams, bindings, metadata changes and links, with the path or address read from the server's memory as the call is made (seccomp user notification)".into(),
        );
        p.not_observed.push(
            "a call whose arguments the supervisor cannot read (memory it may not read) is counted, not described".into(),
        );
    } else {
        p.not_observed
            .push(format!("nothing is recorded: {no_notify}"));
    }
    if linux {
        p.not_observed
            .push("io_uring is refused (ENOSYS): its operations would not be seen".into());
    }
    if !p.enforcing() {
        return;
    }
    if linux {
        let udp = if p.udp() {
            " and UDP (--confine-connect udp:)"
        } else {
            ""
        };
        p.enforced.push(format!(
            "sockets: families other than unix, IPv4, IPv6 and netlink, IP sockets other than TCP{udp}, TCP Fast Open sends; running a program from a descriptor (execveat AT_EMPTY_PATH); calls of another ABI; io_uring (seccomp filter)"
        ));
    }
    landlock_state(p, linux);
    if p.support.notify {
        let files = if p.support.landlock_abi == 0 {
            "; reads and writes outside the allowed trees (no Landlock)"
        } else {
            ""
        };
        let udp = if p.udp() {
            "; the address of each datagram"
        } else {
            ""
        };
        p.limits.push(format!(
            "refused by the supervisor on what it reads from the server's memory, not by the kernel: a thread of the server that rewrites a path or an address after it was read can get past it: credential files (by path, and by inode: hard links and bind mounts); programs outside the launch chain; connections to named unix sockets outside the server's trees; metadata changes (mode, owner, times, extended attributes), links and nodes outside the write trees; the host of an allowed port{udp}{files}"
        ));
    } else {
        p.not_enforced.push(format!(
            "credential files, programs run, named unix sockets and metadata changes: {no_notify}"
        ));
    }
}

/// What Landlock enforces at this kernel's ABI, and what it does not.
fn landlock_state(p: &mut Policy, linux: bool) {
    let abi = p.support.landlock_abi;
    if abi == 0 {
        p.not_enforced.push(if linux {
            "files, TCP, signals and abstract unix sockets in the kernel: Landlock is not available on this kernel".into()
        } else {
            "files, TCP and signals: Landlock is Linux's; this platform has none".into()
        });
        return;
    }
    p.enforced.push(format!(
        "files: read and execute in the allowed trees only, write in the private home and --confine-write only (Landlock ABI {abi})"
    ));
    if abi >= 4 {
        p.enforced
            .push("TCP connect and bind: --confine-connect ports only (Landlock)".into());
    } else {
        p.not_enforced.push(format!(
            "TCP connect and bind: Landlock ABI {abi} is older than 4"
        ));
    }
    if abi >= 6 {
        p.enforced.push(
            "signals and abstract unix sockets beyond the server's own processes (Landlock)".into(),
        );
    } else {
        p.not_enforced.push(format!(
            "signals to other processes: Landlock ABI {abi} is older than 6"
        ));
    }
    if abi >= 9 {
        p.enforced
            .push("connections to pathname unix sockets outside the write trees (Landlock)".into());
    }
}

fn add_both(list: &mut Vec<PathBuf>, path: &Path) {
    if !list.iter().any(|l| l == path) {
        list.push(path.to_path_buf());
    }
    if let Ok(real) = std::fs::canonicalize(path)
        && !list.contains(&real)
    {
        list.push(real);
    }
}

/// Adds a read tree; one that holds a credential is added as its
/// children, the credential left out.
fn add_tree(list: &mut Vec<PathBuf>, tree: &Path, credentials: &[PathBuf]) {
    let holds: Vec<&PathBuf> = credentials.iter().filter(|c| c.starts_with(tree)).collect();
    if holds.is_empty() {
        add_both(list, tree);
        return;
    }
    if holds.iter().any(|c| c.as_path() == tree) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(tree) else {
        return;
    };
    for entry in entries.flatten().take(4096) {
        add_tree(list, &entry.path(), credentials);
    }
}

/// The programs a launcher names in its arguments: `env`'s command,
/// the words of a shell's `-c` script and the arguments after it (`sh -c
/// 'exec "$0" "$@"' node server.js`). Words that resolve on PATH become
/// part of the launch chain.
fn words_run<'a>(program: &OsStr, args: &'a [std::ffi::OsString]) -> Vec<&'a OsStr> {
    const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash"];
    let name = Path::new(program)
        .file_name()
        .and_then(OsStr::to_str)
        .unwrap_or("");
    if name == "env" {
        return args
            .iter()
            .map(|a| a.as_os_str())
            .find(|a| !a.to_string_lossy().contains('=') && !a.to_string_lossy().starts_with('-'))
            .into_iter()
            .collect();
    }
    if !SHELLS.contains(&name) {
        return Vec::new();
    }
    let Some(at) = args.iter().position(|a| a == "-c") else {
        return Vec::new();
    };
    let mut out: Vec<&OsStr> = Vec::new();
    if let Some(script) = args.get(at + 1).and_then(|s| s.to_str()) {
        let words = script.split(|c: char| c.is_whitespace() || ";|&()`".contains(c));
        out.extend(
            words
                .filter(|w| !w.is_empty() && !w.contains(['=', '$', '"', '\'']))
                .map(OsStr::new),
        );
    }
    out.extend(args.iter().skip(at + 2).map(|a| a.as_os_str()));
    out
}

/// The program and, for a `#!` script, its interpreter (and the program
/// `env` runs), raw and canonical.
fn launch_chain(exe: &Path, path: Option<&OsStr>, cwd: &Path, out: &mut Vec<PathBuf>) {
    add_both(out, exe);
    let mut head = [0u8; 256];
    let n = std::fs::File::open(exe)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let Some(line) = head[..n].strip_prefix(b"#!") else {
        return;
    };
    let line = String::from_utf8_lossy(line.split(|&b| b == b'\n').next().unwrap_or_default())
        .into_owned();
    let mut words = line.split_whitespace();
    let Some(interp) = words.next() else { return };
    add_both(out, Path::new(interp));
    if Path::new(interp).file_name() == Some(OsStr::new("env")) {
        let next = words.find(|w| !w.starts_with('-'));
        if let Some(prog) = next.and_then(|w| resolve(OsStr::new(w), path, cwd)) {
            add_both(out, &prog);
        }
    }
}

/// The program as the kernel would find it.
fn resolve(program: &OsStr, path: Option<&OsStr>, cwd: &Path) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return Some(cwd.join(p));
    }
    std::env::split_paths(path?)
        .map(|dir| cwd.join(dir).join(p))
        .find(|c| c.is_file())
}

/// The tree a program or script needs: the top-most ancestor below the
/// home directory that marks a package or project; else the prefix of a
/// `bin/` directory, or the file's directory. The interpreter a virtual
/// environment names (`pyvenv.cfg`'s `home`) comes with it.
fn tree_of(file: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    if SYSTEM.iter().any(|s| file.starts_with(s)) {
        return Vec::new();
    }
    let Some(dir) = file.parent() else {
        return Vec::new();
    };
    let start = if dir.file_name() == Some(OsStr::new("bin")) {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    };
    let stop = |a: &Path| a == Path::new("/") || home.is_some_and(|h| h.starts_with(a));
    let mut top = None;
    for a in start.ancestors() {
        if stop(a) {
            break;
        }
        if MARKERS.iter().any(|m| a.join(m).exists()) {
            top = Some(a);
        }
    }
    let tree = top.unwrap_or(start).to_path_buf();
    let mut out = vec![tree.clone()];
    for cfg in [start.join("pyvenv.cfg"), tree.join(".venv/pyvenv.cfg")] {
        if let Ok(text) = std::fs::read_to_string(&cfg) {
            for line in text.lines().take(64) {
                if let Some((k, v)) = line.split_once('=')
                    && k.trim() == "home"
                {
                    let bin = PathBuf::from(v.trim());
                    if let Some(prefix) = bin.parent().filter(|p| !stop(p)) {
                        out.push(prefix.to_path_buf());
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_by_name() {
        assert_eq!(lexical(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }

    #[test]
    fn a_tree_holding_a_credential_is_split_around_it() {
        let dir = std::env::temp_dir().join(format!("mcpguard-confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".ssh")).expect("dir");
        std::fs::create_dir_all(dir.join("project")).expect("dir");
        let mut list = Vec::new();
        add_tree(&mut list, &dir, &[dir.join(".ssh")]);
        assert!(list.contains(&dir.join("project")), "{list:?}");
        assert!(
            !list.iter().any(|l| l.starts_with(dir.join(".ssh"))),
            "{list:?}"
        );
        assert!(!list.contains(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn ep(text: &str) -> Endpoint {
        Endpoint::parse(text).expect("endpoint")
    }

    #[test]
    fn endpoints_read_their_protocol_host_and_port() {
        assert_eq!(
            Endpoint::parse("udp:[::1]:53"),
            Some(Endpoint {
                host: "::1".into(),
                port: 53,
                udp: true
            })
        );
        assert_eq!(ep("::1:53").host, "::1");
        assert!(!ep("tcp:localhost:80").udp);
        assert_eq!(Endpoint::parse("localhost"), None);
        assert_eq!(Endpoint::parse("udp:x:0"), None);
    }

    #[test]
    fn a_connection_is_allowed_by_address_and_port() {
        let mut p = Policy {
            mode: Confine::Enforce,
            support: Support::default(),
            read: vec![],
            own: vec![],
            exec: vec![],
            devices: vec![],
            write: vec![],
            connect: vec![
                ep("localhost:8080"),
                ep("10.0.0.1:53"),
                ep("udp:10.0.0.1:53"),
            ],
            credentials: vec![],
            credential_ids: vec![],
            home: None,
            launcher_config: vec![],
            enforced: vec![],
            observed: vec![],
            not_enforced: vec![],
            not_observed: vec![],
            limits: vec![],
        };
        let lo: std::net::IpAddr = "127.0.0.1".parse().expect("ip");
        assert!(p.may_connect(&lo, 8080, false));
        assert!(!p.may_connect(&lo, 8080, true), "TCP is not UDP");
        assert!(!p.may_connect(&lo, 8081, false));
        assert!(p.may_connect(&"10.0.0.1".parse().expect("ip"), 53, false));
        assert!(p.may_connect(&"10.0.0.1".parse().expect("ip"), 53, true));
        assert!(!p.may_connect(&"10.0.0.2".parse().expect("ip"), 53, true));
        assert!(p.udp());
        p.connect = vec![ep("*:443")];
        assert!(p.may_connect(&"1.2.3.4".parse().expect("ip"), 443, false));
        assert!(!p.udp());
    }
}
