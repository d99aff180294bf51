//! Blob ids for the measurement cache (`crate::cache`): the id git already recorded in the
//! index for a tracked file whose stat data still match (free: no read, no hash), else
//! the file's bytes hashed the way git hashes a blob.
//!
//! The index's id names the working-tree bytes only when nothing converts them between
//! the two: with `core.autocrlf` or `core.eol` set, every file is hashed from its bytes;
//! a file an attributes line may give `eol`, `crlf`, `ident`, `filter` or
//! `working-tree-encoding` (on Windows also `text`) is hashed from its bytes too, while
//! the files no such line matches keep the index's ids ([`Converting`]).

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
    converting: Converting,
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
        let converting = Converting::read(&index, workdir, &self.repo);
        if converting.everything {
            return Ok(None);
        }
        Ok(Some(IndexIds {
            index,
            options,
            workdir: workdir.to_path_buf(),
            converting,
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
        if self.converting.may_convert(rel) {
            return None;
        }
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

/// The attributes lines that may convert a file between the index and the working tree,
/// read from every attributes file that can apply: the tracked `.gitattributes` files,
/// the top-level one on disk, `$GIT_DIR/info/attributes`, `core.attributesFile`, the
/// user's and the system's. Conservative by design: a line counts when any of its
/// attributes names a converting keyword (set, unset or valued alike), a path counts when
/// such a line's pattern matches it (case folded, whatever `core.ignoreCase` says), and a macro
/// (`[attr]name ...`) whose definition names one turns the whole tree to hashing, as does
/// a line that can't be parsed.
#[derive(Debug, Default)]
struct Converting {
    /// Every file may convert: hash them all.
    everything: bool,
    /// `(directory of the attributes file with a trailing `/`, or "" for the root and the
    /// files outside the tree; pattern)`.
    rules: Vec<(String, gix::glob::Pattern)>,
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
            Err(_) => converting.everything = true,
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
            if !attributes.split(|b| b.is_ascii_whitespace()).any(converts) {
                continue;
            }
            let parsed = gix::glob::Pattern::from_bytes_without_negation(pattern);
            match parsed {
                Some(p) if !pattern.starts_with(b"[attr]") && !pattern.starts_with(b"\"") => {
                    self.rules.push((dir.to_string(), p));
                }
                _ => self.everything = true,
            }
        }
    }

    /// Whether an attributes line may convert the file at repository-relative `rel`. As
    /// in git, a pattern that matches a directory gives nothing to the files inside it.
    fn may_convert(&self, rel: &str) -> bool {
        if self.everything {
            return true;
        }
        let base = rel
            .as_bytes()
            .iter()
            .rposition(|&b| b == b'/')
            .map(|i| i + 1);
        self.rules.iter().any(|(dir, pattern)| {
            let Some(below) = rel.strip_prefix(dir.as_str()) else {
                return false;
            };
            let base = base.map(|b| b - dir.len()).filter(|&b| b > 0);
            pattern.matches_repo_relative_path(
                below.into(),
                base,
                Some(false),
                gix::glob::pattern::Case::Fold,
                gix::glob::wildmatch::Mode::NO_MATCH_SLASH_LITERAL,
            )
        })
    }
}

/// An attributes line's pattern and the rest (its attributes).
fn split_line(line: &[u8]) -> (&[u8], &[u8]) {
    match line.iter().position(|b| b.is_ascii_whitespace()) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, &[]),
    }
}

/// Whether one attribute (`eol=lf`, `-text`, `!filter`, ...) may convert a file.
fn converts(attribute: &[u8]) -> bool {
    let name = attribute.trim_start_with(|c| c == '-' || c == '!');
    let name = name.split(|b| *b == b'=').next().unwrap_or_default();
    let mut words: &[&[u8]] = &[
        b"eol",
        b"crlf",
        b"ident",
        b"filter",
        b"working-tree-encoding",
    ];
    if cfg!(windows) {
        words = &[
            b"eol",
            b"crlf",
            b"ident",
            b"filter",
            b"working-tree-encoding",
            b"text",
        ];
    }
    words.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(files: &[(&str, &str)]) -> Converting {
        let mut c = Converting::default();
        for (dir, text) in files {
            c.add(dir, text.as_bytes());
        }
        c
    }

    #[test]
    fn only_the_files_a_converting_line_matches_are_hashed() {
        let c = rules(&[(
            "",
            "* text=auto\n*.cs diff=csharp\n*.sh eol=lf\n*.sln eol=crlf\n*.sql diff\n",
        )]);
        assert!(!c.everything);
        assert!(!c.may_convert("src/Model/Entity.cs"));
        assert!(!c.may_convert("Entity.cs"));
        assert!(c.may_convert("build.sh"));
        assert!(c.may_convert("eng/common/build.sh"));
        assert!(c.may_convert("All.SLN"), "case folded: conservative");
        assert!(!c.may_convert("eng/sh"));
    }

    #[test]
    fn a_nested_attributes_file_governs_its_directory_alone() {
        let c = rules(&[("gen/", "*.cs filter=lfs -diff\n")]);
        assert!(c.may_convert("gen/a.cs"));
        assert!(c.may_convert("gen/deep/b.cs"));
        assert!(!c.may_convert("src/a.cs"));
        assert!(!c.may_convert("generated/a.cs"));
    }

    #[test]
    fn anchored_and_directory_patterns_match_as_in_git() {
        let c = rules(&[("", "/vendor/** ident\ndocs !eol\nsrc/*.rs filter=x\n")]);
        assert!(c.may_convert("vendor/x/y.rs"));
        assert!(!c.may_convert("lib/vendor.rs"));
        assert!(!c.may_convert("lib/vendor/a.rs"), "anchored to the root");
        assert!(c.may_convert("a/docs"));
        assert!(
            !c.may_convert("docs/a.md"),
            "a directory's attributes aren't its files'"
        );
        assert!(c.may_convert("src/a.rs"));
        assert!(!c.may_convert("src/deep/a.rs"));
        assert!(!c.may_convert("lib/src/a.rs"));
    }

    #[test]
    fn unset_and_valued_keywords_count_and_other_attributes_do_not() {
        let c = rules(&[("", "*.a -eol\n*.b working-tree-encoding=UTF-16\n*.c diff=eolish merge=crlf-ish linguist-generated\n")]);
        assert!(c.may_convert("x.a"));
        assert!(c.may_convert("x.b"));
        assert!(!c.may_convert("x.c"));
    }

    #[test]
    fn a_converting_macro_or_a_quoted_pattern_hashes_everything() {
        assert!(rules(&[("", "[attr]crlfy eol=crlf\n*.cs crlfy\n")]).everything);
        assert!(rules(&[("", "\"a b.cs\" eol=crlf\n")]).everything);
        assert!(!rules(&[("", "[attr]gen linguist-generated -diff\n")]).everything);
    }
}
