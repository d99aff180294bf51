//! The reviewer's sections of the gate report (docs/src/reference/gate.md#integrity): what the branch changed in its
//! own terms (not applied) and the baseline entries that can tighten, as text lines, JSON
//! lists and `--pr-summary` Markdown.

use std::fmt::Write as _;

use serde::Serialize;

use crate::commands::gate::GateReport;
use crate::judge::Finding;
use crate::model::Metric;
use crate::report::style::{Paint, Role};
use crate::terms::diff::{Term, TermChange, TermValue};

const TERMS_HEADING: &str = "terms changed on this branch (not applied):";

/// `docs/plan.md plan.md file_bytes 10010 → 10320 (+310)`: a pin the branch raised,
/// honoured by `--accept-growth` (a missing base entry counts from 0).
pub(crate) fn growth_text(f: &Finding) -> String {
    let Some(g) = f.verdict.accepted else {
        return String::new();
    };
    let from = g.from.unwrap_or(0);
    format!(
        "{} {} {} {from} \u{2192} {} (+{})",
        f.path,
        f.unit,
        f.verdict.metric,
        g.to,
        g.to.saturating_sub(from)
    )
}

/// An `accepted_growth` item: `{"path", "unit", "metric", "from", "to"}`.
#[derive(Serialize)]
pub(crate) struct Accepted<'a> {
    path: &'a str,
    unit: &'a str,
    metric: Metric,
    from: Option<u64>,
    to: u64,
}

pub(crate) fn accepted_json(report: &GateReport) -> Vec<Accepted<'_>> {
    report
        .accepted_growth
        .iter()
        .filter_map(|f| {
            let g = f.verdict.accepted?;
            Some(Accepted {
                path: &f.path,
                unit: &f.unit,
                metric: f.verdict.metric,
                from: g.from,
                to: g.to,
            })
        })
        .collect()
}

/// `accepted growth: ...` and `can tighten: ...` lines, then the terms changed on the
/// branch.
pub(crate) fn text(report: &GateReport, paint: Paint, out: &mut String) {
    for f in &report.accepted_growth {
        let _ = writeln!(out, "accepted growth: {}", growth_text(f));
    }
    for f in &report.tightenable {
        let v = &f.verdict;
        let baseline = v.baseline.unwrap_or(v.value);
        let at = super::located(f);
        let _ = writeln!(
            out,
            "can tighten: {at} {}: {} {} (baseline {baseline})",
            f.unit, v.metric, v.value
        );
    }
    if report.terms_changed.is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", paint.paint(Role::Warn, TERMS_HEADING));
    for change in &report.terms_changed {
        let verdict = verdict(change);
        let verdict = if change.loosens {
            paint.paint(Role::Warn, verdict)
        } else {
            verdict.to_string()
        };
        let _ = writeln!(out, "  {} ({verdict})", change_line(change));
    }
}

/// `inventory: principles.md: function_lines 10 -> 40`.
pub(crate) fn change_line(change: &TermChange) -> String {
    format!("{}{}", prefix(change), change_text(change))
}

/// `src/A.cs A.Run: function_lines 70 (baseline 91)`.
pub(crate) fn tighten_text(f: &Finding) -> String {
    let v = &f.verdict;
    let baseline = v.baseline.unwrap_or(v.value);
    format!(
        "{} {}: {} {} (baseline {baseline})",
        f.path, f.unit, v.metric, v.value
    )
}

fn verdict(change: &TermChange) -> &'static str {
    if change.loosens {
        "loosens"
    } else {
        "tightens"
    }
}

/// `inventory: principles.md: ` (no context: the file alone).
fn prefix(change: &TermChange) -> String {
    match &change.context {
        Some(context) => format!("{context}: {}: ", change.file),
        None => format!("{}: ", change.file),
    }
}

/// What changed: `function_lines 10 -> 40`, `type_lines added: 300`, `sources removed:
/// src/legacy`, `context added (owns web)`, `does not read on the branch: ...`.
fn change_text(change: &TermChange) -> String {
    let (what, from, to) = (change.term.what(), &change.from, &change.to);
    let taken = match &change.term {
        Term::Context { taken_from } | Term::Source { taken_from } if !taken_from.is_empty() => {
            format!(", taken from {}", taken_from.join(", "))
        }
        _ => String::new(),
    };
    match (&change.term, from, to) {
        (Term::Unreadable, _, Some(to)) => format!("does not read on the branch: {to}"),
        (Term::Context { .. }, None, Some(to)) => format!("context added (owns {to}{taken})"),
        (Term::Context { .. }, Some(from), None) => format!("context removed (owned {from})"),
        (_, Some(from), Some(to)) => format!("{what} {from} -> {to}"),
        (_, None, Some(to)) => format!("{what} added: {to}{taken}"),
        (_, Some(from), None) => format!("{what} removed: {from}"),
        (_, None, None) => what,
    }
}

/// A `terms_changed` item: `{"context", "file", "what", "from", "to", "loosens"}`.
#[derive(Serialize)]
pub(crate) struct TermJson<'a> {
    context: Option<&'a str>,
    file: &'a str,
    what: String,
    from: Option<String>,
    to: Option<String>,
    loosens: bool,
}

pub(crate) fn terms_json(report: &GateReport) -> Vec<TermJson<'_>> {
    report.terms_changed.iter().map(term_json).collect()
}

fn term_json(c: &TermChange) -> TermJson<'_> {
    let text = |v: &Option<TermValue>| v.as_ref().map(ToString::to_string);
    TermJson {
        context: c.context.as_deref(),
        file: &c.file,
        what: c.term.what(),
        from: text(&c.from),
        to: text(&c.to),
        loosens: c.loosens,
    }
}

/// A `tightenable` item: `{"path", "unit", "metric", "value", "baseline"}`.
#[derive(Serialize)]
pub(crate) struct Tightenable<'a> {
    path: &'a str,
    unit: &'a str,
    metric: Metric,
    value: u64,
    baseline: Option<u64>,
}

pub(crate) fn tightenable_json(report: &GateReport) -> Vec<Tightenable<'_>> {
    report.tightenable.iter().map(tightenable).collect()
}

fn tightenable(f: &Finding) -> Tightenable<'_> {
    Tightenable {
        path: &f.path,
        unit: &f.unit,
        metric: f.verdict.metric,
        value: f.verdict.value,
        baseline: f.verdict.baseline,
    }
}

/// The `--pr-summary` sections `### Terms changed on this branch` and `### Baseline can
/// tighten`, each when it has something to say.
pub(crate) fn pr_summary(report: &GateReport, out: &mut String) {
    if !report.accepted_growth.is_empty() {
        out.push_str(
            "\n### Growth accepted on this branch\n\n\
             The branch raised these pins in its baseline; `--accept-growth` honoured each \
             within the base's band.\n\n",
        );
        for f in &report.accepted_growth {
            let _ = writeln!(out, "- `{}`", growth_text(f));
        }
    }
    if !report.terms_changed.is_empty() {
        out.push_str(
            "\n### Terms changed on this branch\n\n\
             Not applied: the gate judged this branch by the terms at its base.\n\n",
        );
        for change in &report.terms_changed {
            let file = format!("`{}`", change.file);
            let context = change.context.as_ref().map(|c| format!("{c}: "));
            let _ = writeln!(
                out,
                "- {}{file}: {} (**{}**)",
                context.unwrap_or_default(),
                change_text(change),
                verdict(change)
            );
        }
    }
    if !report.tightenable.is_empty() {
        out.push_str("\n### Baseline can tighten\n\n");
        for f in &report.tightenable {
            let v = &f.verdict;
            let baseline = v.baseline.unwrap_or(v.value);
            let (path, unit, metric, value) = (&f.path, &f.unit, v.metric, v.value);
            let _ = writeln!(
                out,
                "- `{path}` `{unit}`: {metric} {value} (baseline {baseline})"
            );
        }
        out.push_str(
            "\nRun `structgate baseline refresh` to record the lower values, and commit the \
             baseline.\n",
        );
    }
}
