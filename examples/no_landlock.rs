//! Runs a command on what looks like a kernel without Landlock: a seccomp
//! filter makes the three Landlock calls fail with ENOSYS (as a kernel
//! built without it answers), then the command is executed in place. The
//! confinement tests run the guard under it to see what `--confine
//! enforce` holds, and says, where the kernel cannot enforce files.
//!
//! Usage: no_landlock <program> [args...]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(program) = args.first() else {
        eprintln!("usage: no_landlock <program> [args...]");
        std::process::exit(64);
    };
    if let Err(e) = imp::hide_landlock() {
        eprintln!("no_landlock: cannot install the filter: {e}");
        std::process::exit(70);
    }
    let err = imp::exec(program, &args[1..]);
    eprintln!("no_landlock: cannot run {program}: {err}");
    std::process::exit(127);
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io;

    unsafe extern "C" {
        fn syscall(number: i64, ...) -> i64;
        fn prctl(option: i32, ...) -> i32;
    }

    #[repr(C)]
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

    #[cfg(target_arch = "x86_64")]
    const SECCOMP: i64 = 317;
    #[cfg(target_arch = "aarch64")]
    const SECCOMP: i64 = 277;

    pub fn hide_landlock() -> io::Result<()> {
        let op = |code, jt, jf, k| SockFilter { code, jt, jf, k };
        // nr in [444, 446] -> ERRNO(ENOSYS), else ALLOW.
        let prog = [
            op(0x20, 0, 0, 0),
            op(0x35, 0, 2, 444),
            op(0x35, 1, 0, 447),
            op(0x06, 0, 0, 0x0005_0000 | 38),
            op(0x06, 0, 0, 0x7fff_0000),
        ];
        let fprog = SockFprog {
            len: prog.len() as u16,
            filter: prog.as_ptr(),
        };
        // SAFETY: prctl sets a flag of this process; the program lives for
        // the call, which copies it.
        unsafe {
            if prctl(38, 1u64, 0u64, 0u64, 0u64) != 0 {
                return Err(io::Error::last_os_error());
            }
            if syscall(SECCOMP, 1u64, 0u64, &fprog as *const SockFprog) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    pub fn exec(program: &str, args: &[String]) -> io::Error {
        use std::os::unix::process::CommandExt;
        std::process::Command::new(program).args(args).exec()
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::io;

    pub fn hide_landlock() -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    pub fn exec(_program: &str, _args: &[String]) -> io::Error {
        io::Error::from(io::ErrorKind::Unsupported)
    }
}
