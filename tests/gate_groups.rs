//! Same-name groups at the gate (docs/src/reference/gate.md#integrity): a baseline entry tolerates as many units
//! of its name as the file held at the base, the largest; a unit a branch adds beside a
//! baselined one of the same name (a second Go `init`, a Python fallback `def`, an
//! overload, a setter) is judged without allowance.

use crate::common;

use common::{after_base, Scenario, BAND_12};

/// `n` statement lines of `indent`ed `stmt` (its `{i}` numbered).
fn body(n: usize, indent: &str, stmt: &str) -> String {
    (0..n)
        .map(|i| format!("{indent}{}\n", stmt.replace("{i}", &i.to_string())))
        .collect()
}

/// A Go function `head` of exactly `lines` lines.
fn go(head: &str, lines: usize) -> String {
    format!("{head} {{\n{}}}\n", body(lines - 2, "\t", "_ = {i}"))
}

/// A Python `def` at `indent` whose `head` line is followed by `lines - 1` statements (a
/// decorator in `head` adds its line).
fn py(indent: &str, head: &str, lines: usize) -> String {
    let inner = format!("{indent}    ");
    format!("{indent}{head}:\n{}", body(lines - 1, &inner, "x{i} = {i}"))
}

/// A C#, Java or Go-like braced method `head` of exactly `lines` lines, indented once.
fn braced(head: &str, lines: usize) -> String {
    format!(
        "    {head} {{\n{}    }}\n",
        body(lines - 2, "        ", "int x{i} = {i};")
    )
}

struct Case {
    path: &'static str,
    /// The file at the base: one unit of the name, 20 lines (baselined: band 12).
    base: String,
    /// The branch's version: the same unit, and a second of its name, 15 lines.
    branch: String,
    /// The second unit's first line and name.
    line: usize,
    unit: &'static str,
}

fn cases() -> Vec<Case> {
    let go_base = format!("package a\n\n{}", go("func init()", 20));
    let py_base = py("", "def load()", 20);
    let setter_base = format!(
        "class Parser:\n{}",
        py("    ", "@property\n    def value(self)", 21)
    );
    vec![
        Case {
            path: "src/a.go",
            branch: format!("{go_base}\n{}", go("func init()", 15)),
            base: go_base,
            line: 24,
            unit: "init",
        },
        Case {
            path: "src/fast.py",
            branch: format!(
                "{py_base}\ntry:\n    import _fast\nexcept ImportError:\n{}",
                py("    ", "def load()", 15)
            ),
            base: py_base,
            line: 25,
            unit: "load",
        },
        Case {
            path: "src/parser.py",
            branch: format!(
                "{setter_base}\n{}",
                py("    ", "@value.setter\n    def value(self, v)", 14)
            ),
            base: setter_base,
            line: 25,
            unit: "Parser.value",
        },
        Case {
            path: "src/Big.cs",
            base: format!("class Big\n{{\n{}}}\n", braced("void Run()", 20)),
            branch: format!(
                "class Big\n{{\n{}{}}}\n",
                braced("void Run()", 20),
                braced("void Run(int a)", 15)
            ),
            line: 23,
            unit: "Big.Run",
        },
        Case {
            path: "src/Big.java",
            base: format!("class Big {{\n{}}}\n", braced("void run()", 20)),
            branch: format!(
                "class Big {{\n{}{}}}\n",
                braced("void run()", 20),
                braced("void run(int a)", 15)
            ),
            line: 22,
            unit: "Big.run",
        },
    ]
}

#[test]
fn a_unit_added_beside_a_baselined_one_of_its_name_is_judged_without_allowance() {
    for case in cases() {
        let s = Scenario::inventory(BAND_12);
        s.write(case.path, &case.base);
        s.cut_feature();
        let baseline = s.read("structure-baseline.tsv");
        let entry = format!("{}\t{}\tfunction_lines\t", case.path, case.unit);
        assert!(baseline.contains(&entry), "{}: {baseline}", case.path);
        s.write(case.path, &case.branch);
        let run = s.gate(&["--require-judged"]);
        assert_eq!(run.code, 1, "{}: {run:?}", case.path);
        assert_eq!(
            after_base(&run.stdout),
            [
                "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
                &format!(
                    "{}:{} {}: function_lines 15 > 10 (band 12; 2 units share this name where \
                     the base had 1: its baseline entry covers the largest 1)",
                    case.path, case.line, case.unit
                ),
            ],
            "{}",
            case.path
        );
        let json = s.gate(&["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
        assert_eq!(
            v["excesses"][0]["same_name"],
            serde_json::json!({"units": 2, "at_base": 1}),
            "{}",
            case.path
        );
        assert_eq!(v["excesses"][0]["baseline"], serde_json::json!(null));
    }
}

#[test]
fn the_largest_units_up_to_the_base_count_share_the_entry_and_renames_count_at_the_old_path() {
    // Two `init`s at the base (20 and 14 lines, the entry 20); the branch renames the
    // file and adds a third of 13 lines: the entry covers the two largest (20, 14), the
    // 13-line one is judged without it.
    let s = Scenario::inventory(BAND_12);
    let base = format!(
        "package a\n\n{}\n{}",
        go("func init()", 20),
        go("func init()", 14)
    );
    s.write("src/a.go", &base);
    s.cut_feature();
    assert!(s
        .read("structure-baseline.tsv")
        .contains("src/a.go\tinit\tfunction_lines\t20\n"));
    s.git_ok(&["mv", "src/a.go", "src/b.go"]);
    s.write("src/b.go", &format!("{base}\n{}", go("func init()", 13)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(
        "a_third_init_in_a_renamed_file",
        after_base(&run.stdout).join("\n")
    );
    // Shrinking the 14-line one below the band instead passes: still two past it.
    s.write(
        "src/b.go",
        &format!(
            "package a\n\n{}\n{}\n{}",
            go("func init()", 20),
            go("func init()", 5),
            go("func init()", 13)
        ),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    // `measure --check` has no base to count against: the entry tolerates the whole
    // group, as the baseline records it (one value per name).
    s.write("src/b.go", &format!("{base}\n{}", go("func init()", 13)));
    s.git_ok(&["add", "-A"]);
    let check = s.run(&["measure", "--check", "src"]);
    assert_eq!(check.code, 0, "{check:?}");
}

#[test]
fn an_entry_left_from_a_file_the_base_no_longer_holds_tolerates_nothing() {
    let s = Scenario::inventory(BAND_12);
    s.write(
        "src/a.go",
        &format!("package a\n\n{}", go("func run()", 20)),
    );
    s.write("src/keep.go", "package a\n");
    s.cut_feature();
    // `main` deletes the file and keeps its entry (no refresh).
    s.git_ok(&["checkout", "-q", "main"]);
    s.remove("src/a.go");
    s.commit("drop a.go");
    s.git_ok(&["checkout", "-q", "-B", "feature", "main"]);
    assert!(s.read("structure-baseline.tsv").contains("src/a.go\trun\t"));
    s.write(
        "src/a.go",
        &format!("package a\n\n{}", go("func run()", 20)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout)[1],
        "src/a.go:3 run: function_lines 20 > 10 (band 12; 1 unit has this name where the base \
         had none: its baseline entry covers none)"
    );
}
