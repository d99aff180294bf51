//! `gate` output: the text report of docs/src/reference/gate.md, its JSON object, and the `--pr-summary`
//! Markdown.

mod notes;
mod summary;

pub use summary::{pr_summary, write_pr_summary};

pub(crate) use notes::{claim_line, terms_warning_line};

use std::fmt::Write as _;

use serde::Serialize;

use crate::commands::gate::{BaseTried, GateReport, NotJudged};
use crate::git::BaseOutcome;
use crate::judge::{Cause, Change, Finding, GateStatus, Moved, TermsFrom};
use crate::model::{LeftOutReason, Metric, SkipReason};
use crate::reason::{FileReason, NotJudgedReason, Reason as _, Unmeasurable};
use crate::report::style::{Paint, Role};
use crate::report::{contracts, count, finding_detail, listed, located, review};

fn finding_line(report: &GateReport, f: &Finding) -> String {
    format!(
        "{} {}: {}{}{}",
        located(f),
        f.unit,
        finding_detail(f),
        imports_note(report, f),
        change_note(f)
    )
}

/// ` (unchanged)` on a value the branch left as the base had it, ` (down from N)` on one
/// it lowered; empty on a new or grown one (docs/src/reference/gate.md#what-changed).
pub(crate) fn change_note(f: &Finding) -> String {
    match (f.change(), f.base_value) {
        (Change::Unchanged, _) => " (unchanged)".to_string(),
        (Change::Shrunk, Some(base)) => format!(" (down from {base})"),
        _ => String::new(),
    }
}

/// The divergences new or grown on the branch, then the others
/// (docs/src/reference/gate.md#what-changed).
fn divergences_by_change(report: &GateReport) -> (Vec<&Finding>, Vec<&Finding>) {
    report.divergences.iter().partition(|f| f.made_worse())
}

/// A finding as docs/src/reference/gate.md gives it; a `loaded_bytes` finding of a document whose eager
/// imports changed also carries `"imports_changed"`: the changed files it loads (docs/src/reference/documents.md); a
/// `chain_bytes` finding whose chain changed, `"chain_changed"` (docs/src/reference/documents.md#chains).
#[derive(Serialize)]
struct GateFinding<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    /// The unit's value at the base; null when new there.
    base_value: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    imports_changed: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain_changed: Option<&'a [String]>,
}

/// The changed files a `loaded_bytes` finding's document loads, if any.
fn changed_imports<'r>(report: &'r GateReport, f: &Finding) -> Option<&'r [String]> {
    changed_for(&report.imports_changed, f, Metric::LoadedBytes)
}

/// The changed files of a `chain_bytes` finding's chain, if any.
fn changed_chain<'r>(report: &'r GateReport, f: &Finding) -> Option<&'r [String]> {
    changed_for(&report.chain_changed, f, Metric::ChainBytes)
}

fn changed_for<'r>(
    by_doc: &'r [(String, Vec<String>)],
    f: &Finding,
    metric: Metric,
) -> Option<&'r [String]> {
    if f.verdict.metric != metric {
        return None;
    }
    let (_, changed) = by_doc.iter().find(|(doc, _)| *doc == f.path)?;
    Some(changed)
}

/// ` (imports changed: docs/shared.md)` on a `loaded_bytes` finding of a document whose
/// eager imports changed (docs/src/reference/documents.md), ` (chain changed: AGENTS.md)` on a `chain_bytes`
/// finding whose chain changed (docs/src/reference/documents.md#chains); empty otherwise.
fn imports_note(report: &GateReport, f: &Finding) -> String {
    let imports = changed_imports(report, f).map(|c| ("imports", c));
    let chain = changed_chain(report, f).map(|c| ("chain", c));
    imports
        .or(chain)
        .map(|(what, changed)| format!(" ({what} changed: {})", changed.join(", ")))
        .unwrap_or_default()
}

fn excess_line(report: &GateReport, f: &Finding, paint: Paint) -> String {
    let detail = paint.paint(Role::Bad, &finding_detail(f));
    format!(
        "{} {}: {detail}{}",
        located(f),
        f.unit,
        imports_note(report, f)
    )
}

fn names(report: &GateReport, judged: bool) -> Vec<String> {
    report
        .contexts
        .iter()
        .filter(|c| c.judged() == judged)
        .map(|c| match &c.not_judged {
            Some(reason) => format!("{} ({reason})", c.name),
            None => c.name.clone(),
        })
        .collect()
}

/// `structure judged N file(s) in M context(s)`, then what failed it (its causes) or
/// `within their Limits`; empty when the structure was not judged.
pub(crate) fn headline(report: &GateReport) -> String {
    let outcome = &report.outcome;
    if outcome.status == GateStatus::NotJudged {
        return String::new();
    }
    let files = count(report.judged_files, "file");
    let contexts = count(
        report.contexts.iter().filter(|c| c.judged()).count(),
        "context",
    );
    let mut failed = Vec::new();
    for cause in outcome.failures() {
        match cause {
            Cause::Excesses {
                past_band,
                grown_past_pin,
            } => {
                if past_band > 0 {
                    failed.push(format!("{} past the band", count(past_band, "excess")));
                }
                if grown_past_pin > 0 {
                    let grown = count(grown_past_pin, "value");
                    failed.push(format!("{grown} grown past their pin"));
                }
            }
            Cause::Unmeasurable { files } => {
                failed.push(format!("{} unmeasurable", count(files, "file")));
            }
            _ => {}
        }
    }
    if !failed.is_empty() {
        format!(
            "structure judged {files} in {contexts}: {}",
            failed.join(", ")
        )
    } else if outcome.structure_judged {
        format!("structure judged {files} in {contexts}, within their Limits")
    } else {
        String::new()
    }
}

/// `structure judged N file(s) by the terms this branch adds (...)`, the first thing said
/// of an adoption pull request judged by its own terms (docs/src/reference/gate.md#adoption).
pub(crate) fn adoption_line(report: &GateReport) -> Option<String> {
    (report.terms_from == TermsFrom::Branch).then(|| {
        format!(
            "structure judged {} by the terms this branch adds (the base has none; from the \
             merge on, the base's terms judge)",
            count(report.judged_files, "file")
        )
    })
}

/// `base SHA (how it was found)`, when a base was found.
pub(crate) fn base_line(report: &GateReport) -> Option<String> {
    let (base, via) = (report.base.as_ref()?, report.base_via.as_ref()?);
    Some(format!("base {base} ({via})"))
}

/// The text report of docs/src/reference/gate.md; `paint` colours it for a terminal.
pub fn text(report: &GateReport, paint: Paint) -> String {
    let mut out = String::new();
    if let Some(line) = base_line(report) {
        let _ = writeln!(out, "{}", paint.paint(Role::Quiet, &line));
    }
    if let Some(line) = adoption_line(report) {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &line));
    }
    let head = headline(report);
    if !head.is_empty() {
        let role = match report.outcome.status {
            GateStatus::Failed => Role::Bad,
            _ => Role::Good,
        };
        let _ = writeln!(out, "{}", paint.paint(role, &head));
    }
    for f in &report.excesses {
        let _ = writeln!(out, "{}", excess_line(report, f, paint));
    }
    for u in &report.unmeasurable {
        let _ = writeln!(
            out,
            "{}",
            paint.paint(Role::Bad, &listed::unmeasurable_line(u))
        );
    }
    for nj in report
        .not_judged
        .iter()
        .filter(|n| !n.reason.told_as_terms_warning())
    {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &not_judged_line(nj)));
    }
    if let Some(line) = partly_judged_line(report) {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &line));
    }
    notes::text(report, paint, &mut out);
    contract_lines(report, &mut out);
    if !report.divergences.is_empty() {
        let heading = paint.paint(Role::Warn, "Structure within tolerance:");
        let _ = writeln!(out, "{heading}");
        let (worse, others) = divergences_by_change(report);
        for f in worse.into_iter().chain(others) {
            let _ = writeln!(out, "  {}", finding_line(report, f));
        }
    }
    review::text(report, paint, &mut out);
    for line in renamed_lines(report).into_iter().chain(moved_lines(report)) {
        let _ = writeln!(out, "{line}");
    }
    for s in &report.skipped {
        let _ = writeln!(out, "skipped {}: {}", s.path, s.reason);
    }
    notes::left_out(report, &mut out);
    out
}

/// The directory contracts of the touched directories (docs/src/reference/contracts.md): a headline when any
/// touched directory lies in a managed tree, then one line per finding.
fn contract_lines(report: &GateReport, out: &mut String) {
    if report.contract_dirs == 0 && report.contract_findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "contracts checked {} directory(ies) in managed trees: {}",
        report.contract_dirs,
        count(report.contract_findings.len(), "finding")
    );
    for f in &report.contract_findings {
        let _ = writeln!(out, "{}", contracts::finding_line(f));
    }
}

/// `structure not judged: SENTENCE`; a context judged without its anonymous functions
/// says so alone (docs/src/reference/baseline.md#units).
fn not_judged_line(nj: &NotJudged) -> String {
    match nj.reason {
        NotJudgedReason::BaselinePredatesUnits => nj.sentence(),
        _ => format!("structure not judged: {}", nj.sentence()),
    }
}

/// `structure not judged in A (why); judged: B`, when some contexts were judged and
/// others weren't.
pub(crate) fn partly_judged_line(report: &GateReport) -> Option<String> {
    let (judged, not) = (names(report, true), names(report, false));
    (!judged.is_empty() && !not.is_empty()).then(|| {
        format!(
            "structure not judged in {}; judged: {}",
            not.join(", "),
            judged.join(", ")
        )
    })
}

pub(crate) fn renamed_lines(report: &GateReport) -> Vec<String> {
    let line = |(from, to): &(String, String)| {
        format!(
            "renamed {from} -> {to}: judged at the new path, with the baseline entries of {from}"
        )
    };
    report.renamed.iter().map(line).collect()
}

/// `moved: UNIT FROM -> TO` per unit judged with the entries of the file it left
/// (docs/src/reference/baseline.md#moved-units).
pub(crate) fn moved_lines(report: &GateReport) -> Vec<String> {
    let line = |m: &Moved| format!("moved: {} {} -> {}", m.unit, m.from, m.to);
    report.moved.iter().map(line).collect()
}

/// The stable code of what became of a base (JSON `bases_tried[].outcome`).
fn outcome_code(outcome: &BaseOutcome) -> &'static str {
    match outcome {
        BaseOutcome::Taken { .. } => "taken",
        BaseOutcome::NewerThanStart { .. } => "newer-than-start",
        BaseOutcome::OwnBranch { .. } => "own-branch",
        BaseOutcome::NotFound => "not-found",
        BaseOutcome::NoMergeBase => "no-merge-base",
        BaseOutcome::NotTried => "not-tried",
    }
}

/// What became of a base, as `-v` says it.
fn outcome_text(base: &BaseTried) -> String {
    let text = match &base.outcome {
        BaseOutcome::Taken { merge_base } => {
            format!("taken: its merge-base with HEAD is {merge_base}")
        }
        BaseOutcome::NewerThanStart { merge_base } => format!(
            "set aside: its merge-base with HEAD, {merge_base}, is not an ancestor of --start"
        ),
        BaseOutcome::OwnBranch { name } => format!("skipped: it is {name}, this branch's own"),
        BaseOutcome::NotFound => "not found: it names no commit".to_string(),
        BaseOutcome::NoMergeBase => "no merge-base with HEAD".to_string(),
        BaseOutcome::NotTried => "not tried: an earlier base was taken".to_string(),
    };
    match &base.would_judge {
        Some(merge_base) => format!(
            "{text}; its merge-base with HEAD, {merge_base}, has a context with Limits and a \
             baseline: --base {} would judge",
            base.rev
        ),
        None => text,
    }
}

/// `--verbose`: every base considered and what became of it, then every changed file and
/// what became of it.
pub fn verbose(report: &GateReport) -> Vec<String> {
    let mut lines = Vec::new();
    if !report.bases.is_empty() {
        lines.push("bases, in the order tried:".to_string());
        let line = |b: &BaseTried| format!("  {}: {}", b.rev, outcome_text(b));
        lines.extend(report.bases.iter().map(line));
    }
    if report.files.is_empty() && report.outcome.status == GateStatus::NotJudged {
        return lines;
    }
    lines.push(format!(
        "changed since the base: {}",
        count(report.files.len(), "file")
    ));
    lines.extend(
        report
            .files
            .iter()
            .map(|(path, fate)| format!("  {path}: {}", listed::fate_text(fate))),
    );
    lines
}

/// One context of the JSON: its name, whether it was judged, and why not.
#[derive(Serialize)]
struct ContextJson<'a> {
    name: &'a str,
    judged: bool,
    reason: Option<&'static str>,
}

/// One base of the JSON's `bases_tried`.
#[derive(Serialize)]
struct BaseJson<'a> {
    rev: &'a str,
    outcome: &'static str,
    merge_base: Option<&'a str>,
    would_judge: bool,
    detail: String,
}

fn base_json(b: &BaseTried) -> BaseJson<'_> {
    let merge_base = match &b.outcome {
        BaseOutcome::Taken { merge_base } | BaseOutcome::NewerThanStart { merge_base } => {
            Some(merge_base.as_str())
        }
        _ => b.would_judge.as_deref(),
    };
    BaseJson {
        rev: &b.rev,
        outcome: outcome_code(&b.outcome),
        merge_base,
        would_judge: b.would_judge.is_some(),
        detail: outcome_text(b),
    }
}

#[derive(Serialize)]
struct Renamed<'a> {
    from: &'a str,
    to: &'a str,
}

/// The JSON object of docs/src/reference/gate.md: every list always present.
#[derive(Serialize)]
struct GateJson<'a> {
    status: GateStatus,
    base: Option<&'a str>,
    judged_files: usize,
    contexts: Vec<ContextJson<'a>>,
    excesses: Vec<GateFinding<'a>>,
    divergences: Vec<GateFinding<'a>>,
    not_judged: Vec<NotJudged>,
    skipped: &'a [FileReason<SkipReason>],
    left_out: &'a [FileReason<LeftOutReason>],
    unmeasurable: &'a [FileReason<Unmeasurable>],
    renamed: Vec<Renamed<'a>>,
    moved: &'a [Moved],
    bases_tried: Vec<BaseJson<'a>>,
    contract_findings: Vec<serde_json::Value>,
    terms_changed: Vec<review::TermJson<'a>>,
    tightenable: Vec<review::Tightenable<'a>>,
    accepted_growth: Vec<review::Accepted<'a>>,
    terms_warnings: Vec<notes::TermsWarningJson<'a>>,
    terms_from: TermsFrom,
    generated_claims: Vec<notes::ClaimJson<'a>>,
}

fn gate_findings<'a>(report: &'a GateReport, list: &'a [Finding]) -> Vec<GateFinding<'a>> {
    list.iter()
        .map(|f| GateFinding {
            finding: f,
            base_value: f.base_value,
            imports_changed: changed_imports(report, f),
            chain_changed: changed_chain(report, f),
        })
        .collect()
}

pub fn json(report: &GateReport) -> String {
    let contexts = report.contexts.iter().map(|c| ContextJson {
        name: &c.name,
        judged: c.judged(),
        reason: c.not_judged.map(|r| r.description()),
    });
    let renamed = report.renamed.iter().map(|(from, to)| Renamed { from, to });
    super::json_of(&GateJson {
        status: report.outcome.status,
        base: report.base.as_deref(),
        judged_files: report.judged_files,
        contexts: contexts.collect(),
        excesses: gate_findings(report, &report.excesses),
        divergences: gate_findings(report, &report.divergences),
        not_judged: listed::not_judged(report),
        skipped: &report.skipped,
        left_out: &report.left_out,
        unmeasurable: &report.unmeasurable,
        renamed: renamed.collect(),
        moved: &report.moved,
        bases_tried: report.bases.iter().map(base_json).collect(),
        contract_findings: report
            .contract_findings
            .iter()
            .map(contracts::finding_json)
            .collect(),
        terms_changed: review::terms_json(report),
        tightenable: review::tightenable_json(report),
        accepted_growth: review::accepted_json(report),
        terms_warnings: notes::terms_warnings_json(report),
        terms_from: report.terms_from,
        generated_claims: notes::claims_json(report),
    })
}
