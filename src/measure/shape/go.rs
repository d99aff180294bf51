//! Go's shape forms (docs/src/reference/metrics.md#shape-metrics): `if`/`else if`, `for`,
//! expression and type switches and `select` (each `case` 1, `default` none), `&&` and
//! `||`, labelled `break` and `continue`, `goto`, function literals. Parameters count
//! by name (`a, b int` is 2), the method receiver not at all.

use tree_sitter::Node;

use super::{Field, Forms};

/// The field of a function's parameter list.
static PARAMETERS: Field = Field::new("parameters");

pub static FORMS: Forms = Forms {
    ifs: &["if_statement"],
    elses: &[],
    switches: &[
        "expression_switch_statement",
        "type_switch_statement",
        "select_statement",
    ],
    cases: &["expression_case", "type_case", "communication_case"],
    case_decisions: |_, _| 1,
    loops: &["for_statement"],
    bare_loops: &[],
    tries: &[],
    catches: &[],
    guards: &[],
    conditionals: &[],
    binaries: &["binary_expression"],
    assignments: &[],
    parens: &["parenthesized_expression"],
    jumps: &["break_statement", "continue_statement"],
    labels: &["label_name"],
    gotos: &["goto_statement"],
    clauses: &[],
    lambdas: &["func_literal"],
    ignored: &[],
    bodies: &[
        "expression_case",
        "type_case",
        "communication_case",
        "default_case",
    ],
    let_else: &[],
    let_chains: &[],
    params,
    marks: &[
        "if", "else", "switch", "select", "case", "for", "break", "continue", "goto", "&&", "||",
    ],
};

/// Each name of the parameter list (an unnamed parameter counts 1); the receiver is a
/// field of its own.
fn params(node: Node, _: &[u8]) -> u32 {
    let Some(list) = PARAMETERS.of(node) else {
        return 0;
    };
    let mut cursor = list.walk();
    let declarations: Vec<Node> = list
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra())
        .collect();
    declarations
        .into_iter()
        .map(|declaration| {
            let mut cursor = declaration.walk();
            let names = declaration
                .children_by_field_name("name", &mut cursor)
                .count();
            u32::try_from(names.max(1)).unwrap_or(u32::MAX)
        })
        .sum()
}
