//! The Windows calls the guard needs, declared by hand from `kernel32`:
//! the job object that holds the server and everything it starts (created
//! suspended, put in the job before it runs an instruction, then resumed;
//! the job kills them all when it is terminated or its last handle closes,
//! the guard's own death included), the list of the job's live processes
//! (what outlived the server), the console control handler (Ctrl-C,
//! Ctrl-Break, closing the console), and how many bytes wait in a pipe.
//!
//! Policy stays in `session::child`; this file only wraps the calls.

use std::ffi::c_void;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::sync::atomic::{AtomicIsize, Ordering};

type Handle = *mut c_void;
type Bool = i32;

const CREATE_SUSPENDED: u32 = 0x0000_0004;
const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
const JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION: u32 = 0x0000_0400;
const JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: u32 = 0x0000_2000;
const JOB_OBJECT_BASIC_PROCESS_ID_LIST: i32 = 3;
const JOB_OBJECT_EXTENDED_LIMIT_INFORMATION: i32 = 9;
const TH32CS_SNAPPROCESS: u32 = 0x2;
const TH32CS_SNAPTHREAD: u32 = 0x4;
const THREAD_SUSPEND_RESUME: u32 = 0x2;
const INVALID_HANDLE_VALUE: Handle = -1isize as Handle;
/// The exit code of every process the guard terminates through the job.
const KILLED: u32 = 137;

#[repr(C)]
#[derive(Default)]
struct BasicLimits {
    per_process_user_time: i64,
    per_job_user_time: i64,
    limit_flags: u32,
    minimum_working_set: usize,
    maximum_working_set: usize,
    active_process_limit: u32,
    affinity: usize,
    priority_class: u32,
    scheduling_class: u32,
}

#[repr(C)]
#[derive(Default)]
struct ExtendedLimits {
    basic: BasicLimits,
    io: [u64; 6],
    process_memory_limit: usize,
    job_memory_limit: usize,
    peak_process_memory: usize,
    peak_job_memory: usize,
}

/// Room for this many process ids in one query of the job's list.
const LISTED: usize = 512;

#[repr(C)]
struct ProcessIdList {
    assigned: u32,
    listed: u32,
    ids: [usize; LISTED],
}

#[repr(C)]
struct ThreadEntry {
    size: u32,
    usage: u32,
    thread_id: u32,
    owner_pid: u32,
    base_priority: i32,
    delta_priority: i32,
    flags: u32,
}

#[repr(C)]
struct ProcessEntry {
    size: u32,
    usage: u32,
    pid: u32,
    default_heap: usize,
    module: u32,
    threads: u32,
    parent_pid: u32,
    priority_base: i32,
    flags: u32,
    exe: [u16; 260],
}

#[link(name = "kernel32")]
unsafe extern "system" {
    fn CreateJobObjectW(attributes: *const c_void, name: *const u16) -> Handle;
    fn SetInformationJobObject(job: Handle, class: i32, info: *const c_void, len: u32) -> Bool;
    fn QueryInformationJobObject(
        job: Handle,
        class: i32,
        info: *mut c_void,
        len: u32,
        returned: *mut u32,
    ) -> Bool;
    fn AssignProcessToJobObject(job: Handle, process: Handle) -> Bool;
    fn TerminateJobObject(job: Handle, code: u32) -> Bool;
    fn CloseHandle(handle: Handle) -> Bool;
    fn CreateToolhelp32Snapshot(flags: u32, pid: u32) -> Handle;
    fn Thread32First(snapshot: Handle, entry: *mut ThreadEntry) -> Bool;
    fn Thread32Next(snapshot: Handle, entry: *mut ThreadEntry) -> Bool;
    fn Process32FirstW(snapshot: Handle, entry: *mut ProcessEntry) -> Bool;
    fn Process32NextW(snapshot: Handle, entry: *mut ProcessEntry) -> Bool;
    fn OpenThread(access: u32, inherit: Bool, thread_id: u32) -> Handle;
    fn ResumeThread(thread: Handle) -> u32;
    fn SetConsoleCtrlHandler(
        handler: Option<unsafe extern "system" fn(u32) -> Bool>,
        add: Bool,
    ) -> Bool;
    fn PeekNamedPipe(
        pipe: Handle,
        buffer: *mut c_void,
        size: u32,
        read: *mut u32,
        available: *mut u32,
        left: *mut u32,
    ) -> Bool;
}

/// Every open job, for the console control handler: it terminates them
/// when the guard must end at once.
static JOBS: [AtomicIsize; 64] = [const { AtomicIsize::new(0) }; 64];

/// A job object that kills its processes when terminated or closed.
#[derive(Debug)]
pub struct Job {
    handle: Handle,
    slot: Option<usize>,
}

// SAFETY: a job handle is a kernel object handle, usable from any thread.
unsafe impl Send for Job {}
// SAFETY: every call made through `&Job` is thread-safe in the kernel.
unsafe impl Sync for Job {}

impl Job {
    /// A new, unnamed job whose processes die when it closes and do not
    /// wait on a crash dialog.
    pub fn create() -> io::Result<Job> {
        // SAFETY: null attributes and name ask for a default, unnamed job.
        let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if handle.is_null() {
            return Err(io::Error::last_os_error());
        }
        let slot = JOBS.iter().position(|j| {
            j.compare_exchange(0, handle as isize, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        let job = Job { handle, slot };
        let mut limits = ExtendedLimits::default();
        limits.basic.limit_flags =
            JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
        let len = u32::try_from(std::mem::size_of::<ExtendedLimits>())
            .expect("invariant: the limits structure is small");
        // SAFETY: `limits` is a valid JOBOBJECT_EXTENDED_LIMIT_INFORMATION
        // that outlives the call, and `len` is its size.
        let ok = unsafe {
            SetInformationJobObject(
                job.handle,
                JOB_OBJECT_EXTENDED_LIMIT_INFORMATION,
                (&raw const limits).cast(),
                len,
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }

    /// Puts a child spawned with `start_suspended` into the job, then lets
    /// it run. On an error the child is still suspended: the caller kills
    /// it.
    pub fn adopt(&self, child: &std::process::Child) -> io::Result<()> {
        // SAFETY: the child's handle is open while `child` lives.
        if unsafe { AssignProcessToJobObject(self.handle, child.as_raw_handle()) } == 0 {
            return Err(io::Error::last_os_error());
        }
        resume(child.id())
    }

    /// Kills every process in the job. True when the call succeeded.
    pub fn terminate(&self) -> bool {
        // SAFETY: the handle is open while `self` lives.
        unsafe { TerminateJobObject(self.handle, KILLED) != 0 }
    }

    /// The ids of the job's live processes.
    pub fn pids(&self) -> Vec<u32> {
        let mut list = ProcessIdList {
            assigned: 0,
            listed: 0,
            ids: [0; LISTED],
        };
        let len = u32::try_from(std::mem::size_of::<ProcessIdList>())
            .expect("invariant: the list is a few KiB");
        // SAFETY: `list` is writable for `len` bytes for the call; a job
        // with more processes fills what fits (ERROR_MORE_DATA), which is
        // still read below.
        unsafe {
            QueryInformationJobObject(
                self.handle,
                JOB_OBJECT_BASIC_PROCESS_ID_LIST,
                (&raw mut list).cast(),
                len,
                std::ptr::null_mut(),
            );
        }
        let listed = usize::try_from(list.listed).unwrap_or(0).min(LISTED);
        list.ids[..listed]
            .iter()
            .filter_map(|id| u32::try_from(*id).ok())
            .collect()
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            JOBS[slot].store(0, Ordering::SeqCst);
        }
        // SAFETY: the handle was opened by `create` and is closed once;
        // closing the last handle kills what is left in the job.
        unsafe {
            CloseHandle(self.handle);
        }
    }
}

/// Makes `cmd` start its process suspended (so it can be put in a job
/// before it runs) and in a console process group of its own (so the
/// console's Ctrl-C reaches the guard, which then ends the job).
pub fn start_suspended(cmd: &mut std::process::Command) {
    cmd.creation_flags(CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP);
}

/// A Toolhelp snapshot of the system's threads or processes, closed when
/// dropped.
struct Snapshot(Handle);

impl Snapshot {
    fn take(what: u32) -> io::Result<Snapshot> {
        // SAFETY: asks for a snapshot of every thread or process; the
        // handle is closed by `Drop`.
        let handle = unsafe { CreateToolhelp32Snapshot(what, 0) };
        if handle == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        Ok(Snapshot(handle))
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        // SAFETY: the handle came from `take` and is closed once.
        unsafe {
            CloseHandle(self.0);
        }
    }
}

/// Resumes every thread of the suspended process `pid` (a new process has
/// one).
fn resume(pid: u32) -> io::Result<()> {
    let snapshot = Snapshot::take(TH32CS_SNAPTHREAD)?;
    let mut entry = ThreadEntry {
        size: u32::try_from(std::mem::size_of::<ThreadEntry>())
            .expect("invariant: the entry is 28 bytes"),
        usage: 0,
        thread_id: 0,
        owner_pid: 0,
        base_priority: 0,
        delta_priority: 0,
        flags: 0,
    };
    let mut resumed = 0;
    // SAFETY: `entry` is valid and its size field set, for every call.
    let mut more = unsafe { Thread32First(snapshot.0, &raw mut entry) } != 0;
    while more {
        if entry.owner_pid == pid {
            // SAFETY: opens the thread by id; the handle is closed at once.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.thread_id) };
            if !thread.is_null() {
                // SAFETY: `thread` was opened with the resume right.
                unsafe {
                    if ResumeThread(thread) != u32::MAX {
                        resumed += 1;
                    }
                    CloseHandle(thread);
                }
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snapshot.0, &raw mut entry) } != 0;
    }
    if resumed == 0 {
        return Err(io::Error::other(
            "the suspended server could not be resumed",
        ));
    }
    Ok(())
}

/// The parent and executable name of each listed process, from one
/// snapshot of the process table.
pub fn describe(pids: &[u32]) -> Vec<(u32, u32, String)> {
    let mut out: Vec<(u32, u32, String)> = pids.iter().map(|p| (*p, 0, String::new())).collect();
    let Ok(snapshot) = Snapshot::take(TH32CS_SNAPPROCESS) else {
        return out;
    };
    let mut entry = ProcessEntry {
        size: u32::try_from(std::mem::size_of::<ProcessEntry>())
            .expect("invariant: the entry is under 600 bytes"),
        usage: 0,
        pid: 0,
        default_heap: 0,
        module: 0,
        threads: 0,
        parent_pid: 0,
        priority_base: 0,
        flags: 0,
        exe: [0; 260],
    };
    // SAFETY: `entry` is valid and its size field set, for every call.
    let mut more = unsafe { Process32FirstW(snapshot.0, &raw mut entry) } != 0;
    while more {
        if let Some(slot) = out.iter_mut().find(|o| o.0 == entry.pid) {
            let end = entry.exe.iter().position(|c| *c == 0).unwrap_or(260);
            slot.1 = entry.parent_pid;
            slot.2 = String::from_utf16_lossy(&entry.exe[..end]);
        }
        // SAFETY: as for Process32FirstW.
        more = unsafe { Process32NextW(snapshot.0, &raw mut entry) } != 0;
    }
    out
}

/// How many bytes wait to be read in the pipe `handle`.
pub fn pipe_unread(handle: &impl AsRawHandle) -> io::Result<usize> {
    let mut available = 0u32;
    // SAFETY: only the count is asked for; the handle is open while the
    // borrow lives.
    let ok = unsafe {
        PeekNamedPipe(
            handle.as_raw_handle(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
            &raw mut available,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(usize::try_from(available).unwrap_or(usize::MAX))
}

/// Ctrl-C, Ctrl-Break and closing the console: the first asks the session
/// to stop (the guard ends the job and exits 130); a second, or one that
/// comes while nothing is in custody, ends every job and the guard at once.
/// The handler runs on a thread of its own, so ordinary calls are safe.
unsafe extern "system" fn on_ctrl(_kind: u32) -> Bool {
    let first = super::imp::PENDING.swap(super::SIGINT, Ordering::SeqCst) == 0;
    if first && super::custody::any() {
        return 1;
    }
    for job in &JOBS {
        let handle = job.load(Ordering::SeqCst);
        if handle != 0 {
            // SAFETY: a registered handle stays open until its `Job` drops,
            // which unregisters it first.
            unsafe {
                TerminateJobObject(handle as Handle, KILLED);
            }
        }
    }
    super::custody::unlink_temps(|path| {
        // SAFETY: `path` is a NUL-terminated string kept alive while it is
        // registered, made from `as_encoded_bytes`.
        let bytes = unsafe { std::ffi::CStr::from_ptr(path.cast()) }.to_bytes();
        // SAFETY: the bytes came from `OsStr::as_encoded_bytes`.
        let os = unsafe { std::ffi::OsStr::from_encoded_bytes_unchecked(bytes) };
        let _ = std::fs::remove_file(os);
    });
    let mut msg = [0u8; 96];
    let len = super::custody::interrupted_message(super::SIGINT, &mut msg);
    let _ = std::io::Write::write_all(&mut std::io::stderr(), &msg[..len]);
    std::process::exit(128 + super::SIGINT);
}

/// Routes Ctrl-C, Ctrl-Break and the console's close to `on_ctrl`.
pub fn install_ctrl_handler() {
    // SAFETY: `on_ctrl` has the HandlerRoutine signature and lives forever.
    unsafe {
        SetConsoleCtrlHandler(Some(on_ctrl), 1);
    }
}
