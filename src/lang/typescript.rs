//! TypeScript for the measurer (stage 2, docs/src/reference/languages.md): `.ts`, `.mts`, `.cts`, and `.tsx`
//! with the TSX grammar. JavaScript's units and bindings (`ecmascript.rs`), plus overload
//! and declared signatures, interface and abstract members, interfaces and enums; type
//! aliases, namespaces and `declare module` blocks are neither units nor scopes.

use tree_sitter::Node;

use super::ecmascript::{self, binder, FUNCTION_VALUES};
use super::{Binder, Bindings, Decl, Lang, Record, Role};
use crate::model::Language;

/// TypeScript: `.ts`, `.mts`, `.cts` and `.tsx` files, parsed with [`TYPESCRIPT`] and
/// `.tsx` with [`TSX`].
pub static RECORD: Record = Record {
    name: "TypeScript",
    key: "typescript",
    extensions: &["ts", "mts", "cts", "tsx"],
    grammar: Some(&TYPESCRIPT),
    dialects: &[("tsx", &TSX)],
    left_out: ecmascript::left_out,
    project_files: &ecmascript::PROJECT_FILES,
};

/// TypeScript as data for the generic walk.
pub static TYPESCRIPT: Lang = ecmascript::lang(
    Language::TypeScript,
    "typescript",
    || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    &BINDINGS,
    role_of,
    declare,
);

/// TypeScript with JSX (`.tsx`): the same data over the TSX grammar.
pub static TSX: Lang = ecmascript::lang(
    Language::TypeScript,
    "tsx",
    || tree_sitter_typescript::LANGUAGE_TSX.into(),
    &BINDINGS,
    role_of,
    declare,
);

const FUNCTIONS: [&str; 8] = [
    ecmascript::FUNCTIONS[0],
    ecmascript::FUNCTIONS[1],
    ecmascript::FUNCTIONS[2],
    ecmascript::FUNCTIONS[3],
    ecmascript::FUNCTIONS[4],
    "function_signature",
    "method_signature",
    "abstract_method_signature",
];

const TYPES: [&str; 5] = [
    "class_declaration",
    "abstract_class_declaration",
    "class",
    "interface_declaration",
    "enum_declaration",
];

static BINDERS: [Binder; 5] =
    ecmascript::binders(binder("public_field_definition", "name", "value"));

static BINDINGS: Bindings = Bindings {
    binders: &BINDERS,
    functions: &FUNCTION_VALUES,
    types: &["class"],
    scopes: &["object"],
    calls: &[("call_expression", "arguments")],
    wrappers: &[
        ("parenthesized_expression", 0),
        ("as_expression", 0),
        ("satisfies_expression", 0),
        ("non_null_expression", 0),
        ("type_assertion", 1),
    ],
    name_of: ecmascript::name_of,
};

fn role_of(kind: &str) -> Role {
    ecmascript::role_of(kind, &FUNCTIONS, &TYPES)
}

fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    ecmascript::declare(node, src, &TYPES)
}
