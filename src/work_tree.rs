//! The working tree of a repository (or a plain directory outside git), listed the way
//! git sees it: ignore rules hide untracked files only (git never ignores a tracked file,
//! and neither does structgate, docs/src/reference/gate.md#integrity), symbolic links are
//! not followed, `.git` is never entered.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{anyhow, bail, Context as _, Result};

use crate::relpath::Name;
use crate::source::{self, Entry, FileSource, LinkTarget, Listed};

/// The working tree of a repository (or a plain directory outside git).
#[derive(Debug, Clone)]
pub struct WorkTree {
    root: PathBuf,
    /// The ignore rules that hide an untracked file from the listing.
    ignores: Ignores,
    /// Every file and link git doesn't ignore, listed once on first use and shared by
    /// clones: finding the contexts and listing the files to measure walk the tree once.
    listing: Arc<OnceLock<Result<Vec<TreeFile>, String>>>,
    /// The repository whose working tree this is, when the caller has it open: its index
    /// (for the tracked files ignore rules hid) is then the one it reads too.
    repo: Option<crate::git::TrackedIndex>,
}

/// One entry of the working tree's listing that is not a directory.
#[derive(Debug, Clone)]
pub struct TreeFile {
    /// Repository-relative, with `/`.
    pub name: Name,
    /// A symbolic link (never followed) rather than a regular file.
    pub link: bool,
}

impl WorkTree {
    /// The working tree at `root`, listed as `git status` lists it: an untracked file
    /// that a `.gitignore` file, `.git/info/exclude` or the global excludes file ignores
    /// is left out, a tracked one never.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        WorkTree {
            root: root.into(),
            ignores: Ignores::Local,
            listing: Arc::default(),
            repo: None,
        }
    }

    /// The same tree, whose repository `repo` (discovered from its root) has open already.
    pub fn in_repo(self, repo: &crate::git::Repo) -> Self {
        WorkTree {
            repo: Some(repo.tracked_index()),
            ..self
        }
    }

    /// The same tree listed as the gate lists it: only the `.gitignore` files hide an
    /// untracked file (docs/src/reference/gate.md#integrity).
    pub fn for_gate(self) -> Self {
        WorkTree {
            ignores: Ignores::Committed,
            ..self
        }
    }

    /// The ignore rules of its listing.
    pub fn ignores(&self) -> Ignores {
        self.ignores
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every regular file and symbolic link under the root that git doesn't ignore
    /// ([`builder`]; tracked ones are never ignored), in walk order, then
    /// the tracked ones ignore rules hid; walked once per tree value.
    pub fn files(&self) -> Result<&[TreeFile]> {
        let listed = self
            .listing
            .get_or_init(|| self.walk().map_err(|e| format!("{e:#}")));
        listed.as_deref().map_err(|e| anyhow!("{e}"))
    }

    fn walk(&self) -> Result<Vec<TreeFile>> {
        let mut found = match self.walk_reading_dirs() {
            Some(found) => found,
            None => self.walk_probing_dirs()?,
        };
        let seen: HashSet<&str> = found.iter().map(|f| f.name.shown()).collect();
        let listed = |shown: &str| seen.contains(shown);
        let hidden = hidden_tracked_in(self.repo.as_ref(), &self.root, listed, |_| true)?;
        drop(seen);
        found.extend(hidden.into_iter().map(|hidden| TreeFile {
            name: hidden.name,
            link: hidden.link,
        }));
        Ok(found)
    }

    /// The walk by `ignore`'s parallel walker on one thread, which learns whether a
    /// directory holds a `.gitignore` or a `.git` from reading it instead of asking the
    /// file system for each name: the same rules, the same files, fewer system calls.
    /// `None` when anything fails: [`WorkTree::walk_probing_dirs`] then fails as it
    /// always has.
    fn walk_reading_dirs(&self) -> Option<Vec<TreeFile>> {
        let found = Mutex::new(Vec::new());
        let failed = AtomicBool::new(false);
        let walk = builder(&self.root, self.ignores)
            .threads(1)
            .build_parallel();
        walk.run(|| {
            Box::new(|entry| {
                let file = entry.ok().map(|entry| self.tree_file(&entry));
                match file {
                    Some(Ok(Some(file))) => match found.lock() {
                        Ok(mut found) => found.push(file),
                        Err(_) => failed.store(true, Ordering::Relaxed),
                    },
                    Some(Ok(None)) => {}
                    None | Some(Err(_)) => {
                        failed.store(true, Ordering::Relaxed);
                        return ignore::WalkState::Quit;
                    }
                }
                ignore::WalkState::Continue
            })
        });
        let found = found.into_inner().ok()?;
        (!failed.into_inner()).then_some(found)
    }

    /// The walk by `ignore`'s sequential walker, which probes each directory for the
    /// ignore files and repositories it may hold.
    fn walk_probing_dirs(&self) -> Result<Vec<TreeFile>> {
        let mut found = Vec::new();
        for entry in builder(&self.root, self.ignores).build() {
            let entry = entry.with_context(|| format!("listing {}", self.root.display()))?;
            found.extend(self.tree_file(&entry)?);
        }
        Ok(found)
    }

    /// A walk's entry as listed: a regular file or a symbolic link, not a directory.
    fn tree_file(&self, entry: &ignore::DirEntry) -> Result<Option<TreeFile>> {
        let Some(kind) = entry.file_type() else {
            return Ok(None);
        };
        if !(kind.is_file() || kind.is_symlink()) {
            return Ok(None);
        }
        let name = crate::relpath::rel_name(&self.root, entry.path())?;
        let link = kind.is_symlink();
        Ok(Some(TreeFile { name, link }))
    }

    /// The file-system path of a repository-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    /// True when the owned entry `rel` is a directory or a regular file here (not a
    /// symbolic link, which is never followed): something a walk for owned files enters.
    pub fn holds_entry(&self, rel: &str) -> bool {
        std::fs::symlink_metadata(self.abs(rel)).is_ok_and(|m| m.is_dir() || m.is_file())
    }
}

impl FileSource for WorkTree {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        source::read_in(&self.root, path)
    }

    fn find_named(&self, file_name: &str) -> Result<Vec<Listed>> {
        let mut found = Vec::new();
        for file in self.files()? {
            if crate::relpath::file_name(file.name.shown()) != file_name {
                continue;
            }
            let path = match &file.name {
                Name::Utf8(path) => path.clone(),
                Name::NotUtf8(shown) => bail!("path {shown} is not valid UTF-8"),
            };
            found.push(Listed {
                path,
                link: file.link,
            });
        }
        found.sort();
        Ok(found)
    }

    fn names_in(&self, dir: &str) -> Result<Vec<Listed>> {
        if self.entry(dir)? != Entry::Dir {
            return Ok(Vec::new());
        }
        let abs = self.abs(dir);
        let listing = || format!("listing {}", crate::relpath::shown(dir));
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&abs).with_context(listing)? {
            let entry = entry.with_context(listing)?;
            let kind = entry.file_type().with_context(listing)?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if kind.is_file() || kind.is_symlink() {
                let path = if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                };
                found.push(Listed {
                    path,
                    link: kind.is_symlink(),
                });
            }
        }
        found.sort();
        Ok(found)
    }

    fn describe(&self) -> String {
        "working tree".to_string()
    }

    fn link_target(&self, path: &str) -> Result<Option<LinkTarget>> {
        let abs = self.abs(path);
        let is_link = std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Ok(None);
        }
        let target =
            std::fs::read_link(&abs).with_context(|| format!("reading the link {path}"))?;
        if target.is_relative() {
            return Ok(Some(match target.to_str() {
                Some(text) => LinkTarget::Relative(text.replace(std::path::MAIN_SEPARATOR, "/")),
                None => LinkTarget::Outside,
            }));
        }
        let root = self
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.root.clone());
        let inside = target
            .strip_prefix(&root)
            .or_else(|_| target.strip_prefix(&self.root))
            .ok()
            .and_then(|rest| {
                rest.to_str()
                    .map(|t| t.replace(std::path::MAIN_SEPARATOR, "/"))
            });
        Ok(Some(
            inside.map_or(LinkTarget::Outside, LinkTarget::FromRoot),
        ))
    }

    fn entry(&self, path: &str) -> Result<Entry> {
        source::entry_in(&self.root, path)
    }
}

/// Which ignore rules hide an untracked file from a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignores {
    /// Those `git status` reads: the `.gitignore` files, `.git/info/exclude` and the
    /// user's global excludes file (`measure`, `baseline`, `contracts`).
    Local,
    /// The `.gitignore` files alone: the gate reads nothing a process can set locally
    /// (docs/src/reference/gate.md#integrity).
    Committed,
}

/// A walker over `root` that honours `ignores` and never follows links. What it hides of
/// the tracked files, [`hidden_tracked`] gives back.
pub fn builder(root: &Path, ignores: Ignores) -> ignore::WalkBuilder {
    let local = ignores == Ignores::Local;
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(local)
        .git_global(local)
        .ignore(false)
        .parents(true)
        .require_git(true)
        .filter_entry(|e| e.file_name() != ".git");
    b
}

/// A tracked file or link that a walk's ignore rules hid, as the working tree holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// Repository-relative, with `/`.
    pub name: Name,
    /// The working tree holds a symbolic link there (never followed).
    pub link: bool,
    /// The file-system path.
    pub path: PathBuf,
}

/// The tracked files and links of the repository whose working tree is `root` that a
/// walk didn't list (`listed` says which it did, given [`Name::shown`]) and that `wanted`
/// asks for, where the working tree holds a regular file or a symbolic link at the path
/// itself (not through a link): those its ignore rules hid. Nothing outside git.
pub fn hidden_tracked(
    root: &Path,
    listed: impl Fn(&str) -> bool,
    wanted: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<Hidden>> {
    hidden_tracked_in(None, root, listed, wanted)
}

/// [`hidden_tracked`] in the repository `repo` when it is open already.
fn hidden_tracked_in(
    repo: Option<&crate::git::TrackedIndex>,
    root: &Path,
    listed: impl Fn(&str) -> bool,
    wanted: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<Hidden>> {
    let mut dirs = RealDirs::default();
    let mut hidden = Vec::new();
    let skip = |shown: &str| listed(shown) || !wanted(shown);
    for tracked in crate::git::tracked_in(repo, root, skip)? {
        let path = root.join(&tracked.rel);
        if !tracked.rel.parent().is_none_or(|p| dirs.real(root, p)) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let link = meta.file_type().is_symlink();
        if link || meta.is_file() {
            hidden.push(Hidden {
                name: tracked.name,
                link,
                path,
            });
        }
    }
    Ok(hidden)
}

/// Which directories under a root are real directories all the way down (no link on the
/// way), each looked at once.
#[derive(Default)]
struct RealDirs {
    seen: HashMap<PathBuf, bool>,
}

impl RealDirs {
    fn real(&mut self, root: &Path, rel: &Path) -> bool {
        if rel.as_os_str().is_empty() {
            return true;
        }
        if let Some(&known) = self.seen.get(rel) {
            return known;
        }
        let above = rel.parent().is_none_or(|p| self.real(root, p));
        let real = above
            && std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.file_type().is_dir());
        self.seen.insert(rel.to_path_buf(), real);
        real
    }
}
