//! Same-name groups at the gate (docs/src/reference/gate.md#integrity): units of one file that share a name
//! and metric merge at the worse value (docs/src/reference/measurement.md), and a baseline entry for that name
//! tolerates as many of them as the group held at the base — its largest ones — while
//! the rest are judged without allowance. A second Go `func init()`, a Python fallback
//! `def` under `except ImportError`, an overload, a setter or a same-name callback added
//! beside a baselined unit gets no share of its entry.

use std::collections::HashMap;

use serde::Serialize;

use crate::model::{FileMeasure, Metric, Unit, UnitValue};

/// How many units of each metric and name the base's version of a file holds: a file the
/// base doesn't hold has none of any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BaseCounts(HashMap<(Metric, String), usize>);

impl BaseCounts {
    /// The counts of the base's version of a file, measured.
    pub fn of(m: &FileMeasure) -> BaseCounts {
        let mut counts = HashMap::new();
        for unit in &m.units {
            for (metric, _) in unit.values() {
                *counts.entry((metric, unit.name.to_string())).or_default() += 1;
            }
        }
        BaseCounts(counts)
    }

    /// Adds the units named `name` that `old` counts: a unit moved in from the file `old`
    /// counts (docs/src/reference/baseline.md#moved-units).
    pub fn add_moved(&mut self, old: &BaseCounts, name: &str) {
        for ((metric, unit), n) in &old.0 {
            if unit == name {
                *self.0.entry((*metric, unit.clone())).or_default() += n;
            }
        }
    }

    fn get(&self, metric: Metric, name: &str) -> usize {
        self.0
            .get(&(metric, name.to_string()))
            .copied()
            .unwrap_or(0)
    }
}

/// A value judged without allowance because its same-name group holds more units than
/// at the base: `units` now, `at_base` then (the entry covers that many, the largest).
/// JSON: `{"units", "at_base"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SameName {
    pub units: usize,
    pub at_base: usize,
}

/// True when judging `m` depends on how many units its groups held at the base: some
/// unit's name and metric has an entry (`has_entry`).
pub fn needs_base_counts(m: &FileMeasure, has_entry: impl Fn(&str, Metric) -> bool) -> bool {
    let mut keys = m
        .units
        .iter()
        .flat_map(|u| u.values().map(|(m, _)| (&u.name, m)));
    keys.any(|(name, metric)| has_entry(name, metric))
}

/// The values of `m` to judge, each with the [`SameName`] that takes its allowance away
/// where there is one. Without `at_base` (no base to count: `measure --check`, or a base
/// version that wasn't measured) these are [`FileMeasure::values`]: each group one value
/// at its worse. With it, a group with an entry (`has_entry`) that holds more units than
/// at the base is two values: its largest units up to the base's count, merged (judged
/// with the entry; none when the base held none), and the rest, merged at their worse
/// value and marked (judged without it).
pub fn grouped(
    m: &FileMeasure,
    at_base: Option<&BaseCounts>,
    has_entry: impl Fn(&str, Metric) -> bool,
) -> Vec<(UnitValue, Option<SameName>)> {
    let values = m.values();
    let Some(counts) = at_base else {
        return values.into_iter().map(|v| (v, None)).collect();
    };
    let mut groups: HashMap<(Metric, &str), Vec<&Unit>> = HashMap::new();
    for unit in &m.units {
        for (metric, _) in unit.values() {
            groups
                .entry((metric, unit.name.as_str()))
                .or_default()
                .push(unit);
        }
    }
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        let group = groups.get(&(v.metric, v.unit.as_str()));
        let at_base = counts.get(v.metric, &v.unit);
        let over = group.filter(|g| g.len() > at_base && has_entry(&v.unit, v.metric));
        let Some(group) = over else {
            out.push((v, None));
            continue;
        };
        let mut largest: Vec<&Unit> = group.clone();
        // Largest first; among equals, the first in the file (as the merge keeps it).
        largest.sort_by_key(|u| std::cmp::Reverse(u.value(v.metric)));
        let rest = largest[at_base];
        let same_name = SameName {
            units: group.len(),
            at_base,
        };
        let beyond = UnitValue {
            value: rest.value(v.metric).unwrap_or(0),
            start_line: rest.start_line,
            end_line: rest.end_line,
            ..v.clone()
        };
        if at_base > 0 {
            out.push((v, None));
        }
        out.push((beyond, Some(same_name)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::test_support::measured;

    fn shown(values: &[(UnitValue, Option<SameName>)]) -> Vec<String> {
        values
            .iter()
            .filter(|(v, _)| v.metric == crate::model::Metric::FunctionLines)
            .map(|(v, same)| {
                let same = same.map_or(String::new(), |s| {
                    format!(" ({} of {})", s.at_base, s.units)
                });
                format!(
                    "{} {}-{} {}{same}",
                    v.unit, v.start_line, v.end_line, v.value
                )
            })
            .collect()
    }

    #[test]
    fn a_group_past_its_base_count_is_split_at_its_largest_units() {
        // Three `init`s (4, 6 and 5 lines) and one `run`.
        let src = "package a\n\nfunc init() {\n\t_ = 1\n\t_ = 2\n}\n\nfunc init() {\n\t_ = 1\n\t_ = 2\n\t_ = 3\n\t_ = 4\n}\n\nfunc init() {\n\t_ = 1\n\t_ = 2\n\t_ = 3\n}\n\nfunc run() {\n}\n";
        let m = measured("a.go", src);
        let base = measured("a.go", "package a\n\nfunc init() {\n}\n\nfunc run() {\n}\n");
        let counts = BaseCounts::of(&base);
        let entry = |name: &str, _| name == "init" || name == "run";
        assert_eq!(
            shown(&grouped(&m, Some(&counts), entry)),
            ["init 8-13 6", "init 15-19 5 (1 of 3)", "run 21-22 2"]
        );
        // Without a base count, or an entry, a group is one value at its worse.
        assert_eq!(
            shown(&grouped(&m, None, entry)),
            ["init 8-13 6", "run 21-22 2"]
        );
        assert_eq!(
            shown(&grouped(&m, Some(&counts), |_, _| false)),
            ["init 8-13 6", "run 21-22 2"]
        );
        // Two at the base: the entry covers the two largest.
        let two = measured(
            "a.go",
            "package a\nfunc init() {}\nfunc init() {}\nfunc run() {}\n",
        );
        assert_eq!(
            shown(&grouped(&m, Some(&BaseCounts::of(&two)), entry)),
            ["init 8-13 6", "init 3-6 4 (2 of 3)", "run 21-22 2"]
        );
        // None at the base (a file new there, or an entry left from an older version):
        // the entry covers none.
        assert_eq!(
            shown(&grouped(&m, Some(&BaseCounts::default()), entry)),
            ["init 8-13 6 (0 of 3)", "run 21-22 2 (0 of 1)"]
        );
        assert!(needs_base_counts(&m, entry));
        assert!(!needs_base_counts(&m, |_, _| false));
    }
}
