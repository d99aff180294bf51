//! The gate's decisions (docs/src/reference/gate.md): which contexts it judges, one verdict per unit when
//! sandboxes saw it twice, and what the run comes to.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Finding;
use crate::model::Metric;
use crate::reason::{NotJudgedReason, TermsWarningKind};
use crate::terms::ContextTerms;

/// A warning about the terms a context is judged by (docs/src/reference/gate.md#terms-warnings):
/// the gate lists it in every format; an unknown key counts as partial judging. What it
/// says is `report::terms`'s wording of its [`TermsCause`]. Warnings sort by kind,
/// context, file, line, key and cause.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TermsWarning {
    pub kind: TermsWarningKind,
    pub context: String,
    pub file: String,
    pub line: usize,
    pub key: String,
    pub cause: TermsCause,
}

/// What a terms warning is about, as data.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TermsCause {
    /// An unknown Limits key (`shown` as messages show it, quoted where it hides a
    /// character) and the known key it most likely `meant`: that limit is not in force.
    UnknownKey {
        shown: String,
        meant: Option<&'static str>,
    },
    /// A limit (or, `pinned`, a pin) of `metric` that the context's `baseline` doesn't
    /// record in its `# measured with:` header: in force without the refresh that records
    /// today's excesses.
    Unrecorded {
        metric: Metric,
        pinned: bool,
        baseline: String,
    },
}

/// The terms warnings of the judged contexts among `contexts`: each unknown Limits key
/// turns off the limit it meant, silently but for this; each limit or pin the baseline's
/// header doesn't record is in force without the refresh that records today's excesses
/// (docs/src/reference/gate.md#terms-warnings).
pub fn terms_warnings(contexts: &[ContextTerms]) -> Vec<TermsWarning> {
    let judged = contexts.iter().filter(|c| unjudged(c).is_none());
    judged
        .flat_map(|c| {
            let unknown = c.unknown_keys.iter().map(|u| TermsWarning {
                kind: TermsWarningKind::UnknownLimitsKey,
                context: c.context.name.clone(),
                file: u.file.clone(),
                line: u.line,
                key: u.key.clone(),
                cause: TermsCause::UnknownKey {
                    shown: u.shown(),
                    meant: u.meant(),
                },
            });
            let unrecorded = c.unrecorded().into_iter().map(|u| TermsWarning {
                kind: TermsWarningKind::UnrecordedLimit,
                context: c.context.name.clone(),
                file: c.context.principles_path(),
                line: u.line,
                key: u.key,
                cause: TermsCause::Unrecorded {
                    metric: u.metric,
                    pinned: u.pinned,
                    baseline: c.context.baseline_path(),
                },
            });
            unknown.chain(unrecorded).collect::<Vec<_>>()
        })
        .collect()
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

/// True when some context has Limits and a baseline: terms that judge anything at all
/// (else the gate says `no-judged-context`, docs/src/reference/gate.md).
pub fn judges_any(contexts: &[ContextTerms]) -> bool {
    contexts.iter().any(|c| unjudged(c).is_none())
}

/// What a run whose base is HEAD itself compared: only what is not committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinceHead {
    /// The run names its own bound: `--start` (the commit the run started on),
    /// `--staged` (the commit being made, whose parent is HEAD), or the files an agent's
    /// hook names.
    pub bounded: bool,
    /// A file was judged or failed unmeasurable, or a directory was checked against its
    /// contract.
    pub judged: bool,
    /// A tracked file is modified, deleted or renamed, or a new one staged: work in
    /// progress, not a clean checkout's build output.
    pub tracked_change: bool,
}

/// True when a run whose base is HEAD itself judged nothing (`base-is-head`,
/// docs/src/reference/gate.md#base): `--base HEAD`, `--base` naming the current branch, a
/// push build of `main` judged against `main` compare HEAD's commits with themselves, and
/// a clean checkout (untracked build output at most) gives nothing to judge — said so,
/// never passed. Uncommitted work is judged against HEAD as before, and a run that names
/// its own bound is judged as asked.
pub fn base_is_head(at_head: bool, since: SinceHead) -> bool {
    at_head && !since.bounded && !since.judged && !since.tracked_change
}

/// Whose terms the gate judged the branch by (JSON `terms_from`,
/// docs/src/reference/gate.md#adoption).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TermsFrom {
    /// The base's: the rule (docs/src/reference/gate.md#terms).
    #[default]
    Base,
    /// The branch's own, on the adoption pull request: no context at the base has terms.
    Branch,
}

/// True when no context at the base has terms (Limits): only then may the branch's own
/// terms judge it (docs/src/reference/gate.md#adoption).
pub fn base_has_no_terms(base: &[ContextTerms]) -> bool {
    base.iter().all(|c| c.limits.is_none())
}

/// The terms the gate judges by: the base's, unless no context at the base has terms and
/// the branch's own (`branch`, read only then) give a context with Limits and a baseline
/// — the adoption pull request, whose code was judged by nothing before, so nothing
/// loosens. Any base context with terms turns this off (docs/src/reference/gate.md#adoption).
pub fn terms_from(base: &[ContextTerms], branch: Option<&[ContextTerms]>) -> TermsFrom {
    let branch_judges = branch.is_some_and(judges_any);
    if base_has_no_terms(base) && branch_judges {
        TermsFrom::Branch
    } else {
        TermsFrom::Base
    }
}

/// One finding per unit and metric, at the worse of the values judged (sandboxes of one
/// repository see a unit once each, docs/src/reference/gate.md step 5; a file's same-named units are one),
/// the worse status breaking a tie; sorted by path, unit and metric.
pub fn worst(findings: impl IntoIterator<Item = Finding>) -> Vec<Finding> {
    // A same-name group's units past its count at the base are a value of their own.
    type Key = (String, String, Metric, bool);
    let mut worst: BTreeMap<Key, Finding> = BTreeMap::new();
    for f in findings {
        let beyond = f.verdict.same_name.is_some();
        let key = (f.path.clone(), f.unit.clone(), f.verdict.metric, beyond);
        let rank = |f: &Finding| (f.verdict.value, f.verdict.status);
        if worst.get(&key).is_none_or(|w| rank(&f) > rank(w)) {
            worst.insert(key, f);
        }
    }
    worst.into_values().collect()
}
