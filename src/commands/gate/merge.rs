//! Folds the sandboxes' results into one report: a unit seen in two counts once, at the
//! worse value (docs/src/reference/gate.md step 5).

use std::collections::{BTreeMap, BTreeSet};

use super::{ContextState, GateReport, Sandbox};
use crate::judge::{self, Finding, Status};
use crate::reason::NotJudgedReason;

pub(super) fn merge(sandboxes: Vec<Sandbox>) -> GateReport {
    let ran = sandboxes.iter().any(|s| s.ran);
    let base = sandboxes.iter().find_map(|s| s.base.clone());
    let mut report = GateReport {
        bases: first_bases(&sandboxes),
        base: base.as_ref().map(|b| b.0.clone()),
        base_via: base.map(|b| b.1),
        ..GateReport::default()
    };
    let mut findings = Vec::new();
    let mut judged = BTreeSet::new();
    // Sandboxes are working trees of one repository: a directory two of them check is one.
    let mut contract_dirs = BTreeSet::new();
    for sb in sandboxes {
        findings.extend(sb.findings);
        judged.extend(sb.judged);
        merge_contexts(&mut report.contexts, sb.contexts);
        report.not_judged.extend(sb.not_judged);
        report.skipped.extend(sb.skipped);
        report.left_out.extend(sb.left_out);
        report.unmeasurable.extend(sb.unmeasurable);
        report.renamed.extend(sb.renamed);
        report.moved.extend(sb.moved);
        report.warnings.extend(sb.warnings);
        report.imports_changed.extend(sb.imports_changed);
        report.chain_changed.extend(sb.chain_changed);
        contract_dirs.extend(sb.contracts.checked);
        report.contract_findings.extend(sb.contracts.findings);
        report.files.extend(sb.files);
        report.terms_changed.extend(sb.terms_changed);
        report.terms_warnings.extend(sb.terms_warnings);
        report.generated_claims.extend(sb.generated_claims);
        if sb.terms_from == judge::TermsFrom::Branch {
            report.terms_from = judge::TermsFrom::Branch;
        }
        report.cache.add(sb.cache);
    }
    tidy(&mut report);
    report.judged_files = judged.len();
    report.contract_dirs = contract_dirs.len();
    sort_findings(&mut report, findings);
    let told = report.not_judged.iter();
    report.outcome = judge::gate_outcome(judge::GateFacts {
        excesses: &report.excesses,
        unmeasurable: report.unmeasurable.len(),
        contract_findings: report.contract_findings.len(),
        structure_judged: ran,
        terms_warnings: told.filter(|n| n.reason.told_as_terms_warning()).count(),
        predating_units: predating_units(&report.not_judged),
    });
    report
}

/// The contexts whose baseline predates the anonymous-function units of the files they
/// judged (docs/src/reference/baseline.md#units).
fn predating_units(not_judged: &[super::NotJudged]) -> usize {
    let predating = |n: &&super::NotJudged| n.reason == NotJudgedReason::BaselinePredatesUnits;
    not_judged.iter().filter(predating).count()
}

/// One finding per unit and metric, the worse of the sandboxes' ([`judge::worst`]), listed
/// as an excess or a divergence, as an entry that can tighten, as a raise accepted.
fn sort_findings(report: &mut GateReport, findings: Vec<Finding>) {
    for f in judge::worst(findings) {
        if judge::tightenable(&f, &report.terms_changed) {
            report.tightenable.push(f.clone());
        }
        if f.verdict.accepted.is_some() {
            report.accepted_growth.push(f.clone());
        }
        match f.verdict.status {
            Status::Excess => report.excesses.push(f),
            Status::Divergence => report.divergences.push(f),
            Status::Ok | Status::Tolerated => {}
        }
    }
}

/// The bases the first sandbox that tried any considered (docs/src/reference/gate.md: the first working
/// tree's base is the report's).
fn first_bases(sandboxes: &[Sandbox]) -> Vec<super::BaseTried> {
    let tried = sandboxes.iter().find(|s| !s.bases.is_empty());
    tried.map(|s| s.bases.clone()).unwrap_or_default()
}

fn tidy(report: &mut GateReport) {
    sort_dedup(&mut report.skipped);
    sort_dedup(&mut report.left_out);
    sort_dedup(&mut report.unmeasurable);
    sort_dedup(&mut report.renamed);
    sort_dedup(&mut report.moved);
    sort_dedup(&mut report.files);
    sort_dedup(&mut report.warnings);
    by_doc(&mut report.imports_changed);
    by_doc(&mut report.chain_changed);
    sort_dedup(&mut report.contract_findings);
    sort_dedup(&mut report.terms_warnings);
    sort_dedup(&mut report.generated_claims);
    // Sandboxes of one repository warn of the same terms: each partial judging once.
    let mut seen = BTreeSet::new();
    report
        .not_judged
        .retain(|n| !n.reason.partial() || seen.insert(n.detail.clone()));
    // Sandboxes of one branch report the same terms changes: each once, in their order.
    let mut seen = BTreeSet::new();
    report.terms_changed.retain(|c| seen.insert(c.clone()));
}

/// One entry per document, its changed files merged and sorted.
fn by_doc(list: &mut Vec<(String, Vec<String>)>) {
    let mut by_doc: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (doc, changed) in std::mem::take(list) {
        by_doc.entry(doc).or_default().extend(changed);
    }
    *list = by_doc
        .into_iter()
        .map(|(doc, changed)| (doc, changed.into_iter().collect()))
        .collect();
}

fn sort_dedup<T: Ord>(list: &mut Vec<T>) {
    list.sort();
    list.dedup();
}

fn merge_contexts(into: &mut Vec<ContextState>, from: Vec<ContextState>) {
    for c in from {
        match into.iter_mut().find(|i| i.name == c.name) {
            Some(existing) if c.judged() && !existing.judged() => *existing = c,
            Some(_) => {}
            None => into.push(c),
        }
    }
}
