//! Bounded resources (docs/dev/test-matrix.md): measuring parses a file, takes its units and
//! drops its tree before the next, so the peak memory of a `measure` stays flat as the
//! repository grows. The measuring runs in a process of its own (the test binary run
//! again for that one test), so the process's peak resident memory (`VmHWM`) is its own.
#![cfg(target_os = "linux")]

use crate::common;

use common::{rs_fn, Scenario};
use structgate::measure::{measure_tree, Options};
use structgate::model::FileOutcome;

/// Lines of the one function in each file (about 110 KB a file).
const LINES: usize = 5_000;

/// The process's peak resident memory so far, in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("a VmHWM line");
    let kib = line.trim().trim_end_matches("kB").trim();
    kib.parse().expect("VmHWM in kB")
}

/// Measures `dir` on one thread (with more, how many trees are alive at once depends on
/// the scheduler); returns how many files were measured and the bytes they hold.
fn measure(s: &Scenario, dir: &str) -> (usize, u64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let outcomes = pool
        .install(|| measure_tree(s.path(), &[dir.to_string()], &Options::default()))
        .expect("measured");
    let mut bytes = 0;
    for outcome in &outcomes {
        let FileOutcome::Measured(m) = outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(m.units.len(), 1, "{}", m.path);
        assert_eq!(m.lines, LINES as u64, "{}", m.path);
        bytes += std::fs::metadata(s.abs(&m.path)).expect("stat").len();
    }
    (outcomes.len(), bytes)
}

/// Set in the child process that does the measuring.
const CHILD: &str = "STRUCTGATE_BOUNDED_MEMORY_CHILD";

#[test]
fn peak_memory_stays_flat_as_the_measured_tree_grows_eightfold() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "bounded_memory::measured_alone_in_its_process",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(stderr.contains(" KiB measuring "), "{stderr}");
}

/// The measuring itself; does nothing unless run as the child of the test above.
#[test]
fn measured_alone_in_its_process() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let s = Scenario::git();
    let body = rs_fn("f", LINES);
    for i in 0..16 {
        s.write(&format!("small/f{i}.rs"), &body);
    }
    for i in 0..128 {
        s.write(&format!("big/f{i}.rs"), &body);
    }
    // Twice to load the grammars and the parser and settle the allocator, then the peak
    // of a small tree.
    measure(&s, "small");
    measure(&s, "small");
    let (files, small_bytes) = measure(&s, "small");
    assert_eq!(files, 16);
    let small_peak = peak_kib();
    let (files, big_bytes) = measure(&s, "big");
    assert_eq!(files, 128);
    let big_peak = peak_kib();
    let grown_kib = big_peak.saturating_sub(small_peak);
    eprintln!(
        "peak {small_peak} KiB measuring {small_bytes} bytes, {big_peak} KiB measuring {big_bytes}"
    );
    // Eight times the files, 12 MB more source: the peak grows by less than two-thirds of
    // what was added (the allocator alone may step by about 4 MB). Keeping the sources
    // would add all of it; keeping the trees (about 4 MB each) 500 MB.
    let added_kib = (big_bytes - small_bytes) / 1024;
    assert!(
        grown_kib < added_kib * 2 / 3,
        "the peak grew by {grown_kib} KiB for {added_kib} KiB more source"
    );
}
