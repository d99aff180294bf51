//! Java's shape forms (docs/src/reference/metrics.md#shape-metrics): `if`/`else if`,
//! `switch` statements and expressions (each `case` label 1 — `case A, B ->` is one —
//! `default` none, a `when` guard 1 more), `for`, enhanced `for`, `while`, `do`, `try`
//! (with resources too) and `catch`, `?:`, `&&`, `||`, labelled `break` and `continue`,
//! lambdas. An explicit receiver parameter (`Foo this`) is no parameter.

use tree_sitter::Node;

use super::{count_named, Field, Forms};

/// The field of a function's parameter list.
static PARAMETERS: Field = Field::new("parameters");

pub static FORMS: Forms = Forms {
    ifs: &["if_statement"],
    elses: &[],
    switches: &["switch_expression"],
    cases: &["switch_label"],
    case_decisions,
    loops: &[
        "for_statement",
        "enhanced_for_statement",
        "while_statement",
        "do_statement",
    ],
    bare_loops: &[],
    tries: &["try_statement", "try_with_resources_statement"],
    catches: &["catch_clause"],
    guards: &["guard"],
    conditionals: &["ternary_expression"],
    binaries: &["binary_expression"],
    assignments: &[],
    parens: &["parenthesized_expression"],
    jumps: &["break_statement", "continue_statement"],
    labels: &["identifier"],
    gotos: &[],
    clauses: &[],
    lambdas: &["lambda_expression"],
    ignored: &["marker_annotation", "annotation"],
    bodies: &["finally_clause"],
    let_else: &[],
    let_chains: &[],
    params,
    marks: &[
        "if", "else", "switch", "case", "for", "while", "do", "try", "catch", "when", "break",
        "continue", "?", "&&", "||",
    ],
};

/// A label: 1 for `case` (however many values it lists), none for `default`.
fn case_decisions(node: Node, _: &[u8]) -> u32 {
    let mut cursor = node.walk();
    let first = node.children(&mut cursor).next();
    u32::from(first.is_some_and(|c| c.kind() == "case"))
}

/// The parameters of a method, constructor or lambda, the receiver parameter not
/// counted.
fn params(node: Node, _: &[u8]) -> u32 {
    let Some(list) = PARAMETERS.of(node) else {
        return 0;
    };
    match list.kind() {
        "identifier" => 1,
        _ => count_named(list, &["receiver_parameter", "modifiers"]),
    }
}
