//! What the measurer's unit tests share (test builds only): a file measured from a
//! string, and its units as `(name, start, end)`.

use std::time::Duration;

use super::{measure_file, Options};
use crate::model::{FileMeasure, FileOutcome};

/// The default options without a parse timeout: `--parse-timeout` counts wall-clock
/// time, which a loaded machine stretches, so a test whose file must be measured never
/// depends on it (a test of the timeout gives a bound that holds at any load).
pub fn unbounded() -> Options {
    Options {
        parse_timeout: Duration::ZERO,
        ..Options::default()
    }
}

/// `src` measured as the file at `path` (without a parse timeout, [`unbounded`]);
/// panics unless it is measured.
pub fn measured(path: &str, src: &str) -> FileMeasure {
    match measure_file(path, src.as_bytes(), &unbounded()) {
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
