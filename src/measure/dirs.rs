//! The measurer over a directory tree (stage 2 for `measure` and `baseline`): lists the
//! files under the targets the way git sees them, then measures them in parallel.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use anyhow::{bail, Context as _, Result};
use rayon::prelude::*;

use super::{left_out, measure_file_in, skipped, Imports, Memo, NoMemo, Options};
use crate::model::{FileOutcome, Language, LeftOutReason, SkipReason};
use crate::relpath::{holds, is_within, Name};
use crate::work_tree::Ignores;
use crate::work_tree::WorkTree;

/// Measures every measured-language file under `targets` (repository-relative files or
/// directories; `""` or `.` is the whole root), walking with [`crate::work_tree::builder`]
/// (git's ignore rules respected, symbolic links not followed), in parallel. Files left
/// out by path or header come back as [`FileOutcome::LeftOut`]; unreadable, non-UTF-8
/// and too large ones as [`FileOutcome::Skipped`]. Sorted by path. A target that does not
/// exist is an error naming it; a file target of another language yields nothing.
pub fn measure_tree(
    root: &Path,
    targets: &[String],
    options: &Options,
) -> Result<Vec<FileOutcome>> {
    measure_tree_with(root, targets, options, &NoProgress, &NoMemo)
}

/// Told how far a long measuring run has come (a progress bar, in `report`).
pub trait Progress: Sync {
    /// The files are listed: `files` will be measured.
    fn begin(&self, files: u64);
    /// One more file is measured.
    fn advance(&self);
    /// All are measured.
    fn end(&self);
}

/// Progress that nobody watches.
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _files: u64) {}
    fn advance(&self) {}
    fn end(&self) {}
}

/// [`measure_tree`], telling `progress` of each file measured and asking `memo` first.
/// Each file is read, parsed and its tree dropped on one thread; outcomes come back
/// sorted by path whatever the thread count.
pub fn measure_tree_with(
    root: &Path,
    targets: &[String],
    options: &Options,
    progress: &dyn Progress,
    memo: &dyn Memo,
) -> Result<Vec<FileOutcome>> {
    let tree = WorkTree::new(root);
    measure_tree_in(&tree, targets, options, progress, memo, &|_| true)
}

/// Which Markdown documents have their eager imports and chain read, by path: those a
/// context budgets them for (`crate::terms::Terms::reads_imports`).
pub type ReadsImports<'a> = &'a (dyn Fn(&str) -> bool + Sync);

/// [`measure_tree_with`] over `tree`, whose listing (walked once, see
/// [`WorkTree::files`]) also found its contexts.
pub fn measure_tree_in(
    tree: &WorkTree,
    targets: &[String],
    options: &Options,
    progress: &dyn Progress,
    memo: &dyn Memo,
    reads_imports: ReadsImports,
) -> Result<Vec<FileOutcome>> {
    let mut outcomes = Vec::new();
    let mut push = |outcome| {
        outcomes.push(outcome);
        Ok(())
    };
    measure_tree_each(
        tree,
        targets,
        options,
        progress,
        memo,
        reads_imports,
        &mut push,
    )?;
    Ok(outcomes)
}

/// [`measure_tree_in`], handing each outcome to `each` in path order as soon as it and
/// those before it are final, so a report can be written while later files are still
/// being measured; nothing is kept here beyond the few outcomes that finished before an
/// earlier one. The first error of `each` stops the run and is returned.
pub fn measure_tree_each(
    tree: &WorkTree,
    targets: &[String],
    options: &Options,
    progress: &dyn Progress,
    memo: &dyn Memo,
    reads_imports: ReadsImports,
    each: &mut (dyn FnMut(FileOutcome) -> Result<()> + Send),
) -> Result<()> {
    let handing = Handing {
        prepare: &|outcome| outcome,
        each,
    };
    measure_tree_handing(
        tree,
        targets,
        options,
        progress,
        memo,
        reads_imports,
        handing,
    )
}

/// What becomes of each measured file's outcome: `prepare` makes something of it on the
/// thread that measured it, as soon as it is measured (in any order, several at once);
/// `each` is handed what `prepare` made, one at a time, in path order.
pub struct Handing<'a, T> {
    pub prepare: &'a (dyn Fn(FileOutcome) -> T + Sync),
    pub each: &'a mut (dyn FnMut(T) -> Result<()> + Send),
}

/// [`measure_tree_each`], with what can be made of an outcome without the outcomes
/// before it (judging it) made outside the path order: only `handing.each` waits its
/// turn, so the threads don't queue for the order behind work they could do at once.
pub fn measure_tree_handing<T: Send>(
    tree: &WorkTree,
    targets: &[String],
    options: &Options,
    progress: &dyn Progress,
    memo: &dyn Memo,
    reads_imports: ReadsImports,
    handing: Handing<'_, T>,
) -> Result<()> {
    let Handing { prepare, each } = handing;
    let root = tree.root();
    let targets = normalise_targets(root, targets)?;
    let names = tree.files()?.iter().filter(|f| !f.link).map(|f| &f.name);
    let Listed { files, not_utf8 } = select(names, &targets);
    let imports = Imports::new(tree, options.max_file_size).with_memo(memo);
    let work = in_path_order(&files, &not_utf8);
    progress.begin(u64::try_from(files.len()).unwrap_or(u64::MAX));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let order = Mutex::new(InOrder {
        next: 0,
        done: BTreeMap::new(),
        each,
        error: None,
    });
    // One loop per thread taking the files in path order, so the outcomes waiting for an
    // earlier one are only those measured while it was.
    let loops = rayon::current_num_threads().clamp(1, work.len().max(1));
    (0..loops).into_par_iter().for_each(|_| {
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(rel, readable)) = work.get(i) else {
                break;
            };
            let outcome = if readable {
                let imports = reads_imports(rel).then_some(&imports);
                let outcome = measure_path(imports, memo, root, rel, options);
                progress.advance();
                outcome
            } else {
                Some(skipped(rel, SkipReason::NameNotUtf8))
            };
            let outcome = outcome.map(prepare);
            let mut order = order.lock().unwrap_or_else(PoisonError::into_inner);
            if !order.put(i, outcome) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    progress.end();
    let order = order.into_inner().unwrap_or_else(PoisonError::into_inner);
    order.error.map_or(Ok(()), Err)
}

/// The listed files by path, each with whether it can be read (a name that isn't UTF-8
/// is skipped, not read).
fn in_path_order<'a>(files: &'a BTreeSet<String>, not_utf8: &'a [String]) -> Vec<(&'a str, bool)> {
    let mut work: Vec<(&str, bool)> = files.iter().map(|f| (f.as_str(), true)).collect();
    work.extend(not_utf8.iter().map(|shown| (shown.as_str(), false)));
    work.sort_by(|a, b| a.0.cmp(b.0));
    work
}

/// Outcomes finished out of order, held until those before them are handed on.
struct InOrder<'a, T> {
    /// The index of the next outcome to hand on.
    next: usize,
    done: BTreeMap<usize, Option<T>>,
    each: &'a mut (dyn FnMut(T) -> Result<()> + Send),
    error: Option<anyhow::Error>,
}

impl<T> InOrder<'_, T> {
    /// Records outcome `i` and hands on every outcome now in order; false once `each`
    /// has failed.
    fn put(&mut self, i: usize, outcome: Option<T>) -> bool {
        self.done.insert(i, outcome);
        while let Some(outcome) = self.done.remove(&self.next) {
            self.next += 1;
            let Some(outcome) = outcome else {
                continue;
            };
            if self.error.is_none() {
                if let Err(e) = (self.each)(outcome) {
                    self.error = Some(e);
                }
            }
        }
        self.error.is_none()
    }
}

/// Targets as clean repository-relative paths (`""` for the root), each checked to exist.
fn normalise_targets(root: &Path, targets: &[String]) -> Result<Vec<String>> {
    let mut clean = Vec::new();
    for target in targets {
        let mut parts = Vec::new();
        for part in target.split(['/', '\\']) {
            match part {
                "" | "." => {}
                ".." => bail!("target {target:?} leaves the repository"),
                _ => parts.push(part),
            }
        }
        if Path::new(target).is_absolute() {
            bail!("target {target:?} is not relative to the repository");
        }
        let rel = parts.join("/");
        let abs = if rel.is_empty() {
            root.to_path_buf()
        } else {
            root.join(&rel)
        };
        std::fs::symlink_metadata(&abs).with_context(|| format!("target {target:?}"))?;
        clean.push(rel);
    }
    Ok(clean)
}

/// The files of a measured language under the targets that git doesn't ignore.
#[derive(Default)]
struct Listed {
    /// By path.
    files: BTreeSet<String>,
    /// Those whose path isn't UTF-8, as [`crate::relpath::Name::NotUtf8`] shows them: they
    /// cannot be named in a baseline or a report, so they are skipped, and said so.
    not_utf8: Vec<String>,
}

/// Every file of a measured language under the targets that git doesn't ignore (a
/// tracked one never is: `ignores` hide untracked files alone), walking only what is on
/// the way to a target.
fn list_files(root: &Path, targets: &[String], ignores: Ignores) -> Result<Listed> {
    let mut builder = crate::work_tree::builder(root, ignores);
    let filter_root = root.to_path_buf();
    let filter_targets = targets.to_vec();
    builder.filter_entry(move |entry| {
        entry.file_name() != ".git"
            && crate::relpath::rel_name(&filter_root, entry.path())
                .is_ok_and(|rel| on_target_path(rel.shown(), &filter_targets))
    });
    let mut names = Vec::new();
    for entry in builder.build() {
        let entry = entry.with_context(|| format!("listing {}", root.display()))?;
        if entry.file_type().is_some_and(|t| t.is_file()) {
            names.push(crate::relpath::rel_name(root, entry.path())?);
        }
    }
    let seen: BTreeSet<&str> = names.iter().map(Name::shown).collect();
    let listed = |shown: &str| seen.contains(shown);
    let wanted = |rel: &str| under_a_target(rel, targets);
    let hidden = crate::work_tree::hidden_tracked(root, listed, wanted)?;
    let hidden = hidden.into_iter().filter(|h| !h.link).map(|h| h.name);
    let hidden: Vec<Name> = hidden.collect();
    Ok(select(names.iter().chain(&hidden), targets))
}

/// The regular files among `names` of a measured language under a target.
fn select<'a>(names: impl Iterator<Item = &'a Name>, targets: &[String]) -> Listed {
    let mut listed = Listed::default();
    for name in names {
        let rel = name.shown();
        if Language::of_path(rel).is_none() || !under_a_target(rel, targets) {
            continue;
        }
        match name {
            Name::Utf8(rel) => {
                listed.files.insert(rel.clone());
            }
            Name::NotUtf8(shown) => listed.not_utf8.push(shown.clone()),
        }
    }
    listed
}

/// Whether the walk must enter `rel`: it is under a target or on the way to one.
fn on_target_path(rel: &str, targets: &[String]) -> bool {
    rel.is_empty() || targets.iter().any(|t| is_within(rel, t) || holds(rel, t))
}

fn under_a_target(rel: &str, targets: &[String]) -> bool {
    targets.iter().any(|t| is_within(rel, t))
}

/// Every file of a measured language under `targets` (as [`measure_tree`] takes them)
/// that git doesn't ignore (`ignores` hide untracked files alone), without measuring
/// them; sorted.
pub fn list_measured(root: &Path, targets: &[String], ignores: Ignores) -> Result<Vec<String>> {
    let targets = normalise_targets(root, targets)?;
    Ok(list_files(root, &targets, ignores)?
        .files
        .into_iter()
        .collect())
}

/// The generated-code header in the first bytes of the file at `abs` (past
/// `--max-file-size`, so not read whole), when one leaves it out.
fn header_of_large(abs: &Path, rel: &str, options: &Options) -> Option<LeftOutReason> {
    use std::io::Read as _;
    let file = std::fs::File::open(abs).ok()?;
    let mut head = Vec::new();
    let limit = u64::try_from(super::HEADER_SCAN_BYTES).unwrap_or(u64::MAX);
    file.take(limit).read_to_end(&mut head).ok()?;
    super::generated_by_header(rel, &head, options)
}

/// Measures one listed file: path rules and size before reading it.
fn measure_path(
    imports: Option<&Imports>,
    memo: &dyn Memo,
    root: &Path,
    rel: &str,
    options: &Options,
) -> Option<FileOutcome> {
    if let Some(reason) = super::left_out_by_path(rel) {
        return Some(left_out(rel, reason));
    }
    if let Some(outcome) = memo.recall(rel, options) {
        // A document whose imports are read needs its bytes still (measure_file_in).
        let document =
            matches!(&outcome, FileOutcome::Measured(m) if m.language == Language::Markdown);
        if imports.is_none() || !document {
            return Some(outcome);
        }
    }
    let abs = root.join(rel);
    let size = match std::fs::symlink_metadata(&abs) {
        Ok(meta) => meta.len(),
        Err(e) => return Some(skipped(rel, SkipReason::Unreadable(e.to_string()))),
    };
    if size > options.max_file_size {
        // A generated file past the size is left out as generated: its header is read.
        if let Some(reason) = header_of_large(&abs, rel, options) {
            return Some(left_out(rel, reason));
        }
        let max = options.max_file_size;
        return Some(skipped(rel, SkipReason::TooLarge { size, max }));
    }
    match std::fs::read(&abs) {
        Ok(bytes) => measure_file_in(imports, memo, rel, &bytes, options),
        Err(e) => Some(skipped(rel, SkipReason::Unreadable(e.to_string()))),
    }
}
