//! The baseline's header lines as terms (docs/src/reference/gate.md#integrity): `# measured with:` records the
//! limits a later `baseline refresh` compares today's with (a unit a changed limit
//! exposes is added), and `# owned:` the directories it doesn't treat as newly owned
//! (docs/src/reference/baseline.md). A branch's edit of either changes what that refresh would write, so it
//! is listed like an entry's; `judge::loosens` decides which edits loosen.

use std::collections::BTreeMap;

use super::{Sides, Term, TermValue};
use crate::baseline::{tsv, Baseline};
use crate::limits;
use crate::model::Metric;

/// One key of `# measured with:`, by what `baseline refresh` does with it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordedKey {
    /// The whole line, where one side has none: without it, a refresh has no recorded
    /// limits and adds every excess it doesn't list.
    Line,
    /// A metric's recorded limit, the context's (`tier` `None`) or a tier's: a refresh
    /// adds a unit past today's band that was within the band this records.
    Limit {
        tier: Option<String>,
        metric: Metric,
    },
    /// `tolerance_percent`: the recorded bands' width.
    Tolerance,
    /// A key a refresh writes but doesn't read back (`new_file_bytes`, `pinned`, a
    /// tier's `new_file_bytes`), as the header spells it.
    Written(String),
}

impl RecordedKey {
    /// The key as the header spells it (`pinned` for its metrics together).
    pub fn key(&self) -> String {
        match self {
            RecordedKey::Line => String::new(),
            RecordedKey::Limit { tier: None, metric } => metric.key().to_string(),
            RecordedKey::Limit {
                tier: Some(tier),
                metric,
            } => format!("tier.{tier}.{metric}"),
            RecordedKey::Tolerance => tsv::TOLERANCE_KEY.to_string(),
            RecordedKey::Written(key) => key.clone(),
        }
    }

    /// The key a pair of the parsed header stands for.
    fn of(key: &str) -> RecordedKey {
        if key == tsv::TOLERANCE_KEY {
            return RecordedKey::Tolerance;
        }
        if key.starts_with(&format!("{}.", limits::PINNED_KEY)) {
            return RecordedKey::Written(limits::PINNED_KEY.to_string());
        }
        let (tier, metric) = match key.strip_prefix("tier.").and_then(|r| r.rsplit_once('.')) {
            Some((tier, k)) => (Some(tier.to_string()), k),
            None => (None, key),
        };
        match Metric::from_key(metric) {
            Some(metric) => RecordedKey::Limit { tier, metric },
            None => RecordedKey::Written(key.to_string()),
        }
    }
}

/// The differences between two baselines' headers: `# measured with:` key by key where
/// both have the line (the line itself where one hasn't), and `# owned:` as a whole.
/// `owned` are the context's owned directories at the base, by which `judge::loosens`
/// tells whether an edit of `# owned:` leaves any of them newly owned.
pub(super) fn changes(base: &Baseline, now: &Baseline, owned: &[String]) -> Vec<(Term, Sides)> {
    let mut out = match (&base.measured_with, &now.measured_with) {
        (Some(from), Some(to)) => {
            let (from, to) = (recorded(from), recorded(to));
            let keys: std::collections::BTreeSet<&RecordedKey> =
                from.keys().chain(to.keys()).collect();
            keys.into_iter()
                .map(|k| {
                    let sides = (from.get(k).cloned(), to.get(k).cloned());
                    (Term::Recorded(k.clone()), sides)
                })
                .collect()
        }
        (from, to) => {
            let line = |m: &Option<BTreeMap<String, u64>>| m.as_ref().map(line_text);
            vec![(Term::Recorded(RecordedKey::Line), (line(from), line(to)))]
        }
    };
    let dirs = |d: &Option<Vec<String>>| d.clone().map(TermValue::Dirs);
    let owned = owned.to_vec();
    out.push((
        Term::RecordedOwned { owned },
        (dirs(&base.owned), dirs(&now.owned)),
    ));
    out
}

/// The parsed header's pairs by key; the `pinned.KEY` pairs are one `pinned` term, its
/// metrics listed as the header writes them.
fn recorded(pairs: &BTreeMap<String, u64>) -> BTreeMap<RecordedKey, TermValue> {
    let mut out = BTreeMap::new();
    let mut pinned = Vec::new();
    for (key, value) in pairs {
        match key.strip_prefix(&format!("{}.", limits::PINNED_KEY)) {
            Some(metric) => pinned.push(metric.to_string()),
            None => {
                out.insert(RecordedKey::of(key), TermValue::Number(*value));
            }
        }
    }
    if !pinned.is_empty() {
        let key = RecordedKey::Written(limits::PINNED_KEY.to_string());
        out.insert(key, TermValue::Text(pinned.join(",")));
    }
    out
}

/// `function_lines=10 tolerance_percent=20`: the line's pairs as the header writes them.
fn line_text(pairs: &BTreeMap<String, u64>) -> TermValue {
    TermValue::Text(tsv::measured_with_text(pairs))
}
