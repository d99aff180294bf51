//! The one generic walk of the measurer (stage 2): a pre-order, non-recursive
//! `TreeCursor` walk over a parsed file that turns declaration nodes into [`Unit`]s with
//! scoped names, counts types, finds Rust test items and syntax errors. Deep nesting
//! cannot overflow the stack: all state lives in vectors.
//!
//! The walk skips what cannot hold a unit: an opaque node (an expression, a simple
//! statement, a declaration, a parameter list: see `crate::lang::KindInfo`) whose text
//! has no `{` and no syntax error. Every declaration that holds another (a type, an
//! `impl`, a trait, a module, a function body, a lambda's block) is written with braces,
//! so such a subtree holds no unit, no scope and no attribute that applies to anything
//! inside it. In a file that parsed without errors, nodes are not asked whether they are
//! errors.

use tree_sitter::{Node, Point, Tree};

use super::NAME_BUDGET_BYTES;
use crate::lang::{end_line, start_line, EntryRole, Lang, Role};
use crate::model::Unit;

/// What one walk found in a file.
#[derive(Debug, Default)]
pub struct Walked {
    pub units: Vec<Unit>,
    /// Type declarations, nested ones included, Rust `impl` blocks not.
    pub types: u64,
    /// Line spans (1-based, inclusive) of items left out as test code.
    pub test_spans: Vec<(u32, u32)>,
    /// Lines of ERROR and MISSING nodes.
    pub error_lines: Vec<u32>,
    /// Lines inside block comments that begin with a preprocessor directive (C#), in
    /// source order.
    pub directive_lines: Vec<u32>,
    /// The unit names passed [`NAME_BUDGET_BYTES`]; the walk stopped there.
    pub names_over_budget: bool,
}

/// The outer attributes seen so far among one node's children, waiting for their item.
#[derive(Debug, Default)]
struct AttributeRun {
    start: Option<Point>,
    test: bool,
}

struct Scope {
    depth: usize,
    segment: String,
}

struct Walker<'a> {
    lang: &'a Lang,
    src: &'a [u8],
    /// False when the whole tree is free of ERROR and MISSING nodes.
    errors: bool,
    scopes: Vec<Scope>,
    /// One run per level of the cursor: the siblings being visited at that depth.
    runs: Vec<AttributeRun>,
    /// Bytes of unit names so far.
    name_bytes: usize,
    /// The span of the top-level statements seen so far (`crate::lang::EntryPoint`).
    entry: Option<(Point, Point)>,
    /// A node that ends the top-level statements was seen.
    entry_ended: bool,
    out: Walked,
}

/// Walks `tree` once and collects what SPEC §4 measures.
pub fn walk(lang: &Lang, tree: &Tree, src: &[u8]) -> Walked {
    let mut walker = Walker {
        lang,
        src,
        errors: tree.root_node().has_error(),
        scopes: Vec::new(),
        runs: vec![AttributeRun::default()],
        name_bytes: 0,
        entry: None,
        entry_ended: false,
        out: Walked::default(),
    };
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        if walker.out.names_over_budget {
            return walker.finish();
        }
        let descend = walker.enter(cursor.node(), depth);
        if descend && cursor.goto_first_child() {
            depth += 1;
            walker.runs.push(AttributeRun::default());
            continue;
        }
        loop {
            walker.leave(depth);
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return walker.finish();
            }
            walker.runs.pop();
            depth = depth.saturating_sub(1);
        }
    }
}

impl Walker<'_> {
    /// Visits a node; returns whether to descend into it.
    fn enter(&mut self, node: Node, depth: usize) -> bool {
        if self.errors && (node.is_error() || node.is_missing()) {
            self.out.error_lines.push(start_line(node.start_position()));
        }
        let kind = self.lang.kind(node);
        match kind.entry {
            EntryRole::None => {}
            EntryRole::Statement if self.entry_ended => {}
            EntryRole::Statement => {
                let start = self.entry.map_or(node.start_position(), |(start, _)| start);
                self.entry = Some((start, node.end_position()));
            }
            EntryRole::End => self.entry_ended = true,
        }
        let role = kind.role;
        match role {
            Role::Attribute => {
                let test = (self.lang.is_test_attribute)(node, self.src);
                let run = self.run();
                run.start = run.start.or(Some(node.start_position()));
                run.test |= test;
                return false;
            }
            Role::Comment => {
                self.check_comment(node);
                return false;
            }
            Role::Decl | Role::Item | Role::Other => {}
        }
        let run = std::mem::take(self.run());
        if !node.is_named() {
            return true;
        }
        let start = run.start.unwrap_or(node.start_position());
        if run.test && role != Role::Other {
            let span = (start_line(start), end_line(start, node.end_position()));
            self.out.test_spans.push(span);
            return false;
        }
        if role == Role::Decl {
            self.declare(node, depth, start);
        }
        !kind.opaque || self.may_hold_units(node)
    }

    /// Whether an opaque node's subtree may hold a unit, an error or a block comment the
    /// language checks: it has a `{`, an error or a `/*`.
    fn may_hold_units(&self, node: Node) -> bool {
        let bytes = self.src.get(node.start_byte()..node.end_byte());
        let checks_comments = self.lang.comment_directive_line.is_some();
        bytes.is_none_or(|b| {
            b.contains(&b'{') || (checks_comments && b.windows(2).any(|w| w == b"/*"))
        }) || (self.errors && node.has_error())
    }

    /// Records the line of a comment that begins with a directive, for a language that
    /// checks its comments.
    fn check_comment(&mut self, node: Node) {
        let Some(check) = self.lang.comment_directive_line else {
            return;
        };
        let text = crate::lang::text(node, self.src);
        if let Some(index) = check(text) {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let line = start_line(node.start_position()).saturating_add(index);
            self.out.directive_lines.push(line);
        }
    }

    fn declare(&mut self, node: Node, depth: usize, start: Point) {
        let Some(decl) = (self.lang.declare)(node, self.src) else {
            return;
        };
        if let Some(unit) = decl.unit {
            let mut name = String::new();
            for scope in &self.scopes {
                name.push_str(&scope.segment);
                name.push_str(self.lang.separator);
            }
            name.push_str(&unit.name);
            self.name_bytes = self.name_bytes.saturating_add(name.len());
            self.out.names_over_budget |= self.name_bytes > NAME_BUDGET_BYTES;
            self.out.types += u64::from(unit.counts_as_type);
            self.out.units.push(Unit {
                name,
                kind: unit.kind,
                start_line: start_line(start),
                end_line: end_line(start, node.end_position()),
            });
        }
        if let Some(segment) = decl.scope {
            self.scopes.push(Scope { depth, segment });
        }
    }

    /// The walk's findings, with the entry point's unit when there were top-level
    /// statements.
    fn finish(mut self) -> Walked {
        let entry = self.lang.entry_point.as_ref().zip(self.entry);
        if let Some((entry, (start, end))) = entry {
            self.out.units.push(Unit {
                name: entry.name.to_string(),
                kind: crate::model::UnitKind::Function,
                start_line: start_line(start),
                end_line: end_line(start, end),
            });
        }
        self.out
    }

    /// Leaves the node at `depth`: the scopes it opened close.
    fn leave(&mut self, depth: usize) {
        while self.scopes.last().is_some_and(|s| s.depth >= depth) {
            self.scopes.pop();
        }
    }

    fn run(&mut self) -> &mut AttributeRun {
        if self.runs.is_empty() {
            self.runs.push(AttributeRun::default());
        }
        let last = self.runs.len() - 1;
        &mut self.runs[last]
    }
}
