//! Anonymous functions as data for the generic walk (stage 2,
//! docs/src/reference/measurement.md#anonymous-functions): which node kinds are anonymous
//! functions, and what names one that spans two or more lines — the binding that holds it
//! directly, the call it is passed to (`app.post("/orders")`, `new Promise()`), the call
//! it is the callee of (`<iife>`, `go func()`), or nothing (`<anonymous>`). The names are
//! found by looking up from the function through the language's wrappers (parentheses,
//! casts, `&`, an argument node), so a language states only its kinds and fields.

use tree_sitter::Node;

use super::text;

/// A call kind: where its callee's text starts and which field holds its arguments.
#[derive(Debug)]
pub struct Call {
    pub kind: &'static str,
    /// The field the callee's text starts at (`constructor` of `new Promise(...)`, `name`
    /// of a Java enum constant); `None`: at the call's own start.
    pub callee_from: Option<&'static str>,
    /// The field holding the argument list, or the one operand of a conversion.
    pub arguments: &'static str,
    /// Written before the callee: `new ` for a constructor call.
    pub prefix: &'static str,
}

/// A node kind that binds a name to the anonymous function it holds directly (a variable
/// declarator, an assignment with any operator, a field, a property, a struct-literal
/// field, a keyed element).
#[derive(Debug)]
pub struct AnonBinder {
    pub kind: &'static str,
    /// The field (or fields, repeated) holding the name.
    pub name: &'static str,
    /// The field holding the value; `None`: any child that is not the name.
    pub value: Option<&'static str>,
}

/// What names a language's anonymous functions.
#[derive(Debug)]
pub struct Anonymous {
    /// Node kinds of anonymous functions (lambdas, closures, function literals, async
    /// blocks).
    pub functions: &'static [&'static str],
    /// An anonymous function of the first kind that is the whole body (field `body`) of
    /// one of the second belongs to it: `|| async move { ... }` is one unit.
    pub bodies: &'static [(&'static str, &'static str)],
    /// Kinds that hold a value without changing what names it: parentheses, casts, `&`,
    /// `*`, an argument node, a keyword argument.
    pub wrappers: &'static [&'static str],
    pub calls: &'static [Call],
    /// Binders looked up from the function; TypeScript and JavaScript have none here,
    /// since their [`super::Bindings`] claim every bound function first.
    pub binders: &'static [AnonBinder],
    /// A list of values bound position by position (Go's `a, h := 1, func() {...}`).
    pub value_list: Option<&'static str>,
    /// String literal kinds whose text may name a call (`app.post("/orders")`).
    pub strings: &'static [&'static str],
    /// Child kinds that make a string literal no plain string (interpolations).
    pub interpolations: &'static [&'static str],
    /// Statements whose call of a function literal has a name of its own (Go's `go func()`
    /// and `defer func()`), by the statement's kind.
    pub call_statements: &'static [(&'static str, &'static str)],
    /// A statement kind outside every declaration, and the scope it names (C#'s top-level
    /// statements, `<Main>$`).
    pub entry_scope: Option<(&'static str, &'static str)>,
    /// Comment kinds, left out of a callee's text.
    pub comments: &'static [&'static str],
}

/// No anonymous function is a unit.
pub const NO_ANONYMOUS: Anonymous = Anonymous {
    functions: &[],
    bodies: &[],
    wrappers: &[],
    calls: &[],
    binders: &[],
    value_list: None,
    strings: &[],
    interpolations: &[],
    call_statements: &[],
    entry_scope: None,
    comments: &[],
};

/// What names an anonymous function unit: the name's own segment, and the depth (in the
/// walk's path) of the node that gave it, if any.
#[derive(Debug, PartialEq, Eq)]
pub struct AnonName {
    pub segment: String,
    pub by_depth: Option<usize>,
}

/// The longest string-literal text a name keeps, in characters.
const LABEL_CHARS: usize = 40;

impl Anonymous {
    /// Whether an anonymous function of `node`'s kind, under `parent`, is no unit of its
    /// own: the body of the function around it. (The walk knows the parent: tree-sitter
    /// finds one from the root down, which a deep nest would pay at every level.)
    pub fn is_body(&self, node: Node, parent: Option<Node>) -> bool {
        let Some(parent) = parent else {
            return false;
        };
        self.bodies.iter().any(|&(inner, outer)| {
            inner == node.kind()
                && outer == parent.kind()
                && parent
                    .child_by_field_name("body")
                    .is_some_and(|b| b.id() == node.id())
        })
    }

    /// The name of the anonymous function at the end of `path` (the walk's path, root
    /// first).
    pub fn name(&self, path: &[Node], src: &[u8]) -> AnonName {
        let anonymous = |segment: &str| AnonName {
            segment: segment.to_string(),
            by_depth: None,
        };
        let Some(mut at) = path.len().checked_sub(1) else {
            return anonymous("<anonymous>");
        };
        at = self.unwrap_up(path, at);
        let Some(parent_at) = at.checked_sub(1) else {
            return anonymous("<anonymous>");
        };
        let (child, parent) = (path[at], path[parent_at]);
        if let Some(call) = self.call(parent) {
            if is_field(parent, call.arguments, child) {
                return AnonName {
                    segment: format!("{}()", self.callee(parent, call, src)),
                    by_depth: Some(parent_at),
                };
            }
            if child.start_byte() == parent.start_byte() {
                return anonymous(self.iife(path, parent_at));
            }
        }
        if let Some(named) = self.bound(path, at, src) {
            return named;
        }
        let call_at = parent_at.checked_sub(1).map(|at| (at, path[at]));
        if let Some((call_at, call)) = call_at {
            let spec = self.call(call);
            if let Some(spec) = spec.filter(|s| is_field(call, s.arguments, parent)) {
                return AnonName {
                    segment: self.call_name(call, parent, spec, src),
                    by_depth: Some(call_at),
                };
            }
        }
        anonymous("<anonymous>")
    }

    /// The call spec of a node's kind, if it is a call.
    fn call(&self, node: Node) -> Option<&Call> {
        self.calls.iter().find(|c| c.kind == node.kind())
    }

    /// The highest index in `path`, from `at` up, reached through wrappers.
    fn unwrap_up(&self, path: &[Node], mut at: usize) -> usize {
        while at > 0 && self.wrappers.contains(&path[at - 1].kind()) {
            at -= 1;
        }
        at
    }

    /// `<iife>`, or the name a statement gives the call at `call_at` (`go func()`).
    fn iife(&self, path: &[Node], call_at: usize) -> &'static str {
        let at = self.unwrap_up(path, call_at);
        let statement = at.checked_sub(1).map(|i| path[i].kind());
        self.call_statements
            .iter()
            .find(|(kind, _)| Some(*kind) == statement)
            .map_or("<iife>", |(_, name)| name)
    }

    /// The name a binder gives the value at `at` it holds directly, if its parent is one
    /// (or a list of values bound by position, inside one).
    fn bound(&self, path: &[Node], at: usize, src: &[u8]) -> Option<AnonName> {
        let (child, parent_at) = (path[at], at.checked_sub(1)?);
        let parent = path[parent_at];
        let (binder_at, value, index) = match self.value_list {
            Some(list) if parent.kind() == list => {
                let mut cursor = parent.walk();
                let index = parent
                    .named_children(&mut cursor)
                    .filter(|c| !c.is_extra())
                    .position(|c| c.id() == child.id())?;
                (parent_at.checked_sub(1)?, parent, Some(index))
            }
            _ => (parent_at, child, None),
        };
        let binder_node = path[binder_at];
        let binder = self.binders.iter().find(|b| b.kind == binder_node.kind())?;
        let mut cursor = binder_node.walk();
        let names: Vec<Node> = binder_node
            .children_by_field_name(binder.name, &mut cursor)
            .filter(|n| n.is_named())
            .collect();
        let holds = match binder.value {
            Some(field) => is_field(binder_node, field, value),
            None => !names.iter().any(|n| n.id() == value.id()),
        };
        if !holds {
            return None;
        }
        let name = match (index, names.as_slice()) {
            (Some(i), [one]) if one.kind() == self.value_list.unwrap_or_default() => {
                let mut cursor = one.walk();
                let nth = one
                    .named_children(&mut cursor)
                    .filter(|c| !c.is_extra())
                    .nth(i);
                nth?
            }
            (Some(i), many) if many.len() > 1 => *many.get(i)?,
            (_, [one, ..]) => *one,
            _ => return None,
        };
        let segment = collapse(text(name, src));
        (!segment.is_empty()).then_some(AnonName {
            segment,
            by_depth: Some(binder_at),
        })
    }

    /// `callee("label")`: the callee as written without whitespace or comments, and the
    /// first argument's text when it is a plain string literal.
    fn call_name(&self, call: Node, arguments: Node, spec: &Call, src: &[u8]) -> String {
        let mut cursor = arguments.walk();
        let first = arguments
            .named_children(&mut cursor)
            .find(|c| !self.comments.contains(&c.kind()) && !c.is_extra());
        let label = first.and_then(|f| self.label(f, src));
        let label = label.map(|l| format!("\"{l}\"")).unwrap_or_default();
        format!("{}({label})", self.callee(call, spec, src))
    }

    /// The callee's text: from the call's start (or its `callee_from` field) to its
    /// arguments, comments and whitespace removed, after the call's prefix; `<iife>` for
    /// a function called where it stands (a UMD wrapper's `factory` argument is
    /// `<iife>()`, not the wrapper's thousands of lines).
    fn callee(&self, call: Node, spec: &Call, src: &[u8]) -> String {
        let first = match spec.callee_from {
            Some(field) => call.child_by_field_name(field),
            None => call.named_child(0),
        };
        if first.is_some_and(|f| self.is_function(f)) {
            return format!("{}<iife>", spec.prefix);
        }
        let from = first.map_or(call.start_byte(), |n| n.start_byte());
        let to = call
            .child_by_field_name(spec.arguments)
            .map_or(call.end_byte(), |n| n.start_byte());
        let mut out = String::from(spec.prefix);
        let mut at = from;
        for (start, end, written) in self.left_out_of_callee(call, from, to) {
            push_code(&mut out, src, at, start);
            match written {
                Some(written) => out.push_str(written),
                None => out.push_str(&collapse(&String::from_utf8_lossy(&src[start..end]))),
            }
            at = end;
        }
        push_code(&mut out, src, at, to);
        out
    }

    /// Whether `node`, through wrappers, is an anonymous function.
    fn is_function(&self, mut node: Node) -> bool {
        while self.wrappers.contains(&node.kind()) {
            let mut cursor = node.walk();
            let inner = node
                .named_children(&mut cursor)
                .find(|c| !self.comments.contains(&c.kind()));
            match inner {
                Some(inner) => node = inner,
                None => return false,
            }
        }
        self.functions.contains(&node.kind())
    }

    /// What a callee's text writes otherwise inside `node` within `from..to`, in order:
    /// each comment (written as nothing), each anonymous function of an earlier call in a
    /// chain (written `<anonymous>`), so that editing the body of `.WithMetrics(m => {...})`
    /// doesn't rename the unit of the `.WithTracing(t => {...})` after it, and each string
    /// literal (`None`: as written, its whitespace collapsed to single spaces, not
    /// removed: `.option("--dry-run", "Preview changes")`).
    fn left_out_of_callee(
        &self,
        node: Node,
        from: usize,
        to: usize,
    ) -> Vec<(usize, usize, Option<&'static str>)> {
        let mut found = Vec::new();
        // One cursor down and across `node`'s subtree, in order; a node outside
        // `from..to` is left with all it holds.
        let mut cursor = node.walk();
        loop {
            let n = cursor.node();
            if self.descend_for_callee(n, (from, to), &mut found) && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    found.sort_unstable();
                    return found;
                }
            }
        }
    }

    /// One node of [`Anonymous::left_out_of_callee`]'s walk: what it writes otherwise,
    /// if anything, into `found`; whether to go into its children.
    fn descend_for_callee(
        &self,
        n: Node,
        (from, to): (usize, usize),
        found: &mut Vec<(usize, usize, Option<&'static str>)>,
    ) -> bool {
        let (start, end) = (n.start_byte(), n.end_byte());
        if end <= from || start >= to {
            return false;
        }
        let kind = n.kind();
        if self.comments.contains(&kind) {
            found.push((start.max(from), end.min(to), Some("")));
            return false;
        }
        let inside = start >= from && end <= to;
        if inside && self.functions.contains(&kind) {
            found.push((start, end, Some("<anonymous>")));
            return false;
        }
        if inside && self.strings.contains(&kind) {
            found.push((start, end, None));
            return false;
        }
        true
    }

    /// A plain string literal's text between its delimiters, as written, cut to 40
    /// characters (through the language's wrappers: a C# argument node).
    fn label(&self, node: Node, src: &[u8]) -> Option<String> {
        let mut node = node;
        while self.wrappers.contains(&node.kind()) {
            let mut cursor = node.walk();
            let inner = node.named_children(&mut cursor).last()?;
            node = inner;
        }
        if !self.strings.contains(&node.kind()) {
            return None;
        }
        let mut cursor = node.walk();
        let interpolated = node
            .named_children(&mut cursor)
            .any(|c| self.interpolations.contains(&c.kind()));
        if interpolated {
            return None;
        }
        Some(
            between_delimiters(text(node, src))
                .chars()
                .take(LABEL_CHARS)
                .collect(),
        )
    }
}

/// Whether `child` is `node`'s `field`.
fn is_field(node: Node, field: &str, child: Node) -> bool {
    let mut cursor = node.walk();
    let found = node
        .children_by_field_name(field, &mut cursor)
        .any(|c| c.id() == child.id());
    found
}

/// Appends `src[from..to]` without whitespace, and without a trailing comma before a
/// closing bracket (`.filter(k => {...},)` is `.filter(<anonymous>)`), so that a formatter
/// adding or removing one doesn't rename the units named through the call.
fn push_code(out: &mut String, src: &[u8], from: usize, to: usize) {
    let code = src.get(from..to).unwrap_or_default();
    let code = String::from_utf8_lossy(code);
    for c in code.chars().filter(|c| !c.is_whitespace()) {
        if matches!(c, ')' | ']' | '}') && out.ends_with(',') {
            out.pop();
        }
        out.push(c);
    }
}

/// `text` with whitespace collapsed to single spaces.
fn collapse(text: &str) -> String {
    super::collapse_whitespace(text)
}

/// A string literal's text between its delimiters: its prefix (`@`, `r#`, `b`, `f`) and
/// suffix (`u8`, `#`) and the same run of quotes at both ends removed (`"""` too).
pub fn between_delimiters(literal: &str) -> &str {
    let is_quote = |c: char| matches!(c, '"' | '\'' | '`');
    let start = literal.find(is_quote).unwrap_or(0);
    let end = literal.rfind(is_quote).map_or(literal.len(), |e| e + 1);
    let quoted = &literal[start..end.max(start)];
    let Some(quote) = quoted.chars().next() else {
        return quoted;
    };
    if quoted.chars().all(|c| c == quote) {
        return "";
    }
    let leading = quoted.chars().take_while(|&c| c == quote).count();
    let trailing = quoted.chars().rev().take_while(|&c| c == quote).count();
    let run = leading.min(trailing);
    &quoted[run..quoted.len() - run]
}

#[cfg(test)]
mod tests {
    use super::between_delimiters;

    #[test]
    fn a_literal_gives_the_text_between_its_delimiters() {
        assert_eq!(between_delimiters("'/orders'"), "/orders");
        assert_eq!(between_delimiters("\"/todos\""), "/todos");
        assert_eq!(between_delimiters("@\"C:\\x\""), "C:\\x");
        assert_eq!(between_delimiters("\"\"\"raw \"x\" \"\"\""), "raw \"x\" ");
        assert_eq!(between_delimiters("r#\"a\"b\"#"), "a\"b");
        assert_eq!(between_delimiters("\"abc\"u8"), "abc");
        assert_eq!(between_delimiters("`/x`"), "/x");
        assert_eq!(between_delimiters("\"\""), "");
        assert_eq!(between_delimiters("\"\\\"\""), "\\\"");
    }
}
