//! The terms a context is judged by — its `context.yaml`, `principles.md` Limits and
//! `structure-baseline.tsv` — read together from one [`FileSource`]: the working tree for
//! `measure`, `limits` and `baseline`, the merge-base's tree for `gate` (docs/src/reference/gate.md step 2).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::baseline::{tsv, Allowances, Baseline};
use crate::context::{self, Context, Contexts};
use crate::limits::{self, Limits, LimitsRead, UnknownKey};
use crate::model::Metric;
use crate::source::{Entry, FileSource};

pub mod diff;

/// One context with its limits and baseline.
#[derive(Debug, Clone)]
pub struct ContextTerms {
    pub context: Context,
    /// `None` when the context declares no limits (no principles.md, no `## Limits`, no
    /// fence, an empty fence, or a fence that limits no metric).
    pub limits: Option<Limits>,
    /// Every value as read (also when it limits nothing), for `structgate limits`.
    pub declared: Limits,
    pub principles_found: bool,
    /// Why `principles.md` limits nothing, when it is there and does.
    pub no_limits: Option<limits::NoLimits>,
    /// Unknown keys of principles.md, each with its file and line.
    pub unknown_keys: Vec<UnknownKey>,
    /// The line of principles.md that sets each known key.
    pub key_lines: BTreeMap<String, usize>,
    pub baseline: Option<Baseline>,
    /// The branch's baseline, read only by `gate --accept-growth` (docs/src/reference/documents.md#pins-and-tiers).
    pub branch_baseline: Option<Baseline>,
}

impl ContextTerms {
    /// What this context's baseline tolerates for the files it owns.
    pub fn allowances(&self) -> Allowances<'_> {
        Allowances {
            own: self.baseline.as_ref(),
            renamed_from: None,
            accepted: self.branch_baseline.as_ref(),
            renamed_limits: None,
            moved: None,
        }
    }

    /// Each limit and pin its terms set that its baseline's `# measured with:` header
    /// doesn't record (a metric added to an existing context without a refresh): judged
    /// all the same, and said (docs/src/reference/baseline.md#terms-and-baseline-out-of-step).
    /// Nothing without limits, a baseline or that header.
    pub fn unrecorded(&self) -> Vec<Unrecorded> {
        let recorded = self
            .baseline
            .as_ref()
            .and_then(|b| b.measured_with.as_ref());
        let (Some(limits), Some(recorded)) = (&self.limits, recorded) else {
            return Vec::new();
        };
        let line = |key: &str| self.key_lines.get(key).copied().unwrap_or(0);
        let tiered = limits.tiers.iter().flat_map(|t| t.values.keys().copied());
        let limited: BTreeSet<Metric> = limits.values.keys().copied().chain(tiered).collect();
        let mut out = Vec::new();
        for metric in limited {
            let key = if limits.values.contains_key(&metric) {
                metric.key()
            } else if recorded_in_a_tier(recorded, metric) {
                continue;
            } else {
                limits::TIERS_KEY
            };
            if !recorded.contains_key(metric.key()) {
                let (key, line) = (key.to_string(), line(key));
                out.push(Unrecorded {
                    metric,
                    pinned: false,
                    key,
                    line,
                });
            }
        }
        for metric in &limits.pinned {
            if !recorded.contains_key(&format!("{}.{}", limits::PINNED_KEY, metric.key())) {
                let (key, line) = (limits::PINNED_KEY.to_string(), line(limits::PINNED_KEY));
                out.push(Unrecorded {
                    metric: *metric,
                    pinned: true,
                    key,
                    line,
                });
            }
        }
        out
    }
}

/// True when `# measured with:` records `metric` for some tier (`tier.NAME.KEY`).
fn recorded_in_a_tier(recorded: &BTreeMap<String, u64>, metric: Metric) -> bool {
    recorded.keys().any(|k| {
        let tiered = k
            .strip_prefix("tier.")
            .and_then(|rest| rest.rsplit_once('.'));
        tiered.is_some_and(|(_, key)| key == metric.key())
    })
}

/// A limit or pin of a context's terms that its baseline's header doesn't record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrecorded {
    pub metric: Metric,
    /// Pinned (`pinned` names it) rather than limited.
    pub pinned: bool,
    /// The Limits key that sets it: the metric's own, `tiers` (set by tiers alone) or
    /// `pinned`.
    pub key: String,
    /// The line of principles.md that sets that key.
    pub line: usize,
}

/// The terms of every context of a source.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    /// The chosen contexts (all, or those named by `--context`), sorted by directory.
    pub contexts: Vec<ContextTerms>,
    /// Warnings met while reading (duplicate baseline entries, ...).
    pub warnings: Vec<String>,
    /// Every context of the source: ownership is decided among all of them, so a file
    /// of an unchosen context is never billed to a chosen one.
    pub index: Contexts,
}

impl Terms {
    /// What reading them warned of: the readers' warnings (duplicate baseline entries,
    /// links not followed), then each context's unknown Limits keys (docs/src/reference/limits.md).
    pub fn all_warnings(&self) -> Vec<String> {
        let unknown = self.contexts.iter().flat_map(|c| &c.unknown_keys);
        let unknown = unknown.map(ToString::to_string);
        self.warnings.iter().cloned().chain(unknown).collect()
    }

    /// Refuses unknown Limits keys, every one named (file, line, key, the nearest known
    /// key): what `limits` validates and the baseline commands write down (docs/src/reference/limits.md).
    pub fn refuse_unknown_keys(&self) -> Result<()> {
        let unknown: Vec<String> = self
            .contexts
            .iter()
            .flat_map(|c| c.unknown_keys.iter().map(ToString::to_string))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        anyhow::bail!("{}", unknown.join("\n"))
    }

    /// The terms of the context that owns `path`.
    pub fn owner(&self, path: &str) -> Option<&ContextTerms> {
        Some(&self.contexts[self.owner_index(path)?])
    }

    /// Whether a Markdown document at `path` has its eager imports and its chain read:
    /// only where the terms of the context that owns it set `loaded_bytes` or
    /// `chain_bytes` (for its tier, where it has one), so a context that budgets no
    /// imports pays nothing for them and hears no warning about them
    /// (docs/src/reference/documents.md).
    pub fn reads_imports(&self, path: &str) -> bool {
        let limits = self.owner(path).and_then(|c| c.limits.as_ref());
        limits.is_some_and(|l| {
            let file = l.for_file(path, false);
            file.limit(Metric::LoadedBytes).is_some() || file.limit(Metric::ChainBytes).is_some()
        })
    }

    /// Where the terms of the context that owns `path` are in [`Terms::contexts`].
    pub fn owner_index(&self, path: &str) -> Option<usize> {
        let owner = self.index.owner(path)?;
        self.contexts
            .iter()
            .position(|c| c.context.dir == owner.dir)
    }
}

/// One tier of a context with the owned files that take it (docs/src/reference/documents.md#pins-and-tiers), for `structgate
/// limits` and the baseline commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierFiles {
    pub name: String,
    /// The files whose first matching tier this is, sorted.
    pub files: Vec<String>,
    /// The patterns that match no owned file: a stale tier silently does nothing.
    pub stale: Vec<String>,
}

/// Which of `files` (the context's owned files) take each tier of `limits`; a pattern
/// counts as matching a file also when an earlier tier takes that file.
pub fn tier_files(limits: &Limits, files: &[String]) -> Vec<TierFiles> {
    let mut out: Vec<TierFiles> = limits
        .tiers
        .iter()
        .map(|t| TierFiles {
            name: t.name.clone(),
            files: Vec::new(),
            stale: Vec::new(),
        })
        .collect();
    let mut matched: Vec<Vec<bool>> = limits
        .tiers
        .iter()
        .map(|t| vec![false; t.patterns.len()])
        .collect();
    for file in files {
        let Some(rel) = limits.relative(file) else {
            continue;
        };
        let mut taken = false;
        for (index, tier) in limits.tiers.iter().enumerate() {
            let hits = tier.matching_patterns(rel);
            for hit in &hits {
                matched[index][*hit] = true;
            }
            if !hits.is_empty() && !taken {
                out[index].files.push(file.clone());
                taken = true;
            }
        }
    }
    for (index, tier) in limits.tiers.iter().enumerate() {
        out[index].files.sort();
        out[index].stale = tier
            .patterns
            .iter()
            .zip(&matched[index])
            .filter(|(_, hit)| !**hit)
            .map(|(p, _)| p.clone())
            .collect();
    }
    out
}

/// The warning for each tier pattern that matches no owned file of `context`.
pub fn stale_tier_warnings(context: &ContextTerms, tiers: &[TierFiles]) -> Vec<String> {
    let principles = context.context.principles_path();
    let principles = principles.as_str();
    tiers
        .iter()
        .flat_map(|t| {
            t.stale.iter().map(move |pattern| {
                format!(
                    "{principles}: tier {} pattern {pattern:?} matches no file the context owns: a stale tier does nothing",
                    t.name
                )
            })
        })
        .collect()
}

/// Reads contexts, limits and baselines from `source`; `restrict` keeps only the contexts
/// in those directories (`--context DIR`).
pub fn load(source: &dyn FileSource, repo_name: &str, restrict: &[String]) -> Result<Terms> {
    let all = context::discover(source, repo_name)?;
    let chosen = if restrict.is_empty() {
        all.clone()
    } else {
        all.restrict(restrict)?
    };
    let mut terms = Terms::default();
    for link in &all.links {
        terms.warnings.push(format!(
            "{link} is a symbolic link, which structgate does not follow: it declares no context"
        ));
    }
    terms.warnings.extend(all.warnings.iter().cloned());
    for ctx in &chosen.list {
        terms
            .contexts
            .push(load_one(source, ctx, &mut terms.warnings)?);
    }
    terms.index = all;
    Ok(terms)
}

fn load_one(
    source: &dyn FileSource,
    ctx: &Context,
    warnings: &mut Vec<String>,
) -> Result<ContextTerms> {
    for dir in &ctx.owned {
        if !dir.is_empty() && source.entry(dir)? == Entry::Link {
            warnings.push(format!(
                "{}: {dir} is a symbolic link, which structgate does not follow: this context owns nothing through it",
                ctx.file("context.yaml"),
            ));
        }
    }
    let principles = ctx.principles_path();
    let read = limits::read(source, &principles)?;
    let principles_found = read.is_some();
    if !principles_found {
        warn_of_link(source, &principles, "this context has no limits", warnings)?;
    }
    let read = declared(read, ctx, warnings);
    let baseline_path = ctx.baseline_path();
    let baseline = match source.read(&baseline_path)? {
        Some(bytes) => {
            // The error names the file and the line.
            let parsed = tsv::parse(&bytes, &baseline_path)?;
            warnings.extend(parsed.warnings);
            Some(parsed.baseline)
        }
        None => {
            let what = "this context has no baseline (a write replaces the link)";
            warn_of_link(source, &baseline_path, what, warnings)?;
            None
        }
    };
    Ok(ContextTerms {
        context: ctx.clone(),
        limits: read.limits.has_limits().then(|| read.limits.clone()),
        declared: read.limits,
        principles_found,
        no_limits: read.none,
        unknown_keys: read.unknown_keys,
        key_lines: read.key_lines,
        baseline,
        branch_baseline: None,
    })
}

/// What a context's principles.md declares, as `read` (`None` without the file: nothing),
/// its limits relative to the context's workdir; its reading warnings go to `warnings`.
fn declared(read: Option<LimitsRead>, ctx: &Context, warnings: &mut Vec<String>) -> LimitsRead {
    let Some(mut read) = read else {
        return LimitsRead::default();
    };
    warnings.append(&mut read.warnings);
    read.limits.workdir = ctx.workdir.clone();
    read
}

/// A `principles.md` or baseline that is a symbolic link is not read (links are never
/// followed, docs/src/reference/measurement.md); say so, rather than let it pass for a missing file.
fn warn_of_link(
    source: &dyn FileSource,
    path: &str,
    outcome: &str,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if source.entry(path)? == Entry::Link {
        warnings.push(format!(
            "{path} is a symbolic link, which structgate does not follow: {outcome}"
        ));
    }
    Ok(())
}
