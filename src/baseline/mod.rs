//! Stage 3 of the pipeline: the ratchet (SPEC §5). `tsv` reads and writes
//! `structure-baseline.tsv`; this module holds the init and refresh rules.

use std::collections::BTreeMap;

use crate::model::Metric;

pub mod tsv;

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
    /// `# owned:` — the owned directories recorded; `None` without that header line.
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
}
