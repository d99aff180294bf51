//! Leg 2 of the listing (docs/src/reference/gate.md step 3, docs/src/reference/gate.md#integrity "git attributes and config change
//! nothing"): the index against the working tree, by the working tree's raw bytes.
//!
//! No attribute converts a file (`working-tree-encoding`, `eol`, `text`, `ident`,
//! filters) and no locally settable configuration changes what is seen: stat data are
//! compared with git's default strictness whatever `core.checkStat` or `core.trustCTime`
//! say, a file whose stat data don't match is hashed as it is on disk, the
//! `assume-unchanged` and fsmonitor flags of an entry are not trusted, `core.ignoreCase`
//! is not read (paths match byte for byte), and untracked files are found by a walk that
//! honours the working tree's `.gitignore` files alone (not `.git/info/exclude`,
//! `core.excludesFile`, the global ignore file or `status.showUntrackedFiles`).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context as _, Result};
use gix::bstr::{BStr, BString, ByteSlice as _};
use gix::index::entry::{stat, Flags, Mode, Stat};

use super::stat::{DirStat, FileKind};
use gix::ObjectId;
use rayon::prelude::*;

mod only;

pub(super) use only::compare_only;

/// What a path holds, as far as the gate cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    File,
    Link,
    Submodule,
    /// A sparse-index directory entry or anything else that is no file.
    Other,
}

impl Kind {
    pub(super) fn of_mode(mode: Mode) -> Kind {
        if mode == Mode::COMMIT {
            Kind::Submodule
        } else if mode == Mode::SYMLINK {
            Kind::Link
        } else if mode == Mode::FILE || mode == Mode::FILE_EXECUTABLE {
            Kind::File
        } else {
            Kind::Other
        }
    }
}

/// A path whose working-tree state differs from the index.
#[derive(Debug, Clone)]
pub(super) enum Seen {
    /// A tracked path: `now` is what the working tree holds there (`None`: nothing).
    Tracked { path: BString, now: Option<Kind> },
    /// A file or link the index doesn't hold (an intent-to-add entry counts as none) and
    /// no `.gitignore` file ignores.
    Untracked { path: BString, now: Kind },
}

/// Every path whose working-tree state differs from `index`, tracked paths first.
pub(super) fn compare(
    repo: &gix::Repository,
    workdir: &Path,
    index: &gix::index::File,
) -> Result<Vec<Seen>> {
    // The walk for untracked files runs beside the (parallel) look at each tracked one.
    let repo = repo.clone().into_sync();
    let (mut seen, untracked) = rayon::join(
        || tracked(&repo, workdir, index),
        || untracked(workdir, index),
    );
    seen.extend(untracked?);
    Ok(seen)
}

/// The tracked paths that differ, in index order; one item per path (a conflicted path
/// has several entries and is always reported). An intent-to-add entry is untracked.
fn tracked(
    repo: &gix::ThreadSafeRepository,
    workdir: &Path,
    index: &gix::index::File,
) -> Vec<Seen> {
    let entries: Vec<(&BStr, &gix::index::Entry)> =
        index.entries().iter().map(|e| (e.path(index), e)).collect();
    let per_thread = || (Probe::default(), repo.to_thread_local());
    entries
        .par_iter()
        .enumerate()
        .map_init(per_thread, |(probe, repo), (i, &(path, entry))| {
            let conflicted = entry.stage_raw() != 0;
            if conflicted && i > 0 && entries[i - 1].0 == path {
                return None;
            }
            let checked = Checked {
                repo,
                probe,
                workdir,
            };
            checked.entry(path, entry, index)
        })
        .flatten()
        .collect()
}

/// What one index entry's check needs.
struct Checked<'a> {
    repo: &'a gix::Repository,
    probe: &'a mut Probe,
    workdir: &'a Path,
}

impl Checked<'_> {
    /// How the working tree differs from the index entry at `path` (the first of a
    /// conflicted path's entries), if it does.
    fn entry(
        self,
        path: &BStr,
        entry: &gix::index::Entry,
        index: &gix::index::File,
    ) -> Option<Seen> {
        let conflicted = entry.stage_raw() != 0;
        let abs = self.workdir.join(gix::path::from_bstr(path).ok()?);
        let (disk, meta) = self.probe.at(self.workdir, path, &abs);
        if entry.flags.contains(Flags::INTENT_TO_ADD) {
            let now = disk.kind()?;
            let path = path.to_owned();
            return Some(Seen::Untracked { path, now });
        }
        let sparse = disk == Disk::Missing && entry.flags.contains(Flags::SKIP_WORKTREE);
        let changed = conflicted || !sparse && differs(self.repo, &abs, entry, (disk, meta), index);
        changed.then(|| Seen::Tracked {
            path: path.to_owned(),
            now: disk.kind(),
        })
    }
}

/// Whether the working tree's `disk` at `abs` holds something other than `entry`.
fn differs(
    repo: &gix::Repository,
    abs: &Path,
    entry: &gix::index::Entry,
    (disk, meta): (Disk, Option<Stat>),
    index: &gix::index::File,
) -> bool {
    let expected = Kind::of_mode(entry.mode);
    match disk {
        // An uninitialised submodule is an empty directory.
        Disk::Other => expected != Kind::Submodule,
        Disk::Missing => true,
        Disk::Repository => expected != Kind::Submodule || submodule_moved(abs, entry),
        Disk::File | Disk::Link if disk.kind() != Some(expected) => true,
        Disk::File | Disk::Link if meta.as_ref().is_some_and(|m| stat_clean(m, entry, index)) => {
            false
        }
        Disk::File | Disk::Link => match raw_bytes(abs, disk) {
            None => true,
            Some(bytes) if blob_id(&bytes) == Some(entry.id) => false,
            Some(bytes) => !(disk == Disk::File && same_but_line_ends(repo, &bytes, entry.id)),
        },
    }
}

/// True when `bytes` and the blob `id` differ only in that one ends lines with `\r\n`
/// where the other ends them with `\n` (`core.autocrlf`, `eol=crlf`): nothing structgate
/// measures can tell them apart. A lone `\r` in either is a line break of its own, so
/// they are then not alike.
fn same_but_line_ends(repo: &gix::Repository, bytes: &[u8], id: ObjectId) -> bool {
    let Ok(blob) = repo.find_blob(id) else {
        return false;
    };
    let lone_cr = |b: &[u8]| {
        b.iter()
            .enumerate()
            .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'))
    };
    if lone_cr(bytes) || lone_cr(&blob.data) {
        return false;
    }
    let without_cr = |b: &[u8]| {
        b.iter()
            .copied()
            .filter(|&c| c != b'\r')
            .collect::<Vec<u8>>()
    };
    without_cr(bytes) == without_cr(&blob.data)
}

/// True when the file's stat data match the entry's, compared with git's default
/// strictness (mtime, ctime, inode, size, ...), and the entry isn't racy.
fn stat_clean(now: &Stat, entry: &gix::index::Entry, index: &gix::index::File) -> bool {
    let options = stat::Options::default();
    !entry.stat.is_racy(index.timestamp(), options) && entry.stat.matches(now, options)
}

/// A file's bytes or a link's target, as they are on disk.
fn raw_bytes(abs: &Path, disk: Disk) -> Option<Vec<u8>> {
    match disk {
        Disk::Link => {
            let target = std::fs::read_link(abs).ok()?;
            Some(gix::path::into_bstr(target).ok()?.into_owned().into())
        }
        _ => std::fs::read(abs).ok(),
    }
}

/// The git blob id of `bytes`.
fn blob_id(bytes: &[u8]) -> Option<ObjectId> {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).ok()
}

/// Whether the submodule checked out at `dir` sits at another commit than its entry.
fn submodule_moved(dir: &Path, entry: &gix::index::Entry) -> bool {
    let head = gix::open(dir)
        .ok()
        .and_then(|r| r.head_id().ok().map(|id| id.detach()));
    head != Some(entry.id)
}

/// What the working tree holds at a path, without following links (also on the way:
/// a path through a link to a directory holds nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Disk {
    Missing,
    File,
    Link,
    /// A directory holding a `.git`: a checked-out submodule or another repository.
    Repository,
    /// A directory without `.git`, a socket, a device, ...
    Other,
}

impl Disk {
    fn kind(self) -> Option<Kind> {
        match self {
            Disk::File => Some(Kind::File),
            Disk::Link => Some(Kind::Link),
            _ => None,
        }
    }
}

/// Looks paths up in the working tree, remembering which directories on the way are
/// real directories (entries come sorted, so most share the previous one's directory).
#[derive(Default)]
struct Probe {
    last_dir: Option<(Vec<u8>, bool)>,
    dirs: HashMap<Vec<u8>, bool>,
    /// Stat data looked up relative to the directory of the path before.
    stat: Option<DirStat>,
}

impl Probe {
    /// What the working tree at `workdir` holds at the repository-relative `path`
    /// (`abs` on disk), with its stat data when it is there.
    fn at(&mut self, workdir: &Path, path: &BStr, abs: &Path) -> (Disk, Option<Stat>) {
        if !self.dir_is_real(path, abs) {
            return (Disk::Missing, None);
        }
        let stat = self.stat.get_or_insert_with(|| DirStat::new(workdir));
        let Some(now) = stat.lstat(path) else {
            return (Disk::Missing, None);
        };
        let disk = match now.kind {
            FileKind::Link => Disk::Link,
            FileKind::File => Disk::File,
            FileKind::Dir if abs.join(".git").exists() => Disk::Repository,
            FileKind::Dir | FileKind::Other => Disk::Other,
        };
        (disk, Some(now.stat))
    }

    /// True when every directory above `path` is a directory, not a link or a file.
    fn dir_is_real(&mut self, path: &BStr, abs: &Path) -> bool {
        let Some(slash) = path.rfind_byte(b'/') else {
            return true;
        };
        let dir = &path[..slash];
        if let Some((last, real)) = &self.last_dir {
            if last.as_slice() == dir {
                return *real;
            }
        }
        let depth = dir.iter().filter(|&&b| b == b'/').count() + 1;
        let mut real = true;
        let mut above = abs.parent();
        let mut checks = Vec::with_capacity(depth);
        for end in dir
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'/')
            .map(|(i, _)| i)
        {
            checks.push(&dir[..end]);
        }
        checks.push(dir);
        // `abs`'s ancestors, innermost first, line up with `checks` reversed.
        let mut on_disk = Vec::with_capacity(depth);
        for _ in 0..depth {
            let Some(d) = above else { break };
            on_disk.push(d);
            above = d.parent();
        }
        for (key, d) in checks.iter().zip(on_disk.iter().rev()) {
            let ok = *self
                .dirs
                .entry(key.to_vec())
                .or_insert_with(|| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir()));
            if !ok {
                real = false;
                break;
            }
        }
        self.last_dir = Some((dir.to_vec(), real));
        real
    }
}

/// The files and links of the working tree the index doesn't hold and no `.gitignore`
/// ignores; nested repositories (submodules among them) are not entered. `ignore`'s
/// parallel walker on one thread, which learns whether a directory holds a `.gitignore`
/// from reading it rather than asking the file system for each name; walk order.
fn untracked(workdir: &Path, index: &gix::index::File) -> Result<Vec<Seen>> {
    let mut walk = ignore::WalkBuilder::new(workdir);
    walk.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(false)
        .git_global(false)
        .ignore(false)
        .parents(false)
        .require_git(false)
        .threads(1)
        .filter_entry(|e| {
            let nested = e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && e.path().join(".git").exists();
            e.file_name() != ".git" && !nested
        });
    let found = std::sync::Mutex::new((Vec::new(), None, Held::new(index)));
    walk.build_parallel().run(|| {
        Box::new(|entry| {
            let Ok(mut found) = found.lock() else {
                return ignore::WalkState::Quit;
            };
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found.1 = Some(e);
                    return ignore::WalkState::Quit;
                }
            };
            if let Some(seen) = untracked_entry(workdir, &mut found.2, &entry) {
                found.0.push(seen);
            }
            ignore::WalkState::Continue
        })
    });
    let (seen, error, _) = found
        .into_inner()
        .map_err(|_| anyhow::anyhow!("listing {}", workdir.display()))?;
    match error {
        Some(e) => Err(e).with_context(|| format!("listing {}", workdir.display())),
        None => Ok(seen),
    }
}

/// The walk's `entry` as untracked, when it is a file or a link the index doesn't hold.
fn untracked_entry(workdir: &Path, held: &mut Held, entry: &ignore::DirEntry) -> Option<Seen> {
    let now = match entry.file_type() {
        Some(t) if t.is_symlink() => Kind::Link,
        Some(t) if t.is_file() => Kind::File,
        _ => return None,
    };
    let rel = entry.path().strip_prefix(workdir).unwrap_or(entry.path());
    let rel = gix::path::into_bstr(rel).ok()?;
    let path = gix::path::to_unix_separators_on_windows(rel).into_owned();
    (!held.holds(path.as_bstr())).then_some(Seen::Untracked { path, now })
}

/// Whether the index holds a path, looked for among the entries of its directory: the
/// walk hands on a directory's files one after the other.
struct Held<'i> {
    index: &'i gix::index::File,
    /// The last directory looked in (`/`-terminated, empty at the root) and its entries.
    dir: (BString, &'i [gix::index::Entry]),
}

impl<'i> Held<'i> {
    fn new(index: &'i gix::index::File) -> Self {
        Held {
            index,
            dir: (BString::default(), index.entries()),
        }
    }

    /// True when the index has an entry at `path`.
    fn holds(&mut self, path: &BStr) -> bool {
        let index = self.index;
        let dir = path
            .rfind_byte(b'/')
            .map_or(&path[..0], |slash| &path[..=slash]);
        if self.dir.0.as_bstr() != dir {
            let all = index.entries();
            let low = all.partition_point(|e| e.path(index) < dir);
            let high = low + all[low..].partition_point(|e| e.path(index).starts_with(dir));
            self.dir = (dir.into(), &all[low..high]);
        }
        self.dir
            .1
            .binary_search_by(|e| e.path(index).cmp(path))
            .is_ok()
    }
}
