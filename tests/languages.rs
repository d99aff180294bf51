//! Every language through every command and output, from one table of samples
//! (docs/src/reference/languages.md): a file of each extension, measured in every format,
//! baselined, judged by the gate and cached, the long outputs kept as snapshots
//! (`tests/snapshots/integration__languages__*.snap`). A language added to the list
//! (`src/lang/languages.rs`) fails [`the_samples_cover_every_extension`] until it has its
//! rows here.

use crate::common;
use crate::snapshots::stdout;

use common::{after_base, Scenario, BAND_12};
use structgate::model::Language;

/// One file of a language, in the inventory context (`src`).
struct Sample {
    /// Where it is written.
    path: &'static str,
    /// Its text, its unit [`Sample::unit`] exactly `lines` lines long (at least 3).
    source: fn(usize) -> String,
    /// The unit the gate sees grow; `None` for a language without units (Markdown).
    unit: Option<&'static str>,
    /// A path of the same extension that the language's path rule leaves out.
    left_out: Option<&'static str>,
}

/// `lines` copies of `line`.
fn repeat(line: &str, lines: usize) -> String {
    line.repeat(lines)
}

/// One sample per extension of every language, each unit named and spanned by a rule of
/// its language: a C# method in its class, a Rust method in its impl, a TypeScript
/// accessor from its decorator, bound functions, a Python method from its decorator (the
/// comment after it no part of it), a Go method named by its receiver, a Java method from
/// its annotation.
const SAMPLES: &[Sample] = &[
    Sample {
        path: "src/Pricing.cs",
        source: |n| {
            format!(
                "namespace Shop;\n\npublic class Pricing\n{{\n    public decimal Calculate()\n    {{\n{}    }}\n}}\n",
                repeat("        Step();\n", n - 3)
            )
        },
        unit: Some("Pricing.Calculate"),
        left_out: Some("src/Shop.Tests/PricingTests.cs"),
    },
    Sample {
        path: "src/parser.rs",
        source: |n| {
            format!(
                "pub struct Parser;\n\nimpl Parser {{\n    pub fn next(&mut self) {{\n{}    }}\n}}\n",
                repeat("        step();\n", n - 2)
            )
        },
        unit: Some("Parser::next"),
        left_out: Some("src/tests/it.rs"),
    },
    Sample {
        path: "src/card.ts",
        source: |n| {
            format!(
                "@Component({{}})\nexport class Card {{\n  @Input()\n  get title() {{\n{}  }}\n}}\n",
                repeat("    step();\n", n - 3)
            )
        },
        unit: Some("Card.get title"),
        left_out: Some("src/__tests__/card.ts"),
    },
    Sample {
        path: "src/esm.mts",
        source: |n| {
            format!(
                "export default function () {{\n{}}}\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("default"),
        left_out: Some("src/esm.d.mts"),
    },
    Sample {
        path: "src/load.cts",
        source: |n| {
            format!(
                "module.exports.load = function (): void {{\n{}}};\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("module.exports.load"),
        left_out: Some("src/load.d.cts"),
    },
    Sample {
        path: "src/Item.tsx",
        source: |n| {
            format!(
                "export const Item = <T,>({{ item }}: {{ item: T }}) => {{\n{}}};\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("Item"),
        left_out: Some("src/Item.test.tsx"),
    },
    Sample {
        path: "src/render.js",
        source: |n| {
            format!(
                "Foo.prototype.render = function () {{\n{}}};\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("Foo.prototype.render"),
        left_out: Some("src/vendor.min.js"),
    },
    Sample {
        path: "src/App.jsx",
        source: |n| {
            format!(
                "export const App = React.memo(() => {{\n{}}});\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("App"),
        left_out: Some("src/App.spec.jsx"),
    },
    Sample {
        path: "src/job.mjs",
        source: |n| {
            format!(
                "export class Job {{\n  run() {{\n{}  }}\n}}\n",
                repeat("    step();\n", n - 2)
            )
        },
        unit: Some("Job.run"),
        left_out: Some("src/tests/job.mjs"),
    },
    Sample {
        path: "src/start.cjs",
        source: |n| {
            format!(
                "exports.start = async () => {{\n{}}};\n",
                repeat("  step();\n", n - 2)
            )
        },
        unit: Some("exports.start"),
        left_out: Some("src/__mocks__/start.cjs"),
    },
    Sample {
        path: "src/parser.py",
        source: |n| {
            format!(
                "class Parser:\n    @property\n    def value(self):\n{}    # not part of value\n",
                repeat("        step()\n", n - 2)
            )
        },
        unit: Some("Parser.value"),
        left_out: Some("src/test_parser.py"),
    },
    Sample {
        path: "src/parser.go",
        source: |n| {
            format!(
                "package pkg\n\ntype Parser[T any] struct {{\n\tsrc []T\n}}\n\nfunc (p *Parser[T]) Next() {{\n{}}}\n",
                repeat("\tp.step()\n", n - 2)
            )
        },
        unit: Some("Parser.Next"),
        left_out: Some("src/parser_test.go"),
    },
    Sample {
        path: "src/main/java/Job.java",
        source: |n| {
            format!(
                "class Job {{\n  @Override\n  public void run() {{\n{}  }}\n}}\n",
                repeat("    step();\n", n - 3)
            )
        },
        unit: Some("Job.run"),
        left_out: Some("src/test/java/JobTest.java"),
    },
    Sample {
        path: "src/notes.md",
        source: |n| format!("# Notes\n\n{}", repeat("A line of notes.\n", n - 2)),
        unit: None,
        left_out: None,
    },
];

/// The inventory context (function_lines 10, band 12) holding every sample with its
/// unit `lines` lines long.
fn every_sample(lines: usize) -> Scenario {
    let s = Scenario::inventory(BAND_12);
    write_samples(&s, lines);
    s
}

fn write_samples(s: &Scenario, lines: usize) {
    for sample in SAMPLES {
        s.write(sample.path, &(sample.source)(lines));
    }
}

#[test]
fn the_samples_cover_every_extension() {
    let extension = |path: &str| path.rsplit_once('.').map(|(_, e)| e.to_string());
    let sampled: Vec<Option<String>> = SAMPLES.iter().map(|s| extension(s.path)).collect();
    let measured: Vec<Option<String>> = Language::ALL
        .iter()
        .flat_map(|l| l.extensions())
        .map(|e| Some(e.to_string()))
        .collect();
    assert_eq!(sampled, measured);
    for sample in SAMPLES {
        let language = Language::of_path(sample.path).expect("a measured extension");
        let left_out = sample.left_out.map(Language::of_path);
        assert!(
            left_out.is_none_or(|l| l == Some(language)),
            "{}",
            sample.path
        );
        assert_eq!(sample.unit.is_none(), language == Language::Markdown);
    }
}

#[test]
fn every_language_is_measured_in_every_format() {
    // 13 lines: past the band, an excess, in every language.
    let s = every_sample(13);
    s.commit("samples");
    for format in ["text", "json", "tsv", "sarif", "github"] {
        insta::assert_snapshot!(
            format!("measure-{format}"),
            stdout(&s, &["measure", "--check", "--format", format], 1)
        );
    }
}

#[test]
fn every_language_is_baselined_and_judged_by_the_gate() {
    // 20 lines: an old excess the baseline records; 22 on the branch: grown past it.
    let s = every_sample(20);
    s.cut_feature();
    insta::assert_snapshot!("baseline", s.read("structure-baseline.tsv"));
    write_samples(&s, 22);
    // New on the branch, each past the band, each left out by its language's path rule.
    for sample in SAMPLES {
        if let Some(path) = sample.left_out {
            s.write(path, &(sample.source)(40));
        }
    }
    s.commit("grow");
    insta::assert_snapshot!("gate-text", stdout(&s, &["gate"], 1));
    insta::assert_snapshot!("gate-json", stdout(&s, &["gate", "--format", "json"], 1));
    let judged: Vec<&str> = SAMPLES.iter().filter_map(|sample| sample.unit).collect();
    let text = stdout(&s, &["gate"], 1);
    for unit in judged {
        let line = format!(" {unit}: function_lines 22 > 10 (band 12, baseline 20)");
        assert!(text.contains(&line), "{unit}");
    }
}

#[test]
fn every_extension_is_cached_by_its_grammar() {
    let s = every_sample(5);
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
    // Every sample but Markdown (read, never parsed), and the two casts.
    let parsed = SAMPLES.iter().filter(|s| s.unit.is_some()).count() + 2;
    assert_eq!(
        stats(&cold),
        [
            "warning: 1 file(s) with syntax errors; -v lists them".to_string(),
            format!("cache: parsed {parsed} file(s), 0 from cache"),
        ]
    );
    assert_eq!(
        stats(&warm),
        [
            "warning: 1 file(s) with syntax errors; -v lists them".to_string(),
            format!("cache: parsed 0 file(s), {parsed} from cache"),
        ]
    );
    assert_eq!(warm.stdout, cold.stdout);
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
    let casts: Vec<&str> = warm
        .stdout
        .lines()
        .filter(|l| l.contains("\tcast\tfunction_lines\t"))
        .collect();
    assert_eq!(casts, ["src/cast.ts\tcast\tfunction_lines\t1\t1\t1\tok"]);
}

// What a language does that the table can't show: units of one name, the tree the walk
// sees, a marker new on a branch.

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

/// `lines` statement lines, each at `indent`.
fn statements(lines: usize, indent: &str) -> String {
    format!("{indent}step();\n").repeat(lines)
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
        "program 1-4\n\
         \x20 export_statement 1-4\n\
         \x20   decorator: decorator 1-1  ← decorator; scope Card\n\
         \x20     call_expression 1-1\n\
         \x20       function: identifier 1-1 \"Component\"\n\
         \x20       arguments: arguments 1-1\n\
         \x20         object 1-1\n\
         \x20   declaration: class_declaration 2-4  ← unit type Card 1-4; scope Card\n\
         \x20     name: type_identifier 2-2 \"Card\"\n\
         \x20     body: class_body 2-4\n\
         \x20       public_field_definition 3-3  ← unit function Card.onClick 3-3  params 0  nesting 0  cyclomatic 1  cognitive 0; scope onClick\n\
         \x20         name: property_identifier 3-3 \"onClick\"\n\
         \x20         value: arrow_function 3-3  ← bound: named by its binding\n\
         \x20           parameters: formal_parameters 3-3  ← left alone\n\
         \x20           body: statement_block 3-3\n"
    );
    let run = s.run(&["measure", "--dump-tree", "src/rule.cjs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "program 1-3\n\
         \x20 expression_statement 1-3\n\
         \x20   assignment_expression 1-3  ← scope module.exports\n\
         \x20     left: member_expression 1-1  ← left alone\n\
         \x20       object: identifier 1-1 \"module\"  ← ·\n\
         \x20       property: property_identifier 1-1 \"exports\"  ← ·\n\
         \x20     right: object 1-3\n\
         \x20       method_definition 2-2  ← unit function module.exports.create 2-2  params 1  nesting 0  cyclomatic 1  cognitive 0; scope create\n\
         \x20         name: property_identifier 2-2 \"create\"\n\
         \x20         parameters: formal_parameters 2-2  ← left alone\n\
         \x20           identifier 2-2 \"context\"  ← ·\n\
         \x20         body: statement_block 2-2\n"
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
        .filter(|l| l.contains("\tparse\tfunction_lines\t"))
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

/// A Go method of exactly `lines` lines (≥ 2) on `*Parser[T]`.
fn go_method(name: &str, lines: usize) -> String {
    let mut s = format!("func (p *Parser[T]) {name}() {{\n");
    s.push_str(&"\tp.step()\n".repeat(lines.saturating_sub(2)));
    s.push_str("}\n");
    s
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
        Some("# units: 2")
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
