//! Stage 0: one `context.yaml`, read raw through `crate::yaml`, then validated into a
//! [`Context`] (SPEC §2). An empty document (or `null`) reads as an empty mapping.

use std::fmt;

use serde::de::{Deserializer, Visitor};
use serde::Deserialize;

use super::path::{self, PathProblem};
use super::{Context, ContextError};

/// The keys structgate reads; any other key belongs to other tools and is skipped
/// unread (serde's `IgnoredAny`, which never follows YAML aliases).
#[derive(Debug, Default, Deserialize)]
#[serde(expecting = "a mapping with optional keys meta and sources")]
struct RawContext {
    #[serde(default)]
    meta: Option<RawMeta>,
    #[serde(default)]
    sources: Option<Vec<Text>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(expecting = "a mapping with optional keys name and workdir")]
struct RawMeta {
    #[serde(default)]
    name: Option<Text>,
    #[serde(default)]
    workdir: Option<Text>,
}

/// A YAML string, and only a string: `123` or `true` is refused, not read as text.
#[derive(Debug)]
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl Visitor<'_> for TextVisitor {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// Reads the `context.yaml` at `file` (repository-relative) whose text is `text`.
pub fn context(file: &str, text: &str, repo_name: &str) -> Result<Context, ContextError> {
    let raw = parse_raw(file, text)?;
    let meta = raw.meta.unwrap_or_default();
    let dir = crate::relpath::parent(file).to_string();
    let name = name_of(file, meta.name, &dir, repo_name)?;
    let located = Located { file, text };
    let workdir_text = meta.workdir.map_or_else(|| ".".to_string(), |t| t.0);
    let workdir = located.join("", &workdir_text, "meta.workdir")?;
    let mut owned = Vec::new();
    for Text(source) in raw.sources.unwrap_or_default() {
        owned.push(located.join(&workdir, &source, "sources entry")?);
    }
    if owned.is_empty() {
        owned.push(workdir.clone());
    }
    owned.sort();
    owned.dedup();
    Ok(Context {
        name,
        dir,
        workdir,
        owned,
    })
}

/// The raw document; an empty one (or `null`) is an empty mapping.
fn parse_raw(file: &str, text: &str) -> Result<RawContext, ContextError> {
    let raw: Option<RawContext> =
        crate::yaml::from_str(text).map_err(|err| ContextError::Yaml {
            path: file.to_string(),
            line: err.line,
            message: err.message,
        })?;
    Ok(raw.unwrap_or_default())
}

/// `meta.name`, or the context directory's name (the repository's at the root).
fn name_of(
    file: &str,
    name: Option<Text>,
    dir: &str,
    repo_name: &str,
) -> Result<String, ContextError> {
    match name {
        Some(Text(name)) if name.trim().is_empty() => Err(ContextError::EmptyName {
            path: file.to_string(),
        }),
        Some(Text(name)) => Ok(name),
        None => Ok(match crate::relpath::file_name(dir) {
            "" => repo_name.to_string(),
            last => last.to_string(),
        }),
    }
}

/// A `context.yaml` being validated, for messages that name its file and line.
struct Located<'a> {
    file: &'a str,
    text: &'a str,
}

impl Located<'_> {
    fn join(&self, base: &str, rel: &str, key: &'static str) -> Result<String, ContextError> {
        path::join(base, rel).map_err(|problem| {
            let (path, line, entry) = (self.file.to_string(), self.line_of(rel), rel.to_string());
            match problem {
                PathProblem::Absolute => ContextError::Absolute {
                    path,
                    line,
                    key,
                    entry,
                },
                PathProblem::LeavesRepository => ContextError::LeavesRepository {
                    path,
                    line,
                    key,
                    entry,
                    base: crate::relpath::shown(base).to_string(),
                },
            }
        })
    }

    /// The first line that holds `entry`, where a bad path is most likely written.
    fn line_of(&self, entry: &str) -> Option<usize> {
        if entry.is_empty() {
            return None;
        }
        crate::lines::lines(self.text)
            .position(|line| line.contains(entry))
            .map(|i| i + 1)
    }
}
