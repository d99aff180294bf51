//! Python for the measurer (stage 2, docs/src/reference/languages.md): `.py`. `def` and `async def` at any depth
//! are function units, `class` is a type unit, each a scope joined with `.`
//! (`Outer.Inner.run`, `outer.inner`). A unit starts at its first decorator and ends at
//! its last statement, as Python's own parser (`ast`) spans it; a lambda spanning two or
//! more lines is a function unit too.

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{AnonBinder, Anonymous, Call, Decl, Lang, Record, Role, text};
use crate::model::{Language, LeftOutReason, UnitKind};

/// Python: `.py` files, parsed with [`PYTHON`].
pub static RECORD: Record = Record {
    name: "Python",
    key: "python",
    extensions: &["py"],
    grammar: Some(&PYTHON),
    dialects: &[],
    left_out,
    project_files: &[
        ProjectFile {
            name: "pyproject.toml",
            code: Code::Under("src"),
        },
        ProjectFile {
            name: "setup.py",
            code: Code::Under("src"),
        },
    ],
};

/// Python as data for the generic walk.
pub static PYTHON: Lang = Lang {
    // No simple statement or expression holds a `def` or a `class`; one may hold a
    // lambda.
    unit_marks: &[b"lambda"],
    anonymous: &ANONYMOUS,
    // `decorated_definition` holds the decorators and the definition: the unit starts at
    // the first decorator, whatever comments stand between them.
    span_parents: &["decorated_definition"],
    // The grammar's block runs over the comment lines after its last statement.
    ends_at_code: true,
    ..Lang::new(
        Language::Python,
        "python",
        || tree_sitter_python::LANGUAGE.into(),
        role_of,
        opaque_of,
        declare,
    )
};

/// Lambdas (docs/src/reference/measurement.md#anonymous-functions): named by an assignment
/// that holds one directly, else by the call they are passed to, a keyword argument
/// included (`sorted(xs, key=lambda ...)` is `sorted()`).
static ANONYMOUS: Anonymous = Anonymous {
    functions: &["lambda"],
    bodies: &[],
    wrappers: &["parenthesized_expression", "keyword_argument"],
    calls: &[Call {
        kind: "call",
        callee_from: None,
        arguments: "arguments",
        prefix: "",
    }],
    binders: &[
        AnonBinder {
            kind: "assignment",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "augmented_assignment",
            name: "left",
            value: Some("right"),
        },
    ],
    value_list: None,
    strings: &["string"],
    interpolations: &["interpolation"],
    call_statements: &[],
    entry_scope: None,
    comments: &["comment"],
};

/// The kinds that may hold a `def` or a `class`: the module, blocks, compound statements
/// and their clauses. Every other kind is opaque.
const CONTAINERS: [&str; 17] = [
    "module",
    "block",
    "function_definition",
    "class_definition",
    "decorated_definition",
    "if_statement",
    "elif_clause",
    "else_clause",
    "for_statement",
    "while_statement",
    "try_statement",
    "except_clause",
    "except_group_clause",
    "finally_clause",
    "with_statement",
    "match_statement",
    "case_clause",
];

fn opaque_of(kind: &str) -> bool {
    !CONTAINERS.contains(&kind)
}

fn role_of(kind: &str) -> Role {
    match kind {
        "function_definition" | "class_definition" => Role::Decl,
        "comment" => Role::Comment,
        _ => Role::Other,
    }
}

/// A function or class, named by its `name`, also the scope of what it holds.
fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    let kind = match node.kind() {
        "class_definition" => UnitKind::Type,
        _ => UnitKind::Function,
    };
    let name = text(node.child_by_field_name("name")?, src).to_string();
    if name.is_empty() {
        return None;
    }
    Some(Decl::unit(kind, name))
}

/// The path rule that leaves a Python file out (docs/src/reference/languages.md): `test`, `tests` and
/// `migrations` directories in any case; `test_*.py`, `*_test.py`, `conftest.py` and
/// protobuf's `*_pb2.py`, `*_pb2_grpc.py`, the name case-sensitive and the extension
/// in any case, as every extension is.
pub fn left_out(dirs: &[&str], file: &str) -> Option<LeftOutReason> {
    let dir = dirs
        .iter()
        .find_map(|dir| match dir.to_ascii_lowercase().as_str() {
            "test" | "tests" => Some(format!("test directory \"{dir}\"")),
            "migrations" => Some(format!("migrations directory \"{dir}\"")),
            _ => None,
        });
    if let Some(why) = dir {
        return Some(LeftOutReason::TestPath(why));
    }
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    if stem.starts_with("test_") {
        return Some(LeftOutReason::TestPath("test file name (test_*.py)".into()));
    }
    if stem.ends_with("_test") {
        return Some(LeftOutReason::TestPath("test file name (*_test.py)".into()));
    }
    if stem == "conftest" {
        return Some(LeftOutReason::TestPath(
            "test file name (conftest.py)".into(),
        ));
    }
    ["_pb2", "_pb2_grpc"]
        .into_iter()
        .find(|suffix| stem.ends_with(suffix))
        .map(|suffix| LeftOutReason::GeneratedName(format!("protobuf output (*{suffix}.py)")))
}

#[cfg(test)]
mod tests;
