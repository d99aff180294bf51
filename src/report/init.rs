//! `init` output: what was written, the sources found (for the user to confirm), the
//! Limits, the baseline, and the exact commands that commit and gate it.

use std::fmt::Write as _;

use crate::commands::init::agent::{Added, HOOK_COMMAND};
use crate::commands::init::{InitReport, AGENT_DOCS_LIMITS};

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
    let limits: Vec<String> = crate::model::metric::init_defaults()
        .map(|(key, value)| format!("{key} {value}"))
        .collect();
    let _ = writeln!(out, "limits: {}", limits.join(", "));
    agent_docs(report, &mut out);
    out.push_str(&super::baseline::text(&report.baseline));
    out.push_str(&agents(&report.agents));
    let files = report.to_commit.join(" ");
    let _ = writeln!(
        out,
        "next: commit them on a branch and gate it (until it merges, the gate judges it by \
         the terms it adds), then open the pull request:\n\
         \x20 git switch -c adopt-structgate\n\
         \x20 git add {files}\n\
         \x20 git commit -m \"Adopt structgate: Limits and baseline\"\n\
         \x20 structgate gate --require-judged\n\
         \x20 git push -u origin adopt-structgate"
    );
    out
}

/// Where the agent documents' budget went, and what it holds.
fn agent_docs(report: &InitReport, out: &mut String) {
    let docs = &report.agent_docs;
    if docs.is_empty() {
        return;
    }
    let dir = &report.agent_docs_dir;
    let _ = writeln!(
        out,
        "agent documents: {} budgeted by the context in {dir} (each pinned at its size; \
         a new one within {} bytes):",
        docs.documents.len(),
        limit("new_file_bytes"),
    );
    for doc in &docs.documents {
        let _ = writeln!(out, "  {doc}");
    }
    let limits: Vec<String> = AGENT_DOCS_LIMITS
        .iter()
        .map(|(key, value)| format!("{key} {value}"))
        .collect();
    let _ = writeln!(out, "agent document limits: {}", limits.join(", "));
}

fn limit(key: &str) -> &'static str {
    AGENT_DOCS_LIMITS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, v)| v)
}

/// What `init --agent` added to each host's settings file, one line each.
pub fn agents(added: &[Added]) -> String {
    let mut out = String::new();
    for a in added {
        let events: Vec<String> = a
            .events
            .iter()
            .map(|(event, matcher)| match matcher {
                Some(m) => format!("{event} (matcher {m})"),
                None => event.clone(),
            })
            .collect();
        let _ = match (events.is_empty(), a.created) {
            (true, _) => writeln!(
                out,
                "{}: already runs `{HOOK_COMMAND}`; nothing added",
                a.path
            ),
            (false, created) => writeln!(
                out,
                "{}: {} `{HOOK_COMMAND}` on {}",
                a.path,
                if created { "created, running" } else { "added" },
                events.join(" and ")
            ),
        };
    }
    out
}
