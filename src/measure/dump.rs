//! The measurer's debug view (stage 2): the node kinds and line spans tree-sitter saw
//! in one file, indented by depth, like difftastic's `--dump-ts`, so a user can see why
//! a unit has the lines it has.

use std::fmt::Write as _;
use std::time::Duration;

use tree_sitter::Node;

use super::lines::{parser_text, strip_bom};
use super::parse;
use crate::lang::{end_line, start_line, Lang};

/// The longest leaf text shown.
const SHOWN_TEXT: usize = 40;
/// Deeper nodes are indented no further, and show their depth instead.
const SHOWN_DEPTH: usize = 64;

/// One line per named node: `field: kind start-end`, leaves with their text, ERROR and
/// MISSING marked. `None` when the path is not a parsed language (not Markdown), the file is not
/// UTF-8, or the parser gives no tree.
pub fn dump_tree(path: &str, bytes: &[u8]) -> Option<String> {
    let lang = Lang::for_path(path)?;
    let src = strip_bom(bytes);
    let text = std::str::from_utf8(src).ok()?;
    let parsed = parser_text(lang, text);
    let tree = parse(lang, &parsed, Duration::ZERO).ok()?;
    let src = parsed.as_bytes();
    let mut out = String::new();
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if node.is_named() || node.is_missing() {
            dump_line(&mut out, depth, cursor.field_name(), node, src);
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Some(out);
            }
            depth = depth.saturating_sub(1);
        }
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
    out.push('\n');
}
