//! One record per language (stage 2 of the pipeline, docs/src/reference/languages.md,
//! docs/src/reference/measurement.md), each in its own file: its names, extensions and
//! path rule, `init`'s project files ([`Record`]), and its grammar's node kinds and naming
//! ([`Lang`]). The list of languages is written once, in `lang/languages.rs`
//! (docs/dev/adding-a-language.md). The walk in `crate::measure` is generic over
//! [`Lang`], and reads the [`Bindings`] and parent spans a language declares as data.

mod anonymous;
mod binding;
mod ecmascript;
pub mod project;
mod record;

/// Declares each language's module and [`Language::record`] from the list in
/// src/lang/languages.rs.
macro_rules! languages {
    ($($variant:ident => $module:ident,)*) => {
        $(pub mod $module;)*

        impl Language {
            /// Everything structgate knows of the language: its record, in its own file.
            pub fn record(self) -> &'static Record {
                match self {
                    $(Language::$variant => &$module::RECORD,)*
                }
            }
        }
    };
}

include!("lang/languages.rs");

use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use tree_sitter::{Node, Point};

use crate::model::{Language, UnitKind};

pub use anonymous::{AnonBinder, AnonName, Anonymous, Call, NO_ANONYMOUS};
pub use binding::{Binder, Bindings, Bound, NO_BINDINGS};
pub use record::{nothing_left_out, Record};

/// Every grammar structgate parses with, in the order of [`Language::ALL`], each
/// language's dialects after its grammar (TypeScript's TSX).
pub fn grammars() -> impl Iterator<Item = &'static Lang> {
    Language::ALL.into_iter().flat_map(|language| {
        let record = language.record();
        record
            .grammar
            .into_iter()
            .chain(record.dialects.iter().map(|(_, lang)| *lang))
    })
}

/// What a node kind means to the generic walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Nothing to the walk; its children are still visited.
    Other,
    /// A declaration that may be a unit or a naming scope: ask [`Lang::declare`].
    Decl,
    /// Another item: no unit, but it can carry a test attribute (Rust `use`, `const`, ...).
    Item,
    /// An outer attribute written as a sibling before its item (Rust `#[...]`).
    Attribute,
    /// A decorator: where it is a sibling before its declaration (TypeScript's `@Input()`
    /// in a class body, `@Component(...)` before `export class`) the unit starts at it,
    /// as at an attribute; what it holds is walked as code, named inside the
    /// declaration it decorates (docs/src/reference/languages.md).
    Decorator,
    /// A node that binds a name to a value (see [`Binder`]): a unit or scope when its
    /// value is one of the [`Bindings`] kinds.
    Binding,
    /// A comment: it neither joins nor breaks a run of attributes.
    Comment,
}

/// What a node kind means to a language's entry point (see [`EntryPoint`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryRole {
    /// Nothing.
    None,
    /// A statement: before the first [`EntryRole::End`], it is top-level code.
    Statement,
    /// A declaration (a type, a namespace) after which no statement is top-level code.
    End,
}

/// What the walk knows of a node kind, looked up by kind id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    pub role: Role,
    /// A statement, expression or list that never holds a declaration without braces:
    /// without one of the language's [`Lang::unit_marks`] inside it, the walk need not
    /// enter it.
    pub opaque: bool,
    /// The binder of a [`Role::Binding`] kind.
    pub binder: Option<&'static Binder>,
    pub entry: EntryRole,
    /// An anonymous function kind ([`Anonymous::functions`]): a unit when it spans two or
    /// more lines and nothing else made it one.
    pub anonymous: bool,
}

/// Code written outside every declaration that forms one function unit of its own: C#
/// top-level statements, which the compiler makes into a method named `<Main>$`
/// (docs/src/reference/measurement.md). The unit runs from the first statement to the end
/// of the last top-level one before the first [`EntryRole::End`] node (the walk visits
/// nodes in source order, and a statement nested in another ends within it); it is no
/// scope, so a function among the statements is named by its own name.
pub struct EntryPoint {
    pub name: &'static str,
    /// The role of a node kind, by its name in the grammar.
    pub role_of: fn(&str) -> EntryRole,
}

/// A unit found at a node: its kind and the last segment of its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitDecl {
    pub kind: UnitKind,
    /// The unit's own segment: `Calculate`, `operator +`, `impl Iterator for Parser`.
    pub name: String,
    /// Counts toward `types_per_file` (type declarations; Rust `impl` blocks do not).
    pub counts_as_type: bool,
}

/// What a declaration node contributes: a unit, a naming scope for what it holds, or both.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decl {
    pub unit: Option<UnitDecl>,
    /// The segment that names what the node holds: `Parser`, `<Parser as Iterator>`.
    pub scope: Option<String>,
}

impl Decl {
    /// A unit of `kind` that is also the scope of what it holds, by the same name; a type
    /// unit counts toward `types_per_file`.
    pub fn unit(kind: UnitKind, name: String) -> Decl {
        Decl {
            scope: Some(name.clone()),
            unit: Some(UnitDecl {
                kind,
                name,
                counts_as_type: kind == UnitKind::Type,
            }),
        }
    }
}

/// A language's generated-file marker in a file's text: the marker as shown in a
/// reason and its 1-based line.
pub type GeneratedMarker = fn(&str) -> Option<(&'static str, usize)>;

/// A range of a file's bytes, `(from, to)`, `to` not included.
pub type ByteRange = (usize, usize);

/// A measured language as data: its grammar, its roles by node kind and its naming.
pub struct Lang {
    pub language: Language,
    /// The grammar's name in messages (`tsx` for TypeScript's TSX dialect).
    pub name: &'static str,
    pub grammar: fn() -> tree_sitter::Language,
    /// Joins scopes and the unit's own segment: `.` in C#, `::` in Rust.
    pub separator: &'static str,
    /// Byte strings of which an opaque node's text holds at least one when something
    /// inside it may be a unit: `{` (every declaration that holds another has braces), and
    /// in TypeScript and JavaScript `=>` too (`const f = x => x` binds a function; every
    /// other bound value has braces).
    pub unit_marks: &'static [&'static [u8]],
    /// Parent kinds a unit starts at when it is their only named child of its kind:
    /// `export_statement` (`export class`, and the decorators before it), a
    /// `lexical_declaration` of one declarator (`const f = ...` starts at `const`).
    /// Applied again from the parent up.
    pub span_parents: &'static [&'static str],
    /// Anonymous tokens that make a span parent holding one a group, whose children
    /// start where they stand: Go's `type (...)`, where a lone `type X struct{}` starts
    /// at `type`.
    pub span_groups: &'static [&'static str],
    /// A unit ends where its last token that is no comment ends, not where its node
    /// does: Python's grammar runs a block over the comment lines after its last
    /// statement, which the language's own parser (`ast`) leaves out.
    pub ends_at_code: bool,
    /// The kinds that bind a name to a function, class or object literal.
    pub bindings: &'static Bindings,
    /// The anonymous functions that are units and what names them
    /// (docs/src/reference/measurement.md#anonymous-functions).
    pub anonymous: &'static Anonymous,
    /// The role of a node kind, by its name in the grammar.
    pub role_of: fn(&str) -> Role,
    /// Whether a node kind is opaque (see [`KindInfo::opaque`]), by its name.
    pub opaque_of: fn(&str) -> bool,
    /// The unit and scope of a node whose role is [`Role::Decl`].
    pub declare: fn(Node, &[u8]) -> Option<Decl>,
    /// Whether an attribute node leaves its item out as test code (Rust `#[cfg(test)]`).
    pub is_test_attribute: fn(Node, &[u8]) -> bool,
    /// Characters that end a line besides `\n`, `\r\n` and a lone `\r` (C#: U+0085,
    /// U+2028, U+2029, as the compiler reads them).
    pub line_separators: &'static [char],
    /// Byte ranges of a file's text that the parser must see as spaces: text the compiler
    /// never reads as code but the grammar would (C# directive messages).
    pub blanked_ranges: Option<fn(&str) -> Vec<ByteRange>>,
    /// The index, among a comment's lines, of one the compiler may read as a directive
    /// (C# `#endif` inside a block comment): the compiler and the grammar may see
    /// different code around it.
    pub comment_directive_line: Option<fn(&str) -> Option<usize>>,
    /// The lines of a file's parser text where the compiler reads a comment or literal
    /// delimiter that the grammar does not (Java Unicode escapes): the compiler and the
    /// grammar may see different code after it.
    pub escape_lines: Option<fn(&str) -> Vec<u32>>,
    /// Top-level code that is a unit of its own, if the language has any.
    pub entry_point: Option<EntryPoint>,
    /// The language's own generated-file marker, beside docs/src/reference/measurement.md's header rule: the marker as
    /// shown and its 1-based line in a file's text, if the file carries it (Go's
    /// `// Code generated ... DO NOT EDIT.` before `package`, as `ast.IsGenerated` reads
    /// it).
    pub generated_marker: Option<GeneratedMarker>,
    /// The walk's table of node kinds, built on first use. Never dropped (every `Lang`
    /// is a static), which lets [`Lang::new`] be the const base of struct-update syntax.
    kinds: ManuallyDrop<OnceLock<Vec<KindInfo>>>,
}

impl Lang {
    /// A language from what every language has of its own — its grammar, roles and
    /// naming — and the common defaults for the rest: scopes joined with `.`, `{` the only
    /// unit mark, no span parents or groups, no bindings, test attributes, line
    /// separators beyond `\n` and `\r`, blanked text, entry point or marker of its own.
    /// A language file states only what differs, with struct-update syntax:
    /// `Lang { separator: "::", ..Lang::new(...) }`.
    pub const fn new(
        language: Language,
        name: &'static str,
        grammar: fn() -> tree_sitter::Language,
        role_of: fn(&str) -> Role,
        opaque_of: fn(&str) -> bool,
        declare: fn(Node, &[u8]) -> Option<Decl>,
    ) -> Lang {
        Lang {
            language,
            name,
            grammar,
            separator: ".",
            unit_marks: &[b"{"],
            span_parents: &[],
            span_groups: &[],
            ends_at_code: false,
            bindings: &NO_BINDINGS,
            anonymous: &NO_ANONYMOUS,
            role_of,
            opaque_of,
            declare,
            is_test_attribute: |_, _| false,
            line_separators: &[],
            blanked_ranges: None,
            comment_directive_line: None,
            escape_lines: None,
            entry_point: None,
            generated_marker: None,
            kinds: ManuallyDrop::new(OnceLock::new()),
        }
    }

    /// The grammar and naming of `language`; `None` for Markdown, which has no units.
    pub fn of(language: Language) -> Option<&'static Lang> {
        language.record().grammar
    }

    /// The grammar a file is parsed with: its language's, or the dialect its extension
    /// names (TSX for `.tsx`).
    pub fn for_path(path: &str) -> Option<&'static Lang> {
        let record = Language::of_path(path)?.record();
        let dialect = path.rsplit_once('.').and_then(|(_, ext)| {
            record
                .dialects
                .iter()
                .find(|(known, _)| ext.eq_ignore_ascii_case(known))
        });
        match dialect {
            Some((_, lang)) => Some(*lang),
            None => record.grammar,
        }
    }

    /// The grammar's place in [`grammars`]: one language may be parsed with two grammars
    /// (`.ts` and `.tsx`), so what depends on the parse is keyed by this.
    pub fn grammar_id(&self) -> u8 {
        grammars()
            .position(|l| std::ptr::eq(l, self))
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(u8::MAX)
    }

    /// The role of a node, looked up by its kind id in a table built once.
    pub fn role(&self, node: Node) -> Role {
        self.kind(node).role
    }

    /// What the walk knows of a node's kind; an anonymous node is [`Role::Other`] and
    /// opaque.
    pub fn kind(&self, node: Node) -> KindInfo {
        self.kind_named(node, node.is_named())
    }

    /// [`Lang::kind`] of a node whose [`Node::is_named`] the caller asked already.
    pub fn kind_named(&self, node: Node, is_named: bool) -> KindInfo {
        const ANONYMOUS: KindInfo = KindInfo {
            role: Role::Other,
            opaque: true,
            entry: EntryRole::None,
            binder: None,
            anonymous: false,
        };
        if !is_named {
            return ANONYMOUS;
        }
        let table = self.kinds.get_or_init(|| self.kind_table());
        table
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(KindInfo {
                role: Role::Other,
                opaque: false,
                entry: EntryRole::None,
                binder: None,
                anonymous: false,
            })
    }

    fn kind_table(&self) -> Vec<KindInfo> {
        let grammar = (self.grammar)();
        let count = grammar.node_kind_count();
        (0..count)
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match grammar.node_kind_for_id(id) {
                    Some(kind) if grammar.node_kind_is_named(id) => self.kind_info(kind),
                    _ => KindInfo {
                        role: Role::Other,
                        opaque: true,
                        entry: EntryRole::None,
                        binder: None,
                        anonymous: false,
                    },
                }
            })
            .collect()
    }
}

impl Lang {
    /// A named kind's info: a binder's role is [`Role::Binding`] unless the language
    /// gives the kind a role of its own.
    fn kind_info(&self, kind: &str) -> KindInfo {
        let binder = self.bindings.binders.iter().find(|b| b.kind == kind);
        let role = match (self.role_of)(kind) {
            Role::Other if binder.is_some() => Role::Binding,
            role => role,
        };
        KindInfo {
            role,
            opaque: (self.opaque_of)(kind),
            binder: binder.filter(|_| role == Role::Binding),
            entry: self
                .entry_point
                .as_ref()
                .map_or(EntryRole::None, |e| (e.role_of)(kind)),
            anonymous: self.anonymous.functions.contains(&kind),
        }
    }
}

/// The text of a node, or `""` when its bytes are not UTF-8 (never for checked input).
pub fn text<'a>(node: Node, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

/// `text` with every run of whitespace collapsed to one space, trimmed.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The 1-based line a node starts on.
pub fn start_line(point: Point) -> u32 {
    u32::try_from(point.row).unwrap_or(u32::MAX - 1) + 1
}

/// The 1-based line a node ends on. A node that ends at column 0 of a later line (its
/// text ends with a line break) ends on the line before.
pub fn end_line(start: Point, end: Point) -> u32 {
    let row = if end.column == 0 && end.row > start.row {
        end.row - 1
    } else {
        end.row
    };
    u32::try_from(row).unwrap_or(u32::MAX - 1) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(row: usize, column: usize) -> Point {
        Point { row, column }
    }

    #[test]
    fn end_line_steps_back_over_a_final_line_break() {
        assert_eq!(end_line(at(2, 4), at(5, 0)), 5);
        assert_eq!(end_line(at(2, 4), at(5, 1)), 6);
        assert_eq!(end_line(at(5, 0), at(5, 0)), 6);
        assert_eq!(start_line(at(0, 7)), 1);
    }

    #[test]
    fn whitespace_collapses_to_single_spaces() {
        assert_eq!(collapse_whitespace("  bool \r\n\t ?  "), "bool ?");
        assert_eq!(collapse_whitespace("List<int>"), "List<int>");
    }
}
