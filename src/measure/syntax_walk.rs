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
//! inside it (a language's `Lang::unit_marks` say which bytes; Python has none, since no
//! simple statement or expression holds a `def` or a `class`). In a file that parsed without errors, nodes are not asked whether they are
//! errors. A language that checks its block comments (C#, for directive lines inside
//! them) also enters an opaque node holding a `/*`. Whether a node holds a unit mark or
//! a `/*` is looked up in the file's marks, never by scanning the node's text, so a
//! deeply nested expression costs its size once, not once per level.
//!
//! What a language declares as data, the walk applies to every language alike: a binder
//! node makes the unit or scope its value calls for (`crate::lang::Bindings`) and claims
//! that value, whose own name gives way; a unit starts at a parent of one of
//! `Lang::span_parents` kinds whose only child of its kind it is, unless a
//! `Lang::span_groups` token makes the parent a group; a decorator is walked
//! inside the scope of the declaration it decorates; a unit of a language whose units end at their
//! code (`Lang::ends_at_code`) ends at its last token that is no comment.
//!
//! C# top-level statements form one more unit (`crate::lang::EntryPoint`), from the
//! first statement seen to the end of the last top-level one before the first type or
//! namespace.

use tree_sitter::{Node, Point, Tree, TreeCursor};

use super::shape::{self, Added};
use super::NAME_BUDGET_BYTES;
use crate::lang::{end_line, start_line, Binder, Decl, EntryRole, Lang, Role};
use crate::model::{Unit, UnitKind};
use marks::Marks;

mod marks;

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

pub(super) struct Scope {
    depth: usize,
    pub(super) segment: String,
    /// The scope of a unit, not of a naming scope alone.
    unit: bool,
}

pub(super) struct Walker<'a, 't> {
    lang: &'a Lang,
    src: &'a [u8],
    /// Every one of the language's unit marks (`{`, and `=>` in TypeScript and JavaScript) in the file.
    unit_marks: Marks,
    /// Every `/*` of the file, for a language that checks its block comments.
    comment_opens: Marks,
    /// False when the whole tree is free of ERROR and MISSING nodes.
    errors: bool,
    pub(super) scopes: Vec<Scope>,
    /// The node being visited at each depth, the root first.
    pub(super) path: Vec<Node<'t>>,
    /// Value nodes a binding claimed, with the binder's depth: not declared again.
    claimed: Vec<(usize, usize)>,
    /// One run per level of the cursor: the siblings being visited at that depth.
    runs: Vec<AttributeRun>,
    /// Bytes of unit names so far.
    name_bytes: usize,
    /// The span of the top-level statements seen so far (`crate::lang::EntryPoint`).
    entry: Option<(Point, Point)>,
    /// A node that ends the top-level statements was seen.
    entry_ended: bool,
    /// The file's root node.
    root: Node<'t>,
    /// Each function unit's index in `out.units` and the node that holds its code
    /// (docs/src/reference/metrics.md#shape-metrics).
    functions: Vec<(usize, Node<'t>)>,
    pub(super) out: Walked,
}

/// Told of each node of a tree by [`preorder`]: on the way down, and on the way back up.
pub(super) trait Visit<'t> {
    /// A node at `depth` (the root is 0), the cursor on it (its field, asked only where
    /// needed: it costs a walk of the parent's field map); says whether to go into its
    /// children, or `None` to end the walk.
    fn enter(&mut self, node: Node<'t>, depth: usize, cursor: &TreeCursor<'t>) -> Option<bool>;
    /// The walk leaves the node at `depth`: its children, if entered, are done.
    fn leave(&mut self, depth: usize);
}

/// The one pre-order walk over a tree, for the measurer and the debug view alike: a
/// `TreeCursor` moved down, across and up, so deep nesting cannot overflow the stack.
/// Each level keeps how many siblings are left (a node's child count is the number of
/// children the cursor visits, and costs nothing to ask): the cursor is never asked for
/// a child of a leaf or a sibling after the last, which costs it a search each.
pub(super) fn preorder<'t>(tree: &'t Tree, visit: &mut impl Visit<'t>) {
    let mut cursor = tree.walk();
    // The siblings left after the node at each depth; the root has none.
    let mut left: Vec<usize> = vec![0];
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        let Some(descend) = visit.enter(node, depth, &cursor) else {
            return;
        };
        let children = if descend { node.child_count() } else { 0 };
        if children > 0 && cursor.goto_first_child() {
            depth += 1;
            left.truncate(depth);
            left.push(children - 1);
        } else if !next_or_up(&mut cursor, &mut depth, &mut left, visit) {
            return;
        }
    }
}

/// Leaves the cursor's node, and each node above it whose last child it was, and moves
/// to the next sibling of the last one left; `false` when the walk is done.
fn next_or_up<'t>(
    cursor: &mut TreeCursor<'t>,
    depth: &mut usize,
    left: &mut [usize],
    visit: &mut impl Visit<'t>,
) -> bool {
    loop {
        visit.leave(*depth);
        if left[*depth] > 0 {
            left[*depth] -= 1;
            if cursor.goto_next_sibling() {
                return true;
            }
        }
        if !cursor.goto_parent() {
            return false;
        }
        *depth = depth.saturating_sub(1);
    }
}

/// Walks `tree` once and collects what docs/src/reference/measurement.md measures, each
/// function unit with its shape (docs/src/reference/metrics.md#shape-metrics).
pub fn walk(lang: &Lang, tree: &Tree, src: &[u8]) -> Walked {
    let mut walker = Walker::new(lang, tree, src);
    preorder(tree, &mut walker);
    walker.finish(None)
}

impl<'t> Visit<'t> for Walker<'_, 't> {
    fn enter(&mut self, node: Node<'t>, depth: usize, _: &TreeCursor<'t>) -> Option<bool> {
        if self.out.names_over_budget {
            return None;
        }
        // One run of attributes per level: the siblings being visited at each depth.
        self.runs.truncate(depth + 1);
        self.runs.resize_with(depth + 1, AttributeRun::default);
        Some(Walker::enter(self, node, depth))
    }

    fn leave(&mut self, depth: usize) {
        Walker::leave(self, depth);
    }
}

impl<'a, 't> Walker<'a, 't> {
    pub(super) fn new(lang: &'a Lang, tree: &'t Tree, src: &'a [u8]) -> Walker<'a, 't> {
        let comment_opens = match lang.comment_directive_line {
            Some(_) => Marks::of(src, b"/*"),
            None => Marks::default(),
        };
        Walker {
            lang,
            src,
            unit_marks: Marks::of_any(src, lang.unit_marks),
            comment_opens,
            errors: tree.root_node().has_error(),
            scopes: Vec::new(),
            path: Vec::new(),
            claimed: Vec::new(),
            runs: Vec::new(),
            name_bytes: 0,
            entry: None,
            entry_ended: false,
            root: tree.root_node(),
            functions: Vec::new(),
            out: Walked::default(),
        }
    }
}

impl<'t> Walker<'_, 't> {
    /// Visits a node; returns whether to descend into it.
    pub(super) fn enter(&mut self, node: Node<'t>, depth: usize) -> bool {
        if self.errors && (node.is_error() || node.is_missing()) {
            self.out.error_lines.push(start_line(node.start_position()));
        }
        self.path.truncate(depth);
        self.path.push(node);
        let is_named = node.is_named();
        let kind = self.lang.kind_named(node, is_named);
        self.entry_point(node, kind.entry);
        let role = kind.role;
        match role {
            Role::Attribute => {
                let test = (self.lang.is_test_attribute)(node, self.src);
                let run = self.run();
                run.start = run.start.or(Some(node.start_position()));
                run.test |= test;
                return false;
            }
            Role::Decorator => {
                self.decorate(node, depth);
                return true;
            }
            Role::Comment => {
                self.check_comment(node);
                return false;
            }
            Role::Decl | Role::Binding | Role::Item | Role::Other => {}
        }
        let run = std::mem::take(self.run());
        if !is_named {
            return true;
        }
        // Most nodes are of no role: their start is not asked for.
        let named = match role {
            Role::Other => false,
            _ => {
                let start = run.start.unwrap_or_else(|| node.start_position());
                if run.test {
                    let span = (start_line(start), end_line(start, node.end_position()));
                    self.out.test_spans.push(span);
                    return false;
                }
                match role {
                    Role::Decl => self.declare(node, depth, start),
                    Role::Binding => {
                        self.bind(node, kind.binder, depth, start);
                        false
                    }
                    _ => false,
                }
            }
        };
        if kind.anonymous && !named {
            self.anonymous(node, depth);
        }
        !kind.opaque || self.may_hold_units(node)
    }

    /// Extends the top-level statements' span over a statement before their end. A
    /// statement inside the last top-level one ends before it does: the span ends where
    /// the furthest statement seen ends.
    fn entry_point(&mut self, node: Node, role: EntryRole) {
        match role {
            EntryRole::None => {}
            EntryRole::Statement if self.entry_ended => {}
            EntryRole::Statement => {
                let (start, end) = self.entry.map_or(
                    (node.start_position(), node.end_position()),
                    |(start, end)| (start, end.max(node.end_position())),
                );
                self.entry = Some((start, end));
            }
            EntryRole::End => self.entry_ended = true,
        }
    }

    /// Whether an opaque node's subtree may hold a unit, an error or a block comment the
    /// language checks: it has one of the language's unit marks (`{`, `=>`), an error or a `/*`.
    fn may_hold_units(&self, node: Node) -> bool {
        let (start, end) = (node.start_byte(), node.end_byte());
        self.unit_marks.any_in(start, end)
            || self.comment_opens.any_in(start, end)
            || (self.errors && node.has_error())
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

    /// A declaration node: its unit or scope. Returns whether it is a unit already, by
    /// its own name or a binding's.
    fn declare(&mut self, node: Node<'t>, depth: usize, start: Point) -> bool {
        if self.is_claimed(node) {
            return true;
        }
        let Some(decl) = (self.lang.declare)(node, self.src) else {
            return false;
        };
        let unit = decl.unit.is_some();
        self.add(decl, node, depth, start);
        unit
    }

    /// An anonymous function that nothing else made a unit: a unit, and the scope of what
    /// it holds, when it spans two or more lines and is not the body of the function
    /// around it (docs/src/reference/measurement.md#anonymous-functions).
    fn anonymous(&mut self, node: Node<'t>, depth: usize) {
        let anonymous = self.lang.anonymous;
        if self.is_claimed(node) || anonymous.is_body(node, self.parent(depth)) {
            return;
        }
        let start = node.start_position();
        let (start_line, end_line) = (start_line(start), end_line(start, self.unit_end(node)));
        if start_line == end_line {
            return;
        }
        let named = anonymous.name(&self.path[..=depth], self.src);
        // A scope the naming node opened itself (a Java field, an enum constant) is not
        // repeated: `TypeAdapters.CLASS`, not `TypeAdapters.CLASS.CLASS`.
        let repeated = self
            .scopes
            .last()
            .is_some_and(|s| !s.unit && Some(s.depth) == named.by_depth);
        let scopes = &self.scopes[..self.scopes.len() - usize::from(repeated)];
        let mut name = String::new();
        if scopes.is_empty() {
            let entry = anonymous
                .entry_scope
                .filter(|(kind, _)| self.path[..depth].iter().any(|n| n.kind() == *kind));
            if let Some((_, scope)) = entry {
                name.push_str(scope);
                name.push_str(self.lang.separator);
            }
        }
        for scope in scopes {
            name.push_str(&scope.segment);
            name.push_str(self.lang.separator);
        }
        name.push_str(&named.segment);
        self.name_bytes = self.name_bytes.saturating_add(name.len());
        self.out.names_over_budget |= self.name_bytes > NAME_BUDGET_BYTES;
        let mut unit = Unit::new(name, UnitKind::Function, start_line, end_line);
        unit.anonymous = true;
        // Its code is the function: shaped as a unit of its own, left out of the unit
        // around it (docs/src/reference/metrics.md#shape-metrics).
        self.functions.push((self.out.units.len(), node));
        self.out.units.push(unit);
        // The repeated scope, still open, names what the unit holds.
        if !repeated {
            self.scopes.push(Scope {
                depth,
                segment: named.segment,
                unit: true,
            });
        }
    }

    /// A binder node: the unit or scope its value makes, the value claimed.
    fn bind(&mut self, node: Node<'t>, binder: Option<&Binder>, depth: usize, start: Point) {
        let parent = self.parent(depth);
        let bound = binder.and_then(|b| self.lang.bindings.bind(b, node, parent, self.src));
        if let Some(bound) = bound {
            let claimed = bound.claimed.iter().map(|c| (depth, c.id()));
            self.claimed.extend(claimed);
            let units = self.out.units.len();
            self.add(bound.decl, node, depth, start);
            // A binding names a function, nothing more: the unit's code is the function
            // (docs/src/reference/metrics.md#shape-metrics).
            let function = self.functions.last_mut().filter(|(i, _)| *i == units);
            if let (Some((_, code)), Some(value)) = (function, bound.claimed.first()) {
                *code = *value;
            }
        }
    }

    /// A decorator: the unit it decorates starts at it, and what it holds is named
    /// inside that unit's scope, which is open while the decorator is walked.
    fn decorate(&mut self, node: Node<'t>, depth: usize) {
        let run = self.run();
        run.start = run.start.or(Some(node.start_position()));
        if let Some(segment) = self.decorated_scope(node, depth) {
            self.scopes.push(Scope {
                depth,
                segment,
                unit: true,
            });
        }
    }

    /// The scope of the declaration a sibling decorator decorates: the next named sibling
    /// that is no decorator, attribute or comment.
    fn decorated_scope(&self, node: Node<'t>, depth: usize) -> Option<String> {
        let parent = self.parent(depth)?;
        let mut cursor = parent.walk();
        let target = parent
            .named_children(&mut cursor)
            .skip_while(|c| c.id() != node.id())
            .find(|c| {
                let role = self.lang.role(*c);
                !matches!(role, Role::Decorator | Role::Attribute | Role::Comment)
            })?;
        let info = self.lang.kind(target);
        let decl = match info.role {
            Role::Decl => (self.lang.declare)(target, self.src),
            Role::Binding => {
                let bound = self
                    .lang
                    .bindings
                    .bind(info.binder?, target, Some(parent), self.src);
                bound.map(|b| b.decl)
            }
            _ => None,
        };
        decl?.scope
    }

    /// The parent of the node at `depth`.
    fn parent(&self, depth: usize) -> Option<Node<'t>> {
        self.path.get(depth.checked_sub(1)?).copied()
    }

    /// Adds a declaration's unit and opens its scope.
    fn add(&mut self, decl: Decl, node: Node<'t>, depth: usize, start: Point) {
        let is_unit = decl.unit.is_some();
        if let Some(unit) = decl.unit {
            let start = self.unit_start(node, depth, start);
            let mut name = String::new();
            for scope in &self.scopes {
                name.push_str(&scope.segment);
                name.push_str(self.lang.separator);
            }
            name.push_str(&unit.name);
            self.name_bytes = self.name_bytes.saturating_add(name.len());
            self.out.names_over_budget |= self.name_bytes > NAME_BUDGET_BYTES;
            self.out.types += u64::from(unit.counts_as_type);
            if unit.kind == UnitKind::Function {
                self.functions.push((self.out.units.len(), node));
            }
            let end = end_line(start, self.unit_end(node));
            let unit = Unit::new(name, unit.kind, start_line(start), end);
            self.out.units.push(unit);
        }
        if let Some(segment) = decl.scope {
            self.scopes.push(Scope {
                depth,
                segment,
                unit: is_unit,
            });
        }
    }

    /// The walk's findings, with the entry point's unit when there were top-level
    /// statements, and every function unit's shape; `trace` gets what each node added
    /// to a shape (`measure --dump-tree`).
    pub(super) fn finish(mut self, trace: Option<&mut Vec<(usize, Added)>>) -> Walked {
        let entry = self.lang.entry_point.as_ref().zip(self.entry);
        let mut entry_code = None;
        if let Some((entry, (start, end))) = entry {
            let mut cursor = self.root.walk();
            let statements = self.root.named_children(&mut cursor);
            entry_code = Some(
                statements
                    .filter(|n| self.lang.kind(*n).entry == EntryRole::Statement)
                    .filter(|n| n.start_position() >= start && n.end_position() <= end)
                    .collect(),
            );
            let (first, last) = (start_line(start), end_line(start, end));
            let unit = Unit::new(entry.name.to_string(), UnitKind::Function, first, last);
            self.out.units.push(unit);
        }
        let functions = std::mem::take(&mut self.functions);
        shape::set_shapes(
            self.lang,
            &mut self.out.units,
            &functions,
            entry_code,
            self.src,
            trace,
        );
        self.out
    }

    /// Leaves the node at `depth`: the scopes it opened close, its claims end.
    pub(super) fn leave(&mut self, depth: usize) {
        while self.scopes.last().is_some_and(|s| s.depth >= depth) {
            self.scopes.pop();
        }
        while self.claimed.last().is_some_and(|c| c.0 >= depth) {
            self.claimed.pop();
        }
    }

    fn run(&mut self) -> &mut AttributeRun {
        if self.runs.is_empty() {
            self.runs.push(AttributeRun::default());
        }
        let last = self.runs.len() - 1;
        &mut self.runs[last]
    }

    /// Whether a binding claimed `node`: its own name gives way to the binding's.
    pub(super) fn is_claimed(&self, node: Node) -> bool {
        self.claimed.iter().any(|&(_, id)| id == node.id())
    }
}

/// Where a unit's lines start and end.
impl<'t> Walker<'_, 't> {
    /// Where the unit of the node at `depth` starts: at `start`, or earlier at each
    /// parent of a [`Lang::span_parents`] kind that holds no other named child of the
    /// node's kind and none of the language's [`Lang::span_groups`] tokens
    /// (`export const f = ...` starts at `export`, Go's `type (...)` at each spec).
    fn unit_start(&self, node: Node<'t>, depth: usize, start: Point) -> Point {
        let (mut start, mut child, mut at) = (start, node, depth);
        while let Some(parent) = self.parent(at) {
            if !self.lang.span_parents.contains(&parent.kind()) {
                break;
            }
            let mut cursor = parent.walk();
            let groups = self.lang.span_groups;
            let (same, grouped) = parent.children(&mut cursor).fold((0, false), |(n, g), c| {
                let same = c.is_named() && c.kind_id() == child.kind_id();
                let group = !c.is_named() && groups.contains(&c.kind());
                (n + usize::from(same), g || group)
            });
            if same > 1 || grouped {
                break;
            }
            start = start.min(parent.start_position());
            (child, at) = (parent, at - 1);
        }
        start
    }

    /// Where a unit's node ends, or for a language whose units end at their code
    /// ([`Lang::ends_at_code`]) where its last token that is no comment ends: the walk
    /// steps down the last child that is no comment and not empty (a MISSING token).
    fn unit_end(&self, node: Node) -> Point {
        if !self.lang.ends_at_code {
            return node.end_position();
        }
        let mut last = node;
        loop {
            let mut cursor = last.walk();
            let code = last
                .children(&mut cursor)
                .filter(|c| c.end_byte() > c.start_byte() && self.lang.role(*c) != Role::Comment)
                .last();
            match code {
                Some(child) => last = child,
                None => return last.end_position(),
            }
        }
    }
}
