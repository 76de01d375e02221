//! The few platform calls that std does not offer: signalling a process
//! group or one process, learning that a child exited without reaping it,
//! noticing SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to the guard (so that a
//! blocking write returns), keeping those signals away from worker
//! threads, and, on Linux, the child subreaper, the parent-death signal and
//! the process table (`/proc`) that let the guard find every descendant of
//! the server, however it left the process group. Also sixteen bytes
//! compared at once (`Bytes16`, SSE2 on x86_64), for the scanner's search.
//!
//! Everything here is a thin, hand-declared binding; the policy (when to
//! signal, what to record) lives in `child` and `session`. Confinement's
//! calls (Landlock, seccomp) are in the submodule `confine`, Windows' (the job
//! object, the console control handler) in `windows`. Nothing outside
//! this module contains `unsafe`.

use std::io;

pub mod confine;
#[cfg(windows)]
pub mod windows;
use std::sync::atomic::{AtomicI32, Ordering};

/// Signal numbers the guard sends or catches. These values are the same on
/// Linux and the BSDs/macOS.
pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGQUIT: i32 = 3;
pub const SIGKILL: i32 = 9;
pub const SIGTERM: i32 = 15;

pub const SIGALRM: i32 = 14;
#[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
pub const SIGUSR1: i32 = 10;
#[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
pub const SIGUSR2: i32 = 12;
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
pub const SIGUSR1: i32 = 30;
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
pub const SIGUSR2: i32 = 31;

/// The signals that interrupt the guard and end its run cleanly: every
/// catchable one whose default would kill the guard and orphan the server.
pub const INTERRUPTS: [i32; 7] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM];

/// The name of a signal number, for reports (`SIGTERM`), or `SIG<n>`.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return format!("SIG{sig}"),
    };
    name.to_string()
}

/// One process of the process table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proc {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    /// `Z` for a zombie, `R`, `S`, `D` ... otherwise.
    pub state: char,
    /// The command line, arguments joined with spaces.
    pub cmdline: String,
}

impl Proc {
    pub fn is_zombie(&self) -> bool {
        self.state == 'Z'
    }
}

#[cfg(unix)]
mod imp {
    use super::*;
    use std::time::{Duration, Instant};

    /// Room for a `sigset_t` on every target (128 bytes on Linux, 4 on macOS).
    type SigSet = [u64; 16];

    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
        fn flock(fd: i32, operation: i32) -> i32;
        fn gethostname(name: *mut u8, len: usize) -> i32;
        fn signal(signum: i32, handler: usize) -> usize;
        fn siginterrupt(sig: i32, flag: i32) -> i32;
        fn sigemptyset(set: *mut SigSet) -> i32;
        fn sigaddset(set: *mut SigSet, signum: i32) -> i32;
        fn pthread_sigmask(how: i32, set: *const SigSet, old: *mut SigSet) -> i32;
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
        fn poll(fds: *mut PollFd, nfds: u64, timeout: i32) -> i32;
        fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
        fn getpid() -> i32;
        #[cfg(any(target_os = "linux", target_os = "android"))]
        fn setpriority(which: i32, who: u32, prio: i32) -> i32;
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
        fn waitid(idtype: u32, id: u32, infop: *mut u8, options: i32) -> i32;
        #[cfg(any(target_os = "linux", target_os = "android"))]
        fn prctl(option: i32, ...) -> i32;
        #[cfg(any(target_os = "linux", target_os = "android"))]
        fn getppid() -> i32;
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
        fn ioctl(fd: i32, request: u64, ...) -> i32;
        fn unlink(path: *const u8) -> i32;
        fn _exit(status: i32) -> !;
    }

    /// Bytes written to a pipe and not yet read from it (`FIONREAD`, which
    /// Linux answers on either end of a pipe).
    pub fn pipe_unread(fd: i32) -> io::Result<usize> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        const FIONREAD: u64 = 0x541B;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        const FIONREAD: u64 = 0x4004_667f;
        let mut n: i32 = 0;
        // SAFETY: FIONREAD writes one int into `n`, which outlives the call;
        // the caller keeps `fd` open for its duration.
        let rc = unsafe { ioctl(fd, FIONREAD, &mut n as *mut i32) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The width of the terminal on stderr in columns (`TIOCGWINSZ`), or
    /// `None` when stderr is no terminal or will not say.
    pub fn stderr_columns() -> Option<usize> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        const TIOCGWINSZ: u64 = 0x5413;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        const TIOCGWINSZ: u64 = 0x4008_7468;
        // rows, columns, x pixels, y pixels.
        let mut size = [0u16; 4];
        // SAFETY: TIOCGWINSZ writes one `struct winsize` (four u16) into
        // `size`, which outlives the call; fd 2 is only asked.
        let rc = unsafe { ioctl(2, TIOCGWINSZ, size.as_mut_ptr()) };
        (rc == 0 && size[1] > 0).then_some(usize::from(size[1]))
    }

    const F_GETFL: i32 = 3;
    const F_SETFL: i32 = 4;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub const O_NONBLOCK: i32 = 0x0004;
    /// "No such device or address": a FIFO opened for writing with
    /// `O_NONBLOCK` while nobody has it open for reading.
    pub const ENXIO: i32 = 6;

    /// Clears `O_NONBLOCK` on an open descriptor, so writes to it block
    /// (and a signal interrupts them) as they do on a regular file.
    pub fn set_blocking(file: &std::fs::File) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl with F_GETFL/F_SETFL only reads and writes the
        // status flags of a descriptor `file` keeps open for the call.
        unsafe {
            let flags = fcntl(fd, F_GETFL);
            if flags < 0 || fcntl(fd, F_SETFL, flags & !O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Sets `O_NONBLOCK` on a descriptor, so a read with nothing to read
    /// returns `WouldBlock` at once instead of waiting.
    pub fn set_nonblocking(fd: i32) -> io::Result<()> {
        // SAFETY: fcntl with F_GETFL/F_SETFL only reads and writes the
        // status flags of a descriptor the caller keeps open.
        unsafe {
            let flags = fcntl(fd, F_GETFL);
            if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    const ESRCH: i32 = 3;
    const EINTR: i32 = 4;
    const LOCK_EX: i32 = 2;
    const LOCK_NB: i32 = 4;
    const WNOHANG: i32 = 1;
    #[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
    const EWOULDBLOCK: i32 = 11;
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    const EWOULDBLOCK: i32 = 35;
    #[cfg(target_os = "macos")]
    const SIG_BLOCK: i32 = 1;
    #[cfg(target_os = "macos")]
    const SIG_SETMASK: i32 = 3;
    #[cfg(not(target_os = "macos"))]
    const SIG_BLOCK: i32 = 0;
    #[cfg(not(target_os = "macos"))]
    const SIG_SETMASK: i32 = 2;

    /// Takes an exclusive advisory lock on an open file within `limit`; it
    /// is released when the file is closed. Another holder is waited for by
    /// polling (no event says the lock was released), never past the limit
    /// and never past an interrupt of the guard.
    pub fn lock_exclusive(file: &std::fs::File, limit: Duration) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let deadline = Instant::now() + limit;
        loop {
            // SAFETY: flock only reads the descriptor number, which `file`
            // keeps open for the duration of the call.
            if unsafe { flock(file.as_raw_fd(), LOCK_EX | LOCK_NB) } == 0 {
                return Ok(());
            }
            let err = io::Error::last_os_error();
            match err.raw_os_error() {
                Some(EINTR) => continue,
                Some(EWOULDBLOCK) if pending_interrupt().is_some() => {
                    return Err(io::Error::from(io::ErrorKind::Interrupted));
                }
                Some(EWOULDBLOCK) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Some(EWOULDBLOCK) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "another process holds the file's lock",
                    ));
                }
                _ => return Err(err),
            }
        }
    }

    /// Releases the lock `lock_exclusive` took.
    pub fn unlock(file: &std::fs::File) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        const LOCK_UN: i32 = 8;
        // SAFETY: as for `lock_exclusive`.
        if unsafe { flock(file.as_raw_fd(), LOCK_UN) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// The host name, or "" when it cannot be read.
    pub fn hostname() -> String {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for `buf.len()` bytes; gethostname
        // writes at most that many and we stop at the first NUL.
        let rc = unsafe { gethostname(buf.as_mut_ptr(), buf.len()) };
        if rc != 0 {
            return String::new();
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).into_owned()
    }

    fn send(target: i32, sig: i32) -> io::Result<bool> {
        // SAFETY: kill has no memory effects; callers checked the target.
        let rc = unsafe { kill(target, sig) };
        if rc == 0 {
            return Ok(true);
        }
        let err = io::Error::last_os_error();
        if err.raw_os_error() == Some(ESRCH) {
            Ok(false)
        } else {
            Err(err)
        }
    }

    /// Sends `sig` to every process in group `pgid`. `Ok(false)` means the
    /// group has no member left (ESRCH), which callers treat as success.
    pub fn signal_group(pgid: u32, sig: i32) -> io::Result<bool> {
        match i32::try_from(pgid) {
            // kill(-1, ..) would signal every process we may signal. Never.
            Ok(pgid) if pgid > 1 => send(-pgid, sig),
            _ => Err(io::Error::from(io::ErrorKind::InvalidInput)),
        }
    }

    /// Sends `sig` to one process. The caller must know the pid is still
    /// the process it means (its own unreaped child, or a descendant found
    /// in the process table a moment ago).
    pub fn signal_process(pid: u32, sig: i32) -> io::Result<bool> {
        match i32::try_from(pid) {
            Ok(pid) if pid > 1 => send(pid, sig),
            _ => Err(io::Error::from(io::ErrorKind::InvalidInput)),
        }
    }

    /// Reaps `pid` if it is a zombie child of ours; true when it was.
    /// Waits for any child of the guard to exit and reaps it: false when
    /// the guard has no child left.
    pub fn reap_any_blocking() -> bool {
        let mut status = 0;
        loop {
            // SAFETY: `status` outlives the call.
            let rc = unsafe { waitpid(-1, &mut status, 0) };
            if rc > 0 {
                return true;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return false;
            }
        }
    }

    pub fn reap(pid: u32) -> bool {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        let mut status = 0;
        // SAFETY: `status` outlives the call; WNOHANG never blocks.
        unsafe { waitpid(pid, &mut status, WNOHANG) == pid }
    }

    /// Blocks until process `pid` (our own child) has exited, without reaping
    /// it: the zombie keeps its pid and process group reserved until the one
    /// owner of the `Child` calls `try_wait`. Returns when the child exited,
    /// or at once if it is no longer ours to wait for (already reaped).
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
    pub fn wait_exit_no_reap(pid: u32) {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        const WNOWAIT: i32 = 0x0100_0000;
        #[cfg(target_os = "macos")]
        const WNOWAIT: i32 = 0x20;
        const WEXITED: i32 = 0x04;
        const P_PID: u32 = 1;
        // siginfo_t is 128 bytes on Linux and 104 on macOS; give it room and
        // 8-byte alignment, zeroed as Darwin requires.
        let mut info = [0u64; 32];
        loop {
            // SAFETY: `info` outlives the call and is larger than siginfo_t on
            // every target this is compiled for; waitid writes only into it.
            let rc = unsafe { waitid(P_PID, pid, info.as_mut_ptr().cast(), WEXITED | WNOWAIT) };
            if rc == 0 || io::Error::last_os_error().raw_os_error() != Some(EINTR) {
                return;
            }
        }
    }

    /// Fallback for other Unix systems: nothing portable waits without
    /// reaping, so the caller polls `try_wait` instead.
    #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos")))]
    pub fn wait_exit_no_reap(_pid: u32) {}

    pub(super) static PENDING: AtomicI32 = AtomicI32::new(0);

    /// The first signal ends the guard at once when nothing is in its
    /// custody (no server or child guard alive: it is judging, writing or
    /// waiting for a file), else it asks the session to stop its processes
    /// in order; a second signal ends it at once, the custody killed.
    /// Only async-signal-safe calls: atomics, kill, unlink, write, _exit.
    extern "C" fn on_signal(sig: i32) {
        let first = PENDING.swap(sig, Ordering::SeqCst) == 0;
        let busy = super::custody::any();
        if first && busy {
            return;
        }
        super::custody::kill_all(|target| {
            // SAFETY: kill has no memory effects; the targets are the
            // guard's own children and their groups, held in custody.
            unsafe {
                kill(target, SIGKILL);
            }
        });
        super::custody::unlink_temps(|path| {
            // SAFETY: `path` is a NUL-terminated string that stays alive
            // (leaked) while it is registered.
            unsafe {
                unlink(path);
            }
        });
        let mut msg = [0u8; 96];
        let len = super::custody::interrupted_message(sig, &mut msg);
        // SAFETY: write and _exit are async-signal-safe; the buffer lives on
        // this stack frame for the call.
        unsafe {
            write(2, msg.as_ptr(), len);
            _exit(128 + sig);
        }
    }

    /// Routes SIGINT, SIGTERM, SIGHUP and SIGQUIT to a flag the guard polls,
    /// so it can kill and reap the server before it exits. The server runs
    /// in its own process group and no longer receives the terminal's Ctrl-C
    /// itself, so without this an interrupted guard would orphan it. The
    /// signals interrupt blocking system calls (no SA_RESTART), so a write
    /// into a pipe nobody reads returns and the guard can stop.
    #[repr(C)]
    pub struct PollFd {
        fd: i32,
        events: i16,
        revents: i16,
    }

    /// Waits until `fd` can be read without blocking (data, EOF or an
    /// error), at most `limit`: true when it can. An interrupted wait
    /// returns false early, so the caller sees the signal flag.
    pub fn wait_readable(fd: i32, limit: Duration) -> io::Result<bool> {
        const POLLIN: i16 = 1;
        wait_for(fd, POLLIN, limit)
    }

    /// Waits until `fd` can be written without blocking (room, or an
    /// error such as a closed reader), at most `limit`: true when it can.
    pub fn wait_writable(fd: i32, limit: Duration) -> io::Result<bool> {
        const POLLOUT: i16 = 4;
        wait_for(fd, POLLOUT, limit)
    }

    /// One `poll` of `fd` for `events`, at most `limit`; an interrupted
    /// wait is `Ok(false)`.
    fn wait_for(fd: i32, events: i16, limit: Duration) -> io::Result<bool> {
        let mut p = PollFd {
            fd,
            events,
            revents: 0,
        };
        let ms = i32::try_from(limit.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: `p` is one valid, initialised pollfd that outlives the
        // call; nfds is 1.
        let rc = unsafe { poll(&mut p, 1, ms) };
        match rc {
            n if n > 0 => Ok(true),
            0 => Ok(false),
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    Ok(false)
                } else {
                    Err(e)
                }
            }
        }
    }

    pub fn install_interrupt_handlers() {
        for sig in INTERRUPTS {
            // SAFETY: `on_signal` is an `extern "C" fn(i32)` that only stores
            // to an atomic; `signal` installs it (glibc and musl give it BSD
            // semantics: it stays installed), and `siginterrupt` only clears
            // SA_RESTART. Dispositions reset to default in the child at exec.
            unsafe {
                signal(sig, on_signal as *const () as usize);
                siginterrupt(sig, 1);
            }
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        become_subreaper();
    }

    /// Runs `f` (which spawns threads) with the interrupt signals blocked,
    /// so the threads it starts inherit the block: the signals then reach
    /// the main thread, which is the one that must stop what it is doing.
    pub fn with_interrupts_blocked<T>(f: impl FnOnce() -> T) -> T {
        let mut set: SigSet = [0; 16];
        let mut old: SigSet = [0; 16];
        // SAFETY: both sets live on this stack frame for the calls; the
        // functions write only into them.
        let blocked = unsafe {
            sigemptyset(&mut set);
            for sig in INTERRUPTS {
                sigaddset(&mut set, sig);
            }
            pthread_sigmask(SIG_BLOCK, &set, &mut old) == 0
        };
        let out = f();
        if blocked {
            // SAFETY: restores the mask saved above.
            unsafe {
                pthread_sigmask(SIG_SETMASK, &old, std::ptr::null_mut());
            }
        }
        out
    }

    /// One `write` of `bytes` to stdout (fd 1): how many were written.
    /// A signal makes it return `Interrupted` (no SA_RESTART), so a caller
    /// stuck behind a reader that reads nothing can stop.
    pub fn write_stdout_once(bytes: &[u8]) -> io::Result<usize> {
        // SAFETY: fd 1 is stdout; the buffer is valid for its length.
        let n = unsafe { write(1, bytes.as_ptr(), bytes.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n.unsigned_abs())
        }
    }

    /// Makes the guard's memory, and so its environment, unreadable to
    /// other processes of its user (`/proc/PID/environ`, `/proc/PID/mem`,
    /// ptrace): a server cannot read the secrets the guard did not hand it.
    /// Root (CAP_SYS_PTRACE) is not stopped by this. The server itself is
    /// dumpable again after its exec.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn hide_memory() {
        const PR_SET_DUMPABLE: i32 = 4;
        // SAFETY: prctl with this option only sets a flag of this process.
        unsafe {
            prctl(PR_SET_DUMPABLE, 0u64, 0u64, 0u64, 0u64);
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub fn hide_memory() {}

    /// Lowers the calling thread's scheduling priority to nice 19 (on
    /// Linux the nice value is a thread's own): its work yields to the
    /// process's other threads and to other processes when the CPU is
    /// contended, and it still runs often enough to release what it holds
    /// (an idle-class thread could starve holding an allocator lock).
    /// Threads it starts after this inherit it.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn lower_thread_priority() {
        const PRIO_PROCESS: i32 = 0;
        // SAFETY: who 0 is the calling thread; only its nice value changes.
        unsafe {
            setpriority(PRIO_PROCESS, 0, 19);
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub fn lower_thread_priority() {}

    /// Makes the guard the subreaper of its descendants: a process that
    /// leaves the server's process group and loses its parent is re-parented
    /// to the guard (not to init), so it can be found and ended.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn become_subreaper() {
        const PR_SET_CHILD_SUBREAPER: i32 = 36;
        // SAFETY: prctl with this option only sets a flag of this process.
        let rc = unsafe { prctl(PR_SET_CHILD_SUBREAPER, 1u64, 0u64, 0u64, 0u64) };
        SUBREAPER.store(rc == 0, Ordering::SeqCst);
    }

    /// Arranges for the server to receive SIGKILL when the guard dies (even
    /// by SIGKILL, which no handler sees).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn die_with_parent(cmd: &mut std::process::Command) {
        use std::os::unix::process::CommandExt;
        const PR_SET_PDEATHSIG: i32 = 1;
        // SAFETY: getpid has no memory effects.
        let parent = unsafe { getpid() };
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (prctl, getppid); it
        // allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                prctl(PR_SET_PDEATHSIG, SIGKILL as u64, 0u64, 0u64, 0u64);
                // The guard died between fork and prctl: go too.
                if getppid() != parent {
                    return Err(io::Error::from(io::ErrorKind::Other));
                }
                Ok(())
            });
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub fn die_with_parent(_cmd: &mut std::process::Command) {}

    /// Makes the child write `pgid N\n` (its pid, which is its process
    /// group's id) to `fd` between fork and exec: whoever reads `fd` knows
    /// the group before the program can start anything.
    pub fn announce_pid(cmd: &mut std::process::Command, fd: i32) {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec; it
        // formats into a stack buffer and calls only getpid and write,
        // both async-signal-safe; it allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                let mut buf = [0u8; 32];
                buf[..5].copy_from_slice(b"pgid ");
                let mut digits = [0u8; 12];
                let mut n = getpid().unsigned_abs();
                let mut len = 0;
                loop {
                    digits[len] = b'0' + (n % 10) as u8;
                    len += 1;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                for i in 0..len {
                    buf[5 + i] = digits[len - 1 - i];
                }
                buf[5 + len] = b'\n';
                write(fd, buf.as_ptr(), 6 + len);
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;
    use std::time::Duration;

    pub fn signal_group(_pgid: u32, _sig: i32) -> io::Result<bool> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    pub fn signal_process(_pid: u32, _sig: i32) -> io::Result<bool> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    pub fn reap(_pid: u32) -> bool {
        false
    }

    pub fn reap_any_blocking() -> bool {
        false
    }

    pub fn wait_exit_no_reap(_pid: u32) {}

    pub fn lock_exclusive(_file: &std::fs::File, _limit: std::time::Duration) -> io::Result<()> {
        Ok(())
    }

    pub fn unlock(_file: &std::fs::File) -> io::Result<()> {
        Ok(())
    }

    pub fn hostname() -> String {
        std::env::var("COMPUTERNAME").unwrap_or_default()
    }

    pub(super) static PENDING: AtomicI32 = AtomicI32::new(0);

    pub fn install_interrupt_handlers() {
        #[cfg(windows)]
        super::windows::install_ctrl_handler();
    }

    pub fn hide_memory() {}

    pub fn with_interrupts_blocked<T>(f: impl FnOnce() -> T) -> T {
        f()
    }

    pub fn write_stdout_once(bytes: &[u8]) -> io::Result<usize> {
        use std::io::Write;
        let mut out = io::stdout().lock();
        out.write_all(bytes).and_then(|()| out.flush())?;
        Ok(bytes.len())
    }

    pub fn die_with_parent(_cmd: &mut std::process::Command) {}

    pub fn wait_readable(_fd: i32, _limit: Duration) -> io::Result<bool> {
        Ok(true)
    }

    pub const O_NONBLOCK: i32 = 0;
    pub const ENXIO: i32 = 6;

    pub fn pipe_unread(_fd: i32) -> io::Result<usize> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    /// Not asked on this platform: the progress line keeps to 79 columns.
    pub fn stderr_columns() -> Option<usize> {
        None
    }

    pub fn lower_thread_priority() {}

    pub fn set_blocking(_file: &std::fs::File) -> io::Result<()> {
        Ok(())
    }

    /// No non-blocking pipes here: writes go through the writer thread.
    pub fn set_nonblocking(_fd: i32) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }

    pub fn wait_writable(_fd: i32, _limit: Duration) -> io::Result<bool> {
        Ok(true)
    }
}

/// Gives the allocator's free memory back to the system (glibc keeps what
/// threads freed in per-thread arenas), so a reading of resident memory
/// shows what is held, not what the allocator kept for later: the soak's
/// leak check reads it after this. A no-op where there is nothing to trim.
pub fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim only returns free pages of the allocator's
        // own arenas to the kernel; no live allocation is touched.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Keeps the allocator from holding on to what the guard freed: large
/// blocks (a listing's line, a parsed message) are mapped and unmapped
/// whole, not kept in the heap after use (glibc otherwise raises its
/// mapping threshold to the largest block freed, and every later block of
/// that size stays resident after it is freed), and the threads share two
/// arenas instead of one each (what a reader thread frees would stay in its
/// own). Without this, resident memory grew by about a megabyte per
/// `--repeat` run of a 1 MiB listing though the heap did not. A no-op
/// where the allocator is not glibc's.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_MMAP_THRESHOLD: i32 = -3;
        const M_ARENA_MAX: i32 = -8;
        // SAFETY: mallopt only sets the allocator's tunables; it is called
        // before the guard starts a thread.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 256 * 1024);
            mallopt(M_ARENA_MAX, 2);
        }
    }
}

/// Sixteen bytes held in one SSE2 register, compared all at once: the
/// scanner's word search (`scan::prefilter`) reads source at several bytes
/// per cycle with it whatever the optimiser's settings. SSE2 is part of the
/// x86_64 architecture itself (every x86_64 processor has it), so each
/// intrinsic below is always available.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
pub struct Bytes16(std::arch::x86_64::__m128i);

#[cfg(target_arch = "x86_64")]
impl Bytes16 {
    /// The sixteen bytes of `b`.
    #[inline(always)]
    pub fn load(b: &[u8; 16]) -> Bytes16 {
        // SAFETY: SSE2 is always present on x86_64 (above); the unaligned
        // load reads exactly the sixteen bytes the reference lends.
        Bytes16(unsafe { std::arch::x86_64::_mm_loadu_si128(b.as_ptr().cast()) })
    }

    /// Sixteen copies of `b`.
    #[inline(always)]
    pub fn splat(b: u8) -> Bytes16 {
        // SAFETY: SSE2 is always present on x86_64; no memory is touched.
        Bytes16(unsafe { std::arch::x86_64::_mm_set1_epi8(b as i8) })
    }

    /// 0xff where byte `i` equals the same byte of `other`, else 0.
    #[inline(always)]
    pub fn eq(self, other: Bytes16) -> Bytes16 {
        // SAFETY: SSE2 is always present on x86_64; no memory is touched.
        Bytes16(unsafe { std::arch::x86_64::_mm_cmpeq_epi8(self.0, other.0) })
    }

    #[inline(always)]
    pub fn and(self, other: Bytes16) -> Bytes16 {
        // SAFETY: SSE2 is always present on x86_64; no memory is touched.
        Bytes16(unsafe { std::arch::x86_64::_mm_and_si128(self.0, other.0) })
    }

    #[inline(always)]
    pub fn or(self, other: Bytes16) -> Bytes16 {
        // SAFETY: SSE2 is always present on x86_64; no memory is touched.
        Bytes16(unsafe { std::arch::x86_64::_mm_or_si128(self.0, other.0) })
    }

    /// Bit `i` set where byte `i` has its top bit set (0xff after `eq`).
    #[inline(always)]
    pub fn mask(self) -> u32 {
        // SAFETY: SSE2 is always present on x86_64; no memory is touched.
        unsafe { std::arch::x86_64::_mm_movemask_epi8(self.0) as u32 }
    }
}

/// The cores this process may run on (at least 1): the affinity mask on
/// Linux (a few lines, where the standard library's answer also reads the
/// cgroup quota files and costs kilobytes of the size budget), else the
/// standard library's.
pub fn cpu_count() -> usize {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        unsafe extern "C" {
            fn sched_getaffinity(pid: i32, size: usize, mask: *mut u64) -> i32;
        }
        let mut mask = [0u64; 16];
        // SAFETY: the mask is valid for its size in bytes; the kernel writes
        // at most that many.
        let rc = unsafe { sched_getaffinity(0, std::mem::size_of_val(&mask), mask.as_mut_ptr()) };
        if rc == 0 {
            let n: u32 = mask.iter().map(|w| w.count_ones()).sum();
            return (n as usize).max(1);
        }
        1
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

#[cfg(unix)]
pub use imp::announce_pid;
pub use imp::{
    ENXIO, O_NONBLOCK, die_with_parent, hide_memory, hostname, install_interrupt_handlers,
    lock_exclusive, lower_thread_priority, pipe_unread, reap, set_blocking, set_nonblocking,
    signal_group, signal_process, stderr_columns, unlock, wait_exit_no_reap, wait_readable,
    wait_writable, with_interrupts_blocked, write_stdout_once,
};

/// Set once the guard is the child subreaper of its descendants.
static SUBREAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether every orphaned descendant comes back to the guard (Linux, after
/// `install_interrupt_handlers`): then the whole subtree is the server's.
pub fn is_subreaper() -> bool {
    SUBREAPER.load(Ordering::SeqCst)
}

/// Whether `wait_exit_no_reap` really blocks until exit on this target. Where
/// it does not, the session polls the child instead.
pub const EXIT_WAIT_BLOCKS: bool = cfg!(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos"
));

/// Whether the process table can be read (`/proc`): descendants that left
/// the process group can be found, and zombies told from live members.
pub const PROCESS_TABLE: bool = cfg!(any(target_os = "linux", target_os = "android"));

/// The signal that interrupted the guard, if one arrived.
pub fn pending_interrupt() -> Option<i32> {
    match imp::PENDING.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// The children of `pid`, from every one of its threads' `children` file
/// (`None` when the kernel does not offer the file).
fn children_of(pid: u32) -> Option<Vec<u32>> {
    // The main thread's file proves the kernel has them; a thread that
    // ended between the listing and the read has no children left.
    let main = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    let mut out: Vec<u32> = main
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    for task in tasks.flatten() {
        if task.file_name().to_str() == Some(pid.to_string().as_str()) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    Some(out)
}

/// Every live descendant of this process, walked down through the
/// kernel's `children` files: a few reads instead of the whole table.
/// `None` where the files are missing (then use `processes`).
pub fn descendants() -> Option<Vec<Proc>> {
    if !PROCESS_TABLE {
        return None;
    }
    let mut out: Vec<Proc> = Vec::new();
    let mut queue = children_of(std::process::id())?;
    while let Some(pid) = queue.pop() {
        if out.iter().any(|p| p.pid == pid) {
            continue;
        }
        if let Some(p) = read_proc(pid) {
            out.push(p);
            queue.extend(children_of(pid).unwrap_or_default());
        }
    }
    Some(out)
}

/// What a process tree shows from outside, at one moment: the CPU time
/// its threads have used, and whether any thread works (runs, waits on a
/// disk, or sleeps on a timer, as a program does that is busy with
/// something before it answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TreeActivity {
    pub cpu_ns: u64,
    pub working: bool,
    pub processes: usize,
}

/// The system calls that sleep on a timer: `nanosleep`, `clock_nanosleep`.
#[cfg(target_arch = "x86_64")]
const SLEEP_CALLS: &[&str] = &["35", "230"];
#[cfg(target_arch = "aarch64")]
const SLEEP_CALLS: &[&str] = &["101", "115"];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SLEEP_CALLS: &[&str] = &[];

/// One thread's share of a tree's activity.
fn thread_activity(task: &std::path::Path, out: &mut TreeActivity) {
    if let Ok(stat) = std::fs::read_to_string(task.join("stat"))
        && let Some(rest) = stat.rfind(')').map(|at| &stat[at + 1..])
    {
        let mut fields = rest.split_whitespace();
        if matches!(fields.next(), Some("R" | "D")) {
            out.working = true;
        }
        // utime and stime, in clock ticks: fields 14 and 15 of the line.
        let ticks: u64 = fields
            .skip(10)
            .take(2)
            .filter_map(|f| f.parse::<u64>().ok())
            .sum();
        let ns = std::fs::read_to_string(task.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(ticks * 10_000_000);
        out.cpu_ns += ns;
    }
    if let Ok(call) = std::fs::read_to_string(task.join("syscall"))
        && call
            .split_whitespace()
            .next()
            .is_some_and(|n| SLEEP_CALLS.contains(&n))
    {
        out.working = true;
    }
}

/// The activity of `root` and every live descendant of it, thread by thread
/// (`None` where there is no `/proc`, or `root` is gone).
pub fn tree_activity(root: u32) -> Option<TreeActivity> {
    if !PROCESS_TABLE {
        return None;
    }
    let mut out = TreeActivity::default();
    let mut queue = vec![root];
    let mut seen: Vec<u32> = Vec::new();
    while let Some(pid) = queue.pop() {
        if seen.contains(&pid) {
            continue;
        }
        seen.push(pid);
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
        let Ok(tasks) = tasks else {
            if pid == root {
                return None;
            }
            continue;
        };
        out.processes += 1;
        for task in tasks.flatten() {
            thread_activity(&task.path(), &mut out);
        }
        queue.extend(children_of(pid).unwrap_or_default());
    }
    Some(out)
}

/// Every process of the process table (Linux `/proc`); empty elsewhere.
pub fn processes() -> Vec<Proc> {
    let mut out = Vec::new();
    if !PROCESS_TABLE {
        return out;
    }
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(p) = read_proc(pid) {
            out.push(p);
        }
    }
    out
}

/// A process's command line, its arguments joined by spaces ("" when it
/// cannot be read).
pub fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| {
            String::from_utf8_lossy(&b)
                .split('\0')
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// One process's `stat` (state, parent, group); the command line is read
/// only for the processes that matter (`cmdline`), one file instead of two
/// per process of the table.
fn read_proc(pid: u32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parens.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    Some(Proc {
        pid,
        ppid,
        pgid,
        state,
        cmdline: String::new(),
    })
}

/// The kernel release (`uname -r`), or "" when unknown.
pub fn os_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Short errno names for spawn failures (`ENOENT`), matching what other tools
/// print so registries can group them.
pub fn errno_name(err: &io::Error) -> String {
    let name = match err.raw_os_error() {
        Some(1) => "EPERM",
        Some(2) => "ENOENT",
        Some(7) => "E2BIG",
        Some(8) => "ENOEXEC",
        Some(12) => "ENOMEM",
        Some(13) => "EACCES",
        Some(20) => "ENOTDIR",
        Some(21) => "EISDIR",
        Some(24) => "EMFILE",
        Some(26) => "ETXTBSY",
        Some(40) => "ELOOP",
        Some(_) => "EOTHER",
        None => "",
    };
    name.to_string()
}

/// Reaps every child of the guard (its servers, and what the subreaper
/// took in) until none is left, at most `limit`: what was killed is gone
/// before the guard exits.
fn reap_all(limit: std::time::Duration) {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let reaper = std::thread::Builder::new().spawn(move || {
        while imp::reap_any_blocking() {}
        let _ = tx.send(());
    });
    if reaper.is_ok() {
        let _ = rx.recv_timeout(limit);
    }
}

/// The release profile aborts on a panic rather than unwinding (no `Drop`
/// runs: it keeps the binary a quarter of a megabyte smaller), so a panic,
/// on any thread, ends the run the way a second interrupt does: every
/// process in custody killed, and on Linux every descendant the guard is
/// the subreaper of; the temporary outputs and directories removed; the
/// message on stderr; exit status 101, as an unwinding panic would give.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        custody::kill_all(|target| {
            let _ = if target < 0 {
                signal_group(target.unsigned_abs(), SIGKILL)
            } else {
                signal_process(target.unsigned_abs(), SIGKILL)
            };
        });
        for p in descendants().unwrap_or_default() {
            let _ = signal_process(p.pid, SIGKILL);
        }
        reap_all(std::time::Duration::from_secs(1));
        custody::remove_temps();
        eprintln!("mcp-stdio-guard: internal error (a bug: please report it): {info}");
        std::process::exit(101);
    }));
}

/// What the guard must end before it may exit, readable from a signal
/// handler: the process groups of its servers and the pids of its other
/// children (child guards, version probes), and the temporary files of
/// outputs not yet complete. A slot holds `0` when free, a negative number
/// for a process group, a positive one for a process, and `SPAWNING` while
/// a spawn is under way (the handler then leaves the stop to the session,
/// which sees the signal as soon as the spawn returns).
pub mod custody {
    use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};

    const SLOTS: usize = 64;
    const SPAWNING: i32 = i32::MIN;
    static HELD: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    static TEMPS: [AtomicPtr<u8>; SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// A slot of the custody, released when dropped.
    #[derive(Debug)]
    pub struct Held(Option<usize>);

    /// Takes a slot before a spawn (so a signal that arrives while the
    /// child is being created does not end the guard around it). With every
    /// slot taken the guard still works; the signal then takes the
    /// cooperative path.
    pub fn spawning() -> Held {
        let slot = HELD.iter().position(|h| {
            h.compare_exchange(0, SPAWNING, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        Held(slot)
    }

    impl Held {
        /// The child was created: a process group (its own, `group`) or one
        /// process.
        pub fn started(&self, pid: u32, group: bool) {
            let Some(slot) = self.0 else { return };
            let id = i32::try_from(pid).unwrap_or(0);
            HELD[slot].store(if group { -id } else { id }, Ordering::SeqCst);
        }
    }

    impl Drop for Held {
        fn drop(&mut self) {
            if let Some(slot) = self.0 {
                HELD[slot].store(0, Ordering::SeqCst);
            }
        }
    }

    /// Whether anything is in custody.
    pub fn any() -> bool {
        HELD.iter().any(|h| h.load(Ordering::SeqCst) != 0)
    }

    /// Calls `kill` with every target held (a negative one is a group).
    pub fn kill_all(kill: impl Fn(i32)) {
        for h in &HELD {
            match h.load(Ordering::SeqCst) {
                0 | SPAWNING => {}
                id if id < 0 => {
                    kill(id);
                    kill(-id);
                }
                id => kill(id),
            }
        }
    }

    /// A temporary output file, removed by an emergency exit; dropped (the
    /// file renamed into place or removed) it is no longer registered.
    #[derive(Debug)]
    pub struct Temp(Option<usize>);

    /// Registers `path` (without NUL bytes) as a temporary file.
    pub fn temp(path: &std::path::Path) -> Temp {
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
            return Temp(None);
        };
        let raw = c.into_raw().cast::<u8>();
        for (i, t) in TEMPS.iter().enumerate() {
            if t.compare_exchange(
                std::ptr::null_mut(),
                raw,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
            {
                return Temp(Some(i));
            }
        }
        // SAFETY: `raw` came from `CString::into_raw` above and was not
        // stored anywhere.
        drop(unsafe { std::ffi::CString::from_raw(raw.cast()) });
        Temp(None)
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let Some(i) = self.0 else { return };
            let raw = TEMPS[i].swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !raw.is_null() {
                // SAFETY: only `temp` stores pointers here, each from
                // `CString::into_raw`, and the swap took it out exactly once.
                drop(unsafe { std::ffi::CString::from_raw(raw.cast()) });
            }
        }
    }

    /// Removes every registered temporary file, and every temporary
    /// directory with what it holds (outside a signal handler only).
    pub fn remove_temps() {
        for t in &TEMPS {
            let p = t.load(Ordering::SeqCst);
            if p.is_null() {
                continue;
            }
            // SAFETY: a registered pointer is a live NUL-terminated string
            // from `CString::into_raw` (see `temp`).
            let bytes = unsafe { std::ffi::CStr::from_ptr(p.cast()) }.to_bytes();
            #[cfg(unix)]
            let path = std::path::PathBuf::from(
                <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes),
            );
            #[cfg(not(unix))]
            let path = std::path::PathBuf::from(String::from_utf8_lossy(bytes).into_owned());
            if path.is_dir() {
                let _ = std::fs::remove_dir_all(&path);
            } else {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    /// Calls `unlink` with every registered temporary file's path.
    pub fn unlink_temps(unlink: impl Fn(*const u8)) {
        for t in &TEMPS {
            let p = t.load(Ordering::SeqCst);
            if !p.is_null() {
                unlink(p);
            }
        }
    }

    /// `mcp-stdio-guard: interrupted by SIGTERM` and a newline, written into
    /// `buf` without allocating; returns its length.
    pub fn interrupted_message(sig: i32, buf: &mut [u8; 96]) -> usize {
        const NAMES: [&str; 16] = [
            "SIG0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIG7",
            "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM",
        ];
        let name = usize::try_from(sig)
            .ok()
            .and_then(|i| NAMES.get(i))
            .copied()
            .unwrap_or("a signal");
        let mut len = 0;
        for part in ["mcp-stdio-guard: interrupted by ", name, "\n"] {
            for &b in part.as_bytes() {
                if len < buf.len() {
                    buf[len] = b;
                    len += 1;
                }
            }
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_table_holds_this_process_with_its_group() {
        if !PROCESS_TABLE {
            return;
        }
        let me = std::process::id();
        let all = processes();
        let own = all.iter().find(|p| p.pid == me).expect("this process");
        assert!(!own.is_zombie());
        assert!(own.pgid > 0 && own.ppid > 0);
    }

    #[test]
    fn signal_names_cover_the_interrupts() {
        for sig in INTERRUPTS {
            assert_ne!(signal_name(sig), format!("SIG{sig}"), "{sig} has a name");
        }
    }
}
