//! The documents agents load, found by `init` so that they get a byte budget of their own
//! (docs/src/reference/documents.md#pins-and-tiers): `AGENTS.md` and `CLAUDE.md` at any
//! depth, `.github/copilot-instructions.md`, every skill's `SKILL.md`, the Markdown files
//! of `.claude/agents/`, `.claude/commands/` and `.cursor/rules/`, and the Markdown files
//! these import eagerly (`@path`, up to the loader's five hops).

use std::collections::{BTreeSet, VecDeque};

use crate::measure::{resolve_import, scan_imports, MAX_HOPS};
use crate::relpath;

/// Documents found by their own name, at any depth.
const NAMED: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "SKILL.md"];

/// Directories every Markdown file of which an agent loads: owned whole, so a new
/// subagent or command is budgeted from its first commit.
const FOLDERS: [&str; 3] = [".claude/agents", ".claude/commands", ".cursor/rules"];

/// Documents found by their path below the context directory.
const PLACED: [&str; 1] = [".github/copilot-instructions.md"];

/// What `init` found: the sources of the budget context (relative to the context
/// directory, sorted: a file or a folder each) and every document they own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentDocs {
    pub sources: Vec<String>,
    /// Every document the sources own, relative to the context directory, sorted.
    pub documents: Vec<String>,
}

impl AgentDocs {
    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }
}

/// The agent documents among `files` (paths relative to the context directory, links
/// left out), with the Markdown files they import read through `read` (the text of a
/// file by the same relative path; `None` when it can't be read).
pub fn find(files: &[String], read: impl Fn(&str) -> Option<String>) -> AgentDocs {
    let listed: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut sources = BTreeSet::new();
    let mut documents = BTreeSet::new();
    for path in files.iter().filter(|p| is_markdown(p)) {
        if let Some(folder) = folder_of(path) {
            sources.insert(folder.to_string());
            documents.insert(path.clone());
        } else if NAMED.contains(&relpath::file_name(path)) || PLACED.contains(&path.as_str()) {
            sources.insert(path.clone());
            documents.insert(path.clone());
        }
    }
    for imported in imported(&documents, &listed, read) {
        if documents.insert(imported.clone()) {
            sources.insert(imported);
        }
    }
    AgentDocs {
        sources: sources.into_iter().collect(),
        documents: documents.into_iter().collect(),
    }
}

/// The folder of [`FOLDERS`] that holds `path`, at any depth (`pkg/.claude/agents`).
fn folder_of(path: &str) -> Option<&str> {
    FOLDERS.iter().find_map(|folder| {
        let at = if path.starts_with(&format!("{folder}/")) {
            0
        } else {
            path.find(&format!("/{folder}/"))? + 1
        };
        Some(&path[..at + folder.len()])
    })
}

/// The listed Markdown files that `documents` import, transitively, up to [`MAX_HOPS`] hops.
fn imported(
    documents: &BTreeSet<String>,
    listed: &BTreeSet<&str>,
    read: impl Fn(&str) -> Option<String>,
) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = documents.clone();
    let mut found = BTreeSet::new();
    let mut queue: VecDeque<(String, usize)> = documents.iter().map(|d| (d.clone(), 0)).collect();
    while let Some((path, hops)) = queue.pop_front() {
        if hops == MAX_HOPS {
            continue;
        }
        let Some(text) = read(&path) else {
            continue;
        };
        for import in scan_imports(&text) {
            let Ok(target) = resolve_import(&path, &import.path) else {
                continue;
            };
            if !is_markdown(&target) || !listed.contains(target.as_str()) {
                continue;
            }
            if seen.insert(target.clone()) {
                found.insert(target.clone());
                queue.push_back((target, hops + 1));
            }
        }
    }
    found
}

fn is_markdown(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(files: &[&str], texts: &[(&str, &str)]) -> AgentDocs {
        let files: Vec<String> = files.iter().map(|f| f.to_string()).collect();
        find(&files, |p| {
            texts
                .iter()
                .find(|(path, _)| *path == p)
                .map(|(_, t)| t.to_string())
        })
    }

    #[test]
    fn named_documents_folders_and_their_markdown_imports_are_found() {
        let docs = found(
            &[
                "AGENTS.md",
                "README.md",
                "docs/guide.md",
                "docs/deep.md",
                "docs/api.py",
                "pkg/CLAUDE.md",
                "pkg/.claude/agents/reviewer.md",
                ".claude/commands/ship.md",
                ".claude/settings.json",
                ".cursor/rules/style.md",
                ".github/copilot-instructions.md",
                "skills/pdf/SKILL.md",
                "src/main.rs",
            ],
            &[
                ("AGENTS.md", "See @docs/guide.md and @docs/api.py.\n"),
                ("docs/guide.md", "More in @deep.md, not `@README.md`.\n"),
            ],
        );
        assert_eq!(
            docs.sources,
            [
                ".claude/commands",
                ".cursor/rules",
                ".github/copilot-instructions.md",
                "AGENTS.md",
                "docs/deep.md",
                "docs/guide.md",
                "pkg/.claude/agents",
                "pkg/CLAUDE.md",
                "skills/pdf/SKILL.md",
            ]
        );
        assert_eq!(
            docs.documents,
            [
                ".claude/commands/ship.md",
                ".cursor/rules/style.md",
                ".github/copilot-instructions.md",
                "AGENTS.md",
                "docs/deep.md",
                "docs/guide.md",
                "pkg/.claude/agents/reviewer.md",
                "pkg/CLAUDE.md",
                "skills/pdf/SKILL.md",
            ]
        );
    }

    #[test]
    fn imports_stop_after_five_hops_and_at_cycles() {
        let files = ["AGENTS.md", "a.md", "b.md", "c.md", "d.md", "e.md", "f.md"];
        let texts = [
            ("AGENTS.md", "@a.md"),
            ("a.md", "@b.md @AGENTS.md"),
            ("b.md", "@c.md"),
            ("c.md", "@d.md"),
            ("d.md", "@e.md"),
            ("e.md", "@f.md"),
        ];
        let docs = found(&files, &texts);
        assert_eq!(
            docs.documents,
            ["AGENTS.md", "a.md", "b.md", "c.md", "d.md", "e.md"]
        );
    }

    #[test]
    fn a_repository_without_agent_documents_finds_nothing() {
        let docs = found(&["README.md", "docs/agents.md", "src/lib.rs"], &[]);
        assert!(docs.is_empty(), "{docs:?}");
    }
}
