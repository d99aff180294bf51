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
    if names_distinct(units) {
        // Nothing to merge: one value per unit and metric, as they come.
        out.extend(values.map(|(u, metric, value)| ValueRef::of(path, u, metric, value)));
    } else {
        merge_units(path, values, count, out);
    }
}

/// True when no two of `units` share a name (most files): their values need no merging.
fn names_distinct(units: &[Unit]) -> bool {
    let mut seen: HashSet<&str, BuildHasherDefault<Fnv>> =
        HashSet::with_capacity_and_hasher(units.len(), Default::default());
    units.iter().all(|u| seen.insert(u.name.as_str()))
}

/// Appends to `out` one value per unit name and metric of `values` (a unit, one of its
/// metrics and its value): where units share a name, the worse (larger) value of each
/// metric, with the lines of the unit whose value it is (the first of equals). `count`:
/// how many values there are.
pub(super) fn merge_units<'a>(
    path: &'a str,
    values: impl Iterator<Item = (&'a Unit, Metric, u64)>,
    count: usize,
    out: &mut Vec<ValueRef<'a>>,
) {
    // Where each (metric, name) first stands in `out`, so a file of thousands of units is
    // not quadratic.
    let mut first: HashMap<(Metric, &str), usize, BuildHasherDefault<Fnv>> =
        HashMap::with_capacity_and_hasher(count, Default::default());
    for (unit, metric, value) in values {
        match first.entry((metric, unit.name.as_str())) {
            Entry::Occupied(at) => {
                let seen = &mut out[*at.get()];
                if value > seen.value {
                    seen.value = value;
                    seen.start_line = unit.start_line;
                    seen.end_line = unit.end_line;
                }
                seen.anonymous &= unit.anonymous;
            }
            Entry::Vacant(at) => {
                at.insert(out.len());
                out.push(ValueRef::of(path, unit, metric, value));
            }
        }
    }
}

/// FNV-1a: a unit name's hash for [`super::FileMeasure::value_refs`], a few instructions a
/// byte where the standard SipHash costs many; its keys are one file's own names.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}
