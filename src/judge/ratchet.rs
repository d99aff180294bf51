//! The ratchet (docs/src/reference/baseline.md): given a context's limits, its owned
//! directories and every value measured now, what `baseline init` records, what `baseline
//! refresh` keeps, lowers, drops and moves, and what `baseline accept` raises. Pure; every
//! status comes from the same function the gate and `measure --check` judge a file with.

use std::collections::{BTreeMap, BTreeSet};

use super::{past_band, Finding, Status, Verdict};
use crate::baseline::{Allowances, Baseline, EntryKey, UNITS_REVISION};
use crate::context::owns;
use crate::judge;
use crate::limits::Limits;
use crate::model::UnitValue;

#[cfg(test)]
mod tests;

/// What an `init` or `refresh` changed, entry by entry, in key order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// Units newly listed, with their value.
    pub added: Vec<(EntryKey, u64)>,
    /// Entries kept at a lower value: (key, old value, new value).
    pub lowered: Vec<(EntryKey, u64, u64)>,
    /// Entries removed (back inside the band, gone, or no longer limited), with the
    /// value they had. A moved entry that is then dropped is listed by its new key.
    pub dropped: Vec<(EntryKey, u64)>,
    /// Entries removed because no owned directory holds their path any more (a
    /// `sources` entry removed or changed), with the value they had: said apart from
    /// `dropped`, so a refresh never loses an allowance to ownership unsaid.
    pub disowned: Vec<(EntryKey, u64)>,
    /// Entries moved by a rename or with their unit to another file: (old key, new key).
    pub moved: Vec<(EntryKey, EntryKey)>,
    /// `# measured with:` differs from what the old baseline recorded.
    pub measured_with_changed: bool,
    /// `# owned:` differs from what the old baseline recorded.
    pub owned_changed: bool,
    /// A refresh of a baseline that predated anonymous-function units wrote `# units: 2`:
    /// how many of them it added (docs/src/reference/baseline.md#units).
    pub units_upgraded: Option<usize>,
    /// The file's bytes were not the canonical rendering of what it holds (duplicate
    /// entries, order, header lines, line ends): `refresh` rewrites it canonically.
    pub canonicalised: bool,
}

impl Changes {
    /// True when the new baseline equals the old one.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.lowered.is_empty()
            && self.dropped.is_empty()
            && self.disowned.is_empty()
            && self.moved.is_empty()
            && !self.measured_with_changed
            && !self.owned_changed
            && self.units_upgraded.is_none()
            && !self.canonicalised
    }
}

/// `baseline init` (docs/src/reference/baseline.md, docs/src/reference/documents.md#pins-and-tiers). Without `existing`: every value past its band, and
/// every value of a pinned metric at its current value, under a header of the current
/// limits and `owned`. With `existing`: it is kept as it is (entries and `# measured
/// with:`), except that such values in files that no directory of its `# owned:` holds
/// are added (nothing, when it records no owned list) and `# owned:` becomes `owned`.
pub fn init(
    existing: Option<&Baseline>,
    limits: &Limits,
    owned: &[String],
    measured: &[UnitValue],
) -> (Baseline, Changes) {
    let mut baseline = existing.cloned().unwrap_or_else(|| Baseline {
        measured_with: Some(limits.measured_with()),
        units: Some(UNITS_REVISION),
        ..Baseline::default()
    });
    let mut changes = Changes {
        measured_with_changed: existing.is_none(),
        ..Changes::default()
    };
    let recorded_owned = existing.map(|b| b.owned.as_deref());
    let judged = by_key(judge::file(limits, measured, &Allowances::default()));
    for (key, v) in judged {
        let eligible = match recorded_owned {
            None => true,
            Some(recorded) => newly_owned(recorded, owned, &key.path),
        };
        let recorded = v.status.past_band() || v.pinned;
        if eligible && recorded && !baseline.entries.contains_key(&key) {
            baseline.entries.insert(key.clone(), v.value);
            changes.added.push((key, v.value));
        }
    }
    set_owned(&mut baseline, owned, &mut changes);
    (baseline, changes)
}

/// `baseline refresh` (docs/src/reference/baseline.md): the file only ever gets better. Entries of an old path
/// in `renames` (old path, new path) move to the new path first (file-level units are
/// renamed with the file), and entries of units gone from their file to the file that
/// now holds a unit of that name (docs/src/reference/baseline.md#moved-units); then an entry still past the band stays at the lower of old
/// and new value, any other entry is dropped, and a unit not yet listed is added only
/// when a changed limit exposes it or it sits in a newly owned directory — or, when the
/// baseline predates anonymous-function units, when it is one of them
/// (docs/src/reference/baseline.md#units). The header becomes the current limits, `owned`
/// and `# units: 2`.
pub fn refresh(
    existing: &Baseline,
    limits: &Limits,
    owned: &[String],
    measured: &[UnitValue],
    renames: &[(String, String)],
) -> (Baseline, Changes) {
    let (renamed, mut moves) = judge::carried(existing, renames);
    let (moved, unit_moves) = judge::units_moved(&renamed, measured);
    moves.extend(unit_moves);
    moves.sort();
    let mut changes = Changes {
        moved: moves,
        ..Changes::default()
    };
    let own = Allowances {
        own: Some(&moved),
        renamed_from: None,
        ..Allowances::default()
    };
    let judged = by_key(judge::file(limits, measured, &own));
    let mut kept = keep_still_past(&moved.entries, &judged, owned, &mut changes);
    let anonymous = unrecorded_anonymous(existing, measured);
    let mut upgraded = 0;
    for (key, v) in judged {
        if v.baseline.is_some() || !is_owned(owned, &key.path) {
            continue;
        }
        // A pinned unit within its band is pinned (that only tightens); past the band
        // without an entry it is listed only when exposed, newly owned, or an anonymous
        // function the old baseline couldn't record.
        let pin = v.pinned && v.value <= v.band;
        let unseen = anonymous.contains(&(key.path.as_str(), key.unit.as_str()));
        if pin
            || (v.status == Status::Excess
                && (unseen
                    || exposed(existing, limits, &key, v.value)
                    || newly_owned(existing.owned.as_deref(), owned, &key.path)))
        {
            upgraded += usize::from(unseen && !pin);
            kept.insert(key.clone(), v.value);
            changes.added.push((key, v.value));
        }
    }
    changes.units_upgraded = existing.predates_units().then_some(upgraded);
    let baseline = with_header(existing, limits, owned, kept, &mut changes);
    (baseline, changes)
}

/// The anonymous-function units (path, unit) a baseline that predates them couldn't
/// record, which a refresh adds where past their band; none for a baseline that doesn't
/// (docs/src/reference/baseline.md#units).
fn unrecorded_anonymous<'v>(
    existing: &Baseline,
    measured: &'v [UnitValue],
) -> BTreeSet<(&'v str, &'v str)> {
    let upgrade = existing.predates_units();
    measured
        .iter()
        .filter(|v| upgrade && v.anonymous)
        .map(|v| (v.path.as_str(), v.unit.as_str()))
        .collect()
}

/// The refreshed baseline: `entries` under the header of today's limits, `owned` and
/// `# units: 2`; what changed in the header goes to `changes`.
fn with_header(
    existing: &Baseline,
    limits: &Limits,
    owned: &[String],
    entries: BTreeMap<EntryKey, u64>,
    changes: &mut Changes,
) -> Baseline {
    let measured_with = Some(limits.measured_with());
    changes.measured_with_changed = existing.measured_with != measured_with;
    let mut baseline = Baseline {
        measured_with,
        owned: existing.owned.clone(),
        units: Some(UNITS_REVISION),
        entries,
    };
    set_owned(&mut baseline, owned, changes);
    baseline
}

/// True when the limits the header recorded for the unit's file (its tier's, docs/src/reference/documents.md#pins-and-tiers)
/// had `value` within the band: a changed limit exposes it. Without a header, always.
fn exposed(existing: &Baseline, limits: &Limits, key: &EntryKey, value: u64) -> bool {
    let tier = limits.tier_of(&key.path).map(|t| t.name.as_str());
    existing
        .recorded_for(tier)
        .is_none_or(|old| !past_band(&old, key.metric, value))
}

/// The entries whose unit is still past the band (or pinned, docs/src/reference/documents.md#pins-and-tiers), each at the
/// lower of its old and new value; the others (back within the band, gone, or no longer
/// limited) are dropped, and those of paths outside `owned` are disowned.
fn keep_still_past(
    entries: &BTreeMap<EntryKey, u64>,
    judged: &BTreeMap<EntryKey, Verdict>,
    owned: &[String],
    changes: &mut Changes,
) -> BTreeMap<EntryKey, u64> {
    let mut kept = BTreeMap::new();
    for (key, &old) in entries {
        if !is_owned(owned, &key.path) {
            changes.disowned.push((key.clone(), old));
            continue;
        }
        match judged.get(key) {
            Some(v) if v.status.past_band() || v.pinned => {
                if v.value < old {
                    changes.lowered.push((key.clone(), old, v.value));
                }
                kept.insert(key.clone(), v.value.min(old));
            }
            _ => changes.dropped.push((key.clone(), old)),
        }
    }
    kept
}

/// One entry `baseline accept` raises (or adds, `from` `None`): a pinned unit grown
/// within its band (docs/src/reference/documents.md#pins-and-tiers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raise {
    pub key: EntryKey,
    pub from: Option<u64>,
    pub to: u64,
    pub band: u64,
}

/// A pinned unit `baseline accept` refuses: grown past its band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub key: EntryKey,
    pub value: u64,
    pub band: u64,
}

/// What `baseline accept` decided for one baseline.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Accepted {
    pub raised: Vec<Raise>,
    pub refused: Vec<Refusal>,
}

/// `baseline accept` (docs/src/reference/documents.md#pins-and-tiers): every value of a pinned metric above its entry (or
/// without one) is raised to it when within its band and refused past it. The baseline
/// with the raises, and what was decided; with any refusal the caller writes nothing.
/// Entries of metrics that are not pinned are never raised.
pub fn accept(
    existing: &Baseline,
    limits: &Limits,
    measured: &[UnitValue],
) -> (Baseline, Accepted) {
    let own = Allowances {
        own: Some(existing),
        renamed_from: None,
        ..Allowances::default()
    };
    let mut next = existing.clone();
    let mut out = Accepted::default();
    for (key, v) in by_key(judge::file(limits, measured, &own)) {
        if !v.pinned || v.baseline.is_some_and(|pin| v.value <= pin) {
            continue;
        }
        if v.value > v.band {
            out.refused.push(Refusal {
                key,
                value: v.value,
                band: v.band,
            });
            continue;
        }
        next.entries.insert(key.clone(), v.value);
        out.raised.push(Raise {
            key,
            from: v.baseline,
            to: v.value,
            band: v.band,
        });
    }
    (next, out)
}

/// The verdict on each key, at the worse of its values (a key measured twice).
fn by_key(findings: Vec<Finding>) -> BTreeMap<EntryKey, Verdict> {
    judge::worst(findings)
        .into_iter()
        .map(|f| {
            let key = EntryKey {
                path: f.path,
                unit: f.unit,
                metric: f.verdict.metric,
            };
            (key, f.verdict)
        })
        .collect()
}

/// True when an entry of `owned` holds `path`.
fn is_owned(owned: &[String], path: &str) -> bool {
    owned.iter().any(|entry| owns(entry, path))
}

/// True when an entry of `owned` holds `path` and none of the `recorded` owned entries
/// does. Without a recorded list nothing is newly owned.
fn newly_owned(recorded: Option<&[String]>, owned: &[String], path: &str) -> bool {
    let held_by = |entries: &[String]| entries.iter().any(|entry| owns(entry, path));
    recorded.is_some_and(|recorded| held_by(owned) && !held_by(recorded))
}

/// Sets `# owned:` to `owned`, sorted and without repeats.
fn set_owned(baseline: &mut Baseline, owned: &[String], changes: &mut Changes) {
    let mut dirs = owned.to_vec();
    dirs.sort();
    dirs.dedup();
    changes.owned_changed = baseline.owned.as_ref() != Some(&dirs);
    baseline.owned = Some(dirs);
}
