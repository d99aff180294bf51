//! The commands: each wires the pipeline stages for one subcommand and returns a report
//! value; printing is left to `crate::report`.

pub mod accept;
pub mod baseline;
pub mod contracts;
pub mod gate;
pub mod hook;
pub mod init;
pub mod limits;
pub mod measure;
pub mod merge_driver;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context as _, Result};

use crate::git::Repo;
use crate::terms::{self, ContextTerms, Terms};
use crate::work_tree::WorkTree;

/// Where a command runs: the repository's working tree (or, outside git, the current
/// directory), and the git repository when there is one.
pub struct Workspace {
    /// The directory paths are relative to.
    pub root: PathBuf,
    /// Names a context at the root that has no `meta.name`.
    pub repo_name: String,
    pub tree: WorkTree,
    pub repo: Option<Repo>,
}

impl Workspace {
    /// Opens the workspace that holds `dir` (the `-C DIR`, or the current directory).
    pub fn open(dir: &Path) -> Result<Workspace> {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("cannot open directory {}", dir.display()))?;
        let repo = Repo::discover(&dir).ok();
        let root = match repo.as_ref().and_then(|r| r.workdir()) {
            Some(workdir) => workdir
                .canonicalize()
                .with_context(|| format!("cannot open directory {}", workdir.display()))?,
            None => dir,
        };
        let repo_name = dir_name(&root);
        let tree = WorkTree::new(root.clone());
        // The listing's look at the index reads the one the repository shares.
        let tree = match &repo {
            Some(repo) => tree.in_repo(repo),
            None => tree,
        };
        Ok(Workspace {
            tree,
            root,
            repo_name,
            repo,
        })
    }

    /// A user-given path (relative to `cwd`) as a root-relative path with `/`; an error
    /// naming it when it does not exist or lies outside the root.
    pub fn relative(&self, cwd: &Path, path: &Path) -> Result<String> {
        self.locate(cwd, path)
            .map_err(|why| anyhow!("{}{why}", path.display()))
    }

    /// The terms of the working tree, of the contexts `--context DIR` names (all without
    /// one), and those directories; an error naming each directory a chosen context's
    /// `context.yaml` names that the working tree doesn't hold.
    pub fn terms(&self, cwd: &Path, contexts: &[PathBuf]) -> Result<(Terms, Vec<String>)> {
        let restrict = self.context_dirs(cwd, contexts)?;
        let terms = terms::load(&self.tree, &self.repo_name, &restrict)?;
        let mut missing = Vec::new();
        for ctx in &terms.contexts {
            missing.extend(crate::context::missing_sources(&self.tree, &ctx.context)?);
        }
        if !missing.is_empty() {
            // A context owning a misspelt directory owns nothing there: its files would go
            // unjudged, and a refresh would empty its baseline.
            let lines: Vec<String> = missing.iter().map(ToString::to_string).collect();
            return Err(anyhow!("{}", lines.join("\n")));
        }
        Ok((terms, restrict))
    }

    /// The files of a measured language the `owned` entries hold, sorted.
    pub fn owned_files(&self, owned: &[String]) -> Result<Vec<String>> {
        let dirs: Vec<String> = owned
            .iter()
            .filter(|entry| self.tree.holds_entry(entry))
            .cloned()
            .collect();
        if dirs.is_empty() {
            return Ok(Vec::new());
        }
        crate::measure::list_measured(&self.root, &dirs, crate::work_tree::Ignores::Local)
    }

    /// The files renamed or moved since the commit that last changed `ctx`'s baseline
    /// file, (old path, new path): what [`crate::judge::carried`] moves its entries by,
    /// for `baseline refresh` and `measure --check` alike (docs/src/reference/baseline.md). History is read only
    /// when some entry's path is gone from the working tree (a rename's old path always
    /// is): a baseline of files all still there costs one look at each path.
    pub fn baseline_renames(&self, ctx: &ContextTerms) -> Result<Vec<(String, String)>> {
        let (Some(repo), Some(baseline)) = (&self.repo, &ctx.baseline) else {
            return Ok(Vec::new());
        };
        if repo.workdir().is_none() {
            return Ok(Vec::new());
        }
        let mut paths: Vec<&str> = baseline.entries.keys().map(|k| k.path.as_str()).collect();
        paths.dedup();
        let gone = |path: &&str| {
            std::fs::symlink_metadata(self.tree.abs(path))
                .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        };
        if !paths.iter().any(gone) {
            return Ok(Vec::new());
        }
        match repo.last_commit_touching(&ctx.context.baseline_path())? {
            Some(commit) => repo.renames_since(&commit),
            None => Ok(Vec::new()),
        }
    }

    /// `--context DIR` values as root-relative directories.
    pub fn context_dirs(&self, cwd: &Path, dirs: &[PathBuf]) -> Result<Vec<String>> {
        dirs.iter()
            .map(|d| {
                self.locate(cwd, d)
                    .map_err(|why| anyhow!("--context {}{why}", d.display()))
            })
            .collect()
    }

    /// The root-relative path, or what is wrong with it, as words to follow its name:
    /// `: no such file or directory`, ` is outside the repository at ROOT`.
    fn locate(&self, cwd: &Path, path: &Path) -> Result<String, String> {
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            cwd.join(path)
        };
        let abs = joined.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ": no such file or directory".to_string(),
            _ => format!(": {e}"),
        })?;
        if !abs.starts_with(&self.root) {
            return Err(format!(
                " is outside the repository at {}",
                self.root.display()
            ));
        }
        crate::relpath::rel_path(&self.root, &abs).map_err(|_| ": not valid UTF-8".to_string())
    }
}

/// The name of a directory (names a root context without `meta.name`).
pub fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("root")
        .to_string()
}
