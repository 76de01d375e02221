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
    /// A TCP or UDP connection or datagram (an IP address).
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
        ports: policy.connect.iter().map(|(_, p)| *p).collect(),
        landlock: policy.landlock(),
        notify: false,
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
    Ok(Supervisor {
        phase,
        stop,
        thread,
        home,
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
                    seen.log.problem = Some(format!("the filter's listener was not received: {e}"));
                    return seen.log;
                }
            }
        };
        loop {
            match listener.next(Duration::from_millis(100)) {
                Ok(Wait::Notice(n)) => {
                    seen.log.notifications += 1;
                    let (events, refuse) = self.judge(&n);
                    // What was read came from the waiting task only if it
                    // still waits.
                    if listener.still_waiting(n.id) {
                        for ev in events {
                            seen.add(ev);
                        }
                    }
                    listener.answer(n.id, refuse.then_some(sc::EACCES));
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

    /// The events of one call and whether the supervisor refuses it.
    fn judge(&self, n: &Notice) -> (Vec<Event>, bool) {
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
            Call::PathOnly => (self.change(n, AT_FDCWD, a[0]), false),
            Call::PathAt => (self.change(n, fd(a[0]), a[1]), false),
            Call::Rename => {
                let mut out = self.change(n, AT_FDCWD, a[0]);
                out.extend(self.change(n, AT_FDCWD, a[1]));
                (out, false)
            }
            Call::RenameAt => {
                let mut out = self.change(n, fd(a[0]), a[1]);
                out.extend(self.change(n, fd(a[2]), a[3]));
                (out, false)
            }
            Call::Execve => self.exec(n, AT_FDCWD, a[0], a[1]),
            Call::ExecveAt => self.exec(n, fd(a[0]), a[1], a[2]),
            Call::Connect => self.address(n, a[1], a[2]),
            Call::SendTo => self.address(n, a[4], a[5]),
            Call::SendMsg | Call::SendMmsg => {
                let hdr = sc::read_bytes(n.pid, a[1], 16);
                if hdr.len() < 16 {
                    return (Vec::new(), false);
                }
                let name = u64::from_le_bytes(hdr[0..8].try_into().unwrap_or([0; 8]));
                let len = u32::from_le_bytes(hdr[8..12].try_into().unwrap_or([0; 4]));
                self.address(n, name, u64::from(len))
            }
            Call::Foreign => (
                vec![self.event(n, Kind::Foreign, "a call of another ABI".into(), false)],
                false,
            ),
        }
    }

    /// A path argument, absolute and resolved by name.
    fn path(&self, n: &Notice, dirfd: i32, ptr: u64) -> Option<PathBuf> {
        let raw = sc::read_string(n.pid, ptr, 4096)?;
        #[cfg(unix)]
        let p =
            PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(raw));
        #[cfg(not(unix))]
        let p = PathBuf::from(String::from_utf8_lossy(&raw).into_owned());
        if p.is_absolute() {
            return Some(lexical(&p));
        }
        let base = if dirfd == AT_FDCWD {
            std::fs::read_link(format!("/proc/{}/cwd", n.pid))
                .ok()
                .or_else(|| self.leader_cwd.clone())?
        } else {
            std::fs::read_link(format!("/proc/{}/fd/{dirfd}", n.pid)).ok()?
        };
        Some(lexical(&base.join(p)))
    }

    fn open(&self, n: &Notice, dirfd: i32, ptr: u64, flags: u64) -> (Vec<Event>, bool) {
        let Some(path) = self.path(n, dirfd, ptr) else {
            return (Vec::new(), false);
        };
        let writes = flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0;
        let p = &self.policy;
        let real = std::fs::canonicalize(&path).ok();
        let either = |f: &dyn Fn(&Path) -> bool| f(&path) || real.as_deref().is_some_and(f);
        if either(&|x| p.is_credential(x)) {
            if either(&|x| p.is_launcher_config(x)) {
                let ev = self.event(n, Kind::LauncherConfig, path.display().to_string(), false);
                return (vec![ev], false);
            }
            let refuse = p.enforcing();
            let mut ev = self.event(n, Kind::SecretRead, path.display().to_string(), refuse);
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
            return (Vec::new(), false);
        }
        let kind = if writes {
            Kind::WriteOutside
        } else {
            Kind::ReadOutside
        };
        let denied = p.landlock();
        (
            vec![self.event(n, kind, path.display().to_string(), denied)],
            false,
        )
    }

    fn change(&self, n: &Notice, dirfd: i32, ptr: u64) -> Vec<Event> {
        let Some(path) = self.path(n, dirfd, ptr) else {
            return Vec::new();
        };
        let p = &self.policy;
        if p.may_write(&path, self.home.as_deref())
            || path.components().any(|c| c.as_os_str() == "__pycache__")
        {
            return Vec::new();
        }
        vec![self.event(
            n,
            Kind::WriteOutside,
            path.display().to_string(),
            p.landlock(),
        )]
    }

    /// A program run: its event, and whether the supervisor refuses it
    /// (under enforce, a program outside the launch chain and the
    /// server's own trees that is not already running).
    fn exec(&self, n: &Notice, dirfd: i32, ptr: u64, argv: u64) -> (Vec<Event>, bool) {
        let Some(path) = self.path(n, dirfd, ptr) else {
            // The launch itself, before its exec: the guard's copy, whose
            // memory cannot be read.
            return (Vec::new(), false);
        };
        let mut args = Vec::new();
        let table = sc::read_bytes(n.pid, argv, 8 * 32);
        for word in table.chunks_exact(8) {
            let at = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            let Some(arg) = (at != 0).then(|| sc::read_string(n.pid, at, 512)).flatten() else {
                break;
            };
            args.push(String::from_utf8_lossy(&arg).into_owned());
        }
        let p = &self.policy;
        let Ok(real) = std::fs::canonicalize(&path) else {
            // Nothing there (a PATH search): the kernel says ENOENT.
            return (Vec::new(), false);
        };
        let known =
            |x: &Path| p.exec.iter().any(|e| e == x) || p.own.iter().any(|t| x.starts_with(t));
        let allowed = known(&path) || known(&real) || self.ran.borrow().contains(&real);
        let refuse = p.enforcing() && !allowed;
        if !refuse {
            self.ran.borrow_mut().insert(real);
        }
        let denied = refuse || p.landlock() && !p.may_read(&path);
        let mut ev = self.event(n, Kind::Exec, path.display().to_string(), denied);
        ev.argv = args;
        (vec![ev], refuse)
    }

    /// A socket address: its event, and whether the supervisor refuses it.
    fn address(&self, n: &Notice, ptr: u64, len: u64) -> (Vec<Event>, bool) {
        if ptr == 0 || len < 2 {
            return (Vec::new(), false);
        }
        let raw = sc::read_bytes(n.pid, ptr, (len as usize).min(128));
        if raw.len() < 2 {
            return (Vec::new(), false);
        }
        let family = u16::from_le_bytes([raw[0], raw[1]]);
        let port = |r: &[u8]| u16::from_be_bytes([r[2], r[3]]);
        let ip: std::net::IpAddr = match family {
            1 => {
                let path = &raw[2..];
                let name = match path.first() {
                    Some(0) => {
                        let end = path[1..]
                            .iter()
                            .position(|&b| b == 0)
                            .map_or(path.len(), |e| e + 1);
                        format!("@{}", String::from_utf8_lossy(&path[1..end]))
                    }
                    _ => {
                        let end = path.iter().position(|&b| b == 0).unwrap_or(path.len());
                        String::from_utf8_lossy(&path[..end]).into_owned()
                    }
                };
                return (vec![self.event(n, Kind::LocalSocket, name, false)], false);
            }
            2 if raw.len() >= 8 => std::net::Ipv4Addr::new(raw[4], raw[5], raw[6], raw[7]).into(),
            10 if raw.len() >= 24 => {
                let b: [u8; 16] = raw[8..24].try_into().unwrap_or([0; 16]);
                std::net::Ipv6Addr::from(b).into()
            }
            _ => return (Vec::new(), false),
        };
        let port = port(&raw);
        let refuse = self.policy.enforcing() && !self.policy.may_connect(&ip, port);
        let target = std::net::SocketAddr::new(ip, port).to_string();
        (vec![self.event(n, Kind::Network, target, refuse)], refuse)
    }
}
