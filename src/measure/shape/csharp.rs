//! C#'s shape forms (docs/src/reference/metrics.md#shape-metrics): `if`/`else if`,
//! `switch` statements and expressions (sections count their `case` labels, arms all
//! but an unguarded `_`), `when` guards and exception filters, LINQ `from` and `where`
//! clauses as comprehensions, `goto`, lambdas and anonymous methods. An extension
//! method's `this` parameter is its receiver; a `params` array counts 1.

use tree_sitter::Node;

use super::{Field, Forms};

/// The field of a function's parameter list.
static PARAMETERS: Field = Field::new("parameters");

pub static FORMS: Forms = Forms {
    ifs: &["if_statement"],
    elses: &[],
    switches: &["switch_statement", "switch_expression"],
    cases: &["switch_section", "switch_expression_arm"],
    case_decisions,
    loops: &[
        "for_statement",
        "foreach_statement",
        "while_statement",
        "do_statement",
    ],
    bare_loops: &[],
    tries: &["try_statement"],
    catches: &["catch_clause"],
    guards: &["when_clause", "catch_filter_clause"],
    conditionals: &["conditional_expression"],
    binaries: &["binary_expression"],
    assignments: &["assignment_expression"],
    parens: &["parenthesized_expression"],
    jumps: &[],
    labels: &[],
    gotos: &["goto_statement"],
    clauses: &["from_clause", "where_clause"],
    lambdas: &[
        "lambda_expression",
        "anonymous_method_expression",
        "local_function_statement",
    ],
    ignored: &["attribute_list"],
    bodies: &["switch_expression_arm", "finally_clause"],
    let_else: &[],
    let_chains: &[],
    params,
    marks: &[
        "if", "else", "switch", "case", "for", "foreach", "while", "do", "try", "catch", "when",
        "from", "where", "goto", "and", "or", "?", "&&", "||", "=>",
    ],
};

/// A section: one per `case` label (`default` none); an arm: 1 unless it is a lone `_`
/// without a `when` (its guard counts as its own node).
fn case_decisions(node: Node, _: &[u8]) -> u32 {
    let mut cursor = node.walk();
    if node.kind() == "switch_section" {
        let cases = node
            .children(&mut cursor)
            .filter(|c| !c.is_named() && c.kind() == "case")
            .count();
        return u32::try_from(cases).unwrap_or(u32::MAX);
    }
    let mut children = node.named_children(&mut cursor).filter(|c| !c.is_extra());
    let wildcard = children.next().is_some_and(|c| c.kind() == "discard");
    let guarded = children.any(|c| c.kind() == "when_clause");
    u32::from(!wildcard || guarded)
}

/// The parameters of a method, constructor, operator, indexer, local function or
/// lambda: each `parameter` but an extension method's `this`, and a `params` array
/// (written in the list without a `parameter` node of its own).
fn params(node: Node, src: &[u8]) -> u32 {
    let Some(list) = PARAMETERS.of(node) else {
        return 0;
    };
    if list.kind() == "implicit_parameter" || list.kind() == "identifier" {
        return 1;
    }
    let mut cursor = list.walk();
    let mut count = 0u32;
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            let counted = match child.kind() {
                "parameter" => !is_this(child, src),
                _ => cursor.field_name() == Some("name"),
            };
            count += u32::from(counted);
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    count
}

/// Whether a parameter carries the `this` modifier of an extension method.
fn is_this(parameter: Node, src: &[u8]) -> bool {
    let mut cursor = parameter.walk();
    let found = parameter
        .children(&mut cursor)
        .any(|c| c.kind() == "modifier" && crate::lang::text(c, src) == "this");
    found
}
