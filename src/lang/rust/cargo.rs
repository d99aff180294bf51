//! Where a Rust project's code lives, read from its `Cargo.toml` for `init`
//! (docs/src/commands/init.md): a workspace's members, or a package's `src`.

use std::path::Path;

use crate::lang::project::{code_dir, join, Found};

/// The source directories a `Cargo.toml` at `file` in `dir` names: its workspace's
/// members, or else, for a package, its `src` directory.
pub fn code(root: &Path, dir: &str, file: &str) -> Vec<Found> {
    let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
    let members = workspace_members(root, dir, &text);
    let mut found = Vec::new();
    if members.is_empty() && text.contains("[package]") {
        let dir = code_dir(root, dir, "src");
        found.push(Found { dir, why: format!("from {file}") });
    }
    for member in members {
        let why = format!("a workspace member in {file}");
        found.push(Found { dir: member, why });
    }
    found
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
