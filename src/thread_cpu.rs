//! The calling thread's CPU clock, for the tests that bound how long work takes (test
//! builds only: the unit tests, and the integration tests, whose tests/tests.rs includes
//! this file as `thread_cpu`). On a loaded machine wall-clock time also counts the time a
//! thread waits for a core, so a wall-clock bound fails while nothing is wrong; the
//! thread's own CPU time grows only with its work, and a quadratic blowup is still
//! seconds of it. Linux reads `/proc/thread-self/schedstat`; where that file is missing
//! (another system) the clock is the wall clock.

use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

/// A point on the calling thread's CPU clock.
pub(crate) struct ThreadCpu {
    thread: ThreadId,
    start: Reading,
}

enum Reading {
    Cpu(Duration),
    Wall(Instant),
}

impl ThreadCpu {
    pub(crate) fn now() -> ThreadCpu {
        ThreadCpu {
            thread: thread::current().id(),
            start: cpu_time().map_or_else(|| Reading::Wall(Instant::now()), Reading::Cpu),
        }
    }

    /// The CPU time this thread has used since [`ThreadCpu::now`]; read on that thread.
    pub(crate) fn elapsed(&self) -> Duration {
        assert_eq!(
            thread::current().id(),
            self.thread,
            "read on another thread"
        );
        match self.start {
            Reading::Cpu(start) => cpu_time().expect("schedstat, read at the start") - start,
            Reading::Wall(start) => start.elapsed(),
        }
    }
}

/// The calling thread's CPU time: the first field of its schedstat, in nanoseconds.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn waiting_costs_no_cpu_time() {
        let cpu = ThreadCpu::now();
        thread::sleep(Duration::from_millis(300));
        assert!(
            cpu.elapsed() < Duration::from_millis(100),
            "{:?}",
            cpu.elapsed()
        );
    }

    #[test]
    fn work_is_counted_and_never_outruns_the_wall_clock() {
        let (cpu, wall) = (ThreadCpu::now(), Instant::now());
        let mut spins = 0u64;
        while cpu.elapsed() < Duration::from_millis(50) {
            spins = std::hint::black_box(spins + 1);
        }
        assert!(wall.elapsed() >= Duration::from_millis(50), "{spins}");
    }
}
