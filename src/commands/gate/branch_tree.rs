//! What the gate judges (docs/src/reference/gate.md step 3, docs/src/reference/gate.md#integrity): the working tree, or with `--staged`
//! the index, each file as its staged blob holds it (the pre-commit mode).

use anyhow::Result;

use crate::git::{Change, IndexSource, Repo};
use crate::source::{FileSource, Listed};
use crate::work_tree::WorkTree;

/// The branch as the gate reads it: its working tree, or with `--staged` its index.
pub(super) enum BranchTree {
    WorkTree(WorkTree),
    Index(Box<IndexSource>),
}

impl BranchTree {
    /// The working tree at `workdir`, or with `staged` the repository's index.
    pub(super) fn open(repo: &Repo, workdir: &std::path::Path, staged: bool) -> Result<BranchTree> {
        Ok(if staged {
            BranchTree::Index(Box::new(repo.index_source()?))
        } else {
            BranchTree::WorkTree(WorkTree::new(workdir).for_gate())
        })
    }

    /// The files changed since `base` on this side; with `only`, those at these paths.
    pub(super) fn changes(
        &self,
        repo: &Repo,
        base: &str,
        only: Option<&[String]>,
    ) -> Result<Vec<Change>> {
        let mut changes = match (self, only) {
            (BranchTree::WorkTree(_), Some(only)) => return repo.changes_of(base, only),
            (BranchTree::WorkTree(_), None) => repo.changes(base)?,
            (BranchTree::Index(_), _) => repo.staged_changes(base)?,
        };
        if let Some(only) = only {
            changes.retain(|c| only.contains(&c.path));
        }
        Ok(changes)
    }

    pub(super) fn source(&self) -> &dyn FileSource {
        match self {
            BranchTree::WorkTree(w) => w,
            BranchTree::Index(i) => i.as_ref(),
        }
    }

    /// Every file and link, for directory contracts (docs/src/reference/contracts.md).
    pub(super) fn entries(&self) -> Result<Vec<Listed>> {
        match self {
            BranchTree::WorkTree(w) => crate::contracts::work_entries(w.root(), w.ignores()),
            BranchTree::Index(i) => Ok(i.entries()),
        }
    }

    /// The files of a measured language any of the owned entries `dirs` holds, sorted.
    pub(super) fn measured_under(&self, dirs: &[String]) -> Result<Vec<String>> {
        match self {
            BranchTree::WorkTree(w) => {
                let dirs: Vec<String> = dirs.iter().filter(|d| w.holds_entry(d)).cloned().collect();
                if dirs.is_empty() {
                    return Ok(Vec::new());
                }
                crate::measure::list_measured(w.root(), &dirs, w.ignores())
            }
            BranchTree::Index(i) => Ok(i
                .files_under(dirs)
                .into_iter()
                .filter(|p| crate::model::Language::of_path(p).is_some())
                .collect()),
        }
    }
}
