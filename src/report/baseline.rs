//! `baseline init|refresh` output: one line per context, and with `--check` what would
//! change, entry by entry.

use std::fmt::Write as _;

use serde_json::json;

use crate::baseline::EntryKey;
use crate::commands::accept::AcceptReport;
use crate::commands::baseline::{Action, BaselineReport, ContextResult, Mode};
use crate::judge::ratchet::Changes;

fn counts(c: &Changes) -> String {
    format!(
        "{} added, {} lowered, {} dropped{}{}{}",
        c.added.len(),
        c.lowered.len(),
        c.dropped.len(),
        if c.disowned.is_empty() {
            String::new()
        } else {
            format!(", {} no longer owned", c.disowned.len())
        },
        if c.moved.is_empty() {
            String::new()
        } else {
            format!(", {} moved to another file", c.moved.len())
        },
        if c.canonicalised {
            ", rewritten in canonical form"
        } else {
            ""
        }
    )
}

/// What brings an existing baseline up to date, where `init` keeps it.
const REFRESH: &str = "structgate baseline refresh";

fn line(report: &BaselineReport, r: &ContextResult) -> String {
    let (name, path, n) = (&r.name, &r.baseline_path, r.entries);
    let would = if report.check { "would write" } else { "wrote" };
    match (&r.action, report.mode) {
        (Action::NoLimits, _) => format!("{name}: no Limits declared; no baseline written"),
        (Action::NoBaseline, _) => {
            format!("{name}: no baseline to refresh ({path} does not exist; run `structgate baseline init`)")
        }
        (Action::Created, _) => format!("{name}: {would} {path} with {n} unit(s)"),
        (Action::Unchanged, Mode::Init) => {
            format!("{name}: {path} exists; kept as it is ({n} unit(s)); {REFRESH} updates it")
        }
        (Action::Unchanged, Mode::Refresh) => format!("{name}: {path} is up to date ({n} unit(s))"),
        (Action::Updated, Mode::Init) => {
            // init only adds what newly owned directories hold (docs/src/reference/baseline.md).
            let verb = if report.check { "would add" } else { "added" };
            let added = r.changes.added.len();
            format!(
                "{name}: {path} exists; {verb} {added} unit(s) of newly owned directories \
                 ({n} unit(s)); {REFRESH} updates the rest"
            )
        }
        (Action::Updated, Mode::Refresh) => {
            let verb = if report.check {
                "would update"
            } else {
                "refreshed"
            };
            format!("{name}: {verb} {path}: {}; {n} unit(s)", counts(&r.changes))
        }
    }
}

fn key_text(k: &EntryKey) -> String {
    format!("{} {} {}", k.path, k.unit, k.metric)
}

fn details(out: &mut String, c: &Changes) {
    for (k, v) in &c.added {
        let _ = writeln!(out, "  + {} {v}", key_text(k));
    }
    for (k, old, new) in &c.lowered {
        let _ = writeln!(out, "  ~ {} {old} -> {new}", key_text(k));
    }
    for (k, v) in &c.dropped {
        let _ = writeln!(out, "  - {} {v}", key_text(k));
    }
    for (from, to) in &c.moved {
        let _ = writeln!(out, "  > {} -> {}", key_text(from), key_text(to));
    }
}

/// Entries that went because no owned directory holds them: listed on every run.
fn disowned(out: &mut String, c: &Changes) {
    for (k, v) in &c.disowned {
        let _ = writeln!(
            out,
            "  - {} {v} (no longer owned: no sources entry holds {})",
            key_text(k),
            k.path
        );
    }
}

/// What a refresh of a baseline that predated anonymous-function units added for them
/// (docs/src/reference/baseline.md#units).
fn upgraded(out: &mut String, check: bool, c: &Changes) {
    if let Some(n) = c.units_upgraded {
        let verb = if check { "would add" } else { "added" };
        let _ = writeln!(
            out,
            "  {verb} {n} anonymous-function unit(s) past their band: the baseline predated \
             them (it now says # units: 2)"
        );
    }
}

pub fn text(report: &BaselineReport) -> String {
    let mut out = String::new();
    for r in &report.results {
        let _ = writeln!(out, "{}", line(report, r));
        disowned(&mut out, &r.changes);
        upgraded(&mut out, report.check, &r.changes);
        if report.check {
            details(&mut out, &r.changes);
        }
    }
    if report.results.is_empty() {
        out.push_str("no context.yaml found\n");
    }
    out
}

fn entry(k: &EntryKey, value: serde_json::Value) -> serde_json::Value {
    json!({"path": k.path, "unit": k.unit, "metric": k.metric.key(), "value": value})
}

fn changes_json(c: &Changes) -> serde_json::Value {
    json!({
        "added": c.added.iter().map(|(k, v)| entry(k, json!(v))).collect::<Vec<_>>(),
        "lowered": c.lowered.iter().map(|(k, o, n)| {
            let mut e = entry(k, json!(n));
            e["old_value"] = json!(o);
            e
        }).collect::<Vec<_>>(),
        "dropped": c.dropped.iter().map(|(k, v)| entry(k, json!(v))).collect::<Vec<_>>(),
        "disowned": c.disowned.iter().map(|(k, v)| entry(k, json!(v))).collect::<Vec<_>>(),
        "moved": c.moved.iter().map(|(f, t)| json!({"from": entry(f, json!(null)), "to": entry(t, json!(null))})).collect::<Vec<_>>(),
        "canonicalised": c.canonicalised,
        "units_upgraded": c.units_upgraded,
    })
}

fn action_key(a: &Action) -> &'static str {
    match a {
        Action::NoLimits => "no_limits",
        Action::NoBaseline => "no_baseline",
        Action::Created => "created",
        Action::Updated => "updated",
        Action::Unchanged => "unchanged",
    }
}

pub fn json(report: &BaselineReport) -> String {
    let contexts: Vec<_> = report
        .results
        .iter()
        .map(|r| {
            json!({"name": r.name, "baseline": r.baseline_path, "action": action_key(&r.action),
                   "entries": r.entries, "changes": changes_json(&r.changes)})
        })
        .collect();
    super::json_text(&json!({
        "check": report.check,
        "changed": report.would_change(),
        "contexts": contexts,
    }))
}

/// `merged structure-baseline.tsv: 3 unit(s)` (the merge driver, `--verbose`).
pub fn merged(report: &crate::commands::merge_driver::MergeReport) -> String {
    format!(
        "merged {}: {}",
        report.name,
        super::count(report.entries, "unit")
    )
}

/// `baseline accept` text: one line per raised entry with its delta, one per refused
/// value with its band, then what became of each baseline.
pub fn accept_text(report: &AcceptReport) -> String {
    let mut out = String::new();
    for c in &report.contexts {
        accept_lines(&mut out, &c.accepted);
    }
    accept_outcome(&mut out, report);
    out
}

/// One line per raised entry with its delta, then one per refused value.
fn accept_lines(out: &mut String, accepted: &crate::judge::ratchet::Accepted) {
    for r in &accepted.raised {
        let k = &r.key;
        let _ = match r.from {
            Some(from) => writeln!(
                out,
                "{} {}: {} {from} \u{2192} {} (+{}, band {})",
                k.path,
                k.unit,
                k.metric,
                r.to,
                r.to - from,
                r.band
            ),
            None => writeln!(
                out,
                "{} {}: {} pinned at {} (new entry, band {})",
                k.path, k.unit, k.metric, r.to, r.band
            ),
        };
    }
    for r in &accepted.refused {
        let k = &r.key;
        let _ = writeln!(
            out,
            "refused: {} {}: {} {} is past its band {} (+{})",
            k.path,
            k.unit,
            k.metric,
            r.value,
            r.band,
            r.value - r.band
        );
    }
}

/// What became of each baseline, and why nothing was written after a refusal.
fn accept_outcome(out: &mut String, report: &AcceptReport) {
    let refused = report.refused();
    for c in &report.contexts {
        let n = c.accepted.raised.len();
        let (name, path) = (&c.name, &c.baseline_path);
        let _ = if refused > 0 {
            writeln!(out, "{name}: {path} unchanged")
        } else if n == 0 {
            writeln!(out, "{name}: nothing to accept in {path}")
        } else if report.check {
            writeln!(out, "{name}: would raise {n} entry(ies) in {path}")
        } else {
            writeln!(out, "{name}: raised {n} entry(ies) in {path}")
        };
    }
    if refused > 0 {
        let _ = writeln!(
            out,
            "nothing written: {refused} value(s) past their band (a growth past a band is a limit change, not a baseline one)"
        );
    }
}

pub fn accept_json(report: &AcceptReport) -> String {
    let contexts: Vec<serde_json::Value> = report
        .contexts
        .iter()
        .map(|c| {
            let raised: Vec<_> = c
                .accepted
                .raised
                .iter()
                .map(|r| json!({"path": r.key.path, "unit": r.key.unit, "metric": r.key.metric,
                                "from": r.from, "to": r.to, "band": r.band}))
                .collect();
            let refused: Vec<_> = c
                .accepted
                .refused
                .iter()
                .map(|r| json!({"path": r.key.path, "unit": r.key.unit, "metric": r.key.metric,
                                "value": r.value, "band": r.band}))
                .collect();
            json!({"name": c.name, "baseline": c.baseline_path, "raised": raised, "refused": refused})
        })
        .collect();
    super::json_text(
        &json!({"check": report.check, "written": report.written, "contexts": contexts}),
    )
}
