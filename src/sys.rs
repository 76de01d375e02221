//! The few platform calls that std does not offer: signalling a whole process
//! group, learning that a child exited without reaping it, and noticing
//! SIGINT/SIGTERM/SIGHUP sent to the guard itself.
//!
//! Everything here is a thin, hand-declared binding; the policy (when to
//! signal, what to record) lives in `child` and `session`. Nothing outside
//! this file contains `unsafe`.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

/// Signal numbers the guard sends or catches. These values are the same on
/// Linux and the BSDs/macOS.
pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGKILL: i32 = 9;
pub const SIGTERM: i32 = 15;

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
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return format!("SIG{sig}"),
    };
    name.to_string()
}

#[cfg(unix)]
mod imp {
    use super::*;

    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
        fn flock(fd: i32, operation: i32) -> i32;
        fn gethostname(name: *mut u8, len: usize) -> i32;
        fn signal(signum: i32, handler: usize) -> usize;
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
        fn waitid(idtype: u32, id: u32, infop: *mut u8, options: i32) -> i32;
    }

    const ESRCH: i32 = 3;
    const EINTR: i32 = 4;
    const LOCK_EX: i32 = 2;
    const LOCK_NB: i32 = 4;
    #[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
    const EWOULDBLOCK: i32 = 11;
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    const EWOULDBLOCK: i32 = 35;

    /// Takes an exclusive advisory lock on an open file within `limit`; it
    /// is released when the file is closed. Another holder is waited for by
    /// polling (no event says the lock was released), never past the limit.
    pub fn lock_exclusive(file: &std::fs::File, limit: std::time::Duration) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let deadline = std::time::Instant::now() + limit;
        loop {
            // SAFETY: flock only reads the descriptor number, which `file`
            // keeps open for the duration of the call.
            if unsafe { flock(file.as_raw_fd(), LOCK_EX | LOCK_NB) } == 0 {
                return Ok(());
            }
            let err = io::Error::last_os_error();
            match err.raw_os_error() {
                Some(EINTR) => continue,
                Some(EWOULDBLOCK) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
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

    /// Sends `sig` to every process in group `pgid`. `Ok(false)` means the
    /// group has no member left (ESRCH), which callers treat as success.
    pub fn signal_group(pgid: u32, sig: i32) -> io::Result<bool> {
        let Ok(pgid) = i32::try_from(pgid) else {
            return Err(io::Error::from(io::ErrorKind::InvalidInput));
        };
        if pgid <= 1 {
            // kill(-1, ..) would signal every process we may signal. Never.
            return Err(io::Error::from(io::ErrorKind::InvalidInput));
        }
        // SAFETY: kill has no memory effects; a negative pid addresses the
        // process group, and pgid > 1 was checked above.
        let rc = unsafe { kill(-pgid, sig) };
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

    extern "C" fn on_signal(sig: i32) {
        // Only an atomic store: async-signal-safe.
        PENDING.store(sig, Ordering::SeqCst);
    }

    /// Routes SIGINT, SIGTERM and SIGHUP to a flag the session polls, so the
    /// guard can kill and reap the server group before it exits. The server
    /// runs in its own process group and no longer receives the terminal's
    /// Ctrl-C itself, so without this an interrupted guard would orphan it.
    pub fn install_interrupt_handlers() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // SAFETY: `on_signal` is an `extern "C" fn(i32)` that only stores
            // to an atomic. glibc and musl give `signal` BSD semantics (the
            // handler stays installed, SA_RESTART). Dispositions reset to
            // default in the child at exec.
            unsafe {
                signal(sig, on_signal as *const () as usize);
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    pub fn signal_group(_pgid: u32, _sig: i32) -> io::Result<bool> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    pub fn wait_exit_no_reap(_pid: u32) {}

    pub fn lock_exclusive(_file: &std::fs::File, _limit: std::time::Duration) -> io::Result<()> {
        Ok(())
    }

    pub fn hostname() -> String {
        std::env::var("COMPUTERNAME").unwrap_or_default()
    }

    pub(super) static PENDING: AtomicI32 = AtomicI32::new(0);

    pub fn install_interrupt_handlers() {}
}

pub use imp::{
    hostname, install_interrupt_handlers, lock_exclusive, signal_group, wait_exit_no_reap,
};

/// Whether `wait_exit_no_reap` really blocks until exit on this target. Where
/// it does not, the session polls the child instead.
pub const EXIT_WAIT_BLOCKS: bool = cfg!(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos"
));

/// The signal that interrupted the guard, if one arrived.
pub fn pending_interrupt() -> Option<i32> {
    match imp::PENDING.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
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
