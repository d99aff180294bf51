//! What the gate says beside its findings about the terms it judged by and the files it
//! was shown (docs/src/reference/gate.md#terms-warnings): the terms warnings, in text and
//! in the `--pr-summary`.

use std::fmt::Write as _;

use crate::commands::gate::GateReport;
use crate::judge::TermsWarning;
use crate::report::style::{Paint, Role};

/// `terms warning: principles.md:11: unknown Limits key function_line (did you mean
/// function_lines?): that limit is not in force`.
pub(crate) fn terms_warning_line(w: &TermsWarning) -> String {
    format!("terms warning: {}:{}: {}", w.file, w.line, w.detail)
}

/// The text report's terms warnings, one line each.
pub(super) fn text(report: &GateReport, paint: Paint, out: &mut String) {
    for w in &report.terms_warnings {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &terms_warning_line(w)));
    }
}

/// The `--pr-summary`'s `### Terms warnings`, where there are any.
pub(super) fn pr_summary(report: &GateReport, out: &mut String) {
    if report.terms_warnings.is_empty() {
        return;
    }
    out.push_str("\n### Terms warnings\n\n");
    for w in &report.terms_warnings {
        let _ = writeln!(out, "- `{}:{}`: {}", w.file, w.line, w.detail);
    }
}
