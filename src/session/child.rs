//! The one owner of the server process. It spawns the command without a
//! shell, with an allow-listed environment, all three streams piped, in its
//! own process group (and, on Linux, dying with the guard); it signals that
//! group and the leader itself (which may have left the group), reaps the
//! leader exactly once, finds what outlived it (live group members, and as
//! the guard is a child subreaper on Linux, every live descendant however
//! it left the group), and kills and reaps on every path out through
//! `Drop`, a panic included.
//!
//! `child` decides nothing about *when* to stop the server: the session
//! drives the shutdown sequence with these primitives while it keeps reading
//! the server's output.

use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};

use crate::plan::Launch;
use crate::sys;

/// The three pipes of a freshly spawned server, handed to `wire`.
#[derive(Debug)]
pub struct Pipes {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

/// A running (or exited, not yet reaped) server process and its group.
#[derive(Debug)]
pub struct Server {
    child: Child,
    status: Option<ExitStatus>,
    /// Set once the group was seen empty after the leader was reaped; from
    /// then on the group id may be reused and is never signalled again.
    group_gone: bool,
    /// Set when a look after the leader's reap found nothing of the server
    /// alive: nothing is left that could start anything, so `Drop` need not
    /// look again.
    clean: bool,
    /// The program as the user named it (for finding it on PATH).
    program: std::ffi::OsString,
    /// `--confine`: the supervisor of what the server touches; it outlives
    /// the server's processes (fields drop after `Drop` has reaped them).
    supervisor: Option<crate::session::confine::Supervisor>,
    /// Windows: the job object holding the server and all it starts.
    #[cfg(windows)]
    job: sys::windows::Job,
    /// The group in the guard's custody (a signal ends it), released
    /// after `Drop` has killed and reaped everything.
    _custody: sys::custody::Held,
}

/// How the exit status reads in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    pub code: Option<i32>,
    pub signal: Option<i32>,
}

impl Exit {
    pub fn from_status(status: ExitStatus) -> Exit {
        #[cfg(unix)]
        let signal = std::os::unix::process::ExitStatusExt::signal(&status);
        #[cfg(not(unix))]
        let signal = None;
        Exit {
            code: status.code(),
            signal,
        }
    }

    pub fn is_clean(&self) -> bool {
        self.code == Some(0) && self.signal.is_none()
    }
}

impl Server {
    /// Starts the server. An `Err` is a spawn failure (missing program,
    /// permission denied), which the caller reports as an issue.
    pub fn spawn(launch: &Launch) -> io::Result<(Server, Pipes)> {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .env_clear()
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &launch.cwd {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        sys::die_with_parent(&mut cmd);
        #[cfg(unix)]
        if let Some(fd) = launch.announce {
            sys::announce_pid(&mut cmd, fd);
        }
        let supervisor = match &launch.confine {
            Some(policy) => Some(crate::session::confine::prepare(
                &mut cmd,
                launch,
                policy,
                std::time::Instant::now(),
            )?),
            None => None,
        };
        #[cfg(windows)]
        let job = sys::windows::Job::create()?;
        #[cfg(windows)]
        sys::windows::start_suspended(&mut cmd);
        let custody = sys::custody::spawning();
        let mut child = cmd.spawn().map_err(|e| explain(e, &launch.program))?;
        custody.started(child.id(), cfg!(unix));
        #[cfg(windows)]
        if let Err(e) = job.adopt(&child) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            unreachable!("invariant: all three streams were configured as pipes")
        };
        let server = Server {
            child,
            status: None,
            group_gone: false,
            clean: false,
            program: launch.program.clone(),
            supervisor,
            #[cfg(windows)]
            job,
            _custody: custody,
        };
        Ok((
            server,
            Pipes {
                stdin,
                stdout,
                stderr,
            },
        ))
    }

    /// What the supervisor recorded (`--confine`), once the server's
    /// processes are gone.
    pub fn confinement(&mut self) -> Option<crate::session::confine::Log> {
        self.supervisor
            .take()
            .map(crate::session::confine::Supervisor::finish)
    }

    /// The supervisor's phase, which the session keeps current.
    pub fn phase(&self) -> Option<&crate::session::confine::Phase> {
        self.supervisor.as_ref().map(|s| &s.phase)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The absolute path of the program that runs: what the kernel
    /// executed (`/proc/PID/exe`), else `program` found on PATH. Read right
    /// after the spawn, which returns only once the exec has happened.
    pub fn executable(&self) -> Option<String> {
        let program = self.program.as_os_str();
        let proc_exe = format!("/proc/{}/exe", self.pid());
        if let Ok(path) = std::fs::read_link(proc_exe) {
            return Some(path.to_string_lossy().into_owned());
        }
        let program = std::path::Path::new(program);
        if program.components().count() > 1 {
            // Windows' canonical form is a `\\?\` path nobody wrote.
            if cfg!(windows) {
                return std::path::absolute(program)
                    .ok()
                    .map(|p| p.to_string_lossy().into_owned());
            }
            return std::fs::canonicalize(program)
                .ok()
                .map(|p| p.to_string_lossy().into_owned());
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
            .map(|p| p.to_string_lossy().into_owned())
    }

    /// Reaps the leader if it has exited. Safe to call repeatedly; the status
    /// is kept after the single reap.
    pub fn try_wait(&mut self) -> Option<Exit> {
        if self.status.is_none() {
            match self.child.try_wait() {
                Ok(Some(status)) => self.status = Some(status),
                Ok(None) => {}
                // ECHILD: somebody else reaped it; nothing more can be learnt.
                Err(_) => return None,
            }
        }
        self.status.map(Exit::from_status)
    }

    pub fn has_exited(&self) -> bool {
        self.status.is_some()
    }

    /// Sends `sig` to the whole process group, and to the leader itself
    /// while it is unreaped (a server may have moved to another group).
    /// Returns whether any process received it. Before the leader is reaped
    /// its zombie keeps the pid and group id reserved, so this can never hit
    /// an unrelated process.
    pub fn signal_group(&mut self, sig: i32) -> bool {
        #[cfg(unix)]
        {
            let leader =
                self.status.is_none() && sys::signal_process(self.pid(), sig).unwrap_or_default();
            let group = !self.group_gone && sys::signal_group(self.pid(), sig).unwrap_or_default();
            leader || group
        }
        // No polite signal reaches a console process of another group:
        // asking is asking the job, and any other signal ends the job.
        #[cfg(windows)]
        {
            if sig == 0 {
                !self.job.pids().is_empty()
            } else {
                self.job.terminate()
            }
        }
        #[cfg(not(any(unix, windows)))]
        {
            let _ = sig;
            self.child.kill().is_ok()
        }
    }

    /// What outlived the leader (after it was reaped): live members of its
    /// process group and, when the guard is the subreaper, every live
    /// descendant of the guard other than its own helpers. Zombies are not
    /// alive; those the guard adopted are reaped here.
    pub fn leftovers(&mut self) -> Vec<sys::Proc> {
        if !self.has_exited() {
            return Vec::new();
        }
        self.table_leftovers()
    }

    /// The job's live processes: the job holds everything the server
    /// started, however it detached.
    #[cfg(windows)]
    fn table_leftovers(&mut self) -> Vec<sys::Proc> {
        let found: Vec<sys::Proc> = sys::windows::describe(&self.job.pids())
            .into_iter()
            .map(|(pid, ppid, exe)| sys::Proc {
                pid,
                ppid,
                pgid: 0,
                state: 'R',
                cmdline: exe,
            })
            .collect();
        self.clean = found.is_empty();
        found
    }

    /// Live group members and, as subreaper, every live descendant.
    #[cfg(not(windows))]
    fn table_leftovers(&mut self) -> Vec<sys::Proc> {
        if !sys::PROCESS_TABLE {
            // Only the group can be asked, and only whether it has members.
            let alive = !self.group_gone && sys::signal_group(self.pid(), 0).unwrap_or_default();
            self.group_gone |= !alive;
            self.clean = !alive;
            return if alive {
                vec![sys::Proc {
                    pid: self.pid(),
                    ppid: 0,
                    pgid: self.pid(),
                    state: '?',
                    cmdline: "(a member of the server's process group)".to_string(),
                }]
            } else {
                Vec::new()
            };
        }
        // With the guard as subreaper every orphan is re-parented to it, so
        // its descendants are all there is to look at.
        let table = match sys::descendants() {
            Some(d) if sys::is_subreaper() => d,
            _ => sys::processes(),
        };
        let guard = std::process::id();
        let helpers = helpers();
        let mut mine: Vec<u32> = vec![guard];
        let mut found = Vec::new();
        // Walk down from the guard: every process whose parent is already
        // known to be ours (the table is not ordered by parenthood).
        let mut grew = true;
        while grew {
            grew = false;
            for p in &table {
                if mine.contains(&p.pid) || !mine.contains(&p.ppid) || helpers.contains(&p.pid) {
                    continue;
                }
                let in_group = p.pgid == self.pid();
                if sys::is_subreaper() || in_group {
                    mine.push(p.pid);
                    found.push(p.clone());
                    grew = true;
                }
            }
        }
        let members: Vec<sys::Proc> = table
            .iter()
            .filter(|p| p.pgid == self.pid() && !found.iter().any(|f| f.pid == p.pid))
            .cloned()
            .collect();
        found.extend(members);
        // Adopted zombies: reap them; they are not leftovers.
        for p in found.iter().filter(|p| p.is_zombie() && p.ppid == guard) {
            sys::reap(p.pid);
        }
        found.retain(|p| !p.is_zombie());
        if found.iter().all(|p| p.pgid != self.pid()) {
            self.group_gone = true;
        }
        for p in &mut found {
            p.cmdline = sys::cmdline(p.pid);
        }
        self.clean = found.is_empty();
        found
    }

    /// Kills every leftover (and the group), then reaps those the guard
    /// adopted.
    pub fn kill_leftovers(&mut self, left: &[sys::Proc]) {
        #[cfg(windows)]
        self.job.terminate();
        if !self.group_gone {
            let _ = sys::signal_group(self.pid(), sys::SIGKILL);
        }
        for p in left {
            let _ = sys::signal_process(p.pid, sys::SIGKILL);
        }
    }
}

/// A spawn error in the user's terms: std refuses to hand a `.cmd` or
/// `.bat` script an argument that `cmd.exe` would reinterpret (the
/// "BatBadBut" flaw, CVE-2024-24576).
fn explain(e: io::Error, program: &std::ffi::OsStr) -> io::Error {
    let script = std::path::Path::new(program)
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| x.eq_ignore_ascii_case("cmd") || x.eq_ignore_ascii_case("bat"));
    if script && e.kind() == io::ErrorKind::InvalidInput {
        return io::Error::new(
            e.kind(),
            format!(
                "{e}: an argument cannot be passed safely through cmd.exe to a .cmd or .bat \
                 script (CVE-2024-24576); run the script's interpreter directly"
            ),
        );
    }
    e
}

/// Children the guard starts for itself (runtime version probes, `wrap`'s
/// watcher): never mistaken for what a server left behind.
static HELPERS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

#[cfg(not(windows))]
fn helpers() -> Vec<u32> {
    HELPERS.lock().map(|h| h.clone()).unwrap_or_default()
}

pub fn helper(pid: u32, add: bool) {
    if let Ok(mut h) = HELPERS.lock() {
        h.retain(|p| *p != pid);
        if add {
            h.push(pid);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.status.is_none() {
            // The zombie or live leader still holds its pid and group id:
            // kill it and the group, then reap. SIGKILL to the leader itself
            // cannot be ignored or escaped, so the wait ends as soon as the
            // kernel has torn the process down.
            self.signal_group(sys::SIGKILL);
            let _ = self.child.kill();
            if let Ok(status) = self.child.wait() {
                self.status = Some(status);
            }
        }
        if self.clean {
            return;
        }
        let left = self.leftovers();
        if !left.is_empty() {
            self.kill_leftovers(&left);
        }
    }
}

/// The first line a program prints for `--version` (stdout, else stderr),
/// within `limit`; `None` if it cannot run or takes longer (its process
/// group is then killed and reaped). For the fingerprint's runtime
/// versions: the server's allow-listed environment, no shell, nothing left
/// running.
pub fn version_of(
    program: &str,
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    limit: std::time::Duration,
) -> Option<String> {
    let mut cmd = Command::new(program);
    cmd.arg("--version")
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    #[cfg(windows)]
    let job = sys::windows::Job::create().ok()?;
    #[cfg(windows)]
    sys::windows::start_suspended(&mut cmd);
    let custody = sys::custody::spawning();
    #[cfg_attr(not(windows), allow(unused_mut))]
    let mut child = cmd.spawn().ok()?;
    let pid = child.id();
    custody.started(pid, cfg!(unix));
    #[cfg(windows)]
    if job.adopt(&child).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    }
    helper(pid, true);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let waited = match rx.recv_timeout(limit) {
        Ok(out) => Some(out),
        Err(_) => {
            let _ = sys::signal_group(pid, sys::SIGKILL);
            #[cfg(windows)]
            job.terminate();
            // The waiting thread reaps it; give it a bounded moment.
            let _ = rx.recv_timeout(std::time::Duration::from_secs(1));
            None
        }
    };
    helper(pid, false);
    let out = waited?.ok()?;
    if !out.status.success() {
        return None;
    }
    let text = if out.stdout.iter().all(u8::is_ascii_whitespace) {
        out.stderr
    } else {
        out.stdout
    };
    String::from_utf8_lossy(&text)
        .lines()
        .next()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
}
