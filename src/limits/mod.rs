//! Stage 1 of the pipeline: a context's `principles.md` → [`Limits`] (SPEC §3).
//! The Markdown is read with pulldown-cmark, the fence with serde_yaml (through
//! `crate::yaml`), then validated into typed values.

use std::collections::BTreeMap;

use crate::model::Metric;

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The first yaml fence of `## Limits`.
    Limits,
    /// The first yaml fence of `### Limits` under `## Project Specifics…`.
    ProjectSpecifics,
}

/// The effective limits of one context.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Limits {
    /// Only the metrics that have a limit.
    pub values: BTreeMap<Metric, u64>,
    pub tolerance_percent: u64,
    /// Where each set key (metric keys and `tolerance_percent`) came from.
    pub origins: BTreeMap<String, Origin>,
}

impl Limits {
    pub fn limit(&self, metric: Metric) -> Option<u64> {
        self.values.get(&metric).copied()
    }

    /// `floor(limit × (100 + tolerance_percent) / 100)`, in integers (SPEC §3).
    pub fn band(&self, metric: Metric) -> Option<u64> {
        self.limit(metric)
            .map(|limit| band_of(limit, self.tolerance_percent))
    }

    /// True when at least one metric is limited (a fence with only
    /// `tolerance_percent` limits nothing).
    pub fn has_limits(&self) -> bool {
        !self.values.is_empty()
    }

    /// `key=value` pairs, keys sorted, `tolerance_percent` always: the baseline's
    /// `# measured with:` header (SPEC §5).
    pub fn measured_with(&self) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = self
            .values
            .iter()
            .map(|(m, v)| (m.key().to_string(), *v))
            .collect();
        out.insert("tolerance_percent".to_string(), self.tolerance_percent);
        out
    }
}

/// The band for a limit and a tolerance, saturating instead of overflowing.
pub fn band_of(limit: u64, tolerance_percent: u64) -> u64 {
    let wide = u128::from(limit) * (100 + u128::from(tolerance_percent)) / 100;
    u64::try_from(wide).unwrap_or(u64::MAX)
}
