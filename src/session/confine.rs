//! The supervisor of a confined server: before the spawn it arms the
//! command (`sys::confine::arm`) and prepares the private home; a thread
//! then receives the seccomp listener from the child and answers every
//! notification: it reads the call's arguments from the process's memory,
//! records what the policy says is worth recording (a credential opened, a
//! write outside, a read outside the allowed trees, a program run, a
//! connection or datagram), refuses what the supervisor itself enforces,
//! and lets the rest continue. Events are deduplicated and bounded; the
//! phase of each is given by the transcript, which knows what was sent
//! when.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::plan::Launch;
use crate::plan::confine::{Policy, lexical};
use crate::sys::confine::{self as sc, Call, Notice, Wait};

/// Distinct events kept per process; past it they are counted.
const EVENTS_KEPT: usize = 1000;

/// What an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A credential file opened (or tried).
    SecretRead,
    /// A launcher's own configuration (`npx` reading `~/.npmrc`).
    LauncherConfig,
    /// Written, created, removed or renamed outside the write trees.
    WriteOutside,
    /// Read outside the allowed trees.
    ReadOutside,
    /// A program run.
    Exec,
    /// A program run that is not a file on disk (a memfd, a deleted file,
    /// a descriptor).
    HiddenExec,
    /// A TCP or UDP connection or datagram (an IP address), a socket the
    /// filter flagged, or a connection to another program's named unix
    /// socket.
    Network,
    /// A unix socket connection.
    LocalSocket,
    /// A call of another ABI, not read.
    Foreign,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SecretRead => "secret-read",
            Kind::LauncherConfig => "launcher-config",
            Kind::WriteOutside => "write-outside",
            Kind::ReadOutside => "read-outside",
            Kind::Exec => "exec",
            Kind::HiddenExec => "exec-descriptor",
            Kind::Network => "network",
            Kind::LocalSocket => "local-socket",
            Kind::Foreign => "foreign-abi",
        }
    }
}

/// One thing the server did (the first of its kind and target).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Milliseconds since the session's start, at the first occurrence.
    pub at_ms: u64,
    pub kind: Kind,
    /// The path, the address, or the program.
    pub target: String,
    /// The program's arguments (an exec).
    pub argv: Vec<String>,
    pub pid: u32,
    /// The process's name (`comm`).
    pub program: String,
    /// Refused: by Landlock (predicted) or by the supervisor.
    pub denied: bool,
    /// The path did not exist when the call was made (an open that could
    /// only fail: a probe for the file).
    pub absent: bool,
    pub count: u64,
    /// The protocol phase it happened in.
    pub phase: String,
}

/// What the supervisor saw in one process's life.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Log {
    pub events: Vec<Event>,
    /// Every notification answered.
    pub notifications: u64,
    /// Events past the bound, counted.
    pub dropped: u64,
    /// Why nothing could be observed, if so.
    pub problem: Option<String>,
}

/// The protocol phase now, as the session says it: `startup` until the
/// server first writes to stdout, then the last request sent (a tool
/// call with its tool), `shutdown` once stdin is closed.
#[derive(Debug, Clone, Default)]
pub struct Phase(Arc<std::sync::Mutex<PhaseNow>>);

#[derive(Debug, Default)]
struct PhaseNow {
    sent: String,
    spoke: bool,
    closed: bool,
}

impl Phase {
    /// A request was sent: its method, and a tool call's tool.
    pub fn sent(&self, method: &str, tool: Option<&str>) {
        if let Ok(mut now) = self.0.lock() {
            now.sent = match tool {
                Some(tool) => format!("{method} {tool}"),
                None => method.to_string(),
            };
        }
    }

    /// The server wrote to stdout.
    pub fn spoke(&self) {
        if let Ok(mut now) = self.0.lock() {
            now.spoke = true;
        }
    }

    /// The guard closed the server's stdin.
    pub fn closed(&self) {
        if let Ok(mut now) = self.0.lock() {
            now.closed = true;
        }
    }

    fn now(&self) -> String {
        let Ok(now) = self.0.lock() else {
            return String::new();
        };
        if now.closed {
            "shutdown".into()
        } else if !now.spoke || now.sent.is_empty() {
            "startup".into()
        } else {
            now.sent.clone()
        }
    }
}

/// A confined spawn's supervisor and private home.
#[derive(Debug)]
pub struct Supervisor {
    pub phase: Phase,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Log>>,
    home: Option<PathBuf>,
    /// The private home, registered for removal should the guard panic.
    _temp: Option<crate::sys::custody::Temp>,
}

/// The launch as a confined server sees it (under enforce: its private
/// home as `HOME`, `TMPDIR` and the caches) and its supervisor, with the
/// command armed. Call before `cmd.spawn()`.
pub fn prepare(
    cmd: &mut std::process::Command,
    launch: &Launch,
    policy: &Arc<Policy>,
    t0: Instant,
) -> std::io::Result<Supervisor> {
    let mut rules = sc::Rules {
        read: policy.read.clone(),
        devices: policy.devices.clone(),
        write: policy.write.clone(),
        ports: policy
            .connect
            .iter()
            .filter(|e| !e.udp)
            .map(|e| e.port)
            .collect(),
        landlock: policy.landlock(),
        notify: false,
        refuse: policy.enforcing(),
        udp: policy.udp(),
    };
    let home = if policy.enforcing() {
        let home = private_home()?;
        for name in ["HOME", "TMPDIR", "TMP", "TEMP"] {
            cmd.env(name, &home);
        }
        for (name, sub) in [
            ("XDG_CACHE_HOME", ".cache"),
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_DATA_HOME", ".local/share"),
            ("XDG_STATE_HOME", ".local/state"),
            ("npm_config_cache", ".npm"),
        ] {
            cmd.env(name, home.join(sub));
        }
        rules.write.push(home.clone());
        Some(home)
    } else {
        None
    };
    rules.notify = policy.support.notify;
    let stop = Arc::new(AtomicBool::new(false));
    let phase = Phase::default();
    let thread = match sc::arm(cmd, &rules, policy.support.landlock_abi)? {
        Some(sock) => {
            let ctx = Watch {
                phase: phase.clone(),
                ran: Default::default(),
                bound: Default::default(),
                policy: policy.clone(),
                home: home.clone(),
                t0,
                stop: stop.clone(),
                leader_cwd: launch.cwd.clone(),
            };
            let spawn = || {
                std::thread::Builder::new()
                    .name("confine".into())
                    .spawn(move || ctx.serve(&sock))
            };
            Some(crate::sys::with_interrupts_blocked(spawn)?)
        }
        None => None,
    };
    let _temp = home.as_deref().map(crate::sys::custody::temp);
    Ok(Supervisor {
        phase,
        stop,
        thread,
        home,
        _temp,
    })
}

fn private_home() -> std::io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("mcp-guard-home-{}-{n}", std::process::id()));
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir)?;
    Ok(dir)
}

impl Supervisor {
    /// Stops watching (the server is gone by now) and returns the log.
    pub fn finish(mut self) -> Log {
        self.stop.store(true, Ordering::SeqCst);
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(log)) => log,
            Some(Err(_)) => Log {
                problem: Some("the supervisor thread failed".into()),
                ..Log::default()
            },
            None => Log {
                problem: Some("seccomp user notification is not available".into()),
                ..Log::default()
            },
        }
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(home) = self.home.take() {
            let _ = std::fs::remove_dir_all(home);
        }
    }
}

/// What the watching thread needs.
struct Watch {
    phase: Phase,
    /// Programs that ran (canonical): an interpreter may start itself again.
    ran: std::cell::RefCell<std::collections::HashSet<PathBuf>>,
    /// Pathname sockets the server bound: connecting to them is its own.
    bound: std::cell::RefCell<std::collections::HashSet<PathBuf>>,
    policy: Arc<Policy>,
    home: Option<PathBuf>,
    t0: Instant,
    stop: Arc<AtomicBool>,
    leader_cwd: Option<PathBuf>,
}

/// The events of one process's life, deduplicated.
#[derive(Default)]
struct Seen {
    log: Log,
    index: HashMap<(Kind, String), usize>,
}

impl Seen {
    fn add(&mut self, mut ev: Event) {
        if let Some(&i) = self.index.get(&(ev.kind, ev.target.clone())) {
            self.log.events[i].count += 1;
            self.log.events[i].denied |= ev.denied;
            return;
        }
        if self.log.events.len() >= EVENTS_KEPT {
            self.log.dropped += 1;
            return;
        }
        ev.count = 1;
        self.index
            .insert((ev.kind, ev.target.clone()), self.log.events.len());
        self.log.events.push(ev);
    }
}

const O_WRONLY: u64 = 1;
const O_RDWR: u64 = 2;
const O_CREAT: u64 = 0o100;
const O_TRUNC: u64 = 0o1000;
const AT_FDCWD: i32 = -100;
const AT_EMPTY_PATH: u64 = 0x1000;
const MSG_FASTOPEN: u64 = 0x2000_0000;
/// Messages of one `sendmmsg` read, at most (the kernel's own bound).
const MMSG_MAX: u64 = 1024;

/// What one notification comes to: its events and, when refused, the
/// errno the call gets.
type Verdict = (Vec<Event>, Option<i32>);

/// The name of a socket family the filter flags.
fn family_name(family: u64) -> String {
    match family {
        0 => "AF_UNSPEC".into(),
        3 => "AF_AX25".into(),
        4 => "AF_IPX".into(),
        5 => "AF_APPLETALK".into(),
        9 => "AF_X25".into(),
        17 => "AF_PACKET".into(),
        21 => "AF_RDS".into(),
        29 => "AF_CAN".into(),
        30 => "AF_TIPC".into(),
        31 => "AF_BLUETOOTH".into(),
        38 => "AF_ALG".into(),
        40 => "AF_VSOCK".into(),
        42 => "AF_QIPCRTR".into(),
        44 => "AF_XDP".into(),
        45 => "AF_MCTP".into(),
        n => format!("family {n}"),
    }
}

impl Watch {
    fn serve(self, sock: &sc::Handoff) -> Log {
        let mut seen = Seen::default();
        let listener = loop {
            if self.stop.load(Ordering::SeqCst) {
                seen.log.problem = Some("the server never handed its filter over".into());
                return seen.log;
            }
            match sc::Listener::receive(sock, Duration::from_millis(100)) {
                Ok(l) => break l,
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
                Err(e) => {
                    seen.log.problem = Some(format!("the filter's listener was not taken: {e}"));
                    return seen.log;
                }
            }
        };
        // The launch itself: the leader's first exec, of the command the
        // guard was given.
        let mut launched = false;
        loop {
            match listener.next(Duration::from_millis(100)) {
                Ok(Wait::Notice(n)) => {
                    seen.log.notifications += 1;
                    if !launched && n.pid == listener.leader && n.call == Call::Execve {
                        launched = true;
                        listener.answer(n.id, None);
                        continue;
                    }
                    let (events, refuse) = self.judge(&n);
                    // What was read came from the waiting task only if it
                    // still waits.
                    if listener.still_waiting(n.id) {
                        for ev in events {
                            seen.add(ev);
                        }
                    }
                    listener.answer(n.id, refuse);
                }
                Ok(Wait::Idle) => {
                    if self.stop.load(Ordering::SeqCst) {
                        break;
                    }
                }
                Ok(Wait::Gone) | Err(_) => break,
            }
        }
        seen.log
    }

    fn event(&self, n: &Notice, kind: Kind, target: String, denied: bool) -> Event {
        Event {
            at_ms: self.t0.elapsed().as_millis() as u64,
            kind,
            target,
            argv: Vec::new(),
            pid: n.pid,
            program: std::fs::read_to_string(format!("/proc/{}/comm", n.pid))
                .map(|s| s.trim_end().to_string())
                .unwrap_or_default(),
            denied,
            absent: false,
            count: 1,
            phase: self.phase.now(),
        }
    }

    /// The errno of what the supervisor refuses under enforce.
    fn refusal(&self, errno: i32) -> Option<i32> {
        self.policy.enforcing().then_some(errno)
    }

    /// The events of one call and the errno it gets when refused.
    fn judge(&self, n: &Notice) -> Verdict {
        let a = n.args;
        let fd = |x: u64| x as u32 as i32;
        match n.call {
            Call::Open => self.open(n, AT_FDCWD, a[0], a[1]),
            Call::Creat => self.open(n, AT_FDCWD, a[0], O_CREAT | O_WRONLY | O_TRUNC),
            Call::OpenAt => self.open(n, fd(a[0]), a[1], a[2]),
            Call::OpenAt2 => {
                let how = sc::read_bytes(n.pid, a[2], 8);
                let flags = how.try_into().map(u64::from_le_bytes).unwrap_or(0);
                self.open(n, fd(a[0]), a[1], flags)
            }
            Call::OpenByHandle => {
                let refuse = self.refusal(sc::EACCES);
                let what = "a file by its handle (open_by_handle_at)".to_string();
                (
                    vec![self.event(n, Kind::ReadOutside, what, refuse.is_some())],
                    refuse,
                )
            }
            Call::PathOnly => self.change(n, self.path(n, AT_FDCWD, a[0]), true),
            Call::PathAt => self.change(n, self.path(n, fd(a[0]), a[1]), true),
            Call::Rename => {
                let old = self.change(n, self.path(n, AT_FDCWD, a[0]), true);
                either(old, self.change(n, self.path(n, AT_FDCWD, a[1]), true))
            }
            Call::RenameAt => {
                let old = self.change(n, self.path(n, fd(a[0]), a[1]), true);
                either(old, self.change(n, self.path(n, fd(a[2]), a[3]), true))
            }
            Call::Meta => self.change(n, self.path(n, AT_FDCWD, a[0]), false),
            Call::MetaAt => self.change(n, self.path_or_fd(n, fd(a[0]), a[1]), false),
            Call::MetaFd => self.change(n, self.fd_path(n, fd(a[0])), false),
            Call::Link => self.link(
                n,
                self.path(n, AT_FDCWD, a[0]),
                self.path(n, AT_FDCWD, a[1]),
            ),
            Call::LinkAt => {
                let old = if a[4] & AT_EMPTY_PATH != 0 {
                    self.path_or_fd(n, fd(a[0]), a[1])
                } else {
                    self.path(n, fd(a[0]), a[1])
                };
                self.link(n, old, self.path(n, fd(a[2]), a[3]))
            }
            Call::Symlink => self.change(n, self.path(n, AT_FDCWD, a[1]), true),
            Call::SymlinkAt => self.change(n, self.path(n, fd(a[1]), a[2]), true),
            Call::Execve => self.exec(n, self.path(n, AT_FDCWD, a[0]), a[1]),
            Call::ExecveAt => {
                if a[4] & AT_EMPTY_PATH != 0 {
                    self.exec_descriptor(n, fd(a[0]), a[2])
                } else {
                    self.exec(n, self.path(n, fd(a[0]), a[1]), a[2])
                }
            }
            Call::Socket => self.socket(n, a[0], a[1], a[2]),
            Call::Bind => self.bind(n, a[1], a[2]),
            Call::Connect => self.address(n, a[1], a[2], false),
            Call::SendTo => either(self.fast_open(n, a[3]), self.address(n, a[4], a[5], true)),
            Call::SendMsg => {
                let head = self.fast_open(n, a[2]);
                either(head, self.message(n, a[1]))
            }
            Call::SendMmsg => either(self.fast_open(n, a[3]), self.messages(n, a[1], a[2])),
            Call::Foreign => {
                let refuse = self.refusal(sc::ENOSYS);
                let what = "a call of another ABI".to_string();
                let ev = self.event(n, Kind::Foreign, what, refuse.is_some());
                (vec![ev], refuse)
            }
        }
    }

    /// Every message of a `sendmmsg`: `struct mmsghdr` is a msghdr (56
    /// bytes) and its length, padded to 64.
    fn messages(&self, n: &Notice, at: u64, count: u64) -> Verdict {
        let mut out = (Vec::new(), None);
        for i in 0..count.min(MMSG_MAX) {
            out = either(out, self.message(n, at.wrapping_add(64 * i)));
        }
        out
    }

    /// A path argument, absolute and resolved by name; `/proc/self` and
    /// `/proc/thread-self` are the calling task's.
    fn path(&self, n: &Notice, dirfd: i32, ptr: u64) -> Option<PathBuf> {
        let raw = sc::read_string(n.pid, ptr, 4096)?;
        #[cfg(unix)]
        let p =
            PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(raw));
        #[cfg(not(unix))]
        let p = PathBuf::from(String::from_utf8_lossy(&raw).into_owned());
        let p = if p.is_absolute() {
            p
        } else {
            let base = if dirfd == AT_FDCWD {
                std::fs::read_link(format!("/proc/{}/cwd", n.pid))
                    .ok()
                    .or_else(|| self.leader_cwd.clone())?
            } else {
                std::fs::read_link(format!("/proc/{}/fd/{dirfd}", n.pid)).ok()?
            };
            base.join(p)
        };
        Some(own_proc(&lexical(&p), n.pid))
    }

    /// A path argument that may be empty or null, naming the descriptor.
    fn path_or_fd(&self, n: &Notice, dirfd: i32, ptr: u64) -> Option<PathBuf> {
        match sc::read_string(n.pid, ptr, 1) {
            Some(first) if !first.is_empty() => self.path(n, dirfd, ptr),
            _ => self.fd_path(n, dirfd),
        }
    }

    /// What an open descriptor of the task names.
    fn fd_path(&self, n: &Notice, fd: i32) -> Option<PathBuf> {
        if fd == AT_FDCWD {
            return std::fs::read_link(format!("/proc/{}/cwd", n.pid)).ok();
        }
        std::fs::read_link(format!("/proc/{}/fd/{fd}", n.pid)).ok()
    }

    /// Whether `path` (or what it resolves to) is a credential file: by
    /// its path, or by what it is (a hard link, a bind mount).
    fn credential(&self, path: &Path, real: Option<&Path>) -> bool {
        let p = &self.policy;
        if p.is_credential(path) || real.is_some_and(|r| p.is_credential(r)) {
            return true;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if let Ok(meta) = std::fs::metadata(path)
                && meta.is_file()
            {
                return p.is_credential_id((meta.dev(), meta.ino()));
            }
        }
        false
    }

    fn open(&self, n: &Notice, dirfd: i32, ptr: u64, flags: u64) -> Verdict {
        let Some(path) = self.path(n, dirfd, ptr) else {
            return (Vec::new(), None);
        };
        let writes = flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0;
        let p = &self.policy;
        let real = std::fs::canonicalize(&path).ok();
        let either = |f: &dyn Fn(&Path) -> bool| f(&path) || real.as_deref().is_some_and(f);
        if self.credential(&path, real.as_deref()) {
            if either(&|x| p.is_launcher_config(x)) {
                let ev = self.event(n, Kind::LauncherConfig, path.display().to_string(), false);
                return (vec![ev], None);
            }
            let refuse = self.refusal(sc::EACCES);
            let mut ev = self.event(
                n,
                Kind::SecretRead,
                path.display().to_string(),
                refuse.is_some(),
            );
            ev.absent = real.is_none() && std::fs::symlink_metadata(&path).is_err();
            return (vec![ev], refuse);
        }
        let home = self.home.as_deref();
        let allowed = if writes {
            either(&|x| p.may_write(x, home))
        } else {
            either(&|x| p.may_read(x) || home.is_some_and(|h| x.starts_with(h)))
        };
        // A read of nothing fails by itself (a lookup up the tree).
        let nothing = !writes && real.is_none() && std::fs::symlink_metadata(&path).is_err();
        if allowed || nothing || path.components().any(|c| c.as_os_str() == "__pycache__") {
            return (Vec::new(), None);
        }
        let kind = if writes {
            Kind::WriteOutside
        } else {
            Kind::ReadOutside
        };
        // Landlock refuses it where it applies; without it, the supervisor.
        let refuse = if p.landlock() {
            None
        } else {
            self.refusal(sc::EACCES)
        };
        let denied = p.landlock() || refuse.is_some();
        (
            vec![self.event(n, kind, path.display().to_string(), denied)],
            refuse,
        )
    }

    /// A change at `path` (a removal, a rename, a directory, a link, a
    /// node, metadata) outside the write trees. `kernel` says Landlock
    /// covers this kind of change; metadata (mode, owner, times, extended
    /// attributes) it does not, and the supervisor refuses those itself.
    fn change(&self, n: &Notice, path: Option<PathBuf>, kernel: bool) -> Verdict {
        let Some(path) = path else {
            return (Vec::new(), None);
        };
        let p = &self.policy;
        if p.may_write(&path, self.home.as_deref())
            || path.components().any(|c| c.as_os_str() == "__pycache__")
        {
            return (Vec::new(), None);
        }
        let by_kernel = kernel && p.landlock();
        let refuse = if by_kernel {
            None
        } else {
            self.refusal(sc::EACCES)
        };
        let ev = self.event(
            n,
            Kind::WriteOutside,
            path.display().to_string(),
            by_kernel || refuse.is_some(),
        );
        (vec![ev], refuse)
    }

    /// A hard link: of a credential file, it is the credential (wherever
    /// the link goes); the new name is a change like any other.
    fn link(&self, n: &Notice, old: Option<PathBuf>, new: Option<PathBuf>) -> Verdict {
        let made = self.change(n, new, true);
        let Some(old) = old else { return made };
        let real = std::fs::canonicalize(&old).ok();
        if !self.credential(&old, real.as_deref()) {
            return made;
        }
        let refuse = self.refusal(sc::EACCES);
        let ev = self.event(
            n,
            Kind::SecretRead,
            old.display().to_string(),
            refuse.is_some() || self.policy.landlock(),
        );
        either(made, (vec![ev], refuse))
    }

    /// The argv of an exec, at most 32 words of 512 bytes.
    fn argv(&self, n: &Notice, argv: u64) -> Vec<String> {
        let mut args = Vec::new();
        let table = sc::read_bytes(n.pid, argv, 8 * 32);
        for word in table.chunks_exact(8) {
            let at = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            let Some(arg) = (at != 0).then(|| sc::read_string(n.pid, at, 512)).flatten() else {
                break;
            };
            args.push(String::from_utf8_lossy(&arg).into_owned());
        }
        args
    }

    /// A program run: its event, and whether the supervisor refuses it
    /// (under enforce, a program outside the launch chain and the
    /// server's own trees that is not already running, or one that is not
    /// a file on disk at all).
    fn exec(&self, n: &Notice, path: Option<PathBuf>, argv: u64) -> Verdict {
        let Some(path) = path else {
            // The launch itself, before its exec: the guard's copy, whose
            // memory cannot be read.
            return (Vec::new(), None);
        };
        let p = &self.policy;
        let Ok(real) = std::fs::canonicalize(&path) else {
            // A descriptor's link under /proc that names no file on disk
            // (a memfd, a deleted file) runs all the same.
            if let Ok(hidden) = std::fs::read_link(&path) {
                return self.hidden_exec(n, hidden.display().to_string(), argv);
            }
            // Nothing there (a PATH search): the kernel says ENOENT.
            return (Vec::new(), None);
        };
        if !real.is_file() || real.starts_with("/proc") {
            return self.hidden_exec(n, real.display().to_string(), argv);
        }
        let known =
            |x: &Path| p.exec.iter().any(|e| e == x) || p.own.iter().any(|t| x.starts_with(t));
        let allowed = known(&path) || known(&real) || self.ran.borrow().contains(&real);
        let refuse = if allowed {
            None
        } else {
            self.refusal(sc::EACCES)
        };
        if refuse.is_none() {
            self.ran.borrow_mut().insert(real);
        }
        let denied = refuse.is_some() || p.landlock() && !p.may_read(&path);
        let mut ev = self.event(n, Kind::Exec, path.display().to_string(), denied);
        ev.argv = self.argv(n, argv);
        (vec![ev], refuse)
    }

    /// `execveat(fd, "", …, AT_EMPTY_PATH)`: the program is a descriptor.
    fn exec_descriptor(&self, n: &Notice, fd: i32, argv: u64) -> Verdict {
        let what = self
            .fd_path(n, fd)
            .map_or_else(|| format!("descriptor {fd}"), |p| p.display().to_string());
        self.hidden_exec(n, what, argv)
    }

    /// A program that is not a file on disk (a memfd, a deleted file, a
    /// descriptor): never one of the launch chain; refused under enforce.
    fn hidden_exec(&self, n: &Notice, what: String, argv: u64) -> Verdict {
        let refuse = self.refusal(sc::EACCES);
        let mut ev = self.event(n, Kind::HiddenExec, what, refuse.is_some());
        ev.argv = self.argv(n, argv);
        (vec![ev], refuse)
    }

    /// A socket the filter flagged (an odd family, an IP socket other
    /// than TCP, UDP where no `--confine-connect udp:` entry asks for it):
    /// decided from the call's integers alone.
    fn socket(&self, n: &Notice, family: u64, kind: u64, protocol: u64) -> Verdict {
        let family = family & 0xffff_ffff;
        let (what, errno) = match family {
            2 | 10 => {
                let ip = if family == 2 { "IPv4" } else { "IPv6" };
                let what = match (kind & 0xf, protocol & 0xffff_ffff) {
                    (1, _) => format!("an {ip} stream socket of protocol {protocol}"),
                    (2, _) => format!("a UDP ({ip}) socket"),
                    (3, _) => format!("a raw {ip} socket"),
                    (k, _) => format!("an {ip} socket of type {k}"),
                };
                (what, sc::EACCES)
            }
            f => (format!("a socket of {}", family_name(f)), sc::EAFNOSUPPORT),
        };
        let refuse = self.refusal(errno);
        (
            vec![self.event(n, Kind::Network, what, refuse.is_some())],
            refuse,
        )
    }

    /// A send with `MSG_FASTOPEN`: a TCP connection made by the send,
    /// which no connect hook sees; refused under enforce.
    fn fast_open(&self, n: &Notice, flags: u64) -> Verdict {
        if flags & MSG_FASTOPEN == 0 {
            return (Vec::new(), None);
        }
        let refuse = self.refusal(sc::EACCES);
        let what = "a TCP Fast Open send (a connection made by sendto or sendmsg)".to_string();
        (
            vec![self.event(n, Kind::Network, what, refuse.is_some())],
            refuse,
        )
    }

    /// The destination of one `struct msghdr` at `at`.
    fn message(&self, n: &Notice, at: u64) -> Verdict {
        let hdr = sc::read_bytes(n.pid, at, 16);
        if hdr.len() < 16 {
            return (Vec::new(), None);
        }
        let name = u64::from_le_bytes(hdr[0..8].try_into().unwrap_or([0; 8]));
        let len = u32::from_le_bytes(hdr[8..12].try_into().unwrap_or([0; 4]));
        self.address(n, name, u64::from(len), true)
    }

    /// A pathname unix socket bound: the socket file is a change at its
    /// path, and a later connection to it is the server's own.
    fn bind(&self, n: &Notice, ptr: u64, len: u64) -> Verdict {
        let Some(path) = self.unix_path(n, ptr, len) else {
            return (Vec::new(), None);
        };
        let out = self.change(n, Some(path.clone()), true);
        if out.1.is_none() {
            self.bound.borrow_mut().insert(path);
        }
        out
    }

    /// The path of a pathname `sockaddr_un` at `ptr` (not an abstract
    /// one), absolute.
    fn unix_path(&self, n: &Notice, ptr: u64, len: u64) -> Option<PathBuf> {
        if ptr == 0 || len < 3 {
            return None;
        }
        let raw = sc::read_bytes(n.pid, ptr, (len as usize).min(110));
        if raw.len() < 3 || u16::from_le_bytes([raw[0], raw[1]]) != 1 || raw[2] == 0 {
            return None;
        }
        let end = raw[2..]
            .iter()
            .position(|&b| b == 0)
            .map_or(raw.len(), |e| e + 2);
        let text = String::from_utf8_lossy(&raw[2..end]).into_owned();
        let p = PathBuf::from(&text);
        let p = if p.is_absolute() {
            p
        } else {
            std::fs::read_link(format!("/proc/{}/cwd", n.pid))
                .ok()
                .or_else(|| self.leader_cwd.clone())?
                .join(p)
        };
        Some(own_proc(&lexical(&p), n.pid))
    }

    /// A named unix socket: the server's own (bound by it, in its trees or
    /// its private home), the system's log, or another program's (an agent,
    /// a daemon): refused under enforce.
    fn named_socket(&self, n: &Notice, path: PathBuf) -> Verdict {
        let p = &self.policy;
        let real = std::fs::canonicalize(&path).ok();
        let Some(real) = real else {
            // Nothing there: the kernel says ENOENT.
            return (Vec::new(), None);
        };
        let home = self.home.as_deref();
        let own = |x: &Path| {
            self.bound.borrow().contains(x)
                || p.own.iter().any(|t| x.starts_with(t))
                || home.is_some_and(|h| x.starts_with(h))
                || SYSTEM_LOG.iter().any(|s| x.starts_with(s))
        };
        let target = path.display().to_string();
        if own(&path) || own(&real) {
            return (vec![self.event(n, Kind::LocalSocket, target, false)], None);
        }
        let refuse = self.refusal(sc::EACCES);
        let ev = self.event(n, Kind::Network, format!("unix:{target}"), refuse.is_some());
        (vec![ev], refuse)
    }

    /// A socket address: its event, and whether the supervisor refuses it.
    /// `datagram`: a send (`AF_UNSPEC` is IPv4 there, as UDP reads it),
    /// not a connect (where it dissolves an association).
    fn address(&self, n: &Notice, ptr: u64, len: u64, datagram: bool) -> Verdict {
        if ptr == 0 || len < 2 {
            return (Vec::new(), None);
        }
        let raw = sc::read_bytes(n.pid, ptr, (len as usize).min(128));
        if raw.len() < 2 {
            return (Vec::new(), None);
        }
        let family = u16::from_le_bytes([raw[0], raw[1]]);
        let port = |r: &[u8]| u16::from_be_bytes([r[2], r[3]]);
        let ip: std::net::IpAddr = match family {
            1 => {
                if let Some(path) = self.unix_path(n, ptr, len) {
                    return self.named_socket(n, path);
                }
                let path = &raw[2..];
                let end = path
                    .iter()
                    .skip(1)
                    .position(|&b| b == 0)
                    .map_or(path.len(), |e| e + 1);
                let name = format!(
                    "@{}",
                    String::from_utf8_lossy(&path[1.min(path.len())..end])
                );
                return (vec![self.event(n, Kind::LocalSocket, name, false)], None);
            }
            0 if !datagram => return (Vec::new(), None),
            0 | 2 if raw.len() >= 8 => {
                std::net::Ipv4Addr::new(raw[4], raw[5], raw[6], raw[7]).into()
            }
            10 if raw.len() >= 24 => {
                let b: [u8; 16] = raw[8..24].try_into().unwrap_or([0; 16]);
                std::net::Ipv6Addr::from(b).into()
            }
            16 => return (Vec::new(), None),
            40 if raw.len() >= 12 => {
                let vport = u32::from_le_bytes([raw[4], raw[5], raw[6], raw[7]]);
                let cid = u32::from_le_bytes([raw[8], raw[9], raw[10], raw[11]]);
                let refuse = self.refusal(sc::EAFNOSUPPORT);
                let what = format!("vsock:{cid}:{vport}");
                return (
                    vec![self.event(n, Kind::Network, what, refuse.is_some())],
                    refuse,
                );
            }
            f => {
                let refuse = self.refusal(sc::EAFNOSUPPORT);
                let what = format!("an address of {}", family_name(u64::from(f)));
                return (
                    vec![self.event(n, Kind::Network, what, refuse.is_some())],
                    refuse,
                );
            }
        };
        let port = port(&raw);
        let refuse = if self.policy.may_connect(&ip, port, datagram) {
            None
        } else {
            self.refusal(sc::EACCES)
        };
        let target = std::net::SocketAddr::new(ip, port).to_string();
        (
            vec![self.event(n, Kind::Network, target, refuse.is_some())],
            refuse,
        )
    }
}

/// The system's logging sockets: a server may log there.
const SYSTEM_LOG: &[&str] = &["/dev/log", "/run/systemd/journal/"];

/// Both verdicts: their events, and the first refusal.
fn either(a: Verdict, b: Verdict) -> Verdict {
    let (mut events, refuse) = a;
    events.extend(b.0);
    (events, refuse.or(b.1))
}

/// `/proc/self/…` and `/proc/thread-self/…` as the task `pid` means them.
fn own_proc(path: &Path, pid: u32) -> PathBuf {
    for own in ["/proc/self", "/proc/thread-self"] {
        if let Ok(rest) = path.strip_prefix(own) {
            return Path::new("/proc").join(pid.to_string()).join(rest);
        }
    }
    path.to_path_buf()
}
