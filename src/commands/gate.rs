//! `structgate gate` (SPEC §6): base → terms at the base → changed files → measured as
//! the working tree holds them → the one judge → a report value.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::git::{BaseResolution, ChangeKind, Repo};
use crate::judge::{Finding, Status};
use crate::measure::{self, Options};
use crate::model::{FileOutcome, Language, UnitValue};
use crate::source::{FileSource, WorkTree};
use crate::terms::{self, ContextTerms, Terms};

pub struct Request {
    pub cwd: PathBuf,
    pub sandboxes: Vec<PathBuf>,
    pub bases: Vec<String>,
    pub start: Option<String>,
    pub options: Options,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateStatus {
    Passed,
    Failed,
    NotJudged,
}

impl GateStatus {
    pub fn key(self) -> &'static str {
        match self {
            GateStatus::Passed => "passed",
            GateStatus::Failed => "failed",
            GateStatus::NotJudged => "not_judged",
        }
    }
}

/// One context as the gate saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextState {
    pub name: String,
    pub judged: bool,
    pub reason: Option<String>,
}

/// A reason the gate judged nothing (or not everything).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJudged {
    pub reason: String,
    pub detail: String,
}

#[derive(Debug, Clone)]
pub struct GateReport {
    pub status: GateStatus,
    pub base: Option<String>,
    /// How the base was found, e.g. `merge-base of HEAD and main`.
    pub base_via: Option<String>,
    pub judged_files: usize,
    pub contexts: Vec<ContextState>,
    pub excesses: Vec<Finding>,
    pub divergences: Vec<Finding>,
    pub not_judged: Vec<NotJudged>,
    pub skipped: Vec<(String, String)>,
    pub left_out: Vec<(String, String)>,
    pub renamed: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

/// What one sandbox contributed.
#[derive(Default)]
struct Sandbox {
    /// True once the changed files were listed and judged.
    ran: bool,
    base: Option<(String, String)>,
    contexts: Vec<ContextState>,
    judged: BTreeSet<String>,
    findings: Vec<Finding>,
    not_judged: Vec<NotJudged>,
    skipped: Vec<(String, String)>,
    left_out: Vec<(String, String)>,
    renamed: Vec<(String, String)>,
    warnings: Vec<String>,
}

impl Sandbox {
    fn not_judged(reason: &str, detail: String) -> Sandbox {
        Sandbox {
            not_judged: vec![NotJudged {
                reason: reason.to_string(),
                detail,
            }],
            ..Sandbox::default()
        }
    }
}

pub fn run(request: &Request) -> Result<GateReport> {
    let dirs: Vec<PathBuf> = if request.sandboxes.is_empty() {
        vec![request.cwd.clone()]
    } else {
        request
            .sandboxes
            .iter()
            .map(|d| request.cwd.join(d))
            .collect()
    };
    let several = dirs.len() > 1;
    let mut sandboxes = Vec::new();
    for dir in &dirs {
        sandboxes.push(judge_sandbox(dir, request, several)?);
    }
    Ok(merge(sandboxes))
}

fn judge_sandbox(dir: &Path, request: &Request, several: bool) -> Result<Sandbox> {
    let repo = Repo::discover(dir)?;
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        bail!(
            "{}: a bare repository has no working tree to judge",
            dir.display()
        );
    };
    let reason = if several {
        "a sandbox has no comparable base of its own"
    } else {
        "no comparable base"
    };
    if repo.head_commit()?.is_none() {
        let detail = format!("{}: HEAD has no commit yet", workdir.display());
        return Ok(Sandbox::not_judged(reason, detail));
    }
    let (base, via) = match repo.resolve_base(&request.bases, request.start.as_deref())? {
        BaseResolution::Found {
            commit,
            via,
            from_start,
        } => {
            let how = if from_start {
                format!("--start {via}: no merge-base with any base tried")
            } else {
                format!("merge-base of HEAD and {via}")
            };
            (commit, how)
        }
        BaseResolution::NotFound { tried } => {
            let detail = format!("no merge-base of HEAD with {}", tried.join(", "));
            let detail = if several {
                format!("{}: {detail}", workdir.display())
            } else {
                detail
            };
            return Ok(Sandbox::not_judged(reason, detail));
        }
    };
    let repo_name = crate::commands::dir_name(&workdir);
    let tree = repo.tree_source(&base)?;
    let terms = terms::load(&tree, &repo_name, &[])?;
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
    let work = WorkTree::new(workdir);
    sandbox.ran = true;
    for change in changes {
        judge_change(
            &mut sandbox,
            &terms,
            &tree,
            &work,
            &change,
            &request.options,
        )?;
    }
    Ok(sandbox)
}

fn context_states(terms: &Terms) -> Vec<ContextState> {
    terms
        .contexts
        .iter()
        .map(|c| {
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
        })
        .collect()
}

/// Judges one changed file, if a judged context owns it.
fn judge_change(
    sb: &mut Sandbox,
    terms: &Terms,
    base_tree: &dyn FileSource,
    work: &WorkTree,
    change: &crate::git::Change,
    options: &Options,
) -> Result<()> {
    let path = change.path.as_str();
    let from = match &change.kind {
        ChangeKind::Deleted => return Ok(()),
        ChangeKind::Renamed { from } => Some(from.as_str()),
        ChangeKind::Added | ChangeKind::Modified => None,
        ChangeKind::Submodule => {
            if terms.owner(path).is_some_and(ContextTerms::judged) {
                let reason = "submodule: not descended into, its changes are not judged";
                sb.skipped.push((path.to_string(), reason.to_string()));
            }
            return Ok(());
        }
    };
    let Some(owner) = terms.owner(path).filter(|c| c.judged()) else {
        return Ok(());
    };
    if Language::of_path(path).is_none() {
        return Ok(());
    }
    if let Some(from) = from {
        sb.renamed.push((from.to_string(), path.to_string()));
    }
    let is_new = !matches!(change.kind, ChangeKind::Modified);
    if let Some(reason) = measure::left_out_by_path(path) {
        if is_new {
            sb.left_out.push((path.to_string(), reason.to_string()));
        }
        return Ok(());
    }
    let Some(bytes) = work.read(path)? else {
        sb.skipped.push((
            path.to_string(),
            "not a regular file (symbolic links are not followed)".to_string(),
        ));
        return Ok(());
    };
    let base_path = from.unwrap_or(path);
    let base_header = match base_tree.read(base_path)? {
        Some(old) => measure::generated_header(&String::from_utf8_lossy(&old)),
        None => true,
    };
    let options = Options {
        honour_generated_header: base_header,
        ..*options
    };
    match measure::measure_file(path, &bytes, &options) {
        Some(FileOutcome::Measured(m)) => {
            sb.judged.insert(path.to_string());
            sb.warnings
                .extend(m.warnings.iter().map(|w| format!("{path}: {w}")));
            for value in m.values() {
                if let Some(f) = judge_value(terms, owner, &value, from) {
                    sb.findings.push(f);
                }
            }
        }
        Some(FileOutcome::Skipped { reason, .. }) => {
            sb.skipped.push((path.to_string(), reason.to_string()))
        }
        Some(FileOutcome::LeftOut { reason, .. }) if is_new => {
            sb.left_out.push((path.to_string(), reason.to_string()));
        }
        Some(FileOutcome::LeftOut { .. }) | None => {}
    }
    Ok(())
}

/// Judges a value; a renamed file's units are tolerated by its old path's entries in the
/// baseline of the context that owned the old path.
fn judge_value(
    terms: &Terms,
    owner: &ContextTerms,
    value: &UnitValue,
    from: Option<&str>,
) -> Option<Finding> {
    let mut allowance = owner.allowance(&value.path, &value.unit, value);
    if let Some(from) = from {
        let file_name = value.path.rsplit('/').next().unwrap_or(&value.path);
        let old_name = from.rsplit('/').next().unwrap_or(from);
        let unit = if value.unit == file_name && is_file_metric(value) {
            old_name
        } else {
            value.unit.as_str()
        };
        let old = terms
            .owner(from)
            .and_then(|c| c.allowance(from, unit, value));
        allowance = allowance.max(old);
    }
    owner
        .judge_with(value, allowance)
        .filter(|f| matches!(f.status, Status::Divergence | Status::Excess))
}

fn is_file_metric(value: &UnitValue) -> bool {
    matches!(
        value.metric,
        crate::model::Metric::FileLines | crate::model::Metric::TypesPerFile
    )
}

/// Folds the sandboxes into one report; a unit seen in two counts once, at the worse
/// value.
fn merge(sandboxes: Vec<Sandbox>) -> GateReport {
    let mut worst: BTreeMap<(String, String, crate::model::Metric), Finding> = BTreeMap::new();
    let mut report = GateReport {
        status: GateStatus::NotJudged,
        base: sandboxes
            .iter()
            .find_map(|s| s.base.as_ref().map(|b| b.0.clone())),
        base_via: sandboxes
            .iter()
            .find_map(|s| s.base.as_ref().map(|b| b.1.clone())),
        judged_files: 0,
        contexts: Vec::new(),
        excesses: Vec::new(),
        divergences: Vec::new(),
        not_judged: Vec::new(),
        skipped: Vec::new(),
        left_out: Vec::new(),
        renamed: Vec::new(),
        warnings: Vec::new(),
    };
    let mut judged = BTreeSet::new();
    let ran = sandboxes.iter().any(|s| s.ran);
    for sb in sandboxes {
        for f in sb.findings {
            let key = (f.path.clone(), f.unit.clone(), f.metric);
            let keep = worst
                .get(&key)
                .is_none_or(|w| (f.value, f.status) > (w.value, w.status));
            if keep {
                worst.insert(key, f);
            }
        }
        judged.extend(sb.judged);
        merge_contexts(&mut report.contexts, sb.contexts);
        report.not_judged.extend(sb.not_judged);
        report.skipped.extend(sb.skipped);
        report.left_out.extend(sb.left_out);
        report.renamed.extend(sb.renamed);
        report.warnings.extend(sb.warnings);
    }
    for list in [
        &mut report.skipped,
        &mut report.left_out,
        &mut report.renamed,
    ] {
        list.sort();
        list.dedup();
    }
    report.warnings.sort();
    report.warnings.dedup();
    report.judged_files = judged.len();
    for f in worst.into_values() {
        match f.status {
            Status::Excess => report.excesses.push(f),
            _ => report.divergences.push(f),
        }
    }
    report.status = if !report.excesses.is_empty() {
        GateStatus::Failed
    } else if ran {
        GateStatus::Passed
    } else {
        GateStatus::NotJudged
    };
    report
}

fn merge_contexts(into: &mut Vec<ContextState>, from: Vec<ContextState>) {
    for c in from {
        match into.iter_mut().find(|i| i.name == c.name) {
            Some(existing) if c.judged && !existing.judged => *existing = c,
            Some(_) => {}
            None => into.push(c),
        }
    }
}
