//! Stage 2 of the pipeline: source bytes → [`FileOutcome`] (SPEC §4). One generic,
//! iterative tree-sitter walk; the languages in `crate::lang` supply node kinds and
//! naming. Every command measures through [`measure_file`], so `measure`, `baseline` and
//! `gate` can never disagree.

mod dump;
mod lines;
mod rules;
mod tree;
mod walk;

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

use crate::lang::Lang;
use crate::model::{FileMeasure, FileOutcome, Language, LeftOutReason, SkipReason, Unit};

pub use dump::dump_tree;
pub use lines::count_lines;
pub use rules::generated_header;
pub use tree::{measure_path, measure_tree, measure_tree_with, read_listed};

/// The default `--max-file-size`: 4 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub max_file_size: u64,
    /// When false, a generated-code header does not leave a file out (the gate judges a
    /// file whose header is new on the branch, SPEC §6).
    pub honour_generated_header: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            honour_generated_header: true,
        }
    }
}

/// Measures one file given its repository-relative path and its bytes. `None` when the
/// path's extension is not a measured language.
pub fn measure_file(path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
    let language = Language::of_path(path)?;
    if let Some(reason) = left_out_by_path(path) {
        return Some(left_out(path, reason));
    }
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if size > options.max_file_size {
        let reason = SkipReason::TooLarge {
            size,
            max: options.max_file_size,
        };
        return Some(skipped(path, reason));
    }
    let body = lines::strip_bom(bytes);
    if options.honour_generated_header {
        let head = String::from_utf8_lossy(head_of(body));
        if let Some(reason) = rules::left_out_by_header(&head) {
            return Some(left_out(path, reason));
        }
    }
    let Ok(text) = std::str::from_utf8(body) else {
        return Some(skipped(path, SkipReason::NotUtf8));
    };
    Some(match measure_text(path, language, text) {
        Some(measure) => FileOutcome::Measured(measure),
        None => skipped(
            path,
            SkipReason::Unreadable("the parser gave no tree".into()),
        ),
    })
}

/// The path rule (SPEC §4 "Left out by path") that leaves `path` out, if any.
pub fn left_out_by_path(path: &str) -> Option<LeftOutReason> {
    rules::left_out_by_path(path)
}

/// Loads every grammar once: an error here is a grammar that won't load (exit 2).
pub fn check_grammars() -> anyhow::Result<()> {
    for language in [Language::CSharp, Language::Rust] {
        let lang = Lang::of(language);
        Parser::new()
            .set_language(&(lang.grammar)())
            .map_err(|e| anyhow::anyhow!("loading the {} grammar: {e}", language.key()))?;
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

/// The bytes of the first 10 lines.
fn head_of(body: &[u8]) -> &[u8] {
    let end = body
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(9)
        .map_or(body.len(), |(i, _)| i);
    &body[..end]
}

/// Parses and walks a decoded file (BOM already stripped).
fn measure_text(path: &str, language: Language, text: &str) -> Option<FileMeasure> {
    let lang = Lang::of(language);
    let tree = parse(lang, text)?;
    let walked = walk::walk(lang, &tree, text.as_bytes());
    let total = count_lines(text);
    let mut units = walked.units;
    sort_units(&mut units);
    Some(FileMeasure {
        path: path.to_string(),
        language,
        lines: total - lines::covered_lines(&walked.test_spans, total),
        types: walked.types,
        units,
        warnings: syntax_warning(walked.error_lines).into_iter().collect(),
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
    const SHOWN: usize = 10;
    lines.sort_unstable();
    lines.dedup();
    let listed: Vec<String> = lines.iter().take(SHOWN).map(u32::to_string).collect();
    let more = match lines.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    match lines.len() {
        0 => None,
        1 => Some(format!(
            "syntax error at line {}; measured what parsed",
            listed[0]
        )),
        _ => Some(format!(
            "syntax errors at lines {}{more}; measured what parsed",
            listed.join(", ")
        )),
    }
}

thread_local! {
    /// One parser per thread and language, made on first use.
    static PARSERS: RefCell<Vec<(Language, Parser)>> = const { RefCell::new(Vec::new()) };
}

fn parse(lang: &Lang, text: &str) -> Option<Tree> {
    PARSERS.with_borrow_mut(|parsers| {
        let index = match parsers.iter().position(|(l, _)| *l == lang.language) {
            Some(index) => index,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&(lang.grammar)()).ok()?;
                parsers.push((lang.language, parser));
                parsers.len() - 1
            }
        };
        parsers.get_mut(index)?.1.parse(text, None)
    })
}

#[cfg(test)]
mod tests;
