//! JavaScript for the measurer (stage 2, SPEC §10): `.js`, `.jsx`, `.mjs`, `.cjs`, each
//! parsed with JSX. Function declarations, generators, methods, accessors and the
//! functions bound to a name (`ecmascript.rs`); only `class` is a type unit.

use std::sync::OnceLock;

use tree_sitter::Node;

use super::ecmascript::{self, binder, FUNCTIONS, FUNCTION_VALUES, SPAN_PARENTS};
use super::{Binder, Bindings, Decl, KindInfo, Lang, Role};
use crate::model::Language;

static KINDS: OnceLock<Vec<KindInfo>> = OnceLock::new();

/// JavaScript as data for the generic walk.
pub static JAVASCRIPT: Lang = Lang {
    language: Language::JavaScript,
    name: "javascript",
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    separator: ".",
    unit_marks: &[b"{", b"=>"],
    span_parents: &SPAN_PARENTS,
    span_groups: &[],
    ends_at_code: false,
    bindings: &BINDINGS,
    role_of,
    opaque_of: ecmascript::opaque_of,
    declare,
    is_test_attribute: |_, _| false,
    entry_point: None,
    // ECMAScript ends lines (and `//` comments) at U+2028 and U+2029 too.
    line_separators: &['\u{2028}', '\u{2029}'],
    blanked_ranges: None,
    comment_directive_line: None,
    generated_marker: None,
    kinds: &KINDS,
};

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
