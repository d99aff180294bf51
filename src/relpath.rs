//! Repository-relative paths (`/` between parts, the root `""`): the one place their
//! parts are named — a path's file name, its parent, the directories above it, whether
//! one directory holds a path — and where a path on disk, or one git stores as bytes,
//! becomes one.

use std::path::Path;

use anyhow::{anyhow, Result};

/// The last part of `path`: its file name.
pub fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, name)| name)
}

/// The directory holding `path` (`""` at the root).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `dir` itself and every directory above it, the root (`""`) last.
pub fn self_and_ancestors(dir: &str) -> Vec<&str> {
    let mut out = vec![dir];
    let mut at = dir;
    while !at.is_empty() {
        at = parent(at);
        out.push(at);
    }
    out
}

/// Whether the directory `dir` holds `path` below it, aware of part boundaries:
/// `src/App` does not hold `src/AppTests/x.cs`, nor itself; the root holds everything.
pub fn holds(dir: &str, path: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether `path` is `top` or lies below it.
pub fn is_within(path: &str, top: &str) -> bool {
    path == top || holds(top, path)
}

/// A directory as messages show it: the root is `.`.
pub fn shown(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
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
    if let Some(rel) = plain_below(root, path) {
        return Ok(name_of_bytes(rel));
    }
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

/// The bytes of `path` below `root` when they are already what [`rel_name`] would build:
/// `root`, one `/`, then components with none empty and none `.` (the walk's own paths).
/// `None` sends the caller the long way round, through [`Path::components`].
fn plain_below<'p>(root: &Path, path: &'p Path) -> Option<&'p [u8]> {
    if cfg!(windows) {
        return None;
    }
    let (root, path) = (
        root.as_os_str().as_encoded_bytes(),
        path.as_os_str().as_encoded_bytes(),
    );
    let rel = path.strip_prefix(root)?.strip_prefix(b"/")?;
    let plain = !root.is_empty()
        && !root.ends_with(b"/")
        && rel
            .split(|&b| b == b'/')
            .all(|part| !part.is_empty() && part != b".");
    plain.then_some(rel)
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
    fn parts_of_a_path() {
        assert_eq!(
            (file_name("src/a/b.rs"), parent("src/a/b.rs")),
            ("b.rs", "src/a")
        );
        assert_eq!((file_name("b.rs"), parent("b.rs")), ("b.rs", ""));
        assert_eq!(self_and_ancestors("a/b"), vec!["a/b", "a", ""]);
        assert_eq!(self_and_ancestors(""), vec![""]);
        assert_eq!(shown(""), ".");
    }

    #[test]
    fn holds_respects_part_boundaries() {
        assert!(holds("src/App", "src/App/x.cs"));
        assert!(!holds("src/App", "src/AppTests/x.cs"));
        assert!(!holds("src/App", "src/App"));
        assert!(holds("", "x.cs"));
        assert!(is_within("src/App", "src/App") && is_within("src/App/x", "src"));
        assert!(!is_within("srcx", "src") && is_within("x", ""));
    }

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

    #[test]
    fn the_quick_way_to_a_relative_name_agrees_with_the_long_way() {
        let cases = [
            (".", "./src/a.rs", Some("src/a.rs")),
            ("/w/repo", "/w/repo/src/a.rs", Some("src/a.rs")),
            ("fixtures/demo", "fixtures/demo/x.cs", Some("x.cs")),
            ("./", "./src/a.rs", None),
            ("/w/repo", "/w/repo//src/a.rs", None),
            ("/w/repo", "/w/repo/./src/a.rs", None),
            ("/w/repo", "/w/repo/src/", None),
            ("/w/repo", "/w/repository/a.rs", None),
            ("/w/repo", "/w/repo", None),
        ];
        for (root, path, quick) in cases {
            let (root, path) = (Path::new(root), Path::new(path));
            let got = plain_below(root, path).map(|b| std::str::from_utf8(b).unwrap());
            assert_eq!(got, quick, "{root:?} {path:?}");
            if let Some(quick) = quick {
                let long = path.strip_prefix(root).unwrap();
                let long: Vec<_> = long
                    .components()
                    .map(|c| c.as_os_str().to_str().unwrap())
                    .collect();
                assert_eq!(long.join("/"), quick, "{root:?} {path:?}");
            }
        }
        assert_eq!(
            rel_name(Path::new("/w/repo"), Path::new("/w/repo/./src//a.rs")).unwrap(),
            Name::Utf8("src/a.rs".to_string())
        );
    }
}
