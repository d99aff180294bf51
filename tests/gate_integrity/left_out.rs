//! Nothing leaves the gate's view silently (docs/src/reference/gate.md#integrity): a symbolic link new on the
//! branch in owned directories, and a file moved out of every judged context, are
//! listed as left out with their reason codes.

use crate::common::{cs_class, Scenario};

#[cfg(unix)]
#[test]
fn a_new_symbolic_link_in_owned_directories_is_listed() {
    let s = Scenario::feature_of_inventory();
    s.write("elsewhere/Forty.cs", &cs_class("Forty", &[("Run", 40)]));
    std::os::unix::fs::symlink("../elsewhere/Forty.cs", s.abs("src/Forty.cs")).expect("link");
    std::os::unix::fs::symlink("../elsewhere", s.abs("src/more")).expect("link");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        crate::common::after_base(&run.stdout),
        [
            crate::common::BASE_IS_HEAD,
            "left out elsewhere/Forty.cs: no judged context owns it at the base",
            "left out src/Forty.cs: a symbolic link, not followed: what it points at is not judged",
            "left out src/more: a symbolic link, not followed: what it points at is not judged",
        ]
    );
    s.commit("links");
    let run = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let reasons: Vec<(&str, &str)> = v["left_out"]
        .as_array()
        .expect("list")
        .iter()
        .map(|l| (l["path"].as_str().unwrap(), l["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        reasons,
        [
            ("elsewhere/Forty.cs", "unowned"),
            ("src/Forty.cs", "symbolic-link"),
            ("src/more", "symbolic-link")
        ]
    );
}

#[test]
fn a_file_moved_out_of_every_judged_context_is_listed_with_both_paths() {
    let s = Scenario::feature_of_inventory();
    std::fs::create_dir_all(s.abs("scripts")).expect("mkdir");
    s.git_ok(&["mv", "src/Big.cs", "scripts/Big.cs"]);
    s.write(
        "scripts/Big.cs",
        &cs_class("Big", &[("Old", 20), ("More", 8)]),
    );
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["left_out"],
        serde_json::json!([{"path": "scripts/Big.cs", "reason": "moved-out",
            "detail": "moved out of every judged context's owned directories, from src/Big.cs (context inventory)"}])
    );
    let run = s.gate(&[]);
    assert!(
        run.stdout.ends_with(
            "left out scripts/Big.cs: moved out of every judged context's owned directories, \
             from src/Big.cs (context inventory)\n"
        ),
        "{}",
        run.stdout
    );
}
