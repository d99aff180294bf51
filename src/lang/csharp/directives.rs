//! C# preprocessor directive lines as the compiler reads them, for the measurer (stage 2,
//! before parsing; docs/src/reference/measurement.md, docs/src/reference/gate.md#integrity). The grammar reads a directive's text as tokens, so a
//! `/*` in `#region Helpers /*` opens a comment that hides code the compiler builds. This
//! lexer follows the compiler's view of strings and comments (every `#if` branch taken,
//! as the grammar does) to find the directive lines, and names the byte ranges the parser
//! must see as spaces:
//! - the free text after `#region` and `#endregion`;
//! - the whole of `#warning` and `#error` lines (the grammar wants a message after them,
//!   and reads the next line as one when there is none);
//! - the whole of a file-based app's `#:` lines (`#:sdk`, `#:package`, `#:property`) and
//!   of a first line starting `#!`: directives the language ignores, which the grammar
//!   doesn't know;
//! - on any other directive line, a comment (`//` or `/*`) to the end of the line: the
//!   compiler never opens a delimited comment on a directive line (after `#pragma` it
//!   skips such text with a warning, CS1696).
//!
//! A line that begins with a directive but lies inside a block comment is the grammar's
//! business: [`comment_directive_line`] finds it in the parsed comment.

/// Byte ranges of `text` (a C# file without its BOM) that the parser sees as spaces;
/// none holds a line break, each starts on a character and ends at a line break or the
/// end of the text.
pub fn blanked_ranges(text: &str) -> Vec<(usize, usize)> {
    if !any_line_opens_with_hash(text.as_bytes()) {
        // Every blanked range is on a directive line: none to lex for.
        return Vec::new();
    }
    let mut lexer = Lexer {
        src: text.as_bytes(),
        at: 0,
        stack: Vec::new(),
        blanks: Vec::new(),
    };
    lexer.run();
    lexer.blanks
}

/// The 0-based index, among the lines of a block comment's text, of the first line after
/// its first that begins with `#if`, `#elif`, `#else`, `#endif`, `#region` or `#endregion`
/// (docs/src/reference/gate.md#integrity): the compiler may have read that comment's opening in a branch it skips,
/// and code after it that the grammar reads as comment.
pub fn comment_directive_line(comment: &str) -> Option<usize> {
    const HELD: [&str; 6] = ["if", "elif", "else", "endif", "region", "endregion"];
    if !comment.starts_with("/*") {
        return None;
    }
    comment
        .split('\n')
        .enumerate()
        .skip(1)
        .find(|(_, line)| directive_name(line.as_bytes()).is_some_and(|(n, _)| HELD.contains(&n)))
        .map(|(index, _)| index)
}

/// The directive a line begins with (`region` for `  #  region x`) and the byte offset
/// just past its name; `None` when the line doesn't begin with `#` and a name.
fn directive_name(line: &[u8]) -> Option<(&str, usize)> {
    let mut at = skip_spaces(line, 0);
    if line.get(at) != Some(&b'#') {
        return None;
    }
    at = skip_spaces(line, at + 1);
    let start = at;
    // A name runs on through letters of any script (`#regioné` is no `#region`).
    let name_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80;
    while line.get(at).is_some_and(name_byte) {
        at += 1;
    }
    let name = std::str::from_utf8(&line[start..at]).ok()?;
    Some((name, at)).filter(|_| !name.is_empty())
}

fn skip_spaces(line: &[u8], mut at: usize) -> usize {
    while line
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | 0x0B | 0x0C))
    {
        at += 1;
    }
    at
}

/// The kinds of C# string literal, by how they end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    /// `"..."`: backslash escapes, ends at `"` or a line break.
    Regular,
    /// `@"..."`: `""` is a quote, spans lines.
    Verbatim,
    /// `"""..."""`: ends at a run of as many quotes as opened it.
    Raw(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// Inside a string; `dollars` is how many `$` opened it (0: not interpolated).
    Str { quote: Quote, dollars: usize },
    /// Code inside an interpolation hole, `depth` brackets deep.
    Hole { depth: usize, dollars: usize },
    /// The format text of a hole (`{x:N2}`), up to its `}`.
    Format { dollars: usize },
}

struct Lexer<'a> {
    src: &'a [u8],
    at: usize,
    stack: Vec<Frame>,
    blanks: Vec<(usize, usize)>,
}

impl Lexer<'_> {
    fn run(&mut self) {
        self.line_start();
        while self.at < self.src.len() {
            match self.stack.last().copied() {
                None => self.code(),
                Some(Frame::Str { quote, dollars }) => self.string(quote, dollars),
                Some(Frame::Hole { depth, dollars }) => self.hole(depth, dollars),
                Some(Frame::Format { dollars }) => self.format(dollars),
            }
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.at + ahead).copied()
    }

    /// The offset of the next line break at or after `from` (or the end of the text).
    fn line_end(&self, from: usize) -> usize {
        self.src[from..]
            .iter()
            .position(|b| matches!(b, b'\n' | b'\r'))
            .map_or(self.src.len(), |i| from + i)
    }

    /// Steps over one line break at `at`, if there is one; returns whether it did.
    fn line_break(&mut self) -> bool {
        match self.peek(0) {
            Some(b'\r') if self.peek(1) == Some(b'\n') => self.at += 2,
            Some(b'\r' | b'\n') => self.at += 1,
            _ => return false,
        }
        true
    }

    /// Top-level code: comments, literals, and directives at the start of a line.
    fn code(&mut self) {
        if self.line_break() {
            self.line_start();
            return;
        }
        if !self.comment_or_literal() {
            self.at += 1;
        }
    }

    /// At `at`: skips a comment, or opens a string or skips a character literal. Returns
    /// false when nothing starts here.
    fn comment_or_literal(&mut self) -> bool {
        match (self.peek(0), self.peek(1)) {
            (Some(b'/'), Some(b'/')) => self.at = self.line_end(self.at),
            (Some(b'/'), Some(b'*')) => {
                let rest = &self.src[self.at + 2..];
                let close = rest.windows(2).position(|w| w == b"*/");
                self.at = close.map_or(self.src.len(), |i| self.at + 2 + i + 2);
            }
            (Some(b'\''), _) => self.char_literal(),
            (Some(b'"' | b'$' | b'@'), _) => return self.string_start(),
            _ => return false,
        }
        true
    }

    fn char_literal(&mut self) {
        self.at += 1;
        while let Some(b) = self.peek(0) {
            match b {
                b'\\' => self.at += 2,
                b'\'' => {
                    self.at += 1;
                    return;
                }
                b'\n' | b'\r' => return,
                _ => self.at += 1,
            }
        }
    }

    /// `"`, `@"`, `$"`, `$@"`, `@$"`, `"""`, `$$"""`: pushes the string. A run of `$` or
    /// an `@` that starts no string (a verbatim identifier `@class`) is stepped over whole,
    /// so a long run costs its length once.
    fn string_start(&mut self) -> bool {
        let mut at = self.at;
        let dollars = self.src[at..].iter().take_while(|&&b| b == b'$').count();
        at += dollars;
        let verbatim = self.src.get(at) == Some(&b'@');
        at += usize::from(verbatim);
        if dollars == 0 && verbatim && self.src.get(at) == Some(&b'$') {
            if !self.interpolated_verbatim(at) {
                self.at = at;
            }
            return true;
        }
        let quotes = self.src[at..].iter().take_while(|&&b| b == b'"').count();
        let quote = match quotes {
            0 => {
                self.at = at.max(self.at + 1);
                return true;
            }
            _ if verbatim => Quote::Verbatim,
            1 | 2 => Quote::Regular,
            n => Quote::Raw(n),
        };
        // `""` is an empty string: open it at its first quote, and it closes at the second.
        self.at = at
            + if quote == Quote::Regular || quote == Quote::Verbatim {
                1
            } else {
                quotes
            };
        self.stack.push(Frame::Str { quote, dollars });
        true
    }

    /// `@$"`: `at` is on the `$`.
    fn interpolated_verbatim(&mut self, at: usize) -> bool {
        if self.src.get(at + 1) != Some(&b'"') {
            return false;
        }
        self.at = at + 2;
        self.stack.push(Frame::Str {
            quote: Quote::Verbatim,
            dollars: 1,
        });
        true
    }

    fn string(&mut self, quote: Quote, dollars: usize) {
        let Some(b) = self.peek(0) else { return };
        match (quote, b) {
            (Quote::Regular, b'\\') => self.at += 2,
            (Quote::Regular, b'\n' | b'\r') => {
                self.stack.pop();
            }
            (Quote::Regular, b'"') => self.close_string(1),
            (Quote::Verbatim, b'"') if self.peek(1) == Some(b'"') => self.at += 2,
            (Quote::Verbatim, b'"') => self.close_string(1),
            (Quote::Raw(n), b'"') => {
                let run = self.src[self.at..]
                    .iter()
                    .take_while(|&&b| b == b'"')
                    .count();
                if run >= n {
                    self.close_string(run);
                } else {
                    self.at += run;
                }
            }
            (_, b'{') if dollars > 0 => self.hole_start(quote, dollars),
            _ => self.at += 1,
        }
    }

    fn close_string(&mut self, quotes: usize) {
        self.at += quotes;
        self.stack.pop();
    }

    /// A run of `{` in an interpolated string: `{{` is a brace in a non-raw string; in a
    /// raw one, `dollars` of them open a hole.
    fn hole_start(&mut self, quote: Quote, dollars: usize) {
        let run = self.src[self.at..]
            .iter()
            .take_while(|&&b| b == b'{')
            .count();
        let opens = match quote {
            Quote::Raw(_) => run >= dollars,
            _ => run % 2 == 1,
        };
        self.at += run;
        if opens {
            self.stack.push(Frame::Hole { depth: 0, dollars });
        }
    }

    /// Code inside an interpolation hole: brackets nest; `}` at depth 0 closes the hole
    /// (with as many braces as `$` opened it), `:` at depth 0 starts its format text.
    fn hole(&mut self, depth: usize, dollars: usize) {
        let b = self.src[self.at];
        let set_depth = |stack: &mut Vec<Frame>, depth| {
            if let Some(top) = stack.last_mut() {
                *top = Frame::Hole { depth, dollars };
            }
        };
        match b {
            b'(' | b'[' | b'{' => set_depth(&mut self.stack, depth + 1),
            b')' | b']' | b'}' if depth > 0 => set_depth(&mut self.stack, depth - 1),
            b'}' => {
                self.stack.pop();
                self.at += dollars;
                return;
            }
            b':' if depth == 0 && self.peek(1) != Some(b':') => {
                if let Some(top) = self.stack.last_mut() {
                    *top = Frame::Format { dollars };
                }
            }
            b':' => self.at += 1,
            _ if self.line_break() => return,
            _ if self.comment_or_literal() => return,
            _ => {}
        }
        self.at += 1;
    }

    fn format(&mut self, dollars: usize) {
        if self.src[self.at] == b'}' {
            self.stack.pop();
            self.at += dollars;
        } else {
            self.at += 1;
        }
    }

    /// At the start of a line of top-level code: a directive line is read to its end,
    /// its ranges blanked.
    fn line_start(&mut self) {
        let end = self.line_end(self.at);
        let line = &self.src[self.at..end];
        if is_ignored_directive(line, self.at == 0) {
            self.blanks.push((self.at, end));
            self.at = end;
            return;
        }
        let Some((name, after)) = directive_name(line) else {
            return;
        };
        let blank = match name {
            "region" | "endregion" => Some(after),
            "warning" | "error" => Some(0),
            _ => trailing_comment(line, after),
        };
        if let Some(from) = blank.filter(|&from| from < line.len()) {
            self.blanks.push((self.at + from, end));
        }
        self.at = end;
    }
}

/// Whether a line of `src` begins with a `#` after spaces (a line begins at the start and
/// after each `\r` or `\n`): every directive line does, in code, a string or a comment.
fn any_line_opens_with_hash(src: &[u8]) -> bool {
    memchr::memchr_iter(b'#', src).any(|at| {
        let before = src[..at].iter().rev().find(|b| !matches!(b, b' ' | b'\t' | 0x0B | 0x0C));
        before.is_none_or(|b| matches!(b, b'\r' | b'\n'))
    })
}

/// Whether a line is one the compiler reads as a directive the language ignores, to be
/// blanked whole: a file-based app's `#:` line (`#:sdk`, `#:package`, `#:property`), or
/// on the file's first line (`first`) a `#!` in its first column.
fn is_ignored_directive(line: &[u8], first: bool) -> bool {
    if first && line.starts_with(b"#!") {
        return true;
    }
    let at = skip_spaces(line, 0);
    line.get(at) == Some(&b'#') && line.get(skip_spaces(line, at + 1)) == Some(&b':')
}

/// The offset of a comment (`//` or `/*`) on a directive line after `from`, outside the
/// `"..."` strings of `#line` and `#pragma checksum`.
fn trailing_comment(line: &[u8], from: usize) -> Option<usize> {
    let mut in_string = false;
    let mut at = from;
    while at < line.len() {
        match (line[at], line.get(at + 1)) {
            (b'"', _) => in_string = !in_string,
            (b'/', Some(b'/' | b'*')) if !in_string => return Some(at),
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests;
