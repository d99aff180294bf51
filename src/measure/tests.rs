//! Unit tests of `measure_file`, the walk on hostile input, and the debug view.

use super::test_support::{measured, names};
use super::*;
use crate::model::{Metric, UnitKind};

#[test]
fn other_extensions_are_not_measured() {
    assert_eq!(
        measure_file("README.txt", b"# x", &Options::default()),
        None
    );
    assert_eq!(measure_file("Makefile", b"", &Options::default()), None);
    assert_eq!(measure_file("a.rs.txt", b"", &Options::default()), None);
}

#[test]
fn extensions_match_in_any_case() {
    let m = measured("src/Big.CS", "class Big { void Run() { } }\n");
    assert_eq!(
        (m.language, names(&m)),
        (Language::CSharp, vec![("Big", 1, 1), ("Big.Run", 1, 1)])
    );
    let m = measured("src/a.Rs", "fn f() {}\n");
    assert_eq!((m.language, names(&m)), (Language::Rust, vec![("f", 1, 1)]));
    let m = measured("README.MD", "# x\n");
    assert_eq!((m.language, m.bytes), (Language::Markdown, 4));
    let left_out = measure_file("src/tests.RS", b"fn t() {}\n", &Options::default());
    assert!(
        matches!(left_out, Some(FileOutcome::LeftOut { .. })),
        "{left_out:?}"
    );
    let left_out = measure_file("View.G.CS", b"class V {}\n", &Options::default());
    assert!(
        matches!(left_out, Some(FileOutcome::LeftOut { .. })),
        "{left_out:?}"
    );
}

#[test]
fn twenty_thousand_nested_blocks_do_not_overflow_the_stack() {
    let depth = 20_000;
    let rust = format!(
        "fn f() {{\n{}\n{}\n}}\n",
        "{".repeat(depth),
        "}".repeat(depth)
    );
    let m = measured("deep.rs", &rust);
    assert_eq!(names(&m), [("f", 1, 4)]);
    let csharp = format!(
        "class C {{ void M() {{\n{}\n{}\n}} }}\n",
        "{".repeat(depth),
        "}".repeat(depth)
    );
    let m = measured("Deep.cs", &csharp);
    assert_eq!(names(&m), [("C", 1, 4), ("C.M", 1, 4)]);
    assert!(dump_tree("deep.rs", rust.as_bytes()).is_some());
}

#[test]
fn deep_expressions_are_walked_in_linear_time() {
    // Each level of parentheses holds the `{` or `/*` at the bottom: asking each level's
    // text for one would scan the file once per level.
    let depth = 100_000;
    let (open, close) = ("(".repeat(depth), ")".repeat(depth));
    let started = crate::thread_cpu::ThreadCpu::now();
    for bottom in ["/* c */ 1", "() => { }"] {
        let src = format!("class C {{ void M() {{ var x = {open}{bottom}{close}; }} }}\n");
        let m = measured("Deep.cs", &src);
        assert_eq!(names(&m), [("C", 1, 1), ("C.M", 1, 1)]);
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn nested_functions_nest_their_names() {
    let src = "fn a() { fn b() { fn c() {} } }\n";
    let m = measured("n.rs", src);
    assert_eq!(names(&m), [("a", 1, 1), ("a::b", 1, 1), ("a::b::c", 1, 1)]);
}

#[test]
fn units_sort_by_start_then_longer_first_then_name() {
    let src = "struct B; struct A;\nimpl X {\n  fn f() {}\n}\n";
    let m = measured("s.rs", src);
    assert_eq!(
        names(&m),
        [("A", 1, 1), ("B", 1, 1), ("impl X", 2, 4), ("X::f", 3, 3)]
    );
    assert_eq!(m.types, 2);
    assert_eq!(m.units[2].kind, UnitKind::Type);
}

#[test]
fn nested_and_adjacent_test_items_are_subtracted_once() {
    let src = "#[cfg(test)] mod a { #[cfg(test)] fn b() {} } #[cfg(test)] fn c() {}\nfn d() {}\n";
    let m = measured("t.rs", src);
    assert_eq!(m.lines, 1);
    assert_eq!(names(&m), [("d", 2, 2)]);
}

#[test]
fn a_test_item_keeps_its_enclosing_items_span() {
    let src = "mod m {\n    #[cfg(test)]\n    // why\n    fn t() {}\n    fn u() {}\n}\n";
    let m = measured("t.rs", src);
    assert_eq!(m.lines, 3);
    assert_eq!(names(&m), [("m::u", 5, 5)]);
}

#[test]
fn inner_attributes_are_not_outer_attributes() {
    let src = "mod m {\n    #![allow(unused)]\n    fn f() {}\n}\n#![cfg(test)]\nfn g() {}\n";
    let m = measured("i.rs", src);
    assert_eq!(names(&m), [("m::f", 3, 3), ("g", 6, 6)]);
    assert_eq!(m.lines, 6);
}

#[test]
fn an_item_between_attribute_and_item_breaks_the_run() {
    let src = "#[inline]\nfn a() {}\n// c\nfn b() {}\n";
    let m = measured("r.rs", src);
    assert_eq!(names(&m), [("a", 1, 2), ("b", 4, 4)]);
}

#[test]
fn has_error_without_error_nodes_gives_no_warning() {
    let m = measured("P.cs", "class A { }\n#pragma warning disable");
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.syntax_errors, None);
    assert_eq!(m.lines, 2);
}

#[test]
fn many_syntax_errors_name_ten_lines_and_count_the_rest() {
    let lines: Vec<u32> = (1..=13).rev().collect();
    assert_eq!(
        syntax_warning(lines).unwrap(),
        "syntax errors at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more; measured what parsed"
    );
    assert_eq!(
        syntax_warning(vec![4, 4]).unwrap(),
        "syntax error at line 4; measured what parsed"
    );
    assert_eq!(syntax_warning(Vec::new()), None);
}

#[test]
fn header_size_and_encoding_are_checked_in_that_order() {
    let small = Options {
        max_file_size: 4,
        ..Options::default()
    };
    // A generated file past the size is left out as generated, not skipped as too large.
    let outcome = measure_file("a.rs", b"// @generated\n", &small).unwrap();
    assert!(
        matches!(outcome, FileOutcome::LeftOut { .. }),
        "{outcome:?}"
    );
    let outcome = measure_file("a.rs", b"fn f() {}\n", &small).unwrap();
    let skipped = FileOutcome::Skipped {
        path: "a.rs".into(),
        reason: SkipReason::TooLarge { size: 10, max: 4 },
    };
    assert_eq!(outcome, skipped);
    let unheeded = Options {
        honour_generated_header: false,
        ..small
    };
    let outcome = measure_file("a.rs", b"// @generated\n", &unheeded).unwrap();
    assert!(
        matches!(outcome, FileOutcome::Skipped { .. }),
        "{outcome:?}"
    );
    let outcome = measure_file("a.rs", b"// @generated\n\xff\n", &Options::default()).unwrap();
    assert!(
        matches!(outcome, FileOutcome::LeftOut { .. }),
        "{outcome:?}"
    );
    let outcome = measure_file("a.rs", b"fn f() {}\n\xff\n", &Options::default()).unwrap();
    let not_utf8 = FileOutcome::Skipped {
        path: "a.rs".into(),
        reason: SkipReason::NotUtf8,
    };
    assert_eq!(outcome, not_utf8);
}

#[test]
fn binary_is_a_nul_byte_in_the_first_8000_bytes_unless_the_file_reads_as_utf16_text() {
    assert!(looks_binary(b"\x47\x40\x00\x10\x00\x00\xb0\x0d"));
    assert!(!looks_binary(b"plain text\n"));
    let late = [vec![b'a'; 8000], vec![0]].concat();
    assert!(
        !looks_binary(&late),
        "git looks at the first 8000 bytes only"
    );
    let utf16le: Vec<u8> = "class A {}\r\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf16be: Vec<u8> = "class A {}\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert!(!looks_binary(&utf16le) && !looks_binary(&utf16be));
    assert!(!looks_binary(&[&[0xff, 0xfe][..], &utf16le].concat()));
    let long: Vec<u8> = "é"
        .repeat(5000)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert!(!looks_binary(&long));
}

#[test]
fn a_header_after_line_ten_does_not_leave_out() {
    let src = format!("{}// <auto-generated/>\nclass A {{}}\n", "//\n".repeat(10));
    let m = measured("A.cs", &src);
    assert_eq!(names(&m), [("A", 12, 12)]);
}

#[test]
fn a_header_past_line_ten_of_lone_cr_lines_does_not_leave_out() {
    let src = format!("{}// <auto-generated/>\rclass A {{}}\r", "//\r".repeat(10));
    let m = measured("A.cs", &src);
    assert_eq!((names(&m), m.lines), (vec![("A", 12, 12)], 12));
}

#[test]
fn path_rules_come_before_reading() {
    let outcome = measure_file("Inventory.Tests/A.cs", b"\xff", &Options::default()).unwrap();
    let reason = LeftOutReason::TestPath("test directory \"Inventory.Tests\"".into());
    assert_eq!(
        outcome,
        FileOutcome::LeftOut {
            path: "Inventory.Tests/A.cs".into(),
            reason
        }
    );
}

#[test]
fn the_dump_shows_kinds_fields_and_lines() {
    let dump = dump_tree("a.rs", b"\xEF\xBB\xBF#[inline]\nfn f() {}\n").unwrap();
    let expected = "\
source_file 1-2
  attribute_item 1-1
    attribute 1-1
      identifier 1-1 \"inline\"
  function_item 2-2
    name: identifier 2-2 \"f\"
    parameters: parameters 2-2
    body: block 2-2
";
    assert_eq!(dump, expected);
    assert_eq!(dump_tree("a.txt", b""), None);
    let broken = dump_tree("a.rs", b"fn f() {\n  let x = (1;\n}\n").unwrap();
    assert!(broken.contains("MISSING \")\" 2-2"), "{broken}");
    assert!(dump_tree("a.rs", b"fn f(")
        .unwrap()
        .contains("  ERROR 1-1\n"));
}

#[test]
fn grammars_load() {
    check_grammars().unwrap();
}

#[test]
fn only_items_carrying_cfg_test_are_left_out() {
    let src = "\
#[cfg(test)]
const X: u8 = 1;
#[cfg(test)]
use std::fmt;
struct S {
    #[cfg(test)]
    field: u8,
}
fn f() {
    #[cfg(test)]
    let y = 2;
    #[cfg(test)]
    fn nested() {}
}
";
    let m = measured("c.rs", src);
    assert_eq!(m.lines, 14 - 2 - 2 - 2);
    assert_eq!(names(&m), [("S", 5, 8), ("f", 9, 14)]);
}

#[test]
fn markdown_is_measured_in_bytes_without_units() {
    let text = "\u{feff}# A\r\n\r\n@b.md and `@c.md`\r\n";
    let m = measured("docs/a.md", text);
    assert_eq!(
        (m.language, m.lines, m.types, m.bytes),
        (Language::Markdown, 3, 0, 23)
    );
    assert!(m.units.is_empty());
    assert_eq!(m.loaded, None);
    assert_eq!(m.file_values(), [(Metric::FileBytes, 23)]);
    let source = crate::source::MemorySource::default()
        .with("docs/b.md", "bee\n")
        .with("docs/c.md", "never\n");
    let imports = Imports::new(&source, DEFAULT_MAX_FILE_SIZE);
    let outcome = measure_file_in(
        Some(&imports),
        &NoMemo,
        "docs/a.md",
        text.as_bytes(),
        &Options::default(),
    );
    let Some(FileOutcome::Measured(m)) = outcome else {
        panic!("{outcome:?}");
    };
    let loaded = m.loaded.clone().expect("loaded");
    assert_eq!(
        (loaded.bytes, loaded.imports),
        (27, vec!["docs/b.md".to_string()])
    );
    let values: Vec<(Metric, u64, String)> = m
        .values()
        .into_iter()
        .map(|v| (v.metric, v.value, v.unit))
        .collect();
    assert_eq!(
        values,
        [
            (Metric::ChainBytes, 27, "a.md".to_string()),
            (Metric::FileBytes, 23, "a.md".to_string()),
            (Metric::LoadedBytes, 27, "a.md".to_string())
        ]
    );
}

#[test]
fn code_files_carry_file_bytes_and_no_loaded_bytes() {
    let m = measured("src/a.rs", "fn f() {}\r\n");
    assert_eq!(m.bytes, 10);
    assert_eq!(
        m.file_values(),
        [
            (Metric::FileBytes, 10),
            (Metric::FileLines, 1),
            (Metric::TypesPerFile, 0)
        ]
    );
    let source = crate::source::MemorySource::default();
    let imports = Imports::new(&source, 100);
    let outcome = measure_file_in(
        Some(&imports),
        &NoMemo,
        "src/a.rs",
        b"fn f() {}\n",
        &Options::default(),
    );
    assert!(matches!(outcome, Some(FileOutcome::Measured(m)) if m.loaded.is_none()));
}

#[test]
fn a_generated_document_is_left_out_and_test_paths_do_not_apply() {
    let outcome = measure_file("docs/x.md", b"<!-- @generated -->\n", &Options::default());
    assert!(
        matches!(outcome, Some(FileOutcome::LeftOut { .. })),
        "{outcome:?}"
    );
    let outcome = measure_file("docs/x.md", b"see @generated/x.md\n", &Options::default());
    assert!(
        matches!(outcome, Some(FileOutcome::Measured(_))),
        "{outcome:?}"
    );
    let outcome = measure_file("tests/Migrations/x.md", b"x\n", &Options::default());
    assert!(
        matches!(outcome, Some(FileOutcome::Measured(_))),
        "{outcome:?}"
    );
}

#[test]
fn unicode_line_separators_end_lines_in_csharp_and_javascript_only() {
    let cs = "class C {\n  // note\u{2028}void Hidden() {\u{2028}}\n}\n";
    assert_eq!(
        names(&measured("C.cs", cs)),
        [("C", 1, 5), ("C.Hidden", 3, 4)]
    );
    assert_eq!(measured("C.cs", cs).lines, 5);
    let js = "// note\u{2028}function hidden() {\u{2029}  return 1;\u{2028}}\n";
    assert_eq!(names(&measured("a.js", js)), [("hidden", 2, 4)]);
    let rust = "// note\u{2028}fn hidden() {}\nfn seen() {}\n";
    let m = measured("a.rs", rust);
    assert_eq!((names(&m), m.lines), (vec![("seen", 2, 2)], 2));
}

#[test]
fn units_of_one_name_are_judged_once_at_the_worse_value_where_the_first_stood() {
    // Three `run`s (cfg'd variants) and a type `run`: one function value, at the longest
    // (lines 6-9, not the equally long last one), in the first `run`'s place.
    let src = "fn run() {}\n\
               fn stop() {\n}\n\
               #[cfg(unix)]\n\
               mod a {}\n\
               fn run() {\n\n\n}\n\
               struct run {\n}\n\
               fn run() {\n\n\n}\n";
    let m = measured("src/a.rs", src);
    let values: Vec<(Metric, &str, u64, u32, u32)> = m
        .value_refs()
        .into_iter()
        .filter(|v| !matches!(v.metric.def().source, crate::model::Source::Stored))
        .map(|v| (v.metric, v.unit, v.value, v.start_line, v.end_line))
        .collect();
    let last = 15;
    assert_eq!(
        values,
        [
            (Metric::FileBytes, "a.rs", src.len() as u64, 1, last),
            (Metric::FileLines, "a.rs", 15, 1, last),
            (Metric::TypesPerFile, "a.rs", 1, 1, last),
            (Metric::FunctionLines, "run", 4, 6, 9),
            (Metric::FunctionLines, "stop", 2, 2, 3),
            (Metric::TypeLines, "run", 2, 10, 11),
        ]
    );
    let owned: Vec<(Metric, String, u64)> = m
        .values()
        .into_iter()
        .map(|v| (v.metric, v.unit, v.value))
        .collect();
    assert_eq!(owned[3], (Metric::FunctionLines, "run".to_string(), 4));
    assert_eq!(owned.len(), 14);
}
