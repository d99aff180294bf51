//! Java Unicode escapes as javac reads them, for the measurer (stage 2, before parsing;
//! docs/src/reference/measurement.md#java-unicode-escapes,
//! docs/src/reference/gate.md#integrity). javac
//! translates every `\uXXXX` escape before it looks for comments and literals, so
//! `/* … \u002a/ int big() {…}` closes the comment where the grammar, which reads the
//! escape as six characters, sees comment to the end, and `// \u000a int big() {…}` is
//! a line break that ends the comment. This lexer follows the grammar's view of
//! comments and literals (no escape translated) and finds the escapes outside string
//! and character literals that decode to a character that opens or closes one: a line
//! terminator, `*`, `/`, `"`, `'` or `\`.

/// The 1-based lines (of `text`, whose line breaks are `\n`) holding a Unicode escape
/// outside string and character literals that decodes to a line terminator, `*`, `/`,
/// `"`, `'` or `\`; sorted, each once.
pub fn escape_lines(text: &str) -> Vec<u32> {
    if !text.contains("\\u") {
        return Vec::new();
    }
    let mut lexer = Lexer {
        src: text.as_bytes(),
        at: 0,
        line: 1,
        found: Vec::new(),
    };
    lexer.run();
    lexer.found
}

struct Lexer<'a> {
    src: &'a [u8],
    at: usize,
    line: u32,
    found: Vec<u32>,
}

impl Lexer<'_> {
    fn run(&mut self) {
        while let Some(b) = self.peek(0) {
            match (b, self.peek(1), self.peek(2)) {
                (b'/', Some(b'/'), _) => self.line_comment(),
                (b'/', Some(b'*'), _) => self.block_comment(),
                (b'"', Some(b'"'), Some(b'"')) => self.text_block(),
                (b'"' | b'\'', _, _) => self.literal(b),
                (b'\\', _, _) => self.backslashes(),
                _ => self.step(),
            }
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.at + ahead).copied()
    }

    /// Moves past one byte, counting lines.
    fn step(&mut self) {
        if self.peek(0) == Some(b'\n') {
            self.line = self.line.saturating_add(1);
        }
        self.at += 1;
    }

    /// `//` to the end of the line, its escapes checked.
    fn line_comment(&mut self) {
        self.at += 2;
        while let Some(b) = self.peek(0) {
            match b {
                b'\n' => return,
                b'\\' => self.backslashes(),
                _ => self.step(),
            }
        }
    }

    /// `/*` to `*/`, its escapes checked.
    fn block_comment(&mut self) {
        self.at += 2;
        while let Some(b) = self.peek(0) {
            match b {
                b'*' if self.peek(1) == Some(b'/') => {
                    self.at += 2;
                    return;
                }
                b'\\' => self.backslashes(),
                _ => self.step(),
            }
        }
    }

    /// A string or character literal opened by `quote`, to its closing quote or the end
    /// of its line; a backslash escapes the byte after it.
    fn literal(&mut self, quote: u8) {
        self.at += 1;
        while let Some(b) = self.peek(0) {
            match b {
                b'\n' => return,
                b'\\' => {
                    self.at += 1;
                    if self.peek(0) != Some(b'\n') {
                        self.at += 1;
                    }
                }
                _ if b == quote => {
                    self.at += 1;
                    return;
                }
                _ => self.step(),
            }
        }
    }

    /// A text block, `"""` to `"""`; a backslash escapes the byte after it.
    fn text_block(&mut self) {
        self.at += 3;
        while let Some(b) = self.peek(0) {
            match b {
                b'"' if self.src[self.at..].starts_with(b"\"\"\"") => {
                    self.at += 3;
                    return;
                }
                b'\\' => {
                    self.at += 1;
                    if self.peek(0).is_some() {
                        self.step();
                    }
                }
                _ => self.step(),
            }
        }
    }

    /// A run of backslashes outside literals: the last one begins a Unicode escape when
    /// the run is odd (javac: a `\` preceded by an even number of backslashes is
    /// eligible) and `u` follows; one that decodes to a delimiter is recorded.
    fn backslashes(&mut self) {
        let start = self.at;
        while self.peek(0) == Some(b'\\') {
            self.at += 1;
        }
        if (self.at - start).is_multiple_of(2) || self.peek(0) != Some(b'u') {
            return;
        }
        while self.peek(0) == Some(b'u') {
            self.at += 1;
        }
        let Some(hex) = self.src.get(self.at..self.at + 4) else {
            return;
        };
        let Some(code) = std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        else {
            return;
        };
        self.at += 4;
        let delimiter = matches!(
            char::from_u32(code),
            Some('\n' | '\r' | '*' | '/' | '"' | '\'' | '\\')
        );
        if delimiter && self.found.last() != Some(&self.line) {
            self.found.push(self.line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape_lines;

    #[test]
    fn escapes_of_delimiters_in_comments_and_code_are_found_by_line() {
        let text = "class A {\n  /* note \\u002a/ int big() { return 1; }\n  int f() {}\n}\n";
        assert_eq!(escape_lines(text), vec![2]);
        assert_eq!(escape_lines("// a\\u000a int big() {}\n"), vec![1]);
        assert_eq!(escape_lines("//\\u000D int big() {}\n"), vec![1]);
        assert_eq!(
            escape_lines("int x;\n\nString s = \\u0022a\\u0022;\n"),
            vec![3]
        );
        assert_eq!(escape_lines("// \\u0027 \\u005c \\u002F\n"), vec![1]);
        // More than one `u`, as javac allows; each line once.
        assert_eq!(
            escape_lines("/* \\uuuu002a/ \\u002a/\n\n// \\u000a\n"),
            vec![1, 3]
        );
    }

    #[test]
    fn escapes_inside_literals_and_of_other_characters_are_not() {
        assert_eq!(
            escape_lines("String s = \"\\u002a/\\u000a\";\n"),
            Vec::<u32>::new()
        );
        assert_eq!(
            escape_lines("char c = '\\u005c\\u005c';\nchar d = '\\u0027';\n"),
            Vec::<u32>::new()
        );
        assert_eq!(
            escape_lines("String t = \"\"\"\n  \\u002a/ \\\"\"\"\n  \"\"\";\n"),
            Vec::<u32>::new()
        );
        assert_eq!(
            escape_lines("// caf\\u00e9 \\u0041\nint \\u0061;\n"),
            Vec::<u32>::new()
        );
        // An escaped backslash begins no escape; an odd run's last one does.
        assert_eq!(escape_lines("// \\\\u002a\n"), Vec::<u32>::new());
        assert_eq!(escape_lines("// \\\\\\u002a\n"), vec![1]);
        // A `\u` without four hex digits is no escape.
        assert_eq!(escape_lines("// \\u00\n// \\uzzzz\n"), Vec::<u32>::new());
        // A string's end at its line break: the next line is code again.
        assert_eq!(escape_lines("String s = \"open\n// \\u000a\n"), vec![2]);
    }
}
