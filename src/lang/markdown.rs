//! Markdown documents (docs/src/reference/documents.md): `.md` files, measured for their
//! bytes and what they load (src/measure/loaded), with no grammar, units or path rule.

use super::{nothing_left_out, Record};

/// Markdown: `.md` files, never parsed into units.
pub static RECORD: Record = Record {
    name: "Markdown",
    key: "markdown",
    extensions: &["md"],
    grammar: None,
    dialects: &[],
    left_out: nothing_left_out,
    project_files: &[],
};
