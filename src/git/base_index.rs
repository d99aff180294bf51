//! A base commit's tree read as an index holds it (the left side of leg 1, docs/src/reference/gate.md step 3, and
//! the base's listing), reading only the trees where the base and the index differ: a
//! directory the index's cache tree (git's record of the tree each directory of the index
//! writes) says is the base's very tree takes its entries from the index, not from the
//! tree objects. On a branch of a few changes that is a few trees read instead of every
//! one (docs/src/reference/hook.md#speed). The index is what the gate compares with the
//! base already: its cache tree is trusted as its entries are.

use anyhow::Result;
use gix::bstr::{BStr, BString, ByteSlice as _};
use gix::index::entry::{Flags, Mode, Stat};
use gix::index::extension::Tree as CacheTree;
use gix::index::State;
use gix::object::tree::EntryKind;
use gix::ObjectId;

use super::plain;

/// Leg 1: how `index` differs from the tree `tree`, with git's default rename detection,
/// as `gix::Repository::tree_index_status` tells it (intent-to-add and conflicted entries
/// are not compared: leg 2 reports them).
pub(super) fn status(
    repo: &gix::Repository,
    tree: ObjectId,
    index: &State,
) -> Result<Vec<gix::diff::index::Change>> {
    let base = base_state(repo, tree, index)?;
    let mut resource_cache = repo.diff_resource_cache_for_tree_diff().map_err(plain)?;
    let empty = State::new(repo.object_hash());
    let source = gix::worktree::stack::state::attributes::Source::IdMapping;
    let patterns: Option<&str> = None;
    let pathspec = repo.pathspec(true, patterns, false, &empty, source);
    let (mut search, _) = pathspec.map_err(plain)?.into_parts();
    let rewrites = gix::diff::index::RewriteOptions {
        resource_cache: &mut resource_cache,
        find: repo,
        rewrites: gix::diff::Rewrites::default(),
    };
    let mut changes = Vec::new();
    let collect = |change: gix::diff::index::ChangeRef<'_, '_>| {
        changes.push(change.into_owned());
        Ok(std::ops::ControlFlow::Continue(()))
    };
    // No pattern has attributes: the matching never asks for them.
    let mut no_attributes = |_: &BStr, _, _, _: &mut _| false;
    gix::diff::index(
        &base,
        index,
        collect,
        Some(rewrites),
        &mut search,
        &mut no_attributes,
    )
    .map_err(plain)?;
    Ok(changes)
}

/// The entries of the tree `tree`, as `gix::Repository::index_from_tree` gives them
/// (files, links and submodules, by path), read with the help of `index`'s cache tree.
pub(super) fn base_state(repo: &gix::Repository, tree: ObjectId, index: &State) -> Result<State> {
    base_state_named(repo, tree, index, Named::All)
}

/// Which entries of a tree a read keeps, by file name.
#[derive(Debug, Clone, Copy)]
pub(super) enum Named<'a> {
    All,
    /// Those of this file name.
    Exactly(&'a [u8]),
    /// Those named `README.md` in any letter case (docs/src/reference/contracts.md).
    Readme,
}

impl Named<'_> {
    pub(super) fn keeps(self, name: &[u8]) -> bool {
        match self {
            Named::All => true,
            Named::Exactly(named) => named == name,
            Named::Readme => name.eq_ignore_ascii_case(b"README.md"),
        }
    }
}

/// [`base_state`], keeping only the entries whose file name `named` keeps: the others
/// are passed over, not copied.
pub(super) fn base_state_named(
    repo: &gix::Repository,
    tree: ObjectId,
    index: &State,
    named: Named<'_>,
) -> Result<State> {
    let mut out = State::new(repo.object_hash());
    let mut walk = Walk {
        repo,
        index,
        out: &mut out,
        path: BString::default(),
        named,
    };
    // A sparse index's directory entries are no files: it vouches for nothing.
    let cached = index.tree().filter(|_| !index.is_sparse());
    walk.tree(tree, cached)?;
    Ok(out)
}

struct Walk<'a> {
    repo: &'a gix::Repository,
    index: &'a State,
    out: &'a mut State,
    /// The directory being read, `/`-terminated (empty at the root).
    path: BString,
    /// Which entries are kept.
    named: Named<'a>,
}

impl Walk<'_> {
    /// The entries of the directory `self.path`, whose tree is `id`; `cached` is the
    /// index's cache tree of the same directory, if it has one.
    fn tree(&mut self, id: ObjectId, cached: Option<&CacheTree>) -> Result<()> {
        if cached.is_some_and(|c| c.id == id) && self.copy_from_index(cached) {
            return Ok(());
        }
        let tree = self.repo.find_tree(id).map_err(plain)?;
        for entry in tree.iter() {
            let entry = entry.map_err(plain)?;
            let at = self.path.len();
            self.path.extend_from_slice(entry.filename());
            let mode = match entry.mode().kind() {
                EntryKind::Tree => None,
                EntryKind::Blob => Some(Mode::FILE),
                EntryKind::BlobExecutable => Some(Mode::FILE_EXECUTABLE),
                EntryKind::Link => Some(Mode::SYMLINK),
                EntryKind::Commit => Some(Mode::COMMIT),
            };
            let oid = entry.object_id();
            match mode {
                Some(_) if !self.keeps(entry.filename()) => {}
                Some(mode) => {
                    let path = self.path.as_bstr();
                    self.out.dangerously_push_entry(
                        Stat::default(),
                        oid,
                        Flags::empty(),
                        mode,
                        path,
                    );
                }
                None => {
                    let name = entry.filename();
                    let child = cached.and_then(|c| {
                        c.children
                            .iter()
                            .find(|t| t.name.as_slice() == name.as_bytes())
                    });
                    self.path.push(b'/');
                    self.tree(oid, child)?;
                }
            }
            self.path.truncate(at);
        }
        Ok(())
    }

    /// True when an entry of file name `name` is kept.
    fn keeps(&self, name: &[u8]) -> bool {
        self.named.keeps(name)
    }

    /// Copies the index's entries under `self.path` when its cache tree there is valid and
    /// counts exactly them, each unconflicted and not intent-to-add; false (nothing
    /// copied) otherwise.
    fn copy_from_index(&mut self, cached: Option<&CacheTree>) -> bool {
        let Some(count) = cached.and_then(|c| c.num_entries) else {
            return false;
        };
        let (index, prefix): (&State, &BStr) = (self.index, self.path.as_bstr());
        let all = index.entries();
        let low = all.partition_point(|e| e.path(index) < prefix);
        let high = low + all[low..].partition_point(|e| e.path(index).starts_with(prefix));
        let entries = &all[low..high];
        let plain =
            |e: &&gix::index::Entry| e.stage_raw() == 0 && !e.flags.contains(Flags::INTENT_TO_ADD);
        if usize::try_from(count).ok() != Some(entries.len()) || !entries.iter().all(|e| plain(&e))
        {
            return false;
        }
        for e in entries {
            let path = e.path(self.index);
            if !self.keeps(path.rsplit(|b| *b == b'/').next().unwrap_or(path)) {
                continue;
            }
            self.out
                .dangerously_push_entry(Stat::default(), e.id, Flags::empty(), e.mode, path);
        }
        true
    }
}
