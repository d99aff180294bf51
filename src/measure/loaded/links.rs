//! Symbolic links on the way to a file a document loads, followed as agents' loaders
//! follow them (docs/src/reference/documents.md#links): an import target, a chain
//! namesake or a directory on the way that is a link is read through it, a `..` after a
//! link going up from where the link points. A link that leaves the repository or points
//! into `.git` stops the walk: the document is not measurable.

use std::collections::VecDeque;

use anyhow::Result;

use crate::source::{Entry, FileSource, LinkTarget};

/// How many links one path may pass through before it is taken for a loop (as the
/// operating system's own limit, `ELOOP`).
const MAX_LINKS: usize = 40;

/// Where a repository-relative path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reach {
    /// The path reached (`real`, with no link on the way), what is there, and the links
    /// passed through on the way, in order.
    At {
        real: String,
        entry: Entry,
        links: Vec<String>,
    },
    /// This link, on the way, leaves the repository or points into `.git`.
    Leaves { link: String },
    /// More than [`MAX_LINKS`] links on the way: a loop.
    Loop { links: Vec<String> },
}

/// Where `path` (repository-relative, without `.` or `..` parts) leads in `source`.
pub(super) fn reach(source: &dyn FileSource, path: &str) -> Result<Reach> {
    let entry = source.entry(path)?;
    if matches!(entry, Entry::File { .. } | Entry::Dir | Entry::Other) {
        // No link at the path or on the way to it.
        return Ok(Reach::At {
            real: path.to_string(),
            entry,
            links: Vec::new(),
        });
    }
    walk(source, path)
}

/// [`reach`] part by part: a link met is replaced by where it points.
fn walk(source: &dyn FileSource, path: &str) -> Result<Reach> {
    let mut at = Position {
        rest: parts(path).collect(),
        done: Vec::new(),
        links: Vec::new(),
    };
    while let Some(part) = at.rest.pop_front() {
        if part == ".." {
            if at.done.pop().is_none() {
                return Ok(leaves(at.links));
            }
            continue;
        }
        let into_git = part.eq_ignore_ascii_case(".git");
        at.done.push(part);
        if into_git && !at.links.is_empty() {
            return Ok(leaves(at.links));
        }
        let here = at.done.join("/");
        match source.entry(&here)? {
            Entry::Dir => {}
            Entry::Link => {
                if let Some(stop) = at.follow(source, here)? {
                    return Ok(stop);
                }
            }
            entry if at.rest.is_empty() => return Ok(at.reached(entry)),
            // A file or nothing where a directory should be.
            _ => {
                let rest: Vec<String> = at.rest.drain(..).collect();
                at.done.extend(rest);
                return Ok(at.reached(Entry::Missing));
            }
        }
    }
    Ok(at.reached(Entry::Dir))
}

/// How far [`walk`] has come: the parts still to walk, those walked (no link among
/// them) and the links passed.
struct Position {
    rest: VecDeque<String>,
    done: Vec<String>,
    links: Vec<String>,
}

impl Position {
    /// Replaces the link `link` (the last part walked) by where it points; a stop when it
    /// leads outside or one link too many was passed.
    fn follow(&mut self, source: &dyn FileSource, link: String) -> Result<Option<Reach>> {
        self.links.push(link.clone());
        if self.links.len() > MAX_LINKS {
            let links = std::mem::take(&mut self.links);
            return Ok(Some(Reach::Loop { links }));
        }
        self.done.pop();
        let target = match source.link_target(&link)? {
            Some(LinkTarget::Relative(t)) => t,
            Some(LinkTarget::FromRoot(t)) => {
                self.done.clear();
                t
            }
            Some(LinkTarget::Outside) | None => return Ok(Some(leaves(self.links.clone()))),
        };
        let parts: Vec<String> = parts(&target).collect();
        for part in parts.into_iter().rev() {
            self.rest.push_front(part);
        }
        Ok(None)
    }

    fn reached(self, entry: Entry) -> Reach {
        Reach::At {
            real: self.done.join("/"),
            entry,
            links: self.links,
        }
    }
}

/// A path's parts, without empty ones and `.`.
fn parts(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(str::to_string)
}

/// The walk stopped by the last link it passed.
fn leaves(links: Vec<String>) -> Reach {
    Reach::Leaves {
        link: links.last().cloned().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemorySource;

    fn at(real: &str, links: &[&str]) -> Reach {
        Reach::At {
            real: real.to_string(),
            entry: Entry::File { len: 2 },
            links: links.iter().map(|l| l.to_string()).collect(),
        }
    }

    #[test]
    fn links_to_files_and_directories_are_followed_inside_the_repository() {
        let source = MemorySource::default()
            .with("docs/big.md", "x\n")
            .with("b.md", "x\n")
            .with_link("docs/small.md", "big.md")
            .with_link("shared", "docs")
            .with_link("up", "shared/../b.md")
            .with_link("docs/twice.md", "../shared/small.md");
        let reach = |p| super::reach(&source, p).unwrap();
        assert_eq!(reach("docs/big.md"), at("docs/big.md", &[]));
        assert_eq!(
            reach("docs/small.md"),
            at("docs/big.md", &["docs/small.md"])
        );
        assert_eq!(reach("shared/big.md"), at("docs/big.md", &["shared"]));
        // `..` after a link goes up from where the link points.
        assert_eq!(reach("up"), at("b.md", &["up", "shared"]));
        assert_eq!(
            reach("docs/twice.md"),
            at("docs/big.md", &["docs/twice.md", "shared", "docs/small.md"])
        );
    }

    #[test]
    fn a_link_that_leaves_or_points_into_git_stops_and_a_loop_ends() {
        let source = MemorySource::default()
            .with(".git/config", "x\n")
            .with_link("abs.md", "/etc/passwd")
            .with_link("docs/up.md", "../../outside.md")
            .with_link("docs/git.md", "../.git/config")
            .with_link("away", "..")
            .with_link("a.md", "b.md")
            .with_link("b.md", "a.md");
        let reach = |p| super::reach(&source, p).unwrap();
        let leaves = |l: &str| Reach::Leaves {
            link: l.to_string(),
        };
        assert_eq!(reach("abs.md"), leaves("abs.md"));
        assert_eq!(reach("docs/up.md"), leaves("docs/up.md"));
        assert_eq!(reach("docs/git.md"), leaves("docs/git.md"));
        assert_eq!(reach("away/x/notes.md"), leaves("away"));
        assert!(matches!(reach("a.md"), Reach::Loop { links } if links.len() == MAX_LINKS + 1));
        // A missing target, and a file where a directory should be.
        let source = source
            .with_link("gone.md", "nowhere.md")
            .with("f.md", "x\n");
        assert_eq!(
            super::reach(&source, "gone.md").unwrap(),
            Reach::At {
                real: "nowhere.md".into(),
                entry: Entry::Missing,
                links: vec!["gone.md".into()]
            }
        );
        assert!(matches!(
            super::reach(&source, "f.md/x.md").unwrap(),
            Reach::At {
                entry: Entry::Missing,
                ..
            }
        ));
    }
}
