//! Where the code of a project lives, read from the project files `init` finds: each
//! language's record names its own (`.csproj`, `Cargo.toml`, `package.json`,
//! `pyproject.toml`, `go.mod`, `pom.xml`, ...; src/lang).

use std::path::Path;

use crate::model::Language;
use crate::relpath;

pub use crate::lang::project::Found;

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
pub fn find(root: &Path, langs: &[Language]) -> Vec<Found> {
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

fn walk(root: &Path, rel: &str, depth: usize, langs: &[Language], found: &mut Vec<Found>) {
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
        let path = crate::lang::project::join(rel, &name);
        if is_dir {
            if depth < DEPTH && !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                walk(root, &path, depth + 1, langs, found);
            }
        } else {
            project_file(root, rel, &name, langs, found);
        }
    }
}

/// What the project file `name` in `dir` says about where its code is: the first
/// language, in [`Language::ALL`]'s order, among those asked for (all without one) whose
/// record lists a project file of that name.
fn project_file(root: &Path, dir: &str, name: &str, langs: &[Language], found: &mut Vec<Found>) {
    let wanted = |l: &Language| langs.is_empty() || langs.contains(l);
    let kind = Language::ALL
        .iter()
        .filter(|l| wanted(l))
        .flat_map(|l| l.record().project_files)
        .find(|p| p.matches(name));
    if let Some(kind) = kind {
        found.extend(kind.code(root, dir, &crate::lang::project::join(dir, name)));
    }
}

/// The languages `init --lang` takes: those whose record lists project files, by key.
impl clap::ValueEnum for Language {
    fn value_variants<'a>() -> &'a [Self] {
        &Language::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let record = self.record();
        (!record.project_files.is_empty()).then(|| clap::builder::PossibleValue::new(record.key))
    }
}

#[cfg(test)]
mod tests {
    use super::{find, Found};
    use crate::model::Language;

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
            dirs(&find(t.path(), &[Language::Go])),
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
