//! What a branch did to its own terms, for the reviewer (docs/src/reference/gate.md#integrity): whether a change of
//! a term loosens the terms it is judged by, and whether a judged unit's baseline entry
//! can tighten that the branch hasn't already tightened.

use super::{can_tighten, Finding};
use crate::relpath::is_within;
use crate::terms::diff::{RecordedKey, Term, TermChange, TermValue};

/// Whether a change of a term from `from` to `to` (`None`: that side doesn't have it)
/// loosens the terms a branch is judged by (docs/src/reference/gate.md#integrity): a raised or removed limit, a
/// raised tolerance, a removed `sources` entry or context, one added that takes over
/// directories another context owned, a removed baseline, an added or raised baseline
/// entry, `children.require_contract` lowered (true, then unset, then false), a raised or
/// removed `new_file_bytes` or tier value, a metric no longer pinned, any change of a
/// tier's patterns or place (files may move to a looser tier), a terms file that
/// doesn't read, and a baseline header edit after which a later `baseline refresh` would
/// record more (see [`recorded_loosens`] and [`disowned`]). Everything else tightens.
pub fn loosens(term: &Term, from: Option<&TermValue>, to: Option<&TermValue>) -> bool {
    let number = |v: Option<&TermValue>, absent: u64| match v {
        Some(TermValue::Number(n)) => *n,
        _ => absent,
    };
    match term {
        Term::Limit(_) | Term::NewFileBytes | Term::TierLimit(..) => {
            number(to, u64::MAX) > number(from, u64::MAX)
        }
        Term::Pinned => unpinned(from, to),
        Term::TierPaths(_) => true,
        Term::Tolerance | Term::Entry(_) => number(to, 0) > number(from, 0),
        Term::Context { taken_from } | Term::Source { taken_from } => {
            to.is_none() || !taken_from.is_empty()
        }
        Term::Baseline => to.is_none(),
        Term::Exclude => to.is_some(),
        Term::Recorded(key) => recorded_loosens(key, from, to),
        Term::RecordedOwned { owned } => disowned(owned, from, to),
        Term::RequireContract => strictness(to) < strictness(from),
        Term::Unreadable => true,
    }
}

/// Whether an edit of a `# measured with:` key loosens (docs/src/reference/baseline.md): `baseline refresh` adds
/// a unit past today's band that was within the band the header records, so a recorded
/// limit raised or removed (none recorded: every excess is exposed), a wider recorded
/// tolerance, or the line removed (no recorded limits at all) makes it record more. A
/// tier's value removed counts as raised: the tier's files then take the context's
/// recorded value, which may be higher. Keys refresh doesn't read back change nothing.
fn recorded_loosens(key: &RecordedKey, from: Option<&TermValue>, to: Option<&TermValue>) -> bool {
    let number = |v: Option<&TermValue>, absent: u64| match v {
        Some(TermValue::Number(n)) => *n,
        _ => absent,
    };
    match key {
        RecordedKey::Line => to.is_none(),
        RecordedKey::Limit { .. } => number(to, u64::MAX) > number(from, u64::MAX),
        RecordedKey::Tolerance => number(to, 0) > number(from, 0),
        RecordedKey::Written(_) => false,
    }
}

/// Whether an edit of `# owned:` loosens (docs/src/reference/baseline.md): `baseline init` and `refresh` add the
/// excesses of files in directories the context owns that the header doesn't list (newly
/// owned), so the edit loosens when some part of the context's `owned` directories that
/// the base's header covered (all of them, where it had no `# owned:` line: then nothing
/// is newly owned) is not covered by the branch's. Removing the line tightens.
fn disowned(owned: &[String], from: Option<&TermValue>, to: Option<&TermValue>) -> bool {
    let Some(TermValue::Dirs(to)) = to else {
        return false;
    };
    let covered_at_base: Vec<&str> = match from {
        Some(TermValue::Dirs(from)) => owned
            .iter()
            .flat_map(|o| from.iter().filter_map(move |r| overlap(o, r)))
            .collect(),
        _ => owned.iter().map(String::as_str).collect(),
    };
    covered_at_base
        .iter()
        .any(|region| !to.iter().any(|t| is_within(region, t)))
}

/// The smaller of two directories where one holds the other.
fn overlap<'a>(a: &'a str, b: &'a str) -> Option<&'a str> {
    if is_within(a, b) {
        Some(a)
    } else if is_within(b, a) {
        Some(b)
    } else {
        None
    }
}

/// True when `to` leaves out a metric `from` pins: pinning fewer metrics loosens.
fn unpinned(from: Option<&TermValue>, to: Option<&TermValue>) -> bool {
    let keys = |v: Option<&TermValue>| -> Vec<String> {
        match v {
            Some(TermValue::Text(t)) => t.split(", ").map(str::to_string).collect(),
            _ => Vec::new(),
        }
    };
    let now = keys(to);
    keys(from).iter().any(|k| !now.contains(k))
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

/// True when `baseline refresh` would lower or drop the entry that tolerates `finding`
/// ([`can_tighten`]) and the branch's own baseline (not applied) doesn't already: a
/// refresh committed on the branch shows under the terms changed, not here again.
pub fn tightenable(finding: &Finding, terms_changed: &[TermChange]) -> bool {
    let v = &finding.verdict;
    if !can_tighten(v) {
        return false;
    }
    let on_branch = terms_changed.iter().find_map(|c| match &c.term {
        Term::Entry(key)
            if key.path == finding.path && key.unit == finding.unit && key.metric == v.metric =>
        {
            Some(&c.to)
        }
        _ => None,
    });
    let done = match on_branch {
        None => false,
        Some(None) => true,
        Some(Some(TermValue::Number(n))) => (v.value > v.band || v.pinned) && *n <= v.value,
        Some(Some(_)) => false,
    };
    !done
}
