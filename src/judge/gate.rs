//! The gate's decisions (docs/src/reference/gate.md): which contexts it judges, one verdict per unit when
//! sandboxes saw it twice, and what the run comes to.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Finding;
use crate::model::Metric;
use crate::reason::NotJudgedReason;
use crate::terms::ContextTerms;
use crate::Exit;

/// What a gate run comes to. JSON: `passed`, `failed`, `not_judged`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateStatus {
    Passed,
    Failed,
    #[default]
    NotJudged,
}

impl GateStatus {
    pub fn key(self) -> &'static str {
        match self {
            GateStatus::Passed => "passed",
            GateStatus::Failed => "failed",
            GateStatus::NotJudged => "not_judged",
        }
    }

    /// `1` when failed, or when not judged and `--require-judged` asks for it; else `0`.
    pub fn exit(self, require_judged: bool) -> Exit {
        match self {
            GateStatus::Failed => Exit::Findings,
            GateStatus::NotJudged if require_judged => Exit::Findings,
            _ => Exit::Pass,
        }
    }
}

/// Why the gate doesn't judge a context: it needs Limits and a baseline at the base
/// (docs/src/reference/baseline.md, docs/src/reference/gate.md); `None` when it judges it.
pub fn unjudged(context: &ContextTerms) -> Option<NotJudgedReason> {
    match (&context.limits, &context.baseline) {
        (None, _) => Some(NotJudgedReason::ContextWithoutLimits),
        (Some(_), None) => Some(NotJudgedReason::ContextWithoutBaseline),
        _ => None,
    }
}

/// One finding per unit and metric, at the worse of the values judged (sandboxes of one
/// repository see a unit once each, docs/src/reference/gate.md step 5; a file's same-named units are one),
/// the worse status breaking a tie; sorted by path, unit and metric.
pub fn worst(findings: impl IntoIterator<Item = Finding>) -> Vec<Finding> {
    let mut worst: BTreeMap<(String, String, Metric), Finding> = BTreeMap::new();
    for f in findings {
        let key = (f.path.clone(), f.unit.clone(), f.verdict.metric);
        let rank = |f: &Finding| (f.verdict.value, f.verdict.status);
        if worst.get(&key).is_none_or(|w| rank(&f) > rank(w)) {
            worst.insert(key, f);
        }
    }
    worst.into_values().collect()
}

/// Failed on an excess, an unmeasurable file or a contract finding (`failed`); else
/// passed when the changed files were judged, not judged when they weren't.
pub fn gate_status(failed: bool, judged: bool) -> GateStatus {
    match (failed, judged) {
        (true, _) => GateStatus::Failed,
        (false, true) => GateStatus::Passed,
        (false, false) => GateStatus::NotJudged,
    }
}
