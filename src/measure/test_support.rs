//! What the measurer's unit tests share (test builds only): a file measured from a
//! string, and its units as `(name, start, end)`.

use super::{measure_file, Options};
use crate::model::{FileMeasure, FileOutcome};

/// `src` measured as the file at `path`; panics unless it is measured.
pub fn measured(path: &str, src: &str) -> FileMeasure {
    match measure_file(path, src.as_bytes(), &Options::default()) {
        Some(FileOutcome::Measured(m)) => m,
        other => panic!("{path} not measured: {other:?}"),
    }
}

/// A measured file's units as `(name, start line, end line)`, in their order.
pub fn names(m: &FileMeasure) -> Vec<(&str, u32, u32)> {
    m.units
        .iter()
        .map(|u| (u.name.as_str(), u.start_line, u.end_line))
        .collect()
}
