//! Stage 2 of the pipeline: source bytes → [`FileOutcome`] (docs/src/reference/measurement.md, docs/src/reference/documents.md). One generic,
//! iterative tree-sitter walk; the languages in `crate::lang` supply node kinds and
//! naming; Markdown documents are measured in bytes, with their eager imports. Every
//! command measures through [`measure_file_in`], so `measure`, `baseline` and `gate` can
//! never disagree.

mod dirs;
mod dump;
mod imports;
mod loaded;
mod parse;
mod parser_text;
mod rules;
pub mod shape;
mod syntax_walk;

use std::time::Duration;

use tree_sitter::Parser;

use parse::parse;

use crate::lang::Lang;
use crate::model::{FileMeasure, FileOutcome, Language, LeftOutReason, SkipReason, Unit};

pub use crate::lines::{count_lines, counted_bytes, line_of, lines, LineIndex};
pub use dirs::{
    list_measured, measure_tree, measure_tree_each, measure_tree_handing, measure_tree_in,
    measure_tree_with, Handing, NoProgress, Progress, ReadsImports,
};
pub use dump::{dump_tree, dump_walk};
pub use imports::{scan as scan_imports, ImportRef};
pub use loaded::{resolve as resolve_import, scan_markdown, Imports, Scan, MAX_HOPS};
pub use rules::generated_header;

/// The default `--max-file-size`: 4 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

pub use crate::model::NAME_BUDGET_BYTES;

/// The default `--parse-timeout`, in seconds: a 4 MiB file parses in well under one.
pub const DEFAULT_PARSE_TIMEOUT_SECS: u64 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub max_file_size: u64,
    /// When false, a generated-code header does not leave a file out (the gate judges a
    /// file whose header is new on the branch, docs/src/reference/gate.md).
    pub honour_generated_header: bool,
    /// A file whose parse takes longer is skipped with a reason; zero means no limit.
    pub parse_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            honour_generated_header: true,
            parse_timeout: Duration::from_secs(DEFAULT_PARSE_TIMEOUT_SECS),
        }
    }
}

/// Measures one file given its repository-relative path and its bytes, resolving a
/// Markdown document's eager imports and chain through `imports` where given
/// (docs/src/reference/documents.md; `None`: its context budgets neither). `None` when the
/// path's extension is not a measured language. The one measuring path of every command.
pub fn measure_file_in(
    imports: Option<&Imports>,
    memo: &dyn Memo,
    path: &str,
    bytes: &[u8],
    options: &Options,
) -> Option<FileOutcome> {
    let mut outcome = memo.measure(path, bytes, options)?;
    if let (FileOutcome::Measured(m), Some(imports)) = (&mut outcome, imports) {
        if m.language == Language::Markdown {
            // A link that leaves the repository: what the document loads can't be told
            // (docs/src/reference/documents.md#links).
            let (loaded, warnings, chain) = match imports.document(path, bytes) {
                Ok(document) => document,
                Err(link) => return Some(skipped(path, SkipReason::LinkLeaves { link })),
            };
            m.loaded = Some(loaded);
            m.chain = Some(chain);
            m.warnings.extend(warnings);
        }
    }
    Some(outcome)
}

/// Outcomes kept from earlier runs (the measurement cache, `crate::cache`), asked before a
/// file is read or parsed. A memo gives exactly what [`measure_file`] gives for the same
/// path, bytes and options, or measures.
pub trait Memo: Sync {
    /// The outcome of the listed file `rel`, when it is known without reading the file.
    fn recall(&self, rel: &str, options: &Options) -> Option<FileOutcome>;
    /// [`measure_file`] of `bytes`, kept or measured.
    fn measure(&self, path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome>;
    /// The import scan of the Markdown file `path` whose bytes are `bytes`, kept or made
    /// by `fresh` ([`scan_markdown`] of them).
    fn scan(&self, _path: &str, _bytes: &[u8], fresh: &dyn Fn() -> Scan) -> Scan {
        fresh()
    }
}

/// A memo that knows, before a file is read, whether its context's `exclude` globs leave it
/// out (docs/src/reference/contexts.md): such a file comes back left out, unread; every
/// other question goes to `memo`.
pub struct Excluding<'a> {
    pub memo: &'a dyn Memo,
    pub contexts: &'a crate::context::Contexts,
}

impl Memo for Excluding<'_> {
    fn recall(&self, rel: &str, options: &Options) -> Option<FileOutcome> {
        match self.contexts.excluded(rel) {
            Some(reason) => Some(left_out(rel, reason)),
            None => self.memo.recall(rel, options),
        }
    }

    fn measure(&self, path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
        self.memo.measure(path, bytes, options)
    }

    fn scan(&self, path: &str, bytes: &[u8], fresh: &dyn Fn() -> Scan) -> Scan {
        self.memo.scan(path, bytes, fresh)
    }
}

/// No memo: every file is measured.
pub struct NoMemo;

impl Memo for NoMemo {
    fn recall(&self, _rel: &str, _options: &Options) -> Option<FileOutcome> {
        None
    }

    fn measure(&self, path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
        measure_file(path, bytes, options)
    }
}

/// Measures one file given its repository-relative path and its bytes, on its own: a
/// Markdown document comes back without `loaded` (its imports need a source, see
/// [`measure_file_in`]). `None` when the path's extension is not a measured language.
pub fn measure_file(path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
    let language = Language::of_path(path)?;
    if let Some(reason) = left_out_by_path(path) {
        return Some(left_out(path, reason));
    }
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    let too_large = size > options.max_file_size;
    // The header is looked for before the size: a generated file past --max-file-size is
    // left out as generated, not skipped (docs/src/reference/measurement.md).
    let head = if too_large { head_of(bytes) } else { bytes };
    if let Some(reason) = generated_by_header(path, head, options) {
        return Some(left_out(path, reason));
    }
    if too_large {
        let reason = SkipReason::TooLarge {
            size,
            max: options.max_file_size,
        };
        return Some(skipped(path, reason));
    }
    let body = crate::lines::strip_bom(bytes);
    let Ok(text) = std::str::from_utf8(body) else {
        return Some(skipped(path, SkipReason::NotUtf8));
    };
    if language == Language::Markdown {
        return Some(FileOutcome::Measured(document(path, text, bytes)));
    }
    if text.contains('\0') {
        return Some(skipped(path, SkipReason::Binary));
    }
    Some(
        match measure_text(path, language, text, bytes, options.parse_timeout) {
            Ok(measure) => FileOutcome::Measured(measure),
            Err(reason) => skipped(path, reason),
        },
    )
}

/// How much of a file past `--max-file-size` is read for a generated-code header.
pub const HEADER_SCAN_BYTES: usize = 64 << 10;

/// The first [`HEADER_SCAN_BYTES`] of `bytes`.
pub fn head_of(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(HEADER_SCAN_BYTES)]
}

/// Why a generated-code header in `head` (a file's first bytes, or all of them) leaves the
/// file at `path` out, when `options` honour headers.
pub fn generated_by_header(path: &str, head: &[u8], options: &Options) -> Option<LeftOutReason> {
    if !options.honour_generated_header {
        return None;
    }
    rules::left_out_by_header(path, crate::lines::strip_bom(head))
}

/// True when `bytes` hold a NUL byte in their first 8,000 bytes (git's own test for a
/// binary file) and don't read as UTF-16 text: source in an encoding structgate doesn't
/// measure is no binary file (docs/src/reference/gate.md#integrity).
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8000)];
    head.contains(&0) && !utf16_text(head, head.len() < bytes.len())
}

/// True when `head` (the first bytes of a file, `cut` short of its end) reads as UTF-16
/// text: it opens with a byte order mark, or its code units, little- or big-endian, are
/// all characters of text (no NUL, no control but tab, line feed, form feed and carriage
/// return, surrogates paired; a pair the cut split is let go).
fn utf16_text(head: &[u8], cut: bool) -> bool {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let units = head.len() / 2 - usize::from(cut && head.len() >= 2);
    let text = |c: Result<char, _>| c.is_ok_and(|c| !c.is_control() || "\t\n\x0c\r".contains(c));
    [u16::from_le_bytes, u16::from_be_bytes]
        .into_iter()
        .any(|unit| {
            let code = head.chunks_exact(2).take(units).map(|b| unit([b[0], b[1]]));
            char::decode_utf16(code).all(text)
        })
}

/// The path rule (docs/src/reference/measurement.md "Left out by path") that leaves `path` out, if any.
pub fn left_out_by_path(path: &str) -> Option<LeftOutReason> {
    rules::left_out_by_path(path)
}

/// Loads every grammar once: an error here is a grammar that won't load (exit 2).
pub fn check_grammars() -> anyhow::Result<()> {
    for lang in crate::lang::grammars() {
        Parser::new()
            .set_language(&(lang.grammar)())
            .map_err(|e| anyhow::anyhow!("loading the {} grammar: {e}", lang.name))?;
    }
    Ok(())
}

fn left_out(path: &str, reason: LeftOutReason) -> FileOutcome {
    let path = path.to_string();
    FileOutcome::LeftOut { path, reason }
}

fn skipped(path: &str, reason: SkipReason) -> FileOutcome {
    let path = path.to_string();
    FileOutcome::Skipped { path, reason }
}

/// A Markdown document (docs/src/reference/documents.md): its lines and bytes, no units.
fn document(path: &str, text: &str, bytes: &[u8]) -> FileMeasure {
    FileMeasure {
        path: path.to_string(),
        language: Language::Markdown,
        lines: count_lines(text),
        types: 0,
        units: Vec::new(),
        warnings: Vec::new(),
        syntax_errors: None,
        bytes: counted_bytes(bytes),
        loaded: None,
        chain: None,
        directive_in_comment: None,
        unicode_escape: None,
    }
}

/// Parses and walks a decoded file (BOM already stripped); `bytes` is the file as read.
fn measure_text(
    path: &str,
    language: Language,
    text: &str,
    bytes: &[u8],
    timeout: Duration,
) -> Result<FileMeasure, SkipReason> {
    let no_grammar = || SkipReason::Unreadable("no grammar for the language".into());
    let lang = Lang::for_path(path).ok_or_else(no_grammar)?;
    let parsed = parser_text::parser_text(lang, text);
    let tree = parse(lang, &parsed, timeout)?;
    let walked = syntax_walk::walk(lang, &tree, parsed.as_bytes());
    if walked.names_over_budget {
        return Err(SkipReason::NamesTooLong);
    }
    let escapes = lang.escape_lines.map(|f| f(&parsed)).unwrap_or_default();
    let warnings: Vec<String> = directive_warning(&walked.directive_lines)
        .into_iter()
        .chain(escape_warning(&escapes))
        .collect();
    // The parser's text: its line breaks are the language's (C# has more than `\r`).
    let total = count_lines(&parsed);
    let mut units = walked.units;
    sort_units(&mut units);
    units.shrink_to_fit();
    Ok(FileMeasure {
        path: path.to_string(),
        language,
        lines: total - crate::lines::covered_lines(&walked.test_spans, total),
        types: walked.types,
        units,
        warnings,
        syntax_errors: syntax_warning(walked.error_lines),
        bytes: counted_bytes(bytes),
        loaded: None,
        chain: None,
        directive_in_comment: walked.directive_lines.first().copied(),
        unicode_escape: escapes.first().copied(),
    })
}

/// By start line, then end line descending (outer before inner), then name.
fn sort_units(units: &mut [Unit]) {
    units.sort_by(|a, b| {
        (a.start_line, std::cmp::Reverse(a.end_line), &a.name).cmp(&(
            b.start_line,
            std::cmp::Reverse(b.end_line),
            &b.name,
        ))
    });
}

/// `syntax errors at lines 3, 9; measured what parsed`, naming at most 10 lines.
fn syntax_warning(mut lines: Vec<u32>) -> Option<String> {
    lines.sort_unstable();
    lines.dedup();
    lines_warning(
        &lines,
        ("syntax error", "syntax errors"),
        "; measured what parsed",
    )
}

/// `a preprocessor directive inside a block comment at line 5: ...`, naming at most 10
/// lines (sorted: the walk meets comments in source order).
fn directive_warning(lines: &[u32]) -> Option<String> {
    let what = (
        "a preprocessor directive inside a block comment",
        "preprocessor directives inside block comments",
    );
    let why = ": the compiler may read code there that structgate does not measure";
    lines_warning(lines, what, why)
}

/// `a unicode escape javac reads as a delimiter at line 3: ...`, naming at most 10 lines.
fn escape_warning(lines: &[u32]) -> Option<String> {
    let what = (
        "a unicode escape javac reads as a delimiter",
        "unicode escapes javac reads as delimiters",
    );
    let why = ": javac may read code there that structgate does not measure";
    lines_warning(lines, what, why)
}

/// `WHAT at line 3WHY` or `WHATS at lines 3, 9 and 2 more WHY`, naming at most 10
/// lines; `None` for no lines.
fn lines_warning(lines: &[u32], (one, many): (&str, &str), why: &str) -> Option<String> {
    const SHOWN: usize = 10;
    let listed: Vec<String> = lines.iter().take(SHOWN).map(u32::to_string).collect();
    let more = match lines.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    match lines.len() {
        0 => None,
        1 => Some(format!("{one} at line {}{why}", listed[0])),
        _ => Some(format!("{many} at lines {}{more}{why}", listed.join(", "))),
    }
}

#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod tests;
