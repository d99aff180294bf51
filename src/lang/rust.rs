//! Rust for the measurer (stage 2): the item kinds that are units, their names (docs/src/reference/measurement.md:
//! scopes joined with `::`, impls named by their cleaned types) and the `#[cfg(test)]`
//! attribute that leaves test code out.

mod cargo;

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{AnonBinder, Anonymous, Call, Decl, Lang, Record, Role, UnitDecl, text};
use crate::model::{Language, LeftOutReason, UnitKind};

/// Rust: `.rs` files, parsed with [`RUST`].
pub static RECORD: Record = Record {
    name: "Rust",
    key: "rust",
    extensions: &["rs"],
    grammar: Some(&RUST),
    dialects: &[],
    left_out,
    project_files: &[ProjectFile {
        name: "Cargo.toml",
        code: Code::Read(cargo::code),
    }],
};

/// Rust as data for the generic walk.
pub static RUST: Lang = Lang {
    separator: "::",
    // `|` too: a closure whose body is an expression has no brace.
    unit_marks: &[b"{", b"|"],
    anonymous: &ANONYMOUS,
    is_test_attribute,
    ..Lang::new(Language::Rust, "rust", grammar, role_of, opaque_of, declare)
};

/// Closures and async blocks (docs/src/reference/measurement.md#anonymous-functions): named
/// by a `let`, an assignment, a struct-literal field, a `static` or a `const` that holds
/// one directly (through `&`, `*`, parentheses or a cast), else by the call they are
/// passed to (`tokio::spawn()`, `items.iter().map()`); an async block that is a
/// closure's whole body is that closure's.
static ANONYMOUS: Anonymous = Anonymous {
    functions: &["closure_expression", "async_block"],
    bodies: &[("async_block", "closure_expression")],
    wrappers: &[
        "parenthesized_expression",
        "reference_expression",
        "unary_expression",
        "type_cast_expression",
    ],
    calls: &[Call {
        kind: "call_expression",
        callee_from: None,
        arguments: "arguments",
        prefix: "",
    }],
    binders: &[
        AnonBinder {
            kind: "let_declaration",
            name: "pattern",
            value: Some("value"),
        },
        AnonBinder {
            kind: "assignment_expression",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "compound_assignment_expr",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "field_initializer",
            name: "field",
            value: Some("value"),
        },
        AnonBinder {
            kind: "static_item",
            name: "name",
            value: Some("value"),
        },
        AnonBinder {
            kind: "const_item",
            name: "name",
            value: Some("value"),
        },
    ],
    value_list: None,
    strings: &["string_literal", "raw_string_literal"],
    interpolations: &[],
    call_statements: &[],
    entry_scope: None,
    comments: &["line_comment", "block_comment"],
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_rust::LANGUAGE.into()
}

/// Statements and lists that never hold an item without braces; expressions
/// (`*_expression`), items and declarations are opaque too.
const OPAQUE: [&str; 10] = [
    "let_declaration",
    "expression_statement",
    "parameters",
    "arguments",
    "type_arguments",
    "type_parameters",
    "where_clause",
    "field_declaration",
    "ordered_field_declaration_list",
    "token_tree",
];

fn opaque_of(kind: &str) -> bool {
    matches!(role_of(kind), Role::Decl | Role::Item)
        || kind.ends_with("_expression")
        || OPAQUE.contains(&kind)
}

fn role_of(kind: &str) -> Role {
    match kind {
        "function_item"
        | "function_signature_item"
        | "struct_item"
        | "enum_item"
        | "union_item"
        | "trait_item"
        | "impl_item"
        | "mod_item" => Role::Decl,
        "const_item"
        | "static_item"
        | "type_item"
        | "associated_type"
        | "use_declaration"
        | "extern_crate_declaration"
        | "foreign_mod_item"
        | "macro_definition"
        | "macro_invocation" => Role::Item,
        "attribute_item" => Role::Attribute,
        "line_comment" | "block_comment" => Role::Comment,
        _ => Role::Other,
    }
}

fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    match node.kind() {
        "function_item" | "function_signature_item" => named(node, src, UnitKind::Function),
        "impl_item" => Some(impl_decl(node, src)),
        "mod_item" => Some(Decl {
            unit: None,
            scope: Some(name_of(node, src)?),
        }),
        _ => named(node, src, UnitKind::Type),
    }
}

/// A unit named by its `name` field (raw identifiers as written), also a scope.
fn named(node: Node, src: &[u8], kind: UnitKind) -> Option<Decl> {
    let name = name_of(node, src)?;
    Some(Decl::unit(kind, name))
}

fn name_of(node: Node, src: &[u8]) -> Option<String> {
    let name = text(node.child_by_field_name("name")?, src);
    Some(name.to_string()).filter(|n| !n.is_empty())
}

/// `impl Parser` / `impl Iterator for Parser` (`unsafe` dropped, `!` kept), holding
/// `Parser::…` or `<Parser as Iterator>::…`. A type that is not a plain path is written
/// in angle brackets for what the impl holds: `<&Foo>::…`, `<[u8; N] as Foo>::…`.
fn impl_decl(node: Node, src: &[u8]) -> Decl {
    let ty = node
        .child_by_field_name("type")
        .map(|t| clean_type(t, src))
        .unwrap_or_default();
    let trait_name = node
        .child_by_field_name("trait")
        .map(|t| format!("{}{}", negation(node), clean_type(t, src)));
    let (name, scope) = match trait_name {
        Some(tr) => (format!("impl {tr} for {ty}"), format!("<{ty} as {tr}>")),
        None if is_plain_path(&ty) => (format!("impl {ty}"), ty.clone()),
        None => (format!("impl {ty}"), format!("<{ty}>")),
    };
    Decl {
        scope: Some(scope),
        unit: Some(UnitDecl {
            kind: UnitKind::Type,
            name,
            counts_as_type: false,
        }),
    }
}

/// `"!"` for a negative impl (`impl !Send for X`).
fn negation(node: Node) -> &'static str {
    let mut cursor = node.walk();
    let negative = node
        .children(&mut cursor)
        .any(|c| c.kind() == "!" && !c.is_named());
    if negative {
        "!"
    } else {
        ""
    }
}

fn is_plain_path(ty: &str) -> bool {
    !ty.is_empty()
        && ty
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '#')
}

/// A type or trait as written, whitespace collapsed, with every `<...>` list, lifetime
/// (and the space after it), `for<...>` binder and comment removed:
/// `fmt::Debug`, `&'a mut Foo<'a, T>` → `&mut Foo`, `dyn Trait + 'a` → `dyn Trait`.
pub fn clean_type(node: Node, src: &[u8]) -> String {
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let cut = cut_of(n, src);
        let look_inside = match cut {
            Some(_) => matches!(n.kind(), "bounded_type" | "higher_ranked_trait_bound"),
            None => true,
        };
        cuts.extend(cut);
        if look_inside {
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
    }
    cuts.sort_unstable();
    let (start, end) = (node.start_byte(), node.end_byte());
    let mut kept = String::new();
    let mut at = start;
    for (from, to) in cuts {
        if from > at {
            kept.push_str(slice(src, at, from));
        }
        at = at.max(to);
    }
    if end > at {
        kept.push_str(slice(src, at, end));
    }
    super::collapse_whitespace(&kept)
}

/// The byte range a node removes from a cleaned type, if any.
fn cut_of(node: Node, src: &[u8]) -> Option<(usize, usize)> {
    match node.kind() {
        "type_arguments" | "type_parameters" | "where_clause" | "use_bounds" | "line_comment"
        | "block_comment" => Some((node.start_byte(), node.end_byte())),
        "lifetime" | "for_lifetimes" => Some((node.start_byte(), after_spaces(node, src))),
        "higher_ranked_trait_bound" => {
            let ty = node.child_by_field_name("type")?;
            Some((node.start_byte(), ty.start_byte()))
        }
        "bounded_type" => bounded_lifetime_cut(node),
        _ => None,
    }
}

/// In `T + 'a` (or `'a + T`) the lifetime goes with its `+`.
fn bounded_lifetime_cut(node: Node) -> Option<(usize, usize)> {
    let first = node.named_child(0)?;
    let last = node.named_child(node.named_child_count().checked_sub(1)?)?;
    if last.kind() == "lifetime" {
        Some((first.end_byte(), last.end_byte()))
    } else if first.kind() == "lifetime" {
        Some((first.start_byte(), last.start_byte()))
    } else {
        None
    }
}

/// The end of a node plus the spaces after it, up to its parent's end.
fn after_spaces(node: Node, src: &[u8]) -> usize {
    let limit = node.parent().map_or(src.len(), |p| p.end_byte());
    let mut end = node.end_byte();
    while end < limit && src.get(end).is_some_and(|b| b.is_ascii_whitespace()) {
        end += 1;
    }
    end
}

fn slice(src: &[u8], from: usize, to: usize) -> &str {
    src.get(from..to)
        .and_then(|b| std::str::from_utf8(b).ok())
        .unwrap_or("")
}

/// `#[cfg(test)]`, or `#[cfg(all(...))]` with `test` among its direct arguments, judged
/// on the attribute's tokens as the grammar reads them: a `")"` inside a string literal
/// is no parenthesis, and comments are no tokens (docs/src/reference/measurement.md).
fn is_test_attribute(node: Node, src: &[u8]) -> bool {
    let Some(attribute) = node.named_child(0).filter(|a| a.kind() == "attribute") else {
        return false;
    };
    let is_cfg = attribute
        .named_child(0)
        .is_some_and(|path| path.kind() == "identifier" && text(path, src) == "cfg");
    let Some(predicate) = attribute
        .child_by_field_name("arguments")
        .filter(|_| is_cfg)
    else {
        return false;
    };
    let arguments_of_cfg = arguments(predicate);
    let [only] = arguments_of_cfg.as_slice() else {
        return false;
    };
    let is_test = |arg: &[Node]| is_word(arg, "test", src);
    match only.as_slice() {
        [all, list] if is_word(&[*all], "all", src) && list.kind() == "token_tree" => {
            arguments(*list).iter().any(|arg| is_test(arg))
        }
        arg => is_test(arg),
    }
}

/// The comma-separated arguments inside a parenthesised token tree, each as its tokens
/// (comments left out, a trailing comma allowed); none for another delimiter.
fn arguments(tree: Node) -> Vec<Vec<Node>> {
    let mut cursor = tree.walk();
    let tokens: Vec<Node> = tree.children(&mut cursor).collect();
    let (Some(open), Some(close)) = (tokens.first(), tokens.last()) else {
        return Vec::new();
    };
    if open.kind() != "(" || close.kind() != ")" || tokens.len() < 2 {
        return Vec::new();
    }
    let mut args: Vec<Vec<Node>> = vec![Vec::new()];
    for token in &tokens[1..tokens.len() - 1] {
        match token.kind() {
            "," if !token.is_named() => args.push(Vec::new()),
            "line_comment" | "block_comment" => {}
            _ => args.last_mut().into_iter().for_each(|arg| arg.push(*token)),
        }
    }
    if args.last().is_some_and(Vec::is_empty) {
        args.pop();
    }
    args
}

/// Whether an argument is the one identifier `word`.
fn is_word(arg: &[Node], word: &str, src: &[u8]) -> bool {
    matches!(arg, [token] if token.kind() == "identifier" && text(*token, src) == word)
}

/// The path rule that leaves a Rust file out (docs/src/reference/measurement.md): `tests`
/// and `benches` directories, `tests.rs` files.
fn left_out(dirs: &[&str], file: &str) -> Option<LeftOutReason> {
    test_dir(dirs).or_else(|| test_file(file))
}

fn test_dir(dirs: &[&str]) -> Option<LeftOutReason> {
    dirs.iter().find_map(|dir| match *dir {
        "tests" => Some(LeftOutReason::TestPath(
            "test directory \"tests\"".to_string(),
        )),
        "benches" => Some(LeftOutReason::TestPath(
            "benchmark directory \"benches\"".to_string(),
        )),
        _ => None,
    })
}

/// `tests.rs`, its extension in any case as every extension is (docs/src/reference/measurement.md).
fn test_file(file: &str) -> Option<LeftOutReason> {
    let tests = file
        .split_once('.')
        .is_some_and(|(stem, ext)| stem == "tests" && ext.eq_ignore_ascii_case("rs"));
    tests.then(|| LeftOutReason::TestPath("test file name (tests.rs)".to_string()))
}

#[cfg(test)]
mod tests;
