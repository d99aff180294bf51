//! What a branch did to its own terms (docs/src/reference/gate.md#integrity): every difference between a context's
//! terms at the base and on the branch, which the gate then marks loosens or tightens by
//! `judge::loosens`. A report for the reviewer only: the gate still judges by the base's
//! terms, and nothing the branch writes into its terms can make this fail — a file that
//! doesn't read on the branch is one more difference ([`Term::Unreadable`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use anyhow::Result;

use super::{ContextTerms, Terms};
use crate::baseline::{tsv, Allowances, Baseline, EntryKey};
use crate::context::{self, Context};
use crate::contracts;
use crate::limits::{self, Limits};
use crate::model::Metric;
use crate::relpath;
use crate::source::{Entry, FileSource};

pub use header::RecordedKey;

/// One term of a context (or of a directory contract) that can differ.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    /// The context itself, added or removed on the branch; an added one may take over
    /// directories that these base contexts owned.
    Context {
        taken_from: Vec<String>,
    },
    /// An owned directory (a `sources` entry joined to the workdir), added or removed;
    /// an added one may take over directories that these base contexts owned.
    Source {
        taken_from: Vec<String>,
    },
    /// An `exclude` glob, added (it would leave files out) or removed
    /// (docs/src/reference/contexts.md#exclude).
    Exclude,
    /// The limit of a metric.
    Limit(Metric),
    Tolerance,
    /// `new_file_bytes` (docs/src/reference/documents.md#pins-and-tiers).
    NewFileBytes,
    /// `pinned`, as the sorted list of its metric keys.
    Pinned,
    /// A tier's patterns, with its place in the list (the first matching tier wins).
    TierPaths(String),
    /// One value a tier sets: the tier's name and the key.
    TierLimit(String, String),
    /// The baseline file itself, added or removed (without one, a context isn't judged).
    Baseline,
    /// A key of the baseline's `# measured with:` header (the line itself where one side
    /// has none): the limits a later `baseline refresh` compares today's with.
    Recorded(RecordedKey),
    /// The baseline's `# owned:` header, as a whole; `owned` are the context's owned
    /// directories at the base (a refresh adds the excesses of those the header doesn't
    /// list, as newly owned).
    RecordedOwned {
        owned: Vec<String>,
    },
    /// One baseline entry.
    Entry(EntryKey),
    /// A directory contract's `children.require_contract` (docs/src/reference/contracts.md).
    RequireContract,
    /// A terms file the branch holds that doesn't read: what it would do can't be told.
    Unreadable,
}

impl Term {
    /// `what` as reports give it: the key, or the entry as `path unit metric`.
    pub fn what(&self) -> String {
        match self {
            Term::Context { .. } => "context".to_string(),
            Term::Source { .. } => "sources".to_string(),
            Term::Exclude => "exclude".to_string(),
            Term::Limit(metric) => metric.key().to_string(),
            Term::Tolerance => limits::TOLERANCE_KEY.to_string(),
            Term::NewFileBytes => limits::NEW_FILE_BYTES_KEY.to_string(),
            Term::Pinned => limits::PINNED_KEY.to_string(),
            Term::TierPaths(tier) => format!("tiers.{tier}.paths"),
            Term::TierLimit(tier, key) => format!("tiers.{tier}.{key}"),
            Term::Baseline => "baseline".to_string(),
            Term::Recorded(RecordedKey::Line) => "# measured with:".to_string(),
            Term::Recorded(key) => format!("# measured with: {}", key.key()),
            Term::RecordedOwned { .. } => "# owned:".to_string(),
            Term::Entry(key) => format!("{} {} {}", key.path, key.unit, key.metric),
            Term::RequireContract => "children.require_contract".to_string(),
            Term::Unreadable => "unreadable".to_string(),
        }
    }
}

/// A term's value on one side.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TermValue {
    Number(u64),
    Flag(bool),
    Text(String),
    /// Directories, repository-relative (the root is `""`).
    Dirs(Vec<String>),
}

impl fmt::Display for TermValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermValue::Number(n) => write!(f, "{n}"),
            TermValue::Flag(b) => write!(f, "{b}"),
            TermValue::Text(t) => f.write_str(t),
            TermValue::Dirs(dirs) if dirs.is_empty() => f.write_str("none"),
            TermValue::Dirs(dirs) => {
                let shown: Vec<&str> = dirs.iter().map(|d| relpath::shown(d)).collect();
                f.write_str(&shown.join(", "))
            }
        }
    }
}

/// One difference between the base's terms and the branch's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TermChange {
    /// The context's name (at the base, where it exists there); `None` for a contract
    /// that no context owns, or a new `context.yaml` that doesn't read.
    pub context: Option<String>,
    /// The repository-relative file that holds the term.
    pub file: String,
    pub term: Term,
    /// `None` where the base doesn't have it.
    pub from: Option<TermValue>,
    /// `None` where the branch doesn't have it.
    pub to: Option<TermValue>,
    /// Set by the gate from `judge::loosens`; `false` as the comparison leaves it.
    pub loosens: bool,
}

/// The branch's side of a comparison: its files, the size past which one is not read
/// (`--max-file-size`, as for the files the gate measures), and what changed.
pub struct Branch<'a> {
    pub source: &'a dyn FileSource,
    pub max_bytes: u64,
    /// Every path that differs from the base, both sides of a rename.
    pub changed: BTreeSet<String>,
    /// Renamed files: new path → old path.
    pub renames: BTreeMap<String, String>,
}

/// Compares the terms of `base` (read from `base_tree`) with those `branch` holds, in the
/// files that changed. Only reading the base can fail; whatever the branch holds is a
/// difference, never an error.
pub fn changes(
    base: &Terms,
    base_tree: &dyn FileSource,
    branch: &Branch,
    repo_name: &str,
) -> Result<Vec<TermChange>> {
    let mut diff = Diff {
        base,
        branch: branch.source,
        max_bytes: branch.max_bytes,
        changed: &branch.changed,
        renames: &branch.renames,
        out: Vec::new(),
    };
    for terms in &base.contexts {
        diff.context(terms, repo_name);
    }
    diff.new_contexts(repo_name);
    diff.contracts(base_tree)?;
    Ok(diff.out)
}

/// The comparison under way.
struct Diff<'a> {
    base: &'a Terms,
    branch: &'a dyn FileSource,
    max_bytes: u64,
    changed: &'a BTreeSet<String>,
    renames: &'a BTreeMap<String, String>,
    out: Vec<TermChange>,
}

impl Diff<'_> {
    fn push(&mut self, context: Option<&str>, file: &str, term: Term, sides: Sides) {
        let (from, to) = sides;
        if from == to {
            return;
        }
        self.out.push(TermChange {
            context: context.map(str::to_string),
            file: file.to_string(),
            term,
            from,
            to,
            loosens: false,
        });
    }

    fn unreadable(&mut self, context: Option<&str>, file: &str, error: impl fmt::Display) {
        let sides = (None, Some(TermValue::Text(format!("{error:#}"))));
        self.push(context, file, Term::Unreadable, sides);
    }

    /// True when the branch's file at `file` changed and can be read: not larger than
    /// `--max-file-size` (else it is noted as unreadable).
    fn readable(&mut self, context: Option<&str>, file: &str) -> bool {
        if !self.changed.contains(file) {
            return false;
        }
        match self.branch.entry(file) {
            Ok(Entry::File { len }) if len > self.max_bytes => {
                let max = self.max_bytes;
                let why = format!("{file}: {len} bytes, larger than --max-file-size ({max})");
                self.unreadable(context, file, why);
                false
            }
            Ok(_) => true,
            Err(e) => {
                self.unreadable(context, file, e);
                false
            }
        }
    }

    /// One base context: its `context.yaml`, `principles.md` and baseline, where changed.
    fn context(&mut self, terms: &ContextTerms, repo_name: &str) {
        let ctx = &terms.context;
        let file = ctx.file("context.yaml");
        if self.readable(Some(&ctx.name), &file) {
            match context::read_one(self.branch, &file, repo_name) {
                Ok(Some(now)) => {
                    self.sources(ctx, &now);
                    self.exclude(ctx, &now);
                }
                Ok(None) => {
                    let owned = (Some(owned_text(&ctx.owned)), None);
                    let term = Term::Context { taken_from: vec![] };
                    return self.push(Some(&ctx.name), &file, term, owned);
                }
                Err(e) => self.unreadable(Some(&ctx.name), &file, e),
            }
        }
        let principles = ctx.principles_path();
        if self.readable(Some(&ctx.name), &principles) {
            match limits::read(self.branch, &principles) {
                Ok(read) => {
                    let now = read.map(|r| r.limits).unwrap_or_default();
                    self.limits(&ctx.name, &principles, &terms.declared, &now);
                }
                Err(e) => self.unreadable(Some(&ctx.name), &principles, e),
            }
        }
        if self.readable(Some(&ctx.name), &ctx.baseline_path()) {
            let base = terms.baseline.as_ref();
            self.baseline(&ctx.name, &ctx.baseline_path(), base, &ctx.owned);
        }
    }

    /// The owned directories removed and added on the branch.
    fn sources(&mut self, base: &Context, now: &Context) {
        let file = base.file("context.yaml");
        for dir in base.owned.iter().filter(|d| !now.owned.contains(d)) {
            let sides = (Some(TermValue::Text(relpath::shown(dir).to_string())), None);
            let term = Term::Source { taken_from: vec![] };
            self.push(Some(&base.name), &file, term, sides);
        }
        for dir in now.owned.iter().filter(|d| !base.owned.contains(d)) {
            let taken_from = self.taken_from(std::slice::from_ref(dir), &base.dir);
            let sides = (None, Some(TermValue::Text(relpath::shown(dir).to_string())));
            self.push(Some(&base.name), &file, Term::Source { taken_from }, sides);
        }
    }

    /// The `exclude` globs removed and added on the branch.
    fn exclude(&mut self, base: &Context, now: &Context) {
        let file = base.file("context.yaml");
        let (was, is) = (base.exclude.patterns(), now.exclude.patterns());
        for glob in was.iter().filter(|g| !is.contains(g)) {
            let sides = (Some(TermValue::Text(glob.clone())), None);
            self.push(Some(&base.name), &file, Term::Exclude, sides);
        }
        for glob in is.iter().filter(|g| !was.contains(g)) {
            let sides = (None, Some(TermValue::Text(glob.clone())));
            self.push(Some(&base.name), &file, Term::Exclude, sides);
        }
    }

    /// Every key of principles.md, compared.
    fn limits(&mut self, context: &str, file: &str, base: &Limits, now: &Limits) {
        let (base, now) = (limit_terms(base), limit_terms(now));
        let keys: BTreeSet<&Term> = base.keys().chain(now.keys()).collect();
        for key in keys {
            let sides = (base.get(key).cloned(), now.get(key).cloned());
            self.push(Some(context), file, key.clone(), sides);
        }
    }

    /// The baseline file, or its header and entries one by one when both sides hold one.
    /// `owned` are the context's owned directories at the base.
    fn baseline(&mut self, context: &str, file: &str, base: Option<&Baseline>, owned: &[String]) {
        let now = match self.branch.read(file) {
            Ok(Some(bytes)) => match tsv::parse(&bytes, file) {
                Ok(parsed) => Some(parsed.baseline),
                Err(e) => return self.unreadable(Some(context), file, e),
            },
            Ok(None) => None,
            Err(e) => return self.unreadable(Some(context), file, e),
        };
        let (Some(base), Some(now)) = (base, &now) else {
            let sides = (base.map(entries_text), now.as_ref().map(entries_text));
            return self.push(Some(context), file, Term::Baseline, sides);
        };
        for (term, sides) in header::changes(base, now, owned) {
            self.push(Some(context), file, term, sides);
        }
        let keys: BTreeSet<&EntryKey> = base.entries.keys().chain(now.entries.keys()).collect();
        for key in keys {
            let before = base.entries.get(key).copied();
            let before = before.or_else(|| self.moved_allowance(key));
            let now = now.entries.get(key).copied();
            let sides = (before.map(TermValue::Number), now.map(TermValue::Number));
            self.push(Some(context), file, Term::Entry(key.clone()), sides);
        }
    }

    /// What the base's terms tolerate for an entry of a renamed file: its old path's entry,
    /// in the base baseline of the context that owned the old path (as the gate judges,
    /// docs/src/reference/gate.md step 3). A rename and a refresh that moves the entries change nothing.
    fn moved_allowance(&self, key: &EntryKey) -> Option<u64> {
        let from = self.renames.get(&key.path)?;
        let old = self.base.owner(from)?.baseline.as_ref()?;
        let allowances = Allowances {
            own: None,
            renamed_from: Some((from, old)),
            ..Allowances::default()
        };
        allowances.get(&key.path, &key.unit, key.metric)
    }

    /// A `context.yaml` the branch adds (or that was no context at the base).
    fn new_contexts(&mut self, repo_name: &str) {
        let at_base: BTreeSet<String> = self
            .base
            .index
            .list
            .iter()
            .map(|c| c.file("context.yaml"))
            .collect();
        let changed = self.changed;
        let new = changed
            .iter()
            .filter(|p| relpath::file_name(p) == "context.yaml" && !at_base.contains(*p));
        for file in new {
            if !self.readable(None, file) {
                continue;
            }
            match context::read_one(self.branch, file, repo_name) {
                Ok(Some(now)) => {
                    let taken_from = self.taken_from(&now.owned, &now.dir);
                    let sides = (None, Some(owned_text(&now.owned)));
                    self.push(Some(&now.name), file, Term::Context { taken_from }, sides);
                }
                Ok(None) => {}
                Err(e) => self.unreadable(None, file, e),
            }
        }
    }

    /// The base contexts other than the one in `dir` that own any of `dirs` (the
    /// longest owned directory holding it wins, docs/src/reference/contexts.md).
    fn taken_from(&self, dirs: &[String], dir: &str) -> Vec<String> {
        let mut names: Vec<String> = dirs
            .iter()
            .filter_map(|d| self.base.index.owner(d))
            .filter(|c| c.dir != dir)
            .map(|c| c.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// `children.require_contract` of every changed README that is a contract at the
    /// base. A contract new on the branch is read from the branch by the gate (docs/src/reference/contracts.md):
    /// applied, so not listed here.
    fn contracts(&mut self, base_tree: &dyn FileSource) -> Result<()> {
        let changed = self.changed;
        for path in changed
            .iter()
            .filter(|p| contracts::is_readme(relpath::file_name(p)))
        {
            let Some(bytes) = base_tree.read(path)? else {
                continue;
            };
            let Some(before) = contracts::declared_require(&bytes) else {
                continue;
            };
            let owner = self.base.index.owner(path).map(|c| c.name.clone());
            if !self.readable(owner.as_deref(), path) {
                continue;
            }
            let now = match self.branch.read(path) {
                Ok(Some(bytes)) => contracts::declared_require(&bytes).flatten(),
                _ => None,
            };
            let sides = (before.map(TermValue::Flag), now.map(TermValue::Flag));
            self.push(owner.as_deref(), path, Term::RequireContract, sides);
        }
        Ok(())
    }
}

type Sides = (Option<TermValue>, Option<TermValue>);

/// Every key of a principles.md with its value, where it has one; each rule is one arm
/// of `judge::loosens`.
fn limit_terms(limits: &Limits) -> BTreeMap<Term, TermValue> {
    let mut terms: BTreeMap<Term, TermValue> = Metric::ALL
        .into_iter()
        .filter_map(|m| Some((Term::Limit(m), TermValue::Number(limits.limit(m)?))))
        .collect();
    terms.insert(Term::Tolerance, TermValue::Number(limits.tolerance_percent));
    if let Some(n) = limits.new_file_bytes {
        terms.insert(Term::NewFileBytes, TermValue::Number(n));
    }
    if !limits.pinned.is_empty() {
        let keys: Vec<&str> = limits.pinned.iter().map(|m| m.key()).collect();
        terms.insert(Term::Pinned, TermValue::Text(keys.join(", ")));
    }
    let count = limits.tiers.len();
    for (index, tier) in limits.tiers.iter().enumerate() {
        let paths = format!(
            "{} (tier {} of {count})",
            tier.patterns.join(", "),
            index + 1
        );
        terms.insert(Term::TierPaths(tier.name.clone()), TermValue::Text(paths));
        for (key, value) in tier.settings() {
            let term = Term::TierLimit(tier.name.clone(), key);
            terms.insert(term, TermValue::Number(value));
        }
    }
    terms
}

/// `3 entries` of a baseline.
fn entries_text(baseline: &Baseline) -> TermValue {
    let n = baseline.entries.len();
    TermValue::Text(format!("{n} {}", if n == 1 { "entry" } else { "entries" }))
}

/// Owned directories as reports show them: `src, tests` (`.` for the root).
fn owned_text(owned: &[String]) -> TermValue {
    let dirs: Vec<&str> = owned.iter().map(|d| relpath::shown(d)).collect();
    TermValue::Text(dirs.join(", "))
}

mod header;
#[cfg(test)]
mod tests;
