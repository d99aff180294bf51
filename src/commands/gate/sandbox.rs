//! One working tree judged: its base, the terms at that base, its changed files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{ContextState, NotJudged, Request, Sandbox};
use crate::cache::Cache;
use crate::git::{BaseResolution, Change, ChangeKind, Repo};
use crate::judge::{Finding, Status};
use crate::measure::{self, Options};
use crate::model::{FileOutcome, Language, Metric, UnitValue};
use crate::source::{FileSource, WorkTree};
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
    let (base, via) = match find_base(&repo, &workdir, request, several)? {
        Ok(found) => found,
        Err(not_judged) => return Ok(not_judged),
    };
    let tree = repo.tree_source(&base)?;
    let terms = terms::load(&tree, &crate::commands::dir_name(&workdir), &[])?;
    let mut sandbox = Sandbox {
        base: Some((base.clone(), via)),
        contexts: context_states(&terms),
        warnings: terms.warnings.clone(),
        ..Sandbox::default()
    };
    if !terms.contexts.iter().any(ContextTerms::judged) {
        sandbox.not_judged.push(NotJudged {
            reason: "no context with Limits and a baseline at the merge-base".to_string(),
            detail: format!("base {base}"),
        });
        return Ok(sandbox);
    }
    let changes = match repo.changes(&base) {
        Ok(changes) => changes,
        Err(e) => {
            sandbox.not_judged.push(NotJudged {
                reason: "git couldn't list the changed files".to_string(),
                detail: format!("{e:#}"),
            });
            return Ok(sandbox);
        }
    };
    sandbox.ran = true;
    let judging = Judging {
        terms: &terms,
        base_tree: &tree,
        work: WorkTree::new(workdir),
        options: request.options,
        cache: Cache::open(Some(&repo), request.cache),
    };
    for change in &changes {
        judging.change(&mut sandbox, change)?;
    }
    sandbox.cache = judging.cache.finish();
    Ok(sandbox)
}

/// The base commit and how it was found, or the not-judged sandbox that says why not.
fn find_base(
    repo: &Repo,
    workdir: &Path,
    request: &Request,
    several: bool,
) -> Result<Result<(String, String), Sandbox>> {
    let reason = if several {
        "a sandbox has no comparable base of its own"
    } else {
        "no comparable base"
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
    Ok(
        match repo.resolve_base(&request.bases, request.start.as_deref())? {
            BaseResolution::Found {
                commit,
                via,
                from_start: false,
            } => Ok((commit, format!("merge-base of HEAD and {via}"))),
            BaseResolution::Found {
                commit,
                via,
                from_start: true,
            } => Ok((
                commit,
                format!("--start {via}; no merge-base with any base tried"),
            )),
            BaseResolution::NotFound { tried } => {
                let detail = within(format!("no merge-base of HEAD with {}", tried.join(", ")));
                Err(Sandbox::not_judged(reason, detail))
            }
        },
    )
}

fn context_states(terms: &Terms) -> Vec<ContextState> {
    let state = |c: &ContextTerms| {
        let reason = match (&c.limits, &c.baseline) {
            (None, _) => Some("no Limits at the merge-base"),
            (Some(_), None) => Some("no baseline at the merge-base"),
            _ => None,
        };
        ContextState {
            name: c.context.name.clone(),
            judged: reason.is_none(),
            reason: reason.map(str::to_string),
        }
    };
    terms.contexts.iter().map(state).collect()
}

/// What judging one sandbox's changes needs.
struct Judging<'a> {
    terms: &'a Terms,
    base_tree: &'a dyn FileSource,
    work: WorkTree,
    options: Options,
    cache: Cache,
}

impl Judging<'_> {
    /// Judges one changed file, if a judged context (at the base) owns it.
    fn change(&self, sb: &mut Sandbox, change: &Change) -> Result<()> {
        let path = change.path.as_str();
        let Some(owner) = self.terms.owner(path).filter(|c| c.judged()) else {
            return Ok(());
        };
        let from = match &change.kind {
            ChangeKind::Deleted => return Ok(()),
            ChangeKind::Renamed { from } => Some(from.as_str()),
            ChangeKind::Added | ChangeKind::Modified => None,
            ChangeKind::Submodule => {
                let reason = "submodule: not descended into, its changes are not judged";
                sb.skipped.push((path.to_string(), reason.to_string()));
                return Ok(());
            }
        };
        if Language::of_path(path).is_none() {
            return Ok(());
        }
        if let Some(from) = from {
            sb.renamed.push((from.to_string(), path.to_string()));
        }
        let is_new = change.kind != ChangeKind::Modified;
        if let Some(reason) = measure::left_out_by_path(path) {
            if is_new {
                sb.left_out.push((path.to_string(), reason.to_string()));
            }
            return Ok(());
        }
        self.measure(sb, owner, path, from, is_new)
    }

    /// Measures a changed file as the working tree holds it and judges its values.
    fn measure(
        &self,
        sb: &mut Sandbox,
        owner: &ContextTerms,
        path: &str,
        from: Option<&str>,
        is_new: bool,
    ) -> Result<()> {
        let Some(bytes) = self.work.read(path)? else {
            let reason = "not a regular file (symbolic links are not followed)";
            sb.skipped.push((path.to_string(), reason.to_string()));
            return Ok(());
        };
        let options = Options {
            honour_generated_header: self.generated_at_base(from.unwrap_or(path))?,
            ..self.options
        };
        match self.cache.measure_file(path, &bytes, &options) {
            Some(FileOutcome::Measured(m)) => {
                sb.judged.insert(path.to_string());
                sb.warnings
                    .extend(m.warnings.iter().map(|w| format!("{path}: {w}")));
                let judged = m.values().into_iter();
                sb.findings
                    .extend(judged.filter_map(|v| judge_value(self.terms, owner, &v, from)));
            }
            Some(FileOutcome::Skipped { reason, .. }) => {
                sb.skipped.push((path.to_string(), reason.to_string()));
            }
            Some(FileOutcome::LeftOut { reason, .. }) if is_new => {
                sb.left_out.push((path.to_string(), reason.to_string()));
            }
            Some(FileOutcome::LeftOut { .. }) | None => {}
        }
        Ok(())
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
/// baseline of the context that owned the old path. Only divergences and excesses are
/// kept.
fn judge_value(
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
    owner
        .judge_with(value, allowance)
        .filter(|f| matches!(f.status, Status::Divergence | Status::Excess))
}

/// The unit's name at the old path: file-level units are named by the file's name.
fn old_unit_name(value: &UnitValue, from: &str) -> String {
    let file_level = matches!(value.metric, Metric::FileLines | Metric::TypesPerFile);
    if file_level {
        PathBuf::from(from)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(from)
            .to_string()
    } else {
        value.unit.clone()
    }
}
