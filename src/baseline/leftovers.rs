//! Temporary files that an interrupted baseline write left behind (docs/src/reference/baseline.md,
//! docs/dev/test-matrix.md). A write is a temp file beside the baseline, renamed over it; a run
//! killed before the rename leaves the temp file. No reader ever looks at one; the next
//! write removes those whose process is gone. The measurement cache names its temp files
//! the same way and cleans them with [`remove_stale_temps_in`].

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::tsv::temp_prefix;

/// Where the platform can't tell whether a process runs, a temp file this old is stale.
const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// Removes the temp files beside `path` (`.NAME.tmp.PID.N`) whose process is no longer
/// running, and returns their paths. Never fails: what can't be listed or removed stays.
pub fn remove_stale_temps(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = temp_prefix(&name.to_string_lossy());
    remove_stale(dir, |file_name| file_name.strip_prefix(&prefix))
}

/// Removes every temp file in `dir` (`.NAME.tmp.PID.N`, whatever `NAME`) whose process is
/// no longer running (the measurement cache's shards share one directory).
pub fn remove_stale_temps_in(dir: &Path) -> Vec<PathBuf> {
    remove_stale(dir, |file_name| {
        let rest = file_name.strip_prefix('.')?;
        rest.find(".tmp.").map(|at| &rest[at + ".tmp.".len()..])
    })
}

/// The prefix of the temp files git names a merge driver's `%A` with.
const GIT_MERGE_FILE: &str = ".merge_file_";

/// Removes the temp files beside a merge driver's `ours` (`%A`) that an interrupted merge
/// left (see [`remove_stale_temps`]). git names `%A` `.merge_file_XXXXXX`, a new name each
/// merge, so the temp files of every such name are looked at; for any other name, those
/// of that name only.
pub fn remove_stale_merge_temps(ours: &Path) -> Vec<PathBuf> {
    let name = ours.file_name().map(|n| n.to_string_lossy().into_owned());
    if !name.is_some_and(|n| n.starts_with(GIT_MERGE_FILE)) {
        return remove_stale_temps(ours);
    }
    let dir = match ours.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    remove_stale(dir, |file_name| {
        let rest = file_name.strip_prefix('.')?.strip_prefix(GIT_MERGE_FILE)?;
        rest.find(".tmp.").map(|at| &rest[at + ".tmp.".len()..])
    })
}

/// Removes the files of `dir` whose name `tail` maps to a `PID.N` of a dead process.
fn remove_stale(dir: &Path, tail: impl Fn(&str) -> Option<&str>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = tail(&file_name).and_then(pid_of) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && is_stale(pid, &entry) && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed.sort();
    removed
}

/// The PID of a temp name's `PID.N` tail.
fn pid_of(tail: &str) -> Option<u32> {
    let (pid, n) = tail.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether the process that wrote a temp file is gone: by `/proc` where there is one,
/// else by the file's age.
fn is_stale(pid: u32, entry: &std::fs::DirEntry) -> bool {
    if pid == std::process::id() {
        return false;
    }
    if Path::new("/proc/self").exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    let modified = entry.metadata().and_then(|m| m.modified());
    modified.is_ok_and(|at| {
        SystemTime::now()
            .duration_since(at)
            .is_ok_and(|age| age > STALE_AFTER)
    })
}
