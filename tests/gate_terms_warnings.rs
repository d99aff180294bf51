//! Terms warnings (docs/src/reference/gate.md#terms-warnings): an unknown Limits key in a
//! judged context's terms at the base turns a limit off; the gate says so in every format
//! and counts it as partial judging, which `--require-judged` fails. A limit or pin the
//! terms set that the baseline's header doesn't record is in force, and every command
//! that reads the terms says so (docs/src/reference/baseline.md#terms-and-baseline-out-of-step).

use crate::common;

use common::{
    after_base, cs_class, cs_method, pretty_json, principles, Scenario, BAND_12, INVENTORY,
};

const WARNING: &str = "unknown Limits key function_line (did you mean function_lines?): that \
                       limit is not in force";

/// `main` holds the `inventory` context whose principles.md, hand-edited after its
/// baseline was written, says `function_line: 40` (line 6) for `function_lines`, beside
/// `type_lines: 300`; branch `feature` grows `Small.Run` to 103 lines, committed.
fn typo_at_the_base() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", INVENTORY);
    s.write(
        "principles.md",
        &principles("function_lines: 40\ntype_lines: 300\n"),
    );
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write(
        "principles.md",
        &principles("function_line: 40\ntype_lines: 300\n"),
    );
    s.commit("base, a key misspelt by hand");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 103)]));
    s.commit("grow Small.Run");
    s
}

#[test]
fn an_unknown_limits_key_at_the_base_is_a_terms_warning_and_partial_judging() {
    let s = typo_at_the_base();
    let run = s.gate(&[]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            &format!("terms warning: principles.md:6: {WARNING}"),
        ]
    );
    let required = s.gate(&["--require-judged"]);
    assert_eq!(required.code, 1, "{required:?}");
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["status"], "passed");
    assert_eq!(
        v["terms_warnings"],
        serde_json::json!([{"kind": "unknown-limits-key", "context": "inventory",
            "file": "principles.md", "line": 6, "key": "function_line", "detail": WARNING}])
    );
    assert_eq!(
        v["not_judged"],
        serde_json::json!([{"reason": "unknown-limits-key",
            "detail": format!("context inventory: principles.md:6: {WARNING}")}])
    );
}

#[test]
fn every_format_carries_the_terms_warning() {
    let s = typo_at_the_base();
    let summary = s.abs("summary.md");
    let run = s.gate(&["--pr-summary", summary.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("terms_warning_pr_summary", s.read("summary.md"));
    let sarif = s.gate(&["--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("sarif");
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    insta::assert_snapshot!("terms_warning_sarif_notifications", pretty_json(notes));
    let github = s.gate(&["--format", "github"]);
    assert!(
        github.stdout.starts_with(&format!(
            "::warning file=principles.md,line=6,title=terms warning::{WARNING}\n"
        )),
        "{}",
        github.stdout
    );
    let required = s.gate(&["--format", "sarif", "--require-judged"]);
    assert_eq!(required.code, 1, "{required:?}");
}

const UNRECORDED: &str = "principles.md sets type_lines, which structure-baseline.tsv does not \
                          record: structgate baseline refresh records today's excesses";

/// `main` holds the `inventory` context whose baseline was written under function_lines
/// 10 (band 12) alone, recording `Big.Old` (20 lines); `type_lines: 15` (band 18, line 8)
/// was added to principles.md by hand afterwards, without a refresh: class `Big` (23
/// lines) is past it. Branch `feature` adds a 3-line method to `Big`, committed.
fn limit_added_without_refresh() -> Scenario {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write(
        "principles.md",
        &principles(&format!("{BAND_12}type_lines: 15\n")),
    );
    s.commit("base, type_lines added by hand");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    let grown = cs_class("Big", &[("Old", 20)])
        .replace("}\n}\n", &format!("}}\n{}}}\n", cs_method("New", 3)));
    s.write("src/Big.cs", &grown);
    s.commit("add Big.New");
    s
}

#[test]
fn a_limit_the_baseline_does_not_record_is_judged_and_said_by_every_command() {
    let s = limit_added_without_refresh();
    let warning = format!("warning: {UNRECORDED}\n");
    let limits = s.run(&["limits"]);
    assert_eq!((limits.code, limits.stderr.as_str()), (0, warning.as_str()));
    // Judged as it always was: Big is past type_lines, which nothing tolerates.
    let measured = s.run(&["measure", "--check", "src/Big.cs"]);
    assert_eq!(
        (measured.code, measured.stdout.as_str(), measured.stderr.as_str()),
        (
            1,
            "src/Big.cs:1   file      Big.cs   26 lines, 1 type(s), 443 bytes                            ok\n\
             src/Big.cs:1   type      Big      26 lines                                                  excess: type_lines 26 > 15 (band 18)\n\
             src/Big.cs:3   function  Big.Old  20 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  tolerated (limit 10, band 12, baseline 20)\n\
             src/Big.cs:23  function  Big.New  3 lines  params 0  nesting 0  cyclomatic 1  cognitive 0   ok\n\
             measured 1 file(s): 2 function(s), 1 type(s); 1 excess(es), 0 divergence(s), 1 \
             tolerated by the baseline\n",
            warning.as_str()
        )
    );
    let init = s.run(&["baseline", "init"]);
    assert_eq!(
        (init.code, init.stdout.as_str(), init.stderr.as_str()),
        (
            0,
            "inventory: structure-baseline.tsv exists; kept as it is (1 unit(s)); structgate \
             baseline refresh updates it\n",
            warning.as_str()
        )
    );
    let gate = s.gate(&[]);
    assert_eq!((gate.code, gate.stderr.as_str()), (1, ""), "{gate:?}");
    assert_eq!(
        after_base(&gate.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Big.cs:1 Big: type_lines 26 > 15 (band 18)",
            &format!("terms warning: principles.md:8: {UNRECORDED}"),
        ]
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["terms_warnings"],
        serde_json::json!([{"kind": "unrecorded-limit", "context": "inventory",
            "file": "principles.md", "line": 8, "key": "type_lines", "detail": UNRECORDED}])
    );
    // In force: the context is judged whole.
    assert_eq!(v["not_judged"], serde_json::json!([]));
    // The refresh records it, and nothing is said any more.
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(
        (refresh.code, refresh.stdout.as_str(), refresh.stderr.as_str()),
        (
            0,
            "inventory: refreshed structure-baseline.tsv: 1 added, 0 lowered, 0 dropped; 2 unit(s)\n",
            ""
        )
    );
    let after = s.run(&["limits"]);
    assert_eq!((after.code, after.stderr.as_str()), (0, ""));
}

#[test]
fn a_pin_the_baseline_does_not_record_is_said_with_the_context_s_own_files() {
    let s = Scenario::git();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles("file_bytes: 1000\n"));
    s.write("docs/a.md", "# A\n");
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write(
        "docs/principles.md",
        &principles("file_bytes: 1000\npinned: [file_bytes]\n"),
    );
    s.commit("base, file_bytes pinned by hand");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("docs/a.md", "# A\n\nMore.\n");
    s.commit("grow a.md");
    let said = "docs/principles.md pins file_bytes, which docs/structure-baseline.tsv does not \
                record: structgate baseline refresh pins today's values";
    let limits = s.run(&["limits"]);
    assert_eq!(
        (limits.code, limits.stderr.as_str()),
        (0, format!("warning: {said}\n").as_str())
    );
    let gate = s.gate(&["--require-judged"]);
    assert_eq!((gate.code, gate.stderr.as_str()), (0, ""), "{gate:?}");
    assert_eq!(
        after_base(&gate.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            &format!("terms warning: docs/principles.md:7: {said}"),
        ]
    );
}
