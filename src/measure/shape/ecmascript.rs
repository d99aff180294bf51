//! TypeScript's and JavaScript's shape forms (docs/src/reference/metrics.md#shape-metrics):
//! `if`/`else if`, `switch` (each `case` 1, `default` none), `for`, `for … in`/`of`,
//! `while`, `do`, `try`/`catch`, `?:`, `&&`, `||`, `??` and their assignments, labelled
//! `break` and `continue`, arrow functions and function expressions. TypeScript's
//! `this:` pseudo-parameter is no parameter.

use tree_sitter::Node;

use super::Forms;

pub static FORMS: Forms = Forms {
    ifs: &["if_statement"],
    elses: &["else_clause"],
    switches: &["switch_statement"],
    cases: &["switch_case"],
    case_decisions: |_, _| 1,
    loops: &[
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
    ],
    bare_loops: &[],
    tries: &["try_statement"],
    catches: &["catch_clause"],
    guards: &[],
    conditionals: &["ternary_expression"],
    binaries: &["binary_expression"],
    assignments: &["augmented_assignment_expression"],
    parens: &["parenthesized_expression"],
    jumps: &["break_statement", "continue_statement"],
    labels: &["statement_identifier"],
    gotos: &[],
    clauses: &[],
    lambdas: &[
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
    ],
    ignored: &["decorator"],
    bodies: &[],
    let_else: &[],
    let_chains: &[],
    params,
    marks: &[
        "if", "else", "switch", "case", "for", "while", "do", "try", "catch", "break", "continue",
        "?", "&&", "||",
    ],
};

/// The parameters of a function: an arrow's lone `x`, or each of its list but `this:`.
fn params(node: Node, _: &[u8]) -> u32 {
    if node.child_by_field_name("parameter").is_some() {
        return 1;
    }
    let Some(list) = node.child_by_field_name("parameters") else {
        return 0;
    };
    let mut cursor = list.walk();
    let n = list
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra() && !is_this(*c))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn is_this(parameter: Node) -> bool {
    parameter
        .child_by_field_name("pattern")
        .is_some_and(|p| p.kind() == "this")
}
