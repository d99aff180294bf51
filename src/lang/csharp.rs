//! C# for the measurer (stage 2): the declaration kinds that are units and their names
//! (docs/src/reference/measurement.md): enclosing types joined with `.`, no namespace, no generic parameters.
//! A declaration named by a reserved keyword is error recovery's guess (`#if` splitting
//! `else if (...) {...}` reads as a local function `if`), not a unit.

mod directives;

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{AnonBinder, Anonymous, Call, Decl, EntryPoint, EntryRole, Lang, Record, Role, collapse_whitespace, text};
use crate::model::{Language, LeftOutReason, UnitKind};

/// C#: `.cs` files, parsed with [`CSHARP`].
pub static RECORD: Record = Record {
    name: "C#",
    key: "csharp",
    extensions: &["cs"],
    grammar: Some(&CSHARP),
    dialects: &[],
    left_out,
    project_files: &[ProjectFile {
        name: "*.csproj",
        code: Code::Here,
    }],
};

/// C# as data for the generic walk.
pub static CSHARP: Lang = Lang {
    // `=>` too: a lambda whose body is an expression has no brace.
    unit_marks: &[b"{", b"=>"],
    anonymous: &ANONYMOUS,
    line_separators: &['\u{85}', '\u{2028}', '\u{2029}'],
    blanked_ranges: Some(directives::blanked_ranges),
    comment_directive_line: Some(directives::comment_directive_line),
    entry_point: Some(EntryPoint {
        name: "<Main>$",
        role_of: entry_role_of,
    }),
    ..Lang::new(
        Language::CSharp,
        "csharp",
        grammar,
        role_of,
        opaque_of,
        declare,
    )
};

/// Lambdas and anonymous methods (docs/src/reference/measurement.md#anonymous-functions):
/// named by a declarator, an assignment with any operator (`button.Click += ...`) or a
/// property initializer that holds one directly, else by the call they are passed to
/// (`app.MapGet("/todos")`, `Task.Run()`, `new Thread()`), inside `<Main>$` at the top
/// level.
static ANONYMOUS: Anonymous = Anonymous {
    functions: &["lambda_expression", "anonymous_method_expression"],
    bodies: &[],
    wrappers: &["parenthesized_expression", "cast_expression", "argument"],
    calls: &[
        Call {
            kind: "invocation_expression",
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
    ],
    binders: &[
        AnonBinder {
            kind: "variable_declarator",
            name: "name",
            value: None,
        },
        AnonBinder {
            kind: "assignment_expression",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "property_declaration",
            name: "name",
            value: Some("value"),
        },
    ],
    value_list: None,
    strings: &["string_literal", "verbatim_string_literal", "raw_string_literal"],
    interpolations: &[],
    call_statements: &[],
    entry_scope: Some(("global_statement", "<Main>$")),
    comments: &["comment"],
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_c_sharp::LANGUAGE.into()
}

const TYPES: [&str; 5] = [
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "record_declaration",
    "enum_declaration",
];

const FUNCTIONS: [&str; 9] = [
    "method_declaration",
    "constructor_declaration",
    "destructor_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
    "property_declaration",
    "indexer_declaration",
    "event_declaration",
    "local_function_statement",
];

/// C#'s reserved keywords: never a declaration's name (`@if` is, and stays as written).
#[rustfmt::skip]
const RESERVED: [&str; 77] = [
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked",
    "class", "const", "continue", "decimal", "default", "delegate", "do", "double", "else",
    "enum", "event", "explicit", "extern", "false", "finally", "fixed", "float", "for",
    "foreach", "goto", "if", "implicit", "in", "int", "interface", "internal", "is", "lock",
    "long", "namespace", "new", "null", "object", "operator", "out", "override", "params",
    "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed",
    "short", "sizeof", "stackalloc", "static", "string", "struct", "switch", "this",
    "throw", "true", "try", "typeof", "uint", "ulong", "unchecked", "unsafe", "ushort",
    "using", "virtual", "void", "volatile", "while",
];

/// Statements, members and lists that never hold a declaration without braces (unlike
/// `global_statement`, `labeled_statement`, `switch_section` or an `if` whose embedded
/// statement may be a local function). Expressions (`*_expression`) are opaque too.
const OPAQUE: [&str; 22] = [
    "expression_statement",
    "local_declaration_statement",
    "return_statement",
    "throw_statement",
    "break_statement",
    "continue_statement",
    "yield_statement",
    "goto_statement",
    "field_declaration",
    "event_field_declaration",
    "delegate_declaration",
    "enum_member_declaration",
    "using_directive",
    "attribute_list",
    "parameter_list",
    "argument_list",
    "bracketed_argument_list",
    "type_parameter_list",
    "type_argument_list",
    "type_parameter_constraints_clause",
    "base_list",
    "arrow_expression_clause",
];

fn opaque_of(kind: &str) -> bool {
    role_of(kind) == Role::Decl || kind.ends_with("_expression") || OPAQUE.contains(&kind)
}

/// Top-level statements (`global_statement`, or a bare statement inside a top-level `#if`)
/// end at the file's first type or namespace declaration: C# requires them to come
/// first, so a statement the grammar finds after one is error recovery. Before that
/// declaration, every statement in the file is top-level code or inside it.
fn entry_role_of(kind: &str) -> EntryRole {
    let ends = [
        "namespace_declaration",
        "file_scoped_namespace_declaration",
        "delegate_declaration",
    ];
    if TYPES.contains(&kind) || ends.contains(&kind) {
        EntryRole::End
    } else if kind.ends_with("_statement") || kind == "block" {
        EntryRole::Statement
    } else {
        EntryRole::None
    }
}

fn role_of(kind: &str) -> Role {
    if TYPES.contains(&kind) || FUNCTIONS.contains(&kind) {
        Role::Decl
    } else if kind == "comment" {
        Role::Comment
    } else {
        Role::Other
    }
}

/// The unit a C# declaration node is; each unit is also the scope of what it holds
/// (`Outer.Inner.Run`, `Job.Run.Retry`).
fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    if node
        .child_by_field_name("name")
        .is_some_and(|name| RESERVED.contains(&text(name, src)))
    {
        return None;
    }
    let kind = node.kind();
    let (unit_kind, name) = if TYPES.contains(&kind) {
        (UnitKind::Type, field_text(node, "name", src)?.to_string())
    } else {
        (UnitKind::Function, function_name(node, src)?)
    };
    Some(Decl::unit(unit_kind, name))
}

/// The own name of a function-like declaration; `None` for an event without accessors.
fn function_name(node: Node, src: &[u8]) -> Option<String> {
    match node.kind() {
        "destructor_declaration" => Some(format!("~{}", field_text(node, "name", src)?)),
        "operator_declaration" => {
            let token = field_text(node, "operator", src)?;
            Some(format!("operator {}{token}", checked(node)))
        }
        "conversion_operator_declaration" => conversion_name(node, src),
        "indexer_declaration" => Some("this[]".to_string()),
        "event_declaration" => {
            node.child_by_field_name("accessors")?;
            Some(field_text(node, "name", src)?.to_string())
        }
        _ => Some(field_text(node, "name", src)?.to_string()),
    }
}

/// `implicit operator decimal`, `explicit operator checked int`: the target type as
/// written, whitespace collapsed.
fn conversion_name(node: Node, src: &[u8]) -> Option<String> {
    let mut cursor = node.walk();
    let direction = node
        .children(&mut cursor)
        .find(|c| matches!(c.kind(), "implicit" | "explicit") && !c.is_named())?
        .kind();
    let target = collapse_whitespace(field_text(node, "type", src)?);
    Some(format!("{direction} operator {}{target}", checked(node)))
}

/// `"checked "` when the operator is declared `checked`, else `""`.
fn checked(node: Node) -> &'static str {
    let mut cursor = node.walk();
    let found = node
        .children(&mut cursor)
        .any(|c| c.kind() == "checked" && !c.is_named());
    if found {
        "checked "
    } else {
        ""
    }
}

fn field_text<'a>(node: Node, field: &str, src: &'a [u8]) -> Option<&'a str> {
    let child = node.child_by_field_name(field)?;
    Some(text(child, src)).filter(|t| !t.is_empty())
}

/// The path rule that leaves a C# file out (docs/src/reference/measurement.md): test and
/// migrations directories, generated file names.
fn left_out(dirs: &[&str], file: &str) -> Option<LeftOutReason> {
    test_dir(dirs).or_else(|| generated_name(file))
}

fn test_dir(dirs: &[&str]) -> Option<LeftOutReason> {
    dirs.iter().find_map(|dir| {
        if is_test_dir(dir) {
            Some(LeftOutReason::TestPath(format!("test directory \"{dir}\"")))
        } else if dir.eq_ignore_ascii_case("migrations") {
            Some(LeftOutReason::TestPath(format!(
                "migrations directory \"{dir}\""
            )))
        } else {
            None
        }
    })
}

/// `test`/`tests` in any case, a name ending in `Test`/`Tests`, or a dot-separated part
/// `Test`/`Tests` in any case (`Dapper.Tests.Performance`).
fn is_test_dir(dir: &str) -> bool {
    let is_test_word = |s: &str| s.eq_ignore_ascii_case("test") || s.eq_ignore_ascii_case("tests");
    is_test_word(dir)
        || dir.ends_with("Test")
        || dir.ends_with("Tests")
        || dir.split('.').any(is_test_word)
}

fn generated_name(file: &str) -> Option<LeftOutReason> {
    let lower = file.to_ascii_lowercase();
    [".g.cs", ".g.i.cs", ".Designer.cs"]
        .into_iter()
        .find(|suffix| lower.ends_with(&suffix.to_ascii_lowercase()))
        .map(|suffix| LeftOutReason::GeneratedName(format!("generated file name ({suffix})")))
}
