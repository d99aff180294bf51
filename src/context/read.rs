//! Stage 0: one `context.yaml`, read raw through `crate::yaml`, then validated into a
//! [`Context`] (docs/src/reference/contexts.md). An empty document (or `null`) reads as an empty mapping.

use std::fmt;

use serde::de::{Deserializer, Visitor};
use serde::Deserialize;

use super::path::{self, PathProblem};
use super::{Context, ContextError};

/// The keys structgate reads; any other key belongs to other tools and is skipped
/// unread (serde's `IgnoredAny`, which never follows YAML aliases).
#[derive(Debug, Default, Deserialize)]
#[serde(expecting = "a mapping with optional keys meta, sources and exclude")]
struct RawContext {
    #[serde(default)]
    meta: Option<RawMeta>,
    #[serde(default)]
    sources: Option<Vec<Text>>,
    #[serde(default)]
    exclude: Option<Vec<Text>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(expecting = "a mapping with optional keys name and workdir")]
struct RawMeta {
    #[serde(default)]
    name: Option<Text>,
    #[serde(default)]
    workdir: Option<Text>,
}

/// The keys of `context.yaml` and of its `meta`, read only to find near misses.
#[derive(Debug, Default, Deserialize)]
struct RawKeys {
    #[serde(default)]
    meta: Option<std::collections::BTreeMap<String, serde::de::IgnoredAny>>,
}

/// The keys structgate reads at the top of `context.yaml`; `workdir` written there
/// (rather than under `meta`) is a slip too.
const TOP_KEYS: &[&str] = &["meta", "sources", "exclude", "workdir"];
const META_KEYS: &[&str] = &["name", "workdir"];

/// A warning for each key of `file` one slip away from a key structgate reads
/// (`source:` for `sources:`, `Meta:`, `work_dir:` under `meta`, `workdir:` outside it),
/// naming the line and the key meant; other tools' keys are left alone (docs/src/reference/contexts.md).
pub fn near_misses(file: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(crate::yaml::FlatDoc::Mapping(entries)) = crate::yaml::read_flat(text) {
        for entry in entries {
            let crate::yaml::Shallow::Str(key) = &entry.key else {
                continue;
            };
            let meant = match crate::nearest::near_miss(key, TOP_KEYS) {
                _ if key == "workdir" => Some("meta.workdir"),
                Some("workdir") => Some("meta.workdir"),
                other => other,
            };
            if let Some(meant) = meant {
                out.push(slip(file, entry.line, key, meant));
            }
        }
    }
    let meta = crate::yaml::from_str::<Option<RawKeys>>(text)
        .ok()
        .flatten();
    for key in meta.and_then(|m| m.meta).unwrap_or_default().keys() {
        if let Some(meant) = crate::nearest::near_miss(key, META_KEYS) {
            let line = Located { file, text }.line_of(&format!("{key}:"));
            out.push(slip(file, line.unwrap_or(1), key, &format!("meta.{meant}")));
        }
    }
    out
}

fn slip(file: &str, line: usize, key: &str, meant: &str) -> String {
    format!("{file}:{line}: structgate does not read the key {key:?}: did you mean {meant}?")
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
    let mut declared = Vec::new();
    let workdir = match meta.workdir {
        Some(Text(written)) => {
            let dir = located.join("", &written, "meta.workdir")?;
            declared.push(located.declared("meta.workdir", written, &dir));
            dir
        }
        None => String::new(),
    };
    let mut owned = Vec::new();
    for Text(source) in raw.sources.unwrap_or_default() {
        let dir = located.join(&workdir, &source, "sources entry")?;
        declared.push(located.declared("sources entry", source, &dir));
        owned.push(dir);
    }
    if owned.is_empty() {
        owned.push(workdir.clone());
    }
    owned.sort();
    owned.dedup();
    let exclude = located.exclude(raw.exclude.unwrap_or_default())?;
    Ok(Context {
        name,
        dir,
        workdir,
        owned,
        declared,
        exclude,
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

    /// The `exclude` globs, compiled; the first that is no glob is an error naming its
    /// line.
    fn exclude(&self, written: Vec<Text>) -> Result<super::Exclude, ContextError> {
        let patterns = written.into_iter().map(|Text(p)| p).collect();
        super::Exclude::new(patterns).map_err(|(entry, message)| ContextError::Glob {
            path: self.file.to_string(),
            line: self.line_of_value(&entry),
            entry,
            message,
        })
    }

    fn declared(&self, key: &'static str, written: String, dir: &str) -> super::Declared {
        super::Declared {
            key,
            line: self.line_of_value(&written),
            written,
            dir: dir.to_string(),
        }
    }

    /// The first line that holds `value` as a whole YAML scalar (between spaces, quotes,
    /// `[`, `,`, `]` or the line's ends, so `src` is not found in `sources:`); else the
    /// first line holding it at all.
    fn line_of_value(&self, value: &str) -> Option<usize> {
        let bounded = |line: &str| {
            line.match_indices(value).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + value.len()..].chars().next();
                let edge =
                    |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || "\"'[],".contains(c));
                edge(before) && edge(after)
            })
        };
        crate::lines::lines(self.text)
            .position(bounded)
            .map(|i| i + 1)
            .or_else(|| self.line_of(value))
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
