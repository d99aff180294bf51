//! The values of one file's units for the judge: units that share a name are merged,
//! metric by metric, into one at the worse value ([`super::FileMeasure::value_refs`]).

use std::collections::hash_map::{Entry, HashMap};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Metric, Unit, ValueRef};

/// Appends to `out` the values of `units`, measured in the file at `path`, merged by name:
/// one per unit and metric where every name is its own. `count`: how many values they
/// hold.
pub(super) fn push_values<'a>(
    path: &'a str,
    units: &'a [Unit],
    count: usize,
    out: &mut Vec<ValueRef<'a>>,
) {
    let values = units
        .iter()
        .flat_map(|u| u.values().map(move |(metric, value)| (u, metric, value)));
    let Some(shared) = shared_names(units) else {
        // Nothing to merge: one value per unit and metric, as they come.
        out.extend(values.map(|(u, metric, value)| ValueRef::of(path, u, metric, value)));
        return;
    };
    merge_units(path, values, (count, |name| shared.contains(name)), out);
}

/// The names two or more of `units` share; `None` where every name is its own (most
/// files): their values need no merging. A few units are compared pairwise; more, by a
/// set of their names.
fn shared_names(units: &[Unit]) -> Option<HashSet<&str, BuildHasherDefault<Fx>>> {
    if units.len() <= PAIRWISE && all_own_names(units) {
        return None;
    }
    let mut seen: HashSet<&str, BuildHasherDefault<Fx>> =
        HashSet::with_capacity_and_hasher(units.len(), Default::default());
    let mut shared: HashSet<&str, BuildHasherDefault<Fx>> = HashSet::default();
    for u in units {
        if !seen.insert(u.name.as_str()) {
            shared.insert(u.name.as_str());
        }
    }
    (!shared.is_empty()).then_some(shared)
}

/// Units up to which [`shared_names`] compares names pairwise rather than hashing them.
const PAIRWISE: usize = 12;

/// True where no two of `units` share a name, compared pairwise.
fn all_own_names(units: &[Unit]) -> bool {
    units
        .iter()
        .enumerate()
        .all(|(i, u)| units[i + 1..].iter().all(|other| other.name != u.name))
}

/// Appends to `out` what `keep` keeps of the values of `units`, measured in the file at
/// `path`, merged by name, in [`push_values`]' order: the values of a name of its own as
/// they come, nothing collected; those of namesakes merged first, each where its name
/// and metric first stand.
pub(super) fn keep_values<'a, T>(
    path: &'a str,
    units: &'a [Unit],
    keep: &mut impl FnMut(ValueRef<'a>) -> Option<T>,
    out: &mut Vec<T>,
) {
    let values = units
        .iter()
        .flat_map(|u| u.values().map(move |(metric, value)| (u, metric, value)));
    let Some(shared) = shared_names(units) else {
        out.extend(
            values.filter_map(|(u, metric, value)| keep(ValueRef::of(path, u, metric, value))),
        );
        return;
    };
    /// A value kept as it came, or a namesakes' value still merging.
    enum Slot<'a, T> {
        Kept(T),
        Merging(ValueRef<'a>),
    }
    let mut slots: Vec<Slot<'a, T>> = Vec::new();
    let mut merging: HashMap<(Metric, &str), usize, BuildHasherDefault<Fx>> = HashMap::default();
    for (unit, metric, value) in values {
        if !shared.contains(unit.name.as_str()) {
            slots.extend(keep(ValueRef::of(path, unit, metric, value)).map(Slot::Kept));
            continue;
        }
        match merging.entry((metric, unit.name.as_str())) {
            Entry::Occupied(at) => {
                if let Slot::Merging(seen) = &mut slots[*at.get()] {
                    raise(seen, unit, value);
                }
            }
            Entry::Vacant(at) => {
                at.insert(slots.len());
                slots.push(Slot::Merging(ValueRef::of(path, unit, metric, value)));
            }
        }
    }
    out.extend(slots.into_iter().filter_map(|slot| match slot {
        Slot::Kept(kept) => Some(kept),
        Slot::Merging(merged) => keep(merged),
    }));
}

/// Merges `value` of `unit` into `seen`, its namesakes' value of the same metric: the
/// larger stands, with the lines of its unit (the first of equals).
fn raise(seen: &mut ValueRef, unit: &Unit, value: u64) {
    if value > seen.value {
        seen.value = value;
        seen.start_line = unit.start_line;
        seen.end_line = unit.end_line;
    }
    seen.anonymous &= unit.anonymous;
}

/// Appends to `out` one value per unit name and metric of `values` (a unit, one of its
/// metrics and its value): where units share a name, the worse (larger) value of each
/// metric, with the lines of the unit whose value it is (the first of equals). `count`:
/// how many values there are; `shared`: true for each name two or more units share.
/// Only their values are merged: the rest stand as they come, where they would stand
/// merged too (each is the first of its name and metric).
pub(super) fn merge_units<'a>(
    path: &'a str,
    values: impl Iterator<Item = (&'a Unit, Metric, u64)>,
    (count, shared): (usize, impl Fn(&str) -> bool),
    out: &mut Vec<ValueRef<'a>>,
) {
    let mut merged = Merged::with_capacity(count);
    for (unit, metric, value) in values {
        if shared(&unit.name) {
            merged.push(path, unit, (metric, value), out);
        } else {
            out.push(ValueRef::of(path, unit, metric, value));
        }
    }
}

/// Where each (metric, name) first stands in `out`, so a file of thousands of units is
/// not quadratic.
struct Merged<'a>(HashMap<(Metric, &'a str), usize, BuildHasherDefault<Fx>>);

impl<'a> Merged<'a> {
    fn with_capacity(count: usize) -> Self {
        Merged(HashMap::with_capacity_and_hasher(count, Default::default()))
    }

    /// Appends the value to `out`, or raises the value of its name and metric there to it
    /// where it is larger.
    fn push(
        &mut self,
        path: &'a str,
        unit: &'a Unit,
        (metric, value): (Metric, u64),
        out: &mut Vec<ValueRef<'a>>,
    ) {
        match self.0.entry((metric, unit.name.as_str())) {
            Entry::Occupied(at) => raise(&mut out[*at.get()], unit, value),
            Entry::Vacant(at) => {
                at.insert(out.len());
                out.push(ValueRef::of(path, unit, metric, value));
            }
        }
    }
}

/// A unit name's hash for [`super::FileMeasure::value_refs`], eight bytes a step (the
/// rustc compiler's Fx hash) where the standard SipHash costs many instructions a byte;
/// its keys are one file's own names, never an adversary's choice of collisions that
/// matters: a collision costs a comparison, never a wrong merge.
#[derive(Default)]
struct Fx(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}
