//! Blob ids for the measurement cache (`crate::cache`): the id git already recorded in the
//! index for a tracked file whose stat data still match (free: no read, no hash), else
//! the file's bytes hashed the way git hashes a blob.
//!
//! The index's id names the working-tree bytes only when nothing converts them between
//! the two ([`Converting`]). `ident`, `filter`, `working-tree-encoding` and `eol=crlf`
//! (on Windows also `text` and `crlf`), `core.autocrlf=true` and a `core.eol` other than
//! `lf` may change any byte: such a file is hashed from its bytes. The other line-end
//! settings (`text`, `text=auto`, `eol=lf`, `crlf`, `core.autocrlf=input`, `core.eol=lf`)
//! check a file out as the blob's bytes and at most turn `\r\n` into `\n` when it is
//! added. So a stat-clean file they touch is its blob when it is as long as the blob (the
//! object database's header says, [`IndexIds::clean_id`]) or, once read, when its bytes
//! hold no `\r` ([`IndexIds::clean_id_of`]); else it is hashed. The files nothing
//! matches keep the index's ids unread.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use gix::bstr::{BStr, ByteSlice as _};
use gix::index::entry::{stat, Flags, Mode};
use gix::index::Entry;

use super::stat::{DirStat, FileKind};
use super::{Explain as _, Repo};

/// Tells one [`IndexIds`] from another: a thread's directory handles are kept for one
/// alone (another run may see another tree).
static SERIALS: AtomicU64 = AtomicU64::new(0);

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
    /// The repository's shared index (read once for this and [`super::tracked`]).
    index: gix::worktree::Index,
    options: stat::Options,
    workdir: PathBuf,
    converting: Converting,
    objects: Objects,
    /// This one's number, for [`IndexIds::lstat`].
    serial: u64,
}

/// The repository's object database, for blob sizes: a handle per thread asking at once.
struct Objects {
    shared: gix::ThreadSafeRepository,
    free: Mutex<Vec<gix::Repository>>,
}

impl Objects {
    /// The size of the blob `id`, if the object database holds it.
    fn blob_size(&self, id: &gix::oid) -> Option<u64> {
        let taken = self.free.lock().ok().and_then(|mut free| free.pop());
        let repo = taken.unwrap_or_else(|| self.shared.to_thread_local());
        let header = repo.find_header(id).ok();
        if let Ok(mut free) = self.free.lock() {
            free.push(repo);
        }
        let header = header.filter(|h| h.kind() == gix::object::Kind::Blob)?;
        Some(header.size())
    }
}

impl Repo {
    /// The index's blob ids of the working tree; `None` for a bare repository, a
    /// repository without an index, or one whose configuration may convert any byte of a
    /// file on checkout.
    pub fn index_ids(&self) -> anyhow::Result<Option<IndexIds>> {
        let Some(workdir) = self.repo.workdir() else {
            return Ok(None);
        };
        let configured = configured_conversion(&self.repo);
        if configured == Conversion::Any {
            return Ok(None);
        }
        let options = self
            .repo
            .stat_options()
            .explain(|| "reading the core.checkStat and core.trustCTime settings")?;
        let Ok(Some(index)) = self.repo.try_index() else {
            return Ok(None);
        };
        let mut converting = Converting::read(&index, workdir, &self.repo);
        converting.least = converting.least.max(configured);
        if converting.least == Conversion::Any {
            return Ok(None);
        }
        Ok(Some(IndexIds {
            index,
            options,
            workdir: workdir.to_path_buf(),
            converting,
            objects: Objects {
                shared: self.repo.clone().into_sync(),
                free: Mutex::default(),
            },
            serial: SERIALS.fetch_add(1, Ordering::Relaxed),
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
    /// read to know (see [`IndexIds::clean_id_of`]). A file whose line ends alone may
    /// have been converted is its blob when it is as long as the blob: git only ever
    /// took a `\r` out of each `\r\n` or put one into each `\n`.
    pub fn clean_id(&self, rel: &str) -> Option<(BlobId, u64)> {
        let conversion = self.converting.of(rel);
        if conversion == Conversion::Any {
            return None;
        }
        let (id, size) = self.stat_clean(rel)?;
        let unconverted = conversion == Conversion::None
            || self
                .objects
                .blob_size(gix::oid::from_bytes_unchecked(&id.0))
                == Some(size);
        unconverted.then_some((id, size))
    }

    /// The id git recorded for `rel` when `bytes`, just read from it, are that blob's:
    /// the file still matches the index's stat data (so it was not changed since git
    /// recorded it, nor while it was read), nothing converts it, or only line ends and
    /// `bytes` hold no `\r` (git then neither changed them on checkout nor when it added
    /// them). `None`: hash `bytes`.
    pub fn clean_id_of(&self, rel: &str, bytes: &[u8]) -> Option<BlobId> {
        match self.converting.of(rel) {
            Conversion::Any => return None,
            Conversion::LineEnds if bytes.contains(&b'\r') => return None,
            Conversion::LineEnds | Conversion::None => {}
        }
        let (id, size) = self.stat_clean(rel)?;
        (u64::try_from(bytes.len()).ok() == Some(size)).then_some(id)
    }

    /// The id and size git recorded for `rel` when the file matches the entry's stat data.
    fn stat_clean(&self, rel: &str) -> Option<(BlobId, u64)> {
        self.with_lookups(|lookups| {
            let entry = lookups.entry(&self.index, rel.as_bytes().as_bstr())?;
            let untrusted = Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD;
            if entry.stage_raw() != 0
                || entry.flags.intersects(untrusted)
                || !(entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE)
                || entry.stat.is_racy(self.index.timestamp(), self.options)
            {
                return None;
            }
            let now = lookups.dirs.lstat(rel.as_bytes())?;
            if now.kind != FileKind::File || !entry.stat.matches(&now.stat, self.options) {
                return None;
            }
            Some((from_object_id(&entry.id)?, now.len))
        })
    }

    /// Calls `look` with this thread's [`Lookups`] in this index (the files come in path
    /// order, so each is near the one this thread looked up before).
    fn with_lookups<T>(&self, look: impl FnOnce(&mut Lookups) -> Option<T>) -> Option<T> {
        thread_local! {
            /// The lookups of one [`IndexIds`] (by its `serial`) on this thread.
            static LOOKUPS: RefCell<Option<Lookups>> = const { RefCell::new(None) };
        }
        let fresh = || Lookups {
            serial: self.serial,
            dirs: DirStat::new(&self.workdir),
            next: 0,
        };
        LOOKUPS.with(|lookups| match lookups.try_borrow_mut() {
            Ok(mut lookups) => {
                let mine = lookups.as_ref().is_some_and(|l| l.serial == self.serial);
                look(if mine {
                    lookups.as_mut()?
                } else {
                    lookups.insert(fresh())
                })
            }
            Err(_) => look(&mut fresh()),
        })
    }
}

/// One thread's lookups in one [`IndexIds`]: stat data relative to a handle on the
/// directory of the path before, and the index entry after the one found before.
struct Lookups {
    serial: u64,
    dirs: DirStat,
    /// Where the next path's entry is likely to be.
    next: usize,
}

impl Lookups {
    /// The entry `gix::index::State::entry_by_path` gives for `path`: looked for first
    /// where the path before ended, since the files come in path order (an unconflicted
    /// entry there is the one; anything else is searched for).
    fn entry<'i>(&mut self, index: &'i gix::index::File, path: &BStr) -> Option<&'i Entry> {
        let entries = index.entries();
        let near = entries.get(self.next..).unwrap_or_default().iter().take(8);
        let found = near
            .enumerate()
            .find(|(_, e)| e.path(index) == path && e.stage_raw() == 0);
        if let Some((ahead, entry)) = found {
            self.next += ahead + 1;
            return Some(entry);
        }
        if let Ok(at) = index.entry_index_by_path(path) {
            self.next = at + 1;
        }
        index.entry_by_path(path)
    }
}

/// What checkout and check-in may do to a file's bytes, from its attributes and the
/// configuration; ordered from the least to the most.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Conversion {
    /// Nothing: the working-tree bytes of a stat-clean file are its blob's.
    #[default]
    None,
    /// Line ends only, and checkout writes them as `\n`: git checks out the blob's bytes
    /// unchanged and, when it adds a file, at most turns its `\r\n` into `\n` (a file
    /// whose bytes hold no `\r` is its blob).
    LineEnds,
    /// Anything (`ident`, a filter, an encoding, `\r\n` written on checkout).
    Any,
}

/// What the configuration lets checkout do to every file: `core.autocrlf=input` and
/// `core.eol=lf` touch line ends only, written as `\n`; `core.autocrlf` true (or any value
/// but `false` and `input`) or another `core.eol` may write `\r\n`.
fn configured_conversion(repo: &gix::Repository) -> Conversion {
    let config = repo.config_snapshot();
    let autocrlf = match config.string("core.autocrlf") {
        None => Conversion::None,
        Some(v) if v.eq_ignore_ascii_case(b"false") => Conversion::None,
        Some(v) if v.eq_ignore_ascii_case(b"input") => Conversion::LineEnds,
        Some(_) => Conversion::Any,
    };
    let eol = match config.string("core.eol") {
        None => Conversion::None,
        Some(v) if v.eq_ignore_ascii_case(b"lf") => Conversion::LineEnds,
        Some(_) => Conversion::Any,
    };
    autocrlf.max(eol)
}

/// The attributes lines that may convert a file between the index and the working tree,
/// read from every attributes file that can apply: the tracked `.gitattributes` files,
/// the top-level one on disk, `$GIT_DIR/info/attributes`, `core.attributesFile`, the
/// user's and the system's. Conservative by design: a line counts when any of its
/// attributes names a converting keyword (set, unset or valued alike: `eol` but for
/// `eol=lf` and an unset `eol` may write `\r\n`), a path counts when such a line's
/// pattern matches it (case folded, whatever `core.ignoreCase` says), and a macro
/// (`[attr]name ...`) whose definition names one gives its conversion to the whole tree,
/// as does a line whose pattern can't be parsed or is quoted.
#[derive(Debug, Default)]
struct Converting {
    /// What every file may undergo.
    least: Conversion,
    /// `(directory of the attributes file with a trailing `/`, or "" for the root and the
    /// files outside the tree; pattern; what the line may do)`.
    rules: Vec<(String, gix::glob::Pattern, Conversion)>,
}

impl Converting {
    fn read(index: &gix::index::File, workdir: &Path, repo: &gix::Repository) -> Converting {
        let mut files: Vec<(String, PathBuf)> = index
            .entries()
            .iter()
            .map(|e| e.path(index))
            .filter(|p| p.ends_with(b".gitattributes"))
            .filter_map(|p| p.to_str().ok())
            .filter(|p| *p == ".gitattributes" || p.ends_with("/.gitattributes"))
            .map(|p| {
                let dir = &p[..p.len() - ".gitattributes".len()];
                (dir.to_string(), workdir.join(p))
            })
            .collect();
        files.push((String::new(), workdir.join(".gitattributes")));
        files.push((String::new(), repo.git_dir().join("info/attributes")));
        files.push((String::new(), PathBuf::from("/etc/gitattributes")));
        let config = repo.config_snapshot();
        let mut converting = Converting::default();
        match config.trusted_path("core.attributesFile") {
            Ok(Some(path)) => files.push((String::new(), path)),
            Ok(None) => {}
            // A path that can't be read out of the configuration: nothing is trusted.
            Err(_) => converting.least = Conversion::Any,
        }
        if let Some(home) = std::env::var_os("HOME") {
            files.push((
                String::new(),
                Path::new(&home).join(".config/git/attributes"),
            ));
        }
        if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME") {
            files.push((String::new(), Path::new(&xdg).join("git/attributes")));
        }
        for (dir, file) in files {
            if let Ok(text) = std::fs::read(&file) {
                converting.add(&dir, &text);
            }
        }
        converting
    }

    /// Adds the converting lines of one attributes file found in `dir`.
    fn add(&mut self, dir: &str, text: &[u8]) {
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            let (pattern, attributes) = split_line(line);
            let conversion = attributes
                .split(|b| b.is_ascii_whitespace())
                .map(conversion)
                .max()
                .unwrap_or_default();
            if conversion == Conversion::None {
                continue;
            }
            let parsed = gix::glob::Pattern::from_bytes_without_negation(pattern);
            match parsed {
                Some(p) if !pattern.starts_with(b"[attr]") && !pattern.starts_with(b"\"") => {
                    self.rules.push((dir.to_string(), p, conversion));
                }
                _ => self.least = self.least.max(conversion),
            }
        }
    }

    /// What the attributes lines may do to the file at repository-relative `rel`: the
    /// most any line whose pattern matches it may do. As in git, a pattern that matches a
    /// directory gives nothing to the files inside it.
    fn of(&self, rel: &str) -> Conversion {
        let base = rel
            .as_bytes()
            .iter()
            .rposition(|&b| b == b'/')
            .map(|i| i + 1);
        let mut most = self.least;
        for (dir, pattern, conversion) in &self.rules {
            if *conversion <= most {
                continue;
            }
            let Some(below) = rel.strip_prefix(dir.as_str()) else {
                continue;
            };
            let base = base.map(|b| b - dir.len()).filter(|&b| b > 0);
            if pattern.matches_repo_relative_path(
                below.into(),
                base,
                Some(false),
                gix::glob::pattern::Case::Fold,
                gix::glob::wildmatch::Mode::NO_MATCH_SLASH_LITERAL,
            ) {
                most = *conversion;
            }
        }
        most
    }
}

/// An attributes line's pattern and the rest (its attributes).
fn split_line(line: &[u8]) -> (&[u8], &[u8]) {
    match line.iter().position(|b| b.is_ascii_whitespace()) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, &[]),
    }
}

/// What one attribute (`eol=lf`, `-text`, `!filter`, ...) may do to a file, set, unset
/// or valued alike but for `eol`: only `eol=crlf` (or another value) makes checkout write
/// `\r\n`. `text` and `crlf` write the platform's line ends, `\r\n` on Windows.
fn conversion(attribute: &[u8]) -> Conversion {
    let unset = attribute.starts_with(b"-") || attribute.starts_with(b"!");
    let name = attribute.trim_start_with(|c| c == '-' || c == '!');
    let (name, value) = match name.iter().position(|&b| b == b'=') {
        Some(i) => (&name[..i], Some(&name[i + 1..])),
        None => (name, None),
    };
    match name {
        b"ident" | b"filter" | b"working-tree-encoding" => Conversion::Any,
        b"eol" if unset || value == Some(b"lf".as_slice()) => Conversion::LineEnds,
        b"eol" => Conversion::Any,
        b"text" | b"crlf" if cfg!(windows) => Conversion::Any,
        b"text" | b"crlf" => Conversion::LineEnds,
        _ => Conversion::None,
    }
}

#[cfg(test)]
mod tests {
    use super::Conversion::{Any, LineEnds, None as Unconverted};
    use super::*;

    fn rules(files: &[(&str, &str)]) -> Converting {
        let mut c = Converting::default();
        for (dir, text) in files {
            c.add(dir, text.as_bytes());
        }
        c
    }

    /// What `text` and `crlf` do here: `\r\n` written on checkout on Windows alone.
    const TEXT: Conversion = if cfg!(windows) { Any } else { LineEnds };

    #[test]
    fn only_the_files_a_converting_line_matches_are_hashed() {
        let c = rules(&[(
            "",
            "*.cs diff=csharp\n*.sh eol=lf\n*.sln eol=crlf\n*.sql diff\n",
        )]);
        assert_eq!(c.least, Unconverted);
        assert_eq!(c.of("src/Model/Entity.cs"), Unconverted);
        assert_eq!(c.of("Entity.cs"), Unconverted);
        assert_eq!(c.of("build.sh"), LineEnds);
        assert_eq!(c.of("eng/common/build.sh"), LineEnds);
        assert_eq!(c.of("All.SLN"), Any, "case folded: conservative");
        assert_eq!(c.of("eng/sh"), Unconverted);
    }

    #[test]
    fn line_end_attributes_that_write_lf_convert_line_ends_only() {
        let c = rules(&[(
            "",
            "* text=auto eol=lf\n*.txt text\n*.bat eol=crlf\n*.in crlf=input\n*.x -eol\n",
        )]);
        assert_eq!(c.of("README.md"), LineEnds);
        assert_eq!(c.of("docs/a.txt"), TEXT);
        assert_eq!(c.of("x.in"), TEXT);
        assert_eq!(c.of("run.bat"), Any, "eol=crlf writes \\r\\n");
        assert_eq!(c.of("a.x"), LineEnds);
        let auto = rules(&[("", "* text=auto\n")]);
        assert_eq!(auto.of("a.md"), TEXT);
        let set = rules(&[("", "*.md eol\n*.rs eol=CRLF\n")]);
        assert_eq!(
            set.of("a.md"),
            Any,
            "a value git doesn't know: conservative"
        );
        assert_eq!(set.of("a.rs"), Any);
    }

    #[test]
    fn a_nested_attributes_file_governs_its_directory_alone() {
        let c = rules(&[("gen/", "*.cs filter=lfs -diff\n")]);
        assert_eq!(c.of("gen/a.cs"), Any);
        assert_eq!(c.of("gen/deep/b.cs"), Any);
        assert_eq!(c.of("src/a.cs"), Unconverted);
        assert_eq!(c.of("generated/a.cs"), Unconverted);
    }

    #[test]
    fn anchored_and_directory_patterns_match_as_in_git() {
        let c = rules(&[("", "/vendor/** ident\ndocs eol=crlf\nsrc/*.rs filter=x\n")]);
        assert_eq!(c.of("vendor/x/y.rs"), Any);
        assert_eq!(c.of("lib/vendor.rs"), Unconverted);
        assert_eq!(c.of("lib/vendor/a.rs"), Unconverted, "anchored to the root");
        assert_eq!(c.of("a/docs"), Any);
        assert_eq!(
            c.of("docs/a.md"),
            Unconverted,
            "a directory's attributes aren't its files'"
        );
        assert_eq!(c.of("src/a.rs"), Any);
        assert_eq!(c.of("src/deep/a.rs"), Unconverted);
        assert_eq!(c.of("lib/src/a.rs"), Unconverted);
    }

    #[test]
    fn unset_and_valued_keywords_count_and_other_attributes_do_not() {
        let c = rules(&[("", "*.a -ident\n*.b working-tree-encoding=UTF-16\n*.c diff=eolish merge=crlf-ish linguist-generated\n*.d !filter\n")]);
        assert_eq!(c.of("x.a"), Any);
        assert_eq!(c.of("x.b"), Any);
        assert_eq!(c.of("x.c"), Unconverted);
        assert_eq!(c.of("x.d"), Any);
    }

    #[test]
    fn the_most_a_matching_line_may_do_wins() {
        let c = rules(&[("", "* text=auto eol=lf\n"), ("gen/", "*.cs ident\n")]);
        assert_eq!(c.of("gen/a.cs"), Any);
        assert_eq!(c.of("gen/a.md"), LineEnds);
        assert_eq!(c.of("a.cs"), LineEnds);
    }

    #[test]
    fn a_converting_macro_or_a_quoted_pattern_gives_its_conversion_to_every_file() {
        assert_eq!(
            rules(&[("", "[attr]crlfy eol=crlf\n*.cs crlfy\n")]).least,
            Any
        );
        assert_eq!(rules(&[("", "\"a b.cs\" eol=crlf\n")]).least, Any);
        assert_eq!(
            rules(&[("", "[attr]lfy text eol=lf\n*.cs lfy\n")]).least,
            TEXT
        );
        assert_eq!(rules(&[("", "\"a b.md\" eol=lf\n")]).least, LineEnds);
        let generated = rules(&[("", "[attr]gen linguist-generated -diff\n")]);
        assert_eq!(generated.least, Unconverted);
    }
}
