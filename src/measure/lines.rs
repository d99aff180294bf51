//! Line and byte arithmetic of the measurer (stage 2): a file's lines (SPEC §4), its
//! LF-normalised bytes (SPEC §8), the BOM, and the lines that Rust test items take out of
//! a file's count.

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 BOM.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A file's bytes as SPEC §8 counts them: when it is UTF-8, LF-normalised (a leading BOM
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

/// The number of line breaks (`\n`, `\r\n`), plus one when the last line has none; an
/// empty text has 0. A lone `\r` is not a line break.
pub fn count_lines(text: &str) -> u64 {
    let breaks = text.bytes().filter(|&b| b == b'\n').count();
    let unterminated = !text.is_empty() && !text.ends_with('\n');
    u64::try_from(breaks).unwrap_or(u64::MAX) + u64::from(unterminated)
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
        assert_eq!(count_lines("a\rb"), 1);
        assert_eq!(count_lines("a\r"), 1);
    }

    #[test]
    fn bytes_are_lf_normalised_without_the_bom() {
        assert_eq!(counted_bytes(b""), 0);
        assert_eq!(counted_bytes(b"ab\n"), 3);
        assert_eq!(counted_bytes(b"ab\r\n"), 3);
        assert_eq!(counted_bytes(b"\xEF\xBB\xBFab\r\ncd\r\n"), 6);
        assert_eq!(counted_bytes(b"a\rb\r\r\n"), 5);
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
