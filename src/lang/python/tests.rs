//! Unit tests of Python through the walk: where units end, decorators, line ends, hostile
//! nesting and the debug view.

use crate::measure::dump_tree;
use crate::measure::test_support::{measured, names};

#[test]
fn a_unit_ends_at_its_last_statement_however_deep_the_comments_sit() {
    let src = "class A:\n    def f(self):\n        for x in y:\n            try:\n                g(x)\n                # in try\n            finally:\n                h()\n                # in finally\n        # in f\n    # in A\n# after\n";
    assert_eq!(names(&measured("a.py", src)), [("A", 1, 8), ("A.f", 2, 8)]);
}

#[test]
fn a_comment_inside_the_last_statement_stays_inside() {
    let src = "def f():\n    return [\n        1,\n        # inside the list\n    ]\n    # after\n";
    assert_eq!(names(&measured("a.py", src)), [("f", 1, 5)]);
}

#[test]
fn decorators_start_the_unit_and_a_one_line_def_is_one_line() {
    let src = "@a\n\n# between\n@b(\n    1)\nasync def f(): pass  # same line\n\nlambda_ = lambda: (lambda: 1)\n";
    assert_eq!(names(&measured("a.py", src)), [("f", 1, 6)]);
}

#[test]
fn lone_cr_and_crlf_end_python_lines() {
    assert_eq!(
        names(&measured("a.py", "def f():\r    pass\r# c\r")),
        [("f", 1, 2)]
    );
    assert_eq!(
        names(&measured(
            "a.py",
            "def f():\r\n    pass\r\n\r\ndef g():\r\n    pass\r\n"
        )),
        [("f", 1, 2), ("g", 4, 5)]
    );
}

#[test]
fn a_def_inside_an_error_region_is_still_found() {
    let m = measured("a.py", "x = (\n\ndef f():\n    return 1\n");
    assert!(m.syntax_errors.is_some(), "{m:?}");
    assert!(names(&m).iter().any(|(name, _, _)| *name == "f"), "{m:?}");
}

#[test]
fn deep_expressions_and_nested_defs_do_not_overflow_the_stack() {
    let depth = 5_000;
    let src = format!(
        "def f():\n    x = {}1{}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    assert_eq!(names(&measured("deep.py", &src)), [("f", 1, 2)]);
    let mut nested = String::new();
    for level in 0..90 {
        nested.push_str(&format!("{}def f{level}():\n", " ".repeat(level)));
    }
    nested.push_str(&format!("{}pass\n", " ".repeat(90)));
    let m = measured("nested.py", &nested);
    assert_eq!(m.units.len(), 90);
    assert_eq!(m.units[89].name.matches('.').count(), 89);
    assert!(dump_tree("deep.py", src.as_bytes()).is_some());
}

#[test]
fn the_dump_shows_python_trees() {
    let dump = dump_tree("a.py", b"@d\ndef f():\n    pass\n    # c\n").unwrap();
    let expected = "\
module 1-4
  decorated_definition 1-4
    decorator 1-1
      identifier 1-1 \"d\"
    definition: function_definition 2-4
      name: identifier 2-2 \"f\"
      parameters: parameters 2-2
      body: block 3-4
        pass_statement 3-3
        comment 4-4 \"# c\"
";
    assert_eq!(dump, expected);
}
