//! Runs a command and prints its peak resident set size, for the memory
//! tests: `peak_rss <program> [args...]` prints `<KiB> <exit status>`.
//!
//! Why a launcher: on Linux a child made by `posix_spawn` (a vfork) keeps
//! the high-water mark of its parent's memory across `exec`, so a test
//! binary of 70 MB cannot measure a 5 MB guard it starts itself. Started
//! from this small process, the guard's figure is its own (and that of the
//! children it reaped). The command's stdout and stderr pass through.

use std::process::Command;

#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

unsafe extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: peak_rss <program> [args...]");
        std::process::exit(64);
    };
    let child = Command::new(program).args(rest).spawn().expect("spawn");
    let pid = i32::try_from(child.id()).expect("pid");
    let mut status = 0;
    let mut usage = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    // SAFETY: both pointers are valid for the call; `usage` matches the
    // 64-bit Linux `struct rusage` layout.
    let rc = unsafe { wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(rc, pid, "wait4");
    // The child is reaped here; `Child` must not wait again.
    std::mem::forget(child);
    let code = if status & 0x7f == 0 {
        (status >> 8) & 0xff
    } else {
        128 + (status & 0x7f)
    };
    eprintln!("peak_rss: {} {code}", usage.maxrss);
}
