//! The nesting bound of every YAML document structgate reads (docs/src/reference/gate.md#integrity "parsers are
//! bounded"): a linear scan that refuses a document nested deeper than [`MAX_DEPTH`]
//! levels, flow (`[[[...]]]`) or block (`- - - x`, indentation), before the parser sees it.
//! The YAML parser spends time quadratic in the depth (seconds at 100,000 levels, within
//! the 1 MiB a document may have), and no configuration comes near 64 levels.
//!
//! The scan over-counts rather than under-counts: every `[` or `{` outside quotes and
//! comments opens a level (also inside a plain scalar, where YAML reads it as text); in
//! block context, each `- `, `? ` and `key:` indicator is an entry of the collection open
//! at its column, or opens one (compact `- - x` opens two). Block scalars (`|`, `>`) are
//! text.

use super::YamlError;

/// The deepest nesting read.
pub const MAX_DEPTH: usize = 64;

/// Refuses `text` when it nests deeper than [`MAX_DEPTH`] levels, naming the first line
/// that does.
pub fn check_depth(text: &str) -> Result<(), YamlError> {
    let mut scan = Scan::default();
    for (index, line) in crate::lines::lines(text).enumerate() {
        if scan.line(line.as_bytes()) > MAX_DEPTH {
            return Err(YamlError {
                line: Some(index + 1),
                message: format!("YAML nested deeper than {MAX_DEPTH} levels; refusing to read it"),
            });
        }
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoted {
    Single,
    Double,
}

#[derive(Debug, Default)]
struct Scan {
    /// The open block collections: the column of each and whether it is a sequence.
    open: Vec<(usize, bool)>,
    /// Open flow collections.
    flow: usize,
    /// A quoted scalar that runs on past its line.
    quoted: Option<Quoted>,
    /// Inside a block scalar whose parent line is indented this far: more-indented and
    /// blank lines are its text.
    block_scalar: Option<usize>,
}

impl Scan {
    /// Reads one line (without its break); returns the deepest nesting on it.
    fn line(&mut self, line: &[u8]) -> usize {
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let body = &line[indent..];
        if let Some(parent) = self.block_scalar {
            if body.is_empty() || indent > parent {
                return 0;
            }
            self.block_scalar = None;
        }
        if self.flow > 0 || self.quoted.is_some() {
            return self.flow_text(body, self.open.len());
        }
        if body.is_empty() || body[0] == b'#' {
            return self.open.len();
        }
        if body.starts_with(b"---") || body.starts_with(b"...") {
            self.open.clear();
            return 0;
        }
        while self.open.last().is_some_and(|&(column, _)| column > indent) {
            self.open.pop();
        }
        let (indicators, rest) = block_indicators(body, indent);
        for (column, sequence) in indicators {
            self.open_block(column, sequence);
        }
        if is_block_scalar_header(rest) {
            self.block_scalar = Some(indent);
        }
        self.flow_text(rest, self.open.len())
    }

    /// A `- `, `? ` or `key:` at `column`: an entry of the collection open there when it
    /// is of that kind, else a new level.
    fn open_block(&mut self, column: usize, sequence: bool) {
        let same_column =
            |open: &[(usize, bool)], at: usize| open.get(at).is_some_and(|&(c, _)| c == column);
        // A key at the column of a sequence that sits under a mapping at that column
        // (`a:` / `- 1` / `b: 2`) ends the sequence.
        while self.open.len() >= 2
            && self.open.last() == Some(&(column, !sequence))
            && same_column(&self.open, self.open.len() - 2)
        {
            self.open.pop();
        }
        if self.open.last() != Some(&(column, sequence)) {
            self.open.push((column, sequence));
        }
    }

    /// Reads `text` for quotes, comments and flow brackets, on top of `depth` levels;
    /// returns the deepest it reaches.
    fn flow_text(&mut self, text: &[u8], depth: usize) -> usize {
        let mut deepest = depth + self.flow;
        let mut at = 0;
        while at < text.len() {
            let b = text[at];
            match (self.quoted, b) {
                (Some(Quoted::Single), b'\'') if text.get(at + 1) == Some(&b'\'') => at += 1,
                (Some(Quoted::Single), b'\'') | (Some(Quoted::Double), b'"') => {
                    self.quoted = None;
                }
                (Some(Quoted::Double), b'\\') => at += 1,
                (Some(_), _) => {}
                (None, b'\'') => self.quoted = Some(Quoted::Single),
                (None, b'"') => self.quoted = Some(Quoted::Double),
                (None, b'#') if at == 0 || text[at - 1] == b' ' || text[at - 1] == b'\t' => {
                    break;
                }
                (None, b'[' | b'{') => {
                    self.flow += 1;
                    deepest = deepest.max(depth + self.flow);
                }
                (None, b']' | b'}') => self.flow = self.flow.saturating_sub(1),
                _ => {}
            }
            at += 1;
        }
        deepest
    }
}

/// The block indicators a line's content starts with, each with its column and whether
/// it opens a sequence entry: every `- ` (a sequence) and `? ` (a key), then a `key:`
/// after them. Returns them and the rest of the line after the indicators.
fn block_indicators(body: &[u8], indent: usize) -> (Vec<(usize, bool)>, &[u8]) {
    let mut found = Vec::new();
    let mut rest = body;
    while let [indicator @ (b'-' | b'?'), after @ ..] = rest {
        if !(after.is_empty() || after[0] == b' ' || after[0] == b'\t') {
            break;
        }
        found.push((indent + body.len() - rest.len(), *indicator == b'-'));
        rest = trim_start(after);
    }
    let key = rest
        .windows(2)
        .position(|w| w[0] == b':' && (w[1] == b' ' || w[1] == b'\t'))
        .or_else(|| rest.ends_with(b":").then(|| rest.len() - 1));
    let starts_flow_or_quote = matches!(rest.first(), Some(b'[' | b'{' | b'"' | b'\''));
    match key {
        Some(colon) if !starts_flow_or_quote => {
            found.push((indent + body.len() - rest.len(), false));
            (found, trim_start(&rest[colon + 1..]))
        }
        _ => (found, rest),
    }
}

fn trim_start(text: &[u8]) -> &[u8] {
    let spaces = text
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    &text[spaces..]
}

/// `|`, `>`, `|-`, `>+2`, ... optionally followed by a comment: the line's value is a
/// block scalar whose text is on the lines below.
fn is_block_scalar_header(rest: &[u8]) -> bool {
    let Some((&first, after)) = rest.split_first() else {
        return false;
    };
    let after_indicators: Vec<u8> = after
        .iter()
        .copied()
        .skip_while(|b| matches!(b, b'-' | b'+' | b'0'..=b'9'))
        .collect();
    let tail = trim_start(&after_indicators);
    matches!(first, b'|' | b'>') && (tail.is_empty() || tail[0] == b'#')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(text: &str) -> Option<usize> {
        check_depth(text).err().map(|e| e.line.unwrap())
    }

    #[test]
    fn flow_nesting_past_64_is_refused_at_its_line() {
        let ok = format!("a: {}{}\n", "[".repeat(63), "]".repeat(63));
        assert_eq!(depth_error(&ok), None);
        let deep = format!("a: 1\nb: {}{}\n", "[".repeat(64), "]".repeat(64));
        assert_eq!(depth_error(&deep), Some(2));
        let across_lines = format!("a:\n{}\n", "{x: [\n".repeat(40));
        assert_eq!(depth_error(&across_lines), Some(33));
    }

    #[test]
    fn block_nesting_past_64_is_refused_at_its_line() {
        let compact = format!("a:\n  {}x\n", "- ".repeat(64));
        assert_eq!(depth_error(&compact), Some(2));
        let indented: String = (0..70)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert_eq!(depth_error(&indented), Some(65));
        let shallow: String = (0..70)
            .map(|i| format!("k{i}:\n  - {i}\n- x: 1\n  y: 2\n"))
            .collect();
        assert_eq!(depth_error(&shallow), None);
        // A sequence at its key's column, nested: two levels a line.
        let same_column: String = (0..40)
            .map(|i| format!("{}- k{i}:\n", "  ".repeat(i)))
            .collect();
        assert_eq!(depth_error(&format!("a:\n{same_column}")), Some(33));
        // Each line's first `-` is an entry of the line above's innermost sequence.
        let compact_lines: String = (0..40)
            .map(|i| format!("{}- - - x\n", "    ".repeat(i)))
            .collect();
        assert_eq!(depth_error(&compact_lines), Some(32));
    }

    #[test]
    fn brackets_in_quotes_comments_and_block_scalars_do_not_nest() {
        let text = format!(
            "a: '{0}'' {0}'\nb: \"{0}\\\" {0}\"\nc: x # {0}\nd: |\n  {0}\n\n  {0}\ne: >-\n  {0}\nf: 1\n",
            "[".repeat(100)
        );
        assert_eq!(depth_error(&text), None);
        let multi_line_quote = format!("a: \"x\n  {}\n  \"\n", "[".repeat(100));
        assert_eq!(depth_error(&multi_line_quote), None);
        assert_eq!(depth_error(&format!("a: x#{}\n", "[".repeat(65))), Some(1));
    }

    #[test]
    fn lone_cr_lines_are_lines() {
        let text = format!("a: 1\rb: 2\rc: {}\r", "[".repeat(65));
        assert_eq!(depth_error(&text), Some(3));
    }
}
