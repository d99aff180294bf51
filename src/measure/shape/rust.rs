//! Rust's shape forms (docs/src/reference/metrics.md#shape-metrics): `if` and `if let`
//! (an `else_clause` holding an `if` continues the chain), `match` (arms all but an
//! unguarded `_`, a guard 1 more), `for`, `while`, `while let`, `loop` (no decision),
//! `let ... else` as an `if let` with its `else`, `let` chains, labelled `break` and
//! `continue`, closures. `self` in any form is the receiver.

use tree_sitter::Node;

use super::{Field, Forms};

/// The field of a function's parameter list.
static PARAMETERS: Field = Field::new("parameters");
/// The field of a parameter's or an arm's pattern.
static PATTERN: Field = Field::new("pattern");

pub static FORMS: Forms = Forms {
    ifs: &["if_expression"],
    elses: &["else_clause"],
    switches: &["match_expression"],
    cases: &["match_arm"],
    case_decisions,
    loops: &["for_expression", "while_expression"],
    bare_loops: &["loop_expression"],
    tries: &[],
    catches: &[],
    guards: &[],
    conditionals: &[],
    binaries: &["binary_expression"],
    assignments: &[],
    parens: &["parenthesized_expression"],
    jumps: &["break_expression", "continue_expression"],
    labels: &["label"],
    gotos: &[],
    clauses: &[],
    lambdas: &["closure_expression", "function_item"],
    ignored: &["attribute_item", "inner_attribute_item"],
    bodies: &[],
    let_else: &["let_declaration"],
    let_chains: &["let_chain"],
    params,
    marks: &[
        "if", "else", "match", "for", "while", "loop", "break", "continue", "&&", "||", "=>",
    ],
};

/// An arm: 1 unless its pattern is a lone `_` without a guard; a guard 1 more.
fn case_decisions(node: Node, src: &[u8]) -> u32 {
    let Some(pattern) = PATTERN.of(node) else {
        return 1;
    };
    if pattern.child_by_field_name("condition").is_some() {
        return 2;
    }
    u32::from(crate::lang::text(pattern, src).trim() != "_")
}

/// The parameters of a function or closure, `self` in any form not counted (`&self`,
/// `mut self`, `self: Box<Self>`).
fn params(node: Node, _: &[u8]) -> u32 {
    let Some(list) = PARAMETERS.of(node) else {
        return 0;
    };
    // Every named child that is no comment, `self` parameter or attribute, nor a
    // `self: Box<Self>` (a `parameter` whose pattern is `self`).
    let mut cursor = list.walk();
    let counted = list.named_children(&mut cursor).filter(|p| {
        let kind = p.kind();
        !p.is_extra()
            && kind != "self_parameter"
            && kind != "attribute_item"
            && !(kind == "parameter" && PATTERN.of(*p).is_some_and(|at| at.kind() == "self"))
    });
    u32::try_from(counted.count()).unwrap_or(u32::MAX)
}
