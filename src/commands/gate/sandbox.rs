//! One working tree judged: its base, the terms at that base, its changed files.

use std::path::Path;

use anyhow::{bail, Result};

use super::judged::Judged;
use super::{docs, ContextState, NotJudged, Request, Sandbox};
use crate::cache::Cache;
use crate::git::{Change, Repo};
use crate::judge;
use crate::reason::NotJudgedReason;
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
    let mut found = match super::base::find(&repo, &workdir, request, several)? {
        Ok(found) => found,
        Err(not_judged) => return Ok(not_judged),
    };
    let base = found.commit.clone();
    let tree = repo.tree_source(&base)?;
    let repo_name = crate::commands::dir_name(&workdir);
    let mut terms = terms::load(&tree, &repo_name, &[])?;
    let judged = judges(&terms);
    if !judged {
        super::base::look_for_judging_bases(&repo, &mut found, &repo_name)?;
    }
    let mut sandbox = Sandbox {
        base: Some((base.clone(), found.via.clone())),
        contexts: context_states(&terms),
        warnings: base_warnings(&terms, &tree)?,
        not_judged: no_judged_context(judged, &found),
        bases: found.bases,
        ..Sandbox::default()
    };
    let work = Judged::open(&repo, &workdir, request.staged)?;
    let growth = (request.accept_growth, work.source());
    read_branch_baselines(&mut terms, growth, &mut sandbox.warnings)?;
    let only = request.only.as_deref();
    let Some(changes) = list_changes(&repo, &work, (&base, only), &mut sandbox) else {
        return Ok(sandbox);
    };
    if only.is_none() {
        sandbox.contracts = super::contracts::check(&tree, &work, &changes)?;
    }
    let branch = (work.source(), request.options.max_file_size);
    sandbox.terms_changed =
        super::review::terms_changed(&terms, &tree, branch, &changes, &repo_name)?;
    if !judged {
        return Ok(sandbox);
    }
    sandbox.ran = true;
    // Measured afresh: no cache for what the gate judges (docs/src/reference/gate.md#integrity).
    let cache = Cache::open(None, false);
    let judging =
        super::judging::Judging::new(&terms, &tree, &work, request.options, &changes, &cache);
    let judged = judge_all(&judging, &mut sandbox, &changes, only.is_none());
    sandbox.cache = cache.finish();
    judged.map(|()| sandbox)
}

/// Judges every change, then, with `importers`, the documents whose imports changed
/// (docs/src/reference/documents.md).
fn judge_all(
    judging: &super::judging::Judging,
    sandbox: &mut Sandbox,
    changes: &[Change],
    importers: bool,
) -> Result<()> {
    for change in changes {
        judging.change(sandbox, change)?;
    }
    if !importers {
        return Ok(());
    }
    docs::judge_importers(judging, sandbox)
}

/// The files changed since `base` (only those at the `only` paths, when given), or
/// `None` after noting that git couldn't list them.
fn list_changes(
    repo: &Repo,
    work: &Judged,
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

/// True when some context has Limits and a baseline in `terms`.
pub(super) fn judges(terms: &Terms) -> bool {
    terms.contexts.iter().any(|c| judge::unjudged(c).is_none())
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

/// The base's warnings, with every directory its `context.yaml` files name that the base's
/// tree doesn't hold: reported, not fatal, since the base's terms are what they are.
fn base_warnings(terms: &Terms, tree: &dyn crate::source::FileSource) -> Result<Vec<String>> {
    let mut warnings = terms.all_warnings();
    for ctx in &terms.contexts {
        for missing in crate::context::missing_sources(tree, &ctx.context)? {
            warnings.push(format!(
                "{missing} at the base: its context owns nothing there"
            ));
        }
    }
    Ok(warnings)
}
