//! TypeScript and JavaScript through every command and output, as a user runs them
//! (docs/src/reference/languages.md): the same judge, baseline and reports as C# and Rust.

use crate::common;

use common::{after_base, Scenario, BAND_12};
use serde_json::json;

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
            "src/Menu.tsx:1 Menu: function_lines 13 > 10 (band 12)",
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
         measured 1 file(s): 1 function(s), 0 type(s); 1 excess(es), \
         0 divergence(s), 0 tolerated by the baseline\n"
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

/// `lines` statement lines, each at `indent`.
fn statements(lines: usize, indent: &str) -> String {
    format!("{indent}step();\n").repeat(lines)
}

/// One file of each TypeScript and JavaScript extension, every unit 13 lines long but
/// `g.mjs`'s method (12) and class (14), each a different way to write a function.
fn one_file_per_extension(s: &Scenario) {
    let body = statements(11, "  ");
    s.write(
        "src/a.ts",
        &format!("export function parse(text: string): number {{\n{body}}}\n"),
    );
    s.write(
        "src/b.tsx",
        &format!("export const Card = <T,>({{ item }}: {{ item: T }}) => {{\n{body}}};\n"),
    );
    s.write(
        "src/c.mts",
        &format!("export default function () {{\n{body}}}\n"),
    );
    s.write(
        "src/d.cts",
        &format!("module.exports.load = function (): void {{\n{body}}};\n"),
    );
    s.write(
        "src/e.js",
        &format!("Foo.prototype.render = function () {{\n{body}}};\n"),
    );
    s.write(
        "src/f.jsx",
        &format!("export const App = React.memo(() => {{\n{body}}});\n"),
    );
    let method = statements(10, "    ");
    s.write(
        "src/g.mjs",
        &format!("export class Job {{\n  run() {{\n{method}  }}\n}}\n"),
    );
    s.write(
        "src/h.cjs",
        &format!("exports.start = async () => {{\n{body}}};\n"),
    );
}

/// A unit: its name, kind, start and end line.
type Unit = (&'static str, &'static str, u32, u32);

/// A measured file: its path, language, lines, types, bytes and units.
type File = (&'static str, &'static str, u32, u32, u32, &'static [Unit]);

/// Each file [`one_file_per_extension`] writes, as measured.
const EVERY_EXTENSION: [File; 8] = [
    (
        "src/a.ts",
        "typescript",
        13,
        0,
        158,
        &[("parse", "function", 1, 13)],
    ),
    (
        "src/b.tsx",
        "typescript",
        13,
        0,
        166,
        &[("Card", "function", 1, 13)],
    ),
    (
        "src/c.mts",
        "typescript",
        13,
        0,
        141,
        &[("default", "function", 1, 13)],
    ),
    (
        "src/d.cts",
        "typescript",
        13,
        0,
        155,
        &[("module.exports.load", "function", 1, 13)],
    ),
    (
        "src/e.js",
        "javascript",
        13,
        0,
        150,
        &[("Foo.prototype.render", "function", 1, 13)],
    ),
    (
        "src/f.jsx",
        "javascript",
        13,
        0,
        152,
        &[("App", "function", 1, 13)],
    ),
    (
        "src/g.mjs",
        "javascript",
        14,
        1,
        155,
        &[("Job", "type", 1, 14), ("Job.run", "function", 2, 13)],
    ),
    (
        "src/h.cjs",
        "javascript",
        13,
        0,
        143,
        &[("exports.start", "function", 1, 13)],
    ),
];

#[test]
fn every_extension_is_measured_in_json_and_tsv() {
    let s = Scenario::git();
    one_file_per_extension(&s);
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let expected: Vec<serde_json::Value> = EVERY_EXTENSION
        .iter()
        .map(|(path, language, lines, types, bytes, units)| {
            let units: Vec<serde_json::Value> = units
                .iter()
                .map(|(name, kind, start, end)| {
                    json!({"name": name, "kind": kind, "start_line": start, "end_line": end,
                           "lines": end - start + 1})
                })
                .collect();
            json!({"path": path, "language": language, "lines": lines, "types": types,
                   "bytes": bytes, "context": null, "units": units})
        })
        .collect();
    assert_eq!(v["files"], serde_json::Value::Array(expected));
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    let mut tsv = String::from("path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n");
    for (path, _, lines, types, bytes, units) in EVERY_EXTENSION {
        let file = path.trim_start_matches("src/");
        for (metric, value) in [
            ("file_bytes", bytes),
            ("file_lines", lines),
            ("types_per_file", types),
        ] {
            tsv.push_str(&format!(
                "{path}\t{file}\t{metric}\t{value}\t1\t{lines}\t-\n"
            ));
        }
        for (name, kind, start, end) in units {
            let lines = end - start + 1;
            tsv.push_str(&format!(
                "{path}\t{name}\t{kind}_lines\t{lines}\t{start}\t{end}\t-\n"
            ));
        }
    }
    assert_eq!(run.stdout, tsv);
}

#[test]
fn every_extension_is_judged_in_text_and_sarif() {
    let s = Scenario::inventory(BAND_12);
    one_file_per_extension(&s);
    let run = s.run(&["measure", "--check", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    let excesses: Vec<&str> = run.stdout.lines().filter(|l| !l.ends_with(" ok")).collect();
    assert_eq!(
        excesses,
        [
            "src/a.ts:1   function  parse                 13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/b.tsx:1  function  Card                  13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/c.mts:1  function  default               13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/d.cts:1  function  module.exports.load   13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/e.js:1   function  Foo.prototype.render  13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/f.jsx:1  function  App                   13 lines  excess: function_lines 13 > 10 (band 12)",
            "src/g.mjs:1  type      Job                   14 lines",
            "src/g.mjs:2  function  Job.run               12 lines  divergence (limit 10, band 12)",
            "src/h.cjs:1  function  exports.start         13 lines  excess: function_lines 13 > 10 (band 12)",
            "measured 8 file(s): 8 function(s), 1 type(s); 7 excess(es), \
             1 divergence(s), 0 tolerated by the baseline",
        ]
    );
    let run = s.run(&["measure", "--check", "--format", "sarif", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let results: Vec<(String, String, u64, u64, String)> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let location = &r["locations"][0]["physicalLocation"];
            (
                r["level"].as_str().unwrap_or_default().to_string(),
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                location["region"]["startLine"].as_u64().unwrap_or_default(),
                location["region"]["endLine"].as_u64().unwrap_or_default(),
                r["properties"]["unit"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String, u64, u64, String)> = EVERY_EXTENSION
        .iter()
        .flat_map(|(path, _, _, _, _, units)| units.iter().map(move |u| (path, u)))
        .filter(|(_, (_, kind, _, _))| *kind == "function")
        .map(|(path, (name, _, start, end))| {
            let level = if end - start + 1 > 12 {
                "error"
            } else {
                "warning"
            };
            (
                level.into(),
                (*path).into(),
                (*start).into(),
                (*end).into(),
                (*name).into(),
            )
        })
        .collect();
    assert_eq!(results, expected);
}

#[test]
fn every_extension_is_cached_by_its_grammar() {
    let s = Scenario::git();
    one_file_per_extension(&s);
    // The same bytes as TypeScript and as TSX: a type assertion, and unclosed JSX.
    s.write("src/cast.ts", "const cast = <Factory>(() => {});\n");
    s.write("src/cast.tsx", "const cast = <Factory>(() => {});\n");
    s.commit("every extension");
    let env = [("STRUCTGATE_CACHE_STATS", "1")];
    let args = ["measure", "--format", "tsv", "src"];
    let cold = s.run_env(s.path(), &args, &env);
    let warm = s.run_env(s.path(), &args, &env);
    let stats =
        |run: &common::Run| -> Vec<String> { run.stderr.lines().map(str::to_string).collect() };
    assert_eq!(
        stats(&cold),
        [
            "warning: 1 file(s) with syntax errors; -v lists them",
            "cache: parsed 10 file(s), 0 from cache",
        ]
    );
    assert_eq!(
        stats(&warm),
        [
            "warning: 1 file(s) with syntax errors; -v lists them",
            "cache: parsed 0 file(s), 10 from cache",
        ]
    );
    // The file it is, as the cache kept it: TSX, not the same bytes as TypeScript.
    let listed = s.run(&["measure", "-v", "--format", "tsv", "src"]);
    let syntax: Vec<&str> = listed
        .stderr
        .lines()
        .filter(|l| l.contains("syntax error"))
        .collect();
    assert_eq!(
        syntax,
        ["warning: src/cast.tsx: syntax error at line 1; measured what parsed"]
    );
    assert_eq!(warm.stdout, cold.stdout);
    let casts: Vec<&str> = warm
        .stdout
        .lines()
        .filter(|l| l.contains("\tcast\t"))
        .collect();
    assert_eq!(casts, ["src/cast.ts\tcast\tfunction_lines\t1\t1\t1\t-"]);
}

#[test]
fn dump_tree_shows_what_the_walk_made_of_typescript_and_javascript() {
    let s = Scenario::plain();
    s.write(
        "src/card.tsx",
        "@Component({})\nexport class Card {\n  onClick = () => {};\n}\n",
    );
    s.write(
        "src/rule.cjs",
        "module.exports = {\n  create(context) {},\n};\n",
    );
    let run = s.run(&["measure", "--dump-tree", "src/card.tsx"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "\
program 1-4
  export_statement 1-4
    decorator: decorator 1-1  ← decorator; scope Card
      call_expression 1-1
        function: identifier 1-1 \"Component\"
        arguments: arguments 1-1
          object 1-1
    declaration: class_declaration 2-4  ← unit type Card 1-4; scope Card
      name: type_identifier 2-2 \"Card\"
      body: class_body 2-4
        public_field_definition 3-3  ← unit function Card.onClick 3-3; scope onClick
          name: property_identifier 3-3 \"onClick\"
          value: arrow_function 3-3  ← bound: named by its binding
            parameters: formal_parameters 3-3  ← left alone
            body: statement_block 3-3
"
    );
    let run = s.run(&["measure", "--dump-tree", "src/rule.cjs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "\
program 1-3
  expression_statement 1-3
    assignment_expression 1-3  ← scope module.exports
      left: member_expression 1-1  ← left alone
        object: identifier 1-1 \"module\"  ← ·
        property: property_identifier 1-1 \"exports\"  ← ·
      right: object 1-3
        method_definition 2-2  ← unit function module.exports.create 2-2; scope create
          name: property_identifier 2-2 \"create\"
          parameters: formal_parameters 2-2  ← left alone
            identifier 2-2 \"context\"  ← ·
          body: statement_block 2-2
"
    );
}

#[test]
fn overloads_are_one_baseline_entry_at_the_worse_value() {
    let s = Scenario::inventory(BAND_12);
    let src = format!(
        "export function parse(text: string): number;\n\
         export function parse(text: string, radix: number): number;\n\
         export function parse(text: string, radix = 10): number {{\n{}}}\n",
        statements(18, "  ")
    );
    s.write("src/parse.ts", &src);
    let run = s.run(&["measure", "--format", "tsv", "src"]);
    let units: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("\tparse\t"))
        .collect();
    assert_eq!(
        units,
        [
            "src/parse.ts\tparse\tfunction_lines\t1\t1\t1\tok",
            "src/parse.ts\tparse\tfunction_lines\t1\t2\t2\tok",
            "src/parse.ts\tparse\tfunction_lines\t20\t3\t22\texcess",
        ]
    );
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    let baseline = s.read("structure-baseline.tsv");
    let rows: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows, ["src/parse.ts\tparse\tfunction_lines\t20"]);
}
