//! The changed files of one sandbox (docs/src/reference/gate.md steps 3–4), each read
//! and measured afresh as the branch holds it and handed to the judge: where a file goes
//! and what becomes of it (judged, left out, skipped, unmeasurable) is the judge's to say
//! (`judge::route`, `judge::skipped`, `judge::unmeasurable_hidden`, `judge/changed_file.rs`),
//! and so are its values' verdicts. This records each fate in the sandbox.

use std::collections::BTreeSet;

use anyhow::Result;

use super::ahead::{Ahead, Read, Reader};
use super::branch_tree::BranchTree;
use super::{Fate, JudgedAs, NotJudged, Sandbox};
use crate::baseline::{Allowances, Baseline};
use crate::cache::Cache;
use crate::git::{Change, ChangeKind};
use crate::judge::{self, BaseCounts, BaseVersion, Finding, Moved, SameName};
use crate::measure::{self, Imports, NoMemo, Options};
use crate::model::{FileMeasure, FileOutcome, Language, Metric, SkipReason, UnitValue};
use crate::reason::{FileReason, NotJudgedReason};
use crate::source::FileSource;
use crate::terms::{ContextTerms, Terms};

/// What judging one sandbox's changes needs.
pub(super) struct ChangedFiles<'a> {
    pub(super) terms: &'a Terms,
    base_tree: &'a dyn FileSource,
    /// Resolves eager imports in the working tree (docs/src/reference/documents.md).
    pub(super) imports: Imports<'a>,
    /// Resolves them at the base, for a document the branch may have made unmeasurable.
    base_imports: Imports<'a>,
    /// The working tree, or with `--staged` the index.
    pub(super) work: &'a BranchTree,
    pub(super) options: Options,
    /// Every path the working tree holds that differs from the base.
    pub(super) changed: BTreeSet<String>,
    /// Counts what is measured; it keeps nothing: the gate measures every file afresh
    /// (the cache in `.git` is the branch's to write, docs/src/reference/gate.md#integrity).
    pub(super) memo: &'a Cache,
    /// The base's and the branch's versions of changed files, for values at the base and
    /// moved units.
    pub(super) versions: super::moves::Versions<'a>,
    /// What was measured ahead, in parallel ([`ChangedFiles::measure_ahead`]).
    pub(super) ahead: Ahead,
}

impl<'a> ChangedFiles<'a> {
    pub(super) fn new(
        terms: &'a Terms,
        base_tree: &'a dyn FileSource,
        work: &'a BranchTree,
        options: Options,
        changes: &[Change],
        memo: &'a Cache,
    ) -> ChangedFiles<'a> {
        ChangedFiles {
            terms,
            base_tree,
            imports: Imports::new(work.source(), options.max_file_size),
            base_imports: Imports::new(base_tree, options.max_file_size),
            work,
            options,
            changed: changed_paths(changes),
            memo,
            versions: super::moves::Versions::new(base_tree, work.source(), options, changes),
            ahead: Ahead::default(),
        }
    }

    /// Judges one changed file, lists it where it is skipped, left out (unless the
    /// base had it there already) or unmeasurable, and notes what became of it.
    pub(super) fn change(&self, sb: &mut Sandbox, change: &Change) -> Result<()> {
        let fate = self.judge_change(sb, change)?;
        let path = change.path.as_str();
        match &fate {
            Fate::Skipped(reason) => sb.skipped.push(FileReason::new(path, reason.clone())),
            Fate::LeftOut(reason) if judge::lists_left_out(&change.kind, reason) => {
                sb.left_out.push(FileReason::new(path, reason.clone()));
            }
            Fate::Unmeasurable(reason) => {
                sb.unmeasurable.push(FileReason::new(path, reason.clone()));
            }
            _ => {}
        }
        sb.files.push((change.path.clone(), fate));
        Ok(())
    }

    /// Judges one changed file, if a judged context (at the base) owns it; says what
    /// became of it.
    fn judge_change(&self, sb: &mut Sandbox, change: &Change) -> Result<Fate> {
        let route = judge::route(self.terms, change);
        sb.renamed.extend(route.renamed);
        match route.to {
            Ok((owner, from)) => {
                self.measure(sb, owner, &change.path, from.as_deref(), &change.kind)
            }
            Err(fate) => Ok(fate),
        }
    }

    /// Measures a changed file as the working tree holds it and judges its values.
    fn measure(
        &self,
        sb: &mut Sandbox,
        owner: &ContextTerms,
        path: &str,
        from: Option<&str>,
        kind: &ChangeKind,
    ) -> Result<Fate> {
        let read = match self.ahead.take(path) {
            Some(read) => read?,
            None => self.reader().read(path, from)?,
        };
        let (header_at_base, claims_generated, binary, outcome) = match read {
            Read::Unread(reason) => return Ok(Fate::Skipped(reason)),
            Read::File {
                header_at_base,
                claims_generated,
                binary,
                outcome,
            } => (
                header_at_base,
                claims_generated,
                binary,
                outcome.map(|o| *o),
            ),
        };
        Ok(match outcome {
            Some(FileOutcome::Measured(m)) => {
                let at_base = || self.hidden_at_base(path, from);
                if let Some(hidden) = judge::unmeasurable_hidden(&m, at_base)? {
                    return Ok(Fate::Unmeasurable(hidden));
                }
                sb.judged.insert(path.to_string());
                if judge::generated_claim(header_at_base, claims_generated) {
                    sb.generated_claims.push(path.to_string());
                }
                self.judge_measured(sb, owner, &m, from, *kind == ChangeKind::Added)?;
                Fate::Judged {
                    how: JudgedAs::of(kind),
                    context: owner.context.name.clone(),
                }
            }
            Some(FileOutcome::Skipped { reason, .. }) => {
                self.skipped(path, from, reason, binary)?
            }
            Some(FileOutcome::LeftOut { reason, .. }) => Fate::LeftOut(reason),
            None => Fate::NotMeasured,
        })
    }

    /// What reading and measuring a changed file needs, borrowed.
    pub(super) fn reader(&self) -> Reader<'_> {
        Reader {
            terms: self.terms,
            base_tree: self.base_tree,
            work: self.work,
            imports: &self.imports,
            options: self.options,
            memo: self.memo,
        }
    }

    /// A file the measurer skipped, as the judge rules on it ([`judge::skipped`]), by
    /// what its version at the base came to.
    pub(super) fn skipped(
        &self,
        path: &str,
        from: Option<&str>,
        reason: SkipReason,
        binary: bool,
    ) -> Result<Fate> {
        judge::skipped(reason, binary, || {
            Ok(match self.at_base(path, from)? {
                None => BaseVersion::Absent,
                Some(FileOutcome::Measured(_)) => BaseVersion::Measured,
                Some(_) => BaseVersion::NotMeasured,
            })
        })
    }

    /// Judges every value of a measured file (its warnings go to the report too). A
    /// same-name group with an entry is judged by its count at the base (the base's
    /// version measured only then, docs/src/reference/gate.md#integrity).
    fn judge_measured(
        &self,
        sb: &mut Sandbox,
        owner: &ContextTerms,
        m: &FileMeasure,
        from: Option<&str>,
        new: bool,
    ) -> Result<()> {
        let path = &m.path;
        let warnings = m.warnings.iter().chain(&m.syntax_errors);
        sb.warnings.extend(warnings.map(|w| format!("{path}: {w}")));
        note_changed_imports(self, sb, owner, m);
        note_unjudged_anonymous(sb, owner, m);
        let values = m.values();
        let (moved, moves) = self.versions.moved_in(owner, path, from, &values);
        let moved = moved.as_ref();
        let mut findings = judge_file(self.terms, owner, from, new, moved, |allowances| {
            let has_entry = |unit: &str, metric| allowances.get(path, unit, metric).is_some();
            let counts = match judge::needs_base_counts(m, has_entry) {
                true => self.base_counts(path, from, &moves)?,
                false => None,
            };
            Ok(judge::grouped(m, counts.as_ref(), has_entry))
        })?;
        self.versions.set_base_values(&mut findings, from, &moves);
        sb.findings.extend(findings);
        sb.moved.extend(moves);
        Ok(())
    }

    /// How many units of each name the base's version of the file (at its old path, for a
    /// rename) holds: none of any where the base has no such file, `None` (not counted)
    /// where the base's version wasn't measured. A unit moved in counts as many as its
    /// name had in the file it left (docs/src/reference/baseline.md#moved-units).
    fn base_counts(
        &self,
        path: &str,
        from: Option<&str>,
        moves: &[Moved],
    ) -> Result<Option<BaseCounts>> {
        let mut counts = match self.at_base(path, from)? {
            None => BaseCounts::default(),
            Some(FileOutcome::Measured(base)) => BaseCounts::of(&base),
            Some(_) => return Ok(None),
        };
        for m in moves {
            if let Some(FileOutcome::Measured(old)) = self.at_base(&m.from, None)? {
                counts.add_moved(&BaseCounts::of(&old), &m.unit);
            }
        }
        Ok(Some(counts))
    }

    /// True when the base's version of the file already held code the compiler may read
    /// differently from the grammar (a preprocessor directive inside a C# block comment,
    /// a Java Unicode escape of a delimiter): the gate then judges it as before
    /// (docs/src/reference/gate.md#integrity).
    fn hidden_at_base(&self, path: &str, from: Option<&str>) -> Result<bool> {
        Ok(matches!(
            self.at_base(path, from)?,
            Some(FileOutcome::Measured(m)) if judge::hidden_code(&m).is_some()
        ))
    }

    /// The base's version of the file (at its old path, for a rename), measured (a
    /// document with what it loads at the base); `None` when the base has none.
    fn at_base(&self, path: &str, from: Option<&str>) -> Result<Option<FileOutcome>> {
        let at = from.unwrap_or(path);
        Ok(match self.base_tree.read(at)? {
            None => None,
            Some(old) => {
                let imports = self.terms.reads_imports(at).then_some(&self.base_imports);
                measure::measure_file_in(imports, &NoMemo, at, &old, &self.options)
            }
        })
    }
}

/// Says, once per context, that a judged file's anonymous-function units are not judged
/// where the context's baseline predates them (docs/src/reference/baseline.md#units).
fn note_unjudged_anonymous(sb: &mut Sandbox, owner: &ContextTerms, m: &FileMeasure) {
    if !judge::leaves_anonymous_unjudged(owner, m) {
        return;
    }
    let detail = crate::baseline::predating_units_note(&owner.context.name);
    if !sb.not_judged.iter().any(|n| n.detail == detail) {
        sb.not_judged.push(NotJudged {
            reason: NotJudgedReason::BaselinePredatesUnits,
            detail,
        });
    }
}

/// Judges the values of a file owned by `owner`: a renamed file's units are tolerated by
/// its old path's entries too, in the baseline of the context that owned the old path,
/// and units moved in from other files by the entries they carry (`moved`).
/// A file `new` since the base is judged by the new-file limit (docs/src/reference/documents.md#pins-and-tiers). Every judged
/// value is kept: the merge sorts excesses, divergences and what can tighten from the
/// rest.
/// `values` are given the allowances they are judged with (a same-name group's count
/// depends on its entry).
pub(super) fn judge_file(
    terms: &Terms,
    owner: &ContextTerms,
    from: Option<&str>,
    new: bool,
    moved: Option<&Baseline>,
    values: impl FnOnce(&Allowances) -> Result<Vec<(UnitValue, Option<SameName>)>>,
) -> Result<Vec<Finding>> {
    let Some(limits) = owner.limits.as_ref() else {
        return Ok(Vec::new());
    };
    let old_owner = from.and_then(|from| Some((from, terms.owner(from)?)));
    let renamed_from = old_owner.and_then(|(from, o)| Some((from, o.baseline.as_ref()?)));
    let renamed_limits =
        old_owner.and_then(|(from, o)| Some(o.limits.as_ref()?.for_file(from, false)));
    let allowances = Allowances {
        own: owner.baseline.as_ref(),
        renamed_from,
        accepted: owner.branch_baseline.as_ref(),
        renamed_limits: renamed_limits.as_ref(),
        moved,
    };
    let values = values(&allowances)?;
    Ok(judge::file_grouped(limits, &values, &allowances, new))
}

/// The paths the working tree holds that differ from the base: added, modified, the new
/// paths of renamed files and links new or retargeted (what an import can newly reach or
/// grow by).
pub(super) fn changed_paths(changes: &[Change]) -> BTreeSet<String> {
    changes
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                ChangeKind::Added
                    | ChangeKind::Modified
                    | ChangeKind::Renamed { .. }
                    | ChangeKind::Link
            )
        })
        .map(|c| c.path.clone())
        .collect()
}

/// Records, for a measured Markdown document judged for `loaded_bytes`, the changed files
/// among those it loads, and for one judged for `chain_bytes`, the changed files among
/// those of its chain (docs/src/reference/documents.md#chains). Gives which of the two metrics reach a changed file.
pub(super) fn note_changed_imports(
    judging: &ChangedFiles,
    sb: &mut Sandbox,
    owner: &ContextTerms,
    m: &FileMeasure,
) -> Vec<Metric> {
    let limited = |metric| {
        owner
            .limits
            .as_ref()
            .is_some_and(|l| l.limit(metric).is_some())
    };
    let changed_of = |files: &[String], links: &[String]| -> Vec<String> {
        let mut changed: Vec<String> = files
            .iter()
            .chain(links)
            .filter(|p| judging.changed.contains(*p))
            .cloned()
            .collect();
        changed.sort();
        changed.dedup();
        changed
    };
    let mut reached = Vec::new();
    if let Some(loaded) = m.loaded.as_ref().filter(|_| limited(Metric::LoadedBytes)) {
        let changed = changed_of(&loaded.imports, &loaded.links);
        if !changed.is_empty() {
            sb.imports_changed.push((m.path.clone(), changed));
            reached.push(Metric::LoadedBytes);
        }
    }
    if let Some(chain) = m.chain.as_ref().filter(|_| limited(Metric::ChainBytes)) {
        let changed = changed_of(&chain.files, &[]);
        if !changed.is_empty() {
            sb.chain_changed.push((m.path.clone(), changed));
            reached.push(Metric::ChainBytes);
        }
    }
    reached
}

impl ChangedFiles<'_> {
    /// Reads and measures, in parallel, every change that [`ChangedFiles::change`] will
    /// measure, for it to take.
    pub(super) fn measure_ahead(&self, changes: &[Change]) {
        let wanted: Vec<(&str, Option<&str>)> = changes
            .iter()
            .filter_map(|c| self.will_measure(c))
            .collect();
        self.ahead.measure(&self.reader(), &wanted);
    }

    /// The path and old path of a change that judging will measure: owned by a judged
    /// context whose limits apply to its language, added, modified or renamed, and left
    /// out by no path rule.
    fn will_measure<'c>(&self, change: &'c Change) -> Option<(&'c str, Option<&'c str>)> {
        let path = change.path.as_str();
        let from = match &change.kind {
            ChangeKind::Renamed { from } => Some(from.as_str()),
            ChangeKind::Added | ChangeKind::Modified => None,
            _ => return None,
        };
        let owner = self.terms.owner(path)?;
        let language = Language::of_path(path)?;
        let judged = judge::unjudged(owner).is_none()
            && judge::limits_apply(owner.limits.as_ref(), language)
            && measure::left_out_by_path(path).is_none();
        judged.then_some((path, from))
    }
}
