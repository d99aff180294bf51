//! Files at a commit: the "terms" of a gate run are read from the base commit's tree
//! (SPEC §6 step 2) through the same [`FileSource`] trait the working tree uses.

use std::sync::OnceLock;

use anyhow::Result;
use gix::bstr::ByteSlice as _;
use gix::ObjectId;

use super::Explain as _;
use crate::source::{FileSource, Listed};

/// The regular files of one commit's tree. Symbolic links, submodules and directories are
/// not files here (`read` gives `None`, `find_named` leaves them out).
pub struct TreeSource {
    repo: gix::ThreadSafeRepository,
    commit: ObjectId,
    tree: ObjectId,
    /// Every regular file's path, sorted; listed on first use.
    files: OnceLock<Vec<String>>,
}

impl TreeSource {
    pub(super) fn new(repo: &gix::Repository, commit: ObjectId, tree: ObjectId) -> TreeSource {
        TreeSource {
            repo: repo.clone().into_sync(),
            commit,
            tree,
            files: OnceLock::new(),
        }
    }

    /// The full id of the commit this source reads.
    pub fn commit(&self) -> String {
        self.commit.to_string()
    }

    fn files(&self) -> Result<&[String]> {
        if let Some(files) = self.files.get() {
            return Ok(files);
        }
        let listed = self.list_files()?;
        Ok(self.files.get_or_init(|| listed))
    }

    fn list_files(&self) -> Result<Vec<String>> {
        let entries = self.entries()?;
        Ok(entries
            .into_iter()
            .filter(|e| !e.link)
            .map(|e| e.path)
            .collect())
    }

    /// Every regular file and symbolic link of the tree, sorted by path (submodules and
    /// directories are not entries). Directory contracts (SPEC §9) list a tree with it.
    pub fn entries(&self) -> Result<Vec<Listed>> {
        let repo = self.repo.to_thread_local();
        let listed = repo
            .find_tree(self.tree)
            .and_then(|tree| tree.traverse().breadthfirst.files())
            .explain(|| format!("listing the files of commit {}", self.commit))?;
        let mut entries = Vec::new();
        for entry in listed.into_iter().filter(|e| e.mode.is_blob_or_symlink()) {
            let path = entry.filepath.to_str().map_err(|_| {
                anyhow::anyhow!(
                    "path {} in commit {} is not valid UTF-8",
                    entry.filepath,
                    self.commit
                )
            })?;
            entries.push(Listed {
                path: path.to_string(),
                link: entry.mode.is_link(),
            });
        }
        entries.sort();
        Ok(entries)
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

    fn find_named(&self, file_name: &str) -> Result<Vec<String>> {
        let named = self
            .files()?
            .iter()
            .filter(|p| p.rsplit('/').next() == Some(file_name))
            .cloned()
            .collect();
        Ok(named)
    }

    fn describe(&self) -> String {
        let hex = self.commit.to_string();
        format!("commit {}", &hex[..hex.len().min(7)])
    }
}
