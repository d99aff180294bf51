//! Source that reads one way to the compiler and another to a grammar (docs/src/reference/measurement.md, docs/src/reference/gate.md#integrity): a
//! branch can't hide code from the gate through C# directive text, top-level
//! statements, Rust `cfg` strings, lone-CR line ends, extension case or deep YAML.

use crate::common;

use common::{after_base, cs_class, cs_method, rs_fn, Scenario, BAND_12};

/// `lines` lines of C# top-level statements, one call each.
fn top_level_statements(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("System.Console.WriteLine({i});\n"))
        .collect()
}

#[test]
fn top_level_statements_that_grow_are_a_function_that_grew() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Program.cs", &top_level_statements(8));
    s.cut_feature();
    let program = format!(
        "using System;\n\n{}\nstatic int Twice(int x) => 2 * x;\n\nclass Helper {{ }}\n",
        top_level_statements(299)
    );
    s.write("src/Program.cs", &program);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Program.cs:3 <Main>$: function_lines 301 > 10 (band 12)",
        ]
    );
    let measured = s.run(&["measure", "src/Program.cs"]);
    assert_eq!(
        measured.stdout,
        "src/Program.cs:1    file      Program.cs  305 lines, 1 type(s), 9227 bytes                           ok\n\
         src/Program.cs:3    function  <Main>$     301 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  excess: function_lines 301 > 10 (band 12)\n\
         src/Program.cs:303  function  Twice       1 line  params 1  nesting 0  cyclomatic 1  cognitive 0     ok\n\
         src/Program.cs:305  type      Helper      1 line\n\
         measured 1 file(s): 2 function(s), 1 type(s); 1 excess(es), \
         0 divergence(s), 0 tolerated by the baseline\n"
    );
}

/// A C# class `Small` whose method `Run` has `lines` lines, each line ended by `eol`, with
/// `wrap` lines before and after the method.
fn small_class(lines: usize, eol: &str, wrap: (&str, &str)) -> String {
    let mut s = format!("public class Small{eol}{{{eol}");
    if !wrap.0.is_empty() {
        s.push_str(&format!("{}{eol}", wrap.0));
    }
    s.push_str(&cs_method("Run", lines).replace('\n', eol));
    if !wrap.1.is_empty() {
        s.push_str(&format!("{}{eol}", wrap.1));
    }
    s.push_str(&format!("}}{eol}"));
    s
}

/// Asserts a failed gate whose only excess is `Small.Run` at `start` with `lines` lines.
fn assert_gate_fails_on_small_run(s: &Scenario, start: u32, lines: usize) {
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            &format!("src/Small.cs:{start} Small.Run: function_lines {lines} > 10 (band 12)"),
        ]
    );
}

#[test]
fn a_region_message_opens_no_comment() {
    let s = Scenario::feature_of_inventory();
    let wrap = ("    #region Helpers /*", "    #endregion */");
    s.write("src/Small.cs", &small_class(40, "\n", wrap));
    assert_gate_fails_on_small_run(&s, 4, 40);
    let measured = s.run(&["measure", "src/Small.cs"]);
    assert_eq!((measured.code, measured.stderr.as_str()), (0, ""));
}

#[test]
fn a_pragma_or_warning_line_opens_no_comment() {
    let s = Scenario::feature_of_inventory();
    let wrap = ("#pragma warning disable CS0168 /*", "// */");
    s.write("src/Small.cs", &small_class(40, "\n", wrap));
    assert_gate_fails_on_small_run(&s, 4, 40);
    s.write(
        "src/Small.cs",
        &small_class(30, "\n", ("#warning /*", "#warning */")),
    );
    assert_gate_fails_on_small_run(&s, 4, 30);
}

#[test]
fn a_directive_inside_a_block_comment_is_warned_about_naming_its_line() {
    let s = Scenario::feature_of_inventory();
    let wrap = ("#if false\n    /*\n#endif", "#if false\n    */\n#endif");
    s.write("src/Small.cs", &small_class(40, "\n", wrap));
    let measured = s.run(&["measure", "src/Small.cs"]);
    assert_eq!(measured.code, 0, "{measured:?}");
    assert_eq!(
        measured.stderr,
        "warning: src/Small.cs: a preprocessor directive inside a block comment at line 5: \
         the compiler may read code there that structgate does not measure\n"
    );
    assert_eq!(
        measured.stdout,
        "src/Small.cs:1  file      Small.cs  49 lines, 1 type(s), 899 bytes  ok\n\
         src/Small.cs:1  type      Small     49 lines\n\
         measured 1 file(s): 0 function(s), 1 type(s); 0 excess(es), \
         0 divergence(s), 0 tolerated by the baseline\n"
    );
}

#[test]
fn lone_cr_line_ends_count_as_line_breaks() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &small_class(60, "\r", ("", "")));
    assert_gate_fails_on_small_run(&s, 3, 60);
    let tsv = |s: &Scenario| {
        let measured = s.run(&["measure", "--format", "tsv", "src/Small.cs"]);
        measured
            .stdout
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let lone_cr = tsv(&s);
    assert_eq!(
        lone_cr[..3],
        [
            "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus",
            "src/Small.cs\tSmall.cs\tfile_bytes\t1291\t1\t63\t-",
            "src/Small.cs\tSmall.cs\tfile_lines\t63\t1\t63\t-",
        ]
    );
    // The same file with `\n` or `\r\n` line ends measures the same, bytes included.
    for eol in ["\n", "\r\n"] {
        s.write("src/Small.cs", &small_class(60, eol, ("", "")));
        assert_eq!(tsv(&s), lone_cr, "{eol:?}");
    }
}

#[test]
fn csharp_unicode_line_separators_end_lines_and_comments() {
    let s = Scenario::feature_of_inventory();
    // The compiler ends the comment, and every line, at U+2028: a 40-line method on what
    // an editor that knows only `\n` shows as one line.
    let hidden = small_class(40, "\u{2028}", ("    // note", "")).replacen("\u{2028}", "\n", 2);
    s.write("src/Small.cs", &hidden);
    assert_gate_fails_on_small_run(&s, 4, 40);
}

#[test]
fn extensions_match_in_any_case() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Big2.CS", &cs_class("Big2", &[("Grown", 40)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Big2.CS:3 Big2.Grown: function_lines 40 > 10 (band 12)",
        ]
    );
}

#[test]
fn a_parenthesis_in_a_cfg_string_does_not_make_production_code_test_code() {
    let s = Scenario::feature_of_inventory();
    let hostile = "#[cfg(all(not(feature = \")\"), any(unix, test, windows)))]\n";
    s.write(
        "src/lib.rs",
        &format!("{hostile}{}", rs_fn("production", 40)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/lib.rs:1 production: function_lines 41 > 10 (band 12)",
        ]
    );
    // A `test` that really is a direct argument of `all(...)` still leaves test code out.
    let test_code = "#[cfg(all(feature = \")\", test))]\n";
    s.write("src/lib.rs", &format!("{test_code}{}", rs_fn("helper", 40)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
}

/// Runs `args` in `s` and checks it exits 2 within a second of CPU time with `stderr`.
fn refused_promptly(s: &Scenario, args: &[&str], stderr: &str) {
    let (run, elapsed) = s.run_cpu(args);
    assert!(elapsed < std::time::Duration::from_secs(1), "{elapsed:?}");
    assert_eq!((run.code, run.stderr.as_str()), (2, stderr), "{run:?}");
}

#[test]
fn yaml_nested_past_64_levels_is_refused_in_well_under_a_second() {
    let s = Scenario::inventory(&format!(
        "function_lines: 10\nx: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    ));
    refused_promptly(
        &s,
        &["limits"],
        "error: principles.md:7: the yaml fence of ## Limits cannot be read: \
         YAML nested deeper than 64 levels; refusing to read it\n",
    );
    s.write("principles.md", &common::principles(BAND_12));
    let block = format!(
        "meta:\n  name: inventory\nsources:\n  - {}src\n",
        "- ".repeat(100_000)
    );
    s.write("context.yaml", &block);
    refused_promptly(
        &s,
        &["measure"],
        "error: context.yaml:4: YAML nested deeper than 64 levels; refusing to read it\n",
    );
}

#[test]
fn a_java_unicode_escape_of_a_delimiter_is_warned_about_naming_its_line() {
    let s = Scenario::inventory(BAND_12);
    // `// \u000a` ends the comment for javac: each line of `big` is code it compiles.
    let hidden: String = (0..12)
        .map(|i| format!("    // \\u000a int x{i};\n"))
        .collect();
    let java = format!(
        "class A {{\n    String s = \"\\u002a/ in a string\";\n{hidden}    /* \\u002a/ */\n}}\n"
    );
    s.write("src/A.java", &java);
    let measured = s.run(&["measure", "src/A.java"]);
    assert_eq!(measured.code, 0, "{measured:?}");
    assert_eq!(
        measured.stderr,
        "warning: src/A.java: unicode escapes javac reads as delimiters at lines \
         3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 3 more: \
         javac may read code there that structgate does not measure\n"
    );
}
