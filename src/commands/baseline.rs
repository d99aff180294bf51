//! `structgate baseline init|refresh`: measure every owned file through the same path as
//! `measure`, apply the ratchet rules of `crate::baseline`, write atomically.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::baseline::{tsv, Baseline};
use crate::cache::{self, Cache};
use crate::commands::Workspace;
use crate::judge::ratchet::{self, Changes};
use crate::judge::Exit;
use crate::measure::{self, Options};
use crate::model::{FileOutcome, UnitValue};
use crate::source::FileSource;
use crate::terms::{ContextTerms, Terms};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Init,
    Refresh,
}

pub struct Request {
    pub cwd: PathBuf,
    pub contexts: Vec<PathBuf>,
    pub check: bool,
    pub mode: Mode,
    pub options: Options,
    /// Use the measurement cache (`--no-cache` turns it off).
    pub cache: bool,
}

/// What happened to one context's baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The context declares no limits: nothing written.
    NoLimits,
    /// `refresh` of a context without a baseline.
    NoBaseline,
    /// A new baseline (init).
    Created,
    /// An existing baseline changed (init: newly owned directories; refresh).
    Updated,
    /// Nothing to change.
    Unchanged,
}

#[derive(Debug, Clone)]
pub struct ContextResult {
    pub name: String,
    pub baseline_path: String,
    pub action: Action,
    pub changes: Changes,
    /// Entries in the baseline after the run (or that would be, with `--check`).
    pub entries: usize,
}

#[derive(Debug, Clone)]
pub struct BaselineReport {
    pub mode: Mode,
    pub check: bool,
    pub results: Vec<ContextResult>,
    pub warnings: Vec<String>,
    /// `path: syntax errors at lines ...; measured what parsed`, one per file.
    pub syntax_errors: Vec<String>,
    /// What the measurement cache did.
    pub cache: cache::Stats,
}

impl BaselineReport {
    /// `--check` fails when any baseline would change.
    pub fn would_change(&self) -> bool {
        self.results
            .iter()
            .any(|r| matches!(r.action, Action::Created | Action::Updated))
    }

    /// `1` when `--check` finds a baseline that would change, else `0`.
    pub fn exit(&self) -> Exit {
        Exit::of_baseline(self.check, self.would_change())
    }
}

pub fn run(request: &Request) -> Result<BaselineReport> {
    run_with(request, &measure::NoProgress)
}

/// [`run`], telling `progress` of each file measured.
pub fn run_with(request: &Request, progress: &dyn measure::Progress) -> Result<BaselineReport> {
    let ws = Workspace::open(&request.cwd)?;
    let (mut terms, _) = ws.terms(&request.cwd, &request.contexts)?;
    // The baseline's header writes the terms down: a misspelt key would be recorded
    // as a missing limit (docs/src/reference/limits.md).
    terms.refuse_unknown_keys()?;
    // A stale tier pattern does nothing, here as in `limits`
    // (docs/src/reference/documents.md#pins-and-tiers).
    crate::commands::limits::tiers_of(&ws, &mut terms)?;
    let mut warnings = terms.all_warnings();
    if request.mode == Mode::Init {
        // init keeps an existing baseline, header and all: a limit it doesn't record
        // stays unrecorded until a refresh (docs/src/reference/baseline.md#terms-and-baseline-out-of-step).
        warnings.extend(crate::report::terms::unrecorded_warnings(&terms));
    }
    let cache = Cache::open_for_tree(ws.repo.as_ref(), request.cache);
    let mut syntax_errors = Vec::new();
    let measured = measure_owned(
        &ws,
        &terms,
        &request.options,
        (&mut warnings, &mut syntax_errors),
        progress,
        &cache,
    );
    let cache = cache.finish();
    let values = measured?;
    let mut results = Vec::new();
    for ctx in &terms.contexts {
        let owned_values = values.get(&ctx.context.dir).map_or(&[][..], |v| &v[..]);
        let (result, next) = decide(&ws, request.mode, ctx, owned_values)?;
        if !request.check && matches!(result.action, Action::Created | Action::Updated) {
            if let Some(next) = next {
                write(&ws, &result.baseline_path, &next)?;
            }
        }
        if !request.check {
            warnings.extend(remove_leftovers(&ws, &result.baseline_path));
        }
        results.push(result);
    }
    Ok(BaselineReport {
        mode: request.mode,
        check: request.check,
        results,
        warnings,
        syntax_errors,
        cache,
    })
}

/// Measures every file the chosen contexts own, once, grouped by owning context dir;
/// warnings, and syntax errors apart, go to `said`.
fn measure_owned(
    ws: &Workspace,
    terms: &Terms,
    options: &Options,
    said: (&mut Vec<String>, &mut Vec<String>),
    progress: &dyn measure::Progress,
    memo: &dyn measure::Memo,
) -> Result<BTreeMap<String, Vec<UnitValue>>> {
    let mut targets: Vec<String> = terms
        .contexts
        .iter()
        .filter(|c| c.limits.is_some())
        .flat_map(|c| c.context.owned.iter().cloned())
        .filter(|entry| ws.tree.holds_entry(entry))
        .collect();
    targets.sort();
    targets.dedup();
    if targets.is_empty() {
        return Ok(BTreeMap::new());
    }
    measure_grouped(ws, terms, &targets, options, said, progress, memo)
}

/// Measures the files at or below `targets` through the working tree's one listing,
/// grouping the values of each owned file by the directory of the context that owns it;
/// warnings and syntax errors go to `said`, a skipped file as a warning.
pub(super) fn measure_grouped(
    ws: &Workspace,
    terms: &Terms,
    targets: &[String],
    options: &Options,
    said: (&mut Vec<String>, &mut Vec<String>),
    progress: &dyn measure::Progress,
    memo: &dyn measure::Memo,
) -> Result<BTreeMap<String, Vec<UnitValue>>> {
    let mut grouped: BTreeMap<String, Vec<UnitValue>> = BTreeMap::new();
    let (warnings, syntax_errors) = said;
    let mut seen = std::collections::BTreeSet::new();
    let reads_imports = |path: &str| terms.reads_imports(path);
    // Files their context's exclude globs name are left out unread.
    let memo = measure::Excluding {
        memo,
        contexts: &terms.index,
    };
    let outcomes =
        measure::measure_tree_in(&ws.tree, targets, options, progress, &memo, &reads_imports)?;
    for outcome in outcomes {
        if !seen.insert(outcome.path().to_string()) {
            continue;
        }
        match outcome {
            FileOutcome::Measured(m) => {
                warnings.extend(m.warnings.iter().map(|w| format!("{}: {w}", m.path)));
                syntax_errors.extend(m.syntax_errors.iter().map(|w| format!("{}: {w}", m.path)));
                if let Some(owner) = terms.index.owner(&m.path) {
                    grouped
                        .entry(owner.dir.clone())
                        .or_default()
                        .extend(m.values());
                }
            }
            FileOutcome::Skipped { path, reason } => {
                warnings.push(format!("{path}: skipped: {reason}"));
            }
            FileOutcome::LeftOut { .. } => {}
        }
    }
    Ok(grouped)
}

fn decide(
    ws: &Workspace,
    mode: Mode,
    ctx: &ContextTerms,
    values: &[UnitValue],
) -> Result<(ContextResult, Option<Baseline>)> {
    let baseline_path = ctx.context.baseline_path();
    let mut result = ContextResult {
        name: ctx.context.name.clone(),
        baseline_path: baseline_path.clone(),
        action: Action::NoLimits,
        changes: Changes::default(),
        entries: ctx.baseline.as_ref().map_or(0, |b| b.entries.len()),
    };
    let Some(limits) = &ctx.limits else {
        return Ok((result, None));
    };
    let owned = &ctx.context.owned;
    let (next, changes) = match (mode, &ctx.baseline) {
        (Mode::Init, existing) => ratchet::init(existing.as_ref(), limits, owned, values),
        (Mode::Refresh, Some(existing)) => {
            let renames = ws.baseline_renames(ctx)?;
            ratchet::refresh(existing, limits, owned, values, &renames)
        }
        (Mode::Refresh, None) => {
            result.action = Action::NoBaseline;
            return Ok((result, None));
        }
    };
    let mut changes = changes;
    if mode == Mode::Refresh {
        changes.canonicalised = !is_canonical(ws, &baseline_path, ctx.baseline.as_ref())?;
    }
    result.action = match &ctx.baseline {
        None => Action::Created,
        Some(old) if *old == next && !changes.canonicalised => Action::Unchanged,
        Some(_) => Action::Updated,
    };
    result.entries = next.entries.len();
    result.changes = changes;
    Ok((result, Some(next)))
}

/// True when the baseline file's bytes are the canonical rendering of what was read from
/// it (no duplicate entries, sorted, LF, the header as written): `refresh` rewrites any
/// other file, even when no entry changes (docs/src/reference/baseline.md).
fn is_canonical(ws: &Workspace, baseline_path: &str, read: Option<&Baseline>) -> Result<bool> {
    let Some(read) = read else {
        return Ok(true);
    };
    let bytes = ws.tree.read(baseline_path)?;
    Ok(bytes.is_none_or(|bytes| bytes == tsv::render(read).as_bytes()))
}

/// Removes what interrupted writes of this baseline left behind; one warning each.
fn remove_leftovers(ws: &Workspace, baseline_path: &str) -> Vec<String> {
    let removed = crate::baseline::leftovers::remove_stale_temps(&ws.tree.abs(baseline_path));
    removed
        .iter()
        .map(|temp| {
            let shown = crate::relpath::rel_path(&ws.root, temp)
                .unwrap_or_else(|_| temp.display().to_string());
            format!("removed {shown}, left by an interrupted baseline write")
        })
        .collect()
}

fn write(ws: &Workspace, baseline_path: &str, next: &Baseline) -> Result<()> {
    let text = tsv::render(next);
    let unchanged = ws
        .tree
        .read(baseline_path)?
        .is_some_and(|old| old == text.as_bytes());
    if unchanged {
        return Ok(());
    }
    tsv::write_atomic(&ws.tree.abs(baseline_path), text.as_bytes())
        .with_context(|| format!("writing baseline {baseline_path}"))
}
