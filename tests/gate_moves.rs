//! A unit moved unchanged into another file of its context keeps its allowance
//! (docs/src/reference/baseline.md#moved-units), and every finding says what the branch did
//! to it (docs/src/reference/gate.md#what-changed).

use crate::common::{exact, principles, Scenario, INVENTORY};

/// function_lines 50, band 55: the limits of the Viper scenario.
const LIMITS: &str = "function_lines: 50\ntolerance_percent: 10\n";

/// A Go method of `Viper` named `name`, exactly `lines` lines long (`lines` ≥ 3).
fn go_method(name: &str, lines: usize) -> String {
    let mut s = format!("func (v *Viper) {name}() int {{\n");
    for _ in 0..lines - 3 {
        s.push_str("\tv.n++\n");
    }
    s.push_str("\treturn v.n\n}\n");
    s
}

/// A Go file of package viper holding `body`.
fn go_file(body: &str) -> String {
    format!("package viper\n\n{body}")
}

/// `main` holds `src/viper.go` with the type, `Viper.find` (180 lines, in the baseline)
/// and `Viper.get` (5 lines); HEAD is branch `feature`, cut from `main`.
fn viper() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", INVENTORY);
    s.write("principles.md", &principles(LIMITS));
    let body = format!(
        "type Viper struct {{\n\tn int\n}}\n\n{}\n{}",
        go_method("find", 180),
        go_method("get", 5)
    );
    s.write("src/viper.go", &go_file(&body));
    s.cut_feature();
    let baseline = s.read("structure-baseline.tsv");
    assert!(
        baseline.contains("src/viper.go\tViper.find\tfunction_lines\t180\n"),
        "{baseline}"
    );
    s
}

/// The feature branch splits `Viper.find` out of `src/viper.go` into `src/find.go`, at
/// `lines` lines.
fn split_find(s: &Scenario, lines: usize) {
    let rest = format!(
        "type Viper struct {{\n\tn int\n}}\n\n{}",
        go_method("get", 5)
    );
    s.write("src/viper.go", &go_file(&rest));
    s.write("src/find.go", &go_file(&go_method("find", lines)));
}

#[test]
fn a_unit_moved_unchanged_into_a_new_file_keeps_its_allowance_in_every_format() {
    let s = viper();
    split_find(&s, 180);
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("\nmoved: Viper.find src/viper.go -> src/find.go\n"),
        "{}",
        run.stdout
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["status"], "passed");
    assert_eq!(
        v["moved"],
        serde_json::json!([{"unit": "Viper.find", "from": "src/viper.go", "to": "src/find.go"}])
    );
    let summary = s.abs("summary.md");
    let run = s.gate(&["--pr-summary", summary.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{run:?}");
    let md = std::fs::read_to_string(&summary).expect("summary");
    assert!(
        md.contains(
            "\n### Moved units\n\n- `Viper.find` `src/viper.go` -> `src/find.go`: judged with \
             its baseline entries of `src/viper.go`\n"
        ),
        "{md}"
    );
    // Committed, as the pre-commit hook would let it be: the same.
    s.commit("split find");
    assert_eq!(s.gate(&[]).code, 0);
}

#[test]
fn a_moved_unit_grown_past_its_entry_fails_naming_the_entry_it_carried() {
    let s = viper();
    split_find(&s, 181);
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["excesses"],
        serde_json::json!([{"path": "src/find.go", "unit": "Viper.find",
            "metric": "function_lines", "value": 181, "limit": 50, "band": 55,
            "baseline": 180, "base_value": 180, "start_line": 3, "end_line": 183}])
    );
}

#[test]
fn a_copy_still_in_its_old_file_gets_no_allowance() {
    let s = viper();
    s.write("src/find.go", &go_file(&go_method("find", 180)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("src/find.go:3 Viper.find: function_lines 180 > 50 (band 55)\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("moved:"), "{}", run.stdout);
}

#[test]
fn units_moved_out_of_a_deleted_file_keep_their_allowances() {
    // Three large methods in one file, each moved to a file of its own and the old file
    // deleted: no new file is similar enough to be git's rename of it.
    let s = Scenario::git();
    s.write("context.yaml", INVENTORY);
    s.write("principles.md", &principles(LIMITS));
    let methods = ["find", "load", "save"];
    let body: Vec<String> = methods.iter().map(|m| go_method(m, 180)).collect();
    let body = format!("type Viper struct {{\n\tn int\n}}\n\n{}", body.join("\n"));
    s.write("src/viper.go", &go_file(&body));
    s.cut_feature();
    s.remove("src/viper.go");
    s.write(
        "src/types.go",
        &go_file("type Viper struct {\n\tn int\n}\n"),
    );
    for m in methods {
        s.write(&format!("src/{m}.go"), &go_file(&go_method(m, 180)));
    }
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.ends_with(
            "moved: Viper.find src/viper.go -> src/find.go\n\
             moved: Viper.load src/viper.go -> src/load.go\n\
             moved: Viper.save src/viper.go -> src/save.go\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn baseline_refresh_moves_the_entry_with_its_unit() {
    let s = viper();
    split_find(&s, 180);
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("0 added, 0 lowered, 0 dropped, 1 moved to another file;"),
        "{}",
        run.stdout
    );
    let baseline = s.read("structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["src/find.go\tViper.find\tfunction_lines\t180"]);
    // A copy left in its old file moves nothing.
    let s = viper();
    s.write("src/find.go", &go_file(&go_method("find", 180)));
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    let baseline = s.read("structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["src/viper.go\tViper.find\tfunction_lines\t180"]);
}

#[test]
fn divergences_say_whether_the_branch_made_them_new_grown_or_left_them() {
    use crate::common::{after_base, cs_class, BAND_12};
    let s = Scenario::inventory(BAND_12);
    let base = [("Old", 11), ("Shrink", 12), ("Grow", 11)];
    s.write("src/A.cs", &cs_class("A", &base));
    s.cut_feature();
    let branch = [("Old", 11), ("Shrink", 11), ("Grow", 12), ("New", 11)];
    s.write("src/A.cs", &cs_class("A", &branch));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("divergences_text", after_base(&run.stdout).join("\n"));
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let base_values: Vec<(&str, &serde_json::Value)> = v["divergences"]
        .as_array()
        .expect("array")
        .iter()
        .map(|f| (f["unit"].as_str().expect("unit"), &f["base_value"]))
        .collect();
    let (n11, n12, null) = (
        serde_json::json!(11),
        serde_json::json!(12),
        serde_json::Value::Null,
    );
    assert_eq!(
        base_values,
        [
            ("A.Grow", &n11),
            ("A.New", &null),
            ("A.Old", &n11),
            ("A.Shrink", &n12)
        ]
    );
    let summary = s.abs("summary.md");
    let run = s.gate(&["--pr-summary", summary.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{run:?}");
    let md = std::fs::read_to_string(&summary).expect("summary");
    insta::assert_snapshot!("divergences_pr_summary", exact(&md));
}
