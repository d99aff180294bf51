//! Which allowances a renamed file carries in its own context's baseline (docs/src/reference/baseline.md): the
//! one rule `baseline refresh` writes and `measure --check` judges by.

use std::collections::BTreeMap;

use crate::baseline::{renamed_unit, Baseline, EntryKey};

/// `baseline` as it stands for the working tree: the entries of every old path of
/// `renames` (old path, new path: the files renamed or moved since the commit that last
/// changed the baseline file) moved to the new path, a file-level unit taking the new
/// file's name; two entries that land on one key keep the lower value. Also returns each
/// move, (old key, new key), in key order. The header is kept.
pub fn carried(
    baseline: &Baseline,
    renames: &[(String, String)],
) -> (Baseline, Vec<(EntryKey, EntryKey)>) {
    let targets: BTreeMap<&str, &str> = renames
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    let mut moved = Vec::new();
    let mut entries: BTreeMap<EntryKey, u64> = BTreeMap::new();
    for (key, &value) in &baseline.entries {
        let new_key = match targets.get(key.path.as_str()) {
            Some(to) => renamed(key, to),
            None => key.clone(),
        };
        if new_key != *key {
            moved.push((key.clone(), new_key.clone()));
        }
        let slot = entries.entry(new_key).or_insert(value);
        *slot = (*slot).min(value);
    }
    let baseline = Baseline {
        entries,
        ..baseline.clone()
    };
    (baseline, moved)
}

/// `key` at the path `to`; a file-level unit (named by its file's name) takes the new
/// file's name.
fn renamed(key: &EntryKey, to: &str) -> EntryKey {
    EntryKey {
        path: to.to_string(),
        unit: renamed_unit(&key.unit, key.metric, &key.path, to),
        metric: key.metric,
    }
}
