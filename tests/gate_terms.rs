//! What the gate shows a reviewer besides its verdict (docs/src/reference/gate.md#integrity): every change a branch
//! made to its own terms, marked loosens or tightens and never applied, and the baseline
//! entries that can tighten — in text, JSON and `--pr-summary`.

use crate::common;

use common::{after_base, cs_class, pretty_json, principles, Scenario};

/// The gate's text output after its `base` line, as owned strings.
fn text(s: &Scenario) -> (i32, Vec<String>) {
    let run = s.gate(&[]);
    let lines = after_base(&run.stdout)
        .iter()
        .map(|l| l.to_string())
        .collect();
    (run.code, lines)
}

/// `terms_changed` of the gate's JSON.
fn terms_json(s: &Scenario) -> serde_json::Value {
    let run = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    v["terms_changed"].clone()
}

/// The `--pr-summary` Markdown of a gate run (written inside `.git`, where it changes
/// nothing the gate lists).
fn pr_summary(s: &Scenario) -> String {
    let path = s.abs(".git/summary.md");
    let run = s.gate(&["--pr-summary", path.to_str().expect("UTF-8")]);
    assert!(run.code == 0 || run.code == 1, "{run:?}");
    std::fs::read_to_string(path).expect("summary")
}

#[test]
fn limits_raised_lowered_added_and_removed_and_the_tolerance() {
    let s = Scenario::inventory(
        "function_lines: 10\ntype_lines: 100\nfile_lines: 500\ntolerance_percent: 20\n",
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.cut_feature();
    s.write(
        "principles.md",
        &principles(
            "function_lines: 40\ntype_lines: 50\ntypes_per_file: 3\ntolerance_percent: 30\n",
        ),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    let (code, lines) = text(&s);
    assert_eq!(code, 1, "judged by the base's terms: {lines:?}");
    insta::assert_snapshot!("limits_changed_text", lines.join("\n"));
    insta::assert_snapshot!("limits_changed_json", pretty_json(&terms_json(&s)));
    insta::assert_snapshot!("limits_changed_pr_summary", pr_summary(&s));
}

#[test]
fn a_lowered_tolerance_and_an_edit_that_changes_no_term() {
    let s = Scenario::feature_of_inventory();
    s.write(
        "principles.md",
        "# Principles\n\nReworded.\n\n## Limits\n\n```yaml\n# the same terms\ntolerance_percent: 20\nfunction_lines: 10\n```\n",
    );
    assert_eq!(
        text(&s).1,
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 5\n"),
    );
    assert_eq!(
        text(&s).1,
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "terms changed on this branch (not applied):",
            "  inventory: principles.md: tolerance_percent 20 -> 5 (tightens)",
        ]
    );
}

#[test]
fn sources_added_and_removed_and_one_taken_from_another_context() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - src\n  - lib\n",
    );
    s.write("web/context.yaml", "meta:\n  name: web\n  workdir: web\n");
    s.write("web/principles.md", &principles("function_lines: 30\n"));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write("lib/Lib.cs", &cs_class("Lib", &[("Run", 5)]));
    s.cut_feature();
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - src\n  - tools\n  - web/legacy\n",
    );
    let (code, lines) = text(&s);
    assert_eq!(code, 0, "{lines:?}");
    insta::assert_snapshot!("sources_changed_text", lines.join("\n"));
    insta::assert_snapshot!("sources_changed_json", pretty_json(&terms_json(&s)));
    assert!(pr_summary(&s).ends_with(
        "- inventory: `context.yaml`: sources removed: lib (**loosens**)\n\
         - inventory: `context.yaml`: sources added: tools (**tightens**)\n\
         - inventory: `context.yaml`: sources added: web/legacy, taken from web (**loosens**)\n"
    ));
}

#[test]
fn baseline_entries_added_raised_lowered_and_removed() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write(
        "src/Big.cs",
        &cs_class("Big", &[("Old", 20), ("Mid", 25), ("Gone", 30)]),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.cut_feature();
    let header = s.read("structure-baseline.tsv");
    let header: String = header.lines().take(3).map(|l| format!("{l}\n")).collect();
    s.write(
        "structure-baseline.tsv",
        &format!(
            "{header}src/Big.cs\tBig.Mid\tfunction_lines\t15\n\
             src/Big.cs\tBig.Old\tfunction_lines\t35\n\
             src/Small.cs\tSmall.Run\tfunction_lines\t40\n"
        ),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
    let (code, lines) = text(&s);
    assert_eq!(code, 1, "the branch's own entry is not applied: {lines:?}");
    insta::assert_snapshot!("baseline_entries_changed_text", lines.join("\n"));
    insta::assert_snapshot!(
        "baseline_entries_changed_json",
        pretty_json(&terms_json(&s))
    );
    assert!(pr_summary(&s).ends_with(
        "- inventory: `structure-baseline.tsv`: src/Big.cs Big.Gone function_lines removed: 30 (**tightens**)\n\
         - inventory: `structure-baseline.tsv`: src/Big.cs Big.Mid function_lines 25 -> 15 (**tightens**)\n\
         - inventory: `structure-baseline.tsv`: src/Big.cs Big.Old function_lines 20 -> 35 (**loosens**)\n\
         - inventory: `structure-baseline.tsv`: src/Small.cs Small.Run function_lines added: 40 (**loosens**)\n"
    ));
}

#[test]
fn contexts_added_and_removed_and_a_baseline_removed() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("web/context.yaml", "meta:\n  name: web\n  workdir: web\n");
    s.write("web/principles.md", &principles("function_lines: 30\n"));
    s.commit("web");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.remove("web/context.yaml");
    s.remove("web/principles.md");
    s.remove("structure-baseline.tsv");
    s.write(
        "src/legacy/context.yaml",
        "meta:\n  name: legacy\n  workdir: src/legacy\n",
    );
    s.write(
        "tools/context.yaml",
        "meta:\n  name: tools\n  workdir: tools\n",
    );
    insta::assert_snapshot!("contexts_changed_text", text(&s).1.join("\n"));
    insta::assert_snapshot!("contexts_changed_json", pretty_json(&terms_json(&s)));
}

fn contract(require: Option<bool>) -> String {
    let children = require.map_or(String::new(), |r| {
        format!("children:\n  require_contract: {r}\n")
    });
    format!("---\nschema: context/v1\ntitle: T\n{children}---\n# T\n")
}

#[test]
fn a_contracts_require_contract_changed() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("docs/README.md", &contract(Some(true)));
    s.write("guides/README.md", &contract(Some(false)));
    s.write("notes/README.md", &contract(Some(true)));
    s.write("plain/README.md", "# Not a contract\n");
    s.commit("contracts");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.write("docs/README.md", &contract(Some(false)));
    s.write("guides/README.md", &contract(Some(true)));
    s.write("notes/README.md", &contract(None));
    s.write("plain/README.md", &contract(Some(false)));
    insta::assert_snapshot!("require_contract_changed_text", text(&s).1.join("\n"));
    insta::assert_snapshot!(
        "require_contract_changed_json",
        pretty_json(&terms_json(&s))
    );
    assert!(pr_summary(&s).ends_with(
        "- `docs/README.md`: children.require_contract true -> false (**loosens**)\n\
         - `guides/README.md`: children.require_contract false -> true (**tightens**)\n\
         - `notes/README.md`: children.require_contract removed: true (**loosens**)\n"
    ));
}

#[test]
fn broken_terms_on_the_branch_are_listed_and_the_base_still_judges() {
    let s = Scenario::feature_of_inventory();
    s.write("principles.md", &principles("function_lines: -3\n"));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    let (code, lines) = text(&s);
    assert_eq!(code, 1, "{lines:?}");
    assert_eq!(
        lines,
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)",
            "terms changed on this branch (not applied):",
            "  inventory: principles.md: does not read on the branch: principles.md:6: function_lines: -3 is not a positive whole number (loosens)",
        ]
    );
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 20\n"),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - ../outside\n",
    );
    s.write(
        "structure-baseline.tsv",
        "src/Big.cs\tBig.Old\tfunction_lines\tmany\n",
    );
    s.write("new/context.yaml", "sources: [unclosed\n");
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["status"], "passed");
    insta::assert_snapshot!("broken_terms_json", pretty_json(&v["terms_changed"]));
}

#[test]
fn a_baseline_that_can_tighten_below_its_entry_or_back_within_the_band() {
    let s = Scenario::inventory(common::BAND_12);
    s.write(
        "src/Big.cs",
        &cs_class("Big", &[("Old", 20), ("Other", 25), ("Same", 30)]),
    );
    s.cut_feature();
    s.write(
        "src/Big.cs",
        &cs_class("Big", &[("Old", 15), ("Other", 11), ("Same", 30)]),
    );
    let (code, lines) = text(&s);
    assert_eq!(code, 0, "{lines:?}");
    insta::assert_snapshot!("can_tighten_text", lines.join("\n"));
    let run = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["tightenable"],
        serde_json::json!([
            {"path": "src/Big.cs", "unit": "Big.Old", "metric": "function_lines",
             "value": 15, "baseline": 20},
            {"path": "src/Big.cs", "unit": "Big.Other", "metric": "function_lines",
             "value": 11, "baseline": 25},
        ])
    );
    insta::assert_snapshot!("can_tighten_pr_summary", pr_summary(&s));
    // The branch commits the refresh: the lower entries show as terms it changed (the
    // gate still judges by the base's baseline), and no longer as entries that can tighten.
    assert_eq!(s.run(&["baseline", "refresh"]).code, 0);
    insta::assert_snapshot!("can_tighten_refreshed_text", text(&s).1.join("\n"));
}

#[test]
fn a_terms_file_past_max_file_size_is_not_read_on_the_branch() {
    let s = Scenario::feature_of_inventory();
    let padding = format!("<!-- {} -->\n", "x".repeat(300));
    s.write(
        "principles.md",
        &format!("{padding}{}", principles("function_lines: 99\n")),
    );
    let run = s.gate(&["--max-file-size", "200"]);
    assert_eq!(run.code, 0, "{run:?}");
    let size = s.read("principles.md").len();
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "terms changed on this branch (not applied):",
            &format!(
                "  inventory: principles.md: does not read on the branch: principles.md: {size} bytes, \
                 larger than --max-file-size (200) (loosens)"
            ),
        ]
    );
}

#[test]
fn a_git_mv_and_a_refresh_that_moves_its_entries_loosen_nothing() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    s.commit("move");
    assert_eq!(s.run(&["baseline", "refresh"]).code, 0);
    assert!(s
        .read("structure-baseline.tsv")
        .ends_with("src/Moved.cs\tBig.Old\tfunction_lines\t20\n"));
    let (code, lines) = text(&s);
    assert_eq!(code, 0, "{lines:?}");
    assert_eq!(
        lines,
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "terms changed on this branch (not applied):",
            "  inventory: structure-baseline.tsv: src/Big.cs Big.Old function_lines removed: 20 (tightens)",
            "renamed src/Big.cs -> src/Moved.cs: judged at the new path, with the baseline entries of src/Big.cs",
        ]
    );
    // A moved entry raised on the way is a raise over the old path's entry.
    s.write(
        "structure-baseline.tsv",
        &s.read("structure-baseline.tsv").replace("\t20\n", "\t26\n"),
    );
    assert_eq!(
        text(&s).1[2..4],
        [
            "  inventory: structure-baseline.tsv: src/Big.cs Big.Old function_lines removed: 20 (tightens)",
            "  inventory: structure-baseline.tsv: src/Moved.cs Big.Old function_lines 20 -> 26 (loosens)",
        ]
    );
}

#[test]
fn github_format_warns_of_loosened_terms_and_notes_the_rest() {
    let s = Scenario::inventory(common::BAND_12);
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
    s.cut_feature();
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 15)]));
    s.write(
        "principles.md",
        &principles("function_lines: 30\ntolerance_percent: 10\n"),
    );
    let run = s.gate(&["--format", "github"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.lines().take(3).collect::<Vec<_>>(),
        [
            "::warning file=principles.md,title=terms loosened on this branch (not applied)::inventory: principles.md: function_lines 10 -> 30",
            "::notice file=principles.md,title=terms tightened on this branch (not applied)::inventory: principles.md: tolerance_percent 20 -> 10",
            "::notice file=src/Big.cs,line=3,title=baseline can tighten::src/Big.cs Big.Old: function_lines 15 (baseline 20)",
        ]
    );
}

#[test]
fn baseline_header_edits_are_listed_and_loosen_where_a_later_refresh_would_record_more() {
    // At the base: the header records function_lines 10 (band 12) and owns src.
    let s = Scenario::feature_of_inventory();
    let at_base = s.read("structure-baseline.tsv");
    let entries: String = at_base
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let title = at_base.lines().next().expect("title");
    // The branch records function_lines 40 and drops src from `# owned:`: a refresh after
    // the merge would record a function grown to 40 lines as "exposed by a changed limit",
    // and every excess in src as newly owned.
    s.write(
        "structure-baseline.tsv",
        &format!(
            "{title}\n# measured with: function_lines=40 tolerance_percent=20\n# owned:\tlib\n{entries}"
        ),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    let (code, lines) = text(&s);
    assert_eq!(code, 1, "judged by the base's baseline: {lines:?}");
    assert_eq!(
        lines,
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)",
            "terms changed on this branch (not applied):",
            "  inventory: structure-baseline.tsv: # measured with: function_lines 10 -> 40 (loosens)",
            "  inventory: structure-baseline.tsv: # owned: src -> lib (loosens)",
        ]
    );
    insta::assert_snapshot!("baseline_header_changed_json", pretty_json(&terms_json(&s)));
    assert!(pr_summary(&s).ends_with(
        "- inventory: `structure-baseline.tsv`: # measured with: function_lines 10 -> 40 (**loosens**)\n\
         - inventory: `structure-baseline.tsv`: # owned: src -> lib (**loosens**)\n"
    ));
    // Why it loosens: with the branch's header, a refresh records the grown function;
    // with the base's, it doesn't (the gate catches it).
    let refresh = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!(
        (refresh.code, refresh.stdout.as_str()),
        (
            1,
            "inventory: would update structure-baseline.tsv: 1 added, 0 lowered, 0 dropped; 2 unit(s)\n  \
             would add 0 anonymous-function unit(s) past their band: the baseline predated them \
             (it now says # units: 2)\n  \
             + src/Small.cs Small.Run function_lines 13\n"
        )
    );
    s.write("structure-baseline.tsv", &at_base);
    assert_eq!(s.run(&["baseline", "refresh", "--check"]).code, 0);
    // The header line removed (no recorded limits: a refresh adds every excess), and a
    // directory added to `# owned:` (fewer newly owned files: tightens).
    s.write(
        "structure-baseline.tsv",
        &format!("{title}\n# owned:\tlib\tsrc\n{entries}"),
    );
    let (code, lines) = text(&s);
    assert_eq!(code, 1, "{lines:?}");
    assert_eq!(
        lines[2..],
        [
            "terms changed on this branch (not applied):",
            "  inventory: structure-baseline.tsv: # measured with: removed: function_lines=10 tolerance_percent=20 (loosens)",
            "  inventory: structure-baseline.tsv: # owned: src -> lib, src (tightens)",
        ]
    );
}
