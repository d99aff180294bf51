//! Which allowances a renamed file carries in its own context's baseline (docs/src/reference/baseline.md): the
//! one rule `baseline refresh` writes and `measure --check` judges by; and which entries
//! units moved between files of one context carry (the gate's and `baseline refresh`'s).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::baseline::{renamed_unit, Baseline, EntryKey};
use crate::model::UnitValue;

/// `baseline` as it stands for the working tree: the entries of every old path of
/// `renames` (old path, new path: the files renamed or moved since the commit that last
/// changed the baseline file) moved to the new path, a file-level unit taking the new
/// file's name; two entries that land on one key keep the lower value. Also returns each
/// move, (old key, new key), in key order. The header is kept.
pub fn carried(
    baseline: &Baseline,
    renames: &[(String, String)],
) -> (Baseline, Vec<(EntryKey, EntryKey)>) {
    let targets: BTreeMap<&str, &str> = renames
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    let mut moved = Vec::new();
    let mut entries: BTreeMap<EntryKey, u64> = BTreeMap::new();
    for (key, &value) in &baseline.entries {
        let new_key = match targets.get(key.path.as_str()) {
            Some(to) => renamed(key, to),
            None => key.clone(),
        };
        if new_key != *key {
            moved.push((key.clone(), new_key.clone()));
        }
        let slot = entries.entry(new_key).or_insert(value);
        *slot = (*slot).min(value);
    }
    let baseline = Baseline {
        entries,
        ..baseline.clone()
    };
    (baseline, moved)
}

/// `key` at the path `to`; a file-level unit (named by its file's name) takes the new
/// file's name.
fn renamed(key: &EntryKey, to: &str) -> EntryKey {
    EntryKey {
        path: to.to_string(),
        unit: renamed_unit(&key.unit, key.metric, &key.path, to),
        metric: key.metric,
    }
}

/// A unit that left the file its baseline entries name for another file of the same
/// context, keeping its allowance there (docs/src/reference/baseline.md#moved-units).
/// JSON: `{"unit", "from", "to"}`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Moved {
    pub unit: String,
    pub from: String,
    pub to: String,
}

/// The entries of `baseline` the units of the file at `to` carry from files they left
/// (docs/src/reference/baseline.md#moved-units): an entry of another file (not `except`,
/// the file's own path at the base) for a unit named in `units`, with no entry of its
/// own at `to`, where `gone(path, unit)` says the unit is no longer in that file; a copy,
/// still in its old file, carries nothing, and a file-level unit never moves. Gives those
/// entries keyed at `to` (two landing on one key keep the lower value) and each move, one
/// per unit and old file, in order.
pub fn moved_in(
    baseline: &Baseline,
    to: &str,
    except: Option<&str>,
    units: &BTreeSet<&str>,
    gone: impl FnMut(&str, &str) -> bool,
) -> (Baseline, Vec<Moved>) {
    let mut carried = Baseline::default();
    let mut moves = BTreeSet::new();
    for (old, new_key, value) in leaving(baseline, to, except, units, gone) {
        let slot = carried.entries.entry(new_key).or_insert(value);
        *slot = (*slot).min(value);
        moves.insert(Moved {
            unit: old.unit,
            from: old.path,
            to: to.to_string(),
        });
    }
    (carried, moves.into_iter().collect())
}

/// The entries [`moved_in`] carries to `to`: (old key, new key, value), in old key order.
fn leaving(
    baseline: &Baseline,
    to: &str,
    except: Option<&str>,
    units: &BTreeSet<&str>,
    mut gone: impl FnMut(&str, &str) -> bool,
) -> Vec<(EntryKey, EntryKey, u64)> {
    let mut out = Vec::new();
    for (key, &value) in &baseline.entries {
        let candidate = key.path != to
            && Some(key.path.as_str()) != except
            && !key.metric.is_file_level()
            && units.contains(key.unit.as_str())
            && baseline.allowance(to, &key.unit, key.metric).is_none();
        if candidate && gone(&key.path, &key.unit) {
            let new_key = EntryKey {
                path: to.to_string(),
                ..key.clone()
            };
            out.push((key.clone(), new_key, value));
        }
    }
    out
}

/// `baseline` with the entries of units that left their file for another file of the
/// context moved there, as `baseline refresh` writes it
/// (docs/src/reference/baseline.md#moved-units): an entry whose unit `measured` no longer
/// has in its file goes to the first file (by path) that has a unit of that name and no
/// entry of its own for it (two landing on one key keep the lower value); a unit still
/// in its file moves nowhere. Also returns each move, (old key, new key), in key order.
pub fn units_moved(
    baseline: &Baseline,
    measured: &[UnitValue],
) -> (Baseline, Vec<(EntryKey, EntryKey)>) {
    let mut units: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for v in measured {
        units.entry(&v.path).or_default().insert(&v.unit);
    }
    let present = |path: &str, unit: &str| units.get(path).is_some_and(|u| u.contains(unit));
    let mut next = baseline.clone();
    let mut moves = Vec::new();
    for (to, held) in &units {
        let gone = |path: &str, unit: &str| !present(path, unit);
        for (old, new_key, value) in leaving(&next, to, None, held, gone) {
            next.entries.remove(&old);
            let slot = next.entries.entry(new_key.clone()).or_insert(value);
            *slot = (*slot).min(value);
            moves.push((old, new_key));
        }
    }
    moves.sort();
    (next, moves)
}
