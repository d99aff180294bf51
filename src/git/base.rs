//! The gate's base (docs/src/reference/gate.md step 1, docs/src/reference/gate.md#integrity "the branch is never its own base"): the
//! merge-base of HEAD with the first base that shares history with it, never a default
//! base that is the current branch itself or its own remote-tracking ref, and never newer
//! than the `--start` commit. Commits are read as stored: no commit-graph file (which the
//! branch could write) answers for their parents.

use anyhow::Result;
use gix::bstr::ByteSlice;
use gix::ObjectId;

use super::{Explain as _, Repo, DEFAULT_BASES};

/// The commit graph merge-bases are found in (read from the commits themselves).
type Graph<'a, 'c> = gix::revwalk::Graph<
    'a,
    'c,
    gix::revwalk::graph::Commit<gix::revision::plumbing::merge_base::Flags>,
>;

/// How the base of a gate run was found (docs/src/reference/gate.md step 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseResolution {
    /// `commit` (full hex id) is the base. `via` is the revision as given that produced
    /// it: a base (`main`, `origin/HEAD`) whose merge-base with HEAD is `commit`, or, when
    /// `from_start` is true, the `--start` revision, which is then the base itself.
    Found {
        commit: String,
        via: String,
        from_start: bool,
        /// With `from_start`: the base whose merge-base with HEAD was set aside because it
        /// is not an ancestor of the `--start` commit (`None`: no base gave a merge-base).
        newer: Option<String>,
    },
    /// No base gave a merge-base with HEAD (and `--start` was absent), or `--start` names
    /// no commit.
    NotFound {
        /// The bases tried, in order (not the `--start` revision).
        tried: Vec<String>,
        /// Default bases not tried, each with the ref it resolves to: the current branch
        /// or its own remote-tracking ref.
        skipped: Vec<(String, String)>,
        /// The `--start` revision, when it names no commit.
        bad_start: Option<String>,
    },
}

/// One base the gate considered, in the order tried, and what became of it (`gate -v`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTrial {
    /// The revision as given (`origin/HEAD`, `--base` REV).
    pub rev: String,
    pub outcome: BaseOutcome,
}

/// What became of one base tried (docs/src/reference/gate.md step 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseOutcome {
    /// Its merge-base with HEAD (full hex id) is the base.
    Taken { merge_base: String },
    /// Its merge-base with HEAD is not an ancestor of the `--start` commit, which is the
    /// base instead (docs/src/reference/gate.md#integrity).
    NewerThanStart { merge_base: String },
    /// A default base that resolves to `name`, the current branch or its own
    /// remote-tracking ref: never the branch's own base (docs/src/reference/gate.md#integrity).
    OwnBranch { name: String },
    /// Names no commit in the repository.
    NotFound,
    /// A commit that shares no history with HEAD.
    NoMergeBase,
    /// Not tried: an earlier base was taken.
    NotTried,
}

impl Repo {
    /// docs/src/reference/gate.md step 1 and docs/src/reference/gate.md#integrity: the merge-base of HEAD with the first of `bases` (or,
    /// when empty, [`DEFAULT_BASES`] other than the branch's own refs) that resolves to a
    /// commit and shares history with HEAD. With `start`, that merge-base only when it is
    /// an ancestor of `start` (or `start` itself), and `start` otherwise.
    pub fn resolve_base(&self, bases: &[String], start: Option<&str>) -> Result<BaseResolution> {
        Ok(self.resolve_base_traced(bases, start)?.0)
    }

    /// [`Repo::resolve_base`], with every base considered and what became of it, in order.
    pub fn resolve_base_traced(
        &self,
        bases: &[String],
        start: Option<&str>,
    ) -> Result<(BaseResolution, Vec<BaseTrial>)> {
        let mut trials = Vec::new();
        let resolution = self.resolve_with(bases, start, &mut trials)?;
        if matches!(&resolution, BaseResolution::Found { newer: Some(_), .. }) {
            for trial in &mut trials {
                if let BaseOutcome::Taken { merge_base } = &trial.outcome {
                    trial.outcome = BaseOutcome::NewerThanStart {
                        merge_base: merge_base.clone(),
                    };
                }
            }
        }
        Ok((resolution, trials))
    }

    /// The merge-base of HEAD with `rev` (full hex id); `None` when `rev` names no commit
    /// or shares no history with HEAD.
    pub fn merge_base_with_head(&self, rev: &str) -> Result<Option<String>> {
        let (Some(head), Some(commit)) = (self.head_id()?, self.resolve_commit(rev)?) else {
            return Ok(None);
        };
        let mut graph = self.repo.revision_graph(None);
        let base = self
            .repo
            .merge_base_with_graph(commit, head, &mut graph)
            .explain(|| format!("finding the merge-base of HEAD and {rev}"))?;
        Ok(base.map(|b| b.detach().to_string()))
    }

    /// The full name of the ref `rev` names, symbolic refs followed (`origin/HEAD` →
    /// `refs/remotes/origin/main`); `None` when `rev` is no ref name.
    pub fn ref_target(&self, rev: &str) -> Option<String> {
        self.final_ref_name(rev)
    }

    /// The names of the repository's remotes (`origin`, ...).
    pub fn remotes(&self) -> Vec<String> {
        let names = self.repo.remote_names();
        names.iter().map(|r| r.to_string()).collect()
    }

    fn resolve_with(
        &self,
        bases: &[String],
        start: Option<&str>,
        trials: &mut Vec<BaseTrial>,
    ) -> Result<BaseResolution> {
        let (revs, own): (Vec<String>, Vec<String>) = if bases.is_empty() {
            let defaults = DEFAULT_BASES.iter().map(|s| s.to_string()).collect();
            (defaults, self.own_refs()?)
        } else {
            (bases.to_vec(), Vec::new())
        };
        let mut graph = self.repo.revision_graph(None);
        let search = self.first_merge_base(revs, &own, &mut graph)?;
        trials.clone_from(&search.trials);
        let not_found = |bad_start: Option<String>| BaseResolution::NotFound {
            tried: search.tried.clone(),
            skipped: search.skipped.clone(),
            bad_start,
        };
        let Some(start) = start else {
            return Ok(match search.found {
                Some((base, rev)) => found_at(base, rev, false, None),
                None => not_found(None),
            });
        };
        let Some(start_id) = self.resolve_commit(start)? else {
            return Ok(not_found(Some(start.to_string())));
        };
        let Some((base, rev)) = search.found else {
            return Ok(found_at(start_id, start.to_string(), true, None));
        };
        let within = self
            .repo
            .merge_base_with_graph(base, start_id, &mut graph)
            .explain(|| format!("finding the merge-base of {rev} and --start {start}"))?;
        Ok(if within.is_some_and(|w| w.detach() == base) {
            found_at(base, rev, false, None)
        } else {
            found_at(start_id, start.to_string(), true, Some(rev))
        })
    }

    /// The merge-base of HEAD with the first of `revs` that gives one, skipping those
    /// that resolve to one of the `own` refs.
    fn first_merge_base(
        &self,
        revs: Vec<String>,
        own: &[String],
        graph: &mut Graph<'_, '_>,
    ) -> Result<Search> {
        let mut search = Search::default();
        let head = self.head_id()?;
        for rev in revs {
            if search.found.is_some() {
                search.trial(rev, BaseOutcome::NotTried);
                continue;
            }
            if let Some(name) = self.final_ref_name(&rev).filter(|n| own.contains(n)) {
                search.skipped.push((rev.clone(), name.clone()));
                search.trial(rev, BaseOutcome::OwnBranch { name });
                continue;
            }
            search.tried.push(rev.clone());
            let Some(commit) = self.resolve_commit(&rev)? else {
                search.trial(rev, BaseOutcome::NotFound);
                continue;
            };
            let Some(head) = head else {
                search.trial(rev, BaseOutcome::NoMergeBase);
                continue;
            };
            let base = self
                .repo
                .merge_base_with_graph(commit, head, graph)
                .explain(|| format!("finding the merge-base of HEAD and {rev}"))?;
            match base {
                Some(base) => {
                    let merge_base = base.detach();
                    let outcome = BaseOutcome::Taken {
                        merge_base: merge_base.to_string(),
                    };
                    search.trial(rev.clone(), outcome);
                    search.found = Some((merge_base, rev));
                }
                None => search.trial(rev, BaseOutcome::NoMergeBase),
            }
        }
        Ok(search)
    }

    /// The full names of the refs a default base must not resolve to: the current branch
    /// and its remote-tracking refs (`refs/remotes/REMOTE/BRANCH` for every remote, and
    /// its configured upstream's). Empty on a detached HEAD, and when the current branch
    /// is itself named like a default base (on `main` the gate judges `main` against
    /// itself).
    fn own_refs(&self) -> Result<Vec<String>> {
        let head = self
            .repo
            .head_name()
            .explain(|| format!("{}: reading HEAD", self.dir.display()))?;
        let Some(head) = head else {
            return Ok(Vec::new());
        };
        let Some(branch) = head
            .as_bstr()
            .strip_prefix(b"refs/heads/")
            .and_then(|b| b.to_str().ok())
        else {
            return Ok(Vec::new());
        };
        if DEFAULT_BASES.contains(&branch) {
            return Ok(Vec::new());
        }
        let mut own = vec![head.as_bstr().to_string()];
        let mut remotes: Vec<String> = self
            .repo
            .remote_names()
            .iter()
            .map(|r| r.to_string())
            .collect();
        remotes.push("origin".to_string());
        own.extend(remotes.iter().map(|r| format!("refs/remotes/{r}/{branch}")));
        let upstream = self
            .repo
            .branch_remote_tracking_ref_name(head.as_ref(), gix::remote::Direction::Fetch);
        if let Some(Ok(upstream)) = upstream {
            own.push(upstream.as_bstr().to_string());
        }
        Ok(own)
    }

    /// The full name of the ref `rev` names, symbolic refs followed (`origin/HEAD` →
    /// `refs/remotes/origin/main`); `None` when `rev` is no ref name.
    fn final_ref_name(&self, rev: &str) -> Option<String> {
        let mut reference = self.repo.try_find_reference(rev).ok().flatten()?;
        // A chain of symbolic refs is short; a loop is cut off.
        for _ in 0..8 {
            match reference.follow() {
                Some(Ok(next)) => reference = next,
                Some(Err(_)) => return None,
                None => break,
            }
        }
        Some(reference.name().as_bstr().to_string())
    }

    /// The commit `rev` names, tags peeled; `None` if it doesn't resolve or isn't a commit.
    pub(super) fn resolve_commit(&self, rev: &str) -> Result<Option<ObjectId>> {
        let Ok(id) = self.repo.rev_parse_single(rev.as_bytes().as_bstr()) else {
            return Ok(None);
        };
        let object = id
            .object()
            .and_then(|o| o.peel_tags_to_end())
            .explain(|| format!("reading the object {rev} names ({id})"))?;
        Ok((object.kind == gix::object::Kind::Commit).then_some(object.id))
    }
}

/// What [`Repo::first_merge_base`] found, and what it tried and skipped on the way.
#[derive(Default)]
struct Search {
    found: Option<(ObjectId, String)>,
    tried: Vec<String>,
    skipped: Vec<(String, String)>,
    trials: Vec<BaseTrial>,
}

impl Search {
    fn trial(&mut self, rev: String, outcome: BaseOutcome) {
        self.trials.push(BaseTrial { rev, outcome });
    }
}

fn found_at(
    commit: ObjectId,
    via: String,
    from_start: bool,
    newer: Option<String>,
) -> BaseResolution {
    BaseResolution::Found {
        commit: commit.to_string(),
        via,
        from_start,
        newer,
    }
}
