//! One working tree judged: its base, the terms at that base, its changed files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{docs, ContextState, NotJudged, Request, Sandbox};
use crate::cache::Cache;
use crate::git::{Change, ChangeKind, Repo};
use crate::judge::Finding;
use crate::measure::{self, Imports, Options};
use crate::model::{FileOutcome, Language, UnitValue};
use crate::source::{Entry, FileSource, WorkTree};
use crate::terms::{self, ContextTerms, Terms};

/// Judges the working tree holding `dir`.
pub(super) fn judge(dir: &Path, request: &Request, several: bool) -> Result<Sandbox> {
    let repo = Repo::discover(dir)?;
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        bail!(
            "{}: a bare repository has no working tree to judge",
            dir.display()
        );
    };
    let (base, via) = match super::base::find(&repo, &workdir, request, several)? {
        Ok(found) => found,
        Err(not_judged) => return Ok(not_judged),
    };
    let tree = repo.tree_source(&base)?;
    let repo_name = crate::commands::dir_name(&workdir);
    let terms = terms::load(&tree, &repo_name, &[])?;
    let mut sandbox = Sandbox {
        base: Some((base.clone(), via)),
        contexts: context_states(&terms),
        warnings: terms_warnings(&terms),
        ..Sandbox::default()
    };
    let judged = terms.contexts.iter().any(ContextTerms::judged);
    if !judged {
        sandbox.not_judged.push(NotJudged {
            reason: "no context with Limits and a baseline at the merge-base".to_string(),
            detail: format!("base {base}"),
        });
    }
    let Some(changes) = list_changes(&repo, &base, &mut sandbox) else {
        return Ok(sandbox);
    };
    sandbox.contracts = super::contracts::check(&tree, &workdir, &changes)?;
    let branch = WorkTree::new(&workdir);
    let branch = (&branch as &dyn FileSource, request.options.max_file_size);
    sandbox.terms_changed =
        super::review::terms_changed(&terms, &tree, branch, &changes, &repo_name)?;
    if !judged {
        return Ok(sandbox);
    }
    sandbox.ran = true;
    let work = WorkTree::new(workdir);
    let cache = Cache::open(Some(&repo), request.cache);
    let judging = Judging::new(&terms, &tree, &work, request.options, &changes, &cache);
    let judged = judge_all(&judging, &mut sandbox, &changes);
    sandbox.cache = cache.finish();
    judged.map(|()| sandbox)
}

/// Judges every change, then the documents whose imports changed (SPEC §8).
fn judge_all(judging: &Judging, sandbox: &mut Sandbox, changes: &[Change]) -> Result<()> {
    for change in changes {
        judging.change(sandbox, change)?;
    }
    docs::judge_importers(judging, sandbox)
}

/// The files changed since `base`, or `None` after noting that git couldn't list them.
fn list_changes(repo: &Repo, base: &str, sandbox: &mut Sandbox) -> Option<Vec<Change>> {
    match repo.changes(base) {
        Ok(changes) => Some(changes),
        Err(e) => {
            sandbox.not_judged.push(NotJudged {
                reason: "git couldn't list the changed files".to_string(),
                detail: format!("{e:#}"),
            });
            None
        }
    }
}

/// Reading warnings and unknown Limits keys at the base: warnings, not errors (SPEC §3).
fn terms_warnings(terms: &Terms) -> Vec<String> {
    let unknown = terms
        .contexts
        .iter()
        .flat_map(|c| c.unknown_keys.iter().cloned());
    terms.warnings.iter().cloned().chain(unknown).collect()
}

/// Why the gate doesn't judge a context; `None` when it does.
fn unjudged_reason(c: &ContextTerms) -> Option<&'static str> {
    match (&c.limits, &c.baseline) {
        (None, _) => Some("no Limits at the merge-base"),
        (Some(_), None) => Some("no baseline at the merge-base"),
        _ => None,
    }
}

fn context_states(terms: &Terms) -> Vec<ContextState> {
    let state = |c: &ContextTerms| {
        let reason = unjudged_reason(c);
        ContextState {
            name: c.context.name.clone(),
            judged: reason.is_none(),
            reason: reason.map(str::to_string),
        }
    };
    terms.contexts.iter().map(state).collect()
}

/// What judging one sandbox's changes needs.
pub(super) struct Judging<'a> {
    pub(super) terms: &'a Terms,
    base_tree: &'a dyn FileSource,
    /// Resolves eager imports in the working tree (SPEC §8).
    pub(super) imports: Imports<'a>,
    pub(super) work: &'a WorkTree,
    pub(super) options: Options,
    /// Every path the working tree holds that differs from the base.
    pub(super) changed: BTreeSet<String>,
    /// The measurement cache.
    pub(super) memo: &'a Cache,
}

impl<'a> Judging<'a> {
    fn new(
        terms: &'a Terms,
        base_tree: &'a dyn FileSource,
        work: &'a WorkTree,
        options: Options,
        changes: &[Change],
        memo: &'a Cache,
    ) -> Judging<'a> {
        Judging {
            terms,
            base_tree,
            imports: Imports::new(work, options.max_file_size),
            work,
            options,
            changed: docs::changed_paths(changes),
            memo,
        }
    }

    /// Judges one changed file and notes what became of it (for `--verbose`).
    fn change(&self, sb: &mut Sandbox, change: &Change) -> Result<()> {
        let note = self.judge_change(sb, change)?;
        sb.files.push((change.path.clone(), note));
        Ok(())
    }

    /// Judges one changed file, if a judged context (at the base) owns it; says what
    /// became of it.
    fn judge_change(&self, sb: &mut Sandbox, change: &Change) -> Result<String> {
        let path = change.path.as_str();
        let owner = match self.terms.owner(path) {
            None => return Ok("not judged: no context owns it".to_string()),
            Some(c) => match unjudged_reason(c) {
                Some(why) => {
                    return Ok(format!("not judged: context {} has {why}", c.context.name))
                }
                None => c,
            },
        };
        let from = match &change.kind {
            ChangeKind::Deleted => return Ok("not judged: deleted".to_string()),
            ChangeKind::Renamed { from } => Some(from.as_str()),
            ChangeKind::Added | ChangeKind::Modified | ChangeKind::NameNotUtf8 => None,
            ChangeKind::Submodule => {
                let reason = "submodule: not descended into, its changes are not judged";
                sb.skipped.push((path.to_string(), reason.to_string()));
                return Ok(format!("not judged: skipped: {reason}"));
            }
        };
        // A context with only code limits judges no Markdown (SPEC §8), and the reverse.
        match Language::of_path(path) {
            None => return Ok("not judged: not a measured language".to_string()),
            Some(l) if !owner.judges(l) => {
                let why = format!(
                    "not judged: no limit of context {} applies to it",
                    owner.context.name
                );
                return Ok(why);
            }
            Some(_) => {}
        }
        if change.kind == ChangeKind::NameNotUtf8 {
            let reason = crate::model::SkipReason::NameNotUtf8.to_string();
            sb.skipped.push((path.to_string(), reason.clone()));
            return Ok(format!("not judged: skipped: {reason}"));
        }
        if let Some(from) = from {
            sb.renamed.push((from.to_string(), path.to_string()));
        }
        if let Some(reason) = measure::left_out_by_path(path) {
            if change.kind != ChangeKind::Modified {
                sb.left_out.push((path.to_string(), reason.to_string()));
            }
            return Ok(format!("not judged: left out: {reason}"));
        }
        self.measure(sb, owner, path, from, &change.kind)
    }

    /// Measures a changed file as the working tree holds it and judges its values.
    fn measure(
        &self,
        sb: &mut Sandbox,
        owner: &ContextTerms,
        path: &str,
        from: Option<&str>,
        kind: &ChangeKind,
    ) -> Result<String> {
        let Some(bytes) = self.work.read(path)? else {
            let reason = self.unread_reason(path)?;
            sb.skipped.push((path.to_string(), reason.to_string()));
            return Ok(format!("not judged: skipped: {reason}"));
        };
        let options = Options {
            honour_generated_header: self.generated_at_base(from.unwrap_or(path))?,
            ..self.options
        };
        Ok(
            match measure::measure_file_in(&self.imports, self.memo, path, &bytes, &options) {
                Some(FileOutcome::Measured(m)) => {
                    sb.judged.insert(path.to_string());
                    sb.warnings
                        .extend(m.warnings.iter().map(|w| format!("{path}: {w}")));
                    docs::note_changed_imports(self, sb, owner, &m);
                    let judged = m.values().into_iter();
                    sb.findings
                        .extend(judged.filter_map(|v| judge_value(self.terms, owner, &v, from)));
                    judged_note(kind, &owner.context.name)
                }
                Some(FileOutcome::Skipped { reason, .. }) => {
                    sb.skipped.push((path.to_string(), reason.to_string()));
                    format!("not judged: skipped: {reason}")
                }
                Some(FileOutcome::LeftOut { reason, .. }) => {
                    if *kind != ChangeKind::Modified {
                        sb.left_out.push((path.to_string(), reason.to_string()));
                    }
                    format!("not judged: left out: {reason}")
                }
                None => "not judged: not a measured language".to_string(),
            },
        )
    }

    /// Why the working tree holds no file to read at a changed path.
    fn unread_reason(&self, path: &str) -> Result<&'static str> {
        Ok(match self.work.entry(path)? {
            Entry::Missing => {
                "not in the working tree (a sparse checkout or skip-worktree leaves it out)"
            }
            _ => "not a regular file (symbolic links are not followed)",
        })
    }

    /// True when the file at the base carried a generated-code header (or was not there):
    /// a header new on the branch does not exempt a file (SPEC §6 step 3).
    fn generated_at_base(&self, base_path: &str) -> Result<bool> {
        Ok(match self.base_tree.read(base_path)? {
            Some(old) => measure::generated_header(&String::from_utf8_lossy(&old)),
            None => true,
        })
    }
}

/// Judges a value; a renamed file's units are tolerated by its old path's entries in the
/// baseline of the context that owned the old path. Every judged value is kept: the
/// merge sorts excesses, divergences and what can tighten from the rest.
pub(super) fn judge_value(
    terms: &Terms,
    owner: &ContextTerms,
    value: &UnitValue,
    from: Option<&str>,
) -> Option<Finding> {
    let mut allowance = owner.allowance(&value.path, &value.unit, value);
    if let Some(from) = from {
        let old_unit = old_unit_name(value, from);
        let old = terms
            .owner(from)
            .and_then(|c| c.allowance(from, &old_unit, value));
        allowance = allowance.max(old);
    }
    owner.judge_with(value, allowance)
}

/// The unit's name at the old path: file-level units are named by the file's name.
fn old_unit_name(value: &UnitValue, from: &str) -> String {
    if value.metric.is_file_level() {
        PathBuf::from(from)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(from)
            .to_string()
    } else {
        value.unit.clone()
    }
}

/// `judged (modified; context inventory)`.
fn judged_note(kind: &ChangeKind, context: &str) -> String {
    let how = match kind {
        ChangeKind::Added => "added".to_string(),
        ChangeKind::Renamed { from } => format!("renamed from {from}"),
        _ => "modified".to_string(),
    };
    format!("judged ({how}; context {context})")
}
