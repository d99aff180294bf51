//! The measurer against hand-checked fixtures: for every file under `fixtures/measure/`,
//! what docs/src/reference/measurement.md and docs/src/reference/languages.md say measuring it gives, stated beside the code in the file's own
//! `expect` lines (see [`stated`]), and one loop checks them all.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use structgate::measure::{
    measure_file, measure_tree, measure_tree_each, NoMemo, NoProgress, Options,
};
use structgate::model::FileOutcome;
use structgate::work_tree::WorkTree;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/measure")
}

/// The rows of one outcome: its path, then what [`stated`] reads, tab-separated.
fn rows_of(outcome: &FileOutcome) -> Vec<String> {
    match outcome {
        FileOutcome::Measured(m) => {
            let mut rows = vec![format!(
                "{}\tfile\t{}\t{}\t{}",
                m.path, m.lines, m.types, m.bytes
            )];
            rows.extend(
                m.warnings
                    .iter()
                    .chain(&m.syntax_errors)
                    .map(|w| format!("{}\twarning\t{w}", m.path)),
            );
            rows.extend(m.units.iter().map(|u| {
                let (kind, name) = (u.kind.key(), &u.name);
                format!(
                    "{}\t{kind}\t{name}\t{}\t{}",
                    m.path, u.start_line, u.end_line
                )
            }));
            rows
        }
        FileOutcome::Skipped { path, reason } => vec![format!("{path}\tskipped\t{reason}")],
        FileOutcome::LeftOut { path, reason } => vec![format!("{path}\tleft-out\t{reason}")],
    }
}

/// Rows grouped by path, in their order within each path.
fn by_path<'a>(rows: impl Iterator<Item = &'a str>) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in rows {
        let path = row.split('\t').next().unwrap_or_default().to_string();
        map.entry(path).or_default().push(row.to_string());
    }
    map
}

/// What every fixture states, by path: its own `expect` lines, or for a file that can't
/// hold a comment (empty, a BOM alone) those of `FILE.expect` beside it.
fn expected() -> BTreeMap<String, Vec<String>> {
    let mut rows: Vec<String> = Vec::new();
    for (path, bytes) in files_under(&fixtures(), "") {
        let path = path.strip_suffix(".expect").unwrap_or(&path);
        rows.extend(stated(path, &String::from_utf8_lossy(&bytes)));
    }
    by_path(rows.iter().map(String::as_str))
}

/// Every file under `dir` with its path relative to the fixtures, sorted.
fn files_under(dir: &Path, rel: &str) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if entry.file_type().unwrap().is_dir() {
            files.extend(files_under(&entry.path(), &path));
        } else {
            files.push((path, std::fs::read(entry.path()).unwrap()));
        }
    }
    files
}

/// The rows a fixture states beside its code: every line (ended by `\n`, `\r\n` or a lone
/// `\r`) that, after a comment leader (`//`, `#`, `*`, `--`) and spaces, reads `expect `
/// and then one of
///
/// ```text
/// file LINES TYPES BYTES        the measured file: its lines (less Rust test items),
///                               types, and bytes (LF-normalised, BOM removed)
/// function START-END NAME       a function unit, 1-based, inclusive (NAME last: it may
///                               hold spaces)
/// type START-END NAME           a type unit (impl blocks included)
/// warning TEXT                  a warning on the measured file
/// skipped REASON | left-out REASON
/// ```
///
/// so a fixture of any language describes itself in its own comment syntax. Every line
/// number was counted by hand in the fixture; units are listed in their sorted order
/// (start line, end line descending, name). A file that states nothing (notes.txt) must
/// yield nothing.
fn stated(path: &str, text: &str) -> Vec<String> {
    let mut rows = Vec::new();
    for line in text.split(['\n', '\r']) {
        let line = line.trim_start();
        let Some(rest) = ["//", "#", "*", "--"]
            .iter()
            .find_map(|leader| line.strip_prefix(leader))
            .and_then(|rest| rest.trim_start().strip_prefix("expect "))
        else {
            continue;
        };
        let (kind, fields) = rest.split_once(' ').unwrap_or((rest, ""));
        let row = match kind {
            "file" => fields.split(' ').collect::<Vec<_>>().join("\t"),
            "function" | "type" => {
                let (span, name) = fields.split_once(' ').expect("START-END NAME");
                let (start, end) = span.split_once('-').expect("START-END");
                format!("{name}\t{start}\t{end}")
            }
            "warning" | "skipped" | "left-out" => fields.to_string(),
            other => panic!("{path}: unknown expectation {other:?}"),
        };
        rows.push(format!("{path}\t{kind}\t{row}"));
    }
    rows
}

#[test]
fn every_fixture_measures_as_expected() {
    let outcomes = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    let rows: Vec<String> = outcomes.iter().flat_map(rows_of).collect();
    let actual = by_path(rows.iter().map(String::as_str));
    let expected = expected();
    let mut problems = Vec::new();
    for path in expected
        .keys()
        .chain(actual.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (want, got) = (expected.get(path), actual.get(path));
        if want != got {
            problems.push(format!(
                "{path}\n  expected:\n    {}\n  measured:\n    {}",
                want.map_or("(nothing)".into(), |r| r.join("\n    ")),
                got.map_or("(nothing)".into(), |r| r.join("\n    ")),
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn each_outcome_is_handed_on_in_path_order_and_an_error_of_the_reader_stops_the_run() {
    let all = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    let first: Vec<&str> = all.iter().take(5).map(FileOutcome::path).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a thread pool");
    let tree = WorkTree::new(fixtures());
    let mut seen = Vec::new();
    let err = pool
        .install(|| {
            measure_tree_each(
                &tree,
                &[String::new()],
                &Options::default(),
                &NoProgress,
                &NoMemo,
                &|_| true,
                &mut |outcome| {
                    seen.push(outcome.path().to_string());
                    match seen.len() {
                        5 => Err(anyhow::anyhow!("the reader went away")),
                        _ => Ok(()),
                    }
                },
            )
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "the reader went away");
    assert_eq!(seen, first);
}

#[test]
fn outcomes_come_sorted_by_path() {
    let outcomes = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    let paths: Vec<&str> = outcomes.iter().map(FileOutcome::path).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
    assert!(paths.contains(&"cs/Pricing.cs"));
}

#[test]
fn targets_pick_files_and_directories() {
    let root = fixtures();
    let targets = [
        "rust/src".to_string(),
        "./cs/Money.cs".to_string(),
        "cs/notes.txt".to_string(),
    ];
    let outcomes = measure_tree(&root, &targets, &Options::default()).unwrap();
    let paths: Vec<&str> = outcomes.iter().map(FileOutcome::path).collect();
    assert_eq!(
        paths,
        [
            "cs/Money.cs",
            "rust/src/parser/mod.rs",
            "rust/src/parser/tests.rs"
        ]
    );
}

#[test]
fn a_missing_target_is_an_error_naming_it() {
    let targets = ["cs/Nope.cs".to_string()];
    let err = measure_tree(&fixtures(), &targets, &Options::default()).unwrap_err();
    assert!(format!("{err:#}").contains("\"cs/Nope.cs\""), "{err:#}");
    let targets = ["../x".to_string()];
    let err = measure_tree(&fixtures(), &targets, &Options::default()).unwrap_err();
    assert!(format!("{err:#}").contains("\"../x\""), "{err:#}");
}

#[test]
fn too_large_files_are_skipped_before_reading() {
    let options = Options {
        max_file_size: 200,
        ..Options::default()
    };
    let targets = ["cs/Pricing.cs".to_string(), "cs/Crlf.cs".to_string()];
    let outcomes = measure_tree(&fixtures(), &targets, &options).unwrap();
    let rows: Vec<String> = outcomes.iter().flat_map(rows_of).collect();
    assert_eq!(rows[0], "cs/Crlf.cs\tfile\t9\t1\t131");
    let size = std::fs::metadata(fixtures().join("cs/Pricing.cs"))
        .unwrap()
        .len();
    assert_eq!(
        rows.last().unwrap(),
        &format!("cs/Pricing.cs\tskipped\tlarger than --max-file-size ({size} > 200 bytes)")
    );
}

#[test]
fn a_generated_header_is_measured_when_not_honoured() {
    let bytes = std::fs::read(fixtures().join("rust/generated.rs")).unwrap();
    let options = Options {
        honour_generated_header: false,
        ..Options::default()
    };
    let outcome = measure_file("rust/generated.rs", &bytes, &options).unwrap();
    assert_eq!(
        rows_of(&outcome),
        [
            "rust/generated.rs\tfile\t4\t0\t126",
            "rust/generated.rs\tfunction\tgen\t3\t3"
        ]
    );
}

/// Measures a real checkout named by `STRUCTGATE_MEASURE_DIR` and prints every unit, to
/// compare names and spans with the source by eye:
/// `STRUCTGATE_MEASURE_DIR=/tmp/serde cargo test --test integration measure_fixtures -- --ignored --nocapture`
#[test]
#[ignore]
fn measure_a_real_checkout() {
    let Ok(dir) = std::env::var("STRUCTGATE_MEASURE_DIR") else {
        return;
    };
    let outcomes = measure_tree(Path::new(&dir), &[String::new()], &Options::default()).unwrap();
    let mut units = 0;
    for outcome in &outcomes {
        if let FileOutcome::Measured(m) = outcome {
            units += m.units.len();
        }
        for row in rows_of(outcome) {
            println!("{row}");
        }
    }
    eprintln!("{} outcomes, {units} units", outcomes.len());
}

#[cfg(unix)]
#[test]
fn ignored_files_and_symbolic_links_are_never_measured() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let status = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(root.join(".gitignore"), "ignored.rs\ngen/\n").unwrap();
    std::fs::create_dir_all(root.join("gen")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    for file in ["src/a.rs", "ignored.rs", "gen/b.rs"] {
        std::fs::write(root.join(file), "fn f() {}\n").unwrap();
    }
    std::os::unix::fs::symlink(root.join("src/a.rs"), root.join("link.rs")).unwrap();
    std::os::unix::fs::symlink(root.join("src"), root.join("linkdir")).unwrap();
    let paths = |targets: &[&str]| -> Vec<String> {
        let targets: Vec<String> = targets.iter().map(|t| t.to_string()).collect();
        let outcomes = measure_tree(root, &targets, &Options::default()).unwrap();
        outcomes.iter().map(|o| o.path().to_string()).collect()
    };
    assert_eq!(paths(&[""]), ["src/a.rs"]);
    assert_eq!(
        paths(&["ignored.rs", "gen", "gen/b.rs"]),
        Vec::<String>::new()
    );
    assert_eq!(paths(&["link.rs", "linkdir"]), Vec::<String>::new());
    assert_eq!(paths(&["src/", "src/a.rs", "."]), ["src/a.rs"]);
}
