//! Rust's shape forms (docs/src/reference/metrics.md#shape-metrics): `if` and `if let`
//! (an `else_clause` holding an `if` continues the chain), `match` (arms all but an
//! unguarded `_`, a guard 1 more), `for`, `while`, `while let`, `loop` (no decision),
//! `let ... else` as an `if let` with its `else`, `let` chains, labelled `break` and
//! `continue`, closures. `self` in any form is the receiver.

use tree_sitter::Node;

use super::{count_named, Forms};

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
    let Some(pattern) = node.child_by_field_name("pattern") else {
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
    let Some(list) = node.child_by_field_name("parameters") else {
        return 0;
    };
    let mut cursor = list.walk();
    let typed_self = list.named_children(&mut cursor).filter(|p| {
        p.kind() == "parameter"
            && p.child_by_field_name("pattern")
                .is_some_and(|pattern| pattern.kind() == "self")
    });
    let typed_self = u32::try_from(typed_self.count()).unwrap_or(0);
    count_named(list, &["self_parameter", "attribute_item"]).saturating_sub(typed_self)
}
