//! `loaded_bytes` (stage 2, docs/src/reference/documents.md): a Markdown document's bytes plus those of every
//! distinct file its eager imports reach, up to 5 hops, read through a [`FileSource`] (the
//! working tree for `measure`, `baseline` and `gate`). Files are counted by the one byte
//! counter of the measurer, [`counted_bytes`]; each file is read and scanned once per
//! [`Imports`], however many documents import it. `chain_bytes` (docs/src/reference/documents.md#chains) walks the
//! same way from a document and its namesakes up the directories, as one walk.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

mod links;

use super::imports::{scan, ImportRef, MAX_IMPORTS};
use super::{Memo, NoMemo};
use crate::lines::{counted_bytes, strip_bom};
use crate::model::{Chain, Language, Loaded};
use crate::source::{Entry, FileSource, Listed};
use links::Reach;

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
    real: String,
    links: Vec<String>,
    node: Arc<Node>,
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
    /// Directory listings asked for by chains (docs/src/reference/documents.md#chains), each listed once.
    dirs: Mutex<HashMap<String, Arc<Vec<Listed>>>>,
}

/// How many warnings one document's walk gives; the rest are counted in one more.
const MAX_WARNINGS: usize = 50;

/// One document's walk through its imports.
struct Walk {
    seen: BTreeSet<String>,
    /// The symbolic links passed through on the way to a file counted.
    links: BTreeSet<String>,
    /// The first link met that leaves the repository or points into `.git`.
    leaves: Option<String>,
    loaded: Loaded,
    warnings: Vec<String>,
    /// Warnings past [`MAX_WARNINGS`], counted.
    more: usize,
}

impl Walk {
    fn new() -> Walk {
        Walk {
            seen: BTreeSet::new(),
            links: BTreeSet::new(),
            leaves: None,
            loaded: Loaded::default(),
            warnings: Vec::new(),
            more: 0,
        }
    }

    /// Adds a warning once; past [`MAX_WARNINGS`] it is only counted.
    fn warn(&mut self, warning: String) {
        if self.warnings.contains(&warning) {
            return;
        }
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(warning);
        } else {
            self.more += 1;
        }
    }
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
        let mut walk = self.walk(Walk::new(), vec![(path.to_string(), node)]);
        if walk.more > 0 {
            let more = walk.more;
            walk.warnings
                .push(format!("{more} more import warning(s) not shown"));
        }
        walk.loaded.imports = walk.seen.into_iter().filter(|p| p != path).collect();
        walk.loaded.links = walk.links.into_iter().collect();
        (walk.loaded, walk.warnings, walk.leaves)
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
        let mut roots: Vec<(String, Arc<Node>)> = Vec::new();
        documents.retain(|doc| {
            let reached = self.reach(doc);
            start.links.extend(reached.links.iter().cloned());
            match &*reached.node {
                Node::Counted { .. } => {
                    roots.push((reached.real.clone(), Arc::clone(&reached.node)))
                }
                Node::Leaves { link } => {
                    start.leaves.get_or_insert_with(|| link.clone());
                }
                Node::NotFollowed(_) => return false,
            }
            true
        });
        roots.push((path.to_string(), own));
        let walk = self.walk(start, roots);
        let mut files: BTreeSet<String> = walk.seen;
        files.extend(walk.links);
        files.remove(path);
        let chain = Chain {
            bytes: walk.loaded.bytes,
            documents,
            files: files.into_iter().collect(),
        };
        (chain, walk.leaves)
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

    /// One walk from `roots` (each at no hops, by its real path), breadth first,
    /// counting each distinct file once.
    fn walk(&self, mut walk: Walk, roots: Vec<(String, Arc<Node>)>) -> Walk {
        let mut queue = VecDeque::new();
        for (path, node) in roots {
            if !walk.seen.insert(path.clone()) {
                continue;
            }
            if let Node::Counted { bytes, .. } = *node {
                walk.loaded.bytes = walk.loaded.bytes.saturating_add(bytes);
            }
            queue.push_back((path, node, 0usize));
        }
        while let Some((importer, node, depth)) = queue.pop_front() {
            let Node::Counted { refs, note, .. } = &*node else {
                continue;
            };
            if let Some(note) = note {
                walk.warn(format!("{importer}: {note}"));
            }
            for r in refs {
                if let Some(next) = self.follow(&mut walk, &importer, r, depth) {
                    queue.push_back(next);
                }
            }
        }
        walk
    }

    /// Follows one import of `importer` (at `depth` hops from the document): counts the
    /// file it reaches, if new, and returns it for scanning in turn.
    fn follow(
        &self,
        walk: &mut Walk,
        importer: &str,
        r: &ImportRef,
        depth: usize,
    ) -> Option<(String, Arc<Node>, usize)> {
        let target = resolve(importer, &r.path);
        if target.as_ref().is_ok_and(|t| walk.seen.contains(t)) {
            return None;
        }
        let why = match target {
            _ if depth >= MAX_HOPS => {
                format!("more than {MAX_HOPS} imports away from the document")
            }
            Err(why) => why.to_string(),
            Ok(target) => {
                let reached = self.reach(&target);
                walk.links.extend(reached.links.iter().cloned());
                match &*reached.node {
                    Node::NotFollowed(why) => why.clone(),
                    Node::Leaves { link } => {
                        walk.leaves.get_or_insert_with(|| link.clone());
                        return None;
                    }
                    Node::Counted { .. } if walk.seen.contains(&reached.real) => return None,
                    Node::Counted { bytes, .. } => {
                        walk.loaded.bytes = walk.loaded.bytes.saturating_add(*bytes);
                        walk.seen.insert(reached.real.clone());
                        let node = Arc::clone(&reached.node);
                        return Some((reached.real.clone(), node, depth + 1));
                    }
                }
            }
        };
        walk.warn(format!(
            "import \"@{}\" at {importer}:{} not followed: {why}",
            r.path, r.line
        ));
        None
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
        Reached {
            real,
            links,
            node: Arc::new(node),
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
