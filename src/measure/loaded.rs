//! `loaded_bytes` (stage 2, docs/src/reference/documents.md): a Markdown document's bytes plus those of every
//! distinct file its eager imports reach, up to 5 hops, read through a [`FileSource`] (the
//! working tree for `measure`, `baseline` and `gate`). Files are counted by the one byte
//! counter of the measurer, [`counted_bytes`]; each file is read and scanned once per
//! [`Imports`], however many documents import it. `chain_bytes` (docs/src/reference/documents.md#chains) walks the
//! same way from a document and its namesakes up the directories, as one walk.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

mod links;
mod walk;

use super::imports::{scan, ImportRef, MAX_IMPORTS};
use super::{Memo, NoMemo};
use crate::lines::{counted_bytes, strip_bom};
use crate::model::{Chain, Language, Loaded};
use crate::source::{Entry, FileSource, Listed};
use links::Reach;
use walk::{Resolved, Walk};

/// How many import hops are followed from a document.
pub const MAX_HOPS: usize = 5;

/// What one file contributes when it is reached through an import.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    /// Counted: its bytes, and (Markdown only) the imports it makes in turn.
    Counted {
        bytes: u64,
        refs: Vec<ImportRef>,
        /// What was not counted or scanned as usual, e.g. `more than 1000 imports; only
        /// the first 1000 are followed`.
        note: Option<String>,
    },
    /// Not followed, and why (`names a directory`, ...).
    NotFollowed(String),
    /// Reached through this symbolic link, which leaves the repository or points into
    /// `.git`: the document that loads it is not measurable (docs/src/reference/documents.md#links).
    Leaves { link: String },
}

/// Where a path a document loads leads: the file reached (through any links), the links
/// passed on the way, and what the file contributes.
#[derive(Debug)]
struct Reached {
    /// The file's number in its [`Imports`]: one per distinct path reached.
    id: usize,
    real: Arc<str>,
    links: Vec<String>,
    node: Arc<Node>,
    /// Made from bytes a caller gave (a document measured), not read from the source:
    /// its imports are resolved afresh, never kept.
    given: bool,
}

/// What a Markdown file's bytes alone give the import walk: their counted bytes, the
/// imports they make (at most [`MAX_IMPORTS`]) and what was not scanned as usual. Kept by
/// the measurement cache ([`super::Memo::scan`]) under the file's blob id.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scan {
    pub bytes: u64,
    pub refs: Vec<ImportRef>,
    pub note: Option<String>,
}

impl From<Scan> for Node {
    fn from(scan: Scan) -> Node {
        Node::Counted {
            bytes: scan.bytes,
            refs: scan.refs,
            note: scan.note,
        }
    }
}

/// The resolver of eager imports over one source, with a cache of the files it read.
pub struct Imports<'a> {
    source: &'a dyn FileSource,
    /// Scans kept from earlier runs.
    memo: &'a dyn Memo,
    max_file_size: u64,
    /// What each path asked for leads to, read once.
    cache: Mutex<HashMap<String, Arc<Reached>>>,
    /// The number of each distinct path reached ([`Reached::id`]).
    ids: Mutex<HashMap<Arc<str>, usize>>,
    /// Where each Markdown file's imports lead, by its path: resolved once, however many
    /// documents' walks pass through it.
    edges: Mutex<HashMap<Arc<str>, Arc<Resolved>>>,
    /// Directory listings asked for by chains (docs/src/reference/documents.md#chains), each listed once.
    dirs: Mutex<HashMap<String, Arc<Vec<Listed>>>>,
}

impl<'a> Imports<'a> {
    /// Resolves imports in `source`; an imported file larger than `max_file_size` is
    /// counted by its size, unread.
    pub fn new(source: &'a dyn FileSource, max_file_size: u64) -> Imports<'a> {
        Imports {
            source,
            memo: &NoMemo,
            max_file_size,
            cache: Mutex::new(HashMap::new()),
            ids: Mutex::new(HashMap::new()),
            edges: Mutex::new(HashMap::new()),
            dirs: Mutex::new(HashMap::new()),
        }
    }

    /// The same resolver, taking Markdown scans from `memo` (the measurement cache).
    pub fn with_memo(self, memo: &'a dyn Memo) -> Imports<'a> {
        Imports { memo, ..self }
    }

    /// What the document at `path`, whose bytes are `bytes`, loads; with a warning (naming
    /// the importing file and line) for every import not followed.
    pub fn load(&self, path: &str, bytes: &[u8]) -> (Loaded, Vec<String>) {
        let (loaded, warnings, _) = self.load_node(path, Arc::new(self.node_of(path, bytes)));
        (loaded, warnings)
    }

    /// [`Imports::load`] and [`Imports::chain`] of one document, its bytes scanned once;
    /// `Err` with the link, when a symbolic link on the way to a file it loads leaves the
    /// repository or points into `.git` (docs/src/reference/documents.md#links).
    pub fn document(
        &self,
        path: &str,
        bytes: &[u8],
    ) -> Result<(Loaded, Vec<String>, Chain), String> {
        let node = Arc::new(self.node_of(path, bytes));
        let (loaded, warnings, leaves) = self.load_node(path, Arc::clone(&node));
        let (chain, chain_leaves) = self.chain_node(path, node);
        match leaves.or(chain_leaves) {
            Some(link) => Err(link),
            None => Ok((loaded, warnings, chain)),
        }
    }

    fn load_node(&self, path: &str, node: Arc<Node>) -> (Loaded, Vec<String>, Option<String>) {
        let root = self.root(path, node);
        let walk = self.walk(Walk::new(), vec![root]);
        let (mut loaded, warnings, leaves) = walk.finish();
        loaded.imports.retain(|p| p != path);
        (loaded, warnings, leaves)
    }

    /// The chain of the document at `path` (docs/src/reference/documents.md#chains): the document and its
    /// namesakes (same file name, ASCII case-insensitive) in each directory above it, up
    /// to the root, loaded with the document as one walk, so that each distinct file counts
    /// once across them all. A namesake that is a symbolic link is read through it, as
    /// loaders read it (docs/src/reference/documents.md#links). The walk's warnings are
    /// those of each document's own `loaded_bytes`, given where it is measured.
    pub fn chain(&self, path: &str, bytes: &[u8]) -> Chain {
        self.chain_node(path, Arc::new(self.node_of(path, bytes))).0
    }

    /// The chain, and the first link on the way that leaves the repository.
    fn chain_node(&self, path: &str, own: Arc<Node>) -> (Chain, Option<String>) {
        let name = crate::relpath::file_name(path);
        let dirs = crate::relpath::self_and_ancestors(crate::relpath::parent(path));
        let mut documents = Vec::new();
        for dir in dirs.iter().skip(1).rev() {
            for listed in self.names_in(dir).iter() {
                let namesake = crate::relpath::file_name(&listed.path).eq_ignore_ascii_case(name);
                if namesake {
                    documents.push(listed.path.clone());
                }
            }
        }
        let mut start = Walk::new();
        let mut roots: Vec<Arc<Reached>> = Vec::new();
        documents.retain(|doc| {
            let reached = self.reach(doc);
            start.passed(&reached.links);
            match &*reached.node {
                Node::Counted { .. } => roots.push(reached),
                Node::Leaves { link } => start.leaves_by(link),
                Node::NotFollowed(_) => return false,
            }
            true
        });
        roots.push(self.root(path, own));
        let (loaded, _, leaves) = self.walk(start, roots).finish();
        let mut files: BTreeSet<String> = loaded.imports.into_iter().collect();
        files.extend(loaded.links);
        files.remove(path);
        let chain = Chain {
            bytes: loaded.bytes,
            documents,
            files: files.into_iter().collect(),
        };
        (chain, leaves)
    }

    /// The files and links directly in `dir`, listed once; nothing when it can't be listed.
    fn names_in(&self, dir: &str) -> Arc<Vec<Listed>> {
        let dirs = || {
            self.dirs
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(listed) = dirs().get(dir) {
            return Arc::clone(listed);
        }
        let listed = Arc::new(self.source.names_in(dir).unwrap_or_default());
        dirs().insert(dir.to_string(), Arc::clone(&listed));
        listed
    }

    /// Where a repository-relative path leads, read once.
    fn reach(&self, path: &str) -> Arc<Reached> {
        if let Some(reached) = self.lock().get(path) {
            return Arc::clone(reached);
        }
        let reached = Arc::new(self.read_reached(path));
        self.lock().insert(path.to_string(), Arc::clone(&reached));
        reached
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Reached>>> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The document at `path` itself, whose node is `node`, as a walk's root.
    fn root(&self, path: &str, node: Arc<Node>) -> Arc<Reached> {
        let real: Arc<str> = Arc::from(path);
        Arc::new(Reached {
            id: self.id_of(&real),
            real,
            links: Vec::new(),
            node,
            given: true,
        })
    }

    /// The number of the distinct path `real`.
    fn id_of(&self, real: &Arc<str>) -> usize {
        let mut ids = self
            .ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let next = ids.len();
        *ids.entry(Arc::clone(real)).or_insert(next)
    }

    /// Follows the links on the way to `path`, then reads what is there.
    fn read_reached(&self, path: &str) -> Reached {
        let (real, links, node) = match links::reach(self.source, path) {
            Ok(Reach::At { real, entry, links }) => {
                let node = self.read_node(&real, Ok(entry));
                (real, links, node)
            }
            Ok(Reach::Leaves { link }) => {
                let node = Node::Leaves { link: link.clone() };
                (path.to_string(), vec![link], node)
            }
            Ok(Reach::Loop { links }) => {
                let node = Node::NotFollowed("a loop of symbolic links".to_string());
                (path.to_string(), links, node)
            }
            Err(e) => {
                let node = Node::NotFollowed(format!("unreadable: {e:#}"));
                (path.to_string(), Vec::new(), node)
            }
        };
        let real: Arc<str> = Arc::from(real);
        Reached {
            id: self.id_of(&real),
            real,
            links,
            node: Arc::new(node),
            given: false,
        }
    }

    fn read_node(&self, path: &str, entry: anyhow::Result<Entry>) -> Node {
        let not_followed = |why: &str| Node::NotFollowed(why.to_string());
        match entry {
            Ok(Entry::File { len }) if len > self.max_file_size => Node::Counted {
                bytes: len,
                refs: Vec::new(),
                note: Some(too_large(len, self.max_file_size)),
            },
            Ok(Entry::File { .. }) => match self.source.read(path) {
                Ok(Some(bytes)) => self.node_of(path, &bytes),
                Ok(None) => not_followed("names no existing file"),
                Err(e) => Node::NotFollowed(format!("unreadable: {e:#}")),
            },
            Ok(Entry::Dir) => not_followed("names a directory"),
            Ok(Entry::Link) => not_followed("a symbolic link that could not be followed"),
            Ok(Entry::Other) => not_followed("names no regular file"),
            Ok(Entry::Missing) => not_followed("names no existing file"),
            Err(e) => Node::NotFollowed(format!("unreadable: {e:#}")),
        }
    }
}

impl Imports<'_> {
    /// A file's node from its bytes; a Markdown file's scan is asked of the memo first.
    fn node_of(&self, path: &str, bytes: &[u8]) -> Node {
        if !is_markdown(path) {
            return Node::Counted {
                bytes: counted_bytes(bytes),
                refs: Vec::new(),
                note: None,
            };
        }
        self.memo.scan(path, bytes, &|| scan_markdown(bytes)).into()
    }
}

fn too_large(len: u64, max: u64) -> String {
    format!("larger than --max-file-size ({len} > {max} bytes); counted by its size, unread")
}

fn is_markdown(path: &str) -> bool {
    Language::of_path(path) == Some(Language::Markdown)
}

/// A Markdown file's scan: its counted bytes and the imports it makes.
pub fn scan_markdown(bytes: &[u8]) -> Scan {
    let counted = counted_bytes(bytes);
    // Import syntax is ASCII: a file that isn't UTF-8 (a Latin-1 byte) is scanned with
    // each invalid sequence read as U+FFFD, its line breaks and imports where they were.
    let text = String::from_utf8_lossy(strip_bom(bytes));
    let mut refs = scan(&text);
    let note = (refs.len() > MAX_IMPORTS).then(|| {
        refs.truncate(MAX_IMPORTS);
        format!("more than {MAX_IMPORTS} imports; only the first {MAX_IMPORTS} are followed")
    });
    Scan {
        bytes: counted,
        refs,
        note,
    }
}

/// The repository-relative path an import names, resolved against the importing file's
/// directory; `Err` with the reason when it is absolute, starts with `~`, or leaves the
/// repository.
pub fn resolve(importer: &str, path: &str) -> Result<String, &'static str> {
    let drive = path.as_bytes().get(1) == Some(&b':')
        && path.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
    if path.starts_with(['/', '\\']) || drive {
        return Err("an absolute path");
    }
    if path.starts_with('~') {
        return Err("a path starting with ~");
    }
    let mut parts: Vec<&str> = importer.split('/').collect();
    parts.pop();
    parts.retain(|p| !p.is_empty());
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err("it leaves the repository");
                }
            }
            _ => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests;
