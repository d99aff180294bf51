//! The gate's part of docs/src/reference/contracts.md: the directories a change touches are checked, with
//! obligations read from the base's contracts.
//!
//! A directory is touched when it directly holds a changed path (added, modified,
//! deleted, or either side of a rename), and so is every directory above it that is new
//! on the branch (holds no file at the base): a branch that adds `a/b/c/x.md` answers
//! for `a`, `a/b` and `a/b/c` when they are new, never for old ancestors' old findings.

use std::collections::BTreeSet;

use anyhow::Result;

use super::branch_tree::BranchTree;
use crate::contracts::{self, is_readme, Listing, Outcome, Side};
use crate::git::{Change, ChangeKind, TreeSource};
use crate::relpath;

/// Checks the directories `changes` touch in the working tree at `workdir` against the
/// base tree `base`. No change, no check (and no listing).
pub(super) fn check(base: &TreeSource, judged: &BranchTree, changes: &[Change]) -> Result<Outcome> {
    if changes.is_empty() {
        return Ok(Outcome::default());
    }
    // Where the base holds no README above any change, nothing is listed.
    let readme_dirs = base.readme_dirs()?;
    if !changes.iter().any(|c| may_lie_in_a_tree(c, &readme_dirs)) {
        return Ok(Outcome::default());
    }
    let at_base = Listing::new(base.entries()?);
    let work = Listing::new(judged.entries()?);
    let dirs = touched(changes, &work, &at_base);
    contracts::check(
        Side {
            source: judged.source(),
            listing: &work,
        },
        Some(Side {
            source: base,
            listing: &at_base,
        }),
        &dirs,
    )
}

/// The path a change names, and the old path of a rename.
fn paths(change: &Change) -> impl Iterator<Item = &str> {
    let from = match &change.kind {
        ChangeKind::Renamed { from } => Some(from.as_str()),
        _ => None,
    };
    std::iter::once(change.path.as_str()).chain(from)
}

/// False when a change can't lie in a managed tree: it is no README itself (a contract
/// the branch adds or edits) and no directory above it holds a README at the base (an
/// unchanged contract of the working tree is one at the base too). `readme_dirs`: the
/// base's directories that hold a README ([`TreeSource::readme_dirs`]). Saves listing
/// both trees in repositories without contracts.
fn may_lie_in_a_tree(change: &Change, readme_dirs: &BTreeSet<String>) -> bool {
    paths(change).any(|path| {
        let holder = relpath::parent(path);
        let above = relpath::self_and_ancestors(holder);
        is_readme(relpath::file_name(path)) || above.iter().any(|d| readme_dirs.contains(*d))
    })
}

/// The directories of the working tree that `changes` touch.
fn touched(changes: &[Change], work: &Listing, base: &Listing) -> Vec<String> {
    let mut dirs = BTreeSet::new();
    for change in changes {
        for path in paths(change) {
            let holder = relpath::parent(path);
            dirs.insert(holder);
            let above = relpath::self_and_ancestors(holder).into_iter().skip(1);
            dirs.extend(above.take_while(|d| !base.has_dir(d)));
        }
    }
    dirs.into_iter()
        .filter(|d| work.has_dir(d))
        .map(str::to_string)
        .collect()
}
