//! The measurer's debug view (stage 2): the syntax tree tree-sitter made of one file,
//! each named node's kind and lines indented by depth, like difftastic's `--dump-ts`,
//! and, for `measure --dump-tree`, what the walk made of each node, so a user can see why
//! a unit has the lines it has. The same pre-order walk as the measurer's, with the
//! measurer's own walker riding along.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use tree_sitter::{Node, Tree, TreeCursor};

use super::parse;
use super::parser_text::parser_text;
use super::syntax_walk::{preorder, Visit, Walker};
use crate::lang::{end_line, start_line, Lang, Role};
use crate::lines::strip_bom;
use crate::model::{Source, Unit};

/// The longest leaf text shown.
const SHOWN_TEXT: usize = 40;
/// Deeper nodes are indented no further, and show their depth instead.
const SHOWN_DEPTH: usize = 64;

/// One line per named node: `field: kind start-end`, leaves with their text, ERROR and
/// MISSING marked. `None` when the path is not a parsed language (not Markdown), the file
/// is not UTF-8, or the parser gives no tree.
pub fn dump_tree(path: &str, bytes: &[u8]) -> Option<String> {
    dump(path, bytes, false)
}

/// [`dump_tree`], each line followed by what the walk made of the node: `unit function
/// Parser::new 3-9`, `scope Parser`, `attribute`, `test item 12-40, left out`, `left
/// alone` (the walk does not look inside), `comment`, `syntax error`; nodes inside one
/// the walk left alone are marked `·`. The top-level statements' unit (C#) ends it.
pub fn dump_walk(path: &str, bytes: &[u8]) -> Option<String> {
    dump(path, bytes, true)
}

fn dump(path: &str, bytes: &[u8], walked: bool) -> Option<String> {
    let lang = Lang::for_path(path)?;
    let text = std::str::from_utf8(strip_bom(bytes)).ok()?;
    let parsed = parser_text(lang, text);
    let tree = parse(lang, &parsed, Duration::ZERO).ok()?;
    let src = parsed.as_bytes();
    let shapes = walked.then(|| Shapes::of(lang, &tree, src));
    let mut dump = Dump {
        src,
        shapes,
        out: String::new(),
        walk: walked.then(|| Traced {
            lang,
            walker: Walker::new(lang, &tree, src),
            left_alone: None,
        }),
    };
    preorder(&tree, &mut dump);
    if let Some(traced) = dump.walk {
        entry_point(&mut dump.out, traced, dump.shapes.as_ref());
    }
    Some(dump.out)
}

/// What the shape pass added at each node, and each unit's shape, in the order the walk
/// finds units (docs/src/reference/metrics.md#shape-metrics).
struct Shapes {
    notes: HashMap<usize, String>,
    units: Vec<String>,
}

impl Shapes {
    fn of(lang: &Lang, tree: &Tree, src: &[u8]) -> Shapes {
        let mut walker = Walker::new(lang, tree, src);
        preorder(tree, &mut walker);
        let mut trace = Vec::new();
        let walked = walker.finish(Some(&mut trace));
        let mut notes: HashMap<usize, String> = HashMap::new();
        for (id, added) in trace {
            notes.insert(id, added.note());
        }
        let units = walked.units.iter().map(shape_text).collect();
        Shapes { notes, units }
    }
}

/// `  params 3  nesting 2  cyclomatic 7  cognitive 9`: the values a unit stores beside
/// its lines, each labelled by its field; nothing for a type unit.
fn shape_text(unit: &Unit) -> String {
    let mut text = String::new();
    for (metric, value) in unit.values() {
        if matches!(metric.def().source, Source::Stored) {
            let _ = write!(text, "  {} {value}", metric.def().field);
        }
    }
    text
}

/// The dump under way: its lines and, for [`dump_walk`], the measurer's walker.
struct Dump<'a, 't> {
    src: &'a [u8],
    shapes: Option<Shapes>,
    out: String,
    walk: Option<Traced<'a, 't>>,
}

/// The measurer's walker, and the depth of the node it last left alone.
struct Traced<'a, 't> {
    lang: &'a Lang,
    walker: Walker<'a, 't>,
    left_alone: Option<usize>,
}

impl<'t> Visit<'t> for Dump<'_, 't> {
    fn enter(&mut self, node: Node<'t>, depth: usize, cursor: &TreeCursor<'t>) -> Option<bool> {
        let made = match &mut self.walk {
            Some(traced) => traced.enter((node, cursor), depth, self.shapes.as_ref()),
            None => None,
        };
        if node.is_named() || node.is_missing() {
            dump_line(&mut self.out, depth, cursor.field_name(), node, self.src);
            let note = self.shapes.as_ref().and_then(|s| s.notes.get(&node.id()));
            let made = made.filter(|m| !m.is_empty());
            match (made, note) {
                (Some(made), Some(note)) => {
                    let _ = write!(self.out, "  ← {made}; {note}");
                }
                (Some(made), None) => {
                    let _ = write!(self.out, "  ← {made}");
                }
                (None, Some(note)) => {
                    let _ = write!(self.out, "  ← {note}");
                }
                (None, None) => {}
            }
            self.out.push('\n');
        }
        Some(true)
    }

    fn leave(&mut self, depth: usize) {
        if let Some(traced) = &mut self.walk {
            if traced.left_alone.is_none_or(|d| depth <= d) {
                traced.walker.leave(depth);
            }
        }
    }
}

impl<'t> Traced<'_, 't> {
    /// Visits a node as the measurer does, unless it lies inside one the walk left
    /// alone; says what the walk made of it.
    fn enter(
        &mut self,
        (node, cursor): (Node<'t>, &TreeCursor<'t>),
        depth: usize,
        shapes: Option<&Shapes>,
    ) -> Option<String> {
        match self.left_alone {
            Some(d) if depth > d => return Some("·".to_string()),
            _ => self.left_alone = None,
        }
        let w = &self.walker;
        let before = (w.out.units.len(), w.scopes.len(), w.out.test_spans.len());
        let errors = w.out.error_lines.len();
        let claimed = w.is_claimed(node);
        let descend = Visit::enter(&mut self.walker, node, depth, cursor)?;
        let w = &self.walker;
        let error = w.out.error_lines.len() > errors;
        let mut made = role_note(self.lang, node, error);
        let units = &w.out.units[before.0..];
        for (index, unit) in units.iter().enumerate() {
            let kind = unit.kind.key();
            let anonymous = if unit.anonymous { " (anonymous)" } else { "" };
            let shape = shapes
                .and_then(|s| s.units.get(before.0 + index))
                .map_or("", String::as_str);
            made.push(format!(
                "unit {kind}{anonymous} {} {}-{}{shape}",
                unit.name, unit.start_line, unit.end_line
            ));
        }
        if units.is_empty() && !claimed && self.lang.kind(node).anonymous {
            let parent = depth.checked_sub(1).and_then(|d| w.path.get(d)).copied();
            made.push(anonymous_note(self.lang, node, parent));
        }
        made.extend(
            w.scopes[before.1..]
                .iter()
                .map(|s| format!("scope {}", s.segment)),
        );
        for (start, end) in &w.out.test_spans[before.2..] {
            made.push(format!("test item {start}-{end}, left out"));
        }
        if claimed && made.is_empty() {
            made.push("bound: named by its binding".to_string());
        }
        if !descend && node.child_count() > 0 {
            if made.is_empty() {
                made.push("left alone".to_string());
            }
            self.left_alone = Some(depth);
        }
        Some(made.join("; "))
    }
}

/// Why an anonymous function is no unit: the body of the closure around it, or on one
/// line (docs/src/reference/measurement.md#anonymous-functions).
fn anonymous_note(lang: &Lang, node: Node, parent: Option<Node>) -> String {
    if lang.anonymous.is_body(node, parent) {
        "anonymous: the body of the function around it".to_string()
    } else {
        "anonymous on one line: no unit".to_string()
    }
}

/// What a node's role says of it, where its role makes nothing else: an attribute, a
/// decorator, a comment; and a syntax error.
fn role_note(lang: &Lang, node: Node, error: bool) -> Vec<String> {
    let mut notes = Vec::new();
    match lang.role(node) {
        Role::Attribute => notes.push("attribute".to_string()),
        Role::Decorator => notes.push("decorator".to_string()),
        Role::Comment => notes.push("comment".to_string()),
        _ => {}
    }
    if error {
        notes.push("syntax error".to_string());
    }
    notes
}

/// The unit the walk makes of the top-level statements (C#), when there are any.
fn entry_point(out: &mut String, traced: Traced, shapes: Option<&Shapes>) {
    let before = traced.walker.out.units.len();
    let walked = traced.walker.finish(None);
    for (index, unit) in walked.units.iter().enumerate().skip(before) {
        let _ = writeln!(
            out,
            "top-level statements  ← unit {} {} {}-{}{}",
            unit.kind.key(),
            unit.name,
            unit.start_line,
            unit.end_line,
            shapes
                .and_then(|s| s.units.get(index))
                .map_or("", String::as_str),
        );
    }
}

fn dump_line(out: &mut String, depth: usize, field: Option<&str>, node: Node, src: &[u8]) {
    let mut indent = "  ".repeat(depth.min(SHOWN_DEPTH));
    if depth > SHOWN_DEPTH {
        let _ = write!(indent, "[{depth}] ");
    }
    let field = field.map(|f| format!("{f}: ")).unwrap_or_default();
    let kind = match (node.is_missing(), node.is_named()) {
        (true, _) => format!("MISSING {:?}", node.kind()),
        (false, true) => node.kind().to_string(),
        (false, false) => format!("{:?}", node.kind()),
    };
    let (start, end) = (node.start_position(), node.end_position());
    let _ = write!(
        out,
        "{indent}{field}{kind} {}-{}",
        start_line(start),
        end_line(start, end)
    );
    if node.child_count() == 0 && !node.is_missing() {
        let leaf = crate::lang::text(node, src);
        let mut shown: String = leaf.chars().take(SHOWN_TEXT).collect();
        if leaf.chars().count() > SHOWN_TEXT {
            shown.push('…');
        }
        let _ = write!(out, " {shown:?}");
    }
}

#[cfg(test)]
mod tests;
