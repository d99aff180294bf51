//! How each unit of a measured file stands, a byte apiece ([`Marks`]): judged once, with
//! the file's findings, and carried to `measure`'s text, which shows `ok` beside a unit
//! within its limits without judging it again and judges only a unit past one for its
//! words (docs/src/reference/limits.md).

use super::{file_past_each, FileTerms, Finding, Status};
use crate::baseline::Allowances;
use crate::limits::Limits;
use crate::model::FileMeasure;

/// How one unit (or the file itself) stands against its limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    /// No limit applies to any of its values.
    #[default]
    Unjudged,
    /// Every judged value is within its limit.
    Ok,
    /// A value is past its limit: a divergence, tolerated or an excess.
    Past,
}

/// The marks of one file: its own values' and each unit's, in the order of its units.
/// Empty where the file has no limits: every unit unjudged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    pub file: Mark,
    units: Box<[Mark]>,
}

impl Marks {
    /// The file marked `file`, its units left out (each unjudged).
    pub fn of_file(file: Mark) -> Marks {
        Marks {
            file,
            units: Box::default(),
        }
    }

    /// The mark of the file's unit at `index` (in the order of its units).
    pub fn unit(&self, index: usize) -> Mark {
        self.units.get(index).copied().unwrap_or_default()
    }

    /// Every value of `m` within its limit: a unit is ok where a limit judges one of its
    /// values.
    fn all_ok(terms: &FileTerms, m: &FileMeasure) -> Marks {
        let mark = |judged| if judged { Mark::Ok } else { Mark::Unjudged };
        Marks {
            file: Mark::Ok,
            units: m.units.iter().map(|u| mark(terms.judges(u))).collect(),
        }
    }

    /// Each value of `m` judged by `terms`.
    fn each(terms: &FileTerms, m: &FileMeasure) -> Marks {
        let name = m.file_name();
        let file_values = m.file_values().into_iter();
        let file =
            file_values.filter_map(|(metric, value)| terms.value(&m.path, name, metric, value));
        let units = m.units.iter().map(|u| {
            let values = u.values();
            let verdicts =
                values.filter_map(|(metric, value)| terms.unit_value(&m.path, u, metric, value));
            worst(verdicts.map(|v| v.status))
        });
        Marks {
            file: worst(file.map(|v| v.status)).max_ok(),
            units: units.collect(),
        }
    }
}

impl Mark {
    /// A file's own mark: `ok` where nothing is past, judged or not (its line says `ok`
    /// wherever its context limits its language).
    fn max_ok(self) -> Mark {
        match self {
            Mark::Past => Mark::Past,
            _ => Mark::Ok,
        }
    }
}

/// The mark of a unit judged to `statuses`.
fn worst(statuses: impl Iterator<Item = Status>) -> Mark {
    let mut mark = Mark::Unjudged;
    for status in statuses {
        if status != Status::Ok {
            return Mark::Past;
        }
        mark = Mark::Ok;
    }
    mark
}

/// [`super::file_past`] (the file's values past their limits, same-name units merged) with the
/// marks of the file and of each of its units, unmerged.
pub fn file_judged(
    limits: &Limits,
    m: &FileMeasure,
    allowances: &Allowances,
) -> (Vec<Finding>, Marks) {
    let terms = FileTerms::new(limits, allowances, &m.path, false);
    // Where the file's own entries are all that tolerate it and all its values are ok,
    // its units are ok or unjudged: no value needs its verdict.
    if terms.all_ok_by_own_entries(m) {
        return (Vec::new(), Marks::all_ok(&terms, m));
    }
    (
        file_past_each(&terms, m, allowances),
        Marks::each(&terms, m),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{Baseline, EntryKey};
    use crate::model::{Metric, Unit, UnitKind};

    /// A file within its limits is marked without a verdict: each function ok, a type no
    /// limit judges unjudged. Past a limit, each unit is marked by its own values,
    /// unmerged with its namesakes: the `f` of 50 lines ok beside the `f` of 61 past,
    /// the `g` its entry tolerates past, the file's own values ok.
    #[test]
    fn each_unit_is_marked_by_its_own_values() {
        let unit = |name: &str, kind, start, end| Unit::new(name.to_string(), kind, start, end);
        let function = |name, start, end| unit(name, UnitKind::Function, start, end);
        let file = |units| FileMeasure {
            lines: 200,
            types: 1,
            bytes: 100,
            ..FileMeasure::rust_for_test("a.rs", units)
        };
        let entry = EntryKey {
            path: "a.rs".to_string(),
            unit: "g".to_string(),
            metric: Metric::FunctionLines,
        };
        let baseline = Baseline {
            units: Some(crate::baseline::UNITS_REVISION),
            entries: [(entry, 70)].into(),
            ..Baseline::default()
        };
        let allowances = Allowances {
            own: Some(&baseline),
            ..Allowances::default()
        };
        let mut limits = Limits {
            tolerance_percent: 20,
            ..Limits::default()
        };
        limits.values.insert(Metric::FunctionLines, 50);
        let marked = |units| {
            let (findings, marks) = file_judged(&limits, &file(units), &allowances);
            let units: Vec<Mark> = (0..4).map(|i| marks.unit(i)).collect();
            (findings.len(), marks.file, units)
        };
        let ok = marked(vec![
            function("f", 1, 50),
            unit("T", UnitKind::Type, 55, 199),
            function("g", 60, 109),
        ]);
        use Mark::{Ok, Past, Unjudged};
        assert_eq!(ok, (0, Ok, vec![Ok, Unjudged, Ok, Unjudged]));
        let past = marked(vec![
            function("f", 1, 50),
            unit("T", UnitKind::Type, 55, 199),
            function("f", 60, 120),
            function("g", 130, 199),
        ]);
        assert_eq!(past, (2, Ok, vec![Ok, Unjudged, Past, Past]));
    }
}
