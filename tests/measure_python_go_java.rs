//! Python, Go and Java through every command and output, as a user runs them (docs/src/reference/languages.md):
//! the same judge, baseline and reports as the other languages.

use crate::common;

use common::{after_base, Scenario, BAND_12};

/// A Python function of exactly `lines` lines (≥ 2), at `indent` spaces, followed by a
/// comment line that is not part of it.
fn py_def(name: &str, lines: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut s = format!("{pad}def {name}(self):\n");
    for i in 0..lines.saturating_sub(1) {
        s.push_str(&format!("{pad}    x{i} = {i}\n"));
    }
    s.push_str(&format!("{pad}    # not part of {name}\n"));
    s
}

#[test]
fn json_names_python() {
    let s = Scenario::git();
    s.write(
        "src/parser.py",
        "class Parser:\n    @property\n    def value(self):\n        return 1\n",
    );
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["files"],
        serde_json::json!([
            {
                "path": "src/parser.py", "language": "python", "lines": 4, "types": 1,
                "bytes": 66, "context": null,
                "units": [
                    {"name": "Parser", "kind": "type", "start_line": 1, "end_line": 4, "lines": 4},
                    {"name": "Parser.value", "kind": "function", "start_line": 2,
                     "end_line": 4, "lines": 3},
                ]
            },
        ])
    );
}

#[test]
fn text_and_tsv_list_python_units() {
    let s = Scenario::git();
    s.write(
        "src/app.py",
        "def outer():\n    def inner():\n        pass\n    # trailing\n",
    );
    let run = s.run(&["measure"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "src/app.py:1  file      app.py       4 lines, 0 type(s), 58 bytes\n\
         src/app.py:1  function  outer        3 lines\n\
         src/app.py:2  function  outer.inner  2 lines\n\
         measured 1 file(s): 2 function(s), 0 type(s)\n"
    );
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         src/app.py\tapp.py\tfile_bytes\t58\t1\t4\t-\n\
         src/app.py\tapp.py\tfile_lines\t4\t1\t4\t-\n\
         src/app.py\tapp.py\ttypes_per_file\t0\t1\t4\t-\n\
         src/app.py\touter\tfunction_lines\t3\t1\t3\t-\n\
         src/app.py\touter.inner\tfunction_lines\t2\t2\t3\t-\n"
    );
}

#[test]
fn the_gate_judges_a_grown_python_method_and_the_baseline_tolerates_an_old_one() {
    let s = Scenario::inventory(BAND_12);
    s.write(
        "src/old.py",
        &format!("class Old:\n{}", py_def("run", 20, 4)),
    );
    s.write(
        "src/jobs.py",
        &format!("class Job:\n{}", py_def("run", 5, 4)),
    );
    s.cut_feature();
    assert_eq!(
        s.read("structure-baseline.tsv").lines().last(),
        Some("src/old.py\tOld.run\tfunction_lines\t20")
    );
    // Twelve lines and a trailing comment: within the band, whatever the comment.
    s.write(
        "src/jobs.py",
        &format!("class Job:\n{}", py_def("run", 12, 4)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    s.write(
        "src/jobs.py",
        &format!("class Job:\n{}", py_def("run", 13, 4)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/jobs.py:2 Job.run: function_lines 13 > 10 (band 12)",
        ]
    );
}

#[test]
fn a_property_and_its_setter_are_one_baseline_entry_at_the_worse_value() {
    let s = Scenario::inventory(BAND_12);
    let src = format!(
        "class Parser:\n    @property\n{}    @value.setter\n{}",
        py_def("value", 15, 4),
        py_def("value", 20, 4)
    );
    s.write("src/parser.py", &src);
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    let baseline = s.read("structure-baseline.tsv");
    let rows: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows, ["src/parser.py\tParser.value\tfunction_lines\t21"]);
}

#[test]
fn python_test_and_generated_paths_are_left_out() {
    let s = Scenario::git();
    for path in [
        "tests/helper.py",
        "pkg/Test/helper.py",
        "app/Migrations/0001_initial.py",
        "pkg/test_parser.py",
        "pkg/parser_test.py",
        "conftest.py",
        "api/service_pb2.py",
        "api/service_pb2_grpc.py",
    ] {
        s.write(path, "def f():\n    pass\n");
    }
    s.write("pkg/testing.py", "def client():\n    pass\n");
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         pkg/testing.py\ttesting.py\tfile_bytes\t23\t1\t2\t-\n\
         pkg/testing.py\ttesting.py\tfile_lines\t2\t1\t2\t-\n\
         pkg/testing.py\ttesting.py\ttypes_per_file\t0\t1\t2\t-\n\
         pkg/testing.py\tclient\tfunction_lines\t2\t1\t2\t-\n"
    );
}

#[test]
fn github_and_sarif_annotate_a_python_excess() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/jobs.py", &py_def("run", 13, 0));
    let run = s.run(&["measure", "--check", "--format", "github", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "::error file=src/jobs.py,line=1,endLine=13,title=function_lines past the band::\
         run: function_lines 13 > 10 (band 12)\n\
         measured 1 file(s): 1 function(s), 0 type(s); 1 excess(es), \
         0 divergence(s), 0 tolerated by the baseline\n"
    );
    let run = s.run(&["measure", "--check", "--format", "sarif", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/jobs.py");
    assert_eq!(location["region"]["startLine"], 1);
    assert_eq!(location["region"]["endLine"], 13);
}

/// A Go method of exactly `lines` lines (≥ 2) on `*Parser[T]`.
fn go_method(name: &str, lines: usize) -> String {
    let mut s = format!("func (p *Parser[T]) {name}() {{\n");
    s.push_str(&"\tp.step()\n".repeat(lines.saturating_sub(2)));
    s.push_str("}\n");
    s
}

#[test]
fn json_text_and_tsv_name_go_units() {
    let s = Scenario::git();
    s.write(
        "pkg/parser.go",
        "package pkg\n\ntype Parser[T any] struct {\n\tsrc []T\n}\n\nfunc (p *Parser[T]) Next() {}\n",
    );
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["files"][0]["language"], "go");
    assert_eq!(
        v["files"][0]["units"],
        serde_json::json!([
            {"name": "Parser", "kind": "type", "start_line": 3, "end_line": 5, "lines": 3},
            {"name": "Parser.Next", "kind": "function", "start_line": 7, "end_line": 7,
             "lines": 1},
        ])
    );
    let run = s.run(&["measure"]);
    assert_eq!(
        run.stdout,
        "pkg/parser.go:1  file      parser.go    7 lines, 1 type(s), 83 bytes\n\
         pkg/parser.go:3  type      Parser       3 lines\n\
         pkg/parser.go:7  function  Parser.Next  1 line\n\
         measured 1 file(s): 1 function(s), 1 type(s)\n"
    );
}

#[test]
fn a_go_marker_new_on_the_branch_does_not_exempt_a_grown_method() {
    let s = Scenario::inventory(BAND_12);
    let marker = "// Code generated by hand. DO NOT EDIT.\n";
    s.write(
        "src/old.go",
        &format!("{marker}package src\n{}", go_method("Old", 30)),
    );
    s.write(
        "src/parser.go",
        &format!("package src\n{}", go_method("Next", 5)),
    );
    s.cut_feature();
    assert_eq!(
        s.read("structure-baseline.tsv").lines().last(),
        Some("# owned:\tsrc")
    );
    s.write(
        "src/old.go",
        &format!("{marker}package src\n{}", go_method("Old", 40)),
    );
    s.write(
        "src/parser.go",
        &format!("{marker}package src\n{}", go_method("Next", 13)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/parser.go:3 Parser.Next: function_lines 13 > 10 (band 12)",
        ]
    );
}

#[test]
fn go_test_vendor_and_testdata_paths_are_left_out() {
    let s = Scenario::git();
    for path in [
        "pkg/parser_test.go",
        "pkg/testdata/input.go",
        "vendor/golang.org/x/text/text.go",
    ] {
        s.write(path, "package p\n\nfunc F() {}\n");
    }
    s.write("pkg/test_helpers.go", "package p\n\nfunc Helper() {}\n");
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         pkg/test_helpers.go\ttest_helpers.go\tfile_bytes\t28\t1\t3\t-\n\
         pkg/test_helpers.go\ttest_helpers.go\tfile_lines\t3\t1\t3\t-\n\
         pkg/test_helpers.go\ttest_helpers.go\ttypes_per_file\t0\t1\t3\t-\n\
         pkg/test_helpers.go\tHelper\tfunction_lines\t1\t3\t3\t-\n"
    );
}

/// A Java method of exactly `lines` lines (≥ 3), annotated on its own line.
fn java_method(name: &str, lines: usize) -> String {
    let mut s = format!("  @Override\n  public void {name}() {{\n");
    s.push_str(&"    step();\n".repeat(lines.saturating_sub(3)));
    s.push_str("  }\n");
    s
}

#[test]
fn json_text_and_tsv_name_java_units() {
    let s = Scenario::git();
    s.write(
        "src/main/java/Op.java",
        "/** Doc. */\nenum Op {\n  PLUS {\n    int apply(int a) { return a; }\n  };\n  abstract int apply(int a);\n}\n",
    );
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["files"][0]["language"], "java");
    assert_eq!(
        v["files"][0]["units"],
        serde_json::json!([
            {"name": "Op", "kind": "type", "start_line": 2, "end_line": 7, "lines": 6},
            {"name": "Op.PLUS.apply", "kind": "function", "start_line": 4, "end_line": 4,
             "lines": 1},
            {"name": "Op.apply", "kind": "function", "start_line": 6, "end_line": 6,
             "lines": 1},
        ])
    );
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         src/main/java/Op.java\tOp.java\tfile_bytes\t102\t1\t7\t-\n\
         src/main/java/Op.java\tOp.java\tfile_lines\t7\t1\t7\t-\n\
         src/main/java/Op.java\tOp.java\ttypes_per_file\t1\t1\t7\t-\n\
         src/main/java/Op.java\tOp\ttype_lines\t6\t2\t7\t-\n\
         src/main/java/Op.java\tOp.PLUS.apply\tfunction_lines\t1\t4\t4\t-\n\
         src/main/java/Op.java\tOp.apply\tfunction_lines\t1\t6\t6\t-\n"
    );
}

#[test]
fn the_gate_judges_a_java_method_from_its_annotation_and_leaves_maven_tests_out() {
    let s = Scenario::inventory(BAND_12);
    s.write(
        "src/main/java/Job.java",
        &format!("class Job {{\n{}}}\n", java_method("run", 5)),
    );
    s.cut_feature();
    s.write(
        "src/main/java/Job.java",
        &format!("class Job {{\n{}}}\n", java_method("run", 13)),
    );
    s.write(
        "src/test/java/JobTest.java",
        &format!("class JobTest {{\n{}}}\n", java_method("runs", 40)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/main/java/Job.java:2 Job.run: function_lines 13 > 10 (band 12)",
            "left out src/test/java/JobTest.java: test directory \"test\"",
        ]
    );
}
