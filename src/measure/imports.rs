//! The eager-import scanner of the measurer (stage 2, docs/src/reference/documents.md): the `@PATH` tokens of a
//! Markdown document, read from pulldown-cmark events so that code spans, fenced and
//! indented code blocks and HTML never yield an import.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::lines::LineIndex;

/// One `@PATH` token as written in a document.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ImportRef {
    /// PATH as written, without the `@` and without trailing `.,;:!?)`.
    pub path: String,
    /// The 1-based line of the `@`.
    pub line: u32,
}

/// Characters that end a sentence or a parenthesis, not a path.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')'];

/// The longest PATH taken for an import, in bytes: no file system has longer paths.
pub const MAX_PATH: usize = 4096;

/// How many imports one file may make; [`scan`] stops after one more, so a caller can
/// tell that there were more (and say so).
pub const MAX_IMPORTS: usize = 1000;

/// Every eager import of a document, in the order written: a token `@PATH` that starts a
/// word (start of line, or after whitespace or `(`) in Markdown text, PATH running to the
/// next whitespace, losing any trailing `.,;:!?)`, and holding a `/` or a `.`. A PATH
/// longer than [`MAX_PATH`] is none; at most [`MAX_IMPORTS`] + 1 are returned.
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

    /// Scans the run for imports and empties it. Linear in the run's length: the end of
    /// a PATH, its trailing punctuation and its last `/` or `.` are found once per word.
    fn flush(&mut self, source: &str, lines: &LineIndex, found: &mut Vec<ImportRef>) {
        let Some(&(_, start)) = self.pieces.first() else {
            return;
        };
        let opens_a_word = source[..start]
            .chars()
            .next_back()
            .is_none_or(starts_a_word_after);
        for (word_at, word) in words(&self.text) {
            if found.len() > MAX_IMPORTS {
                break;
            }
            self.scan_word(word_at, word, opens_a_word, lines, found);
        }
        self.text.clear();
        self.pieces.clear();
    }

    /// The imports of one whitespace-free word of the run starting at `word_at`.
    fn scan_word(
        &self,
        word_at: usize,
        word: &str,
        opens_a_word: bool,
        lines: &LineIndex,
        found: &mut Vec<ImportRef>,
    ) {
        let end = word.trim_end_matches(TRAILING).len();
        let last_separator = word[..end].rfind(['/', '.']);
        for (k, _) in word[..end].match_indices('@') {
            let word_start = match k {
                0 => word_at > 0 || opens_a_word,
                _ => word.as_bytes()[k - 1] == b'(',
            };
            let holds_separator = last_separator.is_some_and(|sep| sep > k);
            if !word_start || !holds_separator || end - k - 1 > MAX_PATH {
                continue;
            }
            let at = word_at + k;
            let piece = self.pieces.partition_point(|&(offset, _)| offset <= at);
            let source_at = self.pieces.get(piece.saturating_sub(1)).map_or(0, |p| p.1);
            found.push(ImportRef {
                path: word[k + 1..end].to_string(),
                line: u32::try_from(lines.line_of(source_at)).unwrap_or(u32::MAX),
            });
            if found.len() > MAX_IMPORTS {
                return;
            }
        }
    }
}

/// Each whitespace-free word of `text` with its byte offset.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = text.as_ptr() as usize;
    text.split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - base, w))
}

/// Whether an `@` right after `c` starts a word: after whitespace or `(`.
fn starts_a_word_after(c: char) -> bool {
    c.is_whitespace() || c == '('
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
        assert_eq!(
            paths("(@a/(@b.md\n"),
            vec![("a/(@b.md".into(), 1), ("b.md".into(), 1)]
        );
    }

    #[test]
    fn hostile_runs_are_scanned_in_linear_time_with_caps() {
        let long = format!("@{}.md\n", "x".repeat(MAX_PATH));
        assert_eq!(paths(&long), vec![]);
        let fits = format!("@{}.md\n", "x".repeat(MAX_PATH - 3));
        assert_eq!(scan(&fits).len(), 1);
        let started = crate::thread_cpu::ThreadCpu::now();
        let many = "(@".repeat(500_000) + "a.md";
        assert_eq!(scan(&many).len(), MAX_IMPORTS + 1);
        let many = "@x.md ".repeat(200_000);
        assert_eq!(scan(&many).len(), MAX_IMPORTS + 1);
        let no_path = "(@".repeat(500_000);
        assert_eq!(scan(&no_path).len(), 0);
        let elapsed = started.elapsed();
        assert!(elapsed < std::time::Duration::from_secs(20), "{elapsed:?}");
    }

    #[test]
    fn code_and_html_never_import() {
        let text = "`@span.md` and\n\n```\n@fenced.md\n```\n\n    @indented.md\n\n\
                    <div>\n@html.md\n</div>\n\n~~~md\n@tilde.md\n~~~\n\n<!-- @c.md -->\n\n@real.md\n";
        assert_eq!(paths(text), one("real.md", 19));
        assert_eq!(paths("a <!-- @x.md --> b <!-- y\n@z.md\n--> c\n"), vec![]);
        assert_eq!(paths("a <b title=\"@q.md\">@t.md</b>\n"), vec![]);
    }

    #[test]
    fn escaped_text_joins_into_one_path() {
        assert_eq!(paths("@docs/my\\_file.md\n"), one("docs/my_file.md", 1));
        assert_eq!(paths("@a&amp;b.md\n"), one("a&b.md", 1));
    }
}
