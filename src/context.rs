//! Stage 0 of the pipeline: `context.yaml` discovery and file ownership (docs/src/reference/contexts.md).
//! Reads through a [`FileSource`], so the gate can read the base commit's tree.

mod exclude;
mod path;
mod read;

use std::collections::BTreeMap;

use crate::relpath;
use crate::source::FileSource;

pub use exclude::Exclude;
pub use path::{join, PathProblem};

/// One context: a directory holding a `context.yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// `meta.name`, or the context directory's name (the repository directory's name
    /// for a context at the root).
    pub name: String,
    /// The directory holding `context.yaml`, repository-relative (`""` for the root).
    pub dir: String,
    /// `meta.workdir`, normalised, repository-relative (`""` for the root).
    pub workdir: String,
    /// Owned entries, normalised, repository-relative (`""` for the root), sorted: the
    /// directories it owns, and the files a `sources` entry names ([`owns`]).
    pub owned: Vec<String>,
    /// The directories `context.yaml` names (`meta.workdir` where written, each `sources`
    /// entry), in the order written, with the line naming each.
    pub declared: Vec<Declared>,
    /// The files it owns but doesn't measure: `exclude` globs, relative to the repository
    /// root.
    pub exclude: Exclude,
}

/// One directory as `context.yaml` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// `sources entry` or `meta.workdir`.
    pub key: &'static str,
    /// As written.
    pub written: String,
    /// Normalised, repository-relative (`""` for the root).
    pub dir: String,
    pub line: Option<usize>,
}

/// A directory `context.yaml` names that its source doesn't hold (`sources: [scr]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingSource {
    /// The `context.yaml` that names it.
    pub file: String,
    pub declared: Declared,
}

impl std::fmt::Display for MissingSource {
    /// `context.yaml:4: sources entry "scr" names scr, which does not exist`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = &self.declared;
        write!(
            f,
            "{}: {} {:?} names {}, which does not exist",
            located(&self.file, d.line),
            d.key,
            d.written,
            relpath::shown(&d.dir)
        )
    }
}

/// The directories `ctx` names that `source` holds no directory at (a file, a link or
/// nothing): for the working tree an error, at the gate's base a thing to report.
pub fn missing_sources(
    source: &dyn FileSource,
    ctx: &Context,
) -> anyhow::Result<Vec<MissingSource>> {
    let mut missing = Vec::new();
    for declared in &ctx.declared {
        if declared.dir.is_empty() || source.entry(&declared.dir)? != crate::source::Entry::Missing
        {
            continue;
        }
        missing.push(MissingSource {
            file: ctx.file("context.yaml"),
            declared: declared.clone(),
        });
    }
    Ok(missing)
}

impl Context {
    /// Repository-relative path of a file beside `context.yaml`.
    pub fn file(&self, name: &str) -> String {
        if self.dir.is_empty() {
            name.to_string()
        } else {
            format!("{}/{}", self.dir, name)
        }
    }

    pub fn principles_path(&self) -> String {
        self.file("principles.md")
    }

    pub fn baseline_path(&self) -> String {
        self.file("structure-baseline.tsv")
    }

    /// Why the file `path` it owns is left out unmeasured: the first of its `exclude`
    /// globs that matches (docs/src/reference/contexts.md).
    pub fn excluded(&self, path: &str) -> Option<crate::model::LeftOutReason> {
        let glob = self.exclude.matching(path)?;
        Some(crate::model::LeftOutReason::Excluded {
            glob: glob.to_string(),
            file: self.file("context.yaml"),
        })
    }
}

/// True when the owned entry `entry` holds the repository-relative file `path`: `path`
/// is the file a `sources` entry names, or lies below the directory it names
/// (docs/src/reference/contexts.md). The one test of ownership every command makes.
pub fn owns(entry: &str, path: &str) -> bool {
    relpath::is_within(path, entry)
}

/// Every context of a source.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contexts {
    /// Sorted by directory.
    pub list: Vec<Context>,
    /// Contexts left out by [`Contexts::restrict`]: they still own their directories,
    /// so a file of theirs belongs to no context in `list`. Sorted by directory.
    pub unselected: Vec<Context>,
    /// `context.yaml` entries that are symbolic links: not followed, so not read.
    pub links: Vec<String>,
    /// Keys one slip away from a key structgate reads (`source:`), naming file and line.
    pub warnings: Vec<String>,
}

/// Why the contexts of a source cannot be read. Every message names the file (and the
/// line where one is known) or the directory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    #[error("reading {path}: {message}")]
    Read { path: String, message: String },
    #[error("{path}: not UTF-8")]
    NotUtf8 { path: String },
    #[error("{}: {message}", located(.path, *.line))]
    Yaml {
        path: String,
        line: Option<usize>,
        message: String,
    },
    #[error("{path}: meta.name is empty")]
    EmptyName { path: String },
    #[error("{}: {key} {entry:?} is an absolute path; write it relative to the repository", located(.path, *.line))]
    Absolute {
        path: String,
        line: Option<usize>,
        key: &'static str,
        entry: String,
    },
    #[error("{}: {key} {entry:?} leaves the repository (resolved from {base:?})", located(.path, *.line))]
    LeavesRepository {
        path: String,
        line: Option<usize>,
        key: &'static str,
        entry: String,
        /// The directory the entry is relative to: the root (`.`) or the workdir.
        base: String,
    },
    #[error("directory {dir:?} is owned by two contexts: {first} and {second}")]
    DuplicateOwner {
        dir: String,
        first: String,
        second: String,
    },
    #[error("two contexts are named {name:?}: {first} and {second} (set meta.name in one of them to tell them apart)")]
    DuplicateName {
        name: String,
        first: String,
        second: String,
    },
    #[error("{}: exclude entry {entry:?} is not a valid glob: {message}", located(.path, *.line))]
    Glob {
        path: String,
        line: Option<usize>,
        entry: String,
        message: String,
    },
    #[error("--context {dir}: no context.yaml there (contexts: {known})")]
    UnknownContext { dir: String, known: String },
}

/// `file:line`, or `file` where the line is unknown.
fn located(path: &str, line: Option<usize>) -> String {
    match line {
        Some(line) => format!("{path}:{line}"),
        None => path.to_string(),
    }
}

/// Finds and reads every `context.yaml` of `source`. `repo_name` names a context at the
/// repository root that has no `meta.name`.
pub fn discover(source: &dyn FileSource, repo_name: &str) -> Result<Contexts, ContextError> {
    let files = source
        .find_named("context.yaml")
        .map_err(|err| ContextError::Read {
            path: "context.yaml files".to_string(),
            message: format!("{err:#}"),
        })?;
    let mut list = Vec::with_capacity(files.len());
    let mut links = Vec::new();
    let mut warnings = Vec::new();
    for file in &files {
        if file.link {
            links.push(file.path.clone());
            continue;
        }
        let Some(text) = read_text(source, &file.path)? else {
            continue;
        };
        list.push(read::context(&file.path, &text, repo_name)?);
        warnings.extend(read::near_misses(&file.path, &text));
    }
    list.sort_by(|a, b| a.dir.cmp(&b.dir));
    check_single_owners(&list)?;
    check_distinct_names(&list)?;
    Ok(Contexts {
        list,
        unselected: Vec::new(),
        links,
        warnings,
    })
}

/// Reads the one `context.yaml` at `file` (no ownership check against other contexts);
/// `None` when `source` holds no regular file there.
pub fn read_one(
    source: &dyn FileSource,
    file: &str,
    repo_name: &str,
) -> Result<Option<Context>, ContextError> {
    match read_text(source, file)? {
        Some(text) => read::context(file, &text, repo_name).map(Some),
        None => Ok(None),
    }
}

/// The text of `file` without a leading UTF-8 BOM; `None` when it vanished.
fn read_text(source: &dyn FileSource, file: &str) -> Result<Option<String>, ContextError> {
    let bytes = source.read(file).map_err(|err| ContextError::Read {
        path: file.to_string(),
        message: format!("{err:#}"),
    })?;
    let Some(bytes) = bytes else {
        return Ok(None);
    };
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(text) => Ok(Some(text.to_string())),
        Err(_) => Err(ContextError::NotUtf8 {
            path: file.to_string(),
        }),
    }
}

/// Refuses two contexts that own one directory.
fn check_single_owners(list: &[Context]) -> Result<(), ContextError> {
    let mut owners: BTreeMap<&str, &Context> = BTreeMap::new();
    for context in list {
        for dir in &context.owned {
            if let Some(first) = owners.insert(dir, context) {
                return Err(ContextError::DuplicateOwner {
                    dir: relpath::shown(dir).to_string(),
                    first: first.file("context.yaml"),
                    second: context.file("context.yaml"),
                });
            }
        }
    }
    Ok(())
}

/// Refuses two contexts of one name (`repo/` and `repo/repo/` by their directories'
/// names): reports, baselines and `not_judged` name contexts, so each name must say which
/// one it is (docs/src/reference/contexts.md).
fn check_distinct_names(list: &[Context]) -> Result<(), ContextError> {
    let mut named: BTreeMap<&str, &Context> = BTreeMap::new();
    for context in list {
        if let Some(first) = named.insert(&context.name, context) {
            return Err(ContextError::DuplicateName {
                name: context.name.clone(),
                first: first.file("context.yaml"),
                second: context.file("context.yaml"),
            });
        }
    }
    Ok(())
}

impl Contexts {
    /// The context with the longest owned entry holding the repository-relative file
    /// `path` (a file entry naming it beats every directory); `None` when no context owns
    /// it, or when its owner was left out by [`Contexts::restrict`].
    pub fn owner(&self, path: &str) -> Option<&Context> {
        let selected = self.list.iter().map(|c| (c, true));
        let unselected = self.unselected.iter().map(|c| (c, false));
        let (context, is_selected) = selected
            .chain(unselected)
            .flat_map(|(c, sel)| c.owned.iter().map(move |dir| (c, sel, dir)))
            .filter(|(_, _, entry)| owns(entry, path))
            .max_by_key(|(_, _, dir)| dir.len())
            .map(|(c, sel, _)| (c, sel))?;
        is_selected.then_some(context)
    }

    /// Why the repository-relative file `path` is left out by the `exclude` globs of the
    /// context that owns it (among all, chosen or not); `None` when no context owns it or
    /// none of its globs matches.
    pub fn excluded(&self, path: &str) -> Option<crate::model::LeftOutReason> {
        let owner = self
            .list
            .iter()
            .chain(&self.unselected)
            .flat_map(|c| c.owned.iter().map(move |entry| (c, entry)))
            .filter(|(_, entry)| owns(entry, path))
            .max_by_key(|(_, entry)| entry.len())?;
        owner.0.excluded(path)
    }

    /// Only the contexts whose directories are named (`--context DIR`, repeatable):
    /// repository-relative, `.` for the root. An empty list selects every context.
    pub fn restrict(&self, dirs: &[String]) -> Result<Contexts, ContextError> {
        if dirs.is_empty() {
            return Ok(self.clone());
        }
        let mut wanted = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let known = path::join("", dir)
                .ok()
                .filter(|d| self.list.iter().any(|c| &c.dir == d));
            match known {
                Some(d) => wanted.push(d),
                None => return Err(self.unknown(dir)),
            }
        }
        let (list, mut unselected): (Vec<Context>, Vec<Context>) = self
            .list
            .iter()
            .cloned()
            .partition(|c| wanted.contains(&c.dir));
        unselected.extend(self.unselected.iter().cloned());
        unselected.sort_by(|a, b| a.dir.cmp(&b.dir));
        Ok(Contexts {
            list,
            unselected,
            links: self.links.clone(),
            warnings: self.warnings.clone(),
        })
    }

    fn unknown(&self, dir: &str) -> ContextError {
        let known: Vec<&str> = self.list.iter().map(|c| relpath::shown(&c.dir)).collect();
        ContextError::UnknownContext {
            dir: dir.to_string(),
            known: if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            },
        }
    }
}

#[cfg(test)]
mod tests;
