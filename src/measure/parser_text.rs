//! The text a language's parser sees (stage 2): the language's own line breaks made
//! `\n`, its blanked ranges made spaces, byte for byte.

use std::borrow::Cow;

use crate::lang::Lang;

/// The text the parser of `lang` sees: every lone `\r` made a `\n` (the parser counts
/// rows by `\n` alone), each of the language's own line separators made spaces ending in
/// a `\n` (C# ends lines at U+0085, U+2028 and U+2029 too), then the language's blanked
/// ranges made spaces; byte for byte, so every offset stays where it was and every line
/// starts where the compiler starts it.
pub fn parser_text<'a>(lang: &Lang, text: &'a str) -> Cow<'a, str> {
    let ends = line_ends(lang, text);
    let blanks = lang.blanked_ranges.map(|f| f(&ends)).unwrap_or_default();
    if blanks.is_empty() {
        return ends;
    }
    let mut copy = ends.into_owned().into_bytes();
    for (from, to) in blanks {
        if let Some(range) = copy.get_mut(from..to) {
            range.fill(b' ');
        }
    }
    // Only ASCII bytes changed, over whole characters: still UTF-8.
    Cow::Owned(String::from_utf8(copy).unwrap_or_else(|_| text.to_string()))
}

/// `text` with every line break the parser wouldn't see as one made a `\n`.
fn line_ends<'a>(lang: &Lang, text: &'a str) -> Cow<'a, str> {
    let bytes = text.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    let separators = lang.line_separators;
    // Fast paths first: most files hold no `\r` (a byte search) and are ASCII, which no
    // separator is.
    let lone_crs = bytes.contains(&b'\r') && (0..bytes.len()).any(lone_cr);
    let other_ends = !separators.is_empty() && !text.is_ascii() && text.contains(separators);
    if !lone_crs && !other_ends {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '\r' && lone_cr(i) {
            out.push('\n');
        } else if separators.contains(&c) {
            (1..c.len_utf8()).for_each(|_| out.push(' '));
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_sees_lone_crs_as_line_feeds_and_nothing_else_moves() {
        let rust = crate::lang::Lang::of(crate::model::Language::Rust).unwrap();
        assert_eq!(
            parser_text(rust, "fn a() {}\rfn b() {}\r\n"),
            "fn a() {}\nfn b() {}\r\n"
        );
        assert!(matches!(
            parser_text(rust, "fn a() {}\r\n"),
            Cow::Borrowed(_)
        ));
        let csharp = crate::lang::Lang::of(crate::model::Language::CSharp).unwrap();
        assert_eq!(
            parser_text(csharp, "// a\u{2028}int b;\u{85}\u{2029}"),
            "// a  \nint b; \n  \n"
        );
        assert_eq!(
            parser_text(rust, "// a\u{2028}fn b() {}"),
            "// a\u{2028}fn b() {}"
        );
        assert_eq!(
            parser_text(csharp, "#region é /*\rclass A {}\r#endregion */"),
            "#region      \nclass A {}\n#endregion   "
        );
    }
}
