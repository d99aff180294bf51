//! `gate --staged` (docs/src/reference/gate.md#integrity "the commit is what counts"): the index is judged, each
//! file from its staged blob, so a partly staged file is judged as the commit holds it.

use crate::common::{after_base, cs_class, Scenario};

const PASSED_NONE: &str = "structure judged 0 file(s) in 1 context(s), within their Limits";

#[test]
fn a_partly_staged_file_is_judged_as_staged() {
    let s = Scenario::feature_of_inventory();
    // Staged grown, then put back in the working tree: the commit would hold the growth.
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
    s.git_ok(&["add", "src/Small.cs"]);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    let run = s.gate(&[]);
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"],
        "{run:?}"
    );
    let run = s.gate(&["--staged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 40 > 10 (band 12)",
        ]
    );
    // The other way round: staged small, grown only in the working tree.
    s.git_ok(&["add", "src/Small.cs"]);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
    assert_eq!(s.gate(&[]).code, 1);
    let run = s.gate(&["--staged"]);
    assert_eq!(after_base(&run.stdout), [PASSED_NONE], "{run:?}");
    // Untracked and intent-to-add files are no part of the commit.
    s.write("src/Forty.cs", &cs_class("Forty", &[("Run", 40)]));
    s.write("src/More.cs", &cs_class("More", &[("Run", 40)]));
    s.git_ok(&["add", "-N", "src/More.cs"]);
    let run = s.gate(&["--staged"]);
    assert_eq!(after_base(&run.stdout), [PASSED_NONE], "{run:?}");
    s.git_ok(&["add", "src/Forty.cs"]);
    let run = s.gate(&["--staged", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["excesses"][0]["path"], "src/Forty.cs");
    assert_eq!(v["judged_files"], 1);
}

#[test]
fn a_staged_rename_and_a_staged_link_are_judged_as_staged() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    let run = s.gate(&["--staged"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "renamed src/Big.cs -> src/Moved.cs: judged at the new path, with the baseline \
             entries of src/Big.cs",
        ]
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("Moved.cs", s.abs("src/Link.cs")).expect("link");
        s.git_ok(&["add", "src/Link.cs"]);
        let run = s.gate(&["--staged"]);
        assert!(
            run.stdout.ends_with(
                "left out src/Link.cs: a symbolic link, not followed: what it points at is \
                 not judged\n"
            ),
            "{run:?}"
        );
    }
}
