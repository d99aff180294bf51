//! `gate --staged` (docs/src/reference/gate.md#integrity "the commit is what counts"): the index as a
//! [`FileSource`], each file read from its staged blob, so the gate judges what the
//! commit will hold rather than the working copy.

use std::collections::BTreeMap;

use anyhow::Result;
use gix::index::entry::{Flags, Mode};
use gix::ObjectId;

use super::{plain, Explain as _, Repo};
use crate::relpath::Name;
use crate::source::{Entry, FileSource, LinkTarget, Listed};

/// The index of a working tree: every staged entry whose path is UTF-8 (intent-to-add
/// and conflicted entries are no part of a commit, and are left out).
pub struct IndexSource {
    repo: gix::ThreadSafeRepository,
    entries: BTreeMap<String, (Mode, ObjectId)>,
}

impl Repo {
    /// The index as a source of files.
    pub fn index_source(&self) -> Result<IndexSource> {
        let index = self.repo.index_or_empty().map_err(plain)?;
        let mut entries = BTreeMap::new();
        for entry in index.entries() {
            if entry.stage_raw() != 0 || entry.flags.contains(Flags::INTENT_TO_ADD) {
                continue;
            }
            if let Name::Utf8(path) = crate::relpath::name_of_bytes(entry.path(&index)) {
                entries.insert(path, (entry.mode, entry.id));
            }
        }
        Ok(IndexSource {
            repo: self.repo.clone().into_sync(),
            entries,
        })
    }
}

impl IndexSource {
    /// Every staged file and symbolic link, sorted by path.
    pub fn entries(&self) -> Vec<Listed> {
        self.entries
            .iter()
            .filter(|(_, (mode, _))| is_file(*mode) || *mode == Mode::SYMLINK)
            .map(|(path, (mode, _))| Listed {
                path: path.clone(),
                link: *mode == Mode::SYMLINK,
            })
            .collect()
    }

    /// The staged regular files any of the owned entries `dirs` holds (`""` is the root,
    /// ownership as `context::owns` tests it), sorted.
    pub fn files_under(&self, dirs: &[String]) -> Vec<String> {
        let under = |path: &str| dirs.iter().any(|d| crate::relpath::is_within(path, d));
        self.entries
            .iter()
            .filter(|(path, (mode, _))| is_file(*mode) && under(path))
            .map(|(path, _)| path.clone())
            .collect()
    }
}

fn is_file(mode: Mode) -> bool {
    mode == Mode::FILE || mode == Mode::FILE_EXECUTABLE
}

impl FileSource for IndexSource {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        let Some((mode, id)) = self.entries.get(path) else {
            return Ok(None);
        };
        if !is_file(*mode) {
            return Ok(None);
        }
        let repo = self.repo.to_thread_local();
        let blob = repo
            .find_blob(*id)
            .explain(|| format!("reading the staged version of {path} (blob {id})"))?;
        Ok(Some(blob.detach().data))
    }

    fn link_target(&self, path: &str) -> Result<Option<LinkTarget>> {
        let Some((mode, id)) = self.entries.get(path) else {
            return Ok(None);
        };
        if *mode != Mode::SYMLINK {
            return Ok(None);
        }
        let repo = self.repo.to_thread_local();
        let blob = repo
            .find_blob(*id)
            .explain(|| format!("reading the staged link {path} (blob {id})"))?;
        Ok(Some(LinkTarget::of_text(&blob.data)))
    }

    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>> {
        let named = self
            .entries()
            .into_iter()
            .filter(|e| crate::relpath::file_name(&e.path) == file_name)
            .collect();
        Ok(named)
    }

    fn names_in(&self, dir: &str) -> Result<Vec<Listed>> {
        // The index holds no entry below a staged link.
        let named = self
            .entries()
            .into_iter()
            .filter(|e| crate::relpath::parent(&e.path) == dir)
            .collect();
        Ok(named)
    }

    fn describe(&self) -> String {
        "the index".to_string()
    }

    fn entry(&self, path: &str) -> Result<Entry> {
        if path.is_empty() {
            return Ok(Entry::Dir);
        }
        // A path through a staged link is not in the index.
        let mut at = 0;
        while let Some(slash) = path[at..].find('/') {
            let above = &path[..at + slash];
            if self
                .entries
                .get(above)
                .is_some_and(|(m, _)| *m == Mode::SYMLINK)
            {
                return Ok(Entry::Link);
            }
            at += slash + 1;
        }
        if let Some((mode, id)) = self.entries.get(path) {
            return Ok(if is_file(*mode) {
                let repo = self.repo.to_thread_local();
                let len = repo
                    .find_header(*id)
                    .explain(|| format!("looking up the staged version of {path}"))?
                    .size();
                Entry::File { len }
            } else if *mode == Mode::SYMLINK {
                Entry::Link
            } else {
                Entry::Other
            });
        }
        let prefix = format!("{path}/");
        let holds = self
            .entries
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(p, _)| p.starts_with(&prefix));
        Ok(if holds { Entry::Dir } else { Entry::Missing })
    }
}
