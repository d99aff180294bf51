//! Java for the measurer (stage 2, docs/src/reference/languages.md): `.java`. Methods (with or without a body),
//! constructors, compact record constructors and annotation type elements are function
//! units; classes, interfaces, enums, records and `@interface`s are type units. An enum
//! constant's body is a scope named by the constant (`Op.PLUS.apply`), and so is a field
//! for the anonymous classes in its initializer (`TypeAdapters.CLASS.write`); anonymous
//! classes, lambdas and initializer blocks are neither units nor scopes. Annotations
//! are inside a declaration's node, so its span; a Javadoc above it is not.

mod escapes;

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{AnonBinder, Anonymous, Binder, Bindings, Call, Decl, Lang, Record, Role, text};
use crate::model::{Language, LeftOutReason, UnitKind};

/// Java: `.java` files, parsed with [`JAVA`].
pub static RECORD: Record = Record {
    name: "Java",
    key: "java",
    extensions: &["java"],
    grammar: Some(&JAVA),
    dialects: &[],
    left_out,
    project_files: &[
        ProjectFile {
            name: "pom.xml",
            code: Code::Under("src/main"),
        },
        ProjectFile {
            name: "build.gradle",
            code: Code::Under("src/main"),
        },
        ProjectFile {
            name: "build.gradle.kts",
            code: Code::Under("src/main"),
        },
    ],
};

/// Java as data for the generic walk.
pub static JAVA: Lang = Lang {
    bindings: &BINDINGS,
    // `->` too: a lambda whose body is an expression has no brace.
    unit_marks: &[b"{", b"->"],
    anonymous: &ANONYMOUS,
    escape_lines: Some(escapes::escape_lines),
    ..Lang::new(
        Language::Java,
        "java",
        || tree_sitter_java::LANGUAGE.into(),
        role_of,
        opaque_of,
        declare,
    )
};

/// A field's declarator (in a class, or a constant of an interface or annotation type)
/// is the scope of what its initializer holds; a local variable's is not.
static BINDERS: [Binder; 1] = [Binder {
    kind: "variable_declarator",
    name_field: Some("name"),
    fixed_name: "",
    value_field: "value",
    within: &["field_declaration", "constant_declaration"],
    scopes_any_value: true,
}];

static BINDINGS: Bindings = Bindings {
    binders: &BINDERS,
    functions: &[],
    types: &[],
    scopes: &[],
    calls: &[],
    wrappers: &[],
    name_of: |node, src| Some(text(node, src).to_string()).filter(|n| !n.is_empty()),
};

/// Lambdas (docs/src/reference/measurement.md#anonymous-functions): named by a declarator or
/// an assignment that holds one directly, else by the call they are passed to
/// (`router.get("/x")`, `new Thread()`), an enum constant's arguments by the constant
/// (`PLUS()`).
static ANONYMOUS: Anonymous = Anonymous {
    functions: &["lambda_expression"],
    bodies: &[],
    wrappers: &["parenthesized_expression", "cast_expression"],
    calls: &[
        Call {
            kind: "method_invocation",
            callee_from: None,
            arguments: "arguments",
            prefix: "",
        },
        Call {
            kind: "object_creation_expression",
            callee_from: Some("type"),
            arguments: "arguments",
            prefix: "new ",
        },
        Call {
            kind: "explicit_constructor_invocation",
            callee_from: None,
            arguments: "arguments",
            prefix: "",
        },
        Call {
            kind: "enum_constant",
            callee_from: Some("name"),
            arguments: "arguments",
            prefix: "",
        },
    ],
    binders: &[
        AnonBinder {
            kind: "variable_declarator",
            name: "name",
            value: Some("value"),
        },
        AnonBinder {
            kind: "assignment_expression",
            name: "left",
            value: Some("right"),
        },
    ],
    value_list: None,
    strings: &["string_literal"],
    interpolations: &["string_interpolation"],
    call_statements: &[],
    entry_scope: None,
    comments: &["line_comment", "block_comment"],
};

const FUNCTIONS: [&str; 4] = [
    "method_declaration",
    "constructor_declaration",
    "compact_constructor_declaration",
    "annotation_type_element_declaration",
];

const TYPES: [&str; 5] = [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
];

/// Every Java declaration that holds a unit is written with braces (a class body, a
/// method body, an enum constant's body): every kind is opaque but the file and the
/// declarations after an enum's constants, which may be bodiless methods without a
/// brace of their own (`abstract Parser newParser();`).
fn opaque_of(kind: &str) -> bool {
    !matches!(kind, "program" | "enum_body_declarations")
}

fn role_of(kind: &str) -> Role {
    if FUNCTIONS.contains(&kind) || TYPES.contains(&kind) || kind == "enum_constant" {
        Role::Decl
    } else if matches!(kind, "line_comment" | "block_comment") {
        Role::Comment
    } else {
        Role::Other
    }
}

/// A unit named by its `name`, also the scope of what it holds; an enum constant is a
/// scope only.
fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    let name = text(node.child_by_field_name("name")?, src).to_string();
    if name.is_empty() {
        return None;
    }
    let kind = node.kind();
    let unit_kind = if FUNCTIONS.contains(&kind) {
        UnitKind::Function
    } else if TYPES.contains(&kind) {
        UnitKind::Type
    } else {
        return Some(Decl {
            unit: None,
            scope: Some(name),
        });
    };
    Some(Decl::unit(unit_kind, name))
}

/// The path rule that leaves a Java file out (docs/src/reference/languages.md): directories named `test` or
/// `tests` in any case (Maven's and Gradle's `src/test/`).
pub fn left_out(dirs: &[&str], _file: &str) -> Option<LeftOutReason> {
    dirs.iter()
        .find(|dir| dir.eq_ignore_ascii_case("test") || dir.eq_ignore_ascii_case("tests"))
        .map(|dir| LeftOutReason::TestPath(format!("test directory \"{dir}\"")))
}

#[cfg(test)]
mod tests;
