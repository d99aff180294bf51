//! Renames across the two status legs (docs/src/reference/gate.md step 3). Each leg finds the moves it can
//! see, but a move split between them — `mv a b && git add b` (b staged, a deleted only
//! in the working tree), or `git rm --cached a` with `a`'s content untracked elsewhere —
//! leaves a deleted and an added file. This pass pairs those the way gix pairs renames:
//! identical content first, then line similarity of at least 50% (git's default), the
//! more similar source winning and a same file name breaking ties.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::{Context as _, Result};
use gix::diff::blob::{sources::byte_lines, Algorithm, Diff, InternedInput};
use gix::ObjectId;

use super::{merge_into, ChangeKind, Explain as _};
use crate::source::{self, Entry};

/// git's default rename threshold.
const MIN_SIMILARITY: f32 = 0.5;
/// git's default `diff.renameLimit`: above `limit²` candidate pairs only identical
/// content is paired.
const RENAME_LIMIT: usize = 1000;
/// Larger files are paired only by identical content.
const MAX_SIMILARITY_BYTES: usize = 16 << 20;
/// git treats content with a NUL byte among its first 8000 bytes as binary.
const BINARY_PROBE: usize = 8000;

/// One side of a candidate pair: a deleted file's base content or an added file's
/// working-tree content.
struct Side {
    path: String,
    data: Vec<u8>,
}

impl Side {
    fn file_name(&self) -> &str {
        crate::relpath::file_name(&self.path)
    }

    fn is_text_and_small(&self) -> bool {
        let probe = &self.data[..self.data.len().min(BINARY_PROBE)];
        self.data.len() <= MAX_SIMILARITY_BYTES && !probe.contains(&0)
    }
}

/// The changes of a run before renames are settled.
#[derive(Debug, Default)]
pub(super) struct Pending {
    pub(super) kinds: BTreeMap<String, ChangeKind>,
    /// The base blob of every deleted path and of every renamed file's old path.
    pub(super) base_ids: HashMap<String, ObjectId>,
    /// New paths of renames that no single leg saw whole, to check against the base.
    pub(super) unchecked: Vec<String>,
}

/// Checks the renames no leg saw whole, undoes those whose old path is still there, then
/// pairs leftover deletions and additions.
pub(super) fn settle(repo: &gix::Repository, workdir: &Path, pending: &mut Pending) -> Result<()> {
    verify(repo, workdir, pending)?;
    split_copies(workdir, pending)?;
    pair_leftovers(repo, workdir, pending)
}

/// A rename is honoured only when its old path is gone from the working tree (docs/src/reference/gate.md#integrity):
/// with a file there again (`git mv a b`, then a copy put back at `a`), the new path is a
/// copy, new on the branch and without allowance, and the old path is judged as it is (or
/// not at all when it holds the base's bytes).
fn split_copies(workdir: &Path, pending: &mut Pending) -> Result<()> {
    let renames: Vec<(String, String)> = pending
        .kinds
        .iter()
        .filter_map(|(to, kind)| match kind {
            ChangeKind::Renamed { from } => Some((from.clone(), to.clone())),
            _ => None,
        })
        .collect();
    for (from, to) in renames {
        if !matches!(source::entry_in(workdir, &from)?, Entry::File { .. }) {
            continue;
        }
        pending.kinds.insert(to, ChangeKind::Added);
        let unchanged = match (
            source::read_in(workdir, &from)?,
            pending.base_ids.get(&from),
        ) {
            (Some(bytes), Some(id)) => crate::git::blob_id(&bytes).0 == id.as_bytes(),
            _ => false,
        };
        if unchanged {
            pending.kinds.remove(&from);
        } else {
            pending.kinds.insert(from, ChangeKind::Modified);
        }
    }
    Ok(())
}

/// A rename whose final content is less than 50% like its base content becomes a
/// deletion and an addition, as git would see it comparing the base with the working tree.
fn verify(repo: &gix::Repository, workdir: &Path, pending: &mut Pending) -> Result<()> {
    for to in std::mem::take(&mut pending.unchecked) {
        let Some(ChangeKind::Renamed { from }) = pending.kinds.get(&to).cloned() else {
            continue;
        };
        let Some(id) = pending.base_ids.get(&from) else {
            continue;
        };
        let source = load_blob(repo, &from, *id)?;
        let similar = load_file(workdir, &to)?.is_some_and(|dest| {
            dest.data == source.data
                || similarity(&source, &dest).is_some_and(|s| s >= MIN_SIMILARITY)
        });
        if !similar {
            pending.kinds.insert(to, ChangeKind::Added);
            merge_into(&mut pending.kinds, from, ChangeKind::Deleted);
        }
    }
    Ok(())
}

/// Turns pairs of `Deleted` and `Added` entries into renames.
fn pair_leftovers(repo: &gix::Repository, workdir: &Path, pending: &mut Pending) -> Result<()> {
    let mut deleted = Vec::new();
    let mut added = Vec::new();
    for (path, kind) in &pending.kinds {
        match (kind, pending.base_ids.get(path)) {
            (ChangeKind::Deleted, Some(id)) => deleted.push((path, *id)),
            (ChangeKind::Added, _) => added.push(path),
            _ => {}
        }
    }
    if deleted.is_empty() || added.is_empty() {
        return Ok(());
    }
    let sources = nonempty(
        deleted
            .into_iter()
            .map(|(p, id)| load_blob(repo, p, id).map(Some)),
    )?;
    let dests = nonempty(added.into_iter().map(|p| load_file(workdir, p)))?;
    for (s, d) in match_pairs(&sources, &dests) {
        let from = sources[s].path.clone();
        pending.kinds.remove(&from);
        pending
            .kinds
            .insert(dests[d].path.clone(), ChangeKind::Renamed { from });
    }
    Ok(())
}

/// The sides that exist and aren't empty (empty files take no part, like in git and gix).
fn nonempty(sides: impl Iterator<Item = Result<Option<Side>>>) -> Result<Vec<Side>> {
    let mut kept = Vec::new();
    for side in sides {
        kept.extend(side?.filter(|s| !s.data.is_empty()));
    }
    Ok(kept)
}

/// The base content of `path`.
fn load_blob(repo: &gix::Repository, path: &str, id: ObjectId) -> Result<Side> {
    let blob = repo
        .find_blob(id)
        .explain(|| format!("reading the base version of {path} (blob {id})"))?;
    Ok(Side {
        path: path.to_string(),
        data: blob.detach().data,
    })
}

/// The working-tree content of `path`; `None` unless it is a regular file.
fn load_file(workdir: &Path, path: &str) -> Result<Option<Side>> {
    let abs = workdir.join(path);
    let data = match std::fs::symlink_metadata(&abs) {
        Ok(meta) if meta.is_file() => {
            std::fs::read(&abs).with_context(|| format!("reading {path}"))?
        }
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {path}")),
    };
    Ok(Some(Side {
        path: path.to_string(),
        data,
    }))
}

/// `(source, destination)` index pairs, each source used at most once.
fn match_pairs(sources: &[Side], dests: &[Side]) -> Vec<(usize, usize)> {
    let mut used = vec![false; sources.len()];
    let mut pairs = Vec::new();
    let mut open = Vec::new();
    for (d, dest) in dests.iter().enumerate() {
        let identical = |s: &Side| s.data == dest.data;
        match best_by(sources, &used, dest, |s| identical(s).then_some(1.0)) {
            Some(s) => {
                used[s] = true;
                pairs.push((s, d));
            }
            None => open.push(d),
        }
    }
    if sources.len().saturating_mul(open.len()) > RENAME_LIMIT * RENAME_LIMIT {
        return pairs;
    }
    for d in open {
        let dest = &dests[d];
        if !dest.is_text_and_small() {
            continue;
        }
        let score = |s: &Side| similarity(s, dest).filter(|sim| *sim >= MIN_SIMILARITY);
        if let Some(s) = best_by(sources, &used, dest, score) {
            used[s] = true;
            pairs.push((s, d));
        }
    }
    pairs
}

/// The unused source with the highest score; at equal scores, one with `dest`'s file name.
fn best_by(
    sources: &[Side],
    used: &[bool],
    dest: &Side,
    score: impl Fn(&Side) -> Option<f32>,
) -> Option<usize> {
    let mut best: Option<(usize, f32, bool)> = None;
    for (s, source) in sources.iter().enumerate() {
        if used.get(s).copied().unwrap_or(true) {
            continue;
        }
        let Some(value) = score(source) else {
            continue;
        };
        let same_name = source.file_name() == dest.file_name();
        let better = best.is_none_or(|(_, b_value, b_same)| {
            value > b_value || (value == b_value && same_name && !b_same)
        });
        if better {
            best = Some((s, value, same_name));
        }
    }
    best.map(|(s, _, _)| s)
}

/// gix's rename similarity: the share of the source's bytes (by lines) that survive into
/// the destination, over the larger of the two sizes. `None` for binary or huge content.
fn similarity(old: &Side, new: &Side) -> Option<f32> {
    if !old.is_text_and_small() {
        return None;
    }
    let (small, large) = (
        old.data.len().min(new.data.len()),
        old.data.len().max(new.data.len()),
    );
    if (small as f32) < (large as f32) * MIN_SIMILARITY {
        return None;
    }
    let input = InternedInput::new(byte_lines(&old.data), byte_lines(&new.data));
    let diff = Diff::compute(Algorithm::Histogram, &input);
    let removed: usize = diff
        .hunks()
        .map(|hunk| {
            let range = hunk.before.start as usize..hunk.before.end as usize;
            let tokens = input.before.get(range).unwrap_or_default();
            tokens
                .iter()
                .map(|t| input.interner[*t].len())
                .sum::<usize>()
        })
        .sum();
    Some(old.data.len().saturating_sub(removed) as f32 / large as f32)
}
