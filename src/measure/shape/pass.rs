//! The one pass over a function unit's own nodes (docs/src/reference/metrics.md#shape-metrics):
//! a single `TreeCursor` moved down, across and up, each node placed at its nesting
//! depth and cognitive level by what its parent is and which field holds it.

use tree_sitter::{Node, TreeCursor};

use super::marks::Marks;
use super::{
    only_child, operator, Added, Form, Forms, Roots, Table, ASSIGNMENT_OPS, BODY_FIELDS,
    DECISION_OPS, SEQUENCE_OPS,
};

/// The cursor, and the stacks a pass keeps per depth, made once for all the function
/// units of a file: a unit's pass resets them instead of allocating its own.
pub(super) struct Scratch<'t> {
    cursor: Option<TreeCursor<'t>>,
    open: Vec<Open>,
    /// The siblings left after the node at each depth (the root: none of its own).
    left: Vec<usize>,
}

impl<'t> Scratch<'t> {
    pub(super) fn new() -> Self {
        Scratch {
            cursor: None,
            open: Vec::new(),
            left: Vec::new(),
        }
    }

    /// The cursor on `root`, the stacks empty.
    fn start(&mut self, root: Node<'t>) -> (&mut TreeCursor<'t>, &mut Vec<Open>, &mut Vec<usize>) {
        self.open.clear();
        self.left.clear();
        self.left.push(0);
        if let Some(cursor) = &mut self.cursor {
            cursor.reset(root);
        }
        let cursor = self.cursor.get_or_insert_with(|| root.walk());
        (cursor, &mut self.open, &mut self.left)
    }
}

/// Where a node stands: the levels its position gives it.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Structures (and anonymous functions) around it, for `function_nesting`.
    depth: u32,
    /// Cognitive complexity's nesting level.
    level: u32,
    /// An `if` that continues an `else if` chain.
    chained: bool,
    /// Its parent, through parentheses, is a logical operator of a sequence.
    seq: bool,
    /// The `else` branch of a structure (cognitive +1), already one level deeper.
    branch: bool,
    /// An `else` wrapper that holds only the next `if` of a chain.
    wrapper: bool,
}

impl Frame {
    fn at(depth: u32, level: u32) -> Frame {
        Frame {
            depth,
            level,
            ..Frame::default()
        }
    }
}

/// How a node places its children.
#[derive(Clone, Copy)]
enum Rule {
    /// All at these levels.
    Same(Frame),
    /// A structure: its header at its own levels, its bodies deeper, its `else` branch
    /// an `else` or the next `if` of its chain.
    Structure {
        form: Form,
        at: Frame,
        deeper: (u32, u32),
        /// Python's `x if c else y`: its second named child is the header.
        by_position: bool,
    },
    /// An `else` wrapper of a chain: the `if` it holds continues the chain.
    Chain(Frame),
}

/// A node on the cursor's way down: how it places its children, how many named
/// children it has placed, and where it ends.
struct Open {
    rule: Rule,
    named: usize,
    end: usize,
}

/// The pass's running values and what it reads.
pub(super) struct Pass<'a> {
    forms: &'a Forms,
    table: &'a Table,
    roots: &'a Roots,
    marks: &'a Marks,
    src: &'a [u8],
    pub(super) nesting: u32,
    pub(super) cyclomatic: u32,
    pub(super) cognitive: u32,
    /// The named nodes counted, those the marks left out not among them.
    pub(super) entered: u32,
    /// The cursor's moves to a next sibling.
    pub(super) steps: u32,
}

impl<'a> Pass<'a> {
    pub(super) fn new(
        forms: &'a Forms,
        table: &'a Table,
        (roots, marks): (&'a Roots, &'a Marks),
        src: &'a [u8],
    ) -> Self {
        Pass {
            forms,
            table,
            roots,
            marks,
            src,
            nesting: 0,
            cyclomatic: 1,
            cognitive: 0,
            entered: 0,
            steps: 0,
        }
    }

    /// Counts the code under `root`, one of the unit's own nodes, leaving out the other
    /// function units, decorators, annotations and attributes.
    pub(super) fn unit_code<'t>(
        &mut self,
        root: Node<'t>,
        scratch: &mut Scratch<'t>,
        mut trace: Option<&mut Vec<(usize, Added)>>,
    ) {
        let (cursor, open, left) = scratch.start(root);
        let mut depth = 0usize;
        loop {
            let entered = self.enter_at(cursor, open, depth, trace.as_deref_mut());
            let children = if entered {
                cursor.node().child_count()
            } else {
                0
            };
            if children > 0 && cursor.goto_first_child() {
                depth += 1;
                left.truncate(depth);
                left.push(children - 1);
            } else if !self.next_sibling_or_above(cursor, open, &mut depth, left) {
                return;
            }
        }
    }

    /// Moves the cursor to the next node after the current one and all it holds, within
    /// the root (`depth` 0); `false` when there is none. `left` holds the siblings left
    /// after the node at each depth: the cursor is never asked for a sibling after the
    /// last, which costs it a search; nor for the siblings after a node when its parent
    /// places them all alike (no structure's header or body) and no mark stands in the
    /// parent's bytes after it: none of them would be entered.
    fn next_sibling_or_above(
        &mut self,
        cursor: &mut TreeCursor,
        open: &[Open],
        depth: &mut usize,
        left: &mut [usize],
    ) -> bool {
        while *depth > 0 {
            if left[*depth] > 0 && self.more_after(cursor, &open[*depth - 1]) {
                left[*depth] -= 1;
                self.steps += 1;
                if cursor.goto_next_sibling() {
                    return true;
                }
            }
            cursor.goto_parent();
            *depth -= 1;
        }
        false
    }

    /// Whether a sibling after the cursor's node, under `parent`, may be entered: a
    /// structure places its children by field (an `else` is entered without a mark);
    /// any other parent's children are entered only for a mark in their bytes.
    fn more_after(&self, cursor: &TreeCursor, parent: &Open) -> bool {
        match parent.rule {
            Rule::Structure { .. } => true,
            Rule::Same(_) | Rule::Chain(_) => {
                self.marks.any_in(cursor.node().end_byte(), parent.end)
            }
        }
    }

    /// Counts the cursor's node at `depth` below the root, placed by its parent in
    /// `open`; returns whether to go into its children.
    fn enter_at(
        &mut self,
        cursor: &TreeCursor,
        open: &mut Vec<Open>,
        depth: usize,
        trace: Option<&mut Vec<(usize, Added)>>,
    ) -> bool {
        let node = cursor.node();
        if !node.is_named() {
            return false;
        }
        // A field name costs a walk of the parent's field map: asked only of a
        // structure's children, whose place depends on it.
        let frame = match open.get_mut(depth.wrapping_sub(1)) {
            Some(Open {
                rule: Rule::Same(frame),
                ..
            }) => *frame,
            Some(parent) => self.child_frame(parent, node, cursor.field_name()),
            None => Frame::at(0, 0),
        };
        // An `else` branch counts whatever it holds; any other node without a mark in
        // its bytes adds nothing, nor does anything it holds.
        let placed = frame.branch || frame.wrapper;
        if !placed && !self.marks.any_in(node.start_byte(), node.end_byte()) {
            return false;
        }
        self.entered += 1;
        let Some(rule) = self.enter(node, frame, depth == 0, trace) else {
            return false;
        };
        open.truncate(depth);
        open.push(Open {
            rule,
            named: 0,
            end: node.end_byte(),
        });
        true
    }

    /// Counts one named node; returns how it places its children, or `None` to leave it
    /// out with all it holds.
    fn enter(
        &mut self,
        node: Node,
        frame: Frame,
        own: bool,
        trace: Option<&mut Vec<(usize, Added)>>,
    ) -> Option<Rule> {
        if !own && self.roots.contains(node.id()) {
            return None;
        }
        let form = match self.table.form(node) {
            Form::Ignored => return None,
            // The unit's own function: its code is at level 0.
            Form::Lambda if own => Form::Plain,
            form => form,
        };
        if frame.wrapper {
            return Some(Rule::Chain(Frame::at(frame.depth, frame.level)));
        }
        let (added, rule) = self.count(node, frame, form);
        self.nesting = self.nesting.max(added.level);
        self.cyclomatic = self.cyclomatic.saturating_add(added.cyclomatic);
        self.cognitive = self.cognitive.saturating_add(added.cognitive);
        if let Some(trace) = trace.filter(|_| added != Added::default()) {
            trace.push((node.id(), added));
        }
        Some(rule)
    }

    /// What a node adds, and how it places its children.
    fn count(&self, node: Node, frame: Frame, form: Form) -> (Added, Rule) {
        let mut added = Added::default();
        if frame.branch {
            added.cognitive = 1;
            added.level = frame.depth;
        }
        if let Some(deeper) = self.structure(node, frame, form, &mut added) {
            let by_position = form == Form::Conditional
                && self
                    .table
                    .child(node, self.table.fields.condition)
                    .is_none();
            let at = Frame::at(frame.depth, frame.level);
            let rule = Rule::Structure {
                form,
                at,
                deeper,
                by_position,
            };
            return (added, rule);
        }
        let rule = self.other(node, frame, form, &mut added);
        (added, rule)
    }

    /// What a structure adds (an `if`, switch, loop, `try`, `catch`, conditional
    /// expression), and how much deeper its bodies are, for nesting and for cognitive;
    /// `None` for any other node.
    fn structure(
        &self,
        node: Node,
        frame: Frame,
        form: Form,
        added: &mut Added,
    ) -> Option<(u32, u32)> {
        let (depth, level) = (frame.depth, frame.level);
        let nested = |added: &mut Added| {
            added.cognitive += 1 + level;
            added.nesting = level;
        };
        match form {
            Form::If | Form::Switch | Form::Loop | Form::BareLoop => {
                added.level = depth + 1;
                match form == Form::If && frame.chained {
                    true => added.cognitive += 1,
                    false => nested(added),
                }
                added.cyclomatic = u32::from(matches!(form, Form::If | Form::Loop));
                Some((1, 1))
            }
            Form::LetElse
                if self
                    .table
                    .child(node, self.table.fields.alternative)
                    .is_some() =>
            {
                added.level = depth + 1;
                added.cyclomatic = 1;
                nested(added);
                Some((1, 1))
            }
            Form::Try => {
                added.level = depth + 1;
                Some((1, 0))
            }
            Form::Catch | Form::Conditional => {
                added.cyclomatic = 1;
                nested(added);
                Some((0, 1))
            }
            _ => None,
        }
    }

    /// What any other node adds, and where its children stand.
    fn other(&self, node: Node, frame: Frame, form: Form, added: &mut Added) -> Rule {
        let (depth, level) = (frame.depth, frame.level);
        let mut seq = false;
        match form {
            Form::Case => added.cyclomatic = (self.forms.case_decisions)(node, self.src),
            Form::Guard | Form::Clause => added.cyclomatic = 1,
            Form::Binary => {
                let op = operator(self.table, node);
                added.cyclomatic = u32::from(DECISION_OPS.contains(&op));
                seq = SEQUENCE_OPS.contains(&op);
                if seq && !frame.seq {
                    added.cognitive += sequences(self.table, node);
                }
            }
            Form::Assignment => {
                added.cyclomatic = u32::from(ASSIGNMENT_OPS.contains(&operator(self.table, node)));
            }
            Form::LetChain => {
                let mut cursor = node.walk();
                let ands = node
                    .children(&mut cursor)
                    .filter(|c| c.kind() == "&&")
                    .count();
                added.cyclomatic = u32::try_from(ands).unwrap_or(u32::MAX);
                added.cognitive += u32::from(ands > 0);
            }
            Form::Jump => {
                let mut cursor = node.walk();
                let mut named = node.named_children(&mut cursor);
                added.cognitive += u32::from(named.any(|c| self.forms.labels.contains(&c.kind())));
            }
            Form::Goto => added.cognitive += 1,
            Form::Lambda => return Rule::Same(Frame::at(depth + 1, level + 1)),
            Form::Paren => seq = frame.seq,
            _ => {}
        }
        Rule::Same(Frame {
            seq,
            ..Frame::at(depth, level)
        })
    }

    /// Where a named child of `parent` stands, `field` the parent's field holding it.
    fn child_frame(&self, parent: &mut Open, child: Node, field: Option<&str>) -> Frame {
        let index = parent.named;
        parent.named += 1;
        let (form, at, deeper, by_position) = match parent.rule {
            Rule::Same(frame) => return frame,
            Rule::Chain(at) => {
                return Frame {
                    chained: self.table.form(child) == Form::If,
                    ..at
                }
            }
            Rule::Structure {
                form,
                at,
                deeper,
                by_position,
            } => (form, at, deeper, by_position),
        };
        let child_form = self.table.form(child);
        let branch = field == Some("alternative") || child_form == Form::Else;
        if branch && matches!(form, Form::If | Form::Loop | Form::Try) {
            return self.branch(child, at, form);
        }
        let body = if by_position {
            index != 1
        } else {
            field.is_some_and(|f| BODY_FIELDS.contains(&f))
                || self.table.is_body_kind(child)
                || child_form == Form::Catch
        };
        match body {
            true => Frame::at(at.depth + deeper.0, at.level + deeper.1),
            false => at,
        }
    }

    /// The `else` branch of an `if` (or a Python loop's or `try`'s `else`) at the
    /// structure's levels: the next `if` of the chain at the same levels (directly, or
    /// through an `else` wrapper holding only it), or an `else` (cognitive +1) whose
    /// code is one level deeper.
    fn branch(&self, child: Node, at: Frame, form: Form) -> Frame {
        if form == Form::If {
            let child_form = self.table.form(child);
            if child_form == Form::If {
                return Frame {
                    chained: true,
                    ..at
                };
            }
            let holds_if = || only_child(child).is_some_and(|c| self.table.form(c) == Form::If);
            if child_form == Form::Else && holds_if() {
                return Frame {
                    wrapper: true,
                    ..at
                };
            }
        }
        Frame {
            branch: true,
            ..Frame::at(at.depth + 1, at.level + 1)
        }
    }
}

/// The sequences of like operators in the logical expression rooted at `node`, its
/// operators read in source order through parentheses.
fn sequences(table: &Table, node: Node) -> u32 {
    let mut ops: Vec<&str> = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let n = through_parens(table, n);
        if table.form(n) == Form::Binary && SEQUENCE_OPS.contains(&operator(table, n)) {
            // In order: left, operator, right; pushed reversed.
            let fields = &table.fields;
            stack.extend(table.child(n, fields.right));
            stack.extend(table.child(n, fields.operator));
            stack.extend(table.child(n, fields.left));
        } else if !n.is_named() && SEQUENCE_OPS.contains(&n.kind()) {
            ops.push(n.kind());
        }
    }
    let changes = ops.windows(2).filter(|w| w[0] != w[1]).count();
    u32::try_from(changes + 1).unwrap_or(u32::MAX)
}

fn through_parens<'n>(table: &Table, mut node: Node<'n>) -> Node<'n> {
    while table.form(node) == Form::Paren {
        match only_child(node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}
