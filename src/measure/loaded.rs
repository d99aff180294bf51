//! `loaded_bytes` (stage 2, docs/src/reference/documents.md): a Markdown document's bytes plus those of every
//! distinct file its eager imports reach, up to 5 hops, read through a [`FileSource`] (the
//! working tree for `measure`, `baseline` and `gate`). Files are counted by the one byte
//! counter of the measurer, [`counted_bytes`]; each file is read and scanned once per
//! [`Imports`], however many documents import it. `chain_bytes` (docs/src/reference/documents.md#chains) walks the
//! same way from a document and its namesakes up the directories, as one walk.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use super::imports::{scan, ImportRef, MAX_IMPORTS};
use super::{Memo, NoMemo};
use crate::lines::{counted_bytes, strip_bom};
use crate::model::{Chain, Language, Loaded};
use crate::source::{Entry, FileSource, Listed};

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
    cache: Mutex<HashMap<String, Arc<Node>>>,
    /// Directory listings asked for by chains (docs/src/reference/documents.md#chains), each listed once.
    dirs: Mutex<HashMap<String, Arc<Vec<Listed>>>>,
}

/// How many warnings one document's walk gives; the rest are counted in one more.
const MAX_WARNINGS: usize = 50;

/// One document's walk through its imports.
struct Walk {
    seen: BTreeSet<String>,
    loaded: Loaded,
    warnings: Vec<String>,
    /// Warnings past [`MAX_WARNINGS`], counted.
    more: usize,
}

impl Walk {
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
        self.load_node(path, Arc::new(self.node_of(path, bytes)))
    }

    /// [`Imports::load`] and [`Imports::chain`] of one document, its bytes scanned once.
    pub fn document(&self, path: &str, bytes: &[u8]) -> (Loaded, Vec<String>, Chain) {
        let node = Arc::new(self.node_of(path, bytes));
        let (loaded, warnings) = self.load_node(path, Arc::clone(&node));
        (loaded, warnings, self.chain_node(path, node))
    }

    fn load_node(&self, path: &str, node: Arc<Node>) -> (Loaded, Vec<String>) {
        let mut walk = self.walk(vec![(path.to_string(), node)]);
        if walk.more > 0 {
            let more = walk.more;
            walk.warnings
                .push(format!("{more} more import warning(s) not shown"));
        }
        walk.loaded.imports = walk.seen.into_iter().filter(|p| p != path).collect();
        (walk.loaded, walk.warnings)
    }

    /// The chain of the document at `path` (docs/src/reference/documents.md#chains): the document and its
    /// namesakes (same file name, ASCII case-insensitive) in each directory above it, up
    /// to the root, loaded with the document as one walk, so that each distinct file counts
    /// once across them all. Links are never followed: a namesake that is a link, or a
    /// directory reached through one, is no part of the chain. The walk's warnings are
    /// those of each document's own `loaded_bytes`, given where it is measured.
    pub fn chain(&self, path: &str, bytes: &[u8]) -> Chain {
        self.chain_node(path, Arc::new(self.node_of(path, bytes)))
    }

    fn chain_node(&self, path: &str, own: Arc<Node>) -> Chain {
        let name = crate::relpath::file_name(path);
        let dirs = crate::relpath::self_and_ancestors(crate::relpath::parent(path));
        let mut documents = Vec::new();
        for dir in dirs.iter().skip(1).rev() {
            for listed in self.names_in(dir).iter() {
                let namesake = crate::relpath::file_name(&listed.path).eq_ignore_ascii_case(name);
                if namesake && !listed.link {
                    documents.push(listed.path.clone());
                }
            }
        }
        let mut roots: Vec<(String, Arc<Node>)> = Vec::new();
        documents.retain(|doc| {
            let node = self.node(doc);
            let counted = matches!(*node, Node::Counted { .. });
            if counted {
                roots.push((doc.clone(), node));
            }
            counted
        });
        roots.push((path.to_string(), own));
        let walk = self.walk(roots);
        Chain {
            bytes: walk.loaded.bytes,
            documents,
            files: walk.seen.into_iter().filter(|p| p != path).collect(),
        }
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

    /// One walk from `roots` (each at no hops), breadth first, counting each distinct
    /// file once.
    fn walk(&self, roots: Vec<(String, Arc<Node>)>) -> Walk {
        let mut walk = Walk {
            seen: BTreeSet::new(),
            loaded: Loaded::default(),
            warnings: Vec::new(),
            more: 0,
        };
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
                let node = self.node(&target);
                match &*node {
                    Node::NotFollowed(why) => why.clone(),
                    Node::Counted { bytes, .. } => {
                        walk.loaded.bytes = walk.loaded.bytes.saturating_add(*bytes);
                        walk.seen.insert(target.clone());
                        return Some((target, node, depth + 1));
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

    /// The node of a repository-relative path, read once.
    fn node(&self, path: &str) -> Arc<Node> {
        if let Some(node) = self.lock().get(path) {
            return Arc::clone(node);
        }
        let node = Arc::new(self.read_node(path));
        self.lock().insert(path.to_string(), Arc::clone(&node));
        node
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Node>>> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn read_node(&self, path: &str) -> Node {
        let not_followed = |why: &str| Node::NotFollowed(why.to_string());
        match self.source.entry(path) {
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
            Ok(Entry::Link) => not_followed("a symbolic link is not followed"),
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
