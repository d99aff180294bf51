//! `limits` output: per context its owned directories, limits, bands, origins and
//! baseline state.

use std::fmt::Write as _;

use serde_json::json;

use crate::commands::limits::LimitsReport;
use crate::limits::{band_of, Limits, Origin, Tier};
use crate::terms::{ContextTerms, TierFiles};

fn dir_text(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
}

fn origin_text(origin: Option<&Origin>) -> &'static str {
    match origin {
        Some(Origin::Limits) => "## Limits",
        Some(Origin::ProjectSpecifics) => "Project Specifics ### Limits",
        None => "default",
    }
}

fn origin_key(origin: Option<&Origin>) -> &'static str {
    match origin {
        Some(Origin::Limits) => "limits",
        Some(Origin::ProjectSpecifics) => "project_specifics",
        None => "default",
    }
}

fn baseline_text(c: &ContextTerms) -> String {
    match &c.baseline {
        Some(b) => format!(
            "{} with {} unit(s)",
            c.context.baseline_path(),
            b.entries.len()
        ),
        None => format!("none ({} does not exist)", c.context.baseline_path()),
    }
}

fn one_text(out: &mut String, c: &ContextTerms, tiers: &[TierFiles]) {
    let _ = writeln!(out, "{} ({})", c.context.name, dir_text(&c.context.dir));
    let owned: Vec<&str> = c.context.owned.iter().map(|d| dir_text(d)).collect();
    let _ = writeln!(out, "  owns: {}", owned.join(", "));
    let l = &c.declared;
    if !c.principles_found {
        let _ = writeln!(
            out,
            "  limits: none ({} does not exist)",
            c.context.principles_path()
        );
    } else if c.limits.is_none() {
        let why = c.no_limits.clone().unwrap_or_default();
        let _ = writeln!(
            out,
            "  limits: none declared in {} ({})",
            c.context.principles_path(),
            why.reason
        );
        for found in &why.found_instead {
            let _ = writeln!(out, "    found instead: {found}");
        }
    }
    for (metric, value) in &l.values {
        let band = l.band(*metric).unwrap_or(*value);
        let from = origin_text(l.origins.get(metric.key()));
        let pin = if l.is_pinned(*metric) { "  pinned" } else { "" };
        let _ = writeln!(
            out,
            "  {:<w$} {value:>6}  band {band:>6}  from {from}{pin}",
            metric.key(),
            w = key_width()
        );
    }
    pins_and_tiers_text(out, l, tiers);
    if c.limits.is_some() || l.origins.contains_key("tolerance_percent") {
        let from = origin_text(l.origins.get("tolerance_percent"));
        let _ = writeln!(
            out,
            "  {:<w$} {:>6}  from {from}",
            "tolerance_percent",
            l.tolerance_percent,
            w = key_width()
        );
    }
    let _ = writeln!(out, "  baseline: {}", baseline_text(c));
}

/// The width of the key column: the longest Limits key, so every value lines up.
fn key_width() -> usize {
    crate::model::metric::METRICS
        .iter()
        .map(|m| m.key.len())
        .chain(["tolerance_percent", crate::limits::NEW_FILE_BYTES_KEY].map(str::len))
        .max()
        .unwrap_or(0)
}

/// `new_file_bytes`, `pinned` and each tier with its values, bands and files (docs/src/reference/documents.md#pins-and-tiers).
fn pins_and_tiers_text(out: &mut String, l: &Limits, tiers: &[TierFiles]) {
    if let Some(value) = l.new_file_bytes {
        let band = band_of(value, l.tolerance_percent);
        let from = origin_text(l.origins.get(crate::limits::NEW_FILE_BYTES_KEY));
        let key = crate::limits::NEW_FILE_BYTES_KEY;
        let w = key_width();
        let _ = writeln!(out, "  {key:<w$} {value:>6}  band {band:>6}  from {from}");
    }
    if !l.pinned.is_empty() {
        let keys: Vec<&str> = l.pinned.iter().map(|m| m.key()).collect();
        let from = origin_text(l.origins.get(crate::limits::PINNED_KEY));
        let _ = writeln!(out, "  pinned: {}  from {from}", keys.join(", "));
    }
    for (tier, files) in l.tiers.iter().zip(tiers) {
        let _ = writeln!(out, "  tier {} ({})", tier.name, tier.patterns.join(", "));
        for (key, value) in tier.settings() {
            let band = band_of(value, l.tolerance_percent);
            let pinned = crate::model::Metric::from_key(&key).is_some_and(|m| l.is_pinned(m));
            let pin = if pinned { "  pinned" } else { "" };
            let w = key_width() - 2;
            let _ = writeln!(out, "    {key:<w$} {value:>6}  band {band:>6}{pin}");
        }
        let _ = writeln!(out, "    files: {}", files.files.len());
        for file in &files.files {
            let _ = writeln!(out, "      {file}");
        }
    }
}

pub fn text(rep: &LimitsReport) -> String {
    let mut out = String::new();
    if rep.terms.contexts.is_empty() {
        out.push_str("no context.yaml found\n");
    }
    for (c, tiers) in rep.terms.contexts.iter().zip(&rep.tiers) {
        one_text(&mut out, c, tiers);
    }
    out
}

fn tier_json(l: &Limits, tier: &Tier, files: &TierFiles) -> serde_json::Value {
    let mut limits = serde_json::Map::new();
    for (key, value) in tier.settings() {
        let band = band_of(value, l.tolerance_percent);
        limits.insert(key, json!({"value": value, "band": band}));
    }
    json!({"name": tier.name, "paths": tier.patterns, "limits": limits, "files": files.files})
}

fn one_json(c: &ContextTerms, tiers: &[TierFiles]) -> serde_json::Value {
    let l = &c.declared;
    let mut limits = serde_json::Map::new();
    for (metric, value) in &l.values {
        limits.insert(
            metric.key().to_string(),
            json!({"value": value, "band": l.band(*metric), "from": origin_key(l.origins.get(metric.key()))}),
        );
    }
    json!({
        "name": c.context.name,
        "directory": c.context.dir,
        "owned": c.context.owned,
        "principles": c.context.principles_path(),
        "has_limits": c.limits.is_some(),
        "no_limits": c.no_limits.as_ref().map(|n| json!({"reason": n.reason, "found_instead": n.found_instead})),
        "limits": limits,
        "tolerance_percent": {"value": l.tolerance_percent,
                              "from": origin_key(l.origins.get("tolerance_percent"))},
        "new_file_bytes": l.new_file_bytes.map(|v| json!({"value": v,
                              "band": band_of(v, l.tolerance_percent),
                              "from": origin_key(l.origins.get(crate::limits::NEW_FILE_BYTES_KEY))})),
        "pinned": l.pinned.iter().map(|m| m.key()).collect::<Vec<_>>(),
        "tiers": l.tiers.iter().zip(tiers).map(|(t, f)| tier_json(l, t, f)).collect::<Vec<_>>(),
        "baseline": {"path": c.context.baseline_path(), "exists": c.baseline.is_some(),
                     "entries": c.baseline.as_ref().map(|b| b.entries.len())},
    })
}

pub fn json(rep: &LimitsReport) -> String {
    let contexts: Vec<_> = rep
        .terms
        .contexts
        .iter()
        .zip(&rep.tiers)
        .map(|(c, t)| one_json(c, t))
        .collect();
    super::json_text(&json!({ "contexts": contexts }))
}
