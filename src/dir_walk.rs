//! Listing files of the working tree the way git sees them: ignore rules hide untracked
//! files only (git never ignores a tracked file, and neither does structgate,
//! docs/src/reference/gate.md#integrity), symbolic links are not followed, `.git` is never
//! entered.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::relpath::Name;

/// Which ignore rules hide an untracked file from a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignores {
    /// Those `git status` reads: the `.gitignore` files, `.git/info/exclude` and the
    /// user's global excludes file (`measure`, `baseline`, `contracts`).
    Local,
    /// The `.gitignore` files alone: the gate reads nothing a process can set locally
    /// (docs/src/reference/gate.md#integrity).
    Committed,
}

/// A walker over `root` that honours `ignores` and never follows links. What it hides of
/// the tracked files, [`hidden_tracked`] gives back.
pub fn builder(root: &Path, ignores: Ignores) -> ignore::WalkBuilder {
    let local = ignores == Ignores::Local;
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(local)
        .git_global(local)
        .ignore(false)
        .parents(true)
        .require_git(true)
        .filter_entry(|e| e.file_name() != ".git");
    b
}

/// A tracked file or link that a walk's ignore rules hid, as the working tree holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// Repository-relative, with `/`.
    pub name: Name,
    /// The working tree holds a symbolic link there (never followed).
    pub link: bool,
    /// The file-system path.
    pub path: PathBuf,
}

/// The tracked files and links of the repository whose working tree is `root` that a
/// walk didn't list (`listed` says which it did) and that `wanted` asks for, where the
/// working tree holds a regular file or a symbolic link at the path itself (not through
/// a link): those its ignore rules hid. Nothing outside git.
pub fn hidden_tracked(
    root: &Path,
    listed: impl Fn(&Name) -> bool,
    wanted: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<Hidden>> {
    let mut dirs = RealDirs::default();
    let mut hidden = Vec::new();
    for tracked in crate::git::tracked(root)? {
        if listed(&tracked.name) || !wanted(tracked.name.shown()) {
            continue;
        }
        let path = root.join(&tracked.rel);
        if !tracked.rel.parent().is_none_or(|p| dirs.real(root, p)) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let link = meta.file_type().is_symlink();
        if link || meta.is_file() {
            hidden.push(Hidden {
                name: tracked.name,
                link,
                path,
            });
        }
    }
    Ok(hidden)
}

/// Which directories under a root are real directories all the way down (no link on the
/// way), each looked at once.
#[derive(Default)]
struct RealDirs {
    seen: HashMap<PathBuf, bool>,
}

impl RealDirs {
    fn real(&mut self, root: &Path, rel: &Path) -> bool {
        if rel.as_os_str().is_empty() {
            return true;
        }
        if let Some(&known) = self.seen.get(rel) {
            return known;
        }
        let above = rel.parent().is_none_or(|p| self.real(root, p));
        let real = above
            && std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.file_type().is_dir());
        self.seen.insert(rel.to_path_buf(), real);
        real
    }
}
