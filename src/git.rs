//! Git feed (docs/src/reference/gate.md): the only module that touches gix. It finds the gate's base (the
//! merge-base), lists what a branch changed against it, and reads files at a commit for
//! the readers of contexts, limits and baselines.
//!
//! Objects are read as stored: replace refs are never honoured (and gix reads no
//! grafts). Nothing here runs a program: the repository's `filter.<driver>` sections (clean,
//! smudge, process) and `diff.<driver>` sections (textconv, command) are dropped from the
//! in-memory configuration when the repository is opened, so comparing the working tree
//! reads files as they are on disk (docs/src/reference/gate.md "Files").

mod base;
mod base_index;
mod changes;
mod commit_tree;
mod index;
mod renames;
mod staged;
mod stat;
mod tracked;
mod worktree;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context as _, Result};
use gix::ObjectId;

pub use base::{BaseOutcome, BaseResolution, BaseTrial};
pub use commit_tree::TreeSource;
pub use index::{blob_id, BlobId, IndexIds};
pub use staged::IndexSource;
pub use tracked::{tracked, tracked_in, Tracked, TrackedIndex};

/// The bases tried, in order, when the gate is given no `--base` (docs/src/reference/gate.md step 1).
pub const DEFAULT_BASES: [&str; 5] = [
    "origin/HEAD",
    "origin/main",
    "origin/master",
    "main",
    "master",
];

/// Bytes of decoded objects kept for reuse (history walks read the same trees often).
const OBJECT_CACHE_BYTES: usize = 4 << 20;

/// An opened repository (working tree or bare).
pub struct Repo {
    repo: gix::Repository,
    /// The directory the repository was discovered from, for messages.
    dir: PathBuf,
    shallow: bool,
}

/// One file that differs between the base commit's tree and the working tree.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// Repository-relative path with `/`: the new path for a rename, the old one for a
    /// deletion.
    pub path: String,
    pub kind: ChangeKind,
}

/// What happened to a path between the base and the working tree.
///
/// Only regular files count as files: a symbolic link is never `Added` or `Modified` but
/// `Link`; a link replaced by a file is `Added`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
    /// Moved from `from` (git's rename detection at 50% similarity), maybe also edited.
    Renamed {
        from: String,
    },
    /// A submodule (gitlink) that was added, removed, moved to another commit, or replaced
    /// by a file. Its contents are not looked into: the gate reports it as not judged.
    Submodule,
    /// A changed path that isn't UTF-8, shown the way git shows it (`\\ooo` for each byte
    /// that isn't part of a UTF-8 character). Nothing can name it: the gate reports it as
    /// skipped when it is of a measured language.
    NameNotUtf8,
    /// A symbolic link new or retargeted on the branch (also one that replaced a file):
    /// never followed, so the gate lists it as left out.
    Link,
}

/// Records `change` at `path`; a deletion and an addition of one path make a modification,
/// and a deletion yields to any other change of the path.
fn merge_into(
    kinds: &mut std::collections::BTreeMap<String, ChangeKind>,
    path: String,
    change: ChangeKind,
) {
    let merged = match (kinds.remove(&path), change) {
        (None, change) => change,
        (Some(ChangeKind::Deleted), ChangeKind::Added)
        | (Some(ChangeKind::Added), ChangeKind::Deleted) => ChangeKind::Modified,
        (Some(ChangeKind::Deleted), change) => change,
        (Some(existing), _) => existing,
    };
    kinds.insert(path, merged);
}

impl Repo {
    /// Opens the repository holding `dir` (searching upwards, like `git -C DIR`).
    pub fn discover(dir: &Path) -> Result<Repo> {
        let mut repo = open_as_stored(dir)
            .explain(|| format!("opening the git repository at {}", dir.display()))?;
        drop_program_drivers(&mut repo)
            .explain(|| format!("{}: reading the git configuration", dir.display()))?;
        // Commit walks and path lookups read the same trees again and again.
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        let shallow = repo
            .is_shallow()
            .explain(|| format!("{}: reading the shallow file", dir.display()))?;
        Ok(Repo {
            repo,
            dir: dir.to_path_buf(),
            shallow,
        })
    }

    /// The root of the working tree; `None` for a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    pub fn is_bare(&self) -> bool {
        self.repo.workdir().is_none()
    }

    /// True in a shallow clone (history cut off at some depth).
    pub fn is_shallow(&self) -> bool {
        self.shallow
    }

    /// The full id of HEAD's commit; `None` when HEAD is unborn (no commit yet).
    pub fn head_commit(&self) -> Result<Option<String>> {
        Ok(self.head_id()?.map(|id| id.to_string()))
    }

    /// The full commit id `rev` names (tags peeled); `None` when it doesn't resolve or
    /// names something other than a commit.
    pub fn rev_commit(&self, rev: &str) -> Result<Option<String>> {
        Ok(self.resolve_commit(rev)?.map(|id| id.to_string()))
    }

    /// A [`FileSource`](crate::source::FileSource) over the tree of `commit`.
    pub fn tree_source(&self, commit: &str) -> Result<TreeSource> {
        let id = self.commit_id(commit)?;
        let tree = self.tree_of(id)?;
        Ok(TreeSource::new(&self.repo, id, tree))
    }

    /// Every file that differs between `base_commit`'s tree and the working tree:
    /// committed on the branch, staged, unstaged, untracked and not ignored; sorted by
    /// path, one entry per path (docs/src/reference/gate.md step 3).
    pub fn changes(&self, base_commit: &str) -> Result<Vec<Change>> {
        self.worktree_changes(base_commit, None)
            .with_context(|| format!("listing the changes since commit {base_commit}"))
    }

    /// What [`Repo::changes`] says of `paths` alone, without listing the working tree:
    /// the base against the index whole (renames into `paths` included), the working
    /// tree only at `paths` (docs/src/reference/hook.md#speed).
    pub fn changes_of(&self, base_commit: &str, paths: &[String]) -> Result<Vec<Change>> {
        self.worktree_changes(base_commit, Some(paths))
            .with_context(|| format!("comparing {} with commit {base_commit}", paths.join(", ")))
    }

    /// The working tree against `base_commit`'s tree: all of it, or only at `paths`.
    fn worktree_changes(&self, base_commit: &str, paths: Option<&[String]>) -> Result<Vec<Change>> {
        let workdir = self.repo.workdir().ok_or_else(|| {
            anyhow!(
                "{}: a bare repository has no working tree to compare with",
                self.repo.git_dir().display()
            )
        })?;
        let id = self.commit_id(base_commit)?;
        let tree = self.tree_of(id)?;
        changes::list(&self.repo, (Some(workdir), paths), tree)
    }

    /// Every file that differs between `base_commit`'s tree and the index (what a commit
    /// made now would hold), sorted by path, one entry per path (`gate --staged`).
    pub fn staged_changes(&self, base_commit: &str) -> Result<Vec<Change>> {
        let id = self.commit_id(base_commit)?;
        let tree = self.tree_of(id)?;
        changes::list(&self.repo, (None, None), tree)
            .with_context(|| format!("listing the staged changes since commit {base_commit}"))
    }

    /// `(old, new)` paths of the files renamed or moved between `commit`'s tree and the
    /// working tree, sorted by new path.
    pub fn renames_since(&self, commit: &str) -> Result<Vec<(String, String)>> {
        let renames = self
            .changes(commit)?
            .into_iter()
            .filter_map(|c| match c.kind {
                ChangeKind::Renamed { from } => Some((from, c.path)),
                _ => None,
            });
        Ok(renames.collect())
    }

    /// The newest commit reachable from HEAD that changed `path` (git's default history
    /// simplification: a merge that kept one parent's version follows that parent), or
    /// `None` when no commit holds it or HEAD is unborn.
    pub fn last_commit_touching(&self, path: &str) -> Result<Option<String>> {
        let Some(head) = self.head_id()? else {
            return Ok(None);
        };
        let mut current = self.history_step(head, path)?;
        loop {
            let mut same = None;
            for parent in &current.parents {
                let step = self.history_step(*parent, path)?;
                if step.entry == current.entry {
                    same = Some(step);
                    break;
                }
            }
            match same {
                Some(step) => current = step,
                None if current.parents.is_empty() && current.entry.is_none() => return Ok(None),
                None => return Ok(Some(current.id.to_string())),
            }
        }
    }

    fn head_id(&self) -> Result<Option<ObjectId>> {
        let head = self
            .repo
            .head()
            .explain(|| format!("{}: reading HEAD", self.dir.display()))?;
        if head.is_unborn() {
            return Ok(None);
        }
        let id = self
            .repo
            .head_id()
            .explain(|| format!("{}: resolving HEAD", self.dir.display()))?;
        Ok(Some(id.detach()))
    }

    /// The commit `rev` names, or an error naming it.
    fn commit_id(&self, rev: &str) -> Result<ObjectId> {
        self.resolve_commit(rev)?
            .ok_or_else(|| anyhow!("{rev} does not name a commit in {}", self.dir.display()))
    }

    fn tree_of(&self, commit: ObjectId) -> Result<ObjectId> {
        let tree = self
            .repo
            .find_commit(commit)
            .and_then(|c| c.tree_id())
            .explain(|| format!("reading commit {commit}"))?;
        Ok(tree.detach())
    }

    /// One commit of a history walk: its parents present in the object database (a
    /// shallow clone lacks those beyond its boundary) and the id and mode of `path` in it.
    fn history_step(&self, commit: ObjectId, path: &str) -> Result<HistoryStep> {
        let found = self
            .repo
            .find_commit(commit)
            .explain(|| format!("reading commit {commit}"))?;
        let mut parents = Vec::new();
        for parent in found.parent_ids() {
            if self.repo.has_object(parent) {
                parents.push(parent.detach());
            } else if !self.shallow {
                bail!("commit {parent}, a parent of {commit}, is missing");
            }
        }
        let entry = found
            .tree()
            .and_then(|tree| tree.lookup_entry_by_path(path))
            .explain(|| format!("looking up {path} in commit {commit}"))?
            .map(|e| (e.object_id(), e.mode()));
        Ok(HistoryStep {
            id: commit,
            parents,
            entry,
        })
    }
}

/// See [`Repo::history_step`].
struct HistoryStep {
    id: ObjectId,
    parents: Vec<ObjectId>,
    entry: Option<(ObjectId, gix::objs::tree::EntryMode)>,
}

/// Discovers the repository holding `dir` with replace refs (`git replace`) turned off,
/// whatever its configuration or environment says: every object is read as stored
/// (docs/src/reference/gate.md#integrity). gix never reads the deprecated `info/grafts` file.
/// The index is read without hashing it whole to check its trailing checksum, as git's
/// own commands read it (only `git fsck` checks it); structgate never writes an index.
fn open_as_stored(dir: &Path) -> Result<gix::Repository, gix::Error> {
    let overrides = ["core.useReplaceRefs=false", "index.skipHash=true"];
    let no_replace = |options: gix::open::Options| options.config_overrides(overrides);
    let defaults = gix::sec::trust::Mapping::<gix::open::Options>::default();
    let trust = gix::sec::trust::Mapping {
        full: no_replace(defaults.full),
        reduced: no_replace(defaults.reduced),
    };
    let repo = gix::ThreadSafeRepository::discover_opts(dir, Default::default(), trust)?;
    Ok(repo.into())
}

/// Removes every `filter.<driver>` and `diff.<driver>` section from the in-memory
/// configuration, so that no clean/smudge/process filter and no textconv or external diff
/// program can run while the working tree is compared.
fn drop_program_drivers(repo: &mut gix::Repository) -> Result<(), gix::Error> {
    let mut config = repo.config_snapshot_mut();
    let doomed: Vec<_> = config
        .sections_and_ids()
        .filter(|(section, _)| {
            let header = section.header();
            let name = header.name();
            name.eq_ignore_ascii_case(b"filter")
                || (name.eq_ignore_ascii_case(b"diff") && header.subsection_name().is_some())
        })
        .map(|(_, id)| id)
        .collect();
    for id in doomed {
        config.remove_section_by_id(id);
    }
    config.commit()?;
    Ok(())
}

/// Context for a gix result: gix's messages, each once and without its classification
/// markers (`NotFound`, ...), under `what`.
trait Explain<T> {
    fn explain<C: std::fmt::Display + Send + Sync + 'static>(
        self,
        what: impl FnOnce() -> C,
    ) -> Result<T>;
}

impl<T> Explain<T> for std::result::Result<T, gix::Error> {
    fn explain<C: std::fmt::Display + Send + Sync + 'static>(
        self,
        what: impl FnOnce() -> C,
    ) -> Result<T> {
        self.map_err(|e| plain(e).context(what()))
    }
}

/// A gix error as one message: its chain joined with `: `, markers left out.
fn plain(error: gix::Error) -> anyhow::Error {
    let mut parts: Vec<String> = Vec::new();
    for cause in error.iter_errors() {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
    }
    anyhow::Error::msg(parts.join(": "))
}
