//! The one judge: (limits, baseline allowance, value) → status. `measure --check`,
//! `baseline init|refresh` and `gate` all decide through this module and nowhere else.

use crate::limits::Limits;
use crate::model::{Metric, UnitValue};
use crate::terms::diff::{Term, TermValue};

/// How one value stands against its context's limits and baseline (SPEC §3, §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// At or under the limit.
    Ok,
    /// Over the limit, within the band: passes, listed.
    Divergence,
    /// Past the band, at or under its baseline value: passes silently.
    Tolerated,
    /// Past the band and not tolerated: fails.
    Excess,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Divergence => "divergence",
            Status::Tolerated => "tolerated",
            Status::Excess => "excess",
        }
    }
}

/// A value past its limit, with everything a report names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: String,
    pub unit: String,
    pub metric: Metric,
    pub value: u64,
    pub limit: u64,
    pub band: u64,
    /// The baseline's recorded value for this unit, where there is one.
    pub baseline: Option<u64>,
    pub start_line: u32,
    pub end_line: u32,
    pub status: Status,
}

/// A judged value without its names: what `measure` keeps for every unit it lists (a
/// [`Finding`] per unit would copy every path and unit name once more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub metric: Metric,
    pub value: u64,
    pub limit: u64,
    pub band: u64,
    pub baseline: Option<u64>,
    pub status: Status,
}

impl From<&Finding> for Verdict {
    fn from(f: &Finding) -> Verdict {
        Verdict {
            metric: f.metric,
            value: f.value,
            limit: f.limit,
            band: f.band,
            baseline: f.baseline,
            status: f.status,
        }
    }
}

impl From<&Verdict> for Verdict {
    fn from(v: &Verdict) -> Verdict {
        *v
    }
}

/// The verdict on `value` of `metric` given its baseline allowance; `None` when the
/// metric has no limit.
pub fn verdict(
    limits: &Limits,
    metric: Metric,
    value: u64,
    allowance: Option<u64>,
) -> Option<Verdict> {
    Some(Verdict {
        metric,
        value,
        limit: limits.limit(metric)?,
        band: limits.band(metric)?,
        baseline: allowance,
        status: status(limits, metric, value, allowance)?,
    })
}

/// True when `value` is past the band of `metric` (the test `baseline` uses to decide
/// what to record).
pub fn past_band(limits: &Limits, metric: Metric, value: u64) -> bool {
    limits.band(metric).is_some_and(|band| value > band)
}

/// The status of one value; `None` when the metric has no limit.
pub fn status(
    limits: &Limits,
    metric: Metric,
    value: u64,
    allowance: Option<u64>,
) -> Option<Status> {
    let limit = limits.limit(metric)?;
    let band = limits.band(metric)?;
    Some(if value <= limit {
        Status::Ok
    } else if value <= band {
        Status::Divergence
    } else if allowance.is_some_and(|allowed| value <= allowed) {
        Status::Tolerated
    } else {
        Status::Excess
    })
}

/// Judges one value; `None` when its metric has no limit.
pub fn judge_value(limits: &Limits, value: &UnitValue, allowance: Option<u64>) -> Option<Finding> {
    let status = status(limits, value.metric, value.value, allowance)?;
    Some(Finding {
        path: value.path.clone(),
        unit: value.unit.clone(),
        metric: value.metric,
        value: value.value,
        limit: limits.limit(value.metric)?,
        band: limits.band(value.metric)?,
        baseline: allowance,
        start_line: value.start_line,
        end_line: value.end_line,
        status,
    })
}

/// True when `baseline refresh` would lower or drop the entry that tolerates a judged
/// value: the value is below the entry (still past the band) or back within its band
/// (SPEC §6.1 "baseline can tighten").
pub fn can_tighten(finding: &Finding) -> bool {
    finding
        .baseline
        .is_some_and(|entry| finding.value < entry || finding.value <= finding.band)
}

/// Whether a change of a term from `from` to `to` (`None`: that side doesn't have it)
/// loosens the terms a branch is judged by (SPEC §6.1): a raised or removed limit, a
/// raised tolerance, a removed `sources` entry or context, one added that takes over
/// directories another context owned, a removed baseline, an added or raised baseline
/// entry, `children.require_contract` lowered (true, then unset, then false), and a terms
/// file that doesn't read. Everything else tightens.
pub fn loosens(term: &Term, from: Option<&TermValue>, to: Option<&TermValue>) -> bool {
    let number = |v: Option<&TermValue>, absent: u64| match v {
        Some(TermValue::Number(n)) => *n,
        _ => absent,
    };
    match term {
        Term::Limit(_) => number(to, u64::MAX) > number(from, u64::MAX),
        Term::Tolerance | Term::Entry(_) => number(to, 0) > number(from, 0),
        Term::Context { taken_from } | Term::Source { taken_from } => {
            to.is_none() || !taken_from.is_empty()
        }
        Term::Baseline => to.is_none(),
        Term::RequireContract => strictness(to) < strictness(from),
        Term::Unreadable => true,
    }
}

/// How strictly a contract's `children.require_contract` binds the directories below:
/// an explicit `true` (no descendant may lower it), unset (inherited), `false`.
fn strictness(value: Option<&TermValue>) -> u8 {
    match value {
        Some(TermValue::Flag(true)) => 2,
        Some(TermValue::Flag(false)) => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(function_lines: u64, tolerance: u64) -> Limits {
        let mut l = Limits::default();
        l.values.insert(Metric::FunctionLines, function_lines);
        l.tolerance_percent = tolerance;
        l
    }

    #[test]
    fn band_of_spec_example_ends_at_68() {
        assert_eq!(limits(55, 25).band(Metric::FunctionLines), Some(68));
    }

    #[test]
    fn statuses_at_each_edge() {
        let l = limits(55, 25);
        let s = |v, a| status(&l, Metric::FunctionLines, v, a);
        assert_eq!(s(55, None), Some(Status::Ok));
        assert_eq!(s(56, None), Some(Status::Divergence));
        assert_eq!(s(68, None), Some(Status::Divergence));
        assert_eq!(s(69, None), Some(Status::Excess));
        assert_eq!(s(91, Some(91)), Some(Status::Tolerated));
        assert_eq!(s(92, Some(91)), Some(Status::Excess));
        assert_eq!(s(60, Some(91)), Some(Status::Divergence));
        assert_eq!(status(&l, Metric::TypeLines, 1000, None), None);
    }

    #[test]
    fn what_loosens_for_every_kind_of_term() {
        use TermValue::{Flag, Number, Text};
        let (n, t) = (|v| Some(Number(v)), |v: &str| Some(Text(v.to_string())));
        let flag = |v| Some(Flag(v));
        let entry = Term::Entry(crate::baseline::EntryKey {
            path: "a.rs".to_string(),
            unit: "f".to_string(),
            metric: Metric::FunctionLines,
        });
        let none: Vec<String> = Vec::new();
        let taken = vec!["web".to_string()];
        let cases = [
            (Term::Limit(Metric::FunctionLines), n(10), n(40), true),
            (Term::Limit(Metric::FunctionLines), n(40), n(10), false),
            (Term::Limit(Metric::TypeLines), n(300), None, true),
            (Term::Limit(Metric::TypeLines), None, n(300), false),
            (Term::Tolerance, n(20), n(30), true),
            (Term::Tolerance, n(20), n(0), false),
            (entry.clone(), None, n(25), true),
            (entry.clone(), n(20), n(25), true),
            (entry.clone(), n(25), n(20), false),
            (entry, n(25), None, false),
            (
                Term::Source {
                    taken_from: none.clone(),
                },
                t("lib"),
                None,
                true,
            ),
            (
                Term::Source {
                    taken_from: none.clone(),
                },
                None,
                t("lib"),
                false,
            ),
            (
                Term::Source {
                    taken_from: taken.clone(),
                },
                None,
                t("web/x"),
                true,
            ),
            (
                Term::Context {
                    taken_from: none.clone(),
                },
                t("web"),
                None,
                true,
            ),
            (Term::Context { taken_from: none }, None, t("web"), false),
            (Term::Context { taken_from: taken }, None, t("src/x"), true),
            (Term::Baseline, t("2 entries"), None, true),
            (Term::Baseline, None, t("2 entries"), false),
            (Term::RequireContract, flag(true), flag(false), true),
            (Term::RequireContract, flag(true), None, true),
            (Term::RequireContract, None, flag(false), true),
            (Term::RequireContract, flag(false), flag(true), false),
            (Term::RequireContract, flag(false), None, false),
            (Term::Unreadable, None, t("x.md:1: bad"), true),
        ];
        for (term, from, to, expected) in cases {
            let got = loosens(&term, from.as_ref(), to.as_ref());
            assert_eq!(got, expected, "{term:?} {from:?} -> {to:?}");
        }
    }

    #[test]
    fn can_tighten_below_the_entry_or_within_the_band() {
        let l = limits(10, 20);
        let finding = |value, entry| {
            let v = UnitValue {
                path: "a.rs".to_string(),
                unit: "f".to_string(),
                metric: Metric::FunctionLines,
                value,
                start_line: 1,
                end_line: 1,
            };
            judge_value(&l, &v, entry).expect("limited")
        };
        assert!(can_tighten(&finding(15, Some(20))));
        assert!(can_tighten(&finding(11, Some(20))));
        assert!(can_tighten(&finding(5, Some(20))));
        assert!(!can_tighten(&finding(20, Some(20))));
        assert!(!can_tighten(&finding(25, Some(20))));
        assert!(!can_tighten(&finding(5, None)));
    }
}
