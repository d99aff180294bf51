//! Terms warnings (docs/src/reference/gate.md#terms-warnings): an unknown Limits key in a
//! judged context's terms at the base turns a limit off; the gate says so in every format
//! and counts it as partial judging, which `--require-judged` fails.

use crate::common;

use common::{after_base, cs_class, principles, Scenario, INVENTORY};

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
        serde_json::json!([{"context": "inventory", "file": "principles.md", "line": 6,
            "key": "function_line", "detail": WARNING}])
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
    assert_eq!(
        s.read("summary.md"),
        format!(
            "**Structure passed**: structure judged 1 file(s) in 1 context(s), within their \
             Limits\n\n\
             ### Terms warnings\n\n\
             - `principles.md:6`: {WARNING}\n\n\
             ### Structure within tolerance\n\n\
             None.\n"
        )
    );
    let sarif = s.gate(&["--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("sarif");
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(
        notes,
        &serde_json::json!([{"level": "warning",
            "message": {"text": format!("terms warning: principles.md:6: {WARNING}")},
            "locations": [{"physicalLocation": {"artifactLocation": {
                "uri": "principles.md", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 6, "endLine": 6}}}]}])
    );
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
