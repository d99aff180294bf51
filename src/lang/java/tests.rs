//! Unit tests of Java through the walk: fields and local variables as scopes, units
//! without braces, deep nesting and the debug view.

use crate::measure::test_support::{self, names};
use crate::measure::{dump_tree, measure_file};
use crate::model::{FileMeasure, FileOutcome};

fn measured(src: &str) -> FileMeasure {
    test_support::measured("A.java", src)
}

#[test]
fn a_field_is_a_scope_and_a_local_variable_is_not() {
    let src = "class A {\n  Runnable r = new Runnable() { public void run() {} };\n  void m() {\n    Runnable l = new Runnable() { public void run() {} };\n  }\n  Runnable plain;\n}\n";
    assert_eq!(
        names(&measured(src)),
        [
            ("A", 1, 7),
            ("A.r.run", 2, 2),
            ("A.m", 3, 5),
            ("A.m.run", 4, 4)
        ]
    );
}

#[test]
fn interface_constants_and_lambdas_in_fields_are_scopes_through_the_field() {
    let src = "interface I {\n  I DEFAULT = new I() { public void f() {} };\n  Runnable R = () -> {\n    class InLambda {}\n  };\n  void f();\n}\n";
    assert_eq!(
        names(&measured(src)),
        [
            ("I", 1, 7),
            ("I.DEFAULT.f", 2, 2),
            ("I.R", 3, 5),
            ("I.R.InLambda", 4, 4),
            ("I.f", 6, 6)
        ]
    );
}

#[test]
fn bodiless_methods_after_enum_constants_are_units() {
    let src = "enum E {\n  A { int f() { return 1; } };\n  abstract int f();\n}\n";
    assert_eq!(
        names(&measured(src)),
        [("E", 1, 4), ("E.A.f", 2, 2), ("E.f", 3, 3)]
    );
}

#[test]
fn twenty_thousand_nested_lambdas_do_not_overflow_the_stack() {
    let depth = 20_000;
    let src = format!(
        "class A {{\n  void m() {{\n{}\n{}\n  }}\n}}\n",
        "g(() -> {".repeat(depth),
        "});".repeat(depth)
    );
    // Each lambda spans two lines and is named through the 19,999 around it: the names
    // pass their budget, and the file is skipped, not the stack overflowed.
    let outcome = measure_file("A.java", src.as_bytes(), &test_support::unbounded());
    assert!(
        matches!(&outcome, Some(FileOutcome::Skipped { reason, .. }) if reason.to_string().contains("16 MiB")),
        "{outcome:?}"
    );
    let one_line = src.replacen('\n', " ", 3);
    assert_eq!(names(&measured(&one_line)), [("A", 1, 3), ("A.m", 1, 2)]);
    assert!(dump_tree("A.java", src.as_bytes()).is_some());
    let nested = format!(
        "class A {{\n  void m() {{\n{}\n{}\n  }}\n}}\n",
        "new B() { void x() {".repeat(depth),
        "}};".repeat(depth)
    );
    let outcome = measure_file("A.java", nested.as_bytes(), &test_support::unbounded());
    assert!(
        matches!(&outcome, Some(FileOutcome::Skipped { reason, .. }) if reason.to_string().contains("16 MiB")),
        "{outcome:?}"
    );
}

#[test]
fn the_dump_shows_java_trees() {
    let dump = dump_tree("A.java", b"@D\nclass A {}\n").unwrap();
    let expected = "\
program 1-2
  class_declaration 1-2
    modifiers 1-1
      marker_annotation 1-1
        name: identifier 1-1 \"D\"
    name: identifier 2-2 \"A\"
    body: class_body 2-2
";
    assert_eq!(dump, expected);
}
