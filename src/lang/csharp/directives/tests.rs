//! Unit tests of the C# directive lexer: what is blanked, and what a string or comment
//! keeps from being read as a directive.

use super::{blanked_ranges, comment_directive_line};

/// `text` with its blanked ranges as spaces.
fn blanked(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (from, to) in blanked_ranges(text) {
        bytes[from..to].fill(b' ');
    }
    String::from_utf8(bytes).unwrap()
}

#[test]
fn region_text_is_blanked_byte_for_byte() {
    assert_eq!(
        blanked("#region Helpers /*\nvoid A() {}\n  #endregion */\n"),
        "#region           \nvoid A() {}\n  #endregion   \n"
    );
    assert_eq!(blanked("# region Hé /*\r\n"), "# region       \r\n");
    assert_eq!(blanked("#region\n#endregion"), "#region\n#endregion");
    // No region (a name runs through any letter), but no comment opens on its line.
    assert_eq!(blanked("#regioné x /*\n"), "#regioné x   \n");
    assert_eq!(
        blanked("\t#endregion x\rvoid A() {}\r"),
        "\t#endregion  \rvoid A() {}\r"
    );
}

#[test]
fn warning_and_error_lines_are_blanked_whole() {
    assert_eq!(
        blanked("#warning /* x\nint a;\n"),
        "             \nint a;\n"
    );
    assert_eq!(blanked("  #error\nint a;\n"), "        \nint a;\n");
}

#[test]
fn file_based_app_directives_and_a_first_line_shebang_are_blanked_whole() {
    assert_eq!(
        blanked(
            "#!/usr/bin/env dotnet\n#:sdk Microsoft.NET.Sdk.Web\r\n  # :package A@1 /*\nint a;\n"
        ),
        "                     \n                           \r\n                   \nint a;\n"
    );
    assert_eq!(
        blanked("#:property Note=é\rint a;"),
        "                  \rint a;"
    );
    // `#!` only on the first line, in its first column; `#:` inside a string stays.
    assert_eq!(blanked("int a;\n#!x\n"), "int a;\n#!x\n");
    assert_eq!(blanked(" #!x\n"), " #!x\n");
    assert_eq!(
        blanked("var s = @\"\n#:sdk X\";\n"),
        "var s = @\"\n#:sdk X\";\n"
    );
}

#[test]
fn comments_on_other_directive_lines_are_blanked() {
    assert_eq!(
        blanked("#pragma warning disable CS0168 /*\nvoid A() {}\n// */\n"),
        "#pragma warning disable CS0168   \nvoid A() {}\n// */\n"
    );
    assert_eq!(
        blanked("#if DEBUG // why\n#endif\n"),
        "#if DEBUG       \n#endif\n"
    );
    assert_eq!(
        blanked("#line 5 \"a/*b.cs\" /* x\n"),
        "#line 5 \"a/*b.cs\"     \n"
    );
    assert_eq!(
        blanked("#nullable enable\n#pragma x\n"),
        "#nullable enable\n#pragma x\n"
    );
}

#[test]
fn directive_lines_inside_strings_and_comments_are_not_directives() {
    let verbatim = "var s = @\"\n#region x \"\"/*\";\n#region y /*\n";
    assert_eq!(
        blanked(verbatim),
        "var s = @\"\n#region x \"\"/*\";\n#region     \n"
    );
    let raw = "var s = \"\"\"\n  #region x \"\" /*\n  \"\"\";\n#region y\n";
    assert_eq!(
        blanked(raw),
        "var s = \"\"\"\n  #region x \"\" /*\n  \"\"\";\n#region  \n"
    );
    let comment = "/* a\n#region x */ int a;\n#region y\n";
    assert_eq!(blanked(comment), "/* a\n#region x */ int a;\n#region  \n");
    assert_eq!(blanked("// x \"\n#region y\n"), "// x \"\n#region  \n");
}

#[test]
fn characters_and_escapes_do_not_open_strings() {
    assert_eq!(
        blanked("var c = '\"';\n#region y\n"),
        "var c = '\"';\n#region  \n"
    );
    assert_eq!(
        blanked("var c = '\\'';\n#region y\n"),
        "var c = '\\'';\n#region  \n"
    );
    assert_eq!(
        blanked("var s = \"\\\"\";\n#region y\n"),
        "var s = \"\\\"\";\n#region  \n"
    );
    assert_eq!(
        blanked("var s = \"open\n#region y\n"),
        "var s = \"open\n#region  \n"
    );
    assert_eq!(
        blanked("var @class = 1;\n#region y\n"),
        "var @class = 1;\n#region  \n"
    );
}

#[test]
fn interpolation_holes_nest_strings_and_braces() {
    let hole = "var s = $\"{(a ? \"}\" : b)}\";\n#region y\n";
    assert_eq!(
        blanked(hole),
        "var s = $\"{(a ? \"}\" : b)}\";\n#region  \n"
    );
    let verbatim = "var s = $@\"{x}\n#region x\n{{\";\n#region y\n";
    assert_eq!(
        blanked(verbatim),
        "var s = $@\"{x}\n#region x\n{{\";\n#region  \n"
    );
    let other_order = "var s = @$\"\n#region x\n\";\n#region y\n";
    assert_eq!(
        blanked(other_order),
        "var s = @$\"\n#region x\n\";\n#region  \n"
    );
    let raw = "var s = $$\"\"\"\n{ {{x}} }\n#region x\n\"\"\";\n#region y\n";
    assert_eq!(
        blanked(raw),
        "var s = $$\"\"\"\n{ {{x}} }\n#region x\n\"\"\";\n#region  \n"
    );
    let format = "var s = $\"{x:N2}\";\n#region y\n";
    assert_eq!(blanked(format), "var s = $\"{x:N2}\";\n#region  \n");
    let alias = "var s = $\"{global::X.Y}\";\n#region y\n";
    assert_eq!(blanked(alias), "var s = $\"{global::X.Y}\";\n#region  \n");
}

#[test]
fn a_comment_holding_a_directive_line_names_it() {
    assert_eq!(
        comment_directive_line("/*\n#endif\n  void A() {}\n*/"),
        Some(1)
    );
    assert_eq!(
        comment_directive_line("/* a\n b\n   #  region x */"),
        Some(2)
    );
    assert_eq!(comment_directive_line("/* #if x */"), None);
    assert_eq!(
        comment_directive_line("/*\n #pragma x\n #define Y\n*/"),
        None
    );
    assert_eq!(
        comment_directive_line("/*\n #ifdef\n #endregions\n*/"),
        None
    );
    assert_eq!(comment_directive_line("// #if x"), None);
}

#[test]
fn long_runs_cost_their_length_once() {
    let started = crate::thread_cpu::ThreadCpu::now();
    let dollars = "$".repeat(1 << 20);
    assert_eq!(blanked_ranges(&dollars), []);
    let ats = format!("{}\n#region x\n", "@".repeat(1 << 20));
    assert_eq!(blanked_ranges(&ats).len(), 1);
    let holes = format!("{}\n#region x\n", "$\"{".repeat(1 << 18));
    assert_eq!(blanked_ranges(&holes), []);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

proptest::proptest! {
    /// Whatever the text, blanking keeps every byte offset and line break: ranges are in
    /// order, hold no line break, start on an ASCII byte and end at a break or the end.
    #[test]
    fn blanked_ranges_keep_offsets_and_line_breaks(
        text in "([ #\\t\\r\\n\"'@${}/*:a-z]|region|endregion|warning|pragma|é){0,80}"
    ) {
        let ranges = blanked_ranges(&text);
        let bytes = text.as_bytes();
        let mut last_end = 0;
        for &(from, to) in &ranges {
            proptest::prop_assert!(last_end <= from && from < to && to <= bytes.len());
            proptest::prop_assert!(text.is_char_boundary(from));
            proptest::prop_assert!(!bytes[from..to].iter().any(|b| matches!(b, b'\n' | b'\r')));
            proptest::prop_assert!(to == bytes.len() || matches!(bytes[to], b'\n' | b'\r'));
            last_end = to;
        }
        let out = blanked(&text);
        proptest::prop_assert_eq!(out.len(), text.len());
    }
}
