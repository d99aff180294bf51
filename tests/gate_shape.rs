//! The shape metrics (docs/src/reference/metrics.md#shape-metrics) through the binary:
//! measured in every output, judged, baselined, refreshed, carried over renames and
//! validated like every other metric.

use crate::common::{after_base, principles, Scenario};

/// A TypeScript function `f` whose cognitive complexity is `n`: `n` flat `if`s.
fn ts_ifs(n: usize) -> String {
    let mut s = String::from("export function f(a: number) {\n");
    for i in 0..n {
        s.push_str(&format!("  if (a === {i}) {{ a++; }}\n"));
    }
    s.push_str("  return a;\n}\n");
    s
}

const COGNITIVE_15: &str = "function_cognitive: 15\ntolerance_percent: 0\n";

/// `main` holds `src/x.ts` with `f` at cognitive 31, recorded in the baseline; HEAD is
/// `feature`.
fn cognitive_31() -> Scenario {
    let s = Scenario::inventory(COGNITIVE_15);
    s.write("src/x.ts", &ts_ifs(31));
    s.cut_feature();
    s
}

#[test]
fn baseline_init_records_a_shape_excess() {
    let s = cognitive_31();
    assert_eq!(
        s.read("structure-baseline.tsv"),
        "# path\tunit\tmetric\tvalue — units over their Limits when measured, each tolerated up to its value\n\
         # measured with: function_cognitive=15 tolerance_percent=0\n\
         # owned:\tsrc\n\
         # units: 2\n\
         src/x.ts\tf\tfunction_cognitive\t31\n"
    );
}

#[test]
fn a_branch_growing_a_baselined_cognitive_value_fails_and_lowering_it_passes() {
    let s = cognitive_31();
    s.write("src/x.ts", &ts_ifs(32));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/x.ts:1 f: function_cognitive 32 > 15 (band 15, baseline 31)",
        ]
    );
    s.write("src/x.ts", &ts_ifs(30));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn a_renamed_file_keeps_its_shape_allowance() {
    let s = cognitive_31();
    s.git_ok(&["mv", "src/x.ts", "src/y.ts"]);
    s.commit("rename");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn refresh_lowers_a_shape_entry_to_today_s_value() {
    let s = cognitive_31();
    s.write("src/x.ts", &ts_ifs(20));
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        s.read("structure-baseline.tsv")
            .ends_with("src/x.ts\tf\tfunction_cognitive\t20\n"),
        "{}",
        s.read("structure-baseline.tsv")
    );
}

#[test]
fn measure_shows_the_four_values_in_text_json_and_tsv() {
    let s = Scenario::plain();
    s.write(
        "src/a.ts",
        "export function f(a: number, b: number) {\n  if (a && b) {\n    for (;;) {}\n  }\n}\nclass C {}\n",
    );
    let text = s.run(&["measure", "src/a.ts"]);
    assert_eq!(text.code, 0, "{text:?}");
    let line = text
        .stdout
        .lines()
        .find(|l| l.contains(" f "))
        .unwrap_or_default();
    assert!(
        line.ends_with("5 lines  params 2  nesting 2  cyclomatic 4  cognitive 4"),
        "{}",
        text.stdout
    );
    let json = s.run(&["measure", "--format", "json", "src/a.ts"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let units = &v["files"][0]["units"];
    let f = &units[0];
    assert_eq!(
        (
            &f["params"],
            &f["nesting"],
            &f["cyclomatic"],
            &f["cognitive"]
        ),
        (&2.into(), &2.into(), &4.into(), &4.into())
    );
    assert_eq!(units[1]["kind"], "type");
    assert!(units[1].get("cognitive").is_none(), "{}", json.stdout);
    let tsv = s.run(&["measure", "--format", "tsv", "src/a.ts"]);
    for row in [
        "src/a.ts\tf\tfunction_params\t2\t1\t5\t-",
        "src/a.ts\tf\tfunction_nesting\t2\t1\t5\t-",
        "src/a.ts\tf\tfunction_cyclomatic\t4\t1\t5\t-",
        "src/a.ts\tf\tfunction_cognitive\t4\t1\t5\t-",
    ] {
        assert!(
            tsv.stdout.lines().any(|l| l == row),
            "{row} in\n{}",
            tsv.stdout
        );
    }
}

#[test]
fn a_misspelt_shape_key_is_refused_with_the_key_it_meant() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write("principles.md", &principles("function_cognitve: 15\n"));
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.starts_with(
            "error: principles.md:6: unknown Limits key function_cognitve: did you mean \
             function_cognitive?"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn limits_shows_the_shape_limits() {
    let s = Scenario::inventory(
        "function_params: 6\nfunction_nesting: 4\nfunction_cyclomatic: 15\nfunction_cognitive: 15\n",
    );
    s.write("src/a.rs", "fn f() {}\n");
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().skip(2).take(4).collect();
    assert_eq!(
        lines,
        [
            "  function_cognitive      15  band     15  from ## Limits",
            "  function_cyclomatic     15  band     15  from ## Limits",
            "  function_nesting         4  band      4  from ## Limits",
            "  function_params          6  band      6  from ## Limits",
        ]
    );
}
