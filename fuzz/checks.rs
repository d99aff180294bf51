#![allow(dead_code)] // each fuzz target uses one check
//! What each fuzz target asserts about one input. Shared by the fuzz targets
//! (`fuzz/fuzz_targets/*.rs`) and by `tests/fuzz_regressions.rs`, which feeds every file
//! in `fuzz/regressions/TARGET/` through the same check in the normal `cargo test`.
//!
//! A check panics when structgate breaks a promise: a panic of its own, an error that
//! names no file, a value no reader should produce, or a write that doesn't read back.

use std::time::Duration;

use structgate::baseline::tsv;
use structgate::limits;
use structgate::measure::{self, Options};
use structgate::model::{FileOutcome, Metric};
use structgate::source::MemorySource;

/// What a fuzz target asserts about one input.
pub type Check = fn(&[u8]);

/// The fuzz targets, by the name of their directory under `fuzz/regressions/`.
pub const TARGETS: [(&str, Check); 10] = [
    ("limits", limits),
    ("context", context),
    ("baseline", baseline),
    ("measure_cs", measure_cs),
    ("measure_rs", measure_rs),
    ("measure_ts", measure_ts),
    ("measure_js", measure_js),
    ("measure_py", measure_py),
    ("measure_go", measure_go),
    ("measure_java", measure_java),
];

/// `principles.md` → limits: no panic; every error names the file; every limit is a
/// positive number whose band is at least the limit.
pub fn limits(data: &[u8]) {
    let mut source = MemorySource::default();
    source
        .files
        .insert("principles.md".to_string(), data.to_vec());
    match limits::read(&source, "principles.md") {
        Ok(Some(read)) => {
            for metric in Metric::ALL {
                if let Some(limit) = read.limits.limit(metric) {
                    assert!(limit > 0, "limit {metric:?} = 0");
                    assert!(read.limits.band(metric) >= Some(limit), "band below limit");
                }
            }
            for unknown in &read.unknown_keys {
                assert!(unknown.to_string().starts_with("principles.md:"));
            }
        }
        Ok(None) => panic!("the file is there, so it must be read"),
        Err(error) => assert_names_file(&error.to_string(), "principles.md"),
    }
}

/// `context.yaml` files → contexts. The input is split at NUL bytes into up to four
/// files at nested paths, so ownership rules meet each other. No panic; every error names
/// a file or directory; every owned directory is repository-relative and clean.
pub fn context(data: &[u8]) {
    const PATHS: [&str; 4] = [
        "context.yaml",
        "a/context.yaml",
        "a/b/context.yaml",
        "c/context.yaml",
    ];
    let mut source = MemorySource::default();
    for (path, part) in PATHS.iter().zip(data.split(|b| *b == 0)) {
        source.files.insert(path.to_string(), part.to_vec());
    }
    match structgate::context::discover(&source, "repo") {
        Ok(contexts) => {
            for context in &contexts.list {
                assert!(!context.owned.is_empty(), "{context:?} owns nothing");
                for dir in &context.owned {
                    assert_clean_relative(dir);
                }
                for dir in &context.owned {
                    let probe = if dir.is_empty() {
                        "x.rs".to_string()
                    } else {
                        format!("{dir}/x.rs")
                    };
                    assert!(contexts.owner(&probe).is_some(), "nobody owns {probe}");
                }
            }
        }
        Err(error) => {
            let text = error.to_string();
            assert!(
                text.contains("context.yaml") || text.contains("directory"),
                "error names no file: {text}"
            );
        }
    }
}

/// `structure-baseline.tsv` → a baseline: no panic; every error names the file and a
/// line; what is read writes back to bytes that read as the same baseline, without
/// warnings, and write the same bytes again.
pub fn baseline(data: &[u8]) {
    match tsv::parse(data, "b.tsv") {
        Ok(parsed) => {
            let written = tsv::render(&parsed.baseline);
            let again = tsv::parse(written.as_bytes(), "b.tsv").unwrap_or_else(|e| {
                panic!("a rendered baseline does not read back: {e}\n{written}")
            });
            assert_eq!(
                again.baseline, parsed.baseline,
                "round trip changed the baseline"
            );
            assert!(again.warnings.is_empty(), "{:?}", again.warnings);
            assert_eq!(
                tsv::render(&again.baseline),
                written,
                "rendering is not canonical"
            );
        }
        Err(error) => {
            assert!(error.to_string().starts_with("b.tsv:"), "{error}");
            assert!(error.line >= 1);
        }
    }
}

/// Arbitrary bytes as a C# file.
pub fn measure_cs(data: &[u8]) {
    measure_as("Fuzz.cs", data);
}

/// Arbitrary bytes as a Rust file.
pub fn measure_rs(data: &[u8]) {
    measure_as("fuzz.rs", data);
}

/// Arbitrary bytes as a TypeScript file, with and without JSX (`.ts`, `.tsx`).
pub fn measure_ts(data: &[u8]) {
    measure_as("fuzz.ts", data);
    measure_as("fuzz.tsx", data);
}

/// Arbitrary bytes as a JavaScript file.
pub fn measure_js(data: &[u8]) {
    measure_as("fuzz.js", data);
}

/// Arbitrary bytes as a Python file.
pub fn measure_py(data: &[u8]) {
    measure_as("fuzz.py", data);
}

/// Arbitrary bytes as a Go file.
pub fn measure_go(data: &[u8]) {
    measure_as("fuzz.go", data);
}

/// Arbitrary bytes as a Java file.
pub fn measure_java(data: &[u8]) {
    measure_as("Fuzz.java", data);
}

/// No panic; the same bytes measure the same twice (the per-thread parser keeps no state
/// between files); every unit lies inside the file and has a name.
fn measure_as(path: &str, data: &[u8]) {
    let options = Options {
        parse_timeout: Duration::from_secs(5),
        ..Options::default()
    };
    let first = measure::measure_file(path, data, &options).expect("a measured language");
    let second = measure::measure_file(path, data, &options).expect("a measured language");
    let _ = measure::dump_tree(path, data);
    if let (FileOutcome::Measured(m), FileOutcome::Measured(again)) = (&first, &second) {
        assert_eq!(m, again, "measuring twice differs");
        let rows = data.iter().filter(|b| **b == b'\n').count() as u64 + 1;
        assert!(m.lines <= rows, "{} lines in {rows} rows", m.lines);
        for unit in &m.units {
            assert!(!unit.name.is_empty(), "a unit without a name: {unit:?}");
            assert!(
                unit.start_line >= 1 && unit.start_line <= unit.end_line,
                "{unit:?}"
            );
            assert!(
                u64::from(unit.end_line) <= rows,
                "{unit:?} ends past row {rows}"
            );
        }
    }
}

fn assert_names_file(text: &str, file: &str) {
    assert!(text.contains(file), "error names no file: {text}");
}

fn assert_clean_relative(dir: &str) {
    assert!(!dir.starts_with('/'), "absolute owned dir {dir:?}");
    assert!(!dir.ends_with('/'), "owned dir {dir:?} ends in /");
    for part in dir.split('/').filter(|_| !dir.is_empty()) {
        assert!(
            !matches!(part, "" | "." | ".."),
            "unclean owned dir {dir:?}"
        );
    }
}
