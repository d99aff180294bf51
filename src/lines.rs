//! Line and byte arithmetic, for the readers and the measurer alike: a file's lines
//! (docs/src/reference/measurement.md: a line break is `\n`, `\r\n` or a lone `\r`), its LF-normalised bytes
//! (docs/src/reference/documents.md), the BOM, and the lines that Rust test items take out of a file's count.
//! Every reader that reports a line number counts lines as [`line_of`] does; the text a
//! parser sees is `measure::parser_text`'s.

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 BOM.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A file's bytes as docs/src/reference/documents.md counts them: when it is UTF-8, LF-normalised (a leading BOM
/// removed, every `\r\n` counted as one byte), so a Windows checkout measures the same
/// as a Unix one; otherwise (a binary import) its raw length. The one byte counter of
/// `file_bytes` and `loaded_bytes`.
pub fn counted_bytes(bytes: &[u8]) -> u64 {
    let body = strip_bom(bytes);
    let len = if std::str::from_utf8(body).is_ok() {
        body.len() - body.windows(2).filter(|w| w == b"\r\n").count()
    } else {
        bytes.len()
    };
    u64::try_from(len).unwrap_or(u64::MAX)
}

/// The number of line breaks (`\n`, `\r\n`, a lone `\r`), plus one when the last line
/// has none; an empty text has 0.
pub fn count_lines(text: &str) -> u64 {
    let unterminated = !text.is_empty() && !text.ends_with(['\n', '\r']);
    u64::try_from(breaks(text.as_bytes())).unwrap_or(u64::MAX) + u64::from(unterminated)
}

/// The line breaks in `bytes`: every `\n`, and every `\r` not followed by one.
fn breaks(bytes: &[u8]) -> usize {
    let lone_cr = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    bytes.iter().filter(|&&b| b == b'\n').count() + lone_cr
}

/// Byte offset → 1-based line, for many look-ups in one text.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    /// The offset at which each line after the first starts.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let starts = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .map(|(i, _)| i + 1)
            .collect();
        LineIndex { starts }
    }

    /// The 1-based line that byte `offset` is on (the `\n` of a `\r\n` is on the line it
    /// ends).
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) + 1
    }
}

/// The 1-based line that byte `offset` of `text` (UTF-8 or not) is on.
pub fn line_of(text: &[u8], offset: usize) -> usize {
    let before = text.get(..offset).unwrap_or(text);
    // A `\r` just before `offset` ends its line even when `offset` is on the `\n` after it.
    let split_crlf = before.ends_with(b"\r") && text.get(offset) == Some(&b'\n');
    breaks(before) + 1 - usize::from(split_crlf)
}

/// The lines of `text`, each without its line break (`\n`, `\r\n` or a lone `\r`), as
/// [`count_lines`] counts them (an empty last line after a final break is not one).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text).filter(|t| !t.is_empty());
    std::iter::from_fn(move || {
        let current = rest?;
        let Some(end) = current.find(['\n', '\r']) else {
            rest = None;
            return Some(current);
        };
        let width = if current[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        rest = Some(&current[end + width..]).filter(|r| !r.is_empty());
        Some(&current[..end])
    })
}

/// How many of the lines `1..=total` the spans cover, each line once however many
/// spans hold it.
pub fn covered_lines(spans: &[(u32, u32)], total: u64) -> u64 {
    let mut spans: Vec<(u64, u64)> = spans
        .iter()
        .map(|&(a, b)| (u64::from(a), u64::from(b).min(total)))
        .filter(|(a, b)| a <= b)
        .collect();
    spans.sort_unstable();
    let mut covered = 0;
    let mut next_free = 1u64;
    for (start, end) in spans {
        let from = start.max(next_free);
        if end >= from {
            covered += end - from + 1;
            next_free = end + 1;
        }
    }
    covered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_breaks_plus_an_unterminated_last_line() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
        assert_eq!(count_lines("a\r\nb\r\n"), 2);
        assert_eq!(count_lines("\n\n"), 2);
        assert_eq!(count_lines("a\rb"), 2);
        assert_eq!(count_lines("a\r"), 1);
        assert_eq!(count_lines("a\r\rb\r\n"), 3);
        assert_eq!(count_lines("\r"), 1);
        assert_eq!(count_lines("\r\n\n\r"), 3);
    }

    #[test]
    fn line_of_counts_every_kind_of_break() {
        let text = "a\nb\r\nc\rd";
        let at = |c: char| line_of(text.as_bytes(), text.find(c).unwrap());
        assert_eq!([at('a'), at('b'), at('c'), at('d')], [1, 2, 3, 4]);
        assert_eq!(line_of(text.as_bytes(), 3), 2, "the \\r of a \\r\\n");
        assert_eq!(line_of(text.as_bytes(), 4), 2, "the \\n of a \\r\\n");
        assert_eq!(line_of(text.as_bytes(), 99), 4);
        let index = LineIndex::new(text);
        for offset in 0..=text.len() + 1 {
            let line = line_of(text.as_bytes(), offset);
            assert_eq!(index.line_of(offset), line, "{offset}");
        }
    }

    #[test]
    fn lines_split_at_every_kind_of_break() {
        fn split(t: &str) -> Vec<&str> {
            lines(t).collect()
        }
        assert_eq!(split("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(split("a\r\r\n"), ["a", ""]);
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("\n"), [""]);
        for t in ["a\r\r\n", "x\ny", "\r\n\n\r", "z\r"] {
            assert_eq!(split(t).len() as u64, count_lines(t), "{t:?}");
        }
    }

    #[test]
    fn bytes_are_lf_normalised_without_the_bom() {
        assert_eq!(counted_bytes(b""), 0);
        assert_eq!(counted_bytes(b"ab\n"), 3);
        assert_eq!(counted_bytes(b"ab\r\n"), 3);
        assert_eq!(counted_bytes(b"\xEF\xBB\xBFab\r\ncd\r\n"), 6);
        assert_eq!(counted_bytes(b"a\rb\r\r\n"), 5);
        // A lone `\r` is a line break of one byte, as `\n` is: the same text with any
        // line ends counts the same.
        assert_eq!(counted_bytes(b"a\rb\r"), counted_bytes(b"a\nb\n"));
        assert_eq!(counted_bytes(b"a\r\nb\r\n"), counted_bytes(b"a\nb\n"));
        assert_eq!(counted_bytes("é\r\n".as_bytes()), 3);
        assert_eq!(counted_bytes(b"\xFF\r\n\x00"), 4);
        assert_eq!(counted_bytes(b"\xEF\xBB\xBF\xFF"), 4);
    }

    #[test]
    fn bom_is_stripped_once() {
        assert_eq!(strip_bom(b"\xEF\xBB\xBFfn"), b"fn");
        assert_eq!(strip_bom(b"\xEF\xBB\xBF"), b"");
        assert_eq!(strip_bom(b"fn"), b"fn");
    }

    #[test]
    fn covered_lines_counts_overlaps_once() {
        assert_eq!(covered_lines(&[], 10), 0);
        assert_eq!(covered_lines(&[(2, 4)], 10), 3);
        assert_eq!(covered_lines(&[(2, 4), (4, 6), (3, 3)], 10), 5);
        assert_eq!(covered_lines(&[(8, 12), (1, 1)], 10), 4);
    }
}
