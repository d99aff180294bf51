//! JavaScript for the measurer (stage 2, docs/src/reference/languages.md): `.js`, `.jsx`, `.mjs`, `.cjs`, each
//! parsed with JSX. Function declarations, generators, methods, accessors and the
//! functions bound to a name (`ecmascript.rs`); only `class` is a type unit.

use tree_sitter::Node;

use super::ecmascript::{self, binder, FUNCTIONS, FUNCTION_VALUES};
use super::{Binder, Bindings, Decl, Lang, Record, Role};
use crate::model::Language;

/// JavaScript: `.js`, `.jsx`, `.mjs` and `.cjs` files, parsed with [`JAVASCRIPT`].
pub static RECORD: Record = Record {
    name: "JavaScript",
    key: "javascript",
    extensions: &["js", "jsx", "mjs", "cjs"],
    grammar: Some(&JAVASCRIPT),
    dialects: &[],
    left_out: ecmascript::left_out,
    project_files: &ecmascript::PROJECT_FILES,
};

/// JavaScript as data for the generic walk.
pub static JAVASCRIPT: Lang = ecmascript::lang(
    Language::JavaScript,
    "javascript",
    || tree_sitter_javascript::LANGUAGE.into(),
    &BINDINGS,
    role_of,
    declare,
);

const TYPES: [&str; 2] = ["class_declaration", "class"];

static BINDERS: [Binder; 5] = ecmascript::binders(binder("field_definition", "property", "value"));

static BINDINGS: Bindings = Bindings {
    binders: &BINDERS,
    functions: &FUNCTION_VALUES,
    types: &["class"],
    scopes: &["object"],
    calls: &[("call_expression", "arguments")],
    wrappers: &[("parenthesized_expression", 0)],
    name_of: ecmascript::name_of,
};

fn role_of(kind: &str) -> Role {
    ecmascript::role_of(kind, &FUNCTIONS, &TYPES)
}

fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    ecmascript::declare(node, src, &TYPES)
}
