//! `structgate measure` as a user runs it (docs/src/reference/measurement.md, docs/src/reference/json.md#measure).

use crate::common;

use common::{cs_class, exact, principles, rs_fn, Scenario};

#[test]
fn text_lists_each_file_and_unit_then_a_summary() {
    let s = Scenario::git();
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    s.write("src/lib.rs", &rs_fn("parse", 4));
    let run = s.run(&["measure"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("text_two_files", exact(&run.stdout));
    assert_eq!(run.stderr, "");
}

#[test]
fn json_is_the_spec_object() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    s.write_bytes("src/Latin1.cs", b"class Caf\xe9 {}\n");
    let run = s.run(&["measure", "--format", "json", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    serde_json::from_str::<serde_json::Value>(&run.stdout).expect("json");
    insta::assert_snapshot!("json_one_file_and_one_skipped", exact(&run.stdout));
}

#[test]
fn paths_are_relative_to_the_repository_root_from_a_subdirectory() {
    let s = Scenario::git();
    s.write("src/deep/A.cs", &cs_class("A", &[("Run", 5)]));
    let run = s.run_in(&s.abs("src/deep"), &["measure", "--format", "tsv", "A.cs"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("tsv_from_a_subdirectory", exact(&run.stdout));
}

#[test]
fn dash_c_runs_as_if_started_there() {
    let s = Scenario::git();
    s.write("proj/lib.rs", &rs_fn("parse", 4));
    let run = s.run(&[
        "-C",
        s.abs("proj").to_str().expect("utf8"),
        "measure",
        "--format",
        "tsv",
        "lib.rs",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("proj/lib.rs\tparse\tfunction_lines\t4\t1\t4\t-\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn statuses_and_check() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 20\n"),
    );
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Ok", 10), ("Near", 12), ("Over", 13)]),
    );
    let run = s.run(&["measure", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("statuses_text", exact(&run.stdout));
    assert_eq!(s.run(&["measure", "--check", "src"]).code, 1);
    s.write("src/A.cs", &cs_class("A", &[("Near", 12)]));
    assert_eq!(s.run(&["measure", "--check", "src"]).code, 0);
}

#[test]
fn max_file_size_takes_plain_bytes_only() {
    let s = Scenario::git();
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    let run = s.run(&["measure", "--max-file-size", "4MiB"]);
    assert_eq!(run.code, 2, "{run:?}");
    let run = s.run(&["measure", "--max-file-size", "10", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["skipped"][0]["path"], "src/A.cs");
    assert_eq!(v["skipped"][0]["reason"], "too-large");
    assert_eq!(
        v["skipped"][0]["detail"],
        "larger than --max-file-size (93 > 10 bytes)"
    );
}

#[test]
fn a_missing_path_is_an_error_naming_it() {
    let s = Scenario::git();
    let run = s.run(&["measure", "nope"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("nope"), "{}", run.stderr);
}

#[test]
fn outside_git_paths_are_relative_to_the_current_directory() {
    let s = Scenario::plain();
    s.write("a/lib.rs", &rs_fn("parse", 4));
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("a/lib.rs\tparse\tfunction_lines\t4\t1\t4\t-\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn gitignored_files_are_not_measured() {
    let s = Scenario::git();
    s.write(".gitignore", "target/\n");
    s.write("target/gen.rs", &rs_fn("gen", 4));
    s.write("src/lib.rs", &rs_fn("parse", 4));
    let run = s.run(&["measure", "--format", "tsv"]);
    assert!(
        !run.stdout.contains("target/gen.rs"),
        "{}",
        exact(&run.stdout)
    );
    assert!(run.stdout.contains("src/lib.rs"), "{}", exact(&run.stdout));
}

#[test]
fn output_is_the_same_bytes_whatever_the_thread_count() {
    let s = Scenario::plain();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for format in ["text", "json", "tsv"] {
        let args = ["measure", "--no-cache", "--format", format, "."];
        let runs: Vec<_> = ["1", "2", "7"]
            .iter()
            .map(|threads| {
                s.run_env(
                    &fixtures,
                    &args,
                    &[("RAYON_NUM_THREADS", threads), ("NO_COLOR", "1")],
                )
            })
            .collect();
        assert_eq!(runs[0].code, 0, "{:?}", runs[0]);
        assert!(runs[0].stdout.lines().count() > 200, "{}", runs[0].stdout);
        for run in &runs[1..] {
            assert_eq!(run.stdout, runs[0].stdout, "{format}");
            assert_eq!(run.stderr, runs[0].stderr, "{format}");
        }
    }
}

#[test]
fn dump_tree_prints_the_syntax_tree_and_what_the_walk_made_of_it() {
    let s = Scenario::plain();
    s.write(
        "src/a.rs",
        "#[inline]\nfn f() {}\n\n#[cfg(test)]\nmod tests {}\n",
    );
    let run = s.run(&["measure", "--dump-tree", "src/a.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("dump_tree_rust", exact(&run.stdout));
    assert_eq!(run.stderr, "");
    let run = s.run(&["-C", "src", "measure", "--dump-tree", "nosuch.rs"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "error: nosuch.rs: no such file or directory\n");
    s.write("notes.txt", "text\n");
    let run = s.run(&["measure", "--dump-tree", "notes.txt"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: notes.txt: no syntax tree (not UTF-8, or not a language structgate parses)\n"
    );
    let run = s.run(&["measure", "--dump-tree", "src/a.rs", "--check"]);
    assert_eq!(run.code, 2, "{run:?}");
}

#[test]
fn syntax_errors_are_one_summary_line_unless_verbose() {
    let s = common::Scenario::git();
    s.write("a/Bad.cs", "class A { void F( }\n");
    s.write("b/Bad.cs", "class B { int x = ; }\n");
    s.write("c/bad.rs", "fn f( {}\n");
    s.write("Good.cs", "class G { }\n");
    let run = s.run(&["measure"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, "warning: 3 file(s) with syntax errors; -v lists them\n"),
        "{run:?}"
    );
    let verbose = s.run(&["measure", "-v", "--no-cache"]);
    let warnings: Vec<&str> = verbose
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: a/Bad.cs: syntax error at line 1; measured what parsed",
            "warning: b/Bad.cs: syntax error at line 1; measured what parsed",
            "warning: c/bad.rs: syntax error at line 1; measured what parsed",
        ]
    );
}

#[test]
fn over_lists_only_what_is_over_a_limit_with_one_line_said_so() {
    let s = Scenario::inventory(common::BAND_12);
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Over", 14), ("Within", 11), ("Fine", 5)]),
    );
    s.write("src/B.cs", "class B { }\n");
    let all = s.run(&["measure", "src"]);
    assert_eq!(all.code, 0, "{all:?}");
    insta::assert_snapshot!("over_without_it", exact(&all.stdout));
    let over = s.run(&["measure", "--over", "src"]);
    assert_eq!(over.code, 0, "{over:?}");
    insta::assert_snapshot!("over_with_it", exact(&over.stdout));
}

/// The unit rows of `measure --format tsv` (no file rows): unit, metric, start and end.
fn unit_rows(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip(1)
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('\t').collect();
            let [_, unit, metric, _, start, end, _] = cells[..] else {
                return None;
            };
            let unit_metric = matches!(metric, "function_lines" | "type_lines");
            unit_metric.then(|| format!("{unit} {metric} {start}-{end}"))
        })
        .collect()
}

#[test]
fn top_level_statements_end_with_the_last_one_not_a_statement_inside_it() {
    let s = Scenario::git();
    s.write(
        "If.cs",
        "var verbose = args.Length > 0;\nif (verbose)\n{\n    Console.WriteLine(\"verbose\");\n}\n",
    );
    s.write(
        "Local.cs",
        "Console.WriteLine(Check());\n\nstatic bool Check()\n{\n    var value = \"1\";\n    \
         return value == \"1\";\n}\n\nclass After { }\n",
    );
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        unit_rows(&run.stdout),
        [
            "<Main>$ function_lines 1-5",
            "<Main>$ function_lines 1-7",
            "Check function_lines 3-7",
            "After type_lines 9-9",
        ]
    );
}

#[test]
fn file_based_app_directives_and_a_shebang_are_blanked_before_parsing() {
    let s = Scenario::git();
    s.write(
        "app.cs",
        "#!/usr/bin/env dotnet run\n#:sdk Microsoft.NET.Sdk.Web\n#:package Humanizer@2.14.1\n\
         #:property LangVersion=preview\n\nvar app = WebApplication.Create(args);\n\
         app.MapGet(\"/\", () => \"Hello\");\napp.Run();\n\n\
         record Greeting(string Text)\n{\n    public string Shout() => Text.ToUpper();\n}\n",
    );
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        unit_rows(&run.stdout),
        [
            "<Main>$ function_lines 6-8",
            "Greeting type_lines 10-13",
            "Greeting.Shout function_lines 12-12",
        ]
    );
}
