//! Files at a commit: the "terms" of a gate run are read from the base commit's tree
//! (docs/src/reference/gate.md step 2) through the same [`FileSource`] trait the working tree uses.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use anyhow::{Context as _, Result};
use gix::ObjectId;

use super::base_index::Named;
use super::Explain as _;
use crate::relpath::Name;
use crate::source::{Entry, FileSource, LinkTarget, Listed};

/// The regular files of one commit's tree. Symbolic links, submodules and directories are
/// not files here (`read` gives `None`; `find_named` lists links as links).
pub struct TreeSource {
    repo: gix::ThreadSafeRepository,
    commit: ObjectId,
    tree: ObjectId,
    /// The tree's entries as an index holds them, read on first use (terms and directory
    /// contracts both list the base tree; it is walked once).
    state: OnceLock<gix::index::State>,
    /// The tree's files and links by path, made from `state` when a whole listing is asked
    /// for (finding the few files of one name makes no string of the others).
    listing: OnceLock<Listing>,
}

/// A commit's entries whose path is UTF-8 (nothing can name the others).
struct Listing {
    entries: Vec<Listed>,
}

impl TreeSource {
    pub(super) fn new(repo: &gix::Repository, commit: ObjectId, tree: ObjectId) -> TreeSource {
        TreeSource {
            repo: repo.clone().into_sync(),
            commit,
            tree,
            state: OnceLock::new(),
            listing: OnceLock::new(),
        }
    }

    /// The full id of the commit this source reads.
    pub fn commit(&self) -> String {
        self.commit.to_string()
    }

    fn listing(&self) -> Result<&Listing> {
        if let Some(listing) = self.listing.get() {
            return Ok(listing);
        }
        let listed = list(self.state()?);
        Ok(self.listing.get_or_init(|| listed))
    }

    fn state(&self) -> Result<&gix::index::State> {
        if let Some(state) = self.state.get() {
            return Ok(state);
        }
        let read = self.read_state(Named::All)?;
        Ok(self.state.get_or_init(|| read))
    }

    /// Every regular file and symbolic link of the tree whose path is UTF-8, sorted by
    /// path (submodules and directories are not entries). Directory contracts (docs/src/reference/contracts.md)
    /// list a tree with it. A path that isn't UTF-8 is left out: nothing can name it.
    pub fn entries(&self) -> Result<Vec<Listed>> {
        Ok(self.listing()?.entries.clone())
    }

    /// The directories that directly hold a regular file or a symbolic link named
    /// `README.md` in any letter case (whose path is UTF-8, as [`TreeSource::entries`]
    /// lists them): where a directory contract may stand (docs/src/reference/contracts.md).
    /// Reads only those entries unless the whole tree was read already.
    pub fn readme_dirs(&self) -> Result<BTreeSet<String>> {
        let only_readmes;
        let state = match self.state.get() {
            Some(state) => state,
            None => {
                only_readmes = self.read_state(Named::Readme)?;
                &only_readmes
            }
        };
        let mut dirs = BTreeSet::new();
        for entry in state.entries() {
            let path: &[u8] = entry.path(state);
            let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
            if listed_kind(entry).is_none() || !Named::Readme.keeps(name) {
                continue;
            }
            if let Name::Utf8(path) = crate::relpath::name_of_bytes(path) {
                dirs.insert(crate::relpath::parent(&path).to_string());
            }
        }
        Ok(dirs)
    }

    /// Read with the help of the index's cache tree where the repository has a readable
    /// index (`super::base_index`): the trees the index vouches for are not read. With
    /// `named`, only the entries of that file name.
    fn read_state(&self, named: Named<'_>) -> Result<gix::index::State> {
        let repo = self.repo.to_thread_local();
        let index = repo.index_or_empty().ok();
        let empty = gix::index::State::new(repo.object_hash());
        let assist: &gix::index::State = match &index {
            Some(index) => index,
            None => &empty,
        };
        super::base_index::base_state_named(&repo, self.tree, assist, named)
            .with_context(|| format!("listing the files of commit {}", self.commit))
    }
}

/// A listed entry's kind: a link, a regular file, or `None` for what is no entry here (a
/// submodule).
fn listed_kind(entry: &gix::index::Entry) -> Option<bool> {
    use gix::index::entry::Mode;
    let link = entry.mode == Mode::SYMLINK;
    (link || entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE).then_some(link)
}

/// Every file and link of `state` whose path is UTF-8, by path.
fn list(state: &gix::index::State) -> Listing {
    let mut entries = Vec::new();
    for entry in state.entries() {
        let Some(link) = listed_kind(entry) else {
            continue;
        };
        if let Name::Utf8(path) = crate::relpath::name_of_bytes(entry.path(state)) {
            entries.push(Listed { path, link });
        }
    }
    entries.sort();
    Listing { entries }
}

impl FileSource for TreeSource {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        if path.is_empty() {
            return Ok(None);
        }
        let context = || format!("reading {path} at commit {}", self.commit);
        let repo = self.repo.to_thread_local();
        let tree = repo.find_tree(self.tree).explain(context)?;
        let Some(entry) = tree.lookup_entry_by_path(path).explain(context)? else {
            return Ok(None);
        };
        if !entry.mode().is_blob() {
            return Ok(None);
        }
        let blob = entry.object().explain(context)?;
        Ok(Some(blob.detach().data))
    }

    fn entry(&self, path: &str) -> Result<Entry> {
        if path.is_empty() {
            return Ok(Entry::Dir);
        }
        let context = || format!("looking up {path} at commit {}", self.commit);
        let repo = self.repo.to_thread_local();
        let tree = repo.find_tree(self.tree).explain(context)?;
        // A path through a link to a directory is not in the tree: missing.
        let Some(entry) = tree.lookup_entry_by_path(path).explain(context)? else {
            return Ok(Entry::Missing);
        };
        let mode = entry.mode();
        Ok(if mode.is_link() {
            Entry::Link
        } else if mode.is_tree() {
            Entry::Dir
        } else if mode.is_blob() {
            let len = repo.find_header(entry.oid()).explain(context)?.size();
            Entry::File { len }
        } else {
            Entry::Other
        })
    }

    fn link_target(&self, path: &str) -> Result<Option<LinkTarget>> {
        if path.is_empty() {
            return Ok(None);
        }
        let context = || format!("reading the link {path} at commit {}", self.commit);
        let repo = self.repo.to_thread_local();
        let tree = repo.find_tree(self.tree).explain(context)?;
        let Some(entry) = tree.lookup_entry_by_path(path).explain(context)? else {
            return Ok(None);
        };
        if !entry.mode().is_link() {
            return Ok(None);
        }
        let blob = entry.object().explain(context)?;
        Ok(Some(LinkTarget::of_text(&blob.data)))
    }

    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>> {
        // The whole tree when it was read already; else only the entries of that name.
        let only_named;
        let state = match self.state.get() {
            Some(state) => state,
            None => {
                only_named = self.read_state(Named::Exactly(file_name.as_bytes()))?;
                &only_named
            }
        };
        let mut named = Vec::new();
        for entry in state.entries() {
            let path: &[u8] = entry.path(state);
            let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
            if name != file_name.as_bytes() {
                continue;
            }
            let Some(link) = listed_kind(entry) else {
                continue;
            };
            match crate::relpath::name_of_bytes(path) {
                Name::Utf8(path) => named.push(Listed { path, link }),
                // As in the working tree: a file of that name under a path that isn't
                // UTF-8 is an error naming it, never silently passed over.
                Name::NotUtf8(shown) => {
                    anyhow::bail!("path {shown} in commit {} is not valid UTF-8", self.commit)
                }
            }
        }
        named.sort();
        Ok(named)
    }

    fn names_in(&self, dir: &str) -> Result<Vec<Listed>> {
        // A tree holds no entry below a link: a link is a blob, never a directory.
        let listing = self.listing()?;
        let named = listing
            .entries
            .iter()
            .filter(|e| crate::relpath::parent(&e.path) == dir)
            .cloned()
            .collect();
        Ok(named)
    }

    fn describe(&self) -> String {
        let hex = self.commit.to_string();
        format!("commit {}", &hex[..hex.len().min(7)])
    }
}
