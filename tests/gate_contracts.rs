//! `structgate gate` and directory contracts (docs/src/reference/gate.md, docs/src/reference/contracts.md): the directories a branch
//! touches are checked, with obligations read from the base's contracts.

use crate::common;

use common::{after_base, cs_class, principles, Scenario};

fn contract(extra: &str) -> String {
    format!("---\nschema: context/v1\n{extra}---\n# What this directory is for\n")
}

/// `main` holds a context with Limits and a baseline over `src`, and a managed tree
/// `docs` (root contract, a documented `docs/guides`); HEAD is branch `feature`.
fn repo() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\nsources:\n  - src\n");
    s.write("principles.md", &principles("function_lines: 10\n"));
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    s.write("docs/README.md", &contract("title: Docs\n"));
    s.write("docs/guides/README.md", &contract("title: Guides\n"));
    s.write("docs/guides/setup.md", "x\n");
    s.cut_feature();
    s
}

#[test]
fn a_branch_adding_an_undocumented_directory_fails() {
    let s = repo();
    s.write("docs/guides/deploy/steps/one.md", "x\n");
    s.commit("add deploy");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "contracts checked 2 directory(ies) in managed trees: 2 finding(s)",
            "missing-contract docs/guides/deploy: no README.md (governed by docs/README.md)",
            "missing-contract docs/guides/deploy/steps: no README.md (governed by \
             docs/README.md)",
        ]
    );
}

#[test]
fn lowering_an_existing_parent_on_the_branch_still_fails_its_new_directory() {
    let s = repo();
    s.write(
        "docs/guides/README.md",
        &contract("title: Guides\nchildren:\n  require_contract: false\n"),
    );
    s.write("docs/guides/deploy/one.md", "x\n");
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(value["status"], "failed");
    assert_eq!(
        value["contract_findings"],
        serde_json::json!([{
            "class": "missing-contract",
            "directory": "docs/guides/deploy",
            "contract": null,
            "governed_by": "docs/README.md",
            "detail": "no README.md"
        }])
    );
    assert_eq!(value["excesses"], serde_json::json!([]));
}

#[test]
fn a_documented_directory_passes_and_old_findings_elsewhere_are_not_charged() {
    let s = repo();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("docs/legacy/old.md", "x\n");
    s.commit("an undocumented directory on main");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.write("docs/api/README.md", &contract("title: API\n"));
    s.write("docs/api/v1.md", "x\n");
    s.write("docs/index.md", "x\n");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "contracts checked 2 directory(ies) in managed trees: 0 finding(s)",
        ]
    );
}

#[test]
fn deleting_or_breaking_a_contract_fails() {
    let s = repo();
    s.remove("docs/guides/README.md");
    s.write(
        "docs/README.md",
        "---\nschema: context/v1\ntitle: [Docs\n---\n",
    );
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines = after_base(&run.stdout);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        lines[1],
        "contracts checked 2 directory(ies) in managed trees: 2 finding(s)"
    );
    assert!(
        lines[2].starts_with(
            "invalid-contract docs: README.md:4: the front matter is not valid YAML: "
        ),
        "{lines:?}"
    );
    assert_eq!(
        lines[3],
        "missing-contract docs/guides: no README.md (governed by docs/README.md)"
    );
}

#[test]
fn contracts_are_checked_where_no_context_has_limits() {
    let s = Scenario::git();
    s.write("docs/README.md", &contract(""));
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("docs/new/a.md", "x\n");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.redact(&run.stdout));
    s.write("docs/new/README.md", &contract(""));
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(value["status"], "not_judged");
    assert_eq!(value["contract_findings"], serde_json::json!([]));
}

#[test]
fn without_a_managed_tree_the_gate_says_nothing_of_contracts() {
    let s = repo();
    s.write("notes/README.md", "# Notes\n");
    s.write("notes/today.md", "x\n");
    s.write("src/A.cs", &cs_class("A", &[("Run", 6)]));
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
}

#[test]
fn the_pr_summary_lists_contract_findings() {
    let s = repo();
    s.write("docs/new/a.md", "x\n");
    let summary = s.abs("summary.md");
    let path = summary.to_string_lossy().into_owned();
    let run = s.run(&["gate", "--pr-summary", &path]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(std::fs::read_to_string(&summary).expect("summary"));
}

#[test]
fn contract_findings_show_in_github_and_sarif_output() {
    let s = repo();
    s.write("docs/guides/deploy/one.md", "x\n");
    let run = s.run(&["gate", "--format", "github"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with(
            "::error file=docs/guides/deploy,title=missing-contract::missing-contract \
             docs/guides/deploy: no README.md (governed by docs/README.md)\n"
        ),
        "{}",
        run.stdout
    );
    let run = s.run(&["gate", "--format", "sarif"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "missing-contract");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "docs/guides/deploy"
    );
}

#[test]
fn sandboxes_count_a_directory_both_check_once() {
    let s = repo();
    let (_other, wt) = s.linked_worktree("feature2");
    // Both working trees add the same undocumented directories; the main one also another.
    s.write("docs/guides/deploy/steps/one.md", "x\n");
    s.write("docs/faq/q.md", "x\n");
    std::fs::create_dir_all(wt.join("docs/guides/deploy/steps")).expect("mkdir");
    std::fs::write(wt.join("docs/guides/deploy/steps/two.md"), "x\n").expect("write");
    let run = s.gate(&[".", wt.to_str().expect("utf8")]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(after_base(&run.stdout).join("\n"));
}
