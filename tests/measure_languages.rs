//! TypeScript and JavaScript through every command and output, as a user runs them
//! (SPEC §10): the same judge, baseline and reports as C# and Rust.

mod common;

use common::{after_base, Scenario, BAND_12};

/// A TypeScript arrow component of exactly `lines` lines (≥ 2), bound by `export const`.
fn ts_component(name: &str, lines: usize) -> String {
    let mut s = format!("export const {name} = (props: Props) => {{\n");
    for i in 0..lines.saturating_sub(2) {
        s.push_str(&format!("  const x{i} = {i};\n"));
    }
    s.push_str("};\n");
    s
}

#[test]
fn json_names_typescript_and_javascript() {
    let s = Scenario::git();
    s.write("src/Menu.tsx", &ts_component("Menu", 3));
    s.write(
        "src/rule.js",
        "module.exports = {\n  create(context) {},\n};\n",
    );
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["files"],
        serde_json::json!([
            {
                "path": "src/Menu.tsx", "language": "typescript", "lines": 3, "types": 0,
                "bytes": 59, "context": null,
                "units": [
                    {"name": "Menu", "kind": "function", "start_line": 1, "end_line": 3, "lines": 3},
                ]
            },
            {
                "path": "src/rule.js", "language": "javascript", "lines": 3, "types": 0,
                "bytes": 44, "context": null,
                "units": [
                    {"name": "module.exports.create", "kind": "function", "start_line": 2,
                     "end_line": 2, "lines": 1},
                ]
            },
        ])
    );
}

#[test]
fn text_and_tsv_list_typescript_units() {
    let s = Scenario::git();
    s.write(
        "src/card.ts",
        "@Component({})\nexport class Card {\n  @Input()\n  get title() {\n    return '';\n  }\n}\n",
    );
    let run = s.run(&["measure"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "src/card.ts:1  file      card.ts         7 lines, 1 type(s), 83 bytes\n\
         src/card.ts:1  type      Card            7 lines\n\
         src/card.ts:3  function  Card.get title  4 lines\n\
         measured 1 file(s): 1 function(s), 1 type(s)\n"
    );
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         src/card.ts\tcard.ts\tfile_bytes\t83\t1\t7\t-\n\
         src/card.ts\tcard.ts\tfile_lines\t7\t1\t7\t-\n\
         src/card.ts\tcard.ts\ttypes_per_file\t1\t1\t7\t-\n\
         src/card.ts\tCard\ttype_lines\t7\t1\t7\t-\n\
         src/card.ts\tCard.get title\tfunction_lines\t4\t3\t6\t-\n"
    );
}

#[test]
fn the_gate_judges_a_grown_component_and_the_baseline_tolerates_an_old_one() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Old.tsx", &ts_component("Old", 20));
    s.write("src/Menu.tsx", &ts_component("Menu", 5));
    s.cut_feature();
    assert_eq!(
        s.read("structure-baseline.tsv").lines().last(),
        Some("src/Old.tsx\tOld\tfunction_lines\t20")
    );
    s.write("src/Menu.tsx", &ts_component("Menu", 13));
    s.write(
        "src/app.js",
        "exports.start = function () {\n  return 1;\n};\n",
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Menu.tsx Menu: function_lines 13 > 10 (band 12)",
        ]
    );
}

/// A JavaScript function declaration of exactly `lines` lines (≥ 2), indented.
fn js_function(name: &str, lines: usize) -> String {
    let mut s = format!("  function {name}() {{\n");
    s.push_str(&"    step();\n".repeat(lines.saturating_sub(2)));
    s.push_str("  }\n");
    s
}

#[test]
fn units_of_one_name_are_one_baseline_entry_at_the_worse_value() {
    let s = Scenario::inventory(BAND_12);
    let src = format!(
        "if (legacy) {{\n{}}} else {{\n{}}}\n",
        js_function("handler", 15),
        js_function("handler", 20)
    );
    s.write("src/handler.js", &src);
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    let baseline = s.read("structure-baseline.tsv");
    let rows: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows, ["src/handler.js\thandler\tfunction_lines\t20"]);
}

#[test]
fn test_paths_are_left_out() {
    let s = Scenario::git();
    for path in [
        "src/__tests__/a.ts",
        "src/Tests/b.js",
        "src/a.test.tsx",
        "src/b.spec.mjs",
        "src/types.d.ts",
        "vendor/jquery.min.js",
        "node_modules/x/index.js",
    ] {
        s.write(path, "export function f() {}\n");
    }
    s.write("src/test-utils.ts", "export function render() {}\n");
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         src/test-utils.ts\ttest-utils.ts\tfile_bytes\t28\t1\t1\t-\n\
         src/test-utils.ts\ttest-utils.ts\tfile_lines\t1\t1\t1\t-\n\
         src/test-utils.ts\ttest-utils.ts\ttypes_per_file\t0\t1\t1\t-\n\
         src/test-utils.ts\trender\tfunction_lines\t1\t1\t1\t-\n"
    );
}

#[test]
fn github_and_sarif_annotate_a_typescript_excess() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Menu.tsx", &ts_component("Menu", 13));
    let run = s.run(&["measure", "--check", "--format", "github", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "::error file=src/Menu.tsx,line=1,endLine=13,title=function_lines past the band::\
         Menu: function_lines 13 > 10 (band 12)\n\
         measured 1 file(s): 1 function(s), 0 type(s); 1 excess(es) past the band, \
         0 divergence(s) within tolerance, 0 tolerated by the baseline\n"
    );
    let run = s.run(&["measure", "--check", "--format", "sarif", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/Menu.tsx");
    assert_eq!(location["region"]["startLine"], 1);
    assert_eq!(location["region"]["endLine"], 13);
}
