//! Listing files of the working tree the way git sees them: `.gitignore` respected,
//! symbolic links not followed, `.git` never entered.

use std::path::Path;

use anyhow::{anyhow, Result};

/// A walker over `root` that honours git's ignore rules and never follows links.
pub fn builder(root: &Path) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .ignore(false)
        .parents(true)
        .require_git(true)
        .filter_entry(|e| e.file_name() != ".git");
    b
}

/// `path` relative to `root`, with `/` separators. A path that isn't UTF-8 is an error
/// naming it (see [`rel_name`] to list such paths instead).
pub fn rel_path(root: &Path, path: &Path) -> Result<String> {
    match rel_name(root, path)? {
        Name::Utf8(rel) => Ok(rel),
        Name::NotUtf8(shown) => Err(anyhow!("path {shown} is not valid UTF-8")),
    }
}

/// A repository-relative path as structgate can name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// The path itself.
    Utf8(String),
    /// A path that isn't UTF-8, shown the way git shows it: each byte that isn't part of
    /// a UTF-8 character written `\ooo` (octal). Only for reporting: no file has this name.
    NotUtf8(String),
}

impl Name {
    /// The text the path is shown by.
    pub fn shown(&self) -> &str {
        match self {
            Name::Utf8(s) | Name::NotUtf8(s) => s,
        }
    }
}

/// `path` relative to `root`, with `/` separators, named even when it isn't UTF-8.
pub fn rel_name(root: &Path, path: &Path) -> Result<Name> {
    let rel = path
        .strip_prefix(root)
        .map_err(|_| anyhow!("{} is outside {}", path.display(), root.display()))?;
    let mut bytes = Vec::new();
    for part in rel.components() {
        if !bytes.is_empty() {
            bytes.push(b'/');
        }
        bytes.extend_from_slice(part.as_os_str().as_encoded_bytes());
    }
    Ok(name_of_bytes(&bytes))
}

/// A path given as bytes (git stores paths as bytes) as structgate can name it.
pub fn name_of_bytes(bytes: &[u8]) -> Name {
    match std::str::from_utf8(bytes) {
        Ok(s) => Name::Utf8(s.to_string()),
        Err(_) => Name::NotUtf8(escaped(bytes)),
    }
}

/// `bytes` with every byte that isn't part of a UTF-8 character written `\ooo`.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            out.push_str(&format!("\\{byte:03o}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_isnt_utf8_is_shown_with_octal_escapes() {
        assert_eq!(
            name_of_bytes(b"src/a.rs"),
            Name::Utf8("src/a.rs".to_string())
        );
        let name = name_of_bytes(b"d\xff/caf\xc3\xa9\xe9.rs");
        assert_eq!(name, Name::NotUtf8("d\\377/caf\u{e9}\\351.rs".to_string()));
        assert_eq!(name.shown(), "d\\377/caf\u{e9}\\351.rs");
    }
}
