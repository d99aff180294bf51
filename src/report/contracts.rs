//! `contracts` output (docs/src/reference/contracts.md): one line per finding and a summary, or one JSON object.
//! The gate prints its contract findings with the same line and object.

use std::fmt::Write as _;

use serde_json::json;

use crate::contracts::{Finding, Outcome};
use crate::report::count;

/// `class directory: detail (governed by CONTRACT)`.
pub fn finding_line(f: &Finding) -> String {
    format!(
        "{} {}: {} (governed by {})",
        f.class.key(),
        f.directory,
        f.detail,
        f.governed_by
    )
}

/// A finding as the JSON object of docs/src/reference/contracts.md.
pub fn finding_json(f: &Finding) -> serde_json::Value {
    json!({
        "class": f.class.key(),
        "directory": f.directory,
        "contract": f.contract,
        "governed_by": f.governed_by,
        "detail": f.detail,
    })
}

pub fn text(outcome: &Outcome) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        let _ = writeln!(out, "{}", finding_line(f));
    }
    let _ = writeln!(
        out,
        "{} in {}, {}",
        count(outcome.contracts(), "contract"),
        count(outcome.trees.len(), "tree"),
        count(outcome.findings.len(), "finding")
    );
    out
}

pub fn json(outcome: &Outcome) -> String {
    let trees: Vec<_> = outcome
        .trees
        .iter()
        .map(|t| json!({"root": t.root, "directories": t.directories, "contracts": t.contracts}))
        .collect();
    let findings: Vec<_> = outcome.findings.iter().map(finding_json).collect();
    super::json_text(&json!({"trees": trees, "findings": findings}))
}
