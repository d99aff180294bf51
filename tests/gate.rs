//! `structgate gate` on scenario repositories (docs/src/reference/gate.md).

use crate::common;

use common::{after_base, cs_class, principles, Scenario};

#[test]
fn baseline_from_init_records_the_old_excess() {
    let s = Scenario::feature_of_inventory();
    assert_eq!(
        s.read("structure-baseline.tsv"),
        "# path\tunit\tmetric\tvalue — units over their Limits when measured, each tolerated up to its value\n\
         # measured with: function_lines=10 tolerance_percent=20\n\
         # owned:\tsrc\n\
         # units: 2\n\
         src/Big.cs\tBig.Old\tfunction_lines\t20\n"
    );
}

#[test]
fn a_branch_that_touches_no_owned_file_passes_with_zero_files_judged() {
    let s = Scenario::feature_of_inventory();
    s.write("README.md", "notes\n");
    s.commit("notes");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    let base = s.rev_parse("main");
    assert_eq!(
        run.stdout,
        format!(
            "base {base} (merge-base of HEAD and main)\n\
             structure judged 0 file(s) in 1 context(s), within their Limits\n"
        )
    );
}

#[test]
fn an_old_excess_in_an_untouched_file_never_fails() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 6)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
}

fn grown_small(s: &Scenario) {
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
}

fn assert_fails_on_small(s: &Scenario) {
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)",
        ]
    );
}

#[test]
fn an_unstaged_change_is_judged() {
    let s = Scenario::feature_of_inventory();
    grown_small(&s);
    assert_fails_on_small(&s);
}

#[test]
fn a_staged_change_is_judged() {
    let s = Scenario::feature_of_inventory();
    grown_small(&s);
    s.git_ok(&["add", "src/Small.cs"]);
    assert_fails_on_small(&s);
}

#[test]
fn a_committed_change_is_judged() {
    let s = Scenario::feature_of_inventory();
    grown_small(&s);
    s.commit("grow");
    assert_fails_on_small(&s);
}

#[test]
fn a_new_untracked_file_is_judged() {
    let s = Scenario::feature_of_inventory();
    s.write("src/New.cs", &cs_class("New", &[("Go", 13)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("src/New.cs:3 New.Go: function_lines 13 > 10 (band 12)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn ignored_and_deleted_files_are_not_judged() {
    let s = Scenario::feature_of_inventory();
    s.write(".gitignore", "src/gen/\n");
    s.write("src/gen/Out.cs", &cs_class("Out", &[("Go", 40)]));
    s.remove("src/Big.cs");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
}

#[test]
fn the_baseline_tolerates_its_value_and_not_one_line_more() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20), ("Extra", 4)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 21)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("src/Big.cs:3 Big.Old: function_lines 21 > 10 (band 12, baseline 20)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_divergence_passes_and_is_listed_and_summarised() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 12)]));
    let run = s.gate(&["--pr-summary", "summary.md"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "Structure within tolerance:",
            "  src/Small.cs:3 Small.Run: function_lines 12 > 10 (band 12)",
        ]
    );
    assert_eq!(
        s.read("summary.md"),
        "**Structure passed**: structure judged 1 file(s) in 1 context(s), within their \
         Limits\n\n\
         ### Structure within tolerance\n\n\
         - `src/Small.cs` `Small.Run`: function_lines 12 > 10 (band 12)\n"
    );
}

#[test]
fn a_branch_cannot_loosen_its_own_gate() {
    let s = Scenario::feature_of_inventory();
    s.write("principles.md", &principles("function_lines: 100\n"));
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - elsewhere\n",
    );
    s.write(
        "structure-baseline.tsv",
        &s.read("structure-baseline.tsv").replace("\t20\n", "\t30\n"),
    );
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 25)]));
    s.commit("loosen");
    grown_small(&s);
    let header = format!(
        "// <auto-generated/>\n{}",
        cs_class("Small", &[("Run", 13)])
    );
    s.write("src/Small.cs", &header);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.redact(&run.stdout));
}

#[test]
fn files_that_landed_on_main_after_the_cut_are_not_this_branchs_bill() {
    let s = Scenario::feature_of_inventory();
    let cut = s.rev_parse("HEAD");
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("src/Late.cs", &cs_class("Late", &[("Big", 30)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 30)]));
    s.commit("late on main");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.write("README.md", "notes\n");
    s.commit("notes");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "base {cut} (merge-base of HEAD and main)\n\
             structure judged 0 file(s) in 1 context(s), within their Limits\n"
        )
    );
}

#[test]
fn no_comparable_base_is_said_and_require_judged_fails() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "--orphan", "lonely"]);
    s.commit("unrelated");
    let run = s.gate(&["--base", "main"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no merge-base of HEAD with main\n"
    );
    let run = s.gate(&["--base", "main", "--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
}

#[test]
fn start_is_the_base_when_no_merge_base_is_found() {
    let s = Scenario::feature_of_inventory();
    let start = s.rev_parse("HEAD");
    s.git_ok(&["branch", "-D", "main"]);
    grown_small(&s);
    let run = s.gate(&["--start", &start]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with(&format!("base {start} ")),
        "{}",
        run.stdout
    );
}

#[test]
fn no_context_with_limits_and_baseline_is_not_judged() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    grown_small(&s);
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["status"], "not_judged");
    assert_eq!(v["not_judged"][0]["reason"], "no-judged-context");
    assert_eq!(
        v["not_judged"][0]["detail"],
        format!(
            "base {} (merge-base of HEAD and main) has none, and the gate reads its terms at \
             the base: push or merge the commit that adds them into main, or pass --base \
             <branch> naming a branch that holds it",
            s.rev_parse("main")
        )
    );
    assert_eq!(v["contexts"][0]["judged"], false);
    assert_eq!(v["contexts"][0]["reason"], "no baseline at the merge-base");
}

#[test]
fn json_has_every_field_of_the_spec() {
    let s = Scenario::feature_of_inventory();
    grown_small(&s);
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.redact(&run.stdout));
}

#[test]
fn a_git_mv_keeps_the_allowance_and_says_so() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("renamed src/Big.cs -> src/Moved.cs: judged at the new path, with the baseline entries of src/Big.cs\n"),
        "{}",
        run.stdout
    );
    s.commit("move");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn a_renamed_unit_does_not_keep_the_allowance() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    s.write("src/Moved.cs", &cs_class("Big", &[("Older", 20)]));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("src/Moved.cs:3 Big.Older: function_lines 20 > 10 (band 12)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn new_test_and_generated_files_are_listed_as_left_out() {
    let s = Scenario::feature_of_inventory();
    s.write(
        "src/Inventory.Tests/PriceTests.cs",
        &cs_class("PriceTests", &[("Long", 40)]),
    );
    s.write("src/Api.g.cs", &cs_class("Api", &[("Long", 40)]));
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let left: Vec<&str> = v["left_out"]
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["path"].as_str().expect("path"))
        .collect();
    assert_eq!(left, ["src/Api.g.cs", "src/Inventory.Tests/PriceTests.cs"]);
    assert_eq!(v["judged_files"], 0);
}

#[test]
fn sandboxes_count_a_unit_once_at_the_worse_value() {
    let s = Scenario::feature_of_inventory();
    let (_other, wt) = s.linked_worktree("feature2");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    std::fs::write(wt.join("src/Small.cs"), cs_class("Small", &[("Run", 15)])).expect("write");
    let run = s.gate(&[".", wt.to_str().expect("utf8")]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 15 > 10 (band 12)",
        ]
    );
}

#[test]
fn a_repository_without_commits_is_not_judged() {
    let s = Scenario::git();
    s.write("src/A.cs", "class A {}\n");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .starts_with("structure not judged: no comparable base: "),
        "{}",
        run.stdout
    );
}

#[test]
fn outside_a_repository_is_an_error() {
    let s = Scenario::plain();
    let run = s.gate(&[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
}

#[test]
fn judged_and_unjudged_contexts_are_both_named() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("web/context.yaml", "meta:\n  name: web\n  workdir: web\n");
    s.write("web/principles.md", &principles("function_lines: 10\n"));
    s.commit("web without a baseline");
    s.git_ok(&["checkout", "-q", "-b", "feature2"]);
    s.write("web/App.cs", &cs_class("App", &[("Go", 40)]));
    grown_small(&s);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)",
            "structure not judged in web (no baseline at the merge-base); judged: inventory",
            "left out web/App.cs: no judged context owns it at the base (context web has no \
             baseline at the merge-base)",
        ]
    );
}

#[test]
fn json_lists_every_context_not_judged_also_when_another_was() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write(
        "other/context.yaml",
        "meta:\n  name: other\n  workdir: other\n",
    );
    s.write("other/principles.md", &principles("function_lines: 10\n"));
    s.write(
        "plain/context.yaml",
        "meta:\n  name: plain\n  workdir: plain\n",
    );
    s.commit("two more contexts, without a baseline and without limits");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "--ff-only", "main"]);
    grown_small(&s);
    let run = s.gate(&[]);
    assert!(
        run.stdout.contains(
            "structure not judged in other (no baseline at the merge-base), plain (no Limits \
             at the merge-base); judged: inventory\n"
        ),
        "{run:?}"
    );
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["not_judged"],
        serde_json::json!([
            {"reason": "context-without-baseline",
             "detail": "context other: no baseline at the merge-base"},
            {"reason": "context-without-limits",
             "detail": "context plain: no Limits at the merge-base"},
        ])
    );
}

#[test]
fn the_pr_summary_gives_the_status_then_excesses_then_divergences_and_names_files() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    s.write("src/Tests/ATests.cs", &cs_class("ATests", &[("Case", 30)]));
    s.write(
        "src/Small.cs",
        &cs_class("Small", &[("Run", 13), ("Near", 11)]),
    );
    let run = s.gate(&["--pr-summary", "summary.md"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.read("summary.md"));
}
