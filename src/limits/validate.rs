//! Stage 1, second half: one yaml fence, read raw (`crate::yaml::FlatDoc`), validated
//! into [`Limits`] values key by key (SPEC §3).

use std::collections::BTreeSet;

use super::{Fence, LimitsError, LimitsRead, Origin, UnknownKey, TOLERANCE_KEY};
use crate::model::Metric;
use crate::yaml::{self, FlatDoc, FlatEntry, Shallow};

const LIMIT: &str = "a positive whole number";
const TOLERANCE: &str = "a whole number of 0 or more";

/// Validates `fence` and applies its keys over what `read` holds.
pub fn apply(
    fence: &Fence,
    origin: Origin,
    path: &str,
    read: &mut LimitsRead,
) -> Result<(), LimitsError> {
    let entries = match yaml::read_flat(&fence.text) {
        Ok(FlatDoc::Empty) => return Ok(()),
        Ok(FlatDoc::Mapping(entries)) => entries,
        Ok(FlatDoc::Other(found)) => {
            return Err(LimitsError::NotAMapping {
                path: path.to_string(),
                line: fence.file_line(yaml::first_content_line(&fence.text)),
                section: origin,
                found: found.to_string(),
            })
        }
        Err(err) => {
            return Err(LimitsError::Yaml {
                path: path.to_string(),
                line: err.line.map_or(fence.open_line(), |l| fence.file_line(l)),
                section: origin,
                message: err.message,
            })
        }
    };
    let mut seen = BTreeSet::new();
    for entry in &entries {
        let line = fence.file_line(entry.line);
        let key = key_of(entry, path, line)?;
        if !seen.insert(key) {
            return Err(LimitsError::DuplicateKey {
                path: path.to_string(),
                line,
                section: origin,
                key: key.to_string(),
            });
        }
        apply_entry(key, &entry.value, origin, path, line, read)?;
    }
    Ok(())
}

fn key_of<'e>(entry: &'e FlatEntry, path: &str, line: usize) -> Result<&'e str, LimitsError> {
    match &entry.key {
        Shallow::Str(key) => Ok(key),
        other => Err(LimitsError::KeyNotString {
            path: path.to_string(),
            line,
            key: other.to_string(),
        }),
    }
}

fn apply_entry(
    key: &str,
    value: &Shallow,
    origin: Origin,
    path: &str,
    line: usize,
    read: &mut LimitsRead,
) -> Result<(), LimitsError> {
    let bad = |expected| LimitsError::BadValue {
        path: path.to_string(),
        line,
        key: key.to_string(),
        value: value.to_string(),
        expected,
    };
    if key == TOLERANCE_KEY {
        read.limits.tolerance_percent = whole(value, 0).ok_or_else(|| bad(TOLERANCE))?;
    } else if let Some(metric) = Metric::from_key(key) {
        let limit = whole(value, 1).ok_or_else(|| bad(LIMIT))?;
        read.limits.values.insert(metric, limit);
    } else {
        read.unknown_keys.push(UnknownKey {
            key: key.to_string(),
            file: path.to_string(),
            line,
        });
        return Ok(());
    }
    read.limits.origins.insert(key.to_string(), origin);
    Ok(())
}

/// A YAML integer of at least `min` that fits in a `u64`.
fn whole(value: &Shallow, min: u64) -> Option<u64> {
    match value {
        Shallow::Int(i) => u64::try_from(*i).ok().filter(|v| *v >= min),
        _ => None,
    }
}
