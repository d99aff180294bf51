//! `gate --pr-summary`: the Markdown for the pull request (docs/src/commands/gate.md).

use std::fmt::Write as _;

use super::{
    adoption_line, change_note, contracts, count, divergences_by_change, finding_detail, headline,
    imports_note, notes, partly_judged_line, review,
};
use crate::commands::gate::{GateReport, NotJudged};
use crate::judge::{Cause, Finding, GateStatus};

/// Writes the `--pr-summary` Markdown to `path`.
pub fn write_pr_summary(report: &GateReport, path: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    std::fs::write(path, pr_summary(report))
        .with_context(|| format!("writing --pr-summary {}", path.display()))
}

/// The `--pr-summary` Markdown: the status line (passed, failed, or not judged and why),
/// then, each where it has something to list, the excesses, unmeasurable files and
/// directory contract findings; the divergences (`None.` only when something was judged);
/// renamed, left-out and skipped files; terms changed on the branch and baseline entries
/// that can tighten.
pub fn pr_summary(report: &GateReport) -> String {
    let mut out = status_markdown(report);
    notes::pr_summary(report, &mut out);
    let line = |f: &Finding| {
        let note = imports_note(report, f);
        let change = change_note(f);
        format!(
            "- `{}` `{}`: {}{note}{change}\n",
            f.path,
            f.unit,
            finding_detail(f)
        )
    };
    // A pin's growth within its band is its own section, never "past the band".
    let (grown, past): (Vec<&Finding>, Vec<&Finding>) =
        report.excesses.iter().partition(|f| f.verdict.pin_growth());
    for (title, findings) in [
        ("Structure past the band", past),
        ("Grew past its pin", grown),
    ] {
        if !findings.is_empty() {
            let _ = write!(out, "\n### {title}\n\n");
            for f in findings {
                out.push_str(&line(f));
            }
        }
    }
    if !report.unmeasurable.is_empty() {
        out.push_str("\n### Unmeasurable files\n\n");
        for u in &report.unmeasurable {
            let _ = writeln!(out, "- `{}`: unmeasurable ({})", u.path, u.reason);
        }
    }
    if !report.contract_findings.is_empty() {
        out.push_str("\n### Directory contracts\n\n");
        for f in &report.contract_findings {
            let _ = writeln!(out, "- {}", contracts::finding_line(f));
        }
    }
    if report.outcome.structure_judged {
        divergences_markdown(report, &line, &mut out);
    }
    notes::claims_pr_summary(report, &mut out);
    files_markdown(report, &mut out);
    review::pr_summary(report, &mut out);
    out
}

/// The divergences: new and grown ones first, the others folded under a `<details>`
/// (docs/src/reference/gate.md#what-changed); `None.` when there are none.
fn divergences_markdown(report: &GateReport, line: &dyn Fn(&Finding) -> String, out: &mut String) {
    out.push_str("\n### Structure within tolerance\n\n");
    if report.divergences.is_empty() {
        out.push_str("None.\n");
    }
    let (worse, others) = divergences_by_change(report);
    let gap = if worse.is_empty() { "" } else { "\n" };
    for f in worse {
        out.push_str(&line(f));
    }
    if others.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "{gap}<details><summary>{} the branch didn't make worse</summary>\n\n",
        count(others.len(), "divergence")
    );
    for f in others {
        out.push_str(&line(f));
    }
    out.push_str("\n</details>\n");
}

/// `**Structure passed**: ...`, `**Structure failed**: ...` or `**Structure not
/// judged**: REASON: DETAIL`, and the contexts not judged when others were.
fn status_markdown(report: &GateReport) -> String {
    let mut out = match report.outcome.status {
        GateStatus::Passed => format!("**Structure passed**: {}\n", headline(report)),
        GateStatus::Failed => {
            let mut why = vec![headline(report)];
            for cause in report.outcome.failures() {
                if let Cause::ContractFindings { findings } = cause {
                    why.push(format!(
                        "{} of directory contracts",
                        count(findings, "finding")
                    ));
                }
            }
            why.retain(|w| !w.is_empty());
            format!("**Structure failed**: {}\n", why.join("; "))
        }
        GateStatus::NotJudged => {
            let told = |n: &&NotJudged| !n.reason.told_as_terms_warning();
            let reasons: Vec<String> = report
                .not_judged
                .iter()
                .filter(told)
                .map(NotJudged::sentence)
                .collect();
            format!("**Structure not judged**: {}\n", reasons.join("; "))
        }
    };
    if let Some(line) = adoption_line(report) {
        let _ = writeln!(out, "\n{line}");
    }
    if let Some(line) = partly_judged_line(report) {
        let _ = writeln!(out, "\n{line}");
    }
    out
}

/// The renamed, left-out and skipped files, each list where it has any.
fn files_markdown(report: &GateReport, out: &mut String) {
    if !report.renamed.is_empty() {
        out.push_str("\n### Renamed files\n\n");
        for (from, to) in &report.renamed {
            let _ = writeln!(
                out,
                "- `{from}` -> `{to}`: judged at the new path, with the baseline entries of \
                 `{from}`"
            );
        }
    }
    if !report.moved.is_empty() {
        out.push_str("\n### Moved units\n\n");
        for m in &report.moved {
            let _ = writeln!(
                out,
                "- `{}` `{}` -> `{}`: judged with its baseline entries of `{}`",
                m.unit, m.from, m.to, m.from
            );
        }
    }
    if !report.left_out.is_empty() {
        out.push_str("\n### Left out\n\n");
        for l in &report.left_out {
            let _ = writeln!(out, "- `{}`: {}", l.path, l.reason);
        }
    }
    if !report.skipped.is_empty() {
        out.push_str("\n### Skipped files\n\n");
        for f in &report.skipped {
            let _ = writeln!(out, "- `{}`: {}", f.path, f.reason);
        }
    }
}
