//! Listing by raw working-tree bytes (docs/src/reference/gate.md#integrity "git attributes and config change
//! nothing"): attributes that convert files, and configuration or index flags a process
//! can set locally, neither fail the listing nor hide a changed file.

use crate::common::{after_base, cs_class, principles, Scenario};
use crate::gate_integrity::{assert_fails_forty, feature_with_forty, FORTY};

#[test]
fn a_working_tree_encoding_on_the_branch_fails_no_listing() {
    for encoding in ["UTF-16LE-BOM", "UTF-32", "UTF-16"] {
        let s = feature_with_forty();
        s.write(
            ".gitattributes",
            &format!("* working-tree-encoding={encoding}\n"),
        );
        let run = s.gate(&[]);
        assert_fails_forty(&run);
        assert_eq!(run.stderr, "", "{encoding}: {run:?}");
        // Committed (git itself can no longer add the UTF-8 files, nor `*` itself).
        s.write(
            ".gitattributes",
            &format!("*.cs working-tree-encoding={encoding}\n"),
        );
        s.git_ok(&["add", ".gitattributes"]);
        s.git_ok(&["commit", "-q", "-m", "attributes"]);
        assert_fails_forty(&s.gate(&[]));
        let run = s.gate(&["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
        assert_eq!(v["status"], "failed");
        assert_eq!(v["contexts"][0]["judged"], true);
        assert_eq!(v["not_judged"], serde_json::json!([]));
    }
}

#[test]
fn a_utf16_branch_in_a_fresh_clone_is_judged_and_its_new_file_unmeasurable() {
    let s = feature_with_forty();
    s.commit("forty");
    s.write(
        ".gitattributes",
        "*.cs working-tree-encoding=UTF-16LE-BOM\n",
    );
    s.git_ok(&["add", ".gitattributes"]);
    s.git_ok(&["commit", "-q", "-m", "utf-16"]);
    let clone = Scenario::plain();
    let dest = clone.abs("c");
    let dest_str = dest.to_str().expect("utf8");
    let url = format!("file://{}", s.path().display());
    s.git_ok(&["clone", "-q", "--branch", "feature", &url, dest_str]);
    let bytes = std::fs::read(dest.join("src/Forty.cs")).expect("read");
    assert_eq!(bytes[..4], [0xff, 0xfe, b'p', 0], "checked out as UTF-16");
    // Once the clone's index is newer than its files, the unchanged ones are stat-clean.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    clone.git_ok(&["-C", dest_str, "update-index", "-q", "--really-refresh"]);
    let run = clone.run_in(&dest, &["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s): 1 file(s) unmeasurable",
            "src/Forty.cs: unmeasurable (not UTF-8)",
        ]
    );
}

#[test]
fn local_configuration_hides_no_new_file() {
    let settings: [&[&str]; 2] = [
        &["status.showUntrackedFiles", "no"],
        &["core.excludesFile", "ignored-here"],
    ];
    for setting in settings {
        let s = feature_with_forty();
        s.write("ignored-here", "*.cs\n");
        s.git_ok(&[&["config"][..], setting].concat());
        assert_fails_forty(&s.gate(&[]));
    }
    let s = feature_with_forty();
    s.write(".git/info/exclude", "src/Forty.cs\n");
    assert_fails_forty(&s.gate(&[]));
}

#[test]
fn core_ignore_case_hides_no_file_that_differs_in_case() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["config", "core.ignoreCase", "true"]);
    s.write("src/small.cs", &cs_class("Forty", &[("Run", 40)]));
    let run = s.gate(&[]);
    crate::gate_integrity::assert_fails_with(
        &run,
        &crate::gate_integrity::forty_in("src/small.cs", "Forty.Run"),
    );
}

#[test]
fn index_flags_hide_no_changed_file() {
    for flag in ["--assume-unchanged", "--skip-worktree"] {
        let s = Scenario::feature_of_inventory();
        s.git_ok(&["update-index", flag, "src/Small.cs"]);
        s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
        assert_eq!(s.git_ok(&["status", "--porcelain"]), "", "git sees nothing");
        let run = s.gate(&[]);
        crate::gate_integrity::assert_fails_with(
            &run,
            &crate::gate_integrity::forty_in("src/Small.cs", "Small.Run"),
        );
    }
}

#[test]
fn a_file_rewritten_to_its_base_bytes_after_a_stage_is_judged_as_it_is() {
    // Staged and then put back: the working tree's bytes are what is judged.
    let s = feature_with_forty();
    s.git_ok(&["add", "src/Forty.cs"]);
    s.write("src/Forty.cs", &cs_class("Forty", &[("Run", 5)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    s.write("src/Forty.cs", &cs_class("Forty", &[("Run", 40)]));
    s.git_ok(&["add", "src/Forty.cs"]);
    assert_eq!(after_base(&s.gate(&[]).stdout)[1], FORTY);
}

/// The three ways to ignore a path: a committed `.gitignore`, `.git/info/exclude` and the
/// user's global excludes file (`core.excludesFile` in `$HOME/.gitconfig`).
const IGNORE_RULES: [&str; 3] = ["committed .gitignore", "info/exclude", "global excludes"];

/// Ignores `pattern` in `s` the way `how` (one of [`IGNORE_RULES`]) names.
fn ignore(s: &Scenario, pattern: &str, how: &str) {
    match how {
        "committed .gitignore" => {
            s.write(".gitignore", &format!("{pattern}\n"));
            s.commit("ignore");
        }
        "info/exclude" => {
            s.write(".git/info/exclude", &format!("{pattern}\n"));
        }
        _ => {
            s.write(".git/global-ignore", &format!("{pattern}\n"));
            s.git_ok(&[
                "config",
                "--global",
                "core.excludesFile",
                ".git/global-ignore",
            ]);
        }
    }
}

#[test]
fn ignore_rules_hide_no_tracked_document_from_the_gate() {
    for how in IGNORE_RULES {
        // guide.md (36 bytes) loads shared/rules.md (34) and shared/tone.md, under
        // `loaded_bytes: 100`.
        let s = Scenario::git();
        s.write(
            "docs/context.yaml",
            "meta:\n  name: docs\n  workdir: docs\n",
        );
        s.write("docs/principles.md", &principles("loaded_bytes: 100\n"));
        s.write("docs/guide.md", "# Guide\n\nFollow @../shared/rules.md\n");
        s.write(
            "shared/rules.md",
            "Rules. The tone: (@tone.md).\n\n\n\n\n\n",
        );
        s.write("shared/tone.md", "Be kind.\n");
        s.cut_feature();
        ignore(&s, "docs/guide.md", how);
        s.write("shared/tone.md", &format!("Be kind.\n{}\n", "x".repeat(30)));
        let run = s.gate(&["--require-judged"]);
        assert_eq!(run.code, 1, "{how}: {run:?}");
        assert_eq!(
            after_base(&run.stdout),
            [
                "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
                "docs/guide.md:1 guide.md: loaded_bytes 110 > 100 (band 100) \
                 (imports changed: shared/tone.md)",
            ],
            "{how}"
        );
    }
}

#[test]
fn ignore_rules_hide_no_tracked_directory_from_the_contract_check() {
    let contract = "---\nschema: context/v1\ntitle: Docs\n---\n# What this directory is for\n";
    for how in IGNORE_RULES {
        let s = Scenario::git();
        s.write("context.yaml", "meta:\n  name: app\nsources:\n  - src\n");
        s.write("principles.md", &principles("function_lines: 10\n"));
        s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
        s.write("docs/README.md", contract);
        s.cut_feature();
        s.write("docs/deploy/one.md", "x\n");
        s.git_ok(&["add", "-f", "docs/deploy/one.md"]);
        s.commit("deploy");
        ignore(&s, "docs/deploy/", how);
        let run = s.gate(&[]);
        assert_eq!(run.code, 1, "{how}: {run:?}");
        assert_eq!(
            after_base(&run.stdout),
            [
                "structure judged 0 file(s) in 1 context(s), within their Limits",
                "contracts checked 1 directory(ies) in managed trees: 1 finding(s)",
                "missing-contract docs/deploy: no README.md (governed by docs/README.md)",
            ],
            "{how}"
        );
    }
}

#[test]
fn ignore_rules_hide_no_tracked_file_from_measure() {
    for how in IGNORE_RULES {
        let s = Scenario::feature_of_inventory();
        s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
        ignore(&s, "src/", how);
        let run = s.run(&["measure", "--check", "--over"]);
        assert_eq!(run.code, 1, "{how}: {run:?}");
        let excess = "src/Small.cs:3   function  Small.Run      40 lines  params 0  nesting 0  \
                      cyclomatic 1  cognitive 0  excess: function_lines 40 > 10 (band 12)";
        assert!(run.stdout.lines().any(|l| l == excess), "{how}: {run:?}");
        // An untracked file follows the working tree's ignore rules as before.
        s.write("src/New.cs", &cs_class("New", &[("Run", 40)]));
        let run = s.run(&["measure", "--over"]);
        assert!(!run.stdout.contains("New.Run"), "{how}: {run:?}");
    }
}
