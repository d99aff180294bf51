//! Python's shape forms (docs/src/reference/metrics.md#shape-metrics): `if`/`elif`/`else`,
//! `for` and `while` (with their `else`), `try`/`except`/`else`/`finally`, `match` (each
//! `case` but an unguarded `case _:`, a guard 1 more), `x if c else y`, `and`/`or`, the
//! `for` and `if` clauses of comprehensions, lambdas. The first parameter of a method
//! (a `def` whose nearest scope is a class body, unless `@staticmethod`) is its
//! receiver; the bare `*` and `/` markers are no parameters.

use tree_sitter::Node;

use super::{count_named, Field, Forms};

/// The field of a function's parameter list.
static PARAMETERS: Field = Field::new("parameters");

pub static FORMS: Forms = Forms {
    ifs: &["if_statement", "elif_clause"],
    elses: &["else_clause"],
    switches: &["match_statement"],
    cases: &["case_clause"],
    case_decisions,
    loops: &["for_statement", "while_statement"],
    bare_loops: &[],
    tries: &["try_statement"],
    catches: &["except_clause"],
    guards: &[],
    conditionals: &["conditional_expression"],
    binaries: &["boolean_operator"],
    assignments: &[],
    parens: &["parenthesized_expression"],
    jumps: &[],
    labels: &[],
    gotos: &[],
    clauses: &["for_in_clause", "if_clause"],
    lambdas: &["lambda", "function_definition"],
    ignored: &["decorator"],
    bodies: &["block", "except_clause", "finally_clause", "case_clause"],
    let_else: &[],
    let_chains: &[],
    params,
    marks: &[
        "if", "elif", "else", "match", "case", "for", "while", "try", "except", "and", "or",
    ],
};

/// A case: 1 unless it is an unguarded lone `_` (a guard is an `if_clause`, counted as
/// its own node).
fn case_decisions(node: Node, src: &[u8]) -> u32 {
    if node.child_by_field_name("guard").is_some() {
        return 1;
    }
    let mut cursor = node.walk();
    let patterns: Vec<Node> = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "case_pattern")
        .collect();
    let wildcard = matches!(patterns.as_slice(), [only] if crate::lang::text(*only, src) == "_");
    u32::from(!wildcard)
}

/// The parameters of a `def` or lambda but the `*` and `/` markers, less a method's
/// receiver.
fn params(node: Node, src: &[u8]) -> u32 {
    let Some(list) = PARAMETERS.of(node) else {
        return 0;
    };
    let count = count_named(list, &["keyword_separator", "positional_separator"]);
    let receiver = node.kind() == "function_definition" && is_method(node, src) && {
        let mut cursor = list.walk();
        let first = list.named_children(&mut cursor).find(|c| !c.is_extra());
        first.is_some_and(is_positional)
    };
    count - u32::from(receiver && count > 0)
}

/// Whether a `def` is a method: the nearest scope around it (through blocks and
/// compound statements) is a class body, and no `@staticmethod` decorates it.
fn is_method(def: Node, src: &[u8]) -> bool {
    let mut parent = def.parent();
    if let Some(decorated) = parent.filter(|p| p.kind() == "decorated_definition") {
        let mut cursor = decorated.walk();
        let static_method = decorated
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "decorator")
            .any(|d| {
                let text = crate::lang::text(d, src).trim_start_matches('@').trim();
                text == "staticmethod" || text.ends_with(".staticmethod")
            });
        if static_method {
            return false;
        }
    }
    while let Some(p) = parent {
        match p.kind() {
            "class_definition" => return true,
            "function_definition" | "lambda" | "module" => return false,
            _ => parent = p.parent(),
        }
    }
    false
}

/// A plain positional parameter: a name, typed or with a default, no `*` or `**`.
fn is_positional(parameter: Node) -> bool {
    match parameter.kind() {
        "identifier" => true,
        "typed_parameter" | "default_parameter" | "typed_default_parameter" => parameter
            .named_child(0)
            .is_some_and(|c| c.kind() == "identifier"),
        _ => false,
    }
}
