//! Leg 2 for named paths only (`structgate hook`, docs/src/reference/hook.md#speed): how
//! the working tree differs from the index at those paths, found by looking at them alone
//! — their index entries, what the disk holds there, the `.gitignore` files above them —
//! never by listing the working tree.

use std::path::Path;

use anyhow::Result;
use gix::bstr::{BString, ByteSlice as _};

use super::{Checked, Kind, Probe, Seen};

/// What [`super::compare`] would say of `paths` (repository-relative), and nothing else.
pub(in crate::git) fn compare_only(
    repo: &gix::Repository,
    workdir: &Path,
    index: &gix::index::File,
    paths: &[String],
) -> Result<Vec<Seen>> {
    let mut seen = Vec::new();
    let mut probe = Probe::default();
    for path in paths {
        let key: BString = path.as_str().into();
        let entries = index.entries();
        let at = entries.partition_point(|e| e.path(index) < key.as_bstr());
        let first = entries
            .get(at)
            .filter(|e| e.path(index) == key.as_bstr())
            .map(|_| at);
        match first {
            Some(i) => {
                let entry = &index.entries()[i];
                let checked = Checked {
                    repo,
                    probe: &mut probe,
                    workdir,
                };
                seen.extend(checked.entry(key.as_bstr(), entry, index));
            }
            None => seen.extend(untracked(workdir, path, key)),
        }
    }
    if seen.iter().any(|s| matches!(s, Seen::Untracked { .. })) {
        // A new file may be a tracked file moved without `git add`: the tracked files
        // gone from the working tree are the candidates its rename is paired with (the
        // index's entries looked at, the working tree not listed).
        let sync = repo.clone().into_sync();
        let gone = super::tracked(&sync, workdir, index).into_iter();
        seen.extend(gone.filter(|s| matches!(s, Seen::Tracked { now: None, .. })));
    }
    Ok(seen)
}

/// The untracked file or link at `path`, unless a `.gitignore` above it ignores it or it
/// lies in a nested repository (what the full walk would skip).
fn untracked(workdir: &Path, path: &str, key: BString) -> Option<Seen> {
    let abs = workdir.join(path);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    let now = if meta.is_symlink() {
        Kind::Link
    } else if meta.is_file() {
        Kind::File
    } else {
        return None;
    };
    let dirs: Vec<&str> = ancestors(path).collect();
    for dir in &dirs {
        let on_disk = workdir.join(dir);
        let real = std::fs::symlink_metadata(&on_disk).is_ok_and(|m| m.is_dir());
        if !real || (!dir.is_empty() && on_disk.join(".git").exists()) {
            return None;
        }
    }
    (!ignored(workdir, path, &dirs)).then_some(Seen::Untracked { path: key, now })
}

/// The directories above `path`, the root (``) first.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let ends = path.match_indices('/').map(|(i, _)| i);
    std::iter::once("").chain(ends.map(|i| &path[..i]))
}

/// Whether the `.gitignore` files of `dirs` (the root first) ignore `path`: the deepest
/// file with a rule matching the path, or a directory above it, decides.
fn ignored(workdir: &Path, path: &str, dirs: &[&str]) -> bool {
    for dir in dirs.iter().rev() {
        let base = workdir.join(dir);
        let file = base.join(".gitignore");
        if !file.is_file() {
            continue;
        }
        let mut builder = ignore::gitignore::GitignoreBuilder::new(&base);
        if builder.add(&file).is_some() {
            continue;
        }
        let Ok(rules) = builder.build() else {
            continue;
        };
        let rel = match dir.is_empty() {
            true => path,
            false => &path[dir.len() + 1..],
        };
        let matched = rules.matched_path_or_any_parents(rel, false);
        if matched.is_ignore() {
            return true;
        }
        if matched.is_whitelist() {
            return false;
        }
    }
    false
}
