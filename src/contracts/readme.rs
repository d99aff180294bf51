//! One directory's `README.md`, read through a [`FileSource`] and classified: none, not a
//! file, or a file whose front matter makes it a contract or not.

use anyhow::Result;

use super::front::{front_matter, Front};
use super::listing::Listing;
use super::schema::{self, Contract, Parsed};
use crate::source::FileSource;
use crate::yaml::MAX_YAML_BYTES;

/// What a directory holds under the name `README.md` (any letter case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readme {
    None,
    /// A directory named `README.md`: the path.
    Directory(String),
    /// A symbolic link: the path. Never followed, never a contract.
    Link(String),
    /// A regular file: the path and what its front matter makes of it.
    File {
        path: String,
        parsed: Parsed,
    },
}

/// A directory's README, and every file name it holds under the name when there are
/// several (`duplicate-contract`); the first of them, in byte order, is the one read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirReadme {
    pub readme: Readme,
    pub duplicates: Vec<String>,
}

impl DirReadme {
    /// The README read as a contract, when it is one.
    pub fn contract(&self) -> Option<(&str, &Contract)> {
        match &self.readme {
            Readme::File {
                path,
                parsed: Parsed::Contract(contract),
            } => Some((path, contract)),
            _ => None,
        }
    }

    /// The README's path, whatever it is.
    pub fn path(&self) -> Option<&str> {
        match &self.readme {
            Readme::None => None,
            Readme::Directory(path) | Readme::Link(path) | Readme::File { path, .. } => Some(path),
        }
    }
}

/// Reads the README of `dir` in `source`, as `listing` (the same source's) lists it.
pub fn read(source: &dyn FileSource, listing: &Listing, dir: &str) -> Result<DirReadme> {
    let entries = listing.readmes(dir);
    let duplicates = if entries.files.len() > 1 {
        entries.files.iter().map(|e| e.path.clone()).collect()
    } else {
        Vec::new()
    };
    let readme = match (entries.files.first(), entries.directory) {
        (Some(entry), _) if entry.link => Readme::Link(entry.path.clone()),
        (Some(entry), _) => match source.read(&entry.path)? {
            Some(bytes) => Readme::File {
                path: entry.path.clone(),
                parsed: parse(&bytes),
            },
            None => Readme::None,
        },
        (None, Some(path)) => Readme::Directory(path),
        (None, None) => Readme::None,
    };
    Ok(DirReadme { readme, duplicates })
}

/// What a README's bytes make of it.
pub fn parse(bytes: &[u8]) -> Parsed {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let line = crate::lines::line_of(bytes, e.valid_up_to());
            return Parsed::Invalid {
                line,
                detail: "not UTF-8 (this line holds the first byte that isn't)".to_string(),
            };
        }
    };
    let invalid = |line, detail: &str| Parsed::Invalid {
        line,
        detail: detail.to_string(),
    };
    match front_matter(text) {
        Front::None => Parsed::NotContract("has no front matter".to_string()),
        Front::Empty => Parsed::NotContract("has empty front matter".to_string()),
        Front::Yaml(yaml) => schema::parse(&yaml),
        Front::BlankFirstLine => invalid(
            2,
            "the front matter's first line is blank, so Markdown reads no front matter here",
        ),
        Front::Unclosed => invalid(
            1,
            "the front matter opened here is never closed by a `---` line",
        ),
        Front::TooLarge => Parsed::Invalid {
            line: 1,
            detail: format!(
                "the front matter opened here runs past {} MiB, more than structgate reads",
                MAX_YAML_BYTES >> 20
            ),
        },
    }
}
