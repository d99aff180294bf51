//! Where the code of a project lives, read from the project files `init` finds: `.csproj`,
//! `Cargo.toml` (workspace members or a package), `package.json`, `pyproject.toml`,
//! `go.mod`, `pom.xml` and `build.gradle`.

use std::path::Path;

use crate::relpath;

/// A kind of project file, by the language it builds (`--lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Project {
    Csharp,
    Rust,
    Typescript,
    Javascript,
    Python,
    Go,
    Java,
}

/// One source directory and the project file that named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Relative to the context directory, with `/`.
    pub dir: String,
    /// `from src/Api/Api.csproj`, `Cargo.toml workspace member`.
    pub why: String,
}

/// Directories never searched: build output, dependencies, hidden ones.
const SKIPPED: [&str; 8] = [
    "target",
    "node_modules",
    "bin",
    "obj",
    "vendor",
    "dist",
    "build",
    "out",
];

/// How deep below the context directory project files are looked for.
const DEPTH: usize = 4;

/// The source directories the project files under `root` name, outermost only, sorted;
/// empty when none names anything but `root` itself.
pub fn find(root: &Path, langs: &[Project]) -> Vec<Found> {
    let mut found = Vec::new();
    walk(root, "", 0, langs, &mut found);
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    found.dedup_by(|a, b| a.dir == b.dir);
    let dirs: Vec<String> = found.iter().map(|f| f.dir.clone()).collect();
    // A directory inside another found one adds nothing; the root itself owns all.
    if dirs.iter().any(String::is_empty) {
        return Vec::new();
    }
    found.retain(|f| {
        !dirs
            .iter()
            .any(|d| d != &f.dir && relpath::holds(d, &f.dir))
    });
    found
}

fn walk(root: &Path, rel: &str, depth: usize, langs: &[Project], found: &mut Vec<Found>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    let mut names: Vec<(String, bool)> = entries
        .flatten()
        .filter_map(|e| {
            let kind = e.file_type().ok()?;
            let name = e.file_name().into_string().ok()?;
            (!kind.is_symlink()).then_some((name, kind.is_dir()))
        })
        .collect();
    names.sort();
    for (name, is_dir) in names {
        let path = join(rel, &name);
        if is_dir {
            if depth < DEPTH && !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                walk(root, &path, depth + 1, langs, found);
            }
        } else {
            project_file(root, rel, &name, langs, found);
        }
    }
}

/// What the project file `name` in `dir` says about where its code is.
fn project_file(root: &Path, dir: &str, name: &str, langs: &[Project], found: &mut Vec<Found>) {
    let wanted = |p: Project| langs.is_empty() || langs.contains(&p);
    let file = join(dir, name);
    let lower = name.to_ascii_lowercase();
    let mut add = |dir: String, why: String| found.push(Found { dir, why });
    if lower.ends_with(".csproj") && wanted(Project::Csharp) {
        add(dir.to_string(), format!("from {file}"));
    } else if name == "Cargo.toml" && wanted(Project::Rust) {
        let text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        let members = workspace_members(root, dir, &text);
        if members.is_empty() && text.contains("[package]") {
            add(code_dir(root, dir, "src"), format!("from {file}"));
        }
        for member in members {
            add(member, format!("a workspace member in {file}"));
        }
    } else if name == "package.json" && (wanted(Project::Typescript) || wanted(Project::Javascript))
        || (name == "pyproject.toml" || name == "setup.py") && wanted(Project::Python)
    {
        add(code_dir(root, dir, "src"), format!("from {file}"));
    } else if name == "go.mod" && wanted(Project::Go) {
        add(dir.to_string(), format!("from {file}"));
    } else if matches!(name, "pom.xml" | "build.gradle" | "build.gradle.kts")
        && wanted(Project::Java)
    {
        add(code_dir(root, dir, "src/main"), format!("from {file}"));
    }
}

/// `dir/sub` when that directory exists, else `dir`.
fn code_dir(root: &Path, dir: &str, sub: &str) -> String {
    let inner = join(dir, sub);
    if root.join(&inner).is_dir() {
        inner
    } else {
        dir.to_string()
    }
}

/// The member directories of a `[workspace]` table's `members = [...]`, `dir/*` globs
/// expanded to the directories holding a `Cargo.toml`.
fn workspace_members(root: &Path, dir: &str, text: &str) -> Vec<String> {
    let Some(at) = text.find("[workspace]") else {
        return Vec::new();
    };
    let table = &text[at..];
    let Some(start) = table.find("members") else {
        return Vec::new();
    };
    let list = &table[start..];
    let (Some(open), Some(close)) = (list.find('['), list.find(']')) else {
        return Vec::new();
    };
    let mut members = Vec::new();
    for item in list[open + 1..close].split(',') {
        let item = item.trim().trim_matches(|c| c == '"' || c == '\'');
        if item.is_empty() || item.starts_with('#') {
            continue;
        }
        match item.strip_suffix("/*") {
            Some(parent) => members.extend(globbed(root, &join(dir, parent))),
            None => members.push(join(dir, item)),
        }
    }
    members
}

/// The directories in `parent` that hold a `Cargo.toml`, sorted.
fn globbed(root: &Path, parent: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root.join(parent)) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .map(|name| join(parent, &name))
        .filter(|d| root.join(d).join("Cargo.toml").is_file())
        .collect();
    out.sort();
    out
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::{find, Found, Project};

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        dir
    }

    fn dirs(found: &[Found]) -> Vec<(&str, &str)> {
        found
            .iter()
            .map(|f| (f.dir.as_str(), f.why.as_str()))
            .collect()
    }

    #[test]
    fn project_files_name_the_source_directories() {
        let t = tree(&[
            ("src/Api/Api.csproj", ""),
            ("src/Api/Program.cs", ""),
            ("tests/Api.Tests/Api.Tests.csproj", ""),
            (
                "tools/cli/Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\", \"xtask\"]\n",
            ),
            ("tools/cli/crates/core/Cargo.toml", "[package]\n"),
            ("tools/cli/crates/core/src/lib.rs", ""),
            ("tools/cli/crates/notes/README.md", ""),
            ("tools/cli/xtask/Cargo.toml", "[package]\n"),
            ("web/package.json", "{}"),
            ("web/src/index.ts", ""),
            ("web/node_modules/x/package.json", "{}"),
            ("svc/go.mod", "module x\n"),
            ("lib/pom.xml", ""),
            ("lib/src/main/java/A.java", ""),
        ]);
        assert_eq!(
            dirs(&find(t.path(), &[])),
            [
                ("lib/src/main", "from lib/pom.xml"),
                ("src/Api", "from src/Api/Api.csproj"),
                ("svc", "from svc/go.mod"),
                ("tests/Api.Tests", "from tests/Api.Tests/Api.Tests.csproj"),
                (
                    "tools/cli/crates/core",
                    "a workspace member in tools/cli/Cargo.toml"
                ),
                (
                    "tools/cli/xtask",
                    "a workspace member in tools/cli/Cargo.toml"
                ),
                ("web/src", "from web/package.json"),
            ]
        );
        assert_eq!(
            dirs(&find(t.path(), &[Project::Go])),
            [("svc", "from svc/go.mod")]
        );
    }

    #[test]
    fn a_project_file_at_the_root_owns_it_all() {
        let t = tree(&[("go.mod", "module x\n"), ("cmd/a/main.go", "")]);
        assert_eq!(find(t.path(), &[]), Vec::<Found>::new());
        let none = tree(&[("notes.txt", "")]);
        assert_eq!(find(none.path(), &[]), Vec::<Found>::new());
    }
}
