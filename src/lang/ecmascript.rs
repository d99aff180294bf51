//! What TypeScript and JavaScript share for the measurer (stage 2, docs/src/reference/languages.md): the
//! function and class kinds, the bindings (declarators, fields, properties, assignments,
//! `export default`), how a unit is named, and the test and generated paths left out.
//! `typescript.rs` and `javascript.rs` pick from these.

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{collapse_whitespace, text, Anonymous, Binder, Bindings, Call, Decl, Lang, Role};
use crate::model::{Language, LeftOutReason, UnitKind};

/// A language of the family as data for the generic walk, from its grammar, bindings,
/// roles and naming: `=>` marks a unit as `{` does (`const f = x => x`), a unit starts at
/// its `export`, `declare` or lone declarator's keyword, and lines (and `//` comments)
/// end at U+2028 and U+2029 too, as ECMAScript ends them.
pub const fn lang(
    language: Language,
    name: &'static str,
    grammar: fn() -> tree_sitter::Language,
    bindings: &'static Bindings,
    role_of: fn(&str) -> Role,
    declare: fn(Node, &[u8]) -> Option<Decl>,
) -> Lang {
    Lang {
        unit_marks: &[b"{", b"=>"],
        span_parents: &SPAN_PARENTS,
        bindings,
        anonymous: &ANONYMOUS,
        line_separators: &['\u{2028}', '\u{2029}'],
        ..Lang::new(language, name, grammar, role_of, opaque_of, declare)
    }
}

/// The project file of both languages: `package.json`, its code in `src` where there is
/// one.
pub static PROJECT_FILES: [ProjectFile; 1] = [ProjectFile {
    name: "package.json",
    code: Code::Under("src"),
}];

/// Function units of both languages. A function or class expression is a unit by its own
/// name only where nothing binds it (the walk asks only then).
pub const FUNCTIONS: [&str; 5] = [
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "function_expression",
    "generator_function",
];

/// Values a binding makes a function unit.
pub const FUNCTION_VALUES: [&str; 3] = [
    "arrow_function",
    "function_expression",
    "generator_function",
];

/// Anonymous functions of both languages (docs/src/reference/measurement.md#anonymous-functions):
/// a bound one is claimed by its binding first (`const handler = async () => {...}`), so
/// what is left is named by the call it is passed to (`app.post("/orders")`, `new
/// Promise()`), `<iife>`, or `<anonymous>`.
static ANONYMOUS: Anonymous = Anonymous {
    functions: &FUNCTION_VALUES,
    bodies: &[],
    wrappers: &[
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
    ],
    calls: &[
        Call {
            kind: "call_expression",
            callee_from: None,
            arguments: "arguments",
            prefix: "",
        },
        Call {
            kind: "new_expression",
            callee_from: Some("constructor"),
            arguments: "arguments",
            prefix: "new ",
        },
    ],
    binders: &[],
    value_list: None,
    strings: &["string", "template_string"],
    interpolations: &["template_substitution"],
    call_statements: &[],
    entry_scope: None,
    comments: &["comment", "html_comment"],
};

/// Where a unit starts at its parent: `export`, `declare`, and `const`/`let`/`var` of a
/// statement's only declarator.
const SPAN_PARENTS: [&str; 4] = [
    "export_statement",
    "ambient_declaration",
    "lexical_declaration",
    "variable_declaration",
];

/// The binders common to both languages; each adds its class field.
pub const fn binders(field: Binder) -> [Binder; 5] {
    [
        binder("variable_declarator", "name", "value"),
        field,
        binder("pair", "key", "value"),
        binder("assignment_expression", "left", "right"),
        Binder {
            kind: "export_statement",
            name_field: None,
            fixed_name: "default",
            value_field: "value",
            within: &[],
            scopes_any_value: false,
        },
    ]
}

/// A binder whose name and value are fields.
pub const fn binder(kind: &'static str, name: &'static str, value: &'static str) -> Binder {
    Binder {
        kind,
        name_field: Some(name),
        fixed_name: "",
        value_field: value,
        within: &[],
        scopes_any_value: false,
    }
}

/// Statements and lists that never hold a unit without a `{` or an `=`; expressions
/// (`*_expression`) are opaque too.
const OPAQUE: [&str; 13] = [
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "return_statement",
    "throw_statement",
    "import_statement",
    "formal_parameters",
    "arguments",
    "type_annotation",
    "type_arguments",
    "type_parameters",
    "template_string",
    "string",
];

fn opaque_of(kind: &str) -> bool {
    kind.ends_with("_expression") || OPAQUE.contains(&kind)
}

/// The role of a kind given the language's function and type units.
pub fn role_of(kind: &str, functions: &[&str], types: &[&str]) -> Role {
    if functions.contains(&kind) || types.contains(&kind) {
        Role::Decl
    } else {
        match kind {
            "decorator" => Role::Decorator,
            "comment" | "html_comment" => Role::Comment,
            _ => Role::Other,
        }
    }
}

/// The unit a declaration node is, given the language's type kinds; each unit is also
/// the scope of what it holds. `None` for an anonymous function or class expression and
/// for a method signature of a type literal (`type P = { onClick?(): void }`).
pub fn declare(node: Node, src: &[u8], types: &[&str]) -> Option<Decl> {
    let kind = node.kind();
    let (unit_kind, name) = if types.contains(&kind) {
        (
            UnitKind::Type,
            name_of(node.child_by_field_name("name")?, src)?,
        )
    } else {
        (UnitKind::Function, function_name(node, src)?)
    };
    Some(Decl::unit(unit_kind, name))
}

fn function_name(node: Node, src: &[u8]) -> Option<String> {
    match node.kind() {
        "method_signature" => {
            let parent = node.parent()?.kind();
            if !matches!(parent, "interface_body" | "class_body") {
                return None;
            }
            method_name(node, src)
        }
        "method_definition" | "abstract_method_signature" => method_name(node, src),
        _ => name_of(node.child_by_field_name("name")?, src),
    }
}

/// A method's name, `get value` and `set value` keeping the accessor's keyword.
fn method_name(node: Node, src: &[u8]) -> Option<String> {
    let name = node.child_by_field_name("name")?;
    let mut cursor = node.walk();
    let accessor = node
        .children(&mut cursor)
        .take_while(|c| c.id() != name.id())
        .find(|c| !c.is_named() && matches!(c.kind(), "get" | "set"));
    let own = name_of(name, src)?;
    Some(match accessor {
        Some(keyword) => format!("{} {own}", keyword.kind()),
        None => own,
    })
}

/// The name a name, key or left-hand side gives: a string key its value
/// (`"Program:exit"` is `Program:exit`; the empty key `""` as written, so its function is
/// still a unit), anything else as written, whitespace collapsed (`[Symbol.iterator]`,
/// `module.exports.load`, `#secret`). A destructuring pattern names no single thing.
pub fn name_of(node: Node, src: &[u8]) -> Option<String> {
    let written = text(node, src);
    let name = match node.kind() {
        "object_pattern" | "array_pattern" => return None,
        "string" => match written.get(1..written.len().saturating_sub(1)) {
            Some(value) if !value.is_empty() => value.to_string(),
            _ => written.to_string(),
        },
        _ => collapse_whitespace(written),
    };
    Some(name).filter(|n| !n.is_empty())
}

/// The path rule that leaves a TypeScript or JavaScript file out (docs/src/reference/languages.md): test, mock
/// and dependency directories, test and spec files, declaration files, minified files.
pub fn left_out(dirs: &[&str], file: &str) -> Option<LeftOutReason> {
    let dir = dirs.iter().find_map(|dir| {
        let lower = dir.to_ascii_lowercase();
        match lower.as_str() {
            "__tests__" | "test" | "tests" => Some(format!("test directory \"{dir}\"")),
            "__mocks__" => Some(format!("mocks directory \"{dir}\"")),
            _ if *dir == "node_modules" => Some("dependency directory \"node_modules\"".into()),
            _ => None,
        }
    });
    if let Some(why) = dir {
        return Some(LeftOutReason::TestPath(why));
    }
    if let Some(mark) = [".test.", ".spec."].into_iter().find(|m| file.contains(m)) {
        return Some(LeftOutReason::TestPath(format!("test file name ({mark})")));
    }
    if let Some(suffix) = [".d.ts", ".d.mts", ".d.cts"]
        .into_iter()
        .find(|s| file.ends_with(s))
    {
        let why = format!("declaration file ({suffix})");
        return Some(LeftOutReason::GeneratedName(why));
    }
    file.ends_with(".min.js")
        .then(|| LeftOutReason::GeneratedName("minified file (.min.js)".into()))
}

#[cfg(test)]
mod tests;
