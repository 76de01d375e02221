//! Confinement's platform calls, Linux only: what the kernel offers
//! (`support`), a Landlock ruleset and a seccomp filter that notifies,
//! applied in the child between fork and exec (`arm`), the notification fd
//! handed back over a socketpair (`Listener::receive`), and a trapped
//! task's arguments read from its memory (`Notice`, `read_bytes`,
//! `read_string`). What to allow and what an event means live in
//! `plan::confine` and `session::confine`; nothing here decides.

use std::path::PathBuf;

/// What this kernel can do for confinement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Support {
    /// The Landlock ABI version, 0 when Landlock is absent or disabled.
    pub landlock_abi: u32,
    /// Whether seccomp user notification is available.
    pub notify: bool,
}

/// What the child is held to, in kernel terms.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Trees where reading and executing are allowed.
    pub read: Vec<PathBuf>,
    /// Device files that may be read and written (`/dev/null`).
    pub devices: Vec<PathBuf>,
    /// Trees where everything is allowed.
    pub write: Vec<PathBuf>,
    /// TCP ports a connection may go to (Landlock ABI 4 and later).
    pub ports: Vec<u16>,
    /// Apply Landlock (`enforce`).
    pub landlock: bool,
    /// Install the notifying filter and hand its listener over.
    pub notify: bool,
}

/// A system call the filter stopped, with what it was called with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notice {
    pub id: u64,
    pub pid: u32,
    pub call: Call,
    pub args: [u64; 6],
}

/// The calls the filter traps, by what they do (numbers differ per
/// architecture).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `open(path, flags)`, `creat(path)` (flags `O_CREAT|O_WRONLY|O_TRUNC`).
    Open,
    /// `openat(dirfd, path, flags)`.
    OpenAt,
    /// `openat2(dirfd, path, how)`: `how.flags` is the first u64.
    OpenAt2,
    Creat,
    Connect,
    SendTo,
    SendMsg,
    SendMmsg,
    Execve,
    ExecveAt,
    /// `unlink(path)`, `rmdir(path)`, `truncate(path)`, `mkdir(path)`.
    PathOnly,
    /// `unlinkat`, `mkdirat`: `(dirfd, path)`.
    PathAt,
    /// `rename(old, new)`.
    Rename,
    /// `renameat(olddirfd, old, newdirfd, new)`, `renameat2`.
    RenameAt,
    /// A call of another architecture's ABI (or x32): not read.
    Foreign,
}

pub use imp::{Armed, Handoff, Listener, arm, read_bytes, read_string, support};

/// The errno a denied call gets.
pub const EACCES: i32 = 13;

#[cfg(target_os = "linux")]
mod imp {
    use super::{Call, Notice, Rules, Support};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::os::unix::net::UnixDatagram;
    use std::time::{Duration, Instant};

    /// The guard's end of the socketpair the listener comes over.
    pub type Handoff = UnixDatagram;

    unsafe extern "C" {
        fn syscall(number: i64, ...) -> i64;
        fn prctl(option: i32, ...) -> i32;
        fn ioctl(fd: i32, request: u64, ...) -> i32;
        fn dup3(old: i32, new: i32, flags: i32) -> i32;
        fn close(fd: i32) -> i32;
        fn sendmsg(fd: i32, msg: *const MsgHdr, flags: i32) -> isize;
        fn recvmsg(fd: i32, msg: *mut MsgHdr, flags: i32) -> isize;
        fn poll(fds: *mut PollFd, nfds: u64, timeout: i32) -> i32;
        fn process_vm_readv(p: i32, l: Iov, ln: u64, r: Iov, rn: u64, f: u64) -> isize;
    }

    type Iov = *const IoVec;

    #[repr(C)]
    struct IoVec {
        base: *mut u8,
        len: usize,
    }

    #[repr(C)]
    struct MsgHdr {
        name: *mut u8,
        namelen: u32,
        iov: *mut IoVec,
        iovlen: usize,
        control: *mut u8,
        controllen: usize,
        flags: i32,
    }

    #[repr(C)]
    struct PollFd {
        fd: i32,
        events: i16,
        revents: i16,
    }

    #[repr(C)]
    #[derive(Clone, Copy)]
    struct SockFilter {
        code: u16,
        jt: u8,
        jf: u8,
        k: u32,
    }

    #[repr(C)]
    struct SockFprog {
        len: u16,
        filter: *const SockFilter,
    }

    #[repr(C)]
    struct RulesetAttr {
        fs: u64,
        net: u64,
        scoped: u64,
    }

    #[repr(C, packed)]
    struct PathBeneath {
        allowed: u64,
        parent_fd: i32,
    }

    #[repr(C)]
    struct NetPort {
        allowed: u64,
        port: u64,
    }

    #[cfg(target_arch = "x86_64")]
    mod nr {
        pub const ARCH: u32 = 0xc000_003e;
        pub const SECCOMP: i64 = 317;
        pub const X32_BIT: u32 = 0x4000_0000;
        pub const SENDMSG: u32 = 46;
        pub const IO_URING_SETUP: u32 = 425;
        use super::Call::*;
        pub const TRAPPED: &[(u32, super::Call)] = &[
            (2, Open),
            (257, OpenAt),
            (437, OpenAt2),
            (85, Creat),
            (42, Connect),
            (44, SendTo),
            (46, SendMsg),
            (307, SendMmsg),
            (59, Execve),
            (322, ExecveAt),
            (87, PathOnly),
            (84, PathOnly),
            (83, PathOnly),
            (76, PathOnly),
            (263, PathAt),
            (258, PathAt),
            (82, Rename),
            (264, RenameAt),
            (316, RenameAt),
        ];
    }

    #[cfg(target_arch = "aarch64")]
    mod nr {
        pub const ARCH: u32 = 0xc000_00b7;
        pub const SECCOMP: i64 = 277;
        pub const X32_BIT: u32 = 0;
        pub const SENDMSG: u32 = 211;
        pub const IO_URING_SETUP: u32 = 425;
        use super::Call::*;
        pub const TRAPPED: &[(u32, super::Call)] = &[
            (56, OpenAt),
            (437, OpenAt2),
            (203, Connect),
            (206, SendTo),
            (211, SendMsg),
            (269, SendMmsg),
            (221, Execve),
            (281, ExecveAt),
            (45, PathOnly),
            (35, PathAt),
            (34, PathAt),
            (38, RenameAt),
            (276, RenameAt),
        ];
    }

    const LANDLOCK_CREATE_RULESET: i64 = 444;
    const LANDLOCK_ADD_RULE: i64 = 445;
    const LANDLOCK_RESTRICT_SELF: i64 = 446;
    const SECCOMP_SET_MODE_FILTER: u64 = 1;
    const SECCOMP_GET_ACTION_AVAIL: u64 = 2;
    const SECCOMP_GET_NOTIF_SIZES: u64 = 3;
    const SECCOMP_FILTER_FLAG_NEW_LISTENER: u64 = 1 << 3;
    const RET_ALLOW: u32 = 0x7fff_0000;
    const RET_USER_NOTIF: u32 = 0x7fc0_0000;
    const RET_ERRNO: u32 = 0x0005_0000;
    const ENOSYS: u32 = 38;
    const NOTIF_RECV: u64 = 0xc050_2100;
    const NOTIF_SEND: u64 = 0xc018_2101;
    const NOTIF_ID_VALID: u64 = 0x4008_2102;
    const FLAG_CONTINUE: u32 = 1;
    /// Where the child keeps its end of the socketpair while it hands the
    /// listener over: the one `sendmsg` the filter lets through unread.
    const HANDOFF_FD: i32 = 1021;
    const HANDOFF_FLAGS: u32 = 0x40 | 0x4000; // MSG_DONTWAIT | MSG_NOSIGNAL
    const PR_SET_NO_NEW_PRIVS: i32 = 38;
    const O_CLOEXEC: i32 = 0o2_000_000;
    const O_PATH: i32 = 0o10_000_000;

    // Landlock filesystem rights, in ABI order.
    const FS_EXECUTE: u64 = 1;
    const FS_WRITE_FILE: u64 = 1 << 1;
    const FS_READ_FILE: u64 = 1 << 2;
    const FS_READ_DIR: u64 = 1 << 3;
    const FS_TRUNCATE: u64 = 1 << 14;
    const FS_IOCTL_DEV: u64 = 1 << 15;

    /// What the kernel offers; asked without side effects.
    pub fn support() -> Support {
        // SAFETY: with a null attribute, size 0 and the VERSION flag the
        // call only returns the ABI version; it reads no memory.
        let abi = unsafe { syscall(LANDLOCK_CREATE_RULESET, 0usize, 0usize, 1u32) };
        let mut sizes = [0u16; 3];
        // SAFETY: the kernel writes three u16 into `sizes`.
        let sizes_ok = unsafe {
            syscall(
                nr::SECCOMP,
                SECCOMP_GET_NOTIF_SIZES,
                0u32,
                sizes.as_mut_ptr(),
            )
        } == 0;
        let action = RET_USER_NOTIF;
        // SAFETY: the kernel reads one u32 from `action`.
        let avail = unsafe {
            syscall(
                nr::SECCOMP,
                SECCOMP_GET_ACTION_AVAIL,
                0u32,
                &action as *const u32,
            )
        } == 0;
        Support {
            landlock_abi: u32::try_from(abi).unwrap_or(0),
            // The notification this module reads is 80 bytes.
            notify: sizes_ok && avail && sizes[0] == 80,
        }
    }

    fn handled_fs(abi: u32) -> u64 {
        match abi {
            0 => 0,
            1 => (1 << 13) - 1,
            2 => (1 << 14) - 1,
            3 | 4 => (1 << 15) - 1,
            _ => (1 << 16) - 1,
        }
    }

    /// Builds the Landlock ruleset: `None` when Landlock is not applied.
    fn ruleset(rules: &Rules, abi: u32) -> io::Result<Option<OwnedFd>> {
        if !rules.landlock || abi == 0 {
            return Ok(None);
        }
        let fs = handled_fs(abi);
        let net = if abi >= 4 { 0b11 } else { 0 };
        // Signals and abstract unix sockets beyond the server's own domain.
        let scoped = if abi >= 6 { 0b11 } else { 0 };
        let attr = RulesetAttr { fs, net, scoped };
        let size: usize = match abi {
            1..=3 => 8,
            4 | 5 => 16,
            _ => 24,
        };
        // SAFETY: `attr` is valid for `size` bytes (a prefix of the struct).
        let fd = unsafe {
            syscall(
                LANDLOCK_CREATE_RULESET,
                &attr as *const RulesetAttr,
                size,
                0u32,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor; nothing else owns it.
        let set = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
        add_paths(&set, rules, fs)?;
        if net != 0 {
            add_ports(&set, &rules.ports)?;
        }
        Ok(Some(set))
    }

    /// One rule per allowed tree or device: read and execute, device
    /// access, or every right (a directory's rights cut to a file's for a
    /// file).
    fn add_paths(set: &OwnedFd, rules: &Rules, fs: u64) -> io::Result<()> {
        let read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
        let file_rights = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV;
        let device = FS_READ_FILE | FS_WRITE_FILE | FS_IOCTL_DEV;
        let trees = rules.read.iter().map(|p| (p, read));
        let devices = rules.devices.iter().map(|p| (p, device));
        let writes = rules.write.iter().map(|p| (p, fs));
        for (path, rights) in trees.chain(devices).chain(writes) {
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            let rights = if meta.is_dir() {
                rights
            } else {
                rights & file_rights
            } & fs;
            let Ok(file) = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags_path()
                .open(path)
            else {
                continue;
            };
            let rule = PathBeneath {
                allowed: rights,
                parent_fd: file.as_raw_fd(),
            };
            // SAFETY: both descriptors are open; `rule` lives for the call.
            let rc = unsafe {
                syscall(
                    LANDLOCK_ADD_RULE,
                    set.as_raw_fd(),
                    1u32,
                    &rule as *const PathBeneath,
                    0u32,
                )
            };
            if rc != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// One rule per port a TCP connection may go to.
    fn add_ports(set: &OwnedFd, ports: &[u16]) -> io::Result<()> {
        for &port in ports {
            let rule = NetPort {
                allowed: 0b10, // CONNECT_TCP
                port: u64::from(port),
            };
            // SAFETY: the ruleset is open; `rule` lives for the call.
            let rc = unsafe {
                syscall(
                    LANDLOCK_ADD_RULE,
                    set.as_raw_fd(),
                    2u32,
                    &rule as *const NetPort,
                    0u32,
                )
            };
            if rc != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    trait PathFlags {
        fn custom_flags_path(&mut self) -> &mut Self;
    }

    impl PathFlags for std::fs::OpenOptions {
        fn custom_flags_path(&mut self) -> &mut Self {
            std::os::unix::fs::OpenOptionsExt::custom_flags(self, O_PATH | O_CLOEXEC)
        }
    }

    /// The seccomp program: every trapped call of this architecture
    /// notifies, calls of another ABI notify (they are not read), the
    /// handoff `sendmsg` passes, `io_uring_setup` fails with ENOSYS (its
    /// operations would go unseen), everything else is allowed.
    fn program() -> Vec<SockFilter> {
        const LD_ABS: u16 = 0x20;
        const JEQ: u16 = 0x15;
        const JGE: u16 = 0x35;
        const RET: u16 = 0x06;
        let op = |code, k| SockFilter {
            code,
            jt: 0,
            jf: 0,
            k,
        };
        // Terminal instructions sit at the end, reached by jumps counted
        // from the instruction after each jump.
        let mut p: Vec<(SockFilter, Option<usize>, Option<usize>)> = Vec::new();
        const ALLOW: usize = usize::MAX;
        const NOTIFY: usize = usize::MAX - 1;
        const NOSYS: usize = usize::MAX - 2;
        p.push((op(LD_ABS, 4), None, None));
        p.push((op(JEQ, nr::ARCH), None, Some(NOTIFY)));
        p.push((op(LD_ABS, 0), None, None));
        if nr::X32_BIT != 0 {
            p.push((op(JGE, nr::X32_BIT), Some(NOTIFY), None));
        }
        p.push((op(JEQ, nr::IO_URING_SETUP), Some(NOSYS), None));
        // sendmsg(HANDOFF_FD, _, HANDOFF_FLAGS) passes; any other notifies.
        p.push((op(JEQ, nr::SENDMSG), None, Some(usize::MAX - 3)));
        p.push((op(LD_ABS, 16), None, None));
        p.push((op(JEQ, HANDOFF_FD as u32), None, Some(NOTIFY)));
        p.push((op(LD_ABS, 32), None, None));
        p.push((op(JEQ, HANDOFF_FLAGS), Some(ALLOW), Some(NOTIFY)));
        let after_sendmsg = p.len();
        p.push((op(LD_ABS, 0), None, None));
        for (number, _) in nr::TRAPPED {
            p.push((op(JEQ, *number), Some(NOTIFY), None));
        }
        let body = p.len();
        let target = |t: usize| match t {
            ALLOW => body,
            NOTIFY => body + 1,
            NOSYS => body + 2,
            _ => after_sendmsg,
        };
        let mut out: Vec<SockFilter> = p
            .iter()
            .enumerate()
            .map(|(i, (ins, jt, jf))| {
                let rel = |j: &Option<usize>| j.map_or(0, |t| (target(t) - i - 1) as u8);
                SockFilter {
                    jt: rel(jt),
                    jf: rel(jf),
                    ..*ins
                }
            })
            .collect();
        out.push(op(RET, RET_ALLOW));
        out.push(op(RET, RET_USER_NOTIF));
        out.push(op(RET, RET_ERRNO | ENOSYS));
        out
    }

    /// What a spawn carries into the child; dropped (closing the parent's
    /// copies) with the `Command`.
    #[derive(Debug)]
    pub struct Armed {
        _ruleset: Option<OwnedFd>,
        _child_end: OwnedFd,
    }

    /// Arms `cmd`: between fork and exec the child sets `no_new_privs`,
    /// restricts itself with the Landlock ruleset (when `rules.landlock`),
    /// installs the filter and sends its listener back. Returns the
    /// guard's end of the socketpair (for `Listener::receive`) when it
    /// installs the filter.
    pub fn arm(
        cmd: &mut std::process::Command,
        rules: &Rules,
        abi: u32,
    ) -> io::Result<Option<UnixDatagram>> {
        use std::os::unix::process::CommandExt;
        let ruleset = ruleset(rules, abi)?;
        let (ours, theirs) = UnixDatagram::pair()?;
        let child_end: OwnedFd = theirs.into();
        let filter = program().into_boxed_slice();
        let set_fd = ruleset.as_ref().map_or(-1, |f| f.as_raw_fd());
        let sock_fd = child_end.as_raw_fd();
        let notify = rules.notify;
        let armed = Armed {
            _ruleset: ruleset,
            _child_end: child_end,
        };
        // SAFETY: the closure runs in the child between fork and exec. It
        // allocates nothing and calls only system calls (prctl, syscall,
        // dup3, sendmsg, close) on memory it owns: the filter, boxed before
        // the fork and kept alive by the closure, and buffers on its stack.
        unsafe {
            cmd.pre_exec(move || {
                let _keep = &armed;
                let prog = SockFprog {
                    len: filter.len() as u16,
                    filter: filter.as_ptr(),
                };
                if prctl(PR_SET_NO_NEW_PRIVS, 1u64, 0u64, 0u64, 0u64) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if set_fd >= 0 && syscall(LANDLOCK_RESTRICT_SELF, set_fd, 0u32) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if !notify {
                    return Ok(());
                }
                if dup3(sock_fd, HANDOFF_FD, O_CLOEXEC) != HANDOFF_FD {
                    return Err(io::Error::last_os_error());
                }
                let listener = syscall(
                    nr::SECCOMP,
                    SECCOMP_SET_MODE_FILTER,
                    SECCOMP_FILTER_FLAG_NEW_LISTENER,
                    &prog as *const SockFprog,
                );
                if listener < 0 {
                    return Err(io::Error::last_os_error());
                }
                hand_over(listener as i32)
            });
        }
        Ok(notify.then_some(ours))
    }

    /// Sends the listener to the guard over the handoff socket (the one
    /// `sendmsg` the filter lets through), then closes both in the child.
    ///
    /// # Safety
    /// Runs between fork and exec: it allocates nothing and uses only
    /// buffers on its stack.
    unsafe fn hand_over(listener: i32) -> io::Result<()> {
        let mut byte = [0u8; 1];
        let mut iov = IoVec {
            base: byte.as_mut_ptr(),
            len: 1,
        };
        // cmsghdr: len (20), level SOL_SOCKET, type SCM_RIGHTS, the fd.
        let control: [u64; 3] = [20, 1 | (1 << 32), listener as u32 as u64];
        let msg = MsgHdr {
            name: std::ptr::null_mut(),
            namelen: 0,
            iov: &mut iov,
            iovlen: 1,
            control: control.as_ptr() as *mut u8,
            controllen: 24,
            flags: 0,
        };
        // SAFETY: every pointer in `msg` refers to a live local buffer of
        // the stated size; the descriptors are the child's own.
        unsafe {
            let sent = sendmsg(HANDOFF_FD, &msg, HANDOFF_FLAGS as i32);
            let err = io::Error::last_os_error();
            close(listener);
            close(HANDOFF_FD);
            if sent != 1 {
                return Err(err);
            }
        }
        Ok(())
    }

    /// The guard's side of a seccomp notification fd.
    #[derive(Debug)]
    pub struct Listener {
        fd: OwnedFd,
    }

    /// How a wait for the next notice ended.
    #[derive(Debug)]
    pub enum Wait {
        Notice(Notice),
        /// Nothing within the poll interval (the caller checks its stop).
        Idle,
        /// No task is left under the filter.
        Gone,
    }

    impl Listener {
        /// Receives the listener the child sends, waiting at most `limit`.
        pub fn receive(sock: &UnixDatagram, limit: Duration) -> io::Result<Listener> {
            let deadline = Instant::now() + limit;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::Error::from(io::ErrorKind::TimedOut));
                }
                if wait(sock.as_raw_fd(), left.min(Duration::from_millis(100)))? {
                    break;
                }
            }
            let mut byte = [0u8; 1];
            let mut iov = IoVec {
                base: byte.as_mut_ptr(),
                len: 1,
            };
            let mut control = [0u64; 4];
            let mut msg = MsgHdr {
                name: std::ptr::null_mut(),
                namelen: 0,
                iov: &mut iov,
                iovlen: 1,
                control: control.as_mut_ptr() as *mut u8,
                controllen: 32,
                flags: 0,
            };
            const MSG_CMSG_CLOEXEC: i32 = 0x4000_0000;
            const MSG_DONTWAIT: i32 = 0x40;
            // SAFETY: every pointer in `msg` refers to a live local buffer
            // of the stated size.
            let n = unsafe { recvmsg(sock.as_raw_fd(), &mut msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT) };
            if n <= 0 || msg.controllen < 20 {
                return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
            }
            let head = control[1];
            let (level, kind) = (head as u32, (head >> 32) as u32);
            if level != 1 || kind != 1 {
                return Err(io::Error::from(io::ErrorKind::InvalidData));
            }
            let fd = control[2] as u32 as i32;
            // SAFETY: SCM_RIGHTS just installed this descriptor in the
            // guard; nothing else owns it.
            let fd = unsafe { OwnedFd::from_raw_fd(fd) };
            Ok(Listener { fd })
        }

        /// The next notice, waiting at most `limit`.
        pub fn next(&self, limit: Duration) -> io::Result<Wait> {
            let mut pfd = PollFd {
                fd: self.fd.as_raw_fd(),
                events: 1,
                revents: 0,
            };
            let ms = limit.as_millis().min(i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd for the call.
            let rc = unsafe { poll(&mut pfd, 1, ms) };
            if rc < 0 {
                let e = io::Error::last_os_error();
                return if e.kind() == io::ErrorKind::Interrupted {
                    Ok(Wait::Idle)
                } else {
                    Err(e)
                };
            }
            if rc == 0 {
                return Ok(Wait::Idle);
            }
            if pfd.revents & 1 == 0 {
                return Ok(Wait::Gone);
            }
            let mut raw = [0u64; 10];
            // SAFETY: `raw` is the zeroed 80-byte struct seccomp_notif the
            // ioctl fills.
            let rc = unsafe { ioctl(self.fd.as_raw_fd(), NOTIF_RECV, raw.as_mut_ptr()) };
            if rc != 0 {
                // ENOENT: the task died before it was read.
                return Ok(Wait::Idle);
            }
            let data = raw[2];
            let number = data as u32;
            let arch = (data >> 32) as u32;
            let call = if arch != nr::ARCH || (nr::X32_BIT != 0 && number >= nr::X32_BIT) {
                Call::Foreign
            } else {
                nr::TRAPPED
                    .iter()
                    .find(|(n, _)| *n == number)
                    .map_or(Call::Foreign, |(_, c)| *c)
            };
            let mut args = [0u64; 6];
            args.copy_from_slice(&raw[4..10]);
            Ok(Wait::Notice(Notice {
                id: raw[0],
                pid: raw[1] as u32,
                call,
                args,
            }))
        }

        /// Whether the task of `id` still waits (so what was read from its
        /// memory was read from it).
        pub fn still_waiting(&self, id: u64) -> bool {
            // SAFETY: the kernel reads one u64.
            unsafe { ioctl(self.fd.as_raw_fd(), NOTIF_ID_VALID, &id as *const u64) == 0 }
        }

        /// Lets the call go on (`None`) or fails it with `errno`.
        pub fn answer(&self, id: u64, errno: Option<i32>) {
            let resp: [u64; 3] = match errno {
                None => [id, 0, u64::from(FLAG_CONTINUE) << 32],
                Some(e) => [id, 0, u64::from((-e) as u32)],
            };
            // SAFETY: `resp` is the 24-byte struct seccomp_notif_resp.
            // A failure (the task died) needs no handling.
            unsafe {
                ioctl(self.fd.as_raw_fd(), NOTIF_SEND, resp.as_ptr());
            }
        }
    }

    fn wait(fd: RawFd, limit: Duration) -> io::Result<bool> {
        let mut pfd = PollFd {
            fd,
            events: 1,
            revents: 0,
        };
        let ms = limit.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd for the call.
        let rc = unsafe { poll(&mut pfd, 1, ms) };
        if rc < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(false)
            } else {
                Err(e)
            };
        }
        Ok(rc > 0)
    }

    /// Up to `len` bytes of `pid`'s memory at `addr` (fewer where the
    /// mapping ends); empty when it cannot be read.
    pub fn read_bytes(pid: u32, addr: u64, len: usize) -> Vec<u8> {
        let mut buf = vec![0u8; len];
        let mut got = 0;
        while got < len {
            let at = addr + got as u64;
            // Never cross a page in one read: a string may end just
            // before an unmapped page.
            let in_page = 4096 - (at % 4096) as usize;
            let want = (len - got).min(in_page);
            let local = IoVec {
                base: buf[got..].as_mut_ptr(),
                len: want,
            };
            let remote = IoVec {
                base: at as *mut u8,
                len: want,
            };
            // SAFETY: `local` points into `buf` with room for `want` bytes;
            // the remote address is only read by the kernel.
            let n = unsafe { process_vm_readv(pid as i32, &local, 1, &remote, 1, 0) };
            if n <= 0 {
                break;
            }
            got += n as usize;
        }
        buf.truncate(got);
        buf
    }

    /// A NUL-terminated string of at most `max` bytes at `addr`.
    pub fn read_string(pid: u32, addr: u64, max: usize) -> Option<Vec<u8>> {
        if addr == 0 {
            return None;
        }
        let mut out = Vec::new();
        let mut at = addr;
        while out.len() < max {
            let chunk = read_bytes(pid, at, (4096 - (at % 4096) as usize).min(max - out.len()));
            if chunk.is_empty() {
                return if out.is_empty() { None } else { Some(out) };
            }
            if let Some(end) = chunk.iter().position(|&b| b == 0) {
                out.extend_from_slice(&chunk[..end]);
                return Some(out);
            }
            at += chunk.len() as u64;
            out.extend_from_slice(&chunk);
        }
        Some(out)
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::{Notice, Rules, Support};
    use std::io;
    use std::time::Duration;

    pub fn support() -> Support {
        Support::default()
    }

    #[derive(Debug)]
    pub struct Armed;

    /// No socketpair: nothing is handed over here.
    #[derive(Debug)]
    pub struct Handoff;

    /// Neither Landlock nor seccomp exists here: `support` says so, the
    /// policy reports everything as neither enforced nor observed, and the
    /// command runs unarmed.
    pub fn arm(
        _cmd: &mut std::process::Command,
        _rules: &Rules,
        _abi: u32,
    ) -> io::Result<Option<Handoff>> {
        Ok(None)
    }

    #[derive(Debug)]
    pub struct Listener;

    #[derive(Debug)]
    pub enum Wait {
        Notice(Notice),
        Idle,
        Gone,
    }

    impl Listener {
        pub fn receive(_sock: &Handoff, _limit: Duration) -> io::Result<Listener> {
            Err(io::Error::from(io::ErrorKind::Unsupported))
        }
        pub fn next(&self, _limit: Duration) -> io::Result<Wait> {
            Ok(Wait::Gone)
        }
        pub fn still_waiting(&self, _id: u64) -> bool {
            false
        }
        pub fn answer(&self, _id: u64, _errno: Option<i32>) {}
    }

    pub fn read_bytes(_pid: u32, _addr: u64, _len: usize) -> Vec<u8> {
        Vec::new()
    }

    pub fn read_string(_pid: u32, _addr: u64, _max: usize) -> Option<Vec<u8>> {
        None
    }
}

pub use imp::Wait;

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn support_is_asked_without_side_effects() {
        let s = support();
        // Either answer is valid; asking twice gives the same.
        assert_eq!(s, support());
    }

    #[test]
    fn a_string_is_read_up_to_its_nul_across_pages() {
        let mut buf = vec![b'a'; 9000];
        buf[8190] = 0;
        let addr = buf.as_ptr() as u64;
        let s = read_string(std::process::id(), addr, 16384).expect("own memory");
        assert_eq!(s.len(), 8190);
        assert_eq!(
            read_string(std::process::id(), addr, 100).map(|s| s.len()),
            Some(100)
        );
        assert_eq!(read_string(std::process::id(), 0, 100), None);
    }
}
