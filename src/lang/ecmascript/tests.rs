//! Unit tests of TypeScript and JavaScript through the walk: grammars by extension,
//! decorators, claims, and hostile nesting.

use crate::measure::dump_tree;
use crate::measure::measure_file;
use crate::measure::test_support::{self, measured, names};
use crate::model::FileOutcome;

#[test]
fn tsx_files_parse_with_the_tsx_grammar_and_ts_files_without() {
    let jsx = "const a = <div onClick={() => {}} />;\n";
    assert_eq!(measured("a.tsx", jsx).syntax_errors, None);
    assert_eq!(measured("A.TSX", jsx).syntax_errors, None);
    assert_eq!(measured("a.jsx", jsx).syntax_errors, None);
    assert_eq!(measured("a.js", jsx).syntax_errors, None);
    assert_eq!(
        measured("a.ts", jsx).syntax_errors.as_deref(),
        Some("syntax error at line 1; measured what parsed")
    );
    let assertion = "const f = <Factory>(() => {});\n";
    assert_eq!(names(&measured("a.ts", assertion)), [("f", 1, 1)]);
    assert_eq!(
        names(&measured("a.tsx", "const id = <T,>(x: T) => x;\n")),
        [("id", 1, 1)]
    );
}

#[test]
fn what_a_method_decorator_holds_is_named_inside_the_method() {
    let src = "class A {\n  @Hook({ run() {}, done: () => {} })\n  m() {}\n}\n";
    assert_eq!(
        names(&measured("a.ts", src)),
        [
            ("A", 1, 4),
            ("A.m", 2, 3),
            ("A.m.done", 2, 2),
            ("A.m.run", 2, 2)
        ]
    );
}

#[test]
fn a_claim_ends_with_its_binding() {
    let src = "const a = wrap(function inner() {});\nlater(function own() {});\n";
    assert_eq!(names(&measured("a.js", src)), [("a", 1, 1), ("own", 2, 2)]);
}

#[test]
fn twenty_thousand_nested_callbacks_do_not_overflow_the_stack() {
    let depth = 20_000;
    let src = format!(
        "export function f() {{\n{}\n{}\n}}\n",
        "g(() => {".repeat(depth),
        "});".repeat(depth)
    );
    // Each callback spans two lines and is named through the 19,999 around it: the names
    // pass their budget, and the file is skipped, not the stack overflowed.
    for path in ["deep.ts", "deep.js"] {
        let outcome = measure_file(path, src.as_bytes(), &test_support::unbounded());
        assert!(
            matches!(&outcome, Some(FileOutcome::Skipped { reason, .. }) if reason.to_string().contains("16 MiB")),
            "{outcome:?}"
        );
    }
    let one_line = src.replacen('\n', " ", 2);
    assert_eq!(names(&measured("deep.ts", &one_line)), [("f", 1, 2)]);
    assert_eq!(names(&measured("deep.js", &one_line)), [("f", 1, 2)]);
    assert!(dump_tree("deep.tsx", src.as_bytes()).is_some());
}

#[test]
fn the_dump_shows_typescript_trees() {
    let dump = dump_tree("a.ts", b"@d\nexport class A {}\n").unwrap();
    let expected = "\
program 1-2
  export_statement 1-2
    decorator: decorator 1-1
      identifier 1-1 \"d\"
    declaration: class_declaration 2-2
      name: type_identifier 2-2 \"A\"
      body: class_body 2-2
";
    assert_eq!(dump, expected);
    let dump = dump_tree("a.js", b"exports.f = () => 1;\n").unwrap();
    assert!(dump.contains("    assignment_expression 1-1\n"), "{dump}");
}

#[test]
fn brace_less_arrows_bound_inside_expressions_are_found() {
    let src = "if (ok) exports.f = x => x;\na = b = (y) => y;\ncall(k = () => 0, z === 1);\n";
    assert_eq!(
        names(&measured("a.js", src)),
        [("exports.f", 1, 1), ("b", 2, 2), ("k", 3, 3)]
    );
}
