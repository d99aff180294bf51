//! One working tree judged: its base, the terms at that base, its changed files.

use std::path::Path;

use anyhow::{bail, Result};

use super::branch_tree::BranchTree;
use super::{docs, ContextState, NotJudged, Request, Sandbox};
use crate::cache::Cache;
use crate::git::{Change, ChangeKind, Repo, TreeSource};
use crate::judge::{self, TermsFrom};
use crate::reason::NotJudgedReason;
use crate::source::FileSource;
use crate::terms::{self, ContextTerms, Terms};

/// Judges the working tree holding `dir`: one sandbox.
pub(super) fn run(dir: &Path, request: &Request, several: bool) -> Result<Sandbox> {
    let repo = Repo::discover(dir)?;
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        bail!(
            "{}: a bare repository has no working tree to judge",
            dir.display()
        );
    };
    let found = match super::base::find(&repo, &workdir, request, several)? {
        Ok(found) => found,
        Err(not_judged) => return Ok(not_judged),
    };
    let at_head = found.at_head;
    let (at, mut sandbox) = AtBase::read(&repo, &workdir, request, found)?;
    let only = request.only.as_deref();
    let Some(changes) = list_changes(&repo, &at.work, (&at.base, only), &mut sandbox) else {
        return Ok(sandbox);
    };
    if only.is_none() {
        sandbox.contracts = super::contracts::check(&at.tree, &at.work, &changes)?;
    }
    if at.from == TermsFrom::Base {
        // On adoption the branch's terms are applied: not listed as changes not applied.
        // Judged by the base's terms, `at.terms` are those (the branch's baselines that
        // `--accept-growth` adds to them are no terms the review compares).
        let branch = (at.work.source(), request.options.max_file_size);
        sandbox.terms_changed =
            super::review::terms_changed(&at.terms, &at.tree, branch, &changes, &at.repo_name)?;
    }
    if !judge::judges_any(&at.terms.contexts) {
        return Ok(sandbox);
    }
    sandbox.ran = true;
    // Measured afresh: no cache for what the gate judges (docs/src/reference/gate.md#integrity).
    let cache = Cache::open(None, false);
    let judging = super::changed_files::ChangedFiles::new(
        &at.terms,
        &at.tree,
        &at.work,
        request.options,
        &changes,
        &cache,
    );
    let judged = judge_all(&judging, &mut sandbox, &changes, only.is_none());
    sandbox.cache = cache.finish();
    judged?;
    if at_head {
        head_itself(&repo, request, &changes, &mut sandbox, (&workdir, several))?;
    }
    Ok(sandbox)
}

/// A run whose base is HEAD itself that judged nothing is not judged, `base-is-head`
/// (docs/src/reference/gate.md#base); `sandbox` at `workdir` says so.
fn head_itself(
    repo: &Repo,
    request: &Request,
    changes: &[Change],
    sandbox: &mut Sandbox,
    (workdir, several): (&Path, bool),
) -> Result<()> {
    let since = judge::SinceHead {
        bounded: request.staged || request.start.is_some() || request.only.is_some(),
        judged: sandbox.judged_anything(),
        tracked_change: tracked_change(repo, changes)?,
    };
    if judge::base_is_head(true, since) {
        sandbox.ran = false;
        let entry = super::base::base_is_head(workdir, several);
        sandbox.not_judged.push(entry);
    }
    Ok(())
}

/// The base and the terms a sandbox is judged by.
struct AtBase {
    base: String,
    tree: TreeSource,
    repo_name: String,
    /// The working tree, or with `--staged` the index.
    work: BranchTree,
    /// The terms judged by: the base's, or the branch's on adoption.
    terms: Terms,
    from: TermsFrom,
}

impl AtBase {
    /// Reads the terms at the base `found` (or the branch's, on adoption), and the sandbox
    /// that says what they are: its contexts, warnings, and why nothing is judged when no
    /// context has Limits and a baseline.
    fn read(
        repo: &Repo,
        workdir: &Path,
        request: &Request,
        mut found: super::base::Found,
    ) -> Result<(AtBase, Sandbox)> {
        let base = found.commit.clone();
        let tree = repo.tree_source(&base)?;
        let repo_name = crate::commands::dir_name(workdir);
        let base_terms = terms::load(&tree, &repo_name, &[])?;
        let work = BranchTree::open(repo, workdir, request.staged)?;
        let mut warnings = Vec::new();
        let (mut terms, from) = judging_terms(base_terms, &work, &repo_name, &mut warnings)?;
        let judged = judge::judges_any(&terms.contexts);
        if !judged {
            super::base::look_for_judging_bases(repo, &mut found, &repo_name)?;
        }
        let source: &dyn FileSource = match from {
            TermsFrom::Base => &tree,
            TermsFrom::Branch => work.source(),
        };
        warnings.extend(base_warnings(&terms, source)?);
        let growth = (request.accept_growth, work.source());
        read_branch_baselines(&mut terms, growth, &mut warnings)?;
        let terms_warnings = judge::terms_warnings(&terms.contexts);
        let mut not_judged = no_judged_context(judged, &found);
        not_judged.extend(terms_warnings.iter().filter_map(partly_judged));
        let sandbox = Sandbox {
            base: Some((base.clone(), found.via.clone())),
            contexts: context_states(&terms),
            warnings,
            not_judged,
            bases: found.bases,
            terms_from: from,
            terms_warnings,
            ..Sandbox::default()
        };
        let at = AtBase {
            base,
            tree,
            repo_name,
            work,
            terms,
            from,
        };
        Ok((at, sandbox))
    }
}

/// True when a change is more than an untracked file: a tracked file modified, deleted or
/// renamed, a submodule moved, or a new file staged.
fn tracked_change(repo: &Repo, changes: &[Change]) -> Result<bool> {
    let untracked_kind = |c: &&Change| matches!(c.kind, ChangeKind::Added | ChangeKind::Link);
    if !changes.iter().all(|c| untracked_kind(&c)) {
        return Ok(true);
    }
    if changes.is_empty() {
        return Ok(false);
    }
    let index = repo.index_source()?;
    let staged: std::collections::BTreeSet<String> =
        index.entries().into_iter().map(|e| e.path).collect();
    Ok(changes.iter().any(|c| staged.contains(&c.path)))
}

/// Judges every change, then, with `importers`, the documents whose imports changed
/// (docs/src/reference/documents.md).
fn judge_all(
    judging: &super::changed_files::ChangedFiles,
    sandbox: &mut Sandbox,
    changes: &[Change],
    importers: bool,
) -> Result<()> {
    judging.measure_ahead(changes);
    for change in changes {
        judging.change(sandbox, change)?;
    }
    if importers {
        docs::judge_importers(judging, sandbox)?;
    }
    sandbox.judged_through_importers();
    Ok(())
}

/// The terms the gate judges by, and whose they are: the base's, or on the adoption pull
/// request (no context at the base has terms) the branch's own when they judge
/// (docs/src/reference/gate.md#adoption). Branch terms that don't read adopt nothing, and
/// say why.
fn judging_terms(
    base: Terms,
    work: &BranchTree,
    repo_name: &str,
    warnings: &mut Vec<String>,
) -> Result<(Terms, TermsFrom)> {
    if !judge::base_has_no_terms(&base.contexts) {
        return Ok((base, TermsFrom::Base));
    }
    let branch = match terms::load(work.source(), repo_name, &[]) {
        Ok(branch) => branch,
        Err(e) => {
            warnings.push(format!(
                "the terms this branch adds do not read, so they judge nothing: {e:#}"
            ));
            return Ok((base, TermsFrom::Base));
        }
    };
    Ok(
        match judge::terms_from(&base.contexts, Some(&branch.contexts)) {
            TermsFrom::Branch => (branch, TermsFrom::Branch),
            TermsFrom::Base => (base, TermsFrom::Base),
        },
    )
}

/// The files changed since `base` (only those at the `only` paths, when given), or
/// `None` after noting that git couldn't list them.
fn list_changes(
    repo: &Repo,
    work: &BranchTree,
    (base, only): (&str, Option<&[String]>),
    sandbox: &mut Sandbox,
) -> Option<Vec<Change>> {
    match work.changes(repo, base, only) {
        Ok(changes) => Some(changes),
        Err(e) => {
            sandbox.not_judged.push(NotJudged {
                reason: NotJudgedReason::GitFailed,
                detail: format!("{e:#}"),
            });
            None
        }
    }
}

/// The `no-judged-context` entry, when no context has Limits and a baseline at the base.
fn no_judged_context(judged: bool, found: &super::base::Found) -> Vec<NotJudged> {
    let detail = || super::base::no_judged_context_detail(found);
    let reason = NotJudgedReason::NoJudgedContext;
    (!judged)
        .then(|| NotJudged {
            reason,
            detail: detail(),
        })
        .into_iter()
        .collect()
}

/// The `not_judged` entry of a terms warning that leaves a limit out of force: judged,
/// but not by every term (docs/src/reference/gate.md#terms-warnings).
fn partly_judged(w: &judge::TermsWarning) -> Option<NotJudged> {
    Some(NotJudged {
        reason: w.kind.partly_judged()?,
        detail: crate::report::terms::not_judged_detail(w),
    })
}

/// `--accept-growth`: each judged context's baseline as the branch holds it, beside the
/// base's (docs/src/reference/documents.md#pins-and-tiers). One that doesn't read is a warning and honours nothing. Without
/// the flag (`growth.0` false) nothing is read.
fn read_branch_baselines(
    terms: &mut Terms,
    growth: (bool, &dyn crate::source::FileSource),
    warnings: &mut Vec<String>,
) -> Result<()> {
    let (accept, work) = growth;
    if !accept {
        return Ok(());
    }
    for c in &mut terms.contexts {
        let path = c.context.baseline_path();
        let Some(bytes) = work.read(&path)? else {
            continue;
        };
        match crate::baseline::tsv::parse(&bytes, &path) {
            Ok(parsed) => c.branch_baseline = Some(parsed.baseline),
            Err(e) => warnings.push(format!(
                "--accept-growth: the branch's baseline does not read, no growth accepted: {e}"
            )),
        }
    }
    Ok(())
}

fn context_states(terms: &Terms) -> Vec<ContextState> {
    let state = |c: &ContextTerms| ContextState {
        name: c.context.name.clone(),
        not_judged: judge::unjudged(c),
    };
    terms.contexts.iter().map(state).collect()
}

/// The warnings of the terms judged by, with every directory their `context.yaml` files
/// name that their tree (the base's, or the branch's on adoption) doesn't hold: reported,
/// not fatal, since the base's terms are what they are.
fn base_warnings(terms: &Terms, tree: &dyn FileSource) -> Result<Vec<String>> {
    // A judged context's unknown Limits keys are terms warnings, in the report itself.
    let unjudged = terms
        .contexts
        .iter()
        .filter(|c| judge::unjudged(c).is_some());
    let unknown = unjudged.flat_map(|c| c.unknown_keys.iter().map(ToString::to_string));
    let mut warnings: Vec<String> = terms.warnings.iter().cloned().chain(unknown).collect();
    for ctx in &terms.contexts {
        for missing in crate::context::missing_sources(tree, &ctx.context)? {
            warnings.push(format!(
                "{missing} at the base: its context owns nothing there"
            ));
        }
    }
    Ok(warnings)
}
