//! The eager-import scanner of the measurer (stage 2, SPEC §8): the `@PATH` tokens of a
//! Markdown document, read from pulldown-cmark events so that code spans, fenced and
//! indented code blocks and HTML never yield an import.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// One `@PATH` token as written in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRef {
    /// PATH as written, without the `@` and without trailing `.,;:!?)`.
    pub path: String,
    /// The 1-based line of the `@`.
    pub line: u32,
}

/// Characters that end a sentence or a parenthesis, not a path.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')'];

/// Every eager import of a document, in the order written: a token `@PATH` that starts a
/// word (start of line, or after whitespace or `(`) in Markdown text, PATH running to the
/// next whitespace, losing any trailing `.,;:!?)`, and holding a `/` or a `.`.
pub fn scan(text: &str) -> Vec<ImportRef> {
    let lines = LineIndex::new(text);
    let mut found = Vec::new();
    let mut run = TextRun::default();
    let mut in_code = 0usize;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Text(t) if in_code == 0 => {
                run.push(&t, range);
                continue;
            }
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            _ => {}
        }
        run.flush(text, &lines, &mut found);
    }
    run.flush(text, &lines, &mut found);
    found
}

/// Adjacent text events joined (pulldown-cmark splits text at escapes, entities and
/// brackets), with the source offset where each piece starts.
#[derive(Default)]
struct TextRun {
    text: String,
    /// (offset in `text`, source offset of that piece).
    pieces: Vec<(usize, usize)>,
}

impl TextRun {
    fn push(&mut self, piece: &str, range: Range<usize>) {
        self.pieces.push((self.text.len(), range.start));
        self.text.push_str(piece);
    }

    /// Scans the run for imports and empties it.
    fn flush(&mut self, source: &str, lines: &LineIndex, found: &mut Vec<ImportRef>) {
        let Some(&(_, start)) = self.pieces.first() else {
            return;
        };
        let opens_a_word = source[..start]
            .chars()
            .next_back()
            .is_none_or(starts_a_word_after);
        for (at, _) in self.text.match_indices('@') {
            let word_start = match self.text[..at].chars().next_back() {
                Some(before) => starts_a_word_after(before),
                None => opens_a_word,
            };
            if !word_start {
                continue;
            }
            if let Some(path) = import_path(&self.text[at + 1..]) {
                let piece = self.pieces.partition_point(|&(offset, _)| offset <= at);
                let source_at = self.pieces.get(piece.saturating_sub(1)).map_or(0, |p| p.1);
                let line = lines.line_of(source_at);
                found.push(ImportRef { path, line });
            }
        }
        self.text.clear();
        self.pieces.clear();
    }
}

/// Whether an `@` right after `c` starts a word: after whitespace or `(`.
fn starts_a_word_after(c: char) -> bool {
    c.is_whitespace() || c == '('
}

/// The PATH of the text after an `@`: up to the next whitespace, trailing `.,;:!?)`
/// removed; `None` unless it holds a `/` or a `.`.
fn import_path(after: &str) -> Option<String> {
    let end = after.find(char::is_whitespace).unwrap_or(after.len());
    let path = after[..end].trim_end_matches(TRAILING);
    path.contains(['/', '.']).then(|| path.to_string())
}

/// Byte offset → 1-based line.
struct LineIndex {
    /// The offset of every `\n`.
    breaks: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let breaks = text.match_indices('\n').map(|(i, _)| i).collect();
        LineIndex { breaks }
    }

    fn line_of(&self, offset: usize) -> u32 {
        let before = self.breaks.partition_point(|&b| b < offset);
        u32::try_from(before).unwrap_or(u32::MAX - 1) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<(String, u32)> {
        scan(text).into_iter().map(|r| (r.path, r.line)).collect()
    }

    fn one(path: &str, line: u32) -> Vec<(String, u32)> {
        vec![(path.to_string(), line)]
    }

    #[test]
    fn an_import_starts_a_word_and_runs_to_whitespace() {
        assert_eq!(paths("@docs/a.md\n"), one("docs/a.md", 1));
        assert_eq!(paths("Read @a.md first.\n"), one("a.md", 1));
        assert_eq!(paths("intro\n\nsee (@notes/x.md).\n"), one("notes/x.md", 3));
        assert_eq!(paths("- item @x/y\n"), one("x/y", 1));
        assert_eq!(paths("# Title @h.md\n"), one("h.md", 1));
        assert_eq!(paths("> quoted\n> @q.md\n"), one("q.md", 2));
        assert_eq!(paths("one\n  @two.md\n"), one("two.md", 2));
        assert_eq!(paths("a\tb @c.md;\n"), one("c.md", 1));
    }

    #[test]
    fn trailing_punctuation_is_dropped_and_a_path_needs_a_slash_or_a_dot() {
        assert_eq!(paths("@a.md.,;:!?)\n"), one("a.md", 1));
        assert_eq!(paths("ask @team.\n"), vec![]);
        assert_eq!(paths("ask @team\n"), vec![]);
        assert_eq!(paths("@./\n"), one("./", 1));
        assert_eq!(paths("@.\n"), vec![]);
        assert_eq!(paths("@ a.md\n"), vec![]);
    }

    #[test]
    fn an_at_inside_a_word_is_no_import() {
        assert_eq!(paths("mail name@example.com today\n"), vec![]);
        assert_eq!(paths("**@bold.md**\n"), vec![]);
        assert_eq!(paths("x[@a.md]\n"), vec![]);
        assert_eq!(paths("a @b.md@c.md\n"), one("b.md@c.md", 1));
    }

    #[test]
    fn code_and_html_never_import() {
        let text = "`@span.md` and\n\n```\n@fenced.md\n```\n\n    @indented.md\n\n\
                    <div>\n@html.md\n</div>\n\n~~~md\n@tilde.md\n~~~\n\n<!-- @c.md -->\n\n@real.md\n";
        assert_eq!(paths(text), one("real.md", 19));
    }

    #[test]
    fn escaped_text_joins_into_one_path() {
        assert_eq!(paths("@docs/my\\_file.md\n"), one("docs/my_file.md", 1));
        assert_eq!(paths("@a&amp;b.md\n"), one("a&b.md", 1));
    }
}
