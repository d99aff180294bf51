//! The project files `init` reads for where a language's code lives
//! (docs/src/commands/init.md): each language's record lists its own, and `init` walks
//! the context directory asking every record of the files it finds.

use std::path::Path;

/// One source directory and the project file that named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Relative to the context directory, with `/`.
    pub dir: String,
    /// `from src/Api/Api.csproj`, `a workspace member in Cargo.toml`.
    pub why: String,
}

/// A kind of project file and where the code it builds lives.
pub struct ProjectFile {
    /// Its file name: exact (`go.mod`), or `*` and a suffix matched in any letter case
    /// (`*.csproj`).
    pub name: &'static str,
    pub code: Code,
}

/// Where the code of a project file's project lives.
pub enum Code {
    /// The project file's directory.
    Here,
    /// This directory below the project file's, where it exists; else the project
    /// file's directory (`src` beside `package.json`).
    Under(&'static str),
    /// What the project file's text says: given the context directory, the project
    /// file's directory and its path (both relative to the context directory).
    Read(fn(&Path, &str, &str) -> Vec<Found>),
}

impl ProjectFile {
    /// Whether a file of this name is this kind of project file.
    pub fn matches(&self, name: &str) -> bool {
        match self.name.strip_prefix('*') {
            Some(suffix) => name
                .to_ascii_lowercase()
                .ends_with(&suffix.to_ascii_lowercase()),
            None => name == self.name,
        }
    }

    /// The source directories this project file, at `file` in `dir`, names.
    pub fn code(&self, root: &Path, dir: &str, file: &str) -> Vec<Found> {
        let from = |dir: String| {
            vec![Found {
                dir,
                why: format!("from {file}"),
            }]
        };
        match self.code {
            Code::Here => from(dir.to_string()),
            Code::Under(sub) => from(code_dir(root, dir, sub)),
            Code::Read(read) => read(root, dir, file),
        }
    }
}

/// `dir/sub` when that directory exists, else `dir`.
pub fn code_dir(root: &Path, dir: &str, sub: &str) -> String {
    let inner = join(dir, sub);
    if root.join(&inner).is_dir() {
        inner
    } else {
        dir.to_string()
    }
}

/// `dir/name`, or `name` in the context directory itself (`dir` empty).
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}
