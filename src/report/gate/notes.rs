//! What the gate says beside its findings about the terms it judged by and the files it
//! was shown (docs/src/reference/gate.md#terms-warnings, #integrity): the terms warnings
//! and the new files judged although they say they are generated, in text, JSON and the
//! `--pr-summary`.

use std::fmt::Write as _;

use crate::commands::gate::GateReport;
use serde::Serialize;

use crate::judge::TermsWarning;
use crate::model::LeftOutReason;
use crate::reason::{TermsWarningKind, GENERATED_CLAIM};
use crate::report::listed;
use crate::report::style::{Paint, Role};
use crate::report::terms;

/// `terms warning: principles.md:11: unknown Limits key function_line (did you mean
/// function_lines?): that limit is not in force`.
pub(crate) fn terms_warning_line(w: &TermsWarning) -> String {
    let detail = terms::detail(w);
    format!("terms warning: {}:{}: {detail}", w.file, w.line)
}

/// `src/x.go: judged although it says it is generated: ...`.
pub(crate) fn claim_line(path: &str) -> String {
    format!("{path}: {GENERATED_CLAIM}")
}

/// One terms warning in the JSON: `{"kind", "context", "file", "line", "key", "detail"}`
/// (docs/src/reference/json.md).
#[derive(Serialize)]
pub(super) struct TermsWarningJson<'a> {
    kind: TermsWarningKind,
    context: &'a str,
    file: &'a str,
    line: usize,
    key: &'a str,
    detail: String,
}

pub(super) fn terms_warnings_json(report: &GateReport) -> Vec<TermsWarningJson<'_>> {
    let warnings = report.terms_warnings.iter();
    warnings
        .map(|w| TermsWarningJson {
            kind: w.kind,
            context: &w.context,
            file: &w.file,
            line: w.line,
            key: &w.key,
            detail: terms::detail(w),
        })
        .collect()
}

/// One generated claim in the JSON: `{"path", "detail"}`.
#[derive(Serialize)]
pub(super) struct ClaimJson<'a> {
    path: &'a str,
    detail: &'static str,
}

pub(super) fn claims_json(report: &GateReport) -> Vec<ClaimJson<'_>> {
    let paths = report.generated_claims.iter();
    paths
        .map(|path| ClaimJson {
            path,
            detail: GENERATED_CLAIM,
        })
        .collect()
}

/// The text report's generated claims and terms warnings, one line each.
pub(super) fn text(report: &GateReport, paint: Paint, out: &mut String) {
    for path in &report.generated_claims {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &claim_line(path)));
    }
    for w in &report.terms_warnings {
        let _ = writeln!(out, "{}", paint.paint(Role::Warn, &terms_warning_line(w)));
    }
}

/// How many files no judged context owns the text report names; `-v` lists every changed
/// file (docs/src/reference/gate.md#integrity).
const UNOWNED_SHOWN: usize = 10;

/// The text report's left-out files, one line each, but no more than [`UNOWNED_SHOWN`] of
/// those no judged context owns, then how many more there are.
pub(super) fn left_out(report: &GateReport, out: &mut String) {
    let mut unowned = 0;
    for l in &report.left_out {
        if matches!(l.reason, LeftOutReason::Unowned { .. }) {
            unowned += 1;
            if unowned > UNOWNED_SHOWN {
                continue;
            }
        }
        let _ = writeln!(out, "{}", listed::left_out_line(l));
    }
    if unowned > UNOWNED_SHOWN {
        let more = unowned - UNOWNED_SHOWN;
        let _ = writeln!(
            out,
            "and {more} more file(s) no judged context owns (-v lists every changed file)"
        );
    }
}

/// The `--pr-summary`'s `### Terms warnings`, where there are any.
pub(super) fn pr_summary(report: &GateReport, out: &mut String) {
    if report.terms_warnings.is_empty() {
        return;
    }
    out.push_str("\n### Terms warnings\n\n");
    for w in &report.terms_warnings {
        let detail = terms::detail(w);
        let _ = writeln!(out, "- `{}:{}`: {detail}", w.file, w.line);
    }
}

/// The `--pr-summary`'s `### Judged although they say they are generated`, where there are
/// any.
pub(super) fn claims_pr_summary(report: &GateReport, out: &mut String) {
    if report.generated_claims.is_empty() {
        return;
    }
    out.push_str("\n### Judged although they say they are generated\n\n");
    for path in &report.generated_claims {
        let _ = writeln!(out, "- `{path}`: {GENERATED_CLAIM}");
    }
}
