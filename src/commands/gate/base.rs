//! The gate's base (SPEC §6 step 1, §6.1): the commit found by the git feed, how it was
//! found, or the not-judged line that says why there is none.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use super::{Request, Sandbox};
use crate::git::{BaseResolution, Repo};
use crate::reason::NotJudgedReason;

/// The base commit and how it was found, or the not-judged sandbox that says why not.
pub(super) fn find(
    repo: &Repo,
    workdir: &Path,
    request: &Request,
    several: bool,
) -> Result<Result<(String, String), Sandbox>> {
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
    if repo.head_commit()?.is_none() {
        let detail = within("HEAD has no commit yet".to_string());
        return Ok(Err(Sandbox::not_judged(reason, detail)));
    }
    let resolved = repo.resolve_base(&request.bases, request.start.as_deref())?;
    Ok(match resolved {
        BaseResolution::Found {
            commit,
            via,
            from_start,
            newer,
        } => Ok((commit, found_via(&via, from_start, newer.as_deref()))),
        BaseResolution::NotFound {
            bad_start: Some(start),
            ..
        } => {
            let detail = within(format!("--start {start} does not name a commit"));
            Err(Sandbox::not_judged(reason, detail))
        }
        BaseResolution::NotFound { tried, skipped, .. } => {
            let mut detail = format!("no merge-base of HEAD with {}", tried.join(", "));
            for (rev, name) in &skipped {
                let _ = write!(detail, " ({rev} skipped: it is {name}, this branch's own)");
            }
            if repo.is_shallow() {
                detail.push_str(&shallow_hint(&tried));
            }
            Err(Sandbox::not_judged(reason, within(detail)))
        }
    })
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

/// What to do about a base lost to a shallow clone (SPEC §6 "not judged is never
/// silent"): the merge-base may lie beyond the history the clone holds, and a
/// single-branch clone has no remote-tracking base branch at all.
fn shallow_hint(tried: &[String]) -> String {
    let branch = tried
        .iter()
        .filter_map(|rev| rev.strip_prefix("origin/"))
        .find(|b| *b != "HEAD")
        .unwrap_or("BRANCH");
    format!(
        " in this shallow clone: fetch the base branch and the history down to the \
         merge-base (`git fetch --unshallow origin {branch}:refs/remotes/origin/{branch}`; \
         in GitHub Actions, `fetch-depth: 0` in actions/checkout)"
    )
}
