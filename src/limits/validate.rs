//! Stage 1, second half: one yaml fence, read raw (`crate::yaml::FlatDoc`), validated
//! into [`Limits`] values key by key (docs/src/reference/limits.md).

use std::collections::BTreeSet;

use super::tiers::{self, At};
use super::{
    Fence, LimitsError, LimitsRead, Origin, UnknownKey, NEW_FILE_BYTES_KEY, PINNED_KEY, TIERS_KEY,
    TOLERANCE_KEY,
};
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
    let entries = match yaml::read_flat_with(&fence.text, &[PINNED_KEY, TIERS_KEY]) {
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
        if !apply_list(key, entry, fence, path, read)? {
            apply_entry(key, &entry.value, path, line, read)?;
        }
        read.limits.origins.insert(key.to_string(), origin);
        read.key_lines.insert(key.to_string(), line);
    }
    read.limits.origins.retain(|key, _| is_known(key));
    read.key_lines.retain(|key, _| is_known(key));
    Ok(())
}

fn is_known(key: &str) -> bool {
    super::known_keys().contains(&key)
}

/// `pinned` and `tiers`, whose values are lists: read in full, replacing what an earlier
/// fence set (docs/src/reference/documents.md#pins-and-tiers). False for any other key.
fn apply_list(
    key: &str,
    entry: &FlatEntry,
    fence: &Fence,
    path: &str,
    read: &mut LimitsRead,
) -> Result<bool, LimitsError> {
    let at = At {
        path,
        fence,
        yaml_line: entry.line,
    };
    match key {
        PINNED_KEY => {
            read.limits.pinned = tiers::pinned(&entry.node, &at)?;
            read.pinned_line = Some(fence.file_line(entry.line));
        }
        TIERS_KEY => {
            read.limits.tiers = tiers::tiers(&entry.node, &at, &mut read.unknown_keys)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// A pinned metric must have a limit (docs/src/reference/documents.md#pins-and-tiers): a pin without a cap is an error naming
/// the `pinned` key's line.
pub fn pins_have_caps(read: &LimitsRead, path: &str) -> Result<(), LimitsError> {
    let uncapped: Vec<&str> = read
        .limits
        .pinned
        .iter()
        .filter(|m| read.limits.limit(**m).is_none())
        .map(|m| m.key())
        .collect();
    match (uncapped.first(), read.pinned_line) {
        (Some(first), Some(line)) => Err(LimitsError::Invalid {
            path: path.to_string(),
            line,
            key: PINNED_KEY.to_string(),
            message: format!("{first} is pinned but has no limit (a pin needs a cap: set {first})"),
        }),
        _ => Ok(()),
    }
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
    } else if key == NEW_FILE_BYTES_KEY {
        read.limits.new_file_bytes = Some(whole(value, 1).ok_or_else(|| bad(LIMIT))?);
    } else if let Some(metric) = Metric::from_key(key) {
        let limit = whole(value, 1).ok_or_else(|| bad(LIMIT))?;
        read.limits.values.insert(metric, limit);
    } else {
        read.unknown_keys.push(UnknownKey {
            key: key.to_string(),
            file: path.to_string(),
            line,
        });
    }
    Ok(())
}

/// A YAML integer of at least `min` that fits in a `u64`.
fn whole(value: &Shallow, min: u64) -> Option<u64> {
    match value {
        Shallow::Int(i) => u64::try_from(*i).ok().filter(|v| *v >= min),
        _ => None,
    }
}
