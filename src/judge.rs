//! The one judge (stage 5): every decision structgate makes. One value against its
//! context's limits and baseline ([`verdict`]); one file's values with their allowances,
//! a renamed file's old entries among them ([`file`], shared by `measure --check`,
//! `baseline refresh` and `gate`); which entries a file renamed since its baseline was
//! last changed carries ([`carried`], shared by `baseline refresh` and `measure --check`); the gate's decisions over all of them (`gate`: which
//! contexts are judged, the worse of two sandboxes, the overall status; `groups`: how
//! much of a same-name group an entry covers, by the group's count at the base); and what a
//! branch's changes to its own terms do (`review`). Pure: values in, values out.

mod carry;
mod changed_file;
pub mod exit;
mod file_terms;
mod gate;
mod groups;
pub mod hook;
mod marks;
mod outcome;
pub mod ratchet;
mod review;

use serde::Serialize;

use crate::baseline::{Allowances, Baseline};
use crate::limits::Limits;
use crate::model::{FileMeasure, Language, Metric, UnitValue, ValueRef};
use crate::terms::ContextTerms;

pub use carry::{carried, moved_in, units_moved, Moved};
pub use changed_file::{
    generated_claim, hidden_code, honours_generated_header, judged_owner, lists_left_out, route,
    skipped, unmeasurable_hidden, BaseVersion, Fate, JudgedAs, Route,
};
pub use exit::{Exit, Failure};
use file_terms::Bounds;
pub use file_terms::FileTerms;
pub use gate::{
    base_has_no_terms, base_is_head, judges_any, terms_from, terms_warnings, unjudged, worst,
    SinceHead, TermsCause, TermsFrom, TermsWarning,
};
pub use groups::{grouped, needs_base_counts, BaseCounts, SameName};
pub use marks::{file_judged, Mark, Marks};
pub use outcome::{gate_outcome, Cause, GateFacts, GateOutcome, GateStatus};
pub use review::{loosens, tightenable};

/// How one value stands against its context's limits and baseline (docs/src/reference/limits.md, docs/src/reference/baseline.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
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

    /// Past the band, tolerated or not: what a baseline records.
    pub fn past_band(self) -> bool {
        matches!(self, Status::Tolerated | Status::Excess)
    }
}

/// A judged value without its names: the metric, the numbers it was judged by, and the
/// status. JSON: `"metric", "value", "limit", "band", "baseline"` (the status is not
/// part of docs/src/reference/gate.md's finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub metric: Metric,
    pub value: u64,
    pub limit: u64,
    pub band: u64,
    /// The baseline's recorded value for this unit, where there is one: for a pinned
    /// metric, the pin.
    pub baseline: Option<u64>,
    #[serde(skip)]
    pub status: Status,
    /// The metric is pinned (docs/src/reference/documents.md#pins-and-tiers): its entry holds the unit at its value.
    #[serde(skip)]
    pub pinned: bool,
    /// The branch's own raise of the pin, honoured under `--accept-growth` (docs/src/reference/documents.md#pins-and-tiers).
    #[serde(skip)]
    pub accepted: Option<Growth>,
    /// The branch's own raise of the pin that `--accept-growth` did not honour although
    /// it is within this band: past the band at the file's path at the base.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth_refused: Option<RefusedGrowth>,
    /// Judged without allowance: its same-name group holds more units than at the base,
    /// and the entry covers only as many, the largest (docs/src/reference/gate.md#integrity).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_name: Option<SameName>,
}

/// A pin a renamed file's branch raised within the band at its new path but past the
/// band the base's terms give it at its old path: `--accept-growth` honours a raise only
/// within the stricter of the two (docs/src/reference/documents.md#pins-and-tiers). JSON: `{"to", "bound"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RefusedGrowth {
    /// The branch's entry.
    pub to: u64,
    /// The stricter band, its old path's.
    pub bound: u64,
}

/// A pin the branch raised in its own baseline, honoured within the base's band: from
/// the base's entry (`None`: it had none) to the branch's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Growth {
    pub from: Option<u64>,
    pub to: u64,
}

impl Verdict {
    /// A pinned unit grown past its pin while within its band (docs/src/reference/documents.md#pins-and-tiers): an excess
    /// that only the pin makes one.
    pub fn pin_growth(&self) -> bool {
        self.pinned
            && self.status == Status::Excess
            && self.value <= self.band
            && self.baseline.is_some_and(|pin| self.value > pin)
    }
}

/// A unit's lines, 1-based and inclusive. JSON: `"start_line", "end_line"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lines {
    #[serde(rename = "start_line")]
    pub start: u32,
    #[serde(rename = "end_line")]
    pub end: u32,
}

/// A judged unit (or the file itself): where it is, and its verdict. JSON: docs/src/reference/gate.md's
/// finding, `{"path", "unit", "metric", "value", "limit", "band", "baseline",
/// "start_line", "end_line"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub path: String,
    pub unit: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    #[serde(flatten)]
    pub lines: Lines,
    /// The unit's value at the base (at its path there: a renamed file's old path, a
    /// moved unit's old file); `None` when it is new there or not asked (the gate asks,
    /// docs/src/reference/gate.md#what-changed).
    #[serde(skip)]
    pub base_value: Option<u64>,
}

/// What the branch did to a judged value (docs/src/reference/gate.md#what-changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// No value at the base: a new unit (or file).
    New,
    /// Larger than at the base.
    Grown,
    /// As at the base: the branch didn't change it.
    Unchanged,
    /// Smaller than at the base.
    Shrunk,
}

impl Finding {
    /// What the branch did to this value, by its value at the base.
    pub fn change(&self) -> Change {
        match self.base_value {
            None => Change::New,
            Some(base) if self.verdict.value > base => Change::Grown,
            Some(base) if self.verdict.value == base => Change::Unchanged,
            Some(_) => Change::Shrunk,
        }
    }

    /// New or grown on the branch: what a reviewer looks at first
    /// (docs/src/reference/gate.md#what-changed).
    pub fn made_worse(&self) -> bool {
        matches!(self.change(), Change::New | Change::Grown)
    }
}

impl From<&Finding> for Verdict {
    fn from(f: &Finding) -> Verdict {
        f.verdict
    }
}

impl From<&Verdict> for Verdict {
    fn from(v: &Verdict) -> Verdict {
        *v
    }
}

/// The verdict on `value` of `metric` given its baseline allowance; `None` when the
/// metric has no limit. `limits` are the file's own ([`Limits::for_file`]). A pinned
/// metric's entry is a pin: any value above it is an excess, within the limit too.
pub fn verdict(
    limits: &Limits,
    metric: Metric,
    value: u64,
    allowance: Option<u64>,
) -> Option<Verdict> {
    Some(Bounds::of(limits, metric)?.verdict(metric, value, allowance))
}

/// The branch's raise of a pin under `--accept-growth` (docs/src/reference/documents.md#pins-and-tiers): an entry of a
/// pinned metric in the branch's baseline above the base's. Honoured (`Ok`) within the
/// band the base's terms give the unit and, for a renamed file, the band they give it at
/// its old path; refused (`Err`) where only the old path's band is past.
fn accepted_raise(
    allowances: &Allowances,
    v: &ValueRef,
    base: &Verdict,
) -> Option<Result<u64, RefusedGrowth>> {
    let raised = allowances.accepted?.allowance(v.path, v.unit, v.metric)?;
    let above = base.baseline.is_none_or(|pin| raised > pin);
    if !(base.pinned && above && raised <= base.band) {
        return None;
    }
    let old_band = allowances.renamed_limits.and_then(|l| l.band(v.metric));
    Some(match old_band {
        Some(bound) if raised > bound => Err(RefusedGrowth { to: raised, bound }),
        _ => Ok(raised),
    })
}

/// True when `value` is past the band of `metric` (what `baseline init` records).
pub fn past_band(limits: &Limits, metric: Metric, value: u64) -> bool {
    limits.band(metric).is_some_and(|band| value > band)
}

/// Judges the values of a file (or of several) by `limits`, each with what `allowances`
/// tolerate for it: its own path's entry and, for a renamed file, its old path's. Each
/// file is judged by its own limits (its tier's, docs/src/reference/documents.md#pins-and-tiers). A value whose metric has no
/// limit gives no finding.
pub fn file(limits: &Limits, values: &[UnitValue], allowances: &Allowances) -> Vec<Finding> {
    let values = values.iter().map(|v| (v.as_ref(), None));
    judged(limits, values, allowances, false, |_| true)
}

/// [`file`] for the values of a file new since the base: its `file_bytes` is judged
/// against the new-file limit (docs/src/reference/documents.md#pins-and-tiers).
pub fn new_file(limits: &Limits, values: &[UnitValue], allowances: &Allowances) -> Vec<Finding> {
    let values = values.iter().map(|v| (v.as_ref(), None));
    judged(limits, values, allowances, true, |_| true)
}

/// [`file`] (or [`new_file`], when `new`) for the values [`grouped`] gives: a value
/// marked [`SameName`] is judged without allowance, and its finding says why.
/// Anonymous-function units are left out where the baseline predates them
/// ([`judges_anonymous`]).
pub fn file_grouped(
    limits: &Limits,
    values: &[(UnitValue, Option<SameName>)],
    allowances: &Allowances,
    new: bool,
) -> Vec<Finding> {
    let all = judges_anonymous(allowances.own);
    let values = values.iter().filter(|(v, _)| all || !v.anonymous);
    let values = values.map(|(v, same)| (v.as_ref(), *same));
    judged(limits, values, allowances, new, |_| true)
}

/// [`file`] on the values of `m`, keeping only the findings whose status is not ok: what
/// `measure` counts and `--check` decides on. Anonymous-function units are left out where
/// the baseline predates them ([`judges_anonymous`]).
pub fn file_past(limits: &Limits, m: &FileMeasure, allowances: &Allowances) -> Vec<Finding> {
    let terms = FileTerms::new(limits, allowances, &m.path, false);
    let all = judges_anonymous(allowances.own);
    let past = terms.past(m, all).into_iter();
    past.map(|(v, verdict)| finding(&v, verdict)).collect()
}

/// [`file_past`] by the file's `terms`, where some value of `m` is known past its limit
/// or the file's own entries are not all that tolerate it.
fn file_past_each(terms: &FileTerms, m: &FileMeasure, allowances: &Allowances) -> Vec<Finding> {
    let all = judges_anonymous(allowances.own);
    let past = terms.past_each(m, all).into_iter();
    past.map(|(v, verdict)| finding(&v, verdict)).collect()
}

/// True when the gate and `measure` judge anonymous-function units by the baseline `own`:
/// it doesn't predate them (`# units: 2`, or no baseline). By an older one they are not
/// judged until `baseline refresh` records their excesses, and the context is judged in
/// part (docs/src/reference/baseline.md#units).
pub fn judges_anonymous(own: Option<&Baseline>) -> bool {
    own.is_none_or(|b| !b.predates_units())
}

/// True when a file `m` owned by `owner` holds anonymous-function units its context's
/// baseline doesn't judge ([`judges_anonymous`]): what the gate and `measure --check`
/// say, once per context (docs/src/reference/baseline.md#units).
pub fn leaves_anonymous_unjudged(owner: &ContextTerms, m: &FileMeasure) -> bool {
    !judges_anonymous(owner.baseline.as_ref()) && m.units.iter().any(|u| u.anonymous)
}

fn judged<'v>(
    limits: &Limits,
    values: impl Iterator<Item = (ValueRef<'v>, Option<SameName>)>,
    allowances: &Allowances,
    new: bool,
    keep: impl Fn(&Verdict) -> bool,
) -> Vec<Finding> {
    let mut own: Option<(&str, FileTerms)> = None;
    values
        .filter_map(|(v, same_name)| {
            if own.as_ref().is_none_or(|(path, _)| *path != v.path) {
                own = Some((v.path, FileTerms::new(limits, allowances, v.path, new)));
            }
            let (_, terms) = own.as_ref()?;
            let judged = terms.verdict(&v, same_name)?;
            keep(&judged).then(|| finding(&v, judged))
        })
        .collect()
}

/// The finding of `verdict` on the value `v`.
fn finding(v: &ValueRef, verdict: Verdict) -> Finding {
    Finding {
        path: v.path.to_string(),
        unit: v.unit.to_string(),
        verdict,
        lines: Lines {
            start: v.start_line,
            end: v.end_line,
        },
        base_value: None,
    }
}

/// True when `limits` limit a metric that applies to files of `language`: a context with
/// only code limits judges no Markdown (docs/src/reference/documents.md), and the reverse.
pub fn limits_apply(limits: Option<&Limits>, language: Language) -> bool {
    limits.is_some_and(|limits| {
        Metric::ALL
            .into_iter()
            .any(|m| m.applies_to(language) && limits.limit(m).is_some())
    })
}

/// True when `baseline refresh` would lower or drop the entry that tolerates a judged
/// value: the value is below the entry (still past the band) or back within its band
/// (docs/src/reference/gate.md#integrity "baseline can tighten"). A pin within the band is kept, so only a value
/// below it tightens (docs/src/reference/documents.md#pins-and-tiers).
pub fn can_tighten(verdict: &Verdict) -> bool {
    verdict.baseline.is_some_and(|entry| {
        verdict.value < entry || (!verdict.pinned && verdict.value <= verdict.band)
    })
}

#[cfg(test)]
mod tests;
