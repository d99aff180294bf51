//! Stage 3 of the pipeline: the ratchet (SPEC §5). A [`Baseline`] and what its entries
//! tolerate ([`Allowances`], a renamed file's old entries among them); `tsv` reads and
//! writes `structure-baseline.tsv`; `rules` holds what `baseline init` and `baseline
//! refresh` write, deciding through the judge.

use std::collections::BTreeMap;

use crate::limits::{self, Limits};
use crate::model::Metric;
use crate::relpath;

pub mod leftovers;
pub mod merge;
pub mod rules;
pub mod tsv;

/// The key of a baseline entry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryKey {
    pub path: String,
    pub unit: String,
    pub metric: Metric,
}

/// A parsed `structure-baseline.tsv`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Baseline {
    /// `# measured with:` — the limits recorded when it was written; `None` without that
    /// header line.
    pub measured_with: Option<BTreeMap<String, u64>>,
    /// `# owned:` — the owned directories recorded (the repository root is `""`); `None`
    /// without that header line.
    pub owned: Option<Vec<String>>,
    pub entries: BTreeMap<EntryKey, u64>,
}

impl Baseline {
    /// The value this baseline tolerates for a unit, if any.
    pub fn allowance(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        self.entries
            .get(&EntryKey {
                path: path.to_string(),
                unit: unit.to_string(),
                metric,
            })
            .copied()
    }

    /// The limits recorded in `# measured with:`, as [`Limits`] (without tiers: the
    /// header records their values, not their patterns); `None` without that header.
    /// Keys that are not limits are ignored; a missing `tolerance_percent` counts as 0
    /// (its default).
    pub fn recorded_limits(&self) -> Option<Limits> {
        let recorded = self.measured_with.as_ref()?;
        let mut limits = Limits::default();
        for (key, value) in recorded {
            if let Some(metric) = Metric::from_key(key) {
                limits.values.insert(metric, *value);
            } else if key == tsv::TOLERANCE_KEY {
                limits.tolerance_percent = *value;
            } else if key == limits::NEW_FILE_BYTES_KEY {
                limits.new_file_bytes = Some(*value);
            } else if let Some(metric) = key.strip_prefix("pinned.").and_then(Metric::from_key) {
                limits.pinned.insert(metric);
            }
        }
        Some(limits)
    }

    /// The limits the header recorded for a file that now takes `tier` (SPEC §8.1): the
    /// header's `tier.NAME.KEY` values over its context values, or the context values
    /// alone for an untiered file. `None` without that header.
    pub fn recorded_for(&self, tier: Option<&str>) -> Option<Limits> {
        let mut limits = self.recorded_limits()?;
        let (Some(name), Some(recorded)) = (tier, &self.measured_with) else {
            return Some(limits);
        };
        let prefix = format!("tier.{name}.");
        for (key, value) in recorded {
            let Some(metric) = key.strip_prefix(&prefix).and_then(Metric::from_key) else {
                continue;
            };
            limits.values.insert(metric, *value);
        }
        Some(limits)
    }
}

/// Where the entries that tolerate one file's values are recorded (SPEC §5, §6 step 3):
/// its own path in the baseline of the context that owns it and, for a renamed file,
/// its old path in the baseline of the context that owned that.
#[derive(Debug, Clone, Copy, Default)]
pub struct Allowances<'a> {
    pub own: Option<&'a Baseline>,
    /// The old path and its owner's baseline.
    pub renamed_from: Option<(&'a str, &'a Baseline)>,
    /// The branch's own baseline, read only under `gate --accept-growth`: its raised pins
    /// are honoured within the base's bands (SPEC §8.1).
    pub accepted: Option<&'a Baseline>,
}

impl Allowances<'_> {
    /// What the entries tolerate for the unit `unit` of `path`: the larger of its own
    /// entry and, for a renamed file, its old path's entry for the same unit.
    pub fn get(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        let own = self.own.and_then(|b| b.allowance(path, unit, metric));
        let old = self.renamed_from.and_then(|(from, b)| {
            b.allowance(from, &renamed_unit(unit, metric, path, from), metric)
        });
        own.max(old)
    }
}

/// The name a unit of the file at `from` has once the file is at `to`: a file-level unit
/// is named by its file's name (SPEC §4), so it takes the new name; every other unit
/// keeps its own.
pub fn renamed_unit(unit: &str, metric: Metric, from: &str, to: &str) -> String {
    if metric.is_file_level() && unit == relpath::file_name(from) {
        relpath::file_name(to).to_string()
    } else {
        unit.to_string()
    }
}
