//! Stage 1 of the pipeline: a context's `principles.md` → [`Limits`] (docs/src/reference/limits.md).
//! The Markdown is read with pulldown-cmark, the fence with serde_yaml (through
//! `crate::yaml`), then validated into typed values.

mod markdown;
mod tiers;
mod validate;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::model::Metric;
use crate::source::FileSource;

pub use markdown::{find_fences, Fence, Fences, Instead};
pub use tiers::Tier;

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The first yaml fence of `## Limits`.
    Limits,
    /// The first yaml fence of `### Limits` under `## Project Specifics…`.
    ProjectSpecifics,
}

/// The effective limits of one context.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Limits {
    /// Only the metrics that have a limit.
    pub values: BTreeMap<Metric, u64>,
    pub tolerance_percent: u64,
    /// Where each set key (metric keys and `tolerance_percent`) came from.
    pub origins: BTreeMap<String, Origin>,
    /// `pinned`: the metrics every unit of which the baseline pins (docs/src/reference/documents.md#pins-and-tiers).
    pub pinned: BTreeSet<Metric>,
    /// `new_file_bytes`: the `file_bytes` limit of a file new since the base.
    pub new_file_bytes: Option<u64>,
    /// `tiers`, in list order: a file takes the first whose patterns match it.
    pub tiers: Vec<Tier>,
    /// The context's workdir, which tier patterns are relative to (`""`: the root).
    pub workdir: String,
}

impl Limits {
    /// The tier a file at `path` (repository-relative) takes: the first, in list order,
    /// with a pattern that matches it relative to the workdir.
    pub fn tier_of(&self, path: &str) -> Option<&Tier> {
        if self.tiers.is_empty() {
            return None;
        }
        let rel = self.relative(path)?;
        self.tiers.iter().find(|t| t.matches(rel))
    }

    /// `path` relative to the workdir; `None` outside it.
    pub fn relative<'p>(&self, path: &'p str) -> Option<&'p str> {
        if self.workdir.is_empty() {
            return Some(path);
        }
        path.strip_prefix(self.workdir.as_str())?.strip_prefix('/')
    }

    /// The limits a file at `path` is judged by (docs/src/reference/documents.md#pins-and-tiers): its tier's values over the
    /// context's; for a file `new` since the base, `file_bytes` is the tier's
    /// `new_file_bytes`, else the tier's `file_bytes`, else the context's
    /// `new_file_bytes`, else its `file_bytes`. The result has no tiers.
    pub fn for_file(&self, path: &str, new: bool) -> Limits {
        let tier = self.tier_of(path);
        let mut out = Limits {
            values: self.values.clone(),
            tolerance_percent: self.tolerance_percent,
            origins: BTreeMap::new(),
            pinned: self.pinned.clone(),
            new_file_bytes: None,
            tiers: Vec::new(),
            workdir: self.workdir.clone(),
        };
        if let Some(tier) = tier {
            out.values.extend(tier.values.iter().map(|(m, v)| (*m, *v)));
        }
        if new {
            let tiered = tier.and_then(|t| {
                t.new_file_bytes
                    .or(t.values.get(&Metric::FileBytes).copied())
            });
            if let Some(cap) = tiered.or(self.new_file_bytes) {
                out.values.insert(Metric::FileBytes, cap);
            }
        }
        out
    }

    /// True when `metric` is pinned (docs/src/reference/documents.md#pins-and-tiers).
    pub fn is_pinned(&self, metric: Metric) -> bool {
        self.pinned.contains(&metric)
    }

    pub fn limit(&self, metric: Metric) -> Option<u64> {
        self.values.get(&metric).copied()
    }

    /// `floor(limit × (100 + tolerance_percent) / 100)`, in integers (docs/src/reference/limits.md).
    pub fn band(&self, metric: Metric) -> Option<u64> {
        self.limit(metric)
            .map(|limit| band_of(limit, self.tolerance_percent))
    }

    /// True when at least one metric is limited (a fence with only
    /// `tolerance_percent` limits nothing).
    pub fn has_limits(&self) -> bool {
        !self.values.is_empty()
    }

    /// `key=value` pairs, keys sorted, `tolerance_percent` always: the baseline's
    /// `# measured with:` header (docs/src/reference/baseline.md, docs/src/reference/documents.md#pins-and-tiers). `new_file_bytes` is one more limit; each
    /// tier value is `tier.NAME.KEY`; each pinned metric is `pinned.KEY` = 1, which the
    /// header writes as one `pinned=KEY,KEY` pair.
    pub fn measured_with(&self) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = self
            .values
            .iter()
            .map(|(m, v)| (m.key().to_string(), *v))
            .collect();
        out.insert("tolerance_percent".to_string(), self.tolerance_percent);
        if let Some(n) = self.new_file_bytes {
            out.insert(NEW_FILE_BYTES_KEY.to_string(), n);
        }
        for metric in &self.pinned {
            out.insert(format!("{PINNED_KEY}.{}", metric.key()), 1);
        }
        for tier in &self.tiers {
            for (key, value) in tier.settings() {
                out.insert(format!("tier.{}.{key}", tier.name), value);
            }
        }
        out
    }
}

/// The band for a limit and a tolerance, saturating instead of overflowing.
pub fn band_of(limit: u64, tolerance_percent: u64) -> u64 {
    let wide = u128::from(limit) * (100 + u128::from(tolerance_percent)) / 100;
    u64::try_from(wide).unwrap_or(u64::MAX)
}

impl fmt::Display for Origin {
    /// The section a fence was read from, as messages name it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Limits => "## Limits",
            Origin::ProjectSpecifics => "### Limits of ## Project Specifics",
        })
    }
}

/// The key of the band above every limit (the registry's, beside the metrics' keys).
pub use crate::model::metric::TOLERANCE_KEY;
/// The keys of docs/src/reference/documents.md#pins-and-tiers that are not metrics.
pub const PINNED_KEY: &str = "pinned";
pub const NEW_FILE_BYTES_KEY: &str = "new_file_bytes";
pub const TIERS_KEY: &str = "tiers";

/// What a `principles.md` says: the effective limits, and the keys outside the closed
/// list (a warning for most commands, an error for `structgate limits`: docs/src/reference/limits.md).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LimitsRead {
    pub limits: Limits,
    pub unknown_keys: Vec<UnknownKey>,
    /// Problems that don't stop reading (a second `## Limits` section), naming file:line.
    pub warnings: Vec<String>,
    /// The file line of the `pinned` key that stands, to name it when a pin has no cap.
    pub pinned_line: Option<usize>,
    /// The file line of each known key that stands (the later fence's, where both set
    /// it), to name it when the baseline's header doesn't record it.
    pub key_lines: BTreeMap<String, usize>,
    /// Why no metric is limited, when none is.
    pub none: Option<NoLimits>,
}

/// Why a `principles.md` limits nothing, and what it holds that looks meant as Limits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NoLimits {
    /// `no ## Limits section`, `## Limits (line 3) holds no yaml fence`, ...
    pub reason: String,
    /// One `path:line: ...` message each ([`Instead::describe`]).
    pub found_instead: Vec<String>,
}

/// A key outside the closed list of docs/src/reference/limits.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    pub key: String,
    /// The `principles.md` path as given to [`read`] or [`parse`].
    pub file: String,
    /// 1-based line in the file.
    pub line: usize,
}

impl UnknownKey {
    /// The key as messages show it: a key with a space, tab or other invisible character
    /// in it is quoted and escaped (`"file\u{a0}lines"`): shown bare it would read as a
    /// known key.
    pub fn shown(&self) -> String {
        let plain = !self.key.is_empty()
            && self
                .key
                .chars()
                .all(|c| !c.is_whitespace() && !c.is_control() && c != '"');
        if plain {
            self.key.clone()
        } else {
            format!("{:?}", self.key)
        }
    }

    /// The known key it most likely meant, if one is near.
    pub fn meant(&self) -> Option<&'static str> {
        crate::nearest::nearest(&self.key, &known_keys())
    }
}

impl fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = known_keys();
        write!(
            f,
            "{}:{}: unknown Limits key {}",
            self.file,
            self.line,
            self.shown()
        )?;
        if let Some(meant) = self.meant() {
            write!(f, ": did you mean {meant}?")?;
        }
        write!(f, " (known: {})", known.join(", "))
    }
}

/// The closed list of keys: the metrics in the order of their names, then
/// `new_file_bytes`, `pinned`, `tiers`, and `tolerance_percent` last.
pub fn known_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Metric::ALL.iter().map(|m| m.key()).collect();
    keys.extend([NEW_FILE_BYTES_KEY, PINNED_KEY, TIERS_KEY, TOLERANCE_KEY]);
    keys
}

/// Why a `principles.md` gives no limits. Every message names the file, and the line
/// and key where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitsError {
    #[error("reading {path}: {message}")]
    Read { path: String, message: String },
    #[error("{path}: not UTF-8")]
    NotUtf8 { path: String },
    #[error("{path}:{line}: the yaml fence of {section} cannot be read: {message}")]
    Yaml {
        path: String,
        line: usize,
        section: Origin,
        message: String,
    },
    #[error("{path}:{line}: the yaml fence of {section} is not a mapping of keys to values (found {found})")]
    NotAMapping {
        path: String,
        line: usize,
        section: Origin,
        found: String,
    },
    #[error("{path}:{line}: Limits key {key} is not a string")]
    KeyNotString {
        path: String,
        line: usize,
        key: String,
    },
    #[error("{path}:{line}: {key} is set twice in the yaml fence of {section}")]
    DuplicateKey {
        path: String,
        line: usize,
        section: Origin,
        key: String,
    },
    #[error("{path}:{line}: {key}: {message}")]
    Invalid {
        path: String,
        line: usize,
        key: String,
        message: String,
    },
    #[error("{path}:{line}: {key}: {value} is not {expected}")]
    BadValue {
        path: String,
        line: usize,
        key: String,
        value: String,
        expected: &'static str,
    },
}

/// Reads the limits of the `principles.md` at `path` in `source`; `Ok(None)` when there
/// is no such file. A leading UTF-8 BOM is ignored.
pub fn read(source: &dyn FileSource, path: &str) -> Result<Option<LimitsRead>, LimitsError> {
    let bytes = match source.read(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(err) => {
            return Err(LimitsError::Read {
                path: path.to_string(),
                message: format!("{err:#}"),
            })
        }
    };
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = std::str::from_utf8(body).map_err(|_| LimitsError::NotUtf8 {
        path: path.to_string(),
    })?;
    parse(text, path).map(Some)
}

/// Reads the limits of a `principles.md` whose text is `text`; `path` names it in
/// messages. The `### Limits` fence of `## Project Specifics…` is applied after the
/// `## Limits` fence, key by key, also when `## Limits` has none.
pub fn parse(text: &str, path: &str) -> Result<LimitsRead, LimitsError> {
    let fences = markdown::find_fences(text);
    let heading = fences.limits_heading;
    let limits_fence_line = fences.limits.as_ref().map(Fence::open_line);
    let instead = fences.instead.clone();
    let mut read = LimitsRead::default();
    for line in &fences.later_limits_sections {
        read.warnings.push(format!(
            "{path}:{line}: a second ## Limits section; only the first is read"
        ));
    }
    let order = [
        (Origin::Limits, fences.limits),
        (Origin::ProjectSpecifics, fences.project),
    ];
    for (origin, fence) in order {
        if let Some(fence) = fence {
            validate::apply(&fence, origin, path, &mut read)?;
        }
    }
    validate::pins_have_caps(&read, path)?;
    if !read.limits.has_limits() {
        let reason = match (heading, limits_fence_line) {
            (None, _) => "no ## Limits section".to_string(),
            (Some(line), None) => format!("## Limits (line {line}) holds no yaml fence"),
            (Some(_), Some(_)) if read.limits.origins.contains_key(TOLERANCE_KEY) => {
                "its fence sets only tolerance_percent, which limits nothing".to_string()
            }
            (Some(_), Some(line)) => format!("the yaml fence of ## Limits (line {line}) is empty"),
        };
        read.none = Some(NoLimits {
            reason,
            found_instead: instead.iter().map(|i| i.describe(path)).collect(),
        });
    }
    Ok(read)
}

#[cfg(test)]
mod tests;
