//! The four shape values of one function unit — parameters, nesting, cyclomatic and
//! cognitive complexity (docs/src/reference/metrics.md#shape-metrics) — computed in one
//! pass over the unit's own nodes, after the syntax walk found every unit of the file.
//!
//! A language states its forms as data ([`Forms`], one file per language beside this
//! one): which node kinds are `if`s, loops, switches and their cases, `try`s and
//! `catch`es, conditional expressions, short-circuit operators, labelled jumps,
//! comprehension clauses and anonymous functions, and how its parameter lists count.
//! The pass here applies them alike to every language. A node that is the root of
//! another function unit (the walk says which, never a rule of this pass) is left out
//! with all it holds; an anonymous function that is no unit is walked one level deeper.

mod csharp;
mod ecmascript;
mod go;
mod java;
mod marks;
mod pass;
mod python;
mod rust;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use tree_sitter::Node;

use self::marks::Marks;
use crate::lang::Lang;
use crate::model::{Language, Metric, Unit};

/// A language's control structures and operators, by node kind
/// (docs/src/reference/metrics.md#shape-metrics).
pub struct Forms {
    /// `if` (also `if let`, Python `if` and `elif`): a decision, a structure.
    pub ifs: &'static [&'static str],
    /// Nodes that wrap an `else` branch (`else_clause`): an `else`, or an `else if`
    /// when all they hold is an `if`.
    pub elses: &'static [&'static str],
    /// Switches and matches, statements and expressions: one structure, cognitive +1
    /// once; their cases count by [`Forms::case_decisions`].
    pub switches: &'static [&'static str],
    /// Cases, sections and arms of a switch or match.
    pub cases: &'static [&'static str],
    /// The decisions of one case node: its `case` labels, or 1 for an arm that is not
    /// an unguarded lone wildcard, plus a guard where the guard is no node of its own.
    pub case_decisions: fn(Node, &[u8]) -> u32,
    /// Loops that are decisions (`for`, `foreach`, `while`, `do`).
    pub loops: &'static [&'static str],
    /// Loops that are no decision (Rust `loop`).
    pub bare_loops: &'static [&'static str],
    /// `try` statements: a structure, no decision.
    pub tries: &'static [&'static str],
    /// `catch` and `except` clauses.
    pub catches: &'static [&'static str],
    /// Guards and filters that are nodes of their own (C# `when`, Java `guard`): one
    /// decision each, nothing for cognitive.
    pub guards: &'static [&'static str],
    /// Conditional expressions (`?:`, `x if c else y`).
    pub conditionals: &'static [&'static str],
    /// Binary expressions whose `operator` field may be a short-circuit operator.
    pub binaries: &'static [&'static str],
    /// Assignments whose `operator` field may be `&&=`, `||=` or `??=`.
    pub assignments: &'static [&'static str],
    /// Parenthesized expressions, seen through when a sequence of logical operators is
    /// read.
    pub parens: &'static [&'static str],
    /// `break` and `continue`: cognitive +1 when they name a label.
    pub jumps: &'static [&'static str],
    /// The kinds of a jump's label.
    pub labels: &'static [&'static str],
    /// `goto`.
    pub gotos: &'static [&'static str],
    /// Clauses of a comprehension or query (Python `for`/`if`, C# `from`/`where`): one
    /// decision each, nothing for cognitive.
    pub clauses: &'static [&'static str],
    /// Anonymous functions (and any function kind): when no unit of their own, their
    /// code is the unit's, one level deeper.
    pub lambdas: &'static [&'static str],
    /// Decorators, annotations and attributes: no unit's code.
    pub ignored: &'static [&'static str],
    /// Children of a structure that are its bodies though no `body`, `consequence`,
    /// `alternative`, `handler` or `finalizer` field says so (Go's cases, a Python
    /// `block`, C#'s catch clauses).
    pub bodies: &'static [&'static str],
    /// Rust `let ... else`: an `if let` with its `else`, when it has an `alternative`.
    pub let_else: &'static [&'static str],
    /// Rust `let` chains: each `&&` token a decision, the chain one sequence.
    pub let_chains: &'static [&'static str],
    /// The parameters of a function unit's node (receivers left out).
    pub params: fn(Node, &[u8]) -> u32,
    /// Tokens of which every construct above that counts holds one among its own bytes
    /// (its keyword, operator or `=>`), words and signs: the pass leaves out a subtree
    /// that holds none.
    pub marks: &'static [&'static str],
}

/// The short-circuit operators that form sequences for cognitive complexity.
pub(super) const SEQUENCE_OPS: [&str; 4] = ["&&", "||", "and", "or"];
/// The short-circuit operators that are decisions for cyclomatic complexity.
pub(super) const DECISION_OPS: [&str; 5] = ["&&", "||", "and", "or", "??"];
/// The assignment forms of the short-circuit operators.
pub(super) const ASSIGNMENT_OPS: [&str; 3] = ["&&=", "||=", "??="];
/// The fields that hold a structure's bodies; its other children are its header.
pub(super) const BODY_FIELDS: [&str; 5] =
    ["body", "consequence", "alternative", "handler", "finalizer"];

/// The four shape values of one function unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// `function_params`: its parameters, the receiver not counted.
    pub params: u32,
    /// `function_nesting`: the deepest nesting of control structures in its own code.
    pub nesting: u32,
    /// `function_cyclomatic`: 1 plus its decisions.
    pub cyclomatic: u32,
    /// `function_cognitive`: its cognitive complexity.
    pub cognitive: u32,
}

impl Shape {
    /// Sets the unit's values of the four metrics.
    fn set_on(self, unit: &mut Unit) {
        unit.set_value(Metric::FunctionParams, u64::from(self.params));
        unit.set_value(Metric::FunctionNesting, u64::from(self.nesting));
        unit.set_value(Metric::FunctionCyclomatic, u64::from(self.cyclomatic));
        unit.set_value(Metric::FunctionCognitive, u64::from(self.cognitive));
    }
}

/// The forms of a grammar's language.
pub fn forms(lang: &Lang) -> &'static Forms {
    match lang.language {
        Language::CSharp => &csharp::FORMS,
        Language::Rust => &rust::FORMS,
        Language::TypeScript | Language::JavaScript => &ecmascript::FORMS,
        Language::Python => &python::FORMS,
        Language::Go => &go::FORMS,
        Language::Java | Language::Markdown => &java::FORMS,
    }
}

/// What a node kind is to the pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    Plain,
    If,
    Else,
    Switch,
    Case,
    Loop,
    BareLoop,
    Try,
    Catch,
    Guard,
    Conditional,
    Binary,
    Assignment,
    Paren,
    Jump,
    Goto,
    Clause,
    Lambda,
    Ignored,
    LetElse,
    LetChain,
}

/// A grammar's kinds, by kind id, as [`Form`]s.
pub(super) struct Table {
    forms: Vec<Form>,
    /// Kinds that are bodies of a structure they stand in (see [`Forms::bodies`]).
    bodies: Vec<bool>,
    /// The ids of the fields the pass asks for.
    pub(super) fields: Fields,
}

/// The ids of the fields the pass asks for in one grammar, `None` where it has none.
pub(super) struct Fields {
    pub(super) operator: Option<u16>,
    pub(super) condition: Option<u16>,
    pub(super) alternative: Option<u16>,
    pub(super) left: Option<u16>,
    pub(super) right: Option<u16>,
}

fn table(lang: &Lang) -> &'static Table {
    static TABLES: [OnceLock<Table>; 8] = [const { OnceLock::new() }; 8];
    let slot = usize::from(lang.grammar_id()).min(TABLES.len() - 1);
    TABLES[slot].get_or_init(|| build_table(lang, forms(lang)))
}

fn build_table(lang: &Lang, forms: &Forms) -> Table {
    let grammar = (lang.grammar)();
    let count = grammar.node_kind_count();
    let lists: [(&[&str], Form); 20] = [
        (forms.ifs, Form::If),
        (forms.elses, Form::Else),
        (forms.switches, Form::Switch),
        (forms.cases, Form::Case),
        (forms.loops, Form::Loop),
        (forms.bare_loops, Form::BareLoop),
        (forms.tries, Form::Try),
        (forms.catches, Form::Catch),
        (forms.guards, Form::Guard),
        (forms.conditionals, Form::Conditional),
        (forms.binaries, Form::Binary),
        (forms.assignments, Form::Assignment),
        (forms.parens, Form::Paren),
        (forms.jumps, Form::Jump),
        (forms.gotos, Form::Goto),
        (forms.clauses, Form::Clause),
        (forms.lambdas, Form::Lambda),
        (forms.ignored, Form::Ignored),
        (forms.let_else, Form::LetElse),
        (forms.let_chains, Form::LetChain),
    ];
    let field = |name: &str| grammar.field_id_for_name(name).map(|id| id.get());
    let mut table = Table {
        forms: vec![Form::Plain; count],
        bodies: vec![false; count],
        fields: Fields {
            operator: field("operator"),
            condition: field("condition"),
            alternative: field("alternative"),
            left: field("left"),
            right: field("right"),
        },
    };
    for id in 0..count {
        let id16 = u16::try_from(id).unwrap_or(u16::MAX);
        if !grammar.node_kind_is_named(id16) {
            continue;
        }
        let Some(kind) = grammar.node_kind_for_id(id16) else {
            continue;
        };
        if let Some((_, form)) = lists.iter().find(|(kinds, _)| kinds.contains(&kind)) {
            table.forms[id] = *form;
        }
        table.bodies[id] = forms.bodies.contains(&kind);
    }
    table
}

impl Table {
    pub(super) fn form(&self, node: Node) -> Form {
        if !node.is_named() {
            return Form::Plain;
        }
        self.forms
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Form::Plain)
    }

    /// `node`'s child in the field of id `field`.
    pub(super) fn child<'t>(&self, node: Node<'t>, field: Option<u16>) -> Option<Node<'t>> {
        node.child_by_field_id(field?)
    }

    pub(super) fn is_body_kind(&self, node: Node) -> bool {
        node.is_named()
            && self
                .bodies
                .get(usize::from(node.kind_id()))
                .copied()
                .unwrap_or(false)
    }
}

/// What one node added to its unit's values: shown by `measure --dump-tree`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Added {
    /// The nesting its bodies reach (a structure), 0 for none.
    pub level: u32,
    pub cyclomatic: u32,
    pub cognitive: u32,
    /// The part of `cognitive` that is its nesting increment.
    pub nesting: u32,
}

impl Added {
    /// `[level 2, cyclomatic +1, cognitive +2 (nesting 1)]`, what counted only.
    pub fn note(&self) -> String {
        let mut parts = Vec::new();
        if self.level > 0 {
            parts.push(format!("level {}", self.level));
        }
        if self.cyclomatic > 0 {
            parts.push(format!("cyclomatic +{}", self.cyclomatic));
        }
        if self.cognitive > 0 {
            let nesting = match self.nesting {
                0 => String::new(),
                n => format!(" (nesting {n})"),
            };
            parts.push(format!("cognitive +{}{nesting}", self.cognitive));
        }
        format!("[{}]", parts.join(", "))
    }
}

/// The node ids of every function unit's root in a file, sorted: a unit's pass leaves
/// them out.
pub struct Roots(Vec<usize>);

impl Roots {
    pub fn new(mut ids: Vec<usize>) -> Roots {
        ids.sort_unstable();
        Roots(ids)
    }

    pub(super) fn contains(&self, id: usize) -> bool {
        self.0.binary_search(&id).is_ok()
    }
}

/// The shape of the function unit whose code is `nodes` (one node; several for C#'s
/// top-level statements), `function` its node with the parameters (if any). `roots`
/// holds every function unit's root of the file; `trace` gets what each node added.
fn shape<'t>(
    lang: &Lang,
    function: Option<Node<'t>>,
    nodes: &[Node<'t>],
    (leave, scratch): ((&Roots, &Marks), &mut pass::Scratch<'t>),
    src: &[u8],
    mut trace: Option<&mut Vec<(usize, Added)>>,
) -> Shape {
    let forms = forms(lang);
    let params = function.map_or(0, |f| (forms.params)(f, src));
    let mut pass = pass::Pass::new(forms, table(lang), leave, src);
    for node in nodes {
        pass.unit_code(*node, scratch, trace.as_deref_mut());
    }
    Shape {
        params,
        nesting: pass.nesting,
        cyclomatic: pass.cyclomatic,
        cognitive: pass.cognitive,
    }
}

/// Sets every function unit's shape, each from its own code: the code of the other
/// function units is theirs. `functions` pairs each function unit's index in `units`
/// with the node that holds its code; `entry_code`, the top-level statements of the
/// entry point's unit (the last of `units`), where there is one.
pub fn set_shapes<'t>(
    lang: &Lang,
    units: &mut [Unit],
    functions: &[(usize, Node<'t>)],
    entry_code: Option<Vec<Node<'t>>>,
    src: &[u8],
    mut trace: Option<&mut Vec<(usize, Added)>>,
) {
    if cfg!(feature = "bench-without-shape") || functions.is_empty() && entry_code.is_none() {
        return;
    }
    let roots = Roots::new(functions.iter().map(|(_, n)| n.id()).collect());
    let marks = Marks::of(forms(lang), src);
    let mut scratch = pass::Scratch::new();
    for &(index, code) in functions {
        let traced = trace.as_deref_mut();
        let leave = ((&roots, &marks), &mut scratch);
        let shape = shape(lang, Some(code), &[code], leave, src, traced);
        if let Some(unit) = units.get_mut(index) {
            shape.set_on(unit);
        }
    }
    if let (Some(code), Some(unit)) = (entry_code, units.last_mut()) {
        let leave = ((&roots, &marks), &mut scratch);
        shape(lang, None, &code, leave, src, trace).set_on(unit);
    }
}

/// A field of a grammar, its id looked up by name once (`child_by_field_name` compares
/// the grammar's field names one by one on every call): for a language that one grammar
/// parses, whose shape forms alone use the static.
pub(super) struct Field {
    name: &'static str,
    id: OnceLock<Option<u16>>,
}

impl Field {
    pub(super) const fn new(name: &'static str) -> Field {
        Field {
            name,
            id: OnceLock::new(),
        }
    }

    /// `node`'s child in this field.
    pub(super) fn of<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        let id = self.id.get_or_init(|| {
            let language = node.language();
            language.field_id_for_name(self.name).map(|id| id.get())
        });
        node.child_by_field_id((*id)?)
    }
}

/// The operator of a binary node or assignment (`&&`, `and`, `??=`); `""` without one.
pub(super) fn operator(table: &Table, node: Node) -> &'static str {
    table
        .child(node, table.fields.operator)
        .map_or("", |op| op.kind())
}

/// The one named child of a node that is no comment, if it has exactly one.
pub(super) fn only_child(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    let mut named = node.named_children(&mut cursor).filter(|c| !c.is_extra());
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

/// Counts the named children of a parameter list that are no comment and none of
/// `skipped`.
pub(crate) fn count_named(list: Node, skipped: &[&str]) -> u32 {
    let mut cursor = list.walk();
    let n = list
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra() && !skipped.contains(&c.kind()))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}
