//! A README's front matter: the YAML metadata block pulldown-cmark reads between a first
//! line `---` and the next line `---` (or YAML's `...`). Only the lines up to the closing
//! delimiter are handed to the parser, so a README of any size costs its front matter.

use pulldown_cmark::{Event, MetadataBlockKind, Options, Parser, Tag, TagEnd};

use crate::yaml::MAX_YAML_BYTES;

/// What the start of a README holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Front {
    /// The first line is not `---`.
    None,
    /// The YAML between the delimiters; its first line is line 2 of the file.
    Yaml(String),
    /// `---` directly followed by its closing line.
    Empty,
    /// `---` followed by a blank line: Markdown reads no metadata block there.
    BlankFirstLine,
    /// No closing line follows the opening `---`.
    Unclosed,
    /// The front matter runs past what structgate reads (1 MiB) before it closes, if it
    /// closes at all: the search for the closing line stops there.
    TooLarge,
}

/// Reads the front matter at the start of `text` (a UTF-8 BOM is skipped).
pub fn front_matter(text: &str) -> Front {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return Front::None;
    };
    if first.trim_end() != "---" {
        return Front::None;
    }
    let mut end = first.len();
    let mut close = None;
    for line in lines {
        if end - first.len() > MAX_YAML_BYTES {
            return Front::TooLarge;
        }
        if is_closing(line) {
            close = Some(end + line.len());
            break;
        }
        end += line.len();
    }
    let Some(close) = close else {
        return Front::Unclosed;
    };
    let size = end - first.len();
    if size > MAX_YAML_BYTES {
        return Front::TooLarge;
    }
    metadata_block(&text[..close]).unwrap_or(if size == 0 {
        Front::Empty
    } else {
        Front::BlankFirstLine
    })
}

/// A closing delimiter as pulldown-cmark reads one: `---` or `...` at column 0, then
/// only spaces.
fn is_closing(line: &str) -> bool {
    let line = line.trim_end_matches(['\n', '\r']);
    let rest = line
        .strip_prefix("---")
        .or_else(|| line.strip_prefix("..."));
    rest.is_some_and(|r| r.bytes().all(|b| b == b' '))
}

/// The YAML of a metadata block that starts at the first byte of `text`.
fn metadata_block(text: &str) -> Option<Front> {
    let options = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    let mut events = Parser::new_ext(text, options).into_offset_iter();
    let (first, range) = events.next()?;
    if first != Event::Start(Tag::MetadataBlock(MetadataBlockKind::YamlStyle)) || range.start != 0 {
        return None;
    }
    let mut yaml = String::new();
    for (event, _) in events {
        match event {
            Event::Text(t) => yaml.push_str(&t),
            Event::End(TagEnd::MetadataBlock(_)) => break,
            _ => {}
        }
    }
    Some(Front::Yaml(yaml))
}
