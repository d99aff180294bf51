//! The tracked paths of a working tree, from its index: git never ignores a tracked file,
//! and neither may any walk of structgate (docs/src/reference/gate.md#integrity), so the
//! walks of `crate::work_tree` add these to what their ignore rules let through.

use std::path::{Path, PathBuf};

use gix::index::entry::Mode;

use super::{plain, Repo};
use crate::relpath::Name;

/// One tracked path: a regular file or a symbolic link in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracked {
    /// Repository-relative, with `/`.
    pub name: Name,
    /// The same path as the file system names it, relative to the working tree's root.
    pub rel: PathBuf,
}

/// A repository opened once for the tracked paths of its working tree, shared between
/// threads: its index is the one the repository's other readers share (read once).
#[derive(Clone)]
pub struct TrackedIndex {
    repo: std::sync::Arc<gix::ThreadSafeRepository>,
}

impl std::fmt::Debug for TrackedIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrackedIndex")
            .field("git_dir", &self.repo.git_dir())
            .finish()
    }
}

impl Repo {
    /// This repository, for [`tracked_in`]: it shares this one's index.
    pub fn tracked_index(&self) -> TrackedIndex {
        TrackedIndex {
            repo: std::sync::Arc::new(self.repo.clone().into_sync()),
        }
    }
}

/// Every path the index of the repository whose working tree is `root` holds as a
/// regular file or a symbolic link (what the working tree holds there now is the
/// caller's to look at), each once (conflicted ones too), in index order, but those
/// `skip` leaves out (given the path as [`Name::shown`] shows it);
/// nothing when `root` is no repository's working tree (a plain directory) or the
/// repository has no index yet.
pub fn tracked(root: &Path, skip: impl Fn(&str) -> bool) -> anyhow::Result<Vec<Tracked>> {
    tracked_in(None, root, skip)
}

/// [`tracked`], in `opened` when the caller has the repository open already (else it is
/// discovered from `root`).
pub fn tracked_in(
    opened: Option<&TrackedIndex>,
    root: &Path,
    skip: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<Tracked>> {
    let repo = match opened {
        Some(opened) => opened.repo.to_thread_local(),
        None => match Repo::discover(root) {
            Ok(repo) => repo.repo,
            Err(_) => return Ok(Vec::new()),
        },
    };
    let same_root = repo
        .workdir()
        .and_then(|w| w.canonicalize().ok())
        .zip(root.canonicalize().ok())
        .is_some_and(|(w, r)| w == r);
    if !same_root {
        return Ok(Vec::new());
    }
    let index = repo.index_or_empty().map_err(plain)?;
    let mut found: Vec<Tracked> = Vec::new();
    for entry in index.entries() {
        let kinds = [Mode::SYMLINK, Mode::FILE, Mode::FILE_EXECUTABLE];
        if !kinds.contains(&entry.mode) {
            continue;
        }
        let bytes = entry.path(&index);
        // Most paths are UTF-8 and most are skipped: no name is made for those.
        if std::str::from_utf8(bytes).is_ok_and(&skip) {
            continue;
        }
        let name = crate::relpath::name_of_bytes(bytes);
        if skip(name.shown()) {
            continue;
        }
        // Conflicted paths have an entry per stage, one after the other.
        if found.last().is_some_and(|t| t.name == name) {
            continue;
        }
        let Ok(rel) = gix::path::from_bstr(bytes) else {
            continue;
        };
        found.push(Tracked {
            name,
            rel: rel.into_owned(),
        });
    }
    Ok(found)
}
