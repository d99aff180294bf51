//! Files at a commit: the "terms" of a gate run are read from the base commit's tree
//! (docs/src/reference/gate.md step 2) through the same [`FileSource`] trait the working tree uses.

use std::sync::OnceLock;

use anyhow::{Context as _, Result};
use gix::ObjectId;

use super::Explain as _;
use crate::relpath::Name;
use crate::source::{Entry, FileSource, LinkTarget, Listed};

/// The regular files of one commit's tree. Symbolic links, submodules and directories are
/// not files here (`read` gives `None`; `find_named` lists links as links).
pub struct TreeSource {
    repo: gix::ThreadSafeRepository,
    commit: ObjectId,
    tree: ObjectId,
    /// The tree's files and links, listed on first use (terms and directory contracts both
    /// list the base tree; it is walked once).
    listing: OnceLock<Listing>,
}

/// A commit's entries, and those whose path isn't UTF-8 (set aside, as git shows them).
struct Listing {
    entries: Vec<Listed>,
    not_utf8: Vec<String>,
}

impl TreeSource {
    pub(super) fn new(repo: &gix::Repository, commit: ObjectId, tree: ObjectId) -> TreeSource {
        TreeSource {
            repo: repo.clone().into_sync(),
            commit,
            tree,
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
        let listed = self.list()?;
        Ok(self.listing.get_or_init(|| listed))
    }

    /// Every regular file and symbolic link of the tree whose path is UTF-8, sorted by
    /// path (submodules and directories are not entries). Directory contracts (docs/src/reference/contracts.md)
    /// list a tree with it. A path that isn't UTF-8 is left out: nothing can name it.
    pub fn entries(&self) -> Result<Vec<Listed>> {
        Ok(self.listing()?.entries.clone())
    }

    /// Read with the help of the index's cache tree where the repository has a readable
    /// index (`super::base_index`): the trees the index vouches for are not read.
    fn list(&self) -> Result<Listing> {
        let repo = self.repo.to_thread_local();
        let index = repo.index_or_empty().ok();
        let empty = gix::index::State::new(repo.object_hash());
        let assist: &gix::index::State = match &index {
            Some(index) => index,
            None => &empty,
        };
        let state = super::base_index::base_state(&repo, self.tree, assist)
            .with_context(|| format!("listing the files of commit {}", self.commit))?;
        let mut entries = Vec::new();
        let mut not_utf8 = Vec::new();
        for entry in state.entries() {
            use gix::index::entry::Mode;
            let link = entry.mode == Mode::SYMLINK;
            if !link && entry.mode != Mode::FILE && entry.mode != Mode::FILE_EXECUTABLE {
                continue;
            }
            match crate::relpath::name_of_bytes(entry.path(&state)) {
                Name::Utf8(path) => entries.push(Listed { path, link }),
                Name::NotUtf8(shown) => not_utf8.push(shown),
            }
        }
        entries.sort();
        Ok(Listing { entries, not_utf8 })
    }
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
        let listing = self.listing()?;
        // As in the working tree: a file of that name under a path that isn't UTF-8 is
        // an error naming it, never silently passed over.
        if let Some(shown) = listing
            .not_utf8
            .iter()
            .find(|p| crate::relpath::file_name(p) == file_name)
        {
            anyhow::bail!("path {shown} in commit {} is not valid UTF-8", self.commit);
        }
        let named = listing
            .entries
            .iter()
            .filter(|e| crate::relpath::file_name(&e.path) == file_name)
            .cloned()
            .collect();
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
