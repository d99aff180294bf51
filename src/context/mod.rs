//! Stage 0 of the pipeline: `context.yaml` discovery and file ownership (SPEC §2).
//! Reads through a [`FileSource`], so the gate can read the base commit's tree.

use crate::source::FileSource;

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
    /// Owned directories, normalised, repository-relative (`""` for the root), sorted.
    pub owned: Vec<String>,
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
}

/// Every context of a source.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contexts {
    /// Sorted by directory.
    pub list: Vec<Context>,
}

/// Finds and reads every `context.yaml` of `source`. `repo_name` names a context at the
/// repository root that has no `meta.name`.
pub fn discover(source: &dyn FileSource, repo_name: &str) -> anyhow::Result<Contexts> {
    let _ = (source, repo_name);
    todo!("issue 3")
}
