//! `structgate limits`: each context's effective limits, bands, where each value came
//! from, and its baseline state. The validator a catalog runs: unknown keys are errors.

use std::path::PathBuf;

use anyhow::Result;

use crate::commands::Workspace;
use crate::terms::{self, Terms, TierFiles};

pub struct Request {
    pub cwd: PathBuf,
    pub contexts: Vec<PathBuf>,
}

/// The terms, with the owned files each tier takes (docs/src/reference/documents.md#pins-and-tiers).
pub struct LimitsReport {
    pub terms: Terms,
    /// Per context, in the order of `terms.contexts`, its tiers and their files.
    pub tiers: Vec<Vec<TierFiles>>,
}

pub fn run(request: &Request) -> Result<LimitsReport> {
    let ws = Workspace::open(&request.cwd)?;
    let (terms, _) = ws.terms(&request.cwd, &request.contexts)?;
    terms.refuse_unknown_keys()?;
    let mut terms = terms;
    let tiers = tiers_of(&ws, &mut terms)?;
    // A limit in force that the baseline was never refreshed for
    // (docs/src/reference/baseline.md#terms-and-baseline-out-of-step).
    let unrecorded = crate::report::terms::unrecorded_warnings(&terms);
    terms.warnings.extend(unrecorded);
    Ok(LimitsReport { terms, tiers })
}

/// Each context's tiers with their files; a pattern that matches no owned file is a
/// warning (a stale tier silently does nothing).
pub fn tiers_of(ws: &Workspace, terms: &mut Terms) -> Result<Vec<Vec<TierFiles>>> {
    let mut out = Vec::new();
    for c in &terms.contexts {
        let tiers = if c.declared.tiers.is_empty() {
            Vec::new()
        } else {
            terms::tier_files(&c.declared, &ws.owned_files(&c.context.owned)?)
        };
        terms.warnings.extend(terms::stale_tier_warnings(c, &tiers));
        out.push(tiers);
    }
    Ok(out)
}
