//! What `structgate hook` says (docs/src/reference/hook.md#the-message): the message the
//! model reads when an answer blocks, the one line for a note, and the protocol's JSON
//! object for hosts that read JSON.

use std::fmt::Write as _;

use crate::commands::gate::GateReport;
use crate::commands::hook::HookReport;
use crate::judge::hook::{Decision, Moment};
use crate::report::{contracts, finding_detail, listed, located};

/// What to do about an excess, for the model.
pub const WHAT_TO_DO: &str = "Split the unit (or the file) into smaller ones; the limits \
     are in principles.md and the baseline in structure-baseline.tsv, and neither is to be \
     changed.";

/// The answer as text: the message for stderr (empty when there is nothing to say).
pub fn message(report: &HookReport) -> String {
    if let Some(error) = &report.error {
        return format!("structgate hook: error: {error}\n");
    }
    let Some(gate) = &report.gate else {
        return String::new();
    };
    match report.decision {
        Decision::Silent | Decision::Pass | Decision::Error { .. } => String::new(),
        Decision::Diverged => divergence_line(gate),
        Decision::NotJudged => not_judged_line(gate),
        Decision::Block | Decision::Reported => findings(gate, report),
    }
}

/// The protocol's JSON object when the answer blocks (`{"decision": "block", "reason":
/// ...}`), else nothing: a host reads an empty stdout as no objection.
pub fn json(report: &HookReport) -> String {
    if !report.decision.blocks() {
        return String::new();
    }
    let reason = message(report);
    let object = serde_json::json!({
        "decision": "block",
        "reason": reason.trim_end(),
    });
    super::json_of(&object)
}

/// The excesses and unmeasurable files, each on its line, then what to do.
fn findings(gate: &GateReport, report: &HookReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "structgate: {}", headline(report.moment, gate));
    for f in &gate.excesses {
        let _ = writeln!(out, "{} {}: {}", located(f), f.unit, finding_detail(f));
    }
    for u in &gate.unmeasurable {
        let _ = writeln!(out, "{}", listed::unmeasurable_line(u));
    }
    for f in &gate.contract_findings {
        let _ = writeln!(out, "{}", contracts::finding_line(f));
    }
    if !gate.excesses.is_empty() {
        let _ = writeln!(out, "{WHAT_TO_DO}");
    }
    if report.decision == Decision::Reported {
        let _ = writeln!(
            out,
            "(not blocking: a stop hook already asked for a fix in this turn)"
        );
    }
    out
}

fn headline(moment: Option<Moment>, gate: &GateReport) -> &'static str {
    match moment {
        Some(Moment::Edit) if gate.excesses.is_empty() => "the edited file cannot be measured",
        Some(Moment::Edit) => "the edit puts code past its structure limits",
        _ => "this branch's changes put code past their structure limits",
    }
}

/// One line for every unit within tolerance.
fn divergence_line(gate: &GateReport) -> String {
    let units: Vec<String> = gate
        .divergences
        .iter()
        .map(|f| format!("{} {}: {}", located(f), f.unit, finding_detail(f)))
        .collect();
    format!(
        "structgate: within tolerance, not blocking: {}\n",
        units.join("; ")
    )
}

/// One line saying why nothing was judged.
fn not_judged_line(gate: &GateReport) -> String {
    match gate.not_judged.first() {
        Some(nj) => format!(
            "structgate: structure not judged: {}: {}\n",
            nj.reason, nj.detail
        ),
        None => "structgate: structure not judged\n".to_string(),
    }
}
