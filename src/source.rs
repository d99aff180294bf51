//! "A source of file contents": the readers of contexts, limits and baselines work over
//! this trait, so the same code reads the working tree (`measure`, `limits`, `baseline`)
//! and a commit's tree (`gate`, docs/src/reference/gate.md "terms read at the base").

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{anyhow, bail, Context as _, Result};

use crate::dir_walk::Ignores;
use crate::relpath::Name;

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

/// The working tree of a repository (or a plain directory outside git).
#[derive(Debug, Clone)]
pub struct WorkTree {
    root: PathBuf,
    /// The ignore rules that hide an untracked file from the listing.
    ignores: Ignores,
    /// Every file and link git doesn't ignore, listed once on first use and shared by
    /// clones: finding the contexts and listing the files to measure walk the tree once.
    listing: Arc<OnceLock<Result<Vec<TreeFile>, String>>>,
}

/// One entry of the working tree's listing that is not a directory.
#[derive(Debug, Clone)]
pub struct TreeFile {
    /// Repository-relative, with `/`.
    pub name: Name,
    /// A symbolic link (never followed) rather than a regular file.
    pub link: bool,
}

impl WorkTree {
    /// The working tree at `root`, listed as `git status` lists it: an untracked file
    /// that a `.gitignore` file, `.git/info/exclude` or the global excludes file ignores
    /// is left out, a tracked one never.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        WorkTree {
            root: root.into(),
            ignores: Ignores::Local,
            listing: Arc::default(),
        }
    }

    /// The same tree listed as the gate lists it: only the `.gitignore` files hide an
    /// untracked file (docs/src/reference/gate.md#integrity).
    pub fn for_gate(self) -> Self {
        WorkTree {
            ignores: Ignores::Committed,
            ..self
        }
    }

    /// The ignore rules of its listing.
    pub fn ignores(&self) -> Ignores {
        self.ignores
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every regular file and symbolic link under the root that git doesn't ignore
    /// ([`crate::dir_walk::builder`]; tracked ones are never ignored), in walk order, then
    /// the tracked ones ignore rules hid; walked once per tree value.
    pub fn files(&self) -> Result<&[TreeFile]> {
        let listed = self
            .listing
            .get_or_init(|| self.walk().map_err(|e| format!("{e:#}")));
        listed.as_deref().map_err(|e| anyhow!("{e}"))
    }

    fn walk(&self) -> Result<Vec<TreeFile>> {
        let mut found = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for entry in crate::dir_walk::builder(&self.root, self.ignores).build() {
            let entry = entry.with_context(|| format!("listing {}", self.root.display()))?;
            let Some(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_file() || kind.is_symlink() {
                let name = crate::relpath::rel_name(&self.root, entry.path())?;
                seen.insert(name.shown().to_string());
                let link = kind.is_symlink();
                found.push(TreeFile { name, link });
            }
        }
        let listed = |name: &Name| seen.contains(name.shown());
        for hidden in crate::dir_walk::hidden_tracked(&self.root, listed, |_| true)? {
            found.push(TreeFile {
                name: hidden.name,
                link: hidden.link,
            });
        }
        Ok(found)
    }

    /// The file-system path of a repository-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    /// True when the owned entry `rel` is a directory or a regular file here (not a
    /// symbolic link, which is never followed): something a walk for owned files enters.
    pub fn holds_entry(&self, rel: &str) -> bool {
        std::fs::symlink_metadata(self.abs(rel)).is_ok_and(|m| m.is_dir() || m.is_file())
    }
}

impl FileSource for WorkTree {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        let abs = self.abs(path);
        match std::fs::symlink_metadata(&abs) {
            Ok(meta) if meta.is_file() => std::fs::read(&abs)
                .map(Some)
                .with_context(|| format!("reading {path}")),
            Ok(_) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {path}")),
        }
    }

    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>> {
        let mut found = Vec::new();
        for file in self.files()? {
            if crate::relpath::file_name(file.name.shown()) != file_name {
                continue;
            }
            let path = match &file.name {
                Name::Utf8(path) => path.clone(),
                Name::NotUtf8(shown) => bail!("path {shown} is not valid UTF-8"),
            };
            found.push(Listed {
                path,
                link: file.link,
            });
        }
        found.sort();
        Ok(found)
    }

    fn names_in(&self, dir: &str) -> Result<Vec<Listed>> {
        if self.entry(dir)? != Entry::Dir {
            return Ok(Vec::new());
        }
        let abs = self.abs(dir);
        let listing = || format!("listing {}", crate::relpath::shown(dir));
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&abs).with_context(listing)? {
            let entry = entry.with_context(listing)?;
            let kind = entry.file_type().with_context(listing)?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if kind.is_file() || kind.is_symlink() {
                let path = if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                };
                found.push(Listed {
                    path,
                    link: kind.is_symlink(),
                });
            }
        }
        found.sort();
        Ok(found)
    }

    fn describe(&self) -> String {
        "working tree".to_string()
    }

    fn link_target(&self, path: &str) -> Result<Option<LinkTarget>> {
        let abs = self.abs(path);
        let is_link = std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Ok(None);
        }
        let target =
            std::fs::read_link(&abs).with_context(|| format!("reading the link {path}"))?;
        if target.is_relative() {
            return Ok(Some(match target.to_str() {
                Some(text) => LinkTarget::Relative(text.replace(std::path::MAIN_SEPARATOR, "/")),
                None => LinkTarget::Outside,
            }));
        }
        let root = self
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.root.clone());
        let inside = target
            .strip_prefix(&root)
            .or_else(|_| target.strip_prefix(&self.root))
            .ok()
            .and_then(|rest| {
                rest.to_str()
                    .map(|t| t.replace(std::path::MAIN_SEPARATOR, "/"))
            });
        Ok(Some(
            inside.map_or(LinkTarget::Outside, LinkTarget::FromRoot),
        ))
    }

    fn entry(&self, path: &str) -> Result<Entry> {
        let mut at = self.root.clone();
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
