//! Document budgets (docs/src/reference/documents.md) through `measure`, `limits` and `baseline`: the fixtures of
//! `fixtures/docs/` against what each states in its own `expect` comments, the JSON, text
//! and TSV fields, and bad input.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{principles, Scenario};
use structgate::measure::{measure_tree, Options};
use structgate::model::FileOutcome;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/docs")
}

/// The rows of one outcome, as [`stated`] gives them.
fn rows_of(outcome: &FileOutcome) -> Vec<String> {
    let FileOutcome::Measured(m) = outcome else {
        return vec![format!("{}\tnot measured\t{outcome:?}", outcome.path())];
    };
    let loaded = m.loaded.clone().unwrap_or_default();
    let imports = match loaded.imports.join(",") {
        list if list.is_empty() => "-".to_string(),
        list => list,
    };
    let mut rows = vec![format!(
        "{}\tdocument\t{}\t{}\t{}\t{imports}",
        m.path, m.lines, m.bytes, loaded.bytes
    )];
    rows.extend(
        m.warnings
            .iter()
            .map(|w| format!("{}\twarning\t{w}", m.path)),
    );
    rows
}

/// The rows a Markdown fixture states at its end, one HTML comment a line (a comment is
/// no import, and says nothing to a reader of the rendered page):
///
/// ```text
/// <!-- expect document LINES BYTES LOADED_BYTES IMPORTS -->   IMPORTS comma-separated, - for none
/// <!-- expect warning TEXT -->                                a warning on the document
/// ```
///
/// The counts are those of the whole file, its `expect` lines and the blank line before
/// them included, as a code fixture's `expect file` counts its own comments: BYTES is the
/// file's size (`wc -c`; the CRLF copy less one byte per line), LINES its lines
/// (`wc -l`), LOADED_BYTES its bytes and those of every file it imports, each once.
fn stated(path: &str, text: &str) -> Vec<String> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let Some(rest) = line
            .strip_prefix("<!-- expect ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let (kind, fields) = rest.split_once(' ').unwrap_or((rest, ""));
        let row = match kind {
            "document" => fields.split(' ').collect::<Vec<_>>().join("\t"),
            "warning" => fields.to_string(),
            other => panic!("{path}: unknown expectation {other:?}"),
        };
        rows.push(format!("{path}\t{kind}\t{row}"));
    }
    rows
}

/// Every file under `dir` (relative to `root`, `/`-separated), with its text if it is
/// UTF-8.
fn files(root: &Path, dir: &Path, out: &mut BTreeMap<String, Option<String>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).unwrap().to_str().unwrap();
            let text = std::fs::read_to_string(&path).ok();
            out.insert(rel.replace('\\', "/"), text);
        }
    }
}

#[test]
fn every_document_fixture_measures_as_it_states() {
    let mut all = BTreeMap::new();
    files(&fixtures(), &fixtures(), &mut all);
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, text) in &all {
        let rows = stated(path, text.as_deref().unwrap_or_default());
        if !rows.is_empty() {
            expected.insert(path.clone(), rows);
        }
    }
    assert_eq!(expected.len(), 10, "{:?}", expected.keys());
    let outcomes = measure_tree(&fixtures(), &[String::new()], &Options::default()).unwrap();
    let actual: BTreeMap<String, Vec<String>> = outcomes
        .iter()
        .map(|o| (o.path().to_string(), rows_of(o)))
        .collect();
    assert_eq!(actual, expected);
}

#[test]
fn crlf_and_lf_copies_measure_the_same() {
    let lf = std::fs::read(fixtures().join("guide.md")).unwrap();
    let crlf = std::fs::read(fixtures().join("guide-crlf.md")).unwrap();
    assert_eq!(crlf.len(), lf.len() + 21, "the CRLF fixture lost its CRs");
    let targets = ["guide.md".to_string(), "guide-crlf.md".to_string()];
    let outcomes = measure_tree(&fixtures(), &targets, &Options::default()).unwrap();
    let [FileOutcome::Measured(a), FileOutcome::Measured(b)] = &outcomes[..] else {
        panic!("{outcomes:?}");
    };
    assert_eq!((a.lines, a.bytes, &a.loaded), (b.lines, b.bytes, &b.loaded));
    assert_eq!(a.bytes, 435);
}

/// A repository with a `docs` context limiting document bytes, and a code file.
fn docs_repo(limits: &str) -> Scenario {
    let s = Scenario::git();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles(limits));
    s.write(
        "docs/guide.md",
        "# Guide\r\n\r\nRead @shared.md and `@code.md`.\r\n",
    );
    s.write("docs/shared.md", "Shared rules.\n");
    s.write("docs/code.md", "never loaded\n");
    s
}

#[test]
fn json_gives_bytes_loaded_bytes_and_imports() {
    let s = docs_repo("file_bytes: 100\nloaded_bytes: 100\n");
    s.write("src/lib.rs", "fn f() {}\r\n");
    let run = s.run(&["measure", "--format", "json", "docs/guide.md", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["files"],
        serde_json::json!([
            {"path": "docs/guide.md", "language": "markdown", "lines": 3, "types": 0,
             "bytes": 41, "loaded_bytes": 55, "imports": ["docs/shared.md"],
             "chain_bytes": 55, "chain": [], "context": "docs", "units": []},
            {"path": "src/lib.rs", "language": "rust", "lines": 1, "types": 0, "bytes": 10,
             "context": null,
             "units": [{"name": "f", "kind": "function", "start_line": 1, "end_line": 1, "lines": 1,
                        "params": 0, "nesting": 0, "cyclomatic": 1, "cognitive": 0}]},
        ])
    );
}

#[test]
fn text_and_tsv_show_bytes_and_loaded_bytes() {
    let s = docs_repo("file_bytes: 30\nloaded_bytes: 60\ntolerance_percent: 50\n");
    let run = s.run(&["measure", "docs/guide.md", "docs/shared.md"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "docs/guide.md:1   file      guide.md   3 lines, 41 bytes, loads 55 bytes  file_bytes divergence (limit 30, band 45)\n\
         docs/shared.md:1  file      shared.md  1 line, 14 bytes, loads 14 bytes  ok\n\
         measured 2 file(s): 0 function(s), 0 type(s); 0 excess(es), 1 divergence(s), 0 tolerated by the baseline\n"
    );
    let run = s.run(&["measure", "--format", "tsv", "docs/guide.md"]);
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         docs/guide.md\tguide.md\tchain_bytes\t55\t1\t3\t-\n\
         docs/guide.md\tguide.md\tfile_bytes\t41\t1\t3\tdivergence\n\
         docs/guide.md\tguide.md\tloaded_bytes\t55\t1\t3\tok\n"
    );
}

#[test]
fn a_context_with_only_code_limits_judges_no_markdown_and_reads_no_imports() {
    let s = docs_repo("function_lines: 1\nfile_lines: 1\n");
    s.write("docs/bad.md", "@@scope/package and @../../up.md\n");
    let run = s.run(&["measure", "--check", "docs"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert!(
        run.stdout
            .contains("docs/guide.md:1       file      guide.md       3 lines, 41 bytes\n"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .ends_with("measured 5 file(s): 0 function(s), 0 type(s)\n"));
}

#[test]
fn measure_check_fails_a_document_past_its_band() {
    let s = docs_repo("loaded_bytes: 50\n");
    let run = s.run(&["measure", "--check", "--format", "tsv", "docs/guide.md"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .ends_with("docs/guide.md\tguide.md\tloaded_bytes\t55\t1\t3\texcess\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn imports_not_followed_are_warned_by_measure() {
    let s = docs_repo("loaded_bytes: 100\n");
    s.write("docs/bad.md", "x\n\n@../../up.md and @sub/\n");
    std::fs::create_dir_all(s.abs("docs/sub")).unwrap();
    let run = s.run(&["measure", "docs/bad.md"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "warning: docs/bad.md: import \"@../../up.md\" at docs/bad.md:3 not followed: it leaves the repository\n\
         warning: docs/bad.md: import \"@sub/\" at docs/bad.md:3 not followed: names a directory\n"
    );
    // A context that budgets no imports reads none and warns of none.
    s.write("docs/principles.md", &principles("file_bytes: 100\n"));
    let run = s.run(&["measure", "docs/bad.md"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        run.stdout.lines().next(),
        Some("docs/bad.md:1  file      bad.md  3 lines, 26 bytes  ok")
    );
}

#[test]
fn limits_lists_the_byte_keys() {
    let s = docs_repo("file_bytes: 32768\nloaded_bytes: 65536\n");
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(
            "  file_bytes           32768  band  32768  from ## Limits\n\
             \x20 loaded_bytes         65536  band  65536  from ## Limits\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn baseline_pins_todays_large_documents_and_a_new_one_must_fit() {
    let s = docs_repo("file_bytes: 32768\n");
    s.write("docs/huge.md", &"word ".repeat(8000)); // 40000 bytes
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        s.read("docs/structure-baseline.tsv"),
        "# path\tunit\tmetric\tvalue — units over their Limits when measured, each tolerated up to its value\n\
         # measured with: file_bytes=32768 tolerance_percent=0\n\
         # owned:\tdocs\n\
         # units: 2\n\
         docs/huge.md\thuge.md\tfile_bytes\t40000\n"
    );
    s.write("docs/new.md", &"word ".repeat(7000)); // 35000 bytes
    let run = s.run(&["measure", "--check", "docs"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains(
        "docs/new.md:1         file      new.md         1 line, 35000 bytes  excess: file_bytes 35000 > 32768 (band 32768)\n"
    ), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "1 line, 40000 bytes  file_bytes tolerated (limit 32768, band 32768, baseline 40000)\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn a_ten_megabyte_document_is_skipped_or_measured_promptly() {
    let s = docs_repo("file_bytes: 100\nloaded_bytes: 100\n");
    let line =
        "Some prose with (@shared.md) and `@code.md` and name@example.com. **bold** [x](y)\n";
    let body = line.repeat(10 * 1024 * 1024 / line.len() + 1);
    s.write("docs/big.md", &body);
    let run = s.run(&["measure", "docs/big.md"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "measured 0 file(s): 0 function(s), 0 type(s); 1 skipped\n\
             skipped docs/big.md: larger than --max-file-size ({} > 4194304 bytes)\n",
            body.len()
        )
    );
    let (run, cpu) = s.run_cpu(&[
        "measure",
        "--max-file-size",
        "20000000",
        "--format",
        "json",
        "docs/big.md",
    ]);
    assert!(cpu < Duration::from_secs(30), "{cpu:?}");
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let file = &v["files"][0];
    assert_eq!(file["bytes"], body.len());
    assert_eq!(file["loaded_bytes"], body.len() + 14);
    assert_eq!(file["imports"], serde_json::json!(["docs/shared.md"]));
}

#[test]
fn generated_documents_are_left_out_but_test_paths_are_not() {
    let s = docs_repo("file_bytes: 10\n");
    s.write(
        "docs/gen.md",
        "<!-- @generated by a tool -->\nlong long long\n",
    );
    s.write("docs/tests/notes.md", "long long long\n");
    let run = s.run(&["measure", "--format", "tsv", "docs/gen.md", "docs/tests"]);
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         docs/tests/notes.md\tnotes.md\tfile_bytes\t15\t1\t1\texcess\n"
    );
}
