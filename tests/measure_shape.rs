//! The shape metrics (docs/src/reference/metrics.md#shape-metrics) against hand-checked
//! fixtures: every function unit of every file under `fixtures/shape/` states its four
//! values beside the code, in a comment line
//!
//! ```text
//! expect shape params P nesting N cyclomatic C cognitive G NAME
//! ```
//!
//! (units of one name in the order they start), and one loop checks them all: a unit
//! measured but not stated fails as much as a wrong value.

use std::collections::BTreeMap;
use std::path::Path;

use structgate::measure::{measure_tree, Options};
use structgate::model::{FileOutcome, Metric, UnitKind};

/// `params P nesting N cyclomatic C cognitive G NAME`, by path.
type Rows = BTreeMap<String, Vec<String>>;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/shape")
}

/// What each fixture states, by path, in the order stated.
fn stated() -> Rows {
    let mut rows = Rows::new();
    let outcomes = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    for outcome in &outcomes {
        let path = outcome.path();
        let text = std::fs::read_to_string(fixtures().join(path)).unwrap();
        let lines = text.lines().filter_map(|line| {
            let line = line.trim_start();
            let rest = ["//", "#"].iter().find_map(|l| line.strip_prefix(l))?;
            rest.trim_start().strip_prefix("expect shape ")
        });
        rows.insert(path.to_string(), lines.map(str::to_string).collect());
    }
    rows
}

/// What the measurer gives, by path, function units in order of their start.
fn measured() -> Rows {
    let mut rows = Rows::new();
    let outcomes = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    for outcome in outcomes {
        let FileOutcome::Measured(m) = outcome else {
            panic!("{} was not measured: {outcome:?}", outcome.path());
        };
        assert_eq!(m.syntax_errors, None, "{}", m.path);
        let units = m.units.iter().filter(|u| u.kind == UnitKind::Function);
        let lines = units.map(|u| {
            let value = |metric| u.value(metric).expect("a function unit has its shape");
            format!(
                "params {} nesting {} cyclomatic {} cognitive {} {}",
                value(Metric::FunctionParams),
                value(Metric::FunctionNesting),
                value(Metric::FunctionCyclomatic),
                value(Metric::FunctionCognitive),
                u.name
            )
        });
        rows.insert(m.path.clone(), lines.collect());
    }
    rows
}

/// Rows sorted by name, stably: stated in any order of names, same-name units in order.
fn by_name(rows: &[String]) -> Vec<String> {
    let name = |row: &String| row.splitn(9, ' ').nth(8).unwrap_or_default().to_string();
    let mut sorted = rows.to_vec();
    sorted.sort_by_key(name);
    sorted
}

#[test]
fn every_function_unit_of_the_shape_fixtures_has_the_values_stated_beside_it() {
    let (stated, measured) = (stated(), measured());
    let mut problems = Vec::new();
    for (path, measured) in &measured {
        let stated = stated.get(path).cloned().unwrap_or_default();
        let (want, got) = (by_name(&stated), by_name(measured));
        if want != got {
            problems.push(format!(
                "{path}\n  stated:\n    {}\n  measured:\n    {}",
                want.join("\n    "),
                got.join("\n    ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_fixtures_cover_every_language() {
    let measured = measured();
    for dir in ["cs/", "rust/", "ts/", "js/", "python/", "go/", "java/"] {
        let units: usize = measured
            .iter()
            .filter(|(path, _)| path.starts_with(dir))
            .map(|(_, rows)| rows.len())
            .sum();
        assert!(units >= 10, "{dir}: {units} function units");
    }
}
