//! `limits` output: per context its owned directories, limits, bands, origins and
//! baseline state.

use std::fmt::Write as _;

use serde_json::json;

use crate::limits::Origin;
use crate::terms::{ContextTerms, Terms};

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

fn one_text(out: &mut String, c: &ContextTerms) {
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
        let _ = writeln!(
            out,
            "  limits: none declared in {}",
            c.context.principles_path()
        );
    }
    for (metric, value) in &l.values {
        let band = l.band(*metric).unwrap_or(*value);
        let from = origin_text(l.origins.get(metric.key()));
        let _ = writeln!(
            out,
            "  {:<17} {value:>6}  band {band:>6}  from {from}",
            metric.key()
        );
    }
    if c.limits.is_some() || l.origins.contains_key("tolerance_percent") {
        let from = origin_text(l.origins.get("tolerance_percent"));
        let _ = writeln!(
            out,
            "  {:<17} {:>6}  from {from}",
            "tolerance_percent", l.tolerance_percent
        );
    }
    let _ = writeln!(out, "  baseline: {}", baseline_text(c));
}

pub fn text(terms: &Terms) -> String {
    let mut out = String::new();
    if terms.contexts.is_empty() {
        out.push_str("no context.yaml found\n");
    }
    for c in &terms.contexts {
        one_text(&mut out, c);
    }
    out
}

fn one_json(c: &ContextTerms) -> serde_json::Value {
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
        "limits": limits,
        "tolerance_percent": {"value": l.tolerance_percent,
                              "from": origin_key(l.origins.get("tolerance_percent"))},
        "baseline": {"path": c.context.baseline_path(), "exists": c.baseline.is_some(),
                     "entries": c.baseline.as_ref().map(|b| b.entries.len())},
    })
}

pub fn json(terms: &Terms) -> String {
    let contexts: Vec<_> = terms.contexts.iter().map(one_json).collect();
    super::json_text(&json!({ "contexts": contexts }))
}
