//! One file's terms ([`FileTerms`]): what judges each of its values, read once for all
//! of them.

use super::{accepted_raise, judges_anonymous, Growth, SameName, Status, Verdict};
use crate::baseline::{Allowances, FileEntries};
use crate::limits::Limits;
use crate::model::{metric, FileMeasure, Metric, Unit, ValueRef, METRICS};

/// What [`super::verdict`] reads of a metric's limits: its limit, band and pin.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    limit: u64,
    band: u64,
    pinned: bool,
}

impl Bounds {
    /// `None` where `limits` don't limit `metric`.
    pub(super) fn of(limits: &Limits, metric: Metric) -> Option<Bounds> {
        Some(Bounds {
            limit: limits.limit(metric)?,
            band: limits.band(metric)?,
            pinned: limits.is_pinned(metric),
        })
    }

    /// [`super::verdict`] on `value` of `metric`, bounded by these.
    pub(super) fn verdict(self, metric: Metric, value: u64, allowance: Option<u64>) -> Verdict {
        let Bounds {
            limit,
            band,
            pinned,
        } = self;
        let status = if pinned && allowance.is_some_and(|pin| value > pin) {
            Status::Excess
        } else if value <= limit {
            Status::Ok
        } else if value <= band {
            Status::Divergence
        } else if allowance.is_some_and(|allowed| value <= allowed) {
            Status::Tolerated
        } else {
            Status::Excess
        };
        Verdict {
            metric,
            value,
            limit,
            band,
            baseline: allowance,
            status,
            pinned,
            accepted: None,
            growth_refused: None,
            same_name: None,
        }
    }
}

/// One file's terms, read once for all its values: its own limits (its tier's, and the
/// new-file limit when it is `new`, docs/src/reference/documents.md#pins-and-tiers) and
/// the allowances its entries give. Every value `measure`, `baseline` and the gate judge
/// is judged here.
pub struct FileTerms<'a> {
    /// The file's limits, metric by metric.
    bounds: [Option<Bounds>; metric::COUNT],
    allowances: Allowances<'a>,
    /// The file's entries, where its own baseline's are all that tolerate its values:
    /// each value is looked up among them alone.
    entries: Option<FileEntries<'a>>,
    /// [`judges_anonymous`] by the file's own baseline.
    anonymous: bool,
}

impl<'a> FileTerms<'a> {
    /// The terms of the file at `path`: they judge its values alone.
    pub fn new(limits: &Limits, allowances: &Allowances<'a>, path: &str, new: bool) -> Self {
        let limits = limits.for_file(path, new);
        // Whether anonymous units are judged is the whole baseline's to say, entries for
        // this file or not.
        let anonymous = judges_anonymous(allowances.own);
        let allowances = allowances.for_file(path);
        FileTerms {
            bounds: std::array::from_fn(|i| Bounds::of(&limits, METRICS[i].metric)),
            entries: allowances.own_entries(path),
            allowances,
            anonymous,
        }
    }

    /// The verdict on one value of the file; `None` where its metric has no limit. A
    /// value past its same-name group's count at the base (`same_name`) has no entry of
    /// any kind; a pin the branch raised is honoured or refused under `--accept-growth`.
    pub fn verdict(&self, v: &ValueRef, same_name: Option<SameName>) -> Option<Verdict> {
        let bounds = self.bounds[v.metric as usize]?;
        let none = Allowances::default();
        let allowances = if same_name.is_some() {
            &none
        } else {
            &self.allowances
        };
        let allowance = match (&self.entries, same_name) {
            (Some(entries), None) => entries.get(v.unit, v.metric),
            _ => allowances.get(v.path, v.unit, v.metric),
        };
        let mut judged = bounds.verdict(v.metric, v.value, allowance);
        judged.same_name = same_name;
        match accepted_raise(allowances, v, &judged) {
            Some(Ok(raised)) => {
                judged = bounds.verdict(v.metric, v.value, Some(raised));
                judged.accepted = Some(Growth {
                    from: allowance,
                    to: raised,
                });
            }
            Some(Err(refused)) => judged.growth_refused = Some(refused),
            None => {}
        }
        Some(judged)
    }

    /// The values of `m`, the file these terms are for, that are not ok, with their
    /// verdicts, in [`FileMeasure::value_refs`]' order; anonymous-function units only
    /// where `anonymous` (the baseline doesn't predate them). Units that share a name are
    /// merged first, unless the file's own entries are all that tolerate it and every
    /// unit's value is ok ([`FileTerms::all_ok_by_own_entries`]); a file whose every name
    /// is its own is judged value by value, nothing merged or collected.
    pub(super) fn past<'m>(
        &self,
        m: &'m FileMeasure,
        anonymous: bool,
    ) -> Vec<(ValueRef<'m>, Verdict)> {
        if self.all_ok_by_own_entries(m) {
            return Vec::new();
        }
        self.past_each(m, anonymous)
    }

    /// [`FileTerms::past`] without first asking whether every value is ok.
    pub(super) fn past_each<'m>(
        &self,
        m: &'m FileMeasure,
        anonymous: bool,
    ) -> Vec<(ValueRef<'m>, Verdict)> {
        m.kept_values(|v| {
            if (v.anonymous && !anonymous) || self.plainly_ok(v.metric, v.value) {
                return None;
            }
            let verdict = self.verdict(&v, None)?;
            (verdict.status != Status::Ok).then_some((v, verdict))
        })
    }

    /// True where the limit of `metric` alone says `value` is ok: within it and not
    /// pinned, so that no allowance can make it otherwise, or not limited at all.
    fn plainly_ok(&self, metric: Metric, value: u64) -> bool {
        self.bounds[metric as usize].is_none_or(|b| !b.pinned && value <= b.limit)
    }

    /// True when the file's own entries are all that tolerate it and no value of `m`, the
    /// file these terms are for, is past its limit: its own, and every unit's, anonymous
    /// ones too.
    pub(super) fn all_ok_by_own_entries(&self, m: &FileMeasure) -> bool {
        self.entries.is_some() && self.all_ok(m)
    }

    fn all_ok(&self, m: &FileMeasure) -> bool {
        let ok = |unit: &str, metric, value| {
            self.plainly_ok(metric, value)
                || self
                    .value(&m.path, unit, metric, value)
                    .is_none_or(|v| v.status == Status::Ok)
        };
        let name = m.file_name();
        m.file_values()
            .into_iter()
            .all(|(metric, value)| ok(name, metric, value))
            && m.units
                .iter()
                .all(|u| u.values().all(|(metric, value)| ok(&u.name, metric, value)))
    }

    /// [`FileTerms::verdict`] on `value` of `metric` of the unit `unit` of the file at
    /// `path`, where no same-name group is in question (`measure`).
    pub fn value(&self, path: &str, unit: &str, metric: Metric, value: u64) -> Option<Verdict> {
        let v = ValueRef {
            path,
            unit,
            metric,
            value,
            start_line: 0,
            end_line: 0,
            anonymous: false,
        };
        self.verdict(&v, None)
    }

    /// True when a limit judges a value of `unit` ([`FileTerms::unit_value`] gives one a
    /// verdict), whatever the value.
    pub fn judges(&self, unit: &Unit) -> bool {
        (self.anonymous || !unit.anonymous)
            && unit
                .values()
                .any(|(metric, _)| self.bounds[metric as usize].is_some())
    }

    /// [`FileTerms::value`] for a value of `unit`: `None` too for an anonymous-function
    /// unit the baseline predates ([`judges_anonymous`]).
    pub fn unit_value(
        &self,
        path: &str,
        unit: &Unit,
        metric: Metric,
        value: u64,
    ) -> Option<Verdict> {
        let judged = self.anonymous || !unit.anonymous;
        judged
            .then(|| self.value(path, &unit.name, metric, value))
            .flatten()
    }
}
