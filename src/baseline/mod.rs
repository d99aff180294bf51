//! Stage 3 of the pipeline: the ratchet (SPEC §5). `tsv` reads and writes
//! `structure-baseline.tsv`; `rules` holds what `baseline init` and `baseline refresh`
//! write.

use std::collections::BTreeMap;

use crate::limits::Limits;
use crate::model::Metric;

pub mod leftovers;
pub mod merge;
mod rules;
pub mod tsv;

pub use rules::{init, refresh, renamed, Changes};

/// The key of a baseline entry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryKey {
    pub path: String,
    pub unit: String,
    pub metric: Metric,
}

/// A parsed `structure-baseline.tsv`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Baseline {
    /// `# measured with:` — the limits recorded when it was written; `None` without that
    /// header line.
    pub measured_with: Option<BTreeMap<String, u64>>,
    /// `# owned:` — the owned directories recorded (the repository root is `""`); `None`
    /// without that header line.
    pub owned: Option<Vec<String>>,
    pub entries: BTreeMap<EntryKey, u64>,
}

impl Baseline {
    /// The value this baseline tolerates for a unit, if any.
    pub fn allowance(&self, path: &str, unit: &str, metric: Metric) -> Option<u64> {
        self.entries
            .get(&EntryKey {
                path: path.to_string(),
                unit: unit.to_string(),
                metric,
            })
            .copied()
    }

    /// The limits recorded in `# measured with:`, as [`Limits`]; `None` without that
    /// header. Keys that are neither a metric nor `tolerance_percent` are ignored; a
    /// missing `tolerance_percent` counts as 0 (its default).
    pub fn recorded_limits(&self) -> Option<Limits> {
        let recorded = self.measured_with.as_ref()?;
        let mut limits = Limits::default();
        for (key, value) in recorded {
            if let Some(metric) = Metric::from_key(key) {
                limits.values.insert(metric, *value);
            } else if key == tsv::TOLERANCE_KEY {
                limits.tolerance_percent = *value;
            }
        }
        Some(limits)
    }
}
