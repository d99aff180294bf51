//! The gate's named files and contexts (SPEC §6.1 "nothing leaves the gate's view
//! silently"): left-out and unmeasurable files, in text and JSON, and every context that
//! wasn't judged while others were, as `not_judged` entries.

use serde_json::{json, Value};

use crate::commands::gate::{FileReason, GateReport, NotJudged};

/// `left out PATH: DETAIL`.
pub(crate) fn left_out_line(l: &FileReason) -> String {
    format!("left out {}: {}", l.path, l.detail)
}

/// `PATH: unmeasurable (DETAIL)`: a file that fails the gate.
pub(crate) fn unmeasurable_line(u: &FileReason) -> String {
    format!("{}: unmeasurable ({})", u.path, u.detail)
}

/// `{"path", "reason", "detail"}` for each file.
pub(crate) fn json_list(list: &[FileReason]) -> Vec<Value> {
    list.iter()
        .map(|l| json!({"path": l.path, "reason": l.reason, "detail": l.detail}))
        .collect()
}

/// The report's not-judged reasons, and, when some contexts were judged, one entry for
/// each context that wasn't (its code as the reason, the detail naming it).
pub(crate) fn not_judged(report: &GateReport) -> Vec<NotJudged> {
    let mut all = report.not_judged.clone();
    if report.contexts.iter().any(|c| c.judged) {
        let unjudged = report.contexts.iter().filter(|c| !c.judged);
        all.extend(unjudged.map(|c| NotJudged {
            reason: c.code.unwrap_or("context-not-judged").to_string(),
            detail: format!(
                "context {}: {}",
                c.name,
                c.reason.as_deref().unwrap_or("not judged")
            ),
        }));
    }
    all
}
