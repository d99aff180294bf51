//! Go for the measurer (stage 2, docs/src/reference/languages.md): `.go`. Functions, methods (named by their
//! receiver's base type: `func (p *Parser[T]) Next()` is `Parser.Next`) and interface
//! method specs are function units; a type spec or alias whose type is a struct or an
//! interface is a type unit, starting at `type` when its declaration is not a
//! parenthesised group. Function literals are no units; `//go:` directives are comments.
//! A file Go's `ast.IsGenerated` reads as generated is left out.

use tree_sitter::Node;

use super::project::{Code, ProjectFile};
use super::{AnonBinder, Anonymous, Call, Decl, Lang, Record, Role, text};
use crate::model::{Language, LeftOutReason, UnitKind};

/// Go: `.go` files, parsed with [`GO`].
pub static RECORD: Record = Record {
    name: "Go",
    key: "go",
    extensions: &["go"],
    grammar: Some(&GO),
    dialects: &[],
    left_out,
    project_files: &[ProjectFile {
        name: "go.mod",
        code: Code::Here,
    }],
};

/// Go as data for the generic walk.
pub static GO: Lang = Lang {
    // A lone `type X struct{}` starts at `type`; a spec of `type (...)` where it stands.
    span_parents: &["type_declaration"],
    span_groups: &["("],
    generated_marker: Some(generated_marker),
    anonymous: &ANONYMOUS,
    ..Lang::new(
        Language::Go,
        "go",
        || tree_sitter_go::LANGUAGE.into(),
        role_of,
        opaque_of,
        declare,
    )
};

/// Function literals (docs/src/reference/measurement.md#anonymous-functions): named by
/// `:=`, `=` (any operator), a `var` spec or a composite literal's key that holds one
/// directly (`RunE`), else by the call or conversion they are passed to (`g.Go()`,
/// `http.HandlerFunc()`); one called where it stands is `go func()`, `defer func()` or
/// `<iife>`.
static ANONYMOUS: Anonymous = Anonymous {
    functions: &["func_literal"],
    bodies: &[],
    wrappers: &["parenthesized_expression", "literal_element", "unary_expression"],
    calls: &[
        Call {
            kind: "call_expression",
            callee_from: None,
            arguments: "arguments",
            prefix: "",
        },
        Call {
            kind: "type_conversion_expression",
            callee_from: Some("type"),
            arguments: "operand",
            prefix: "",
        },
    ],
    binders: &[
        AnonBinder {
            kind: "short_var_declaration",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "assignment_statement",
            name: "left",
            value: Some("right"),
        },
        AnonBinder {
            kind: "var_spec",
            name: "name",
            value: Some("value"),
        },
        AnonBinder {
            kind: "keyed_element",
            name: "key",
            value: Some("value"),
        },
    ],
    value_list: Some("expression_list"),
    strings: &["interpreted_string_literal", "raw_string_literal"],
    interpolations: &[],
    call_statements: &[("go_statement", "go func()"), ("defer_statement", "defer func()")],
    entry_scope: None,
    comments: &["comment"],
};

/// Every Go declaration that holds a unit is written with braces (a body, a struct or
/// an interface), and a function without a body is a unit at its own node: every kind
/// but the file is opaque.
fn opaque_of(kind: &str) -> bool {
    kind != "source_file"
}

fn role_of(kind: &str) -> Role {
    match kind {
        "function_declaration"
        | "method_declaration"
        | "method_elem"
        | "type_spec"
        | "type_alias" => Role::Decl,
        "comment" => Role::Comment,
        _ => Role::Other,
    }
}

fn declare(node: Node, src: &[u8]) -> Option<Decl> {
    let name = text(node.child_by_field_name("name")?, src);
    let (kind, name) = match node.kind() {
        "type_spec" | "type_alias" => {
            let mut ty = node.child_by_field_name("type")?;
            while ty.kind() == "parenthesized_type" {
                ty = ty.named_child(0)?;
            }
            if !matches!(ty.kind(), "struct_type" | "interface_type") {
                return None;
            }
            (UnitKind::Type, name.to_string())
        }
        "method_declaration" => match receiver_type(node, src) {
            Some(receiver) => (UnitKind::Function, format!("{receiver}.{name}")),
            None => (UnitKind::Function, name.to_string()),
        },
        _ => (UnitKind::Function, name.to_string()),
    };
    if name.is_empty() {
        return None;
    }
    Some(Decl::unit(kind, name))
}

/// A method's receiver base type, without pointer, parentheses or type arguments:
/// `(p *Parser[T])` gives `Parser`.
fn receiver_type<'a>(node: Node, src: &'a [u8]) -> Option<&'a str> {
    let receiver = node.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let parameter = receiver
        .named_children(&mut cursor)
        .find(|c| c.kind() == "parameter_declaration")?;
    let mut ty = parameter.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" | "parenthesized_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            _ => break,
        };
    }
    Some(text(ty, src)).filter(|t| !t.is_empty())
}

/// The marker as a reason shows it.
const MARKER: &str = "// Code generated ... DO NOT EDIT.";

/// Go's generated-file marker, as `ast.IsGenerated` reads it: a line of a comment
/// before the `package` clause that starts `// Code generated ` and ends ` DO NOT EDIT.`
/// (a comment's `\r`s removed, as Go's scanner removes them). `None` when no comment
/// before `package` holds one, or no `package` clause follows the comments.
pub fn generated_marker(text: &str) -> Option<(&'static str, usize)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut found = None;
    loop {
        while bytes
            .get(at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            at += 1;
        }
        let rest = &bytes[at..];
        let end = if rest.starts_with(b"//") {
            rest.iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| at + n)
        } else if rest.starts_with(b"/*") {
            at + 2 + rest[2..].windows(2).position(|w| w == b"*/")? + 2
        } else {
            break;
        };
        if found.is_none() {
            found = marker_line(text, at, end);
        }
        at = end;
    }
    let clause = bytes[at..].starts_with(b"package")
        && !bytes
            .get(at + "package".len())
            .is_some_and(|&b| b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80);
    found
        .filter(|_| clause)
        .map(|offset| (MARKER, crate::lines::line_of(bytes, offset)))
}

/// The offset of the first line of the comment `text[from..to]` that is Go's marker.
fn marker_line(text: &str, from: usize, to: usize) -> Option<usize> {
    let comment = &text[from..to];
    let stripped = strip_cr(comment);
    let mut offset = from;
    let mut original = comment.split('\n');
    for line in stripped.split('\n') {
        let is_marker = line
            .strip_prefix("// Code generated ")
            .is_some_and(|rest| rest.ends_with(" DO NOT EDIT."));
        if is_marker {
            return Some(offset);
        }
        offset += original.next().map_or(0, str::len) + 1;
    }
    None
}

/// A comment's text without its `\r`s, as Go's scanner gives it (`stripCR`): in a
/// block comment a `\r` between `*` and `/` stays, so that it does not end the comment.
fn strip_cr(comment: &str) -> String {
    let block = comment.starts_with("/*");
    let bytes = comment.as_bytes();
    let mut out = String::with_capacity(comment.len());
    for (i, c) in comment.char_indices() {
        let keep = c != '\r'
            || (block && out.len() > 2 && out.ends_with('*') && bytes.get(i + 1) == Some(&b'/'));
        if keep {
            out.push(c);
        }
    }
    out
}

/// The path rule that leaves a Go file out (docs/src/reference/languages.md): `testdata` and `vendor`
/// directories (exact names) and `*_test.go` files.
pub fn left_out(dirs: &[&str], file: &str) -> Option<LeftOutReason> {
    let dir = dirs.iter().find_map(|dir| match *dir {
        "testdata" => Some(LeftOutReason::TestPath(
            "test data directory \"testdata\"".into(),
        )),
        "vendor" => Some(LeftOutReason::TestPath(
            "dependency directory \"vendor\"".into(),
        )),
        _ => None,
    });
    if dir.is_some() {
        return dir;
    }
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    stem.ends_with("_test")
        .then(|| LeftOutReason::TestPath("test file name (*_test.go)".into()))
}

#[cfg(test)]
mod tests;
