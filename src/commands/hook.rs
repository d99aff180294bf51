//! `structgate hook` (docs/src/reference/hook.md): an agent host's event on stdin, answered
//! by the gate's own pipeline. After an edit, the gate judges the edited files alone (its
//! base, its terms at the base, its allowances, renames and left-out rules); before the
//! agent stops, the whole gate runs. The judge decides whether the answer blocks.

pub mod payload;

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::commands::gate::{self, GateReport};
use crate::git::Repo;
use crate::judge::hook::{self as decide, Decision, Found, Moment};
use crate::measure::Options;
use payload::Event;

pub struct Request {
    /// The directory the hook runs in (`-C DIR`): a payload's relative `cwd` starts here.
    pub cwd: PathBuf,
    /// The event's bytes, as read from stdin.
    pub payload: Vec<u8>,
    /// `--base REV`, as for the gate.
    pub bases: Vec<String>,
    pub options: Options,
}

/// What the hook found and decided.
#[derive(Debug)]
pub struct HookReport {
    pub decision: Decision,
    /// The event answered, when there was one to judge.
    pub moment: Option<Moment>,
    /// The gate's report, when the gate ran.
    pub gate: Option<GateReport>,
    /// A malformed payload or structgate's own error.
    pub error: Option<String>,
}

impl HookReport {
    /// The answer to a run that failed: reported, blocking only under `--strict`.
    pub fn failed(error: &anyhow::Error, strict: bool) -> HookReport {
        HookReport {
            decision: Decision::Error { strict },
            moment: None,
            gate: None,
            error: Some(format!("{error:#}")),
        }
    }

    fn silent() -> HookReport {
        HookReport {
            decision: Decision::Silent,
            moment: None,
            gate: None,
            error: None,
        }
    }
}

/// Answers one event.
pub fn run(request: &Request) -> Result<HookReport> {
    let payload = payload::parse(&request.payload)?;
    let dir = match &payload.cwd {
        Some(cwd) => request.cwd.join(cwd),
        None => request.cwd.clone(),
    };
    let (moment, only) = match payload.event {
        Event::Nothing => return Ok(HookReport::silent()),
        Event::Stop { active } => (Moment::Stop { active }, None),
        Event::Edit { files } => match in_repository(&dir, &files) {
            Some(paths) => (Moment::Edit, Some(paths)),
            None => return Ok(HookReport::silent()),
        },
    };
    let report = gate::run(&gate::Request {
        cwd: dir,
        sandboxes: Vec::new(),
        bases: request.bases.clone(),
        start: None,
        options: request.options,
        staged: false,
        accept_growth: false,
        only,
    })?;
    let found = Found {
        status: report.outcome.status,
        judged_files: report.judged_files,
        divergences: report.divergences.len(),
    };
    Ok(HookReport {
        decision: decide::decide(moment, found),
        moment: Some(moment),
        gate: Some(report),
        error: None,
    })
}

/// The edited files inside the working tree holding `dir`, repository-relative with `/`;
/// `None` when none is (or `dir` is in no working tree): no judged context owns them.
fn in_repository(dir: &Path, files: &[String]) -> Option<Vec<String>> {
    let repo = Repo::discover(dir).ok()?;
    let root = repo.workdir()?.canonicalize().ok()?;
    let paths: Vec<String> = files
        .iter()
        .filter_map(|f| relative(&root, &dir.join(f)))
        .collect();
    (!paths.is_empty()).then_some(paths)
}

/// `abs` relative to `root` (both resolved through links, the file itself perhaps gone),
/// when it lies inside.
fn relative(root: &Path, abs: &Path) -> Option<String> {
    let resolved = match abs.canonicalize() {
        Ok(path) => path,
        Err(_) => abs.parent()?.canonicalize().ok()?.join(abs.file_name()?),
    };
    let rel = crate::relpath::rel_path(root, &resolved).ok()?;
    (!rel.is_empty() && !rel.starts_with("../")).then_some(rel)
}
