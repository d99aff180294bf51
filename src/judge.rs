//! The one judge: (limits, baseline allowance, value) → status. `measure --check`,
//! `baseline init|refresh` and `gate` all decide through this module and nowhere else.

use crate::limits::Limits;
use crate::model::{Metric, UnitValue};

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
}
