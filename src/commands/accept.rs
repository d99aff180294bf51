//! `structgate baseline accept PATH...` (docs/src/reference/documents.md#pins-and-tiers): records a deliberate growth of
//! pinned units, within their bands, measured through the same path as `measure`; all or
//! nothing, written atomically.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};

use crate::baseline::{tsv, Baseline};
use crate::cache::{self, Cache};
use crate::commands::Workspace;
use crate::context;
use crate::judge::ratchet::{self, Accepted};
use crate::judge::Exit;
use crate::measure::{self, Options};
use crate::model::UnitValue;
use crate::relpath;
use crate::terms::Terms;

pub struct Request {
    pub cwd: PathBuf,
    pub paths: Vec<PathBuf>,
    pub check: bool,
    pub options: Options,
    pub cache: bool,
}

/// What `accept` decided for one context's baseline.
#[derive(Debug, Clone)]
pub struct ContextAccepted {
    pub name: String,
    pub baseline_path: String,
    pub accepted: Accepted,
}

#[derive(Debug, Clone)]
pub struct AcceptReport {
    pub check: bool,
    pub contexts: Vec<ContextAccepted>,
    /// True when the baselines were written (nothing refused, not `--check`, something
    /// raised).
    pub written: bool,
    pub warnings: Vec<String>,
    pub cache: cache::Stats,
}

impl AcceptReport {
    pub fn refused(&self) -> usize {
        self.contexts.iter().map(|c| c.accepted.refused.len()).sum()
    }

    pub fn raised(&self) -> usize {
        self.contexts.iter().map(|c| c.accepted.raised.len()).sum()
    }

    /// `1` when a value is refused, or with `--check` when anything would be raised.
    pub fn exit(&self) -> Exit {
        Exit::of_accept(self.check, self.refused(), self.raised())
    }
}

pub fn run(request: &Request) -> Result<AcceptReport> {
    let ws = Workspace::open(&request.cwd)?;
    let (terms, _) = ws.terms(&request.cwd, &[])?;
    let mut warnings = terms.all_warnings();
    let targets = owned_targets(&ws, request, &terms)?;
    let memo = Cache::open_for_tree(ws.repo.as_ref(), request.cache);
    let values = measure_targets(
        &ws,
        &terms,
        &targets,
        &request.options,
        &memo,
        &mut warnings,
    );
    let cache = memo.finish();
    let mut contexts = Vec::new();
    let mut next = Vec::new();
    for (dir, values) in values? {
        let Some(ctx) = terms.contexts.iter().find(|c| c.context.dir == dir) else {
            continue;
        };
        let (Some(limits), Some(existing)) = (&ctx.limits, &ctx.baseline) else {
            if ctx.limits.is_some() {
                bail!(
                    "{}: context {} has no baseline ({} does not exist; run `structgate baseline init`)",
                    relpath::shown(&dir),
                    ctx.context.name,
                    ctx.context.baseline_path()
                );
            }
            continue;
        };
        let (baseline, accepted) = ratchet::accept(existing, limits, &values);
        next.push((ctx.context.baseline_path(), baseline));
        contexts.push(ContextAccepted {
            name: ctx.context.name.clone(),
            baseline_path: ctx.context.baseline_path(),
            accepted,
        });
    }
    let mut report = AcceptReport {
        check: request.check,
        contexts,
        written: false,
        warnings,
        cache,
    };
    if !request.check && report.refused() == 0 && report.raised() > 0 {
        write_all(&ws, &next)?;
        report.written = true;
    }
    Ok(report)
}

/// The PATHs as root-relative paths; an error naming the first that no context owns.
fn owned_targets(ws: &Workspace, request: &Request, terms: &Terms) -> Result<Vec<String>> {
    let mut targets = Vec::new();
    for path in &request.paths {
        let rel = ws.relative(&request.cwd, path)?;
        let owned = terms.contexts.iter().any(|c| {
            c.context
                .owned
                .iter()
                .any(|entry| context::owns(entry, &rel) || relpath::holds(&rel, entry))
        });
        if !owned {
            bail!("{}: no context owns it", relpath::shown(&rel));
        }
        targets.push(rel);
    }
    Ok(targets)
}

/// Writes every baseline, each atomically.
fn write_all(ws: &Workspace, next: &[(String, Baseline)]) -> Result<()> {
    for (path, baseline) in next {
        tsv::write_atomic(&ws.tree.abs(path), tsv::render(baseline).as_bytes())
            .with_context(|| format!("writing baseline {path}"))?;
    }
    Ok(())
}

/// Measures the files at or below `targets` as the baseline commands do, grouping the
/// values of each owned file by the directory of the context that owns it.
fn measure_targets(
    ws: &Workspace,
    terms: &Terms,
    targets: &[String],
    options: &Options,
    memo: &dyn measure::Memo,
    warnings: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<UnitValue>>> {
    let mut syntax_errors = Vec::new();
    let said = (&mut *warnings, &mut syntax_errors);
    let grouped = super::baseline::measure_grouped(
        ws,
        terms,
        targets,
        options,
        said,
        &measure::NoProgress,
        memo,
    )?;
    // A file parsed with recovery is measured for what parsed, and said so.
    warnings.extend(syntax_errors);
    Ok(grouped)
}
