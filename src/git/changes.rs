//! The changed files of a gate run (SPEC §6 step 3): one status pass compares the base
//! tree with the index (leg 1) and the index with the working tree (leg 2); the two legs
//! are then merged by path into one final state per path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{anyhow, Result};
use gix::diff::index::ChangeRef;
use gix::status::index_worktree::{Item as WorktreeItem, RewriteSource};
use gix::status::plumbing::index_as_worktree::{Change as WorktreeChange, EntryStatus};
use gix::ObjectId;

use super::renames::{self, Pending};
use super::{plain, Change, ChangeKind};
use crate::walk::Name;

/// What a path holds, as far as the gate cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Link,
    Submodule,
    /// A sparse-index directory entry or anything else that is no file.
    Other,
}

/// Where a path's content came from in the base tree.
#[derive(Debug, Clone)]
struct Origin {
    path: String,
    kind: Kind,
    id: ObjectId,
}

/// The state of one path: its origin in the base (`None`: new since the base) and what
/// the working tree holds there now (`None`: nothing).
#[derive(Debug, Clone)]
struct Record {
    from: Option<Origin>,
    now: Option<Kind>,
    /// False when the content at this path was not compared with the origin's by one leg
    /// (a rename in one leg, an edit or another rename in the other): a rename must then
    /// be checked against the base.
    checked: bool,
}

/// The changed files between `base_tree` and the working tree at `workdir`, sorted.
pub(super) fn list(
    repo: &gix::Repository,
    workdir: &Path,
    base_tree: ObjectId,
) -> Result<Vec<Change>> {
    let (tree_index, index_worktree) = run_status(repo, base_tree)?;
    let mut ledger = Ledger::default();
    for change in &tree_index {
        ledger.tree_index(change)?;
    }
    for item in &index_worktree {
        ledger.index_worktree(item)?;
    }
    let not_utf8 = std::mem::take(&mut ledger.not_utf8);
    let mut pending = ledger.classify();
    renames::settle(repo, workdir, &mut pending)?;
    let mut changes: Vec<Change> = pending
        .kinds
        .into_iter()
        .map(|(path, kind)| Change { path, kind })
        .collect();
    changes.extend(not_utf8.into_iter().map(|path| Change {
        path,
        kind: ChangeKind::NameNotUtf8,
    }));
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}

type Legs = (Vec<gix::diff::index::Change>, Vec<WorktreeItem>);

/// One status pass: base tree → index and index → working tree, with git's default
/// rename detection on both legs, every untracked file listed on its own, ignored files
/// left out, and submodules compared by their checked-out commit only.
fn run_status(repo: &gix::Repository, base_tree: ObjectId) -> Result<Legs> {
    if repo.index_or_empty().map_err(plain)?.is_sparse() {
        return Err(anyhow!(
            "the index is a sparse index (`index.sparse`), which structgate cannot compare \
             with the base; `git sparse-checkout init --no-sparse-index` makes it a full \
             index again"
        ));
    }
    let submodules = gix::status::Submodule::Given {
        ignore: gix::submodule::config::Ignore::Dirty,
        check_dirty: false,
    };
    let rewrites = gix::diff::Rewrites::default();
    let iter = repo
        .status(gix::progress::Discard)
        .map_err(plain)?
        .head_tree(base_tree)
        .untracked_files(gix::status::UntrackedFiles::Files)
        .index_worktree_submodules(submodules)
        .index_worktree_rewrites(rewrites)
        .tree_index_track_renames(gix::status::tree_index::TrackRenames::Given(rewrites))
        .into_iter(None)
        .map_err(plain)?;
    let mut legs: Legs = (Vec::new(), Vec::new());
    for item in iter {
        match item.map_err(plain)? {
            gix::status::Item::TreeIndex(change) => legs.0.push(change),
            gix::status::Item::IndexWorktree(item) => legs.1.push(item),
        }
    }
    Ok(legs)
}

#[derive(Default)]
struct Ledger {
    records: BTreeMap<String, Record>,
    /// Changed paths that aren't UTF-8, as git shows them: reported, never judged.
    not_utf8: BTreeSet<String>,
}

impl Ledger {
    /// Leg 1: how the index differs from the base tree.
    fn tree_index(&mut self, change: &gix::diff::index::Change) -> Result<()> {
        let (location, _, mode, id) = change.fields();
        let Some(path) = self.name(location) else {
            return Ok(());
        };
        let record = match change {
            ChangeRef::Addition { .. } | ChangeRef::Rewrite { copy: true, .. } => {
                new_record(kind(mode))
            }
            ChangeRef::Deletion { .. } => {
                record(Some(origin(path.clone(), mode, id.to_owned())), None)
            }
            ChangeRef::Modification {
                previous_entry_mode,
                previous_id,
                ..
            } => {
                let from = origin(
                    path.clone(),
                    *previous_entry_mode,
                    previous_id.as_ref().to_owned(),
                );
                moved(from, mode)
            }
            ChangeRef::Rewrite {
                source_location,
                source_entry_mode,
                source_id,
                ..
            } => match self.name(source_location) {
                Some(source) => {
                    let from = origin(source, *source_entry_mode, source_id.as_ref().to_owned());
                    moved(from, mode)
                }
                // Moved from a path nothing can name: new here.
                None => new_record(kind(mode)),
            },
        };
        self.records.insert(path, record);
        Ok(())
    }

    /// Leg 2: how the working tree differs from the index.
    fn index_worktree(&mut self, item: &WorktreeItem) -> Result<()> {
        match item {
            WorktreeItem::Modification {
                entry,
                rela_path,
                status,
                ..
            } => {
                let now = match status {
                    EntryStatus::NeedsUpdate(_) => return Ok(()),
                    EntryStatus::Change(WorktreeChange::Removed) => None,
                    EntryStatus::Change(WorktreeChange::Type { worktree_mode }) => {
                        Some(kind(*worktree_mode))
                    }
                    EntryStatus::Change(WorktreeChange::SubmoduleModification(_)) => {
                        Some(Kind::Submodule)
                    }
                    _ => Some(kind(entry.mode)),
                };
                let Some(path) = self.name(rela_path) else {
                    return Ok(());
                };
                let record = self.tracked(path, entry);
                record.now = now;
                record.checked = false;
            }
            WorktreeItem::DirectoryContents { entry, .. } => {
                if entry.status == gix::dir::entry::Status::Untracked {
                    self.untracked(&entry.rela_path, entry.disk_kind)?;
                }
            }
            WorktreeItem::Rewrite {
                source,
                dirwalk_entry,
                copy,
                ..
            } => self.rewrite(source, dirwalk_entry, *copy)?,
        }
        Ok(())
    }

    /// An index entry missing from the working tree whose content now lives at the
    /// untracked `dest`: `dest` inherits the entry's origin.
    fn rewrite(
        &mut self,
        source: &RewriteSource,
        dest: &gix::dir::Entry,
        copy: bool,
    ) -> Result<()> {
        let RewriteSource::RewriteFromIndex {
            source_entry,
            source_rela_path,
            ..
        } = source
        else {
            return self.untracked(&dest.rela_path, dest.disk_kind);
        };
        let (Some(now), false) = (disk_kind(dest.disk_kind), copy) else {
            return self.untracked(&dest.rela_path, dest.disk_kind);
        };
        let (Some(source_path), Some(dest_path)) =
            (self.name(source_rela_path), self.name(&dest.rela_path))
        else {
            return self.untracked(&dest.rela_path, dest.disk_kind);
        };
        let mut moved = match self.records.remove(&source_path) {
            Some(earlier) => Record {
                from: earlier.from,
                now: None,
                checked: false,
            },
            None => record(
                Some(origin(source_path, source_entry.mode, source_entry.id)),
                None,
            ),
        };
        moved.now = Some(now);
        self.records.insert(dest_path, moved);
        Ok(())
    }

    /// The record of a tracked path; a path leg 1 didn't mention is as in the base.
    fn tracked(&mut self, path: String, entry: &gix::index::Entry) -> &mut Record {
        self.records.entry(path.clone()).or_insert_with(|| {
            record(
                Some(origin(path, entry.mode, entry.id)),
                Some(kind(entry.mode)),
            )
        })
    }

    fn untracked(&mut self, path: &[u8], disk: Option<gix::dir::entry::Kind>) -> Result<()> {
        if let Some(now) = disk_kind(disk) {
            let Some(path) = self.name(path) else {
                return Ok(());
            };
            let record = self.records.entry(path).or_insert(record(None, None));
            record.now = Some(now);
        }
        Ok(())
    }

    /// `path` as text, or `None` when it isn't UTF-8: then it is set aside to be reported.
    fn name(&mut self, path: &[u8]) -> Option<String> {
        match crate::walk::name_of_bytes(path) {
            Name::Utf8(path) => Some(path),
            Name::NotUtf8(shown) => {
                self.not_utf8.insert(shown);
                None
            }
        }
    }

    /// The final change of every path, with the base blob of every deleted file and
    /// renamed file's origin, and the renames still to check against the base.
    fn classify(self) -> Pending {
        let mut pending = Pending::default();
        for (path, record) in self.records {
            let Some((path, change)) = final_change(path, &record) else {
                continue;
            };
            if let (ChangeKind::Deleted | ChangeKind::Renamed { .. }, Some(from)) =
                (&change, &record.from)
            {
                pending.base_ids.insert(from.path.clone(), from.id);
            }
            if matches!(change, ChangeKind::Renamed { .. }) && !record.checked {
                pending.unchecked.push(path.clone());
            }
            merge_into(&mut pending.kinds, path, change);
        }
        pending
    }
}

/// The change a record amounts to, at the path it is reported under.
fn final_change(path: String, record: &Record) -> Option<(String, ChangeKind)> {
    let from = record.from.as_ref();
    match (record.now, from.map(|o| o.kind)) {
        (Some(Kind::File), Some(Kind::File)) => {
            let origin = from.map(|o| o.path.clone()).unwrap_or_default();
            if origin == path {
                Some((path, ChangeKind::Modified))
            } else {
                Some((path, ChangeKind::Renamed { from: origin }))
            }
        }
        (Some(Kind::File), _) => Some((path, ChangeKind::Added)),
        (Some(Kind::Submodule), _) => Some((path, ChangeKind::Submodule)),
        (_, Some(Kind::File)) => from.map(|o| (o.path.clone(), ChangeKind::Deleted)),
        (_, Some(Kind::Submodule)) => from.map(|o| (o.path.clone(), ChangeKind::Submodule)),
        _ => None,
    }
}

/// Records `change` at `path`; a deletion and an addition of one path make a modification,
/// and a deletion yields to any other change of the path.
pub(super) fn merge_into(
    kinds: &mut BTreeMap<String, ChangeKind>,
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

/// A record whose content was compared with its origin (or has none to compare with).
fn record(from: Option<Origin>, now: Option<Kind>) -> Record {
    Record {
        from,
        now,
        checked: true,
    }
}

fn new_record(now: Kind) -> Record {
    record(None, Some(now))
}

fn moved(from: Origin, now: gix::index::entry::Mode) -> Record {
    record(Some(from), Some(kind(now)))
}

fn origin(path: String, mode: gix::index::entry::Mode, id: ObjectId) -> Origin {
    Origin {
        path,
        kind: kind(mode),
        id,
    }
}

fn kind(mode: gix::index::entry::Mode) -> Kind {
    use gix::index::entry::Mode;
    if mode == Mode::COMMIT {
        Kind::Submodule
    } else if mode == Mode::SYMLINK {
        Kind::Link
    } else if mode == Mode::FILE || mode == Mode::FILE_EXECUTABLE {
        Kind::File
    } else {
        Kind::Other
    }
}

fn disk_kind(disk: Option<gix::dir::entry::Kind>) -> Option<Kind> {
    match disk? {
        gix::dir::entry::Kind::File => Some(Kind::File),
        gix::dir::entry::Kind::Symlink => Some(Kind::Link),
        _ => None,
    }
}
