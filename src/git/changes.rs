//! The changed files of a gate run (docs/src/reference/gate.md step 3): the base tree against the index
//! (leg 1, gix's tree-index status with rename tracking) and the index against the
//! working tree by raw bytes (leg 2, `super::worktree`); the two legs are then merged by
//! path into one final state per path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{anyhow, Result};
use gix::bstr::{BStr, ByteSlice as _};
use gix::diff::index::ChangeRef;
use gix::index::entry::Flags;
use gix::ObjectId;

use super::renames::{self, Pending};
use super::worktree::{self, Kind, Seen};
use super::{merge_into, plain, Change, ChangeKind};
use crate::relpath::Name;

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

/// The changed files between `base_tree` and the working tree at `workdir` (or, with
/// `workdir` `None`, the index: `gate --staged`), sorted; with `only`, those at these
/// paths, the working tree looked at there alone (docs/src/reference/hook.md#speed).
pub(super) fn list(
    repo: &gix::Repository,
    (workdir, only): (Option<&Path>, Option<&[String]>),
    base_tree: ObjectId,
) -> Result<Vec<Change>> {
    let index = repo.index_or_empty().map_err(plain)?;
    if index.is_sparse() {
        return Err(anyhow!(
            "the index is a sparse index (`index.sparse`), which structgate cannot compare \
             with the base; `git sparse-checkout init --no-sparse-index` makes it a full \
             index again"
        ));
    }
    let tree = repo.find_tree(base_tree).map_err(plain)?;
    let at_paths = match (workdir, only) {
        (Some(_), Some(paths)) => tree_index_at(&tree, &index, paths)?,
        _ => None,
    };
    let mut ledger = Ledger::new(tree);
    let (leg1, leg2) = legs(
        repo,
        (workdir, only),
        base_tree,
        (&index, at_paths.is_none()),
    );
    match at_paths {
        Some(records) => ledger.records.extend(records),
        None => {
            for change in &leg1.unwrap_or_else(|| Ok(Vec::new()))? {
                ledger.tree_index(change)?;
            }
        }
    }
    if let Some(seen) = leg2 {
        for item in seen? {
            ledger.worktree(item)?;
        }
    }
    let not_utf8 = std::mem::take(&mut ledger.not_utf8);
    let mut pending = ledger.classify();
    if let Some(workdir) = workdir {
        renames::settle(repo, workdir, &mut pending)?;
    }
    let mut changes: Vec<Change> = pending
        .kinds
        .into_iter()
        .map(|(path, kind)| Change { path, kind })
        .collect();
    changes.extend(not_utf8.into_iter().map(|path| Change {
        path,
        kind: ChangeKind::NameNotUtf8,
    }));
    if let Some(paths) = only {
        changes.retain(|c| paths.contains(&c.path));
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}

/// What leg 1 and leg 2 found, where each ran.
type Legs = (
    Option<Result<Vec<gix::diff::index::Change>>>,
    Option<Result<Vec<Seen>>>,
);

/// Leg 1 (when `whole_tree`: the base tree against the whole index) and leg 2 (when
/// there is a working tree), side by side: each reads the index alone, with a handle on
/// the repository of its own, so the working tree's comparison runs beside leg 1.
fn legs(
    repo: &gix::Repository,
    (workdir, only): (Option<&Path>, Option<&[String]>),
    base_tree: ObjectId,
    (index, whole_tree): (&gix::index::File, bool),
) -> Legs {
    let (repo1, repo2) = (repo.clone(), repo.clone());
    rayon::join(
        move || whole_tree.then(|| tree_index(&repo1, base_tree, index)),
        move || {
            workdir.map(|workdir| match only {
                Some(paths) => worktree::compare_only(&repo2, workdir, index, paths),
                None => worktree::compare(&repo2, workdir, index),
            })
        },
    )
}

/// Leg 1: how the index differs from the base tree, with git's default rename detection
/// (intent-to-add and conflicted entries are not compared: leg 2 reports them).
fn tree_index(
    repo: &gix::Repository,
    base_tree: ObjectId,
    index: &gix::index::File,
) -> Result<Vec<gix::diff::index::Change>> {
    super::base_index::status(repo, base_tree, index)
}

/// Leg 1 at `paths` alone (`structgate hook`, docs/src/reference/hook.md#speed), when each
/// is a file, link or submodule both in the base tree and in the index (one entry, stage
/// 0, not intent-to-add): such a path is unchanged or modified, and git's rename
/// detection pairs only deletions with additions (copies are not looked for), so nothing
/// else in the base or the index bears on what it is. `None` when a path is anything
/// else: the two are compared whole then.
fn tree_index_at(
    tree: &gix::Tree<'_>,
    index: &gix::index::File,
    paths: &[String],
) -> Result<Option<Vec<(String, Record)>>> {
    let mut records = Vec::new();
    for path in paths {
        let Some(entry) = single_entry(index, path) else {
            return Ok(None);
        };
        let Some(base) = tree.lookup_entry_by_path(path).map_err(plain)? else {
            return Ok(None);
        };
        let Some(mode) = index_mode(base.mode()) else {
            return Ok(None);
        };
        let id = base.object_id();
        if entry.id != id || entry.mode != mode {
            let from = origin(path.clone(), mode, id);
            records.push((path.clone(), moved(from, entry.mode)));
        }
    }
    Ok(Some(records))
}

/// The index's one entry at `path`, when it has exactly one, unconflicted and not
/// intent-to-add (what leg 1 compares).
fn single_entry<'i>(index: &'i gix::index::File, path: &str) -> Option<&'i gix::index::Entry> {
    let key: &BStr = path.as_bytes().as_bstr();
    let entries = index.entries();
    let at = entries.partition_point(|e| e.path(index) < key);
    let entry = entries.get(at).filter(|e| e.path(index) == key)?;
    let another = entries.get(at + 1).is_some_and(|e| e.path(index) == key);
    let plain = entry.stage_raw() == 0 && !entry.flags.contains(Flags::INTENT_TO_ADD);
    (plain && !another).then_some(entry)
}

/// The index's mode of a base tree entry, as git reads a tree into an index; `None` for a
/// directory.
fn index_mode(mode: gix::object::tree::EntryMode) -> Option<gix::index::entry::Mode> {
    use gix::index::entry::Mode;
    use gix::object::tree::EntryKind;
    match mode.kind() {
        EntryKind::Tree => None,
        EntryKind::Blob => Some(Mode::FILE),
        EntryKind::BlobExecutable => Some(Mode::FILE_EXECUTABLE),
        EntryKind::Link => Some(Mode::SYMLINK),
        EntryKind::Commit => Some(Mode::COMMIT),
    }
}

struct Ledger<'repo> {
    /// The base tree, where a path that leg 1 didn't mention is looked up.
    base: gix::Tree<'repo>,
    records: BTreeMap<String, Record>,
    /// Changed paths that aren't UTF-8, as git shows them: reported, never judged.
    not_utf8: BTreeSet<String>,
}

impl<'repo> Ledger<'repo> {
    fn new(base: gix::Tree<'repo>) -> Self {
        Ledger {
            base,
            records: BTreeMap::new(),
            not_utf8: BTreeSet::new(),
        }
    }

    /// Leg 1: how the index differs from the base tree.
    fn tree_index(&mut self, change: &gix::diff::index::Change) -> Result<()> {
        let (location, _, mode, id) = change.fields();
        let Some(path) = self.name(location) else {
            return Ok(());
        };
        let record = match change {
            ChangeRef::Addition { .. } | ChangeRef::Rewrite { copy: true, .. } => {
                new_record(Kind::of_mode(mode))
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
                None => new_record(Kind::of_mode(mode)),
            },
        };
        self.records.insert(path, record);
        Ok(())
    }

    /// Leg 2: how the working tree differs from the index.
    fn worktree(&mut self, seen: Seen) -> Result<()> {
        match seen {
            Seen::Tracked { path, now } => {
                let Some(path) = self.name(&path) else {
                    return Ok(());
                };
                let record = match self.records.remove(&path) {
                    Some(record) => record,
                    None => record(self.at_base(&path)?, None),
                };
                let record = Record {
                    now,
                    checked: false,
                    ..record
                };
                self.records.insert(path, record);
            }
            Seen::Untracked { path, now } => {
                let Some(path) = self.name(&path) else {
                    return Ok(());
                };
                let from = self.at_base(&path)?;
                let record = self.records.entry(path).or_insert(record(from, None));
                record.now = Some(now);
            }
        }
        Ok(())
    }

    /// What the base tree holds at `path`, as the origin of the content there.
    fn at_base(&self, path: &str) -> Result<Option<Origin>> {
        let entry = self.base.lookup_entry_by_path(path).map_err(plain)?;
        Ok(entry.map(|e| Origin {
            path: path.to_string(),
            kind: Kind::of_mode(e.mode().into()),
            id: e.object_id(),
        }))
    }

    /// `path` as text, or `None` when it isn't UTF-8: then it is set aside to be reported.
    fn name(&mut self, path: &[u8]) -> Option<String> {
        match crate::relpath::name_of_bytes(path) {
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
        (Some(Kind::Link), _) => Some((path, ChangeKind::Link)),
        (Some(Kind::Submodule), _) => Some((path, ChangeKind::Submodule)),
        (_, Some(Kind::File)) => from.map(|o| (o.path.clone(), ChangeKind::Deleted)),
        (_, Some(Kind::Submodule)) => from.map(|o| (o.path.clone(), ChangeKind::Submodule)),
        _ => None,
    }
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
    record(Some(from), Some(Kind::of_mode(now)))
}

fn origin(path: String, mode: gix::index::entry::Mode, id: ObjectId) -> Origin {
    Origin {
        path,
        kind: Kind::of_mode(mode),
        id,
    }
}
