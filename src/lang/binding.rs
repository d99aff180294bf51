//! Bindings as data for the generic walk (stage 2, docs/src/reference/languages.md "Bindings"): the node kinds
//! that bind a name to a value (`const f = ...`, `key: ...`, `a.b = ...`), and what a
//! bound value becomes — a function unit, a type unit or a naming scope — by its kind.
//! Any language declares its [`Bindings`]; C# and Rust have none.

use tree_sitter::Node;

use super::Decl;
use crate::model::UnitKind;

/// A node kind that binds a name to a value.
#[derive(Debug, PartialEq, Eq)]
pub struct Binder {
    pub kind: &'static str,
    /// The field that holds the name; `None` when the name is [`Binder::fixed_name`].
    pub name_field: Option<&'static str>,
    /// The name of a binder without a name field (`default` for `export default`).
    pub fixed_name: &'static str,
    /// The field that holds the value; a binder without one binds nothing.
    pub value_field: &'static str,
    /// Parent kinds the binder binds in; empty: anywhere.
    pub within: &'static [&'static str],
    /// A value of none of the bound kinds still makes the binding a naming scope for
    /// what it holds (a Java field, for the anonymous classes in its initializer).
    pub scopes_any_value: bool,
}

/// What a language binds: its binders, and what a value of each kind becomes when bound.
#[derive(Debug)]
pub struct Bindings {
    pub binders: &'static [Binder],
    /// Values that are a function unit named by the binding (functions, arrow functions).
    pub functions: &'static [&'static str],
    /// Values that are a type unit named by the binding (class expressions).
    pub types: &'static [&'static str],
    /// Values that are a naming scope only (object literals).
    pub scopes: &'static [&'static str],
    /// Calls, with their arguments field: a call with a function argument is one function
    /// unit named by the binding (`const Menu = React.memo((props) => {...})`); one with
    /// none but a scope argument is a scope named by it (`export const actionZoomIn =
    /// register({ perform() {} })` holds `actionZoomIn.perform`).
    pub calls: &'static [(&'static str, &'static str)],
    /// Wrappers that don't unbind (parentheses, type assertions), each with the index of
    /// the named child that is the wrapped value, comments not counted.
    pub wrappers: &'static [(&'static str, usize)],
    /// The name a binder's name node gives; `None` when it names no single thing (a
    /// destructuring pattern).
    pub name_of: fn(Node, &[u8]) -> Option<String>,
}

/// No binders: every unit is a declaration node.
pub const NO_BINDINGS: Bindings = Bindings {
    binders: &[],
    functions: &[],
    types: &[],
    scopes: &[],
    calls: &[],
    wrappers: &[],
    name_of: |_, _| None,
};

/// What one binder node binds: the unit and scope it makes, and the value nodes it claims
/// (their own declaration gives way to the binding: `Foo.prototype.m = function named()`
/// is `Foo.prototype.m`).
#[derive(Debug)]
pub struct Bound<'t> {
    pub decl: Decl,
    pub claimed: Vec<Node<'t>>,
}

/// What a bound value is, by its kind.
enum Value {
    Function,
    Type,
    Scope,
}

impl Bindings {
    /// What `node`, of `binder`'s kind, binds; `None` when its value is none of the bound
    /// kinds, it names nothing, or its `parent` is not one the binder binds in.
    pub fn bind<'t>(
        &self,
        binder: &Binder,
        node: Node<'t>,
        parent: Option<Node>,
        src: &[u8],
    ) -> Option<Bound<'t>> {
        if !binder.within.is_empty() && !parent.is_some_and(|p| binder.within.contains(&p.kind())) {
            return None;
        }
        let value = self.unwrap(node.child_by_field_name(binder.value_field)?);
        let (what, claimed) = match self.classify(value) {
            Some(classified) => classified,
            None if binder.scopes_any_value => (Value::Scope, Vec::new()),
            None => return None,
        };
        let name = match binder.name_field {
            Some(field) => (self.name_of)(node.child_by_field_name(field)?, src)?,
            None => binder.fixed_name.to_string(),
        };
        let decl = match what {
            Value::Function => Decl::unit(UnitKind::Function, name),
            Value::Type => Decl::unit(UnitKind::Type, name),
            Value::Scope => Decl {
                unit: None,
                scope: Some(name),
            },
        };
        Some(Bound { decl, claimed })
    }

    /// The value inside any wrappers that don't unbind. A comment inside a wrapper is no
    /// part of its value: `/** @type {F} */ (/** doc */ () => {})` wraps the function.
    fn unwrap<'t>(&self, mut value: Node<'t>) -> Node<'t> {
        while let Some(&(_, index)) = self.wrappers.iter().find(|(k, _)| *k == value.kind()) {
            let mut cursor = value.walk();
            let inner = value
                .named_children(&mut cursor)
                .filter(|child| !child.is_extra())
                .nth(index);
            match inner {
                Some(inner) => value = inner,
                None => break,
            }
        }
        value
    }

    /// What a value is when bound, and the nodes the binding claims.
    fn classify<'t>(&self, value: Node<'t>) -> Option<(Value, Vec<Node<'t>>)> {
        let kind = value.kind();
        if self.functions.contains(&kind) {
            return Some((Value::Function, vec![value]));
        }
        if self.types.contains(&kind) {
            return Some((Value::Type, vec![value]));
        }
        if self.scopes.contains(&kind) {
            return Some((Value::Scope, Vec::new()));
        }
        let &(_, field) = self.calls.iter().find(|(k, _)| *k == kind)?;
        if self.chained(value) {
            return None;
        }
        let arguments = value.child_by_field_name(field)?;
        let mut cursor = arguments.walk();
        let arguments: Vec<Node> = arguments
            .named_children(&mut cursor)
            .map(|a| self.unwrap(a))
            .collect();
        let functions: Vec<Node> = arguments
            .iter()
            .copied()
            .filter(|a| self.functions.contains(&a.kind()))
            .collect();
        if !functions.is_empty() {
            return Some((Value::Function, functions));
        }
        arguments
            .iter()
            .any(|a| self.scopes.contains(&a.kind()))
            .then_some((Value::Scope, Vec::new()))
    }

    /// Whether a call's callee holds a call of its own, down its first children: a chain
    /// (`xs.map(f).reduce(g)`, `fetch(url).then(f)`), whose functions are each named by
    /// the call it is passed to, not by the binding of the chain's result
    /// (docs/src/reference/languages.md#bindings).
    fn chained(&self, call: Node) -> bool {
        let mut node = first_child(call);
        while let Some(n) = node {
            if self.calls.iter().any(|(k, _)| *k == n.kind()) {
                return true;
            }
            node = first_child(n);
        }
        false
    }
}

/// A node's first named child that is no comment.
fn first_child(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    let child = node.named_children(&mut cursor).find(|c| !c.is_extra());
    child
}
