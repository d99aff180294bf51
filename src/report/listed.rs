//! The gate's named files and contexts (docs/src/reference/gate.md#integrity "nothing leaves the gate's view
//! silently"): left-out and unmeasurable files, every context that wasn't judged while
//! others were, as `not_judged` entries, and what became of each changed file.

use crate::commands::gate::{Fate, GateReport, JudgedAs, NotJudged};
use crate::model::LeftOutReason;
use crate::reason::{FileReason, Unmeasurable};

/// `left out PATH: DETAIL`.
pub(crate) fn left_out_line(l: &FileReason<LeftOutReason>) -> String {
    format!("left out {}: {}", l.path, l.reason)
}

/// `PATH: unmeasurable (DETAIL)`: a file that fails the gate.
pub(crate) fn unmeasurable_line(u: &FileReason<Unmeasurable>) -> String {
    format!("{}: unmeasurable ({})", u.path, u.reason)
}

/// The report's not-judged reasons, and, when some contexts were judged, one entry for
/// each context that wasn't (the detail naming it).
pub(crate) fn not_judged(report: &GateReport) -> Vec<NotJudged> {
    let mut all = report.not_judged.clone();
    if report.contexts.iter().any(|c| c.judged()) {
        for c in &report.contexts {
            if let Some(reason) = c.not_judged {
                let detail = format!("context {}: {reason}", c.name);
                all.push(NotJudged { reason, detail });
            }
        }
    }
    all
}

/// What became of a changed file: `judged (modified; context inventory)`, `not judged:
/// deleted`, `not judged: skipped: not UTF-8`, ...
pub(crate) fn fate_text(fate: &Fate) -> String {
    let not = |why: String| format!("not judged: {why}");
    match fate {
        Fate::Judged { how, context } => {
            let how = match how {
                JudgedAs::Added => "added".to_string(),
                JudgedAs::Modified => "modified".to_string(),
                JudgedAs::Renamed { from } => format!("renamed from {from}"),
            };
            format!("judged ({how}; context {context})")
        }
        Fate::NoOwner => not("no context owns it".to_string()),
        Fate::ContextNotJudged { context, reason } => {
            not(format!("context {context} has {reason}"))
        }
        Fate::Deleted => not("deleted".to_string()),
        Fate::NotMeasured => not("not a measured language".to_string()),
        Fate::NoLimitApplies { context } => {
            not(format!("no limit of context {context} applies to it"))
        }
        Fate::Skipped(reason) => not(format!("skipped: {reason}")),
        Fate::LeftOut(reason) => not(format!("left out: {reason}")),
        Fate::Unmeasurable(reason) => not(format!("unmeasurable: {reason}")),
    }
}
