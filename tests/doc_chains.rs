//! Chain budgets (docs/src/reference/documents.md#chains): `chain_bytes` counts a document with every same-name
//! document in the directories above it and all their imports, each distinct file once;
//! the gate judges a document whose chain changed though the document did not.

use crate::common;

use common::{after_base, principles, Scenario};

/// A root context with `limits`; `AGENTS.md` (33 bytes) imports `shared.md` (14),
/// `svc/agents.md` (30) imports it too, `svc/api/AGENTS.md` is 6 bytes. With `eol` as
/// the line break of every document.
fn tree(limits: &str, eol: &str) -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: agents\n");
    s.write("principles.md", &principles(limits));
    let doc = |lines: &[&str]| {
        lines
            .iter()
            .map(|l| format!("{l}{eol}"))
            .collect::<String>()
    };
    s.write(
        "AGENTS.md",
        &doc(&["# Root", "", "Be brief.", "Use @shared.md"]),
    );
    s.write("shared.md", &doc(&["Shared rules."]));
    s.write(
        "svc/agents.md",
        &doc(&["# Service", "", "Also @../shared.md"]),
    );
    s.write("svc/api/AGENTS.md", &doc(&["# Api"]));
    s
}

/// `(chain_bytes, chain)` of each Markdown file `measure --format json` lists.
fn chains(s: &Scenario) -> Vec<(String, u64, serde_json::Value)> {
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let files = v["files"].as_array().expect("files").iter();
    files
        .map(|f| {
            let path = f["path"].as_str().expect("path").to_string();
            (
                path,
                f["chain_bytes"].as_u64().expect("chain_bytes"),
                f["chain"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_shared_import_counts_once_across_the_chain() {
    let s = tree("chain_bytes: 200\n", "\n");
    let found = chains(&s);
    let of = |path: &str| found.iter().find(|(p, ..)| p == path).cloned().expect(path);
    // 33 + 14, then 30 more for svc/agents.md: shared.md is counted once, not twice.
    assert_eq!(
        of("AGENTS.md"),
        ("AGENTS.md".into(), 47, serde_json::json!([]))
    );
    assert_eq!(
        of("svc/agents.md"),
        ("svc/agents.md".into(), 77, serde_json::json!(["AGENTS.md"]))
    );
    assert_eq!(
        of("svc/api/AGENTS.md"),
        (
            "svc/api/AGENTS.md".into(),
            83,
            serde_json::json!(["AGENTS.md", "svc/agents.md"])
        )
    );
    let run = s.run(&["measure", "svc"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.lines().take(2).collect::<Vec<_>>(),
        [
            "svc/agents.md:1      file      agents.md  3 lines, 30 bytes, loads 44 bytes, chain 77 bytes  ok",
            "svc/api/AGENTS.md:1  file      AGENTS.md  1 line, 6 bytes, loads 6 bytes, chain 83 bytes  ok",
        ]
    );
}

#[test]
fn crlf_and_lf_chains_measure_the_same() {
    let lf = chains(&tree("chain_bytes: 200\n", "\n"));
    let crlf = chains(&tree("chain_bytes: 200\n", "\r\n"));
    assert_eq!(lf, crlf);
    assert_eq!(lf.iter().map(|(_, b, _)| *b).max(), Some(83));
}

#[test]
fn a_root_agents_md_growth_fails_the_nested_documents_on_chain_bytes() {
    let s = tree("chain_bytes: 100\n", "\n");
    s.cut_feature();
    // 33 → 52 bytes: svc/agents.md's chain 77 → 96 fits, svc/api/AGENTS.md's 83 → 102.
    s.write(
        "AGENTS.md",
        "# Root\n\nBe brief. Be kind. Be exact.\nUse @shared.md\n",
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 3 file(s) in 1 context(s): 1 excess(es) past the band",
            "svc/api/AGENTS.md:1 AGENTS.md: chain_bytes 102 > 100 (band 100) (chain changed: AGENTS.md)",
        ]
    );
    assert_eq!(run.stderr, "");
    let run = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["excesses"],
        serde_json::json!([{
            "path": "svc/api/AGENTS.md", "unit": "AGENTS.md", "metric": "chain_bytes",
            "value": 102, "limit": 100, "band": 100, "baseline": null,
            "start_line": 1, "end_line": 1, "base_value": 83, "chain_changed": ["AGENTS.md"],
        }])
    );
}

#[test]
fn a_changed_import_of_the_chain_rejudges_it_and_unrelated_changes_judge_nothing() {
    let s = tree("chain_bytes: 100\n", "\n");
    s.cut_feature();
    s.write("notes.md", "Unrelated.\n");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
    s.write("shared.md", "Shared rules, and more of them.\n");
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 5 file(s) in 1 context(s): 1 excess(es) past the band",
            "svc/api/AGENTS.md:1 AGENTS.md: chain_bytes 101 > 100 (band 100) (chain changed: shared.md)",
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_namesake_that_is_a_symbolic_link_is_read_through_it() {
    let s = tree("chain_bytes: 200\n", "\n");
    s.remove("svc/agents.md");
    s.write("elsewhere/AGENTS.md", &"x".repeat(500));
    std::os::unix::fs::symlink("../elsewhere/AGENTS.md", s.abs("svc/AGENTS.md")).expect("link");
    std::os::unix::fs::symlink("../svc", s.abs("elsewhere/svc")).expect("link");
    let found = chains(&s);
    let of = |path: &str| found.iter().find(|(p, ..)| p == path).cloned();
    assert_eq!(
        of("svc/api/AGENTS.md"),
        Some((
            "svc/api/AGENTS.md".into(),
            553,
            serde_json::json!(["AGENTS.md", "svc/AGENTS.md"])
        ))
    );
    // The linked directory's documents are not measured through the link.
    assert_eq!(of("elsewhere/svc/api/AGENTS.md"), None);
}

#[cfg(unix)]
#[test]
fn a_root_agents_md_swapped_for_a_link_outside_the_owned_directories_is_judged() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: svc\nsources:\n  - svc\n");
    s.write("principles.md", &principles("chain_bytes: 100\n"));
    s.write("AGENTS.md", "# Root\n");
    s.write("svc/AGENTS.md", "# Svc\n");
    s.cut_feature();
    // The root AGENTS.md (no context owns it) becomes a link to a new 200-byte file.
    s.write("notes/big.md", &format!("{}\n", "x".repeat(199)));
    s.remove("AGENTS.md");
    std::os::unix::fs::symlink("notes/big.md", s.abs("AGENTS.md")).expect("link");
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "svc/AGENTS.md:1 AGENTS.md: chain_bytes 206 > 100 (band 100) \
             (chain changed: AGENTS.md, notes/big.md)",
        ]
    );
}
