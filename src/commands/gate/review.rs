//! The reviewer's part of a gate run (docs/src/reference/gate.md#integrity): what the branch did to its own terms,
//! compared file by file where the change touches them. Not applied: the gate judges by
//! the base's terms whatever this finds.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::git::{Change, ChangeKind};
use crate::judge;
use crate::source::FileSource;
use crate::terms::diff::{self, Branch, TermChange};
use crate::terms::Terms;

/// The differences between the terms at the base and those the branch's `source` holds,
/// in the files `changes` name (either side of a rename).
pub(super) fn terms_changed(
    terms: &Terms,
    base_tree: &dyn FileSource,
    branch: (&dyn FileSource, u64),
    changes: &[Change],
    repo_name: &str,
) -> Result<Vec<TermChange>> {
    let (source, max_bytes) = branch;
    let mut branch = Branch {
        source,
        max_bytes,
        changed: BTreeSet::new(),
        renames: BTreeMap::new(),
    };
    for change in changes {
        branch.changed.insert(change.path.clone());
        if let ChangeKind::Renamed { from } = &change.kind {
            branch.changed.insert(from.clone());
            branch.renames.insert(change.path.clone(), from.clone());
        }
    }
    let mut changed = diff::changes(terms, base_tree, &branch, repo_name)?;
    for c in &mut changed {
        c.loosens = judge::loosens(&c.term, c.from.as_ref(), c.to.as_ref());
    }
    Ok(changed)
}
