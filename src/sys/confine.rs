//! Confinement's platform calls, Linux only: what the kernel offers
//! (`support`), a Landlock ruleset and a seccomp filter, applied in the
//! child between fork and exec (`arm`), the filter's notification fd taken
//! from the child (`Listener::receive`, with `pidfd_getfd`), and a trapped
//! task's arguments read from its memory (`Notice`, `read_bytes`,
//! `read_string`). The filter decides in the kernel what the call's integer
//! arguments suffice for (socket families and types, running a program
//! from a descriptor, TCP Fast Open, io_uring, other ABIs) and notifies the
//! rest. What to allow and what an event means live in `plan::confine` and
//! `session::confine`; nothing here decides a path or an address.

use std::path::PathBuf;

/// What this kernel can do for confinement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Support {
    /// The Landlock ABI version, 0 when Landlock is absent or disabled.
    pub landlock_abi: u32,
    /// Whether seccomp user notification is available, with the means to
    /// take the listener from the child (`pidfd_getfd`, ptrace access).
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
    /// Install the notifying filter and take its listener.
    pub notify: bool,
    /// The filter refuses what it can decide alone (`enforce`); otherwise
    /// it notifies those calls so they are recorded.
    pub refuse: bool,
    /// A `--confine-connect` entry asks for UDP: datagram sockets are
    /// allowed (each datagram is still notified).
    pub udp: bool,
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
    /// `open(path, flags)`.
    Open,
    /// `openat(dirfd, path, flags)`.
    OpenAt,
    /// `openat2(dirfd, path, how)`: `how.flags` is the first u64.
    OpenAt2,
    /// `creat(path)` (flags `O_CREAT|O_WRONLY|O_TRUNC`).
    Creat,
    /// `open_by_handle_at(mountfd, handle, flags)`: no path at all.
    OpenByHandle,
    Connect,
    SendTo,
    SendMsg,
    SendMmsg,
    /// `bind(fd, addr, len)`: a pathname unix socket creates a file.
    Bind,
    /// `socket(family, type, protocol)`: notified only for what the
    /// filter would refuse under enforce (an odd family or type).
    Socket,
    Execve,
    /// `execveat(dirfd, path, argv, envp, flags)`.
    ExecveAt,
    /// `unlink(path)`, `rmdir(path)`, `truncate(path)`, `mkdir(path)`.
    PathOnly,
    /// `unlinkat`, `mkdirat`: `(dirfd, path)`.
    PathAt,
    /// `rename(old, new)`.
    Rename,
    /// `renameat(olddirfd, old, newdirfd, new)`, `renameat2`.
    RenameAt,
    /// A change of metadata or a node by path: `chmod`, `chown`,
    /// `lchown`, `utime`, `utimes`, the `setxattr`/`removexattr` family,
    /// `mknod`.
    Meta,
    /// The same from a directory descriptor: `fchmodat(2)`, `fchownat`,
    /// `utimensat`, `futimesat`, `setxattrat`, `removexattrat`, `mknodat`
    /// (an empty or null path names the descriptor itself).
    MetaAt,
    /// The same on an open descriptor: `fchmod`, `fchown`, `fsetxattr`,
    /// `fremovexattr`.
    MetaFd,
    /// `link(old, new)`.
    Link,
    /// `linkat(olddirfd, old, newdirfd, new, flags)`.
    LinkAt,
    /// `symlink(target, linkpath)`.
    Symlink,
    /// `symlinkat(target, newdirfd, linkpath)`.
    SymlinkAt,
    /// A call of another architecture's ABI (or x32): not read.
    Foreign,
}

pub use imp::{Armed, Handoff, Listener, arm, read_bytes, read_string, support};

/// The errno a denied call gets.
pub const EACCES: i32 = 13;
/// The errno a socket of a refused family gets.
pub const EAFNOSUPPORT: i32 = 97;
/// The errno a call of another ABI gets under enforce.
pub const ENOSYS: i32 = 38;

#[cfg(target_os = "linux")]
mod imp {
    use super::{Call, Notice, Rules, Support};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::os::unix::net::UnixDatagram;
    use std::time::{Duration, Instant};

    /// The guard's end of the socketpair the listener's number comes over.
    pub type Handoff = UnixDatagram;

    unsafe extern "C" {
        fn syscall(number: i64, ...) -> i64;
        fn prctl(option: i32, ...) -> i32;
        fn ioctl(fd: i32, request: u64, ...) -> i32;
        fn close(fd: i32) -> i32;
        fn read(fd: i32, buf: *mut u8, len: usize) -> isize;
        fn write(fd: i32, buf: *const u8, len: usize) -> isize;
        fn poll(fds: *mut PollFd, nfds: u64, timeout: i32) -> i32;
        fn process_vm_readv(p: i32, l: Iov, ln: u64, r: Iov, rn: u64, f: u64) -> isize;
        fn geteuid() -> u32;
    }

    type Iov = *const IoVec;

    #[repr(C)]
    struct IoVec {
        base: *mut u8,
        len: usize,
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
        pub const GETPID: i64 = 39;
        pub const X32_BIT: u32 = 0x4000_0000;
        pub const SOCKET: u32 = 41;
        pub const SENDTO: u32 = 44;
        pub const SENDMSG: u32 = 46;
        pub const SENDMMSG: u32 = 307;
        pub const EXECVEAT: u32 = 322;
        pub const IO_URING_SETUP: u32 = 425;
        use super::Call::*;
        pub const TRAPPED: &[(u32, super::Call)] = &[
            (2, Open),
            (257, OpenAt),
            (437, OpenAt2),
            (85, Creat),
            (304, OpenByHandle),
            (42, Connect),
            (44, SendTo),
            (46, SendMsg),
            (307, SendMmsg),
            (49, Bind),
            (41, Socket),
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
            (90, Meta),
            (92, Meta),
            (94, Meta),
            (132, Meta),
            (235, Meta),
            (188, Meta),
            (189, Meta),
            (197, Meta),
            (198, Meta),
            (133, Meta),
            (268, MetaAt),
            (452, MetaAt),
            (260, MetaAt),
            (280, MetaAt),
            (261, MetaAt),
            (463, MetaAt),
            (466, MetaAt),
            (259, MetaAt),
            (91, MetaFd),
            (93, MetaFd),
            (190, MetaFd),
            (199, MetaFd),
            (86, Link),
            (265, LinkAt),
            (88, Symlink),
            (266, SymlinkAt),
        ];
    }

    #[cfg(target_arch = "aarch64")]
    mod nr {
        pub const ARCH: u32 = 0xc000_00b7;
        pub const SECCOMP: i64 = 277;
        pub const GETPID: i64 = 172;
        pub const X32_BIT: u32 = 0;
        pub const SOCKET: u32 = 198;
        pub const SENDTO: u32 = 206;
        pub const SENDMSG: u32 = 211;
        pub const SENDMMSG: u32 = 269;
        pub const EXECVEAT: u32 = 281;
        pub const IO_URING_SETUP: u32 = 425;
        use super::Call::*;
        pub const TRAPPED: &[(u32, super::Call)] = &[
            (56, OpenAt),
            (437, OpenAt2),
            (265, OpenByHandle),
            (203, Connect),
            (206, SendTo),
            (211, SendMsg),
            (269, SendMmsg),
            (200, Bind),
            (198, Socket),
            (221, Execve),
            (281, ExecveAt),
            (45, PathOnly),
            (35, PathAt),
            (34, PathAt),
            (38, RenameAt),
            (276, RenameAt),
            (5, Meta),
            (6, Meta),
            (14, Meta),
            (15, Meta),
            (53, MetaAt),
            (452, MetaAt),
            (54, MetaAt),
            (88, MetaAt),
            (463, MetaAt),
            (466, MetaAt),
            (33, MetaAt),
            (52, MetaFd),
            (55, MetaFd),
            (7, MetaFd),
            (16, MetaFd),
            (37, LinkAt),
            (36, SymlinkAt),
        ];
    }

    const LANDLOCK_CREATE_RULESET: i64 = 444;
    const LANDLOCK_ADD_RULE: i64 = 445;
    const LANDLOCK_RESTRICT_SELF: i64 = 446;
    const PIDFD_OPEN: i64 = 434;
    const PIDFD_GETFD: i64 = 438;
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
    const PR_SET_DUMPABLE: i32 = 4;
    const PR_SET_NO_NEW_PRIVS: i32 = 38;
    const O_CLOEXEC: i32 = 0o2_000_000;
    const O_PATH: i32 = 0o10_000_000;
    /// How long the child waits for the guard to take its listener.
    const HANDOFF_WAIT_MS: i32 = 10_000;

    // Socket families and types the filter reads.
    const AF_UNIX: u32 = 1;
    const AF_INET: u32 = 2;
    const AF_INET6: u32 = 10;
    const AF_NETLINK: u32 = 16;
    const SOCK_STREAM: u32 = 1;
    const SOCK_DGRAM: u32 = 2;
    const IPPROTO_TCP: u32 = 6;
    const IPPROTO_UDP: u32 = 17;
    const AT_EMPTY_PATH: u32 = 0x1000;
    const MSG_FASTOPEN: u32 = 0x2000_0000;

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
            notify: sizes_ok && avail && sizes[0] == 80 && can_take_fds(),
        }
    }

    /// Whether the guard can take a descriptor from its child: the kernel
    /// has `pidfd_getfd` (5.6), and Yama allows a parent's ptrace access
    /// (scope 2 asks for CAP_SYS_PTRACE, scope 3 forbids it).
    fn can_take_fds() -> bool {
        let scope = std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope")
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .unwrap_or(0);
        // SAFETY: geteuid has no memory effects.
        let root = unsafe { geteuid() } == 0;
        if scope >= 3 || scope == 2 && !root {
            return false;
        }
        // SAFETY: getpid and pidfd_open take integers only.
        let pidfd = unsafe { syscall(PIDFD_OPEN, syscall(nr::GETPID), 0u32) };
        if pidfd < 0 {
            return false;
        }
        // SAFETY: both descriptors are the guard's own; a copy of the pidfd
        // is taken from itself and closed with it.
        unsafe {
            let copy = syscall(PIDFD_GETFD, pidfd, pidfd, 0u32);
            if copy >= 0 {
                close(copy as i32);
            }
            close(pidfd as i32);
            copy >= 0
        }
    }

    fn handled_fs(abi: u32) -> u64 {
        match abi {
            0 => 0,
            1 => (1 << 13) - 1,
            2 => (1 << 14) - 1,
            3 | 4 => (1 << 15) - 1,
            5..=8 => (1 << 16) - 1,
            // ABI 9: connecting to a pathname unix socket
            // (LANDLOCK_ACCESS_FS_RESOLVE_UNIX), allowed in the write trees.
            _ => (1 << 17) - 1,
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

    /// A classic BPF program under construction: instructions whose jumps
    /// name labels, resolved (forward only, as the kernel requires) by
    /// `finish`.
    struct Asm {
        code: Vec<(SockFilter, Option<usize>, Option<usize>)>,
        at: Vec<Option<usize>>,
    }

    const LD_ABS: u16 = 0x20;
    const AND_K: u16 = 0x54;
    const JA: u16 = 0x05;
    const JEQ: u16 = 0x15;
    const JGE: u16 = 0x35;
    const JSET: u16 = 0x45;
    const RET: u16 = 0x06;

    impl Asm {
        fn label(&mut self) -> usize {
            self.at.push(None);
            self.at.len() - 1
        }

        fn place(&mut self, label: usize) {
            self.at[label] = Some(self.code.len());
        }

        fn op(&mut self, code: u16, k: u32, jt: Option<usize>, jf: Option<usize>) {
            let ins = SockFilter {
                code,
                jt: 0,
                jf: 0,
                k,
            };
            self.code.push((ins, jt, jf));
        }

        /// Loads the 32-bit word at `offset` of `struct seccomp_data`.
        fn load(&mut self, offset: u32) {
            self.op(LD_ABS, offset, None, None);
        }

        /// Loads the low word of argument `i` (the kernel reads an `int`
        /// argument from it).
        fn arg(&mut self, i: u32) {
            self.load(16 + 8 * i);
        }

        fn goto(&mut self, to: usize) {
            self.op(JA, 0, Some(to), None);
        }

        fn ret(&mut self, at: usize, value: u32) {
            self.place(at);
            self.op(RET, value, None, None);
        }

        fn finish(self) -> Vec<SockFilter> {
            let at = |l: usize| self.at[l].expect("invariant: every label is placed");
            self.code
                .iter()
                .enumerate()
                .map(|(i, (ins, jt, jf))| {
                    let rel = |t: &Option<usize>| t.map_or(0, |l| at(l) - i - 1);
                    if ins.code == JA {
                        return SockFilter {
                            k: rel(jt) as u32,
                            ..*ins
                        };
                    }
                    let short = |t: &Option<usize>| {
                        u8::try_from(rel(t)).expect("invariant: a conditional jump spans < 256")
                    };
                    SockFilter {
                        jt: short(jt),
                        jf: short(jf),
                        ..*ins
                    }
                })
                .collect()
        }
    }

    /// The seccomp program. Flagged from integers alone:
    /// a call of another ABI, a socket of another family than unix, IPv4,
    /// IPv6 or netlink, an IP socket that is neither TCP nor (when asked
    /// for) UDP, `execveat` of a descriptor (`AT_EMPTY_PATH`), a TCP Fast
    /// Open send (a connection no connect hook sees) and `io_uring_setup`
    /// (always ENOSYS: its operations would go unseen). Every other trapped
    /// call notifies; the rest is allowed.
    fn program(rules: &Rules) -> Vec<SockFilter> {
        let mut a = Asm {
            code: Vec::new(),
            at: Vec::new(),
        };
        let allow = a.label();
        let notify = a.label();
        let eacces = a.label();
        let enosys = a.label();
        let eafnosupport = a.label();
        // With a listener, what the filter flags is notified: the
        // supervisor refuses it under enforce from the same integers (the
        // kernel passes them by value: nothing to race) and records it; the
        // call fails (ENOSYS) if the listener is gone. Without one, the
        // filter refuses it itself.
        let (refused, foreign, odd_family) = if rules.notify {
            (notify, notify, notify)
        } else {
            (eacces, enosys, eafnosupport)
        };
        let socket = a.label();
        let execveat = a.label();
        let send_flags_3 = a.label();
        let send_flags_2 = a.label();

        a.load(4);
        a.op(JEQ, nr::ARCH, None, Some(foreign));
        a.load(0);
        if nr::X32_BIT != 0 {
            a.op(JGE, nr::X32_BIT, Some(foreign), None);
        }
        a.op(JEQ, nr::IO_URING_SETUP, Some(enosys), None);
        a.op(JEQ, nr::SOCKET, Some(socket), None);
        a.op(JEQ, nr::EXECVEAT, Some(execveat), None);
        a.op(JEQ, nr::SENDTO, Some(send_flags_3), None);
        a.op(JEQ, nr::SENDMMSG, Some(send_flags_3), None);
        a.op(JEQ, nr::SENDMSG, Some(send_flags_2), None);
        for (number, _) in nr::TRAPPED {
            a.op(JEQ, *number, Some(notify), None);
        }
        a.goto(allow);

        a.place(socket);
        socket_block(&mut a, rules, allow, refused, odd_family);

        a.place(execveat);
        a.arg(4);
        a.op(JSET, AT_EMPTY_PATH, Some(refused), Some(notify));

        a.place(send_flags_3);
        a.arg(3);
        a.op(JSET, MSG_FASTOPEN, Some(refused), Some(notify));
        a.place(send_flags_2);
        a.arg(2);
        a.op(JSET, MSG_FASTOPEN, Some(refused), Some(notify));

        a.ret(allow, RET_ALLOW);
        // Without a listener, what would be recorded is let through.
        a.ret(
            notify,
            if rules.notify {
                RET_USER_NOTIF
            } else {
                RET_ALLOW
            },
        );
        a.ret(eacces, RET_ERRNO | super::EACCES as u32);
        a.ret(enosys, RET_ERRNO | ENOSYS);
        a.ret(eafnosupport, RET_ERRNO | super::EAFNOSUPPORT as u32);
        a.finish()
    }

    /// `socket(family, type, protocol)`: unix and netlink pass; IPv4 and
    /// IPv6 pass as TCP (and UDP when asked for, or to be recorded under
    /// observe); everything else goes to `refused` (`odd_family` for a
    /// family).
    fn socket_block(a: &mut Asm, rules: &Rules, allow: usize, refused: usize, odd_family: usize) {
        let inet = a.label();
        let stream = a.label();
        let dgram = a.label();
        a.arg(0);
        a.op(JEQ, AF_UNIX, Some(allow), None);
        a.op(JEQ, AF_NETLINK, Some(allow), None);
        a.op(JEQ, AF_INET, Some(inet), None);
        a.op(JEQ, AF_INET6, Some(inet), None);
        a.goto(odd_family);
        a.place(inet);
        a.arg(1);
        a.op(AND_K, 0xf, None, None);
        a.op(JEQ, SOCK_STREAM, Some(stream), None);
        a.op(JEQ, SOCK_DGRAM, Some(dgram), None);
        a.goto(refused);
        a.place(stream);
        a.arg(2);
        a.op(JEQ, 0, Some(allow), None);
        a.op(JEQ, IPPROTO_TCP, Some(allow), None);
        a.goto(refused);
        a.place(dgram);
        if rules.udp || !rules.refuse {
            // Each datagram's address is notified and judged.
            a.arg(2);
            a.op(JEQ, 0, Some(allow), None);
            a.op(JEQ, IPPROTO_UDP, Some(allow), None);
        }
        a.goto(refused);
    }

    #[cfg(test)]
    pub fn program_len(rules: &Rules) -> usize {
        program(rules).len()
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
    /// installs the filter (when it notifies or refuses) and waits until
    /// the guard has taken its listener. Returns the guard's end of the socketpair (for
    /// `Listener::receive`) when it installs the filter.
    pub fn arm(
        cmd: &mut std::process::Command,
        rules: &Rules,
        abi: u32,
    ) -> io::Result<Option<UnixDatagram>> {
        use std::os::unix::process::CommandExt;
        let ruleset = ruleset(rules, abi)?;
        let (ours, theirs) = UnixDatagram::pair()?;
        let child_end: OwnedFd = theirs.into();
        let filter = program(rules).into_boxed_slice();
        let set_fd = ruleset.as_ref().map_or(-1, |f| f.as_raw_fd());
        let sock_fd = child_end.as_raw_fd();
        let notify = rules.notify;
        let filtered = notify || rules.refuse;
        let armed = Armed {
            _ruleset: ruleset,
            _child_end: child_end,
        };
        // SAFETY: the closure runs in the child between fork and exec. It
        // allocates nothing and calls only system calls (prctl, syscall,
        // write, poll, read, close) on memory it owns: the filter, boxed
        // before the fork and kept alive by the closure, and buffers on its
        // stack.
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
                if !filtered {
                    return Ok(());
                }
                if !notify {
                    let rc = syscall(
                        nr::SECCOMP,
                        SECCOMP_SET_MODE_FILTER,
                        0u64,
                        &prog as *const SockFprog,
                    );
                    return if rc == 0 {
                        Ok(())
                    } else {
                        Err(io::Error::last_os_error())
                    };
                }
                // The guard takes the listener with pidfd_getfd, a ptrace
                // access: this copy of the guard must be dumpable for it
                // (the guard is not, see sys::hide_memory). The exec that
                // follows sets the flag anew for the server.
                prctl(PR_SET_DUMPABLE, 1u64, 0u64, 0u64, 0u64);
                let listener = syscall(
                    nr::SECCOMP,
                    SECCOMP_SET_MODE_FILTER,
                    SECCOMP_FILTER_FLAG_NEW_LISTENER,
                    &prog as *const SockFprog,
                );
                if listener < 0 {
                    return Err(io::Error::last_os_error());
                }
                hand_over(sock_fd, listener as i32)
            });
        }
        Ok(notify.then_some(ours))
    }

    /// Tells the guard which descriptor holds the listener (with `write`,
    /// which the filter does not trap: no call passes the filter unseen),
    /// then waits for the guard to say it took it.
    ///
    /// # Safety
    /// Runs between fork and exec: it allocates nothing and uses only
    /// buffers on its stack.
    unsafe fn hand_over(sock: i32, listener: i32) -> io::Result<()> {
        // SAFETY: every pointer refers to a live local buffer of the
        // stated size; the descriptors are the child's own.
        unsafe {
            let pid = syscall(nr::GETPID) as u32;
            let msg = [pid, listener as u32];
            let mut ack = 0u8;
            let mut pfd = PollFd {
                fd: sock,
                events: 1,
                revents: 0,
            };
            let ok = write(sock, msg.as_ptr().cast(), 8) == 8
                && poll(&mut pfd, 1, HANDOFF_WAIT_MS) == 1
                && read(sock, &mut ack, 1) == 1
                && ack == 1;
            let err = io::Error::last_os_error();
            close(listener);
            close(sock);
            if !ok {
                return Err(if err.raw_os_error().unwrap_or(0) == 0 {
                    io::Error::from(io::ErrorKind::PermissionDenied)
                } else {
                    err
                });
            }
        }
        Ok(())
    }

    /// The guard's side of a seccomp notification fd.
    #[derive(Debug)]
    pub struct Listener {
        fd: OwnedFd,
        /// The process that installed the filter (the server before its
        /// exec).
        pub leader: u32,
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
        /// Takes the listener of the child that writes its pid and the
        /// descriptor's number, waiting at most `limit`, and tells the
        /// child whether it was taken.
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
            let mut msg = [0u8; 8];
            let n = sock.recv(&mut msg)?;
            if n != 8 {
                let _ = sock.send(&[0]);
                return Err(io::Error::from(io::ErrorKind::InvalidData));
            }
            let pid = u32::from_le_bytes([msg[0], msg[1], msg[2], msg[3]]);
            let fd = u32::from_le_bytes([msg[4], msg[5], msg[6], msg[7]]);
            match take_fd(pid, fd) {
                Ok(fd) => {
                    sock.send(&[1])?;
                    Ok(Listener { fd, leader: pid })
                }
                Err(e) => {
                    let _ = sock.send(&[0]);
                    Err(e)
                }
            }
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

    /// A copy of descriptor `fd` of process `pid` (`pidfd_getfd`: ptrace
    /// access, which the guard has to its own dumpable child).
    fn take_fd(pid: u32, fd: u32) -> io::Result<OwnedFd> {
        // SAFETY: pidfd_open takes integers only.
        let pidfd = unsafe { syscall(PIDFD_OPEN, pid as i32, 0u32) };
        if pidfd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor; nothing else
        // owns it.
        let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) };
        // SAFETY: integers only; the result is a new descriptor of ours.
        let got = unsafe { syscall(PIDFD_GETFD, pidfd.as_raw_fd(), fd as i32, 0u32) };
        if got < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        Ok(unsafe { OwnedFd::from_raw_fd(got as RawFd) })
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
    pub struct Listener {
        pub leader: u32,
    }

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
    fn the_filter_assembles_for_every_mode_and_takes_no_exemption() {
        for (notify, refuse, udp) in [
            (true, true, false),
            (true, true, true),
            (true, false, false),
            (false, true, false),
            (false, true, true),
        ] {
            let rules = Rules {
                notify,
                refuse,
                udp,
                ..Rules::default()
            };
            let prog = imp::program_len(&rules);
            assert!(prog > 40 && prog < 256, "{prog}");
        }
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
