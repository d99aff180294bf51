//! Stage 3 of the pipeline: the ratchet (docs/src/reference/baseline.md). A [`Baseline`] and what its entries
//! tolerate ([`Allowances`], a renamed file's old entries among them); `tsv` reads and
//! writes `structure-baseline.tsv`; what `baseline init` and `baseline refresh` write is
//! the judge's to decide (`judge::ratchet`).

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;

use crate::limits::{self, Limits};
use crate::model::Metric;
use crate::relpath;

pub mod leftovers;
pub mod merge;
pub mod tsv;

/// The key of a baseline entry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryKey {
    pub path: String,
    pub unit: String,
    pub metric: Metric,
}

/// An [`EntryKey`] seen as its parts, so that [`Baseline::allowance`] looks an entry up
/// by borrowed strings instead of copying them into a key (it is asked once per unit).
/// Ordered as `EntryKey` derives its order: path, then unit, then metric.
trait KeyView {
    fn view(&self) -> (&str, &str, Metric);
}

impl KeyView for EntryKey {
    fn view(&self) -> (&str, &str, Metric) {
        (&self.path, &self.unit, self.metric)
    }
}

impl KeyView for (&str, &str, Metric) {
    fn view(&self) -> (&str, &str, Metric) {
        *self
    }
}

impl<'a> Borrow<dyn KeyView + 'a> for EntryKey {
    fn borrow(&self) -> &(dyn KeyView + 'a) {
        self
    }
}

impl PartialEq for dyn KeyView + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.view() == other.view()
    }
}

impl Eq for dyn KeyView + '_ {}

impl PartialOrd for dyn KeyView + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for dyn KeyView + '_ {
    fn cmp(&self, other: &Self) -> Ordering {
        self.view().cmp(&other.view())
    }
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
    /// `# units:` — the revision of what counts as a unit when it was written
    /// (docs/src/reference/baseline.md#units); `None` without that header line: revision 1,
    /// before anonymous functions were units.
    pub units: Option<u32>,
    pub entries: BTreeMap<EntryKey, u64>,
}

/// The revision of what structgate counts as a unit, which `baseline init` and `refresh`
/// write as `# units: 2`: from 2, anonymous functions spanning two or more lines
/// (docs/src/reference/measurement.md#anonymous-functions).
pub const UNITS_REVISION: u32 = 2;

/// What the gate and `measure --check` say of a context whose baseline predates
/// anonymous-function units (docs/src/reference/baseline.md#units).
pub fn predating_units_note(context: &str) -> String {
    format!(
        "anonymous functions not judged in {context}: its baseline predates them \
         (structgate baseline refresh records them)"
    )
}

impl Baseline {
    /// True when the baseline was written before anonymous functions were units (no `#
    /// units:` line, or `# units: 1`): they are not judged by it
    /// (docs/src/reference/baseline.md#units).
    pub fn predates_units(&self) -> bool {
        self.units.unwrap_or(1) < UNITS_REVISION
    }

    /// The value this baseline tolerates for a unit, if any.
    pub fn allowance(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        let key: &dyn KeyView = &(path, unit, metric);
        self.entries.get(key).copied()
    }

    /// True when an entry names the file at `path`.
    pub fn has_path(&self, path: &str) -> bool {
        self.entries_of(path).next().is_some()
    }

    /// The entries that name the file at `path`, in the map's order (by unit, then
    /// metric): one search for the file instead of one per value.
    pub fn entries_of<'b, 'p>(
        &'b self,
        path: &'p str,
    ) -> impl Iterator<Item = (&'b EntryKey, u64)> + use<'b, 'p> {
        let first = Metric::ALL
            .iter()
            .copied()
            .min()
            .unwrap_or(Metric::ChainBytes);
        let from: &dyn KeyView = &(path, "", first);
        let after = self
            .entries
            .range::<dyn KeyView, _>((Bound::Included(from), Bound::Unbounded));
        after
            .take_while(move |(key, _)| key.path == path)
            .map(|(key, value)| (key, *value))
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

    /// The limits the header recorded for a file that now takes `tier` (docs/src/reference/documents.md#pins-and-tiers): the
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

/// Where the entries that tolerate one file's values are recorded (docs/src/reference/baseline.md, docs/src/reference/gate.md step 3):
/// its own path in the baseline of the context that owns it and, for a renamed file,
/// its old path in the baseline of the context that owned that.
#[derive(Debug, Clone, Copy, Default)]
pub struct Allowances<'a> {
    pub own: Option<&'a Baseline>,
    /// The old path and its owner's baseline.
    pub renamed_from: Option<(&'a str, &'a Baseline)>,
    /// The branch's own baseline, read only under `gate --accept-growth`: its raised pins
    /// are honoured within the base's bands (docs/src/reference/documents.md#pins-and-tiers).
    pub accepted: Option<&'a Baseline>,
    /// For a renamed file, the limits the base's terms give it at its old path (that
    /// path's context and tier): a raised pin is honoured only within the stricter of
    /// the bands at its two paths, so a move into a looser tier grows it no further
    /// (docs/src/reference/documents.md#pins-and-tiers).
    pub renamed_limits: Option<&'a Limits>,
    /// The entries units of the judged file carry from the files they left in the same
    /// context, keyed at the file's path ([`crate::judge::moved_in`],
    /// docs/src/reference/baseline.md#moved-units).
    pub moved: Option<&'a Baseline>,
}

impl<'a> Allowances<'a> {
    /// These allowances for the values of the file at `path` alone: a baseline with no
    /// entry for the file (at `path`, or at its old path) is left out, so that judging
    /// its units looks nothing up. Gives what [`Allowances::get`] gives for that path.
    pub fn for_file(&self, path: &str) -> Allowances<'a> {
        Allowances {
            own: self.own.filter(|b| b.has_path(path)),
            renamed_from: self.renamed_from.filter(|(from, b)| b.has_path(from)),
            accepted: self.accepted.filter(|b| b.has_path(path)),
            renamed_limits: self.renamed_limits,
            moved: self.moved.filter(|b| b.has_path(path)),
        }
    }

    /// The entries of the file at `path` in its own baseline, by unit and metric, where
    /// they are all that tolerates its values (no renamed, moved or branch entries name
    /// it): what [`Allowances::get`] gives for that path, looked up in the file's entries
    /// alone ([`FileEntries::get`]). `None` where other entries count too.
    pub fn own_entries(&self, path: &str) -> Option<FileEntries<'a>> {
        let alone = self.renamed_from.is_none() && self.accepted.is_none() && self.moved.is_none();
        let entries = self.own.into_iter().flat_map(|own| own.entries_of(path));
        alone.then(|| {
            FileEntries(
                entries
                    .map(|(k, v)| (k.unit.as_str(), k.metric, v))
                    .collect(),
            )
        })
    }

    /// What the entries tolerate for the unit `unit` of `path`: the larger of its own
    /// entry, for a renamed file its old path's entry for the same unit, and for a unit
    /// moved in from another file that file's entry.
    pub fn get(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        let moved = self.moved.and_then(|b| b.allowance(path, unit, metric));
        let own = self
            .own
            .and_then(|b| b.allowance(path, unit, metric))
            .max(moved);
        let old = self.renamed_from.and_then(|(from, b)| {
            b.allowance(from, &renamed_unit(unit, metric, path, from), metric)
        });
        own.max(old)
    }
}

/// One file's entries in its own baseline, sorted by unit, then metric, as the baseline
/// orders them ([`Allowances::own_entries`]).
#[derive(Debug, Clone, Default)]
pub struct FileEntries<'a>(Vec<(&'a str, Metric, u64)>);

impl FileEntries<'_> {
    /// The entry for `metric` of the unit `unit`, if any.
    pub fn get(&self, unit: &str, metric: Metric) -> Option<u64> {
        let at = self
            .0
            .binary_search_by(|&(u, m, _)| (u, m).cmp(&(unit, metric)));
        at.ok().map(|i| self.0[i].2)
    }
}

/// The name a unit of the file at `from` has once the file is at `to`: a file-level unit
/// is named by its file's name (docs/src/reference/measurement.md), so it takes the new name; every other unit
/// keeps its own.
pub fn renamed_unit(unit: &str, metric: Metric, from: &str, to: &str) -> String {
    if metric.is_file_level() && unit == relpath::file_name(from) {
        relpath::file_name(to).to_string()
    } else {
        unit.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_found_by_its_borrowed_parts_and_no_neighbour_is() {
        // Paths that share prefixes, units that sort around each other, both metrics of a
        // unit: a lookup ordered unlike the map's keys would miss some of them.
        let paths = [
            "a/b.rs", "a/b.rs.x", "a/b/c.rs", "a/bb.rs", "A/b.rs", "a-b.rs", "é.rs",
        ];
        let units = ["", "f", "f.g", "F", "f g", "ff"];
        let metrics = [Metric::FunctionLines, Metric::TypeLines, Metric::FileBytes];
        let mut baseline = Baseline::default();
        let mut n = 0;
        for path in paths {
            for unit in units {
                for metric in metrics {
                    n += 1;
                    if n % 3 != 0 {
                        let key = EntryKey {
                            path: path.to_string(),
                            unit: unit.to_string(),
                            metric,
                        };
                        baseline.entries.insert(key, n);
                    }
                }
            }
        }
        let mut n = 0;
        for path in paths {
            for unit in units {
                for metric in metrics {
                    n += 1;
                    let expected = (n % 3 != 0).then_some(n);
                    let got = baseline.allowance(path, unit, metric);
                    assert_eq!(got, expected, "{path} {unit:?} {metric:?}");
                    let own = Allowances {
                        own: Some(&baseline),
                        ..Allowances::default()
                    };
                    let entries = own.own_entries(path).expect("own entries alone");
                    let got = entries.get(unit, metric);
                    assert_eq!(got, expected, "{path} {unit:?} {metric:?} by file");
                }
            }
        }
        assert_eq!(baseline.allowance("a/b", "f", Metric::FunctionLines), None);
        for path in paths {
            assert!(baseline.has_path(path), "{path}");
        }
        for path in ["a", "a/b", "a/b.r", "a/b.rs.", "b.rs", "", "z"] {
            assert!(!baseline.has_path(path), "{path}");
        }
    }

    #[test]
    fn allowances_for_one_file_keep_only_the_baselines_that_name_it() {
        let entry = |path: &str, unit: &str, value| {
            let metric = Metric::FunctionLines;
            let (path, unit) = (path.to_string(), unit.to_string());
            (EntryKey { path, unit, metric }, value)
        };
        let own = Baseline {
            entries: [entry("src/new.rs", "f", 40), entry("src/z.rs", "g", 9)].into(),
            ..Baseline::default()
        };
        let old = Baseline {
            entries: [entry("src/old.rs", "f", 50)].into(),
            ..Baseline::default()
        };
        let all = Allowances {
            own: Some(&own),
            renamed_from: Some(("src/old.rs", &old)),
            accepted: Some(&own),
            renamed_limits: None,
            moved: None,
        };
        let renamed = all.for_file("src/new.rs");
        assert!(renamed.own.is_some() && renamed.renamed_from.is_some());
        assert!(renamed.accepted.is_some());
        // Renamed, moved or branch entries count too: not the file's own entries alone.
        assert!(renamed.own_entries("src/new.rs").is_none());
        let f = Metric::FunctionLines;
        assert_eq!(renamed.get("src/new.rs", "f", f), Some(50));
        let other = Allowances {
            renamed_from: None,
            ..all
        }
        .for_file("src/a.rs");
        assert!(other.own.is_none() && other.accepted.is_none());
        let gone = Allowances {
            renamed_from: Some(("src/gone.rs", &old)),
            ..all
        };
        assert!(gone.for_file("src/new.rs").renamed_from.is_none());
        assert_eq!(
            gone.for_file("src/new.rs").get("src/new.rs", "f", f),
            Some(40)
        );
    }
}
