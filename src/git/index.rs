//! Blob ids for the measurement cache (`crate::cache`): the id git already recorded in the
//! index for a tracked file whose stat data still match (free: no read, no hash), else
//! the file's bytes hashed the way git hashes a blob.
//!
//! The index's id names the working-tree bytes only when nothing converts them between
//! the two: with `core.autocrlf`, `core.eol`, or an attributes file that sets `eol`,
//! `crlf`, `ident`, `filter` or `working-tree-encoding` (on Windows also `text`), every
//! file is hashed from its bytes instead.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice as _;
use gix::index::entry::{stat, Flags, Mode, Stat};

use super::{Explain as _, Repo};

/// A git blob id (SHA-1) of a file's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlobId(pub [u8; 20]);

/// The git blob id of `bytes`: the SHA-1 of `blob <len>\0` and the bytes.
pub fn blob_id(bytes: &[u8]) -> BlobId {
    let hashed = gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes);
    match hashed {
        Ok(id) => from_object_id(&id).unwrap_or(BlobId([0; 20])),
        // sha1dc detected a collision attack: never a key anything else can share.
        Err(_) => BlobId([0xff; 20]),
    }
}

fn from_object_id(id: &gix::oid) -> Option<BlobId> {
    Some(BlobId(id.as_bytes().try_into().ok()?))
}

/// The index of a working tree, opened to answer "what is this file's blob id" cheaply.
pub struct IndexIds {
    index: gix::index::File,
    options: stat::Options,
    workdir: PathBuf,
}

impl Repo {
    /// The index's blob ids of the working tree; `None` for a bare repository, a
    /// repository without an index, or one whose configuration converts files on checkout.
    pub fn index_ids(&self) -> anyhow::Result<Option<IndexIds>> {
        let Some(workdir) = self.repo.workdir() else {
            return Ok(None);
        };
        if converts_files(&self.repo) {
            return Ok(None);
        }
        let options = self
            .repo
            .stat_options()
            .explain(|| "reading the core.checkStat and core.trustCTime settings")?;
        let Ok(index) = self.repo.open_index() else {
            return Ok(None);
        };
        if attributes_convert(&index, workdir) {
            return Ok(None);
        }
        Ok(Some(IndexIds {
            index,
            options,
            workdir: workdir.to_path_buf(),
        }))
    }

    /// Where structgate keeps its files in this repository: `structgate/` in the common
    /// git directory (shared by linked worktrees).
    pub fn structgate_dir(&self) -> PathBuf {
        self.repo.common_dir().join("structgate")
    }
}

impl IndexIds {
    /// The id git recorded for `rel` when the file still matches the index's stat data
    /// (and the entry is not racy), with the file's size; `None` when the file must be
    /// read and hashed to know.
    pub fn clean_id(&self, rel: &str) -> Option<(BlobId, u64)> {
        let entry = self.index.entry_by_path(rel.as_bytes().as_bstr())?;
        let untrusted = Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD;
        if entry.stage_raw() != 0
            || entry.flags.intersects(untrusted)
            || !(entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE)
            || entry.stat.is_racy(self.index.timestamp(), self.options)
        {
            return None;
        }
        let abs = self.workdir.join(rel);
        let meta = gix::index::fs::Metadata::from_path_no_follow(&abs).ok()?;
        if !meta.is_file() {
            return None;
        }
        let now = Stat::from_fs(&meta).ok()?;
        if !entry.stat.matches(&now, self.options) {
            return None;
        }
        Some((from_object_id(&entry.id)?, meta.len()))
    }
}

/// `core.autocrlf` (true or input) or `core.eol` set: checkout may rewrite line ends.
fn converts_files(repo: &gix::Repository) -> bool {
    let config = repo.config_snapshot();
    let autocrlf = config
        .string("core.autocrlf")
        .is_some_and(|v| !v.eq_ignore_ascii_case(b"false"));
    autocrlf || config.string("core.eol").is_some()
}

/// Whether any attributes file that applies could convert a file between the index and
/// the working tree (conservative: a keyword anywhere in a pattern line counts).
fn attributes_convert(index: &gix::index::File, workdir: &Path) -> bool {
    let mut files: Vec<PathBuf> = index
        .entries()
        .iter()
        .map(|e| e.path(index))
        .filter(|p| p.ends_with(b".gitattributes"))
        .filter_map(|p| p.to_str().ok().map(|p| workdir.join(p)))
        .collect();
    files.push(workdir.join(".gitattributes"));
    files.push(PathBuf::from("/etc/gitattributes"));
    if let Some(home) = std::env::var_os("HOME") {
        files.push(Path::new(&home).join(".config/git/attributes"));
    }
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME") {
        files.push(Path::new(&xdg).join("git/attributes"));
    }
    files
        .iter()
        .any(|f| std::fs::read(f).is_ok_and(|t| converting(&t)))
}

fn converting(text: &[u8]) -> bool {
    let mut words = vec!["eol", "crlf", "ident", "filter", "working-tree-encoding"];
    if cfg!(windows) {
        words.push("text");
    }
    text.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with(b"#"))
        .any(|l| words.iter().any(|w| l.find(w).is_some()))
}
