//! `structgate gate` (docs/src/reference/gate.md): base → terms at the base → changed files → measured as
//! the working tree holds them → the one judge → a report value.

mod ahead;
mod base;
mod branch_tree;
mod changed_files;
mod contracts;
mod docs;
mod merge;
mod moves;
mod review;
mod sandbox;

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::cache;
use crate::git::{BaseOutcome, BaseTrial};
use crate::judge::Exit;
pub use crate::judge::{Fate, JudgedAs};
use crate::judge::{Finding, GateOutcome, Moved, TermsFrom, TermsWarning};
use crate::measure::Options;
use crate::model::{LeftOutReason, SkipReason};
use crate::reason::{FileReason, NotJudgedReason, Unmeasurable};
use crate::terms::diff::TermChange;

pub struct Request {
    pub cwd: PathBuf,
    pub sandboxes: Vec<PathBuf>,
    pub bases: Vec<String>,
    pub start: Option<String>,
    /// The gate never uses the measurement cache (docs/src/reference/gate.md#integrity): `--no-cache` changes
    /// nothing here.
    pub options: Options,
    /// `--staged`: judge the index instead of the working tree (docs/src/reference/gate.md#integrity).
    pub staged: bool,
    /// `--accept-growth`: honour the pins the branch raised in its own baseline, within
    /// the base's bands (docs/src/reference/documents.md#pins-and-tiers).
    pub accept_growth: bool,
    /// Judge only the changed files at these repository-relative paths (`structgate
    /// hook`, docs/src/reference/hook.md): each exactly as the whole gate would, and
    /// nothing else (no unchanged document that imports one, no directory contract).
    pub only: Option<Vec<String>>,
}

/// One context as the gate saw it: judged, or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextState {
    pub name: String,
    /// `ContextWithoutLimits` or `ContextWithoutBaseline`; `None` when judged.
    pub not_judged: Option<NotJudgedReason>,
}

impl ContextState {
    pub fn judged(&self) -> bool {
        self.not_judged.is_none()
    }
}

/// A reason the gate judged nothing (or not everything), with the bases or contexts it
/// concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotJudged {
    pub reason: NotJudgedReason,
    pub detail: String,
}

impl NotJudged {
    /// What every format says of it ([`NotJudgedReason::sentence`]).
    pub fn sentence(&self) -> String {
        self.reason.sentence(&self.detail)
    }
}

/// One base the gate considered, in the order tried (`-v`, JSON `bases_tried`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTried {
    pub rev: String,
    pub outcome: BaseOutcome,
    /// A base not tried whose merge-base with HEAD (this id) has a context with Limits
    /// and a baseline: looked for only when the base taken has none.
    pub would_judge: Option<String>,
}

impl From<BaseTrial> for BaseTried {
    fn from(trial: BaseTrial) -> BaseTried {
        BaseTried {
            rev: trial.rev,
            outcome: trial.outcome,
            would_judge: None,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct GateReport {
    /// What the run came to, and why: decided by the judge ([`crate::judge::gate_outcome`]).
    pub outcome: GateOutcome,
    pub base: Option<String>,
    /// How the base was found, e.g. `merge-base of HEAD and main`.
    pub base_via: Option<String>,
    /// Every base considered, in order (the first working tree's, with sandboxes).
    pub bases: Vec<BaseTried>,
    pub judged_files: usize,
    pub contexts: Vec<ContextState>,
    pub excesses: Vec<Finding>,
    pub divergences: Vec<Finding>,
    pub not_judged: Vec<NotJudged>,
    pub skipped: Vec<FileReason<SkipReason>>,
    pub left_out: Vec<FileReason<LeftOutReason>>,
    /// Changed files held in a form structgate skips that the base could measure (or new
    /// on the branch): each fails the gate (docs/src/reference/gate.md#integrity).
    pub unmeasurable: Vec<FileReason<Unmeasurable>>,
    pub renamed: Vec<(String, String)>,
    /// Units moved between files of one context, judged with the entries of the file
    /// they left (docs/src/reference/baseline.md#moved-units), sorted.
    pub moved: Vec<Moved>,
    pub warnings: Vec<String>,
    /// Markdown documents judged while files they import eagerly changed, each with the
    /// changed files it reaches, sorted (docs/src/reference/documents.md).
    pub imports_changed: Vec<(String, Vec<String>)>,
    /// Markdown documents judged while files of their chain changed (a namesake above
    /// them, or a file the chain imports), each with those files, sorted (docs/src/reference/documents.md#chains).
    pub chain_changed: Vec<(String, Vec<String>)>,
    /// Directory contract findings in the directories the change touches (docs/src/reference/contracts.md).
    pub contract_findings: Vec<crate::contracts::Finding>,
    /// How many touched directories lie in managed trees (summed over sandboxes).
    pub contract_dirs: usize,
    /// Every changed file and what became of it (for `--verbose`).
    pub files: Vec<(String, Fate)>,
    /// What the measurement cache did (summed over sandboxes).
    pub cache: cache::Stats,
    /// What the branch changed in its own terms, not applied (docs/src/reference/gate.md#integrity).
    pub terms_changed: Vec<TermChange>,
    /// Judged units whose baseline entry `baseline refresh` would lower or drop.
    pub tightenable: Vec<Finding>,
    /// The branch's raised pins honoured under `--accept-growth` (docs/src/reference/documents.md#pins-and-tiers), sorted.
    pub accepted_growth: Vec<Finding>,
    /// Whose terms judged: the base's, or the branch's own on the adoption pull request
    /// (docs/src/reference/gate.md#adoption).
    pub terms_from: TermsFrom,
    /// What leaves a judged context's terms short of what they say (an unknown Limits
    /// key at the base), sorted (docs/src/reference/gate.md#terms-warnings).
    pub terms_warnings: Vec<TermsWarning>,
    /// New files judged although their own header says they are generated, sorted
    /// (docs/src/reference/gate.md#integrity).
    pub generated_claims: Vec<String>,
}

impl GateReport {
    /// `1` when failed, or not judged (or only in part) under `--require-judged`; else `0`.
    pub fn exit(&self, require_judged: bool) -> Exit {
        Exit::of_gate(&self.outcome, require_judged)
    }
}

/// What one sandbox contributed.
#[derive(Default)]
pub(crate) struct Sandbox {
    /// True once the changed files were listed and judged.
    ran: bool,
    base: Option<(String, String)>,
    bases: Vec<BaseTried>,
    contexts: Vec<ContextState>,
    judged: BTreeSet<String>,
    findings: Vec<Finding>,
    not_judged: Vec<NotJudged>,
    skipped: Vec<FileReason<SkipReason>>,
    left_out: Vec<FileReason<LeftOutReason>>,
    unmeasurable: Vec<FileReason<Unmeasurable>>,
    renamed: Vec<(String, String)>,
    moved: Vec<Moved>,
    warnings: Vec<String>,
    imports_changed: Vec<(String, Vec<String>)>,
    chain_changed: Vec<(String, Vec<String>)>,
    contracts: crate::contracts::Outcome,
    files: Vec<(String, Fate)>,
    cache: cache::Stats,
    terms_changed: Vec<TermChange>,
    terms_from: TermsFrom,
    terms_warnings: Vec<TermsWarning>,
    generated_claims: Vec<String>,
}

impl Sandbox {
    fn not_judged(reason: NotJudgedReason, detail: String) -> Sandbox {
        Sandbox {
            not_judged: vec![NotJudged { reason, detail }],
            ..Sandbox::default()
        }
    }

    /// A changed file no judged context owns whose bytes a judged document loads (its
    /// imports or its chain changed) was judged through that document: not listed as
    /// `unowned` (docs/src/reference/gate.md#integrity).
    fn judged_through_importers(&mut self) {
        let reached: BTreeSet<&String> = self
            .imports_changed
            .iter()
            .chain(&self.chain_changed)
            .flat_map(|(_, files)| files)
            .collect();
        let unowned = |l: &FileReason<LeftOutReason>| {
            matches!(l.reason, LeftOutReason::Unowned { .. }) && reached.contains(&l.path)
        };
        self.left_out.retain(|l| !unowned(l));
    }

    /// True when a file was judged or failed unmeasurable, or a directory was checked
    /// against its contract: the run judged anything at all.
    fn judged_anything(&self) -> bool {
        !self.judged.is_empty()
            || !self.unmeasurable.is_empty()
            || !self.contracts.checked.is_empty()
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
        sandboxes.push(sandbox::run(dir, request, several)?);
    }
    Ok(merge::merge(sandboxes))
}
