//! The gate's base (docs/src/reference/gate.md step 1, docs/src/reference/gate.md#integrity): the commit found by the git feed, how it was
//! found, every base considered on the way, or the not-judged line that says why there is
//! none. A `--base` list none of whose revisions names a commit is a usage error.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Result};

use super::{BaseTried, NotJudged, Request, Sandbox};
use crate::git::{BaseOutcome, BaseResolution, BaseTrial, Repo};
use crate::reason::NotJudgedReason;

/// The base found: its commit, how it was found, the bases considered.
pub(super) struct Found {
    pub commit: String,
    pub via: String,
    /// The base revision whose merge-base was taken (`None` when `--start` is the base).
    pub rev: Option<String>,
    /// The base is HEAD itself: only what the working tree (or the index) changed since
    /// HEAD is compared (docs/src/reference/gate.md#base).
    pub at_head: bool,
    pub bases: Vec<BaseTried>,
}

/// The base commit and how it was found, or the not-judged sandbox that says why not.
pub(super) fn find(
    repo: &Repo,
    workdir: &Path,
    request: &Request,
    several: bool,
) -> Result<Result<Found, Sandbox>> {
    let reason = if several {
        NotJudgedReason::SandboxNoBase
    } else {
        NotJudgedReason::NoComparableBase
    };
    let within = |detail: String| {
        if several {
            format!("{}: {detail}", workdir.display())
        } else {
            detail
        }
    };
    let Some(head) = repo.head_commit()? else {
        let detail = within("HEAD has no commit yet".to_string());
        return Ok(Err(Sandbox::not_judged(reason, detail)));
    };
    let (resolved, trials) = repo.resolve_base_traced(&request.bases, request.start.as_deref())?;
    if !request.bases.is_empty() {
        refuse_unknown_bases(repo, &trials)?;
    }
    let bases: Vec<BaseTried> = trials.iter().cloned().map(BaseTried::from).collect();
    let not_judged = |detail: String| Sandbox {
        bases: bases.clone(),
        ..Sandbox::not_judged(reason, within(detail))
    };
    Ok(match resolved {
        BaseResolution::Found {
            commit,
            via,
            from_start,
            newer,
        } => Ok(Found {
            at_head: commit == head,
            commit,
            via: found_via(&via, from_start, newer.as_deref()),
            rev: (!from_start).then_some(via),
            bases,
        }),
        BaseResolution::NotFound { bad_start, .. } => {
            Err(not_judged(not_found_detail(repo, &trials, bad_start)))
        }
    })
}

/// The `base-is-head` entry (docs/src/reference/gate.md#base): how to judge a push instead;
/// with several working trees, naming the one at `dir`.
pub(super) fn base_is_head(dir: &Path, several: bool) -> NotJudged {
    let advice = "on a push, pass --base with the commit before the push";
    NotJudged {
        reason: NotJudgedReason::BaseIsHead,
        detail: if several {
            format!("{}: {advice}", dir.display())
        } else {
            advice.to_string()
        },
    }
}

/// Why no base was found, and what to do about it.
fn not_found_detail(repo: &Repo, trials: &[BaseTrial], bad_start: Option<String>) -> String {
    if let Some(start) = bad_start {
        return format!("--start {start} does not name a commit");
    }
    let mut detail = no_base_detail(trials);
    if repo.is_shallow() {
        detail.push_str(&shallow_hint(repo, trials));
    } else if trials.iter().all(|t| t.outcome != BaseOutcome::NoMergeBase) {
        detail.push_str("; fetch the base branch, or name one with --base <branch>");
    }
    detail
}

/// docs/src/reference/gate.md step 1: a `--base` list none of whose revisions names a commit is a typo or a
/// branch not fetched, not a change without a base: exit 2, naming them.
fn refuse_unknown_bases(repo: &Repo, trials: &[BaseTrial]) -> Result<()> {
    if trials.iter().any(|t| t.outcome != BaseOutcome::NotFound) {
        return Ok(());
    }
    let revs: Vec<&str> = trials.iter().map(|t| t.rev.as_str()).collect();
    let fetch = fetch_hint(repo, &revs);
    let repository = if repo.is_shallow() {
        "this shallow clone"
    } else {
        "this repository"
    };
    match revs.as_slice() {
        [rev] => bail!(
            "--base {rev} does not resolve: no branch, tag or commit of that name in \
             {repository}{fetch}"
        ),
        _ => bail!(
            "no --base resolves: no branch, tag or commit named {} in {repository}{fetch}",
            revs.join(", ")
        ),
    }
}

/// ` (a remote branch is fetched first: git fetch origin develop)` for the first of `revs`
/// that names a branch of a known remote (in a shallow clone, with the history down to
/// the merge-base); empty otherwise.
fn fetch_hint(repo: &Repo, revs: &[&str]) -> String {
    let remotes = repo.remotes();
    let remote_branch = revs.iter().find_map(|rev| {
        let (remote, branch) = rev.split_once('/')?;
        remotes
            .iter()
            .any(|r| r == remote)
            .then_some((remote, branch))
    });
    match remote_branch {
        Some((remote, branch)) if repo.is_shallow() => format!(
            " (a remote branch is fetched first, with the history down to the merge-base: \
             `git fetch --unshallow {remote} {branch}:refs/remotes/{remote}/{branch}`; in \
             GitHub Actions, `fetch-depth: 0` in actions/checkout)"
        ),
        Some((remote, branch)) => {
            format!(" (a remote branch is fetched first: git fetch {remote} {branch})")
        }
        None => String::new(),
    }
}

/// `no merge-base of HEAD with A, B (not found: C, D)`, or, when no base names a commit,
/// `no base found: C, D name no commit`; then the default bases skipped as the branch's
/// own.
fn no_base_detail(trials: &[BaseTrial]) -> String {
    let revs = |wanted: fn(&BaseOutcome) -> bool| -> Vec<&str> {
        let of = trials.iter().filter(|t| wanted(&t.outcome));
        of.map(|t| t.rev.as_str()).collect()
    };
    let unrelated = revs(|o| *o == BaseOutcome::NoMergeBase);
    let missing = revs(|o| *o == BaseOutcome::NotFound);
    let mut detail = if unrelated.is_empty() {
        format!("no base found: {} name no commit", missing.join(", "))
    } else if missing.is_empty() {
        format!("no merge-base of HEAD with {}", unrelated.join(", "))
    } else {
        format!(
            "no merge-base of HEAD with {} (not found: {})",
            unrelated.join(", "),
            missing.join(", ")
        )
    };
    for trial in trials {
        if let BaseOutcome::OwnBranch { name } = &trial.outcome {
            let rev = &trial.rev;
            let _ = write!(detail, " ({rev} skipped: it is {name}, this branch's own)");
        }
    }
    detail
}

/// `merge-base of HEAD and main`, `--start REV; no merge-base with any base tried`, or
/// `--start REV; the merge-base of HEAD and main is not an ancestor of it`.
fn found_via(via: &str, from_start: bool, newer: Option<&str>) -> String {
    match (from_start, newer) {
        (false, _) => format!("merge-base of HEAD and {via}"),
        (true, None) => format!("--start {via}; no merge-base with any base tried"),
        (true, Some(rev)) => {
            format!("--start {via}; the merge-base of HEAD and {rev} is not an ancestor of it")
        }
    }
}

/// What to do about a base lost to a shallow clone (docs/src/reference/gate.md "not judged is never
/// silent"): the merge-base may lie beyond the history the clone holds, and a
/// single-branch clone has no remote-tracking base branch at all. Names the branch of the
/// first base that exists (`origin/HEAD` → the branch it points at), `BRANCH` when none
/// does.
fn shallow_hint(repo: &Repo, trials: &[BaseTrial]) -> String {
    let (remote, branch) = trials
        .iter()
        .filter(|t| t.outcome == BaseOutcome::NoMergeBase)
        .find_map(|t| remote_branch(repo, &t.rev))
        .unwrap_or_else(|| ("origin".to_string(), "BRANCH".to_string()));
    format!(
        " in this shallow clone: fetch the base branch and the history down to the \
         merge-base (`git fetch --unshallow {remote} {branch}:refs/remotes/{remote}/{branch}`; \
         in GitHub Actions, `fetch-depth: 0` in actions/checkout)"
    )
}

/// The remote and branch `rev` stands for: `refs/remotes/R/B` → (R, B), a local branch
/// `refs/heads/B` → (`origin`, B).
fn remote_branch(repo: &Repo, rev: &str) -> Option<(String, String)> {
    let name = repo.ref_target(rev)?;
    if let Some(branch) = name.strip_prefix("refs/heads/") {
        return Some(("origin".to_string(), branch.to_string()));
    }
    let (remote, branch) = name.strip_prefix("refs/remotes/")?.split_once('/')?;
    Some((remote.to_string(), branch.to_string()))
}

/// When the base taken has no context with Limits and a baseline: marks each base not
/// tried whose merge-base with HEAD has one (`--base REV` would judge). A base whose
/// terms don't read is no such base.
pub(super) fn look_for_judging_bases(
    repo: &Repo,
    found: &mut Found,
    repo_name: &str,
) -> Result<()> {
    for base in &mut found.bases {
        if base.outcome != BaseOutcome::NotTried {
            continue;
        }
        let Some(merge_base) = repo.merge_base_with_head(&base.rev)? else {
            continue;
        };
        if merge_base == found.commit {
            continue;
        }
        let tree = repo.tree_source(&merge_base)?;
        let terms = crate::terms::load(&tree, repo_name, &[]);
        if terms.is_ok_and(|t| crate::judge::judges_any(&t.contexts)) {
            base.would_judge = Some(merge_base);
        }
    }
    Ok(())
}

/// The `no-judged-context` detail (docs/src/reference/gate.md): the base and how it was found, that the
/// terms are read there, and what would judge — the adoption commit in the base branch,
/// or a `--base` that holds it (naming one, when a base not tried would judge).
pub(super) fn no_judged_context_detail(found: &Found) -> String {
    let into = found.rev.as_deref().unwrap_or("the base branch");
    let mut detail = format!(
        "base {} ({}) has none, and the gate reads its terms at the base: push or merge \
         the commit that adds them into {into}, or pass --base <branch> naming a branch \
         that holds it",
        found.commit, found.via
    );
    let judging: Vec<String> = found
        .bases
        .iter()
        .filter(|b| b.would_judge.is_some())
        .map(|b| format!("--base {}", b.rev))
        .collect();
    if !judging.is_empty() {
        let _ = write!(detail, " ({} would judge)", judging.join(" or "));
    }
    detail
}
