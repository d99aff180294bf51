//! CPU time, for the tests that bound how long structgate takes: on a loaded machine
//! wall-clock time also counts the time spent waiting for a core, so a wall-clock bound
//! fails while nothing is wrong; CPU time grows only with the work, and a quadratic
//! blowup is still seconds of it.

use std::process::{Command, Output};
use std::time::Duration;
#[cfg(not(unix))]
use std::time::Instant;

use crate::thread_cpu::ThreadCpu;

/// The value of `f`, and the CPU time the calling thread used on it
/// ([`ThreadCpu`], the unit tests' clock: where the system has no per-thread CPU clock,
/// the wall-clock time).
pub fn thread<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = ThreadCpu::now();
    let value = f();
    (value, start.elapsed())
}

/// [`output`] with the program's address space bounded to `memory` bytes and its CPU
/// time to `cpu` (`setrlimit` in the child): a blowup the test exists to catch fails the
/// run (an allocation refused, the process killed) instead of taking the machine's memory
/// or minutes of its time.
#[cfg(unix)]
pub fn output_within(cmd: &mut Command, memory: u64, cpu: Duration) -> (Output, Duration) {
    use std::os::unix::process::CommandExt as _;
    let limits = [
        (libc::RLIMIT_AS, memory),
        (libc::RLIMIT_CPU, cpu.as_secs().max(1)),
    ];
    // SAFETY: the closure runs in the forked child before exec and only calls
    // `setrlimit`, which is async-signal-safe, on values computed before the fork.
    unsafe {
        cmd.pre_exec(move || {
            for (resource, value) in limits {
                let limit = libc::rlimit {
                    rlim_cur: value as libc::rlim_t,
                    rlim_max: value as libc::rlim_t,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    output(cmd)
}

/// [`output`]: this system has no `setrlimit`.
#[cfg(not(unix))]
pub fn output_within(cmd: &mut Command, _memory: u64, _cpu: Duration) -> (Output, Duration) {
    output(cmd)
}

/// Runs `cmd` to its end as [`Command::output`] does, and the CPU time (user and system)
/// it and the children it waited for used, as `wait4` reports it.
#[cfg(unix)]
#[allow(clippy::zombie_processes)] // `wait4` below reaps it, not `Child::wait`.
pub fn output(cmd: &mut Command) -> (Output, Duration) {
    use std::io::Read as _;
    use std::os::unix::process::ExitStatusExt as _;
    use std::process::{ExitStatus, Stdio};

    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut err_pipe = child.stderr.take().expect("piped");
    let stderr = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        err_pipe.read_to_end(&mut bytes).map(|_| bytes)
    });
    let mut stdout = Vec::new();
    let mut out_pipe = child.stdout.take().expect("piped");
    out_pipe.read_to_end(&mut stdout).expect("read stdout");
    let stderr = stderr.join().expect("stderr reader").expect("read stderr");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: `rusage` is integers and `timeval`s of integers; all zeros is a valid one.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals, and `pid` is our child, not yet reaped
        // (`Child` waits only when asked to).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
    let cpu = duration(usage.ru_utime) + duration(usage.ru_stime);
    let status = ExitStatus::from_raw(status);
    (
        Output {
            status,
            stdout,
            stderr,
        },
        cpu,
    )
}

#[cfg(unix)]
fn duration(time: libc::timeval) -> Duration {
    let secs = u64::try_from(time.tv_sec).expect("not negative");
    let micros = u64::try_from(time.tv_usec).expect("not negative");
    Duration::from_secs(secs) + Duration::from_micros(micros)
}

/// Runs `cmd` to its end as [`Command::output`] does, and its wall-clock time: this
/// system has no `wait4`.
#[cfg(not(unix))]
pub fn output(cmd: &mut Command) -> (Output, Duration) {
    let started = Instant::now();
    let out = cmd.output().expect("the program starts");
    (out, started.elapsed())
}
