//! The adoption pull request (docs/src/reference/gate.md#adoption): when no context at the
//! base has terms, the branch that adds them is judged by them, and says so first; any
//! base context with terms turns this off.

use crate::common;

use common::{after_base, cs_class, exact, principles, Scenario, BAND_12, INVENTORY};

const ADOPTION: &str = "structure judged 1 file(s) by the terms this branch adds (the base \
                        has none; from the merge on, the base's terms judge)";

/// `main` holds code and no terms (`src/Big.cs` with the 20-line `Big.Old`, `src/Small.cs`
/// with the 5-line `Small.Run`); branch `adopt` adds the `inventory` context (function_lines
/// 10, band 12) and its baseline (tolerating `Big.Old`), committed.
fn adoption_branch() -> Scenario {
    let s = Scenario::git();
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.commit("code before structgate");
    s.git_ok(&["checkout", "-q", "-b", "adopt"]);
    s.write("context.yaml", INVENTORY);
    s.write("principles.md", &principles(BAND_12));
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    s.commit("Adopt structgate: Limits and baseline");
    s
}

#[test]
fn the_adoption_pull_request_is_judged_by_the_terms_it_adds_and_says_so_first() {
    let s = adoption_branch();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.commit("grow Small.Run");
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!("adoption_text", after_base(&run.stdout).join("\n"));
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["terms_from"], "branch");
    assert_eq!(v["status"], "failed");
    assert_eq!(v["not_judged"], serde_json::json!([]));
    assert_eq!(
        v["contexts"],
        serde_json::json!([{"name": "inventory", "judged": true, "reason": null}])
    );
    let summary = s.abs("summary.md");
    s.gate(&["--pr-summary", summary.to_str().expect("utf-8")]);
    insta::assert_snapshot!("adoption_pr_summary", exact(&s.read("summary.md")));
}

#[test]
fn an_adoption_within_its_terms_passes_require_judged() {
    let s = adoption_branch();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 9)]));
    s.commit("grow Small.Run a little");
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout)[..2],
        [
            ADOPTION,
            "structure judged 1 file(s) in 1 context(s), within their Limits"
        ]
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        (&v["terms_from"], &v["status"]),
        (&"branch".into(), &"passed".into())
    );
}

#[test]
fn any_base_context_with_terms_turns_adoption_off() {
    let s = Scenario::git();
    s.write("docs/context.yaml", "sources: [docs]\n");
    s.write("docs/principles.md", &principles("file_bytes: 100000\n"));
    s.write("docs/guide.md", "# Guide\n");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("docs under terms");
    s.git_ok(&["checkout", "-q", "-b", "adopt"]);
    s.write("context.yaml", INVENTORY);
    s.write("principles.md", &principles(BAND_12));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.commit("adopt for code, and grow");
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout)[0],
        "structure judged 0 file(s) in 1 context(s), within their Limits"
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["terms_from"], "base");
}
