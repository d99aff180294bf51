//! Stage 1, the keys of docs/src/reference/documents.md#pins-and-tiers whose values are lists: `pinned` (metric keys) and
//! `tiers` (mappings `{name, paths, KEY: n}`), validated into [`Tier`]s whose patterns
//! are compiled once with globset, git's glob dialect (`*` and `?` within one path
//! segment, `**` across them, `{a,b}`, `[...]`).

use std::collections::{BTreeMap, BTreeSet};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::{Fence, LimitsError, UnknownKey, NEW_FILE_BYTES_KEY};
use crate::model::Metric;
use crate::yaml::{Node, Shallow};

/// One tier: the files its patterns match take its values (docs/src/reference/documents.md#pins-and-tiers).
#[derive(Debug, Clone)]
pub struct Tier {
    pub name: String,
    /// The patterns as written, relative to the context's workdir.
    pub patterns: Vec<String>,
    set: GlobSet,
    /// The metric keys the tier sets.
    pub values: BTreeMap<Metric, u64>,
    pub new_file_bytes: Option<u64>,
}

impl PartialEq for Tier {
    fn eq(&self, other: &Tier) -> bool {
        (
            &self.name,
            &self.patterns,
            &self.values,
            self.new_file_bytes,
        ) == (
            &other.name,
            &other.patterns,
            &other.values,
            other.new_file_bytes,
        )
    }
}

impl Eq for Tier {}

impl Tier {
    /// True when a pattern matches `rel`, a path relative to the context's workdir.
    pub fn matches(&self, rel: &str) -> bool {
        self.set.is_match(rel)
    }

    /// Which of the patterns match `rel`.
    pub fn matching_patterns(&self, rel: &str) -> Vec<usize> {
        self.set.matches(rel)
    }

    /// Every `key=value` the tier sets, keys sorted (for `# measured with:`).
    pub fn settings(&self) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = self
            .values
            .iter()
            .map(|(m, v)| (m.key().to_string(), *v))
            .collect();
        if let Some(n) = self.new_file_bytes {
            out.insert(NEW_FILE_BYTES_KEY.to_string(), n);
        }
        out
    }
}

/// Where the value being validated sits, for messages: the file, the fence, the key's
/// file line.
pub(super) struct At<'a> {
    pub path: &'a str,
    pub fence: &'a Fence,
    /// The fence line (1-based within the YAML) of the top-level key.
    pub yaml_line: usize,
}

impl At<'_> {
    fn line(&self) -> usize {
        self.fence.file_line(self.yaml_line)
    }

    fn error(&self, line: usize, key: &str, message: String) -> LimitsError {
        LimitsError::Invalid {
            path: self.path.to_string(),
            line,
            key: key.to_string(),
            message,
        }
    }
}

/// `pinned`: a list of metric keys, each at most once.
pub(super) fn pinned(node: &Node, at: &At) -> Result<BTreeSet<Metric>, LimitsError> {
    let key = "pinned";
    let Node::List(items) = node else {
        let message = format!(
            "{} is not a list of metric keys (write pinned: [file_bytes])",
            node.shallow()
        );
        return Err(at.error(at.line(), key, message));
    };
    let mut out = BTreeSet::new();
    for item in items {
        let metric = match item {
            Node::Scalar(Shallow::Str(s)) => Metric::from_key(s),
            _ => None,
        };
        let Some(metric) = metric else {
            let message = format!(
                "{} is not a metric key (known: {})",
                item.shallow(),
                metric_keys()
            );
            return Err(at.error(at.line(), key, message));
        };
        out.insert(metric);
    }
    Ok(out)
}

fn metric_keys() -> String {
    let keys: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
    keys.join(", ")
}

/// `tiers`: a list of mappings. Keys outside a tier's list are pushed to `unknown`.
pub(super) fn tiers(
    node: &Node,
    at: &At,
    unknown: &mut Vec<UnknownKey>,
) -> Result<Vec<Tier>, LimitsError> {
    let Node::List(items) = node else {
        let message = format!(
            "{} is not a list of tiers (each `- name: ..., paths: [...]`)",
            node.shallow()
        );
        return Err(at.error(at.line(), "tiers", message));
    };
    let starts = item_lines(&at.fence.text, at.yaml_line);
    let mut out: Vec<Tier> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let lines = ItemLines {
            text: &at.fence.text,
            start: starts.get(index).copied().unwrap_or(at.yaml_line),
            end: starts.get(index + 1).copied(),
        };
        let tier = tier(item, index, at, &lines, unknown)?;
        if out.iter().any(|t| t.name == tier.name) {
            let line = at.fence.file_line(lines.of("name"));
            let message = format!("two tiers are named {:?}; tier names are unique", tier.name);
            return Err(at.error(line, "tiers.name", message));
        }
        out.push(tier);
    }
    Ok(out)
}

/// The fence lines of one tier's item, to find the line of a key in it.
struct ItemLines<'a> {
    text: &'a str,
    /// The item's first line (1-based in the YAML).
    start: usize,
    /// The next item's first line, if any.
    end: Option<usize>,
}

impl ItemLines<'_> {
    /// The line of `key:` inside the item; its first line when the key isn't on a line of
    /// its own (flow style).
    fn of(&self, key: &str) -> usize {
        let lines = crate::lines::lines(self.text)
            .enumerate()
            .skip(self.start - 1);
        for (index, line) in lines {
            let number = index + 1;
            if self.end.is_some_and(|end| number >= end) {
                break;
            }
            let t = line.trim_start();
            let t = t.strip_prefix('-').map_or(t, str::trim_start);
            let t = t.trim_start_matches(['"', '\'']);
            if t.strip_prefix(key).is_some_and(|rest| {
                rest.trim_start_matches(['"', '\''])
                    .trim_start()
                    .starts_with(':')
            }) {
                return number;
            }
        }
        self.start
    }
}

/// The first line of each block-style item (`- ...`) of the list under the key at
/// `key_line`, up to the next top-level key.
fn item_lines(text: &str, key_line: usize) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut indent = None;
    for (index, line) in crate::lines::lines(text).enumerate().skip(key_line) {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let depth = line.len() - t.len();
        let dash = t == "-" || t.starts_with("- ");
        if depth == 0 && !dash {
            break;
        }
        if dash && indent.is_none_or(|i| depth <= i) {
            indent = Some(depth);
            starts.push(index + 1);
        }
    }
    starts
}

/// One item of `tiers`.
fn tier(
    item: &Node,
    index: usize,
    at: &At,
    lines: &ItemLines,
    unknown: &mut Vec<UnknownKey>,
) -> Result<Tier, LimitsError> {
    let line_of = |key: &str| at.fence.file_line(lines.of(key));
    let Node::Mapping(entries) = item else {
        let message = format!(
            "tier {} is {}, not a mapping with name and paths",
            index + 1,
            item.shallow()
        );
        return Err(at.error(line_of(""), "tiers", message));
    };
    let mut draft = Draft::default();
    for (key, value) in entries {
        let Shallow::Str(key) = key else {
            let message = format!("tier {} has a key {key} that is not a string", index + 1);
            return Err(at.error(line_of(""), "tiers", message));
        };
        let line = line_of(key);
        draft.set(key, value, line, at, unknown)?;
    }
    draft.finish(index, at, line_of(""))
}

/// A tier being read.
#[derive(Default)]
struct Draft {
    name: Option<String>,
    paths: Option<(Vec<String>, GlobSet)>,
    values: BTreeMap<Metric, u64>,
    new_file_bytes: Option<u64>,
}

impl Draft {
    fn set(
        &mut self,
        key: &str,
        value: &Node,
        line: usize,
        at: &At,
        unknown: &mut Vec<UnknownKey>,
    ) -> Result<(), LimitsError> {
        let shown = format!("tiers.{key}");
        let bad = |message: String| at.error(line, &shown, message);
        match key {
            "name" => match value {
                Node::Scalar(Shallow::Str(s)) if is_name(s) => self.name = Some(s.clone()),
                _ => {
                    return Err(bad(format!(
                        "{} is not a tier name (letters, digits, - and _)",
                        value.shallow()
                    )))
                }
            },
            "paths" => self.paths = Some(patterns(value).map_err(bad)?),
            _ => {
                let number = match value {
                    Node::Scalar(Shallow::Int(i)) => u64::try_from(*i).ok().filter(|v| *v > 0),
                    _ => None,
                };
                let positive = || {
                    bad(format!(
                        "{} is not a positive whole number",
                        value.shallow()
                    ))
                };
                if key == NEW_FILE_BYTES_KEY {
                    self.new_file_bytes = Some(number.ok_or_else(positive)?);
                } else if let Some(metric) = Metric::from_key(key) {
                    self.values.insert(metric, number.ok_or_else(positive)?);
                } else {
                    unknown.push(UnknownKey {
                        key: key.to_string(),
                        file: at.path.to_string(),
                        line,
                    });
                }
            }
        }
        Ok(())
    }

    fn finish(self, index: usize, at: &At, line: usize) -> Result<Tier, LimitsError> {
        let missing = |what: &str| {
            let message = format!("tier {} has no {what}", index + 1);
            at.error(line, "tiers", message)
        };
        let name = self.name.ok_or_else(|| missing("name"))?;
        let (patterns, set) = self.paths.ok_or_else(|| missing("paths"))?;
        if self.values.is_empty() && self.new_file_bytes.is_none() {
            let message = format!(
                "tier {name:?} sets no limit (give it a metric key or {NEW_FILE_BYTES_KEY})"
            );
            return Err(at.error(line, "tiers", message));
        }
        Ok(Tier {
            name,
            patterns,
            set,
            values: self.values,
            new_file_bytes: self.new_file_bytes,
        })
    }
}

/// A tier name is recorded in the baseline header as `tier.NAME.KEY=N`: a word.
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `paths`: a non-empty list of glob patterns, compiled.
fn patterns(value: &Node) -> Result<(Vec<String>, GlobSet), String> {
    let not_list = || {
        format!(
            "{} is not a non-empty list of glob patterns",
            value.shallow()
        )
    };
    let Node::List(items) = value else {
        return Err(not_list());
    };
    if items.is_empty() {
        return Err(not_list());
    }
    let mut written = Vec::new();
    let mut set = GlobSetBuilder::new();
    for item in items {
        let Node::Scalar(Shallow::Str(pattern)) = item else {
            return Err(format!("{} is not a glob pattern", item.shallow()));
        };
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| format!("{pattern:?} is not a valid glob: {}", e.kind()))?;
        set.add(glob);
        written.push(pattern.clone());
    }
    let set = set.build().map_err(|e| e.to_string())?;
    Ok((written, set))
}
