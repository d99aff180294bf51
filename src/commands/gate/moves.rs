//! What a judged file's units were at the base (docs/src/reference/gate.md#what-changed)
//! and which of them moved in from another file of the same context, keeping that
//! file's baseline entries (docs/src/reference/baseline.md#moved-units). Both read the
//! base's and the branch's versions of other files, each measured once.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::{renamed_unit, Baseline};
use crate::git::{Change, ChangeKind};
use crate::judge::{self, Finding, Moved};
use crate::measure::{self, NoMemo, Options};
use crate::model::{FileOutcome, Metric, UnitValue};
use crate::source::FileSource;
use crate::terms::ContextTerms;

/// A file's values by unit and metric, same-named units at the worse value.
type Values = BTreeMap<(String, Metric), u64>;

/// The base's and the branch's versions of the files the branch changed, measured on
/// demand.
pub(super) struct Versions<'a> {
    /// Resolves the base's documents' imports (their `loaded_bytes` and `chain_bytes`
    /// there).
    base_imports: measure::Imports<'a>,
    base_tree: &'a dyn FileSource,
    branch: &'a dyn FileSource,
    options: Options,
    /// Each changed path at the base: where the branch holds it (`None`: deleted).
    now: BTreeMap<String, Option<String>>,
    /// By path and whether its imports were read (only for `loaded_bytes` and
    /// `chain_bytes`, docs/src/reference/documents.md).
    base: RefCell<BTreeMap<(String, bool), Option<Values>>>,
    branch_units: RefCell<BTreeMap<String, Option<BTreeSet<String>>>>,
}

impl<'a> Versions<'a> {
    pub(super) fn new(
        base_tree: &'a dyn FileSource,
        branch: &'a dyn FileSource,
        options: Options,
        changes: &[Change],
    ) -> Versions<'a> {
        let now = changes
            .iter()
            .filter_map(|c| match &c.kind {
                ChangeKind::Deleted => Some((c.path.clone(), None)),
                ChangeKind::Modified => Some((c.path.clone(), Some(c.path.clone()))),
                ChangeKind::Renamed { from } => Some((from.clone(), Some(c.path.clone()))),
                _ => None,
            })
            .collect();
        Versions {
            base_imports: measure::Imports::new(base_tree, options.max_file_size),
            base_tree,
            branch,
            options,
            now,
            base: RefCell::default(),
            branch_units: RefCell::default(),
        }
    }

    /// The entries the units of the file at `path` (at `from` at the base, if renamed)
    /// carry from the files they left in `owner`'s baseline, and each move.
    pub(super) fn moved_in(
        &self,
        owner: &ContextTerms,
        path: &str,
        from: Option<&str>,
        values: &[UnitValue],
    ) -> (Option<Baseline>, Vec<Moved>) {
        let Some(baseline) = owner.baseline.as_ref() else {
            return (None, Vec::new());
        };
        let units: BTreeSet<&str> = values.iter().map(|v| v.unit.as_str()).collect();
        let gone = |old: &str, unit: &str| self.gone(old, unit);
        let (carried, moves) = judge::moved_in(baseline, path, from, &units, gone);
        ((!moves.is_empty()).then_some(carried), moves)
    }

    /// True when the unit `unit` of the file at `old` at the base is no longer in it on
    /// the branch: the file is deleted, or the branch's version (read and measured) has
    /// no unit of that name. An unchanged file still has it; one that doesn't measure is
    /// taken to.
    fn gone(&self, old: &str, unit: &str) -> bool {
        match self.now.get(old) {
            None => false,
            Some(None) => true,
            Some(Some(now)) => self.with_branch_units(now, |units| {
                units.is_some_and(|units| !units.contains(unit))
            }),
        }
    }

    fn with_branch_units<T>(
        &self,
        path: &str,
        f: impl FnOnce(Option<&BTreeSet<String>>) -> T,
    ) -> T {
        let mut memo = self.branch_units.borrow_mut();
        let units = memo.entry(path.to_string()).or_insert_with(|| {
            let bytes = self.branch.read(path).ok()??;
            let values = values_of(measure::measure_file(path, &bytes, &self.options))?;
            Some(values.into_keys().map(|(unit, _)| unit).collect())
        });
        f(units.as_ref())
    }

    /// Sets each finding's value at the base: the unit's at `from` (the file's path at
    /// the base), a moved unit's in the file it left.
    pub(super) fn set_base_values(
        &self,
        findings: &mut [Finding],
        from: Option<&str>,
        moves: &[Moved],
    ) {
        for f in findings {
            let unit = &f.unit;
            let metric = f.verdict.metric;
            let at = from.unwrap_or(&f.path);
            let own = self.base_value(at, &renamed_unit(unit, metric, &f.path, at), metric);
            let moved = moves
                .iter()
                .filter(|m| m.unit == *unit)
                .filter_map(|m| self.base_value(&m.from, unit, metric))
                .max();
            f.base_value = own.or(moved);
        }
    }

    fn base_value(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        let mut memo = self.base.borrow_mut();
        let loads = matches!(metric, Metric::LoadedBytes | Metric::ChainBytes);
        let values = memo.entry((path.to_string(), loads)).or_insert_with(|| {
            let imports = loads.then_some(&self.base_imports);
            let bytes = self.base_tree.read(path).ok()??;
            let outcome = measure::measure_file_in(imports, &NoMemo, path, &bytes, &self.options);
            values_of(outcome)
        });
        values.as_ref()?.get(&(unit.to_string(), metric)).copied()
    }
}

/// The values of a measured file by unit and metric; `None` when it didn't measure.
fn values_of(outcome: Option<FileOutcome>) -> Option<Values> {
    let Some(FileOutcome::Measured(m)) = outcome else {
        return None;
    };
    let mut values = Values::new();
    for v in m.values() {
        let slot = values.entry((v.unit, v.metric)).or_insert(v.value);
        *slot = (*slot).max(v.value);
    }
    Some(values)
}
