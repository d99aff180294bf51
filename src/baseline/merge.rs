//! Stage 3, for git: two branches' baselines merged entry by entry against their common
//! ancestor (`structgate baseline merge %O %A %B`), so parallel branches never conflict
//! on `structure-baseline.tsv`. The ratchet decides every case: a merge never loosens.

use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::Baseline;

/// Merges `ours` and `theirs`, both descended from `base`:
///
/// - entries, by (path, unit, metric): one in `base` that either side removed stays
///   removed; one on both sides takes the lower value; one added on one side is kept;
/// - `# measured with:`, key by key: a value changed on one side only takes that side's
///   value; changed on both to different values, the lower (stricter) one; a key removed
///   on one side and untouched on the other is removed;
/// - `# owned:`: a directory added on either side is kept, one removed on either side
///   stays removed; sorted;
/// - a header line present on one side only is kept;
/// - `# units:`: the lower revision of the two sides, no line (revision 1) lowest: a side
///   whose baseline predates anonymous-function units never recorded the excesses of its
///   own, so the merge judges them only once a refresh records them
///   (docs/src/reference/baseline.md#units).
pub fn merge(base: &Baseline, ours: &Baseline, theirs: &Baseline) -> Baseline {
    Baseline {
        measured_with: merge_measured_with(base, ours, theirs),
        owned: merge_owned(base, ours, theirs),
        units: ours.units.zip(theirs.units).map(|(a, b)| a.min(b)),
        entries: merge_entries(base, ours, theirs),
    }
}

fn merge_entries(
    base: &Baseline,
    ours: &Baseline,
    theirs: &Baseline,
) -> BTreeMap<crate::baseline::EntryKey, u64> {
    let keys: BTreeSet<_> = ours.entries.keys().chain(theirs.entries.keys()).collect();
    let mut out = BTreeMap::new();
    for key in keys {
        let (a, b) = (ours.entries.get(key), theirs.entries.get(key));
        let value = match (base.entries.contains_key(key), a, b) {
            (_, Some(a), Some(b)) => *a.min(b),
            // In the ancestor and gone on one side: removed on that side.
            (true, _, _) => continue,
            (false, Some(v), None) | (false, None, Some(v)) => *v,
            (false, None, None) => continue,
        };
        out.insert(key.clone(), value);
    }
    out
}

/// The three-way choice for one value: agreed, or changed on one side only; both
/// changed to different values: the lower, or the one present.
fn pick<T: Ord + Clone>(base: Option<&T>, ours: Option<&T>, theirs: Option<&T>) -> Option<T> {
    if ours == theirs || theirs == base {
        return ours.cloned();
    }
    if ours == base {
        return theirs.cloned();
    }
    match (ours, theirs) {
        (Some(a), Some(b)) => Some(a.min(b).clone()),
        (a, b) => a.or(b).cloned(),
    }
}

/// The three-way choice for a whole header line: agreed, changed on one side only, or
/// present on one side only; `Err` with both sides when each changed it its own way.
fn one_side<'a, T: PartialEq + Clone>(
    base: &Option<T>,
    ours: &'a Option<T>,
    theirs: &'a Option<T>,
) -> Result<Option<T>, (&'a T, &'a T)> {
    if ours == theirs || theirs == base {
        return Ok(ours.clone());
    }
    if ours == base {
        return Ok(theirs.clone());
    }
    match (ours, theirs) {
        (Some(a), Some(b)) => Err((a, b)),
        (a, b) => Ok(a.clone().or_else(|| b.clone())),
    }
}

fn merge_measured_with(
    base: &Baseline,
    ours: &Baseline,
    theirs: &Baseline,
) -> Option<BTreeMap<String, u64>> {
    let o = &base.measured_with;
    let (a, b) = match one_side(o, &ours.measured_with, &theirs.measured_with) {
        Ok(line) => return line,
        Err(both) => both,
    };
    let empty = BTreeMap::new();
    let o = o.as_ref().unwrap_or(&empty);
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let merged = keys
        .into_iter()
        .filter_map(|k| Some((k.clone(), pick(o.get(k), a.get(k), b.get(k))?)))
        .collect();
    Some(merged)
}

fn merge_owned(base: &Baseline, ours: &Baseline, theirs: &Baseline) -> Option<Vec<String>> {
    let o = &base.owned;
    let (a, b) = match one_side(o, &ours.owned, &theirs.owned) {
        Ok(line) => return line,
        Err(both) => both,
    };
    let o: BTreeSet<&String> = o.iter().flatten().collect();
    let (a, b): (BTreeSet<&String>, BTreeSet<&String>) = (a.iter().collect(), b.iter().collect());
    let kept = a
        .union(&b)
        .filter(|d| (a.contains(*d) && b.contains(*d)) || !o.contains(*d))
        .map(|d| d.to_string())
        .collect();
    Some(kept)
}

#[cfg(test)]
mod tests;
