//! `structgate contracts [PATH...]` (docs/src/reference/contracts.md): list the working tree, then check every
//! directory under the paths that lies in a managed tree.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::commands::Workspace;
use crate::contracts::{self, Listing, Outcome, Side};

pub struct Request {
    pub cwd: PathBuf,
    /// Directories to check; empty for the whole repository.
    pub paths: Vec<PathBuf>,
}

pub fn run(request: &Request) -> Result<Outcome> {
    let ws = Workspace::open(&request.cwd)?;
    let mut scopes = Vec::new();
    for path in &request.paths {
        let rel = ws.relative(&request.cwd, path)?;
        if !ws.tree.abs(&rel).is_dir() {
            bail!("{}: not a directory", path.display());
        }
        scopes.push(rel);
    }
    if scopes.is_empty() {
        scopes.push(String::new());
    }
    let listing = Listing::new(contracts::work_entries(
        &ws.root,
        crate::work_tree::Ignores::Local,
    )?);
    let dirs: Vec<String> = listing
        .dirs()
        .filter(|d| scopes.iter().any(|s| crate::relpath::is_within(d, s)))
        .map(str::to_string)
        .collect();
    let work = Side {
        source: &ws.tree,
        listing: &listing,
    };
    contracts::check(work, None, &dirs)
}
