//! Which directories a source holds and which of them hold a `README.md` (any letter
//! case). A directory counts when it holds, at any depth, a file git doesn't ignore:
//! directories are read off the files' paths, so empty and ignored directories are not
//! there, and neither is `.git` nor a nested repository (a submodule's working tree).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context as _, Result};

use crate::relpath::{file_name, is_within, parent, Name};
use crate::source::Listed;
use crate::work_tree::Ignores;

/// The README.md entries of one directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Readmes {
    /// Regular files and symbolic links named `README.md` in any letter case, sorted.
    pub files: Vec<Listed>,
    /// A subdirectory named `README.md` in any letter case (not a file, not a contract).
    pub directory: Option<String>,
}

/// The directories of one source (the working tree or a commit) with their READMEs.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    dirs: BTreeSet<String>,
    readmes: BTreeMap<String, Readmes>,
}

/// True for `README.md` in any letter case.
pub fn is_readme(name: &str) -> bool {
    name.eq_ignore_ascii_case("README.md")
}

impl Listing {
    /// The listing of a source's files and links.
    pub fn new(entries: impl IntoIterator<Item = Listed>) -> Listing {
        let mut listing = Listing::default();
        for entry in entries {
            let mut dir = parent(&entry.path);
            if is_readme(file_name(&entry.path)) {
                let files = &mut listing.readmes.entry(dir.to_string()).or_default().files;
                files.push(entry.clone());
                files.sort();
            }
            // Each directory is named once, however many files it holds.
            while !listing.dirs.contains(dir) {
                listing.dirs.insert(dir.to_string());
                if dir.is_empty() {
                    break;
                }
                if is_readme(file_name(dir)) {
                    let up = parent(dir).to_string();
                    listing.readmes.entry(up).or_default().directory = Some(dir.to_string());
                }
                dir = parent(dir);
            }
        }
        listing
    }

    /// True when `dir` holds, at any depth, at least one file.
    pub fn has_dir(&self, dir: &str) -> bool {
        self.dirs.contains(dir)
    }

    /// Every directory, sorted (`""` is the root).
    pub fn dirs(&self) -> impl Iterator<Item = &str> {
        self.dirs.iter().map(String::as_str)
    }

    /// The README.md entries of `dir` (none when it holds none).
    pub fn readmes(&self, dir: &str) -> Readmes {
        self.readmes.get(dir).cloned().unwrap_or_default()
    }
}

/// The files and links of the working tree at `root` that git doesn't ignore (a tracked
/// one never is: `ignores` hide untracked files alone), sorted. Links are listed, never
/// followed; a directory holding `.git` below the root (a nested repository) is left out
/// with everything in it.
pub fn work_entries(root: &Path, ignores: Ignores) -> Result<Vec<Listed>> {
    let mut entries = Vec::new();
    let mut nested = Vec::new();
    for entry in crate::work_tree::builder(root, ignores).build() {
        let entry = entry.with_context(|| format!("listing {}", root.display()))?;
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if entry.depth() == 0 {
            continue;
        }
        // A path that isn't UTF-8 is left out, as in a commit's listing: nothing can name it.
        let crate::relpath::Name::Utf8(path) = crate::relpath::rel_name(root, entry.path())? else {
            continue;
        };
        if kind.is_dir() {
            if entry.path().join(".git").symlink_metadata().is_ok() {
                nested.push(path);
            }
            continue;
        }
        let link = kind.is_symlink();
        entries.push(Listed { path, link });
    }
    let seen: BTreeSet<String> = entries.iter().map(|e| e.path.clone()).collect();
    let listed = |shown: &str| seen.contains(shown);
    for hidden in crate::work_tree::hidden_tracked(root, listed, |_| true)? {
        if let Name::Utf8(path) = hidden.name {
            entries.push(Listed {
                path,
                link: hidden.link,
            });
        }
    }
    entries.retain(|e| !nested.iter().any(|n| is_within(&e.path, n)));
    entries.sort();
    Ok(entries)
}
