//! `init` output: what was written, the sources found (for the user to confirm), the
//! Limits, the baseline, and the exact commands that commit and gate it.

use std::fmt::Write as _;

use crate::commands::init::{InitReport, DEFAULT_LIMITS};

pub fn text(report: &InitReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "wrote {}", report.written.join(", "));
    if report.sources.is_empty() {
        let _ = writeln!(
            out,
            "sources: none named by a project file; the context owns {} and all below it",
            report.dir
        );
    } else {
        let _ = writeln!(
            out,
            "sources, from the project files found (check them in {}):",
            report.written[0]
        );
        let width = report
            .sources
            .iter()
            .map(|f| f.dir.len())
            .max()
            .unwrap_or(0);
        for found in &report.sources {
            let _ = writeln!(out, "  {:width$}  {}", found.dir, found.why);
        }
    }
    let limits: Vec<String> = DEFAULT_LIMITS
        .iter()
        .map(|(key, value)| format!("{key} {value}"))
        .collect();
    let _ = writeln!(out, "limits: {}", limits.join(", "));
    out.push_str(&super::baseline::text(&report.baseline));
    let files = report.to_commit.join(" ");
    let _ = writeln!(
        out,
        "next: commit them, bring the commit to the branch the gate compares with, and gate:\n\
         \x20 git add {files}\n\
         \x20 git commit -m \"Adopt structgate: Limits and baseline\"\n\
         \x20 git push\n\
         \x20 structgate gate --require-judged"
    );
    out
}
