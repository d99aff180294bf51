//! "A source of file contents": the readers of contexts, limits and baselines work over
//! this trait, so the same code reads the working tree (`measure`, `limits`, `baseline`)
//! and a commit's tree (`gate`, docs/src/reference/gate.md "terms read at the base").
//! The working tree's own source, which walks it as git sees it, is
//! `crate::work_tree::WorkTree`; this module holds the trait, how a directory reads
//! ([`read_in`], [`entry_in`]) and an in-memory source for tests.

use std::path::Path;

use anyhow::{Context as _, Result};

/// Files addressed by repository-relative paths with `/` (the root is `""`).
pub trait FileSource: Sync {
    /// The bytes of the file at `path`, or `None` when there is no such file (a directory
    /// or a symbolic link is not a file here).
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>>;

    /// Every file or symbolic link named exactly `file_name` that the source holds (for
    /// the working tree: tracked or untracked and not ignored), sorted by path. Links are
    /// listed (`link`) so that a reader can say it did not follow them, never followed.
    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>>;

    /// The files and symbolic links directly in the directory `dir` (the root is `""`),
    /// sorted by path; nothing when `dir` is no directory, or lies through a symbolic link
    /// (a chain of docs/src/reference/documents.md#chains never follows one).
    fn names_in(&self, dir: &str) -> Result<Vec<Listed>>;

    /// A short description for messages: `working tree` or `commit 1a2b3c4`.
    fn describe(&self) -> String;

    /// What `path` names, without reading a file's contents where the source can tell
    /// (the eager-import resolver of docs/src/reference/documents.md asks before it reads). By default, from
    /// [`FileSource::read`]: a file, or nothing.
    fn entry(&self, path: &str) -> Result<Entry> {
        Ok(match self.read(path)? {
            Some(bytes) => Entry::File {
                len: u64::try_from(bytes.len()).unwrap_or(u64::MAX),
            },
            None => Entry::Missing,
        })
    }

    /// Where the symbolic link at `path` points (the documents' import walk follows links
    /// as agents' loaders do, docs/src/reference/documents.md#links); `None` when `path`
    /// is no link. By default, a source holds no links.
    fn link_target(&self, _path: &str) -> Result<Option<LinkTarget>> {
        Ok(None)
    }
}

/// Where a symbolic link points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A path relative to the link's directory, as written (`/`-separated).
    Relative(String),
    /// An absolute path inside the source's root, given relative to the root.
    FromRoot(String),
    /// An absolute path outside the root, or one that can't be named.
    Outside,
}

impl LinkTarget {
    /// The target a link's text names (a blob's contents in git): absolute ones lead
    /// outside, since where the repository sits is not known.
    pub fn of_text(text: &[u8]) -> LinkTarget {
        let Ok(text) = std::str::from_utf8(text) else {
            return LinkTarget::Outside;
        };
        let drive = text.as_bytes().get(1) == Some(&b':');
        if text.starts_with(['/', '\\']) || drive || text.is_empty() {
            LinkTarget::Outside
        } else {
            LinkTarget::Relative(text.to_string())
        }
    }
}

/// What a path names in a [`FileSource`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A regular file of `len` bytes (on disk, before any normalisation).
    File {
        len: u64,
    },
    Dir,
    /// A symbolic link, at the path or at a directory on the way to it.
    Link,
    /// Something else that is no regular file (a socket, a device, ...).
    Other,
    Missing,
}

/// One entry of a source's listing that is not a directory: a regular file, or a
/// symbolic link (`link`), never followed. Directories are the entries' parents.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    /// Repository-relative path with `/`.
    pub path: String,
    pub link: bool,
}

/// The bytes of the regular file at `path` under the directory `root`, or `None` when
/// there is none (a directory or a symbolic link is not a file here, and is never
/// followed): how a working tree reads.
pub fn read_in(root: &Path, path: &str) -> Result<Option<Vec<u8>>> {
    let abs = if path.is_empty() {
        root.to_path_buf()
    } else {
        root.join(path)
    };
    match std::fs::symlink_metadata(&abs) {
        Ok(meta) if meta.is_file() => std::fs::read(&abs)
            .map(Some)
            .with_context(|| format!("reading {path}")),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {path}")),
    }
}

/// What `path` names under the directory `root`, never through a symbolic link: how a
/// working tree answers [`FileSource::entry`].
pub fn entry_in(root: &Path, path: &str) -> Result<Entry> {
    let mut at = root.to_path_buf();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if is_absent(&e) => return Ok(Entry::Missing),
            Err(e) => return Err(e).with_context(|| format!("reading {path}")),
        };
        let last = i + 1 == parts.len();
        if meta.file_type().is_symlink() {
            return Ok(Entry::Link);
        }
        if !last && meta.is_dir() {
            continue;
        }
        return Ok(if !last {
            Entry::Missing
        } else if meta.is_file() {
            Entry::File { len: meta.len() }
        } else if meta.is_dir() {
            Entry::Dir
        } else {
            Entry::Other
        });
    }
    Ok(Entry::Dir)
}

/// Not found, or a path through something that is no directory.
fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// An in-memory source, for tests of the readers.
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    pub files: std::collections::BTreeMap<String, Vec<u8>>,
    /// Symbolic links: each path's target as written.
    pub links: std::collections::BTreeMap<String, String>,
}

impl MemorySource {
    pub fn with(mut self, path: &str, text: &str) -> Self {
        self.files
            .insert(path.to_string(), text.as_bytes().to_vec());
        self
    }

    /// With a symbolic link at `path` whose target is `target`, as written.
    pub fn with_link(mut self, path: &str, target: &str) -> Self {
        self.links.insert(path.to_string(), target.to_string());
        self
    }
}

impl FileSource for MemorySource {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.files.get(path).cloned())
    }

    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>> {
        Ok(self
            .files
            .keys()
            .filter(|p| crate::relpath::file_name(p) == file_name)
            .map(|path| Listed {
                path: path.clone(),
                link: false,
            })
            .collect())
    }

    fn names_in(&self, dir: &str) -> Result<Vec<Listed>> {
        Ok(self
            .files
            .keys()
            .filter(|p| crate::relpath::parent(p) == dir)
            .map(|path| Listed {
                path: path.clone(),
                link: false,
            })
            .collect())
    }

    fn describe(&self) -> String {
        "memory".to_string()
    }

    fn entry(&self, path: &str) -> Result<Entry> {
        if self.links.contains_key(path) {
            return Ok(Entry::Link);
        }
        if let Some(bytes) = self.files.get(path) {
            let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
            return Ok(Entry::File { len });
        }
        let prefix = format!("{path}/");
        let holds = |p: &String| path.is_empty() || p.starts_with(&prefix);
        let dir = self.files.keys().any(holds) || self.links.keys().any(holds);
        Ok(if dir { Entry::Dir } else { Entry::Missing })
    }

    fn link_target(&self, path: &str) -> Result<Option<LinkTarget>> {
        Ok(self
            .links
            .get(path)
            .map(|target| LinkTarget::of_text(target.as_bytes())))
    }
}
