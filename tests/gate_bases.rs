//! The gate's base as a user meets it (docs/src/reference/gate.md#base): the not-judged
//! line names the base it used and what would judge, `-v` lists every base and why it was
//! or wasn't taken, a `--base` that names nothing is an error, and the shallow-clone hint
//! names a branch that exists.

use crate::common;

use std::path::{Path, PathBuf};

use common::{after_base, cs_class, pretty_json, principles, Scenario, BASE_IS_HEAD, INVENTORY};

/// An upstream repository on `master` whose `inventory` context has Limits but no
/// baseline yet (`src/Small.cs`, 5-line `Small.Run`), and a full clone of it (`origin/HEAD`
/// → `origin/master`) where the commit adding the baseline sits on local `master` only,
/// and branch `feature` grows `Small.Run` to 13 lines (past its band of 12). Returns
/// (upstream, clone dir).
fn adopted_locally() -> (Scenario, PathBuf) {
    let up = Scenario::git();
    up.git_ok(&["checkout", "-q", "-b", "master"]);
    up.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    up.write("context.yaml", INVENTORY);
    up.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 20\n"),
    );
    up.commit("Limits, no baseline yet");
    let dest = up.abs("clone");
    let url = format!("file://{}", up.path().display());
    up.git_ok(&["clone", "-q", &url, dest.to_str().expect("utf-8")]);
    let c = In(&up, &dest);
    c.git(&["config", "user.name", "Test"]);
    c.git(&["config", "user.email", "test@example.com"]);
    let init = up.run_in(&dest, &["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    c.git(&["add", "-A"]);
    c.git(&["commit", "-q", "-m", "adopt structgate"]);
    c.git(&["checkout", "-q", "-b", "feature"]);
    c.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    (up, dest)
}

/// Git and files in a directory of a scenario.
struct In<'a>(&'a Scenario, &'a Path);

impl In<'_> {
    fn git(&self, args: &[&str]) -> String {
        let mut all = vec!["-C", self.1.to_str().expect("utf-8")];
        all.extend_from_slice(args);
        self.0.git_ok(&all)
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.1.join(rel), text).expect("write");
    }
}

#[test]
fn a_base_before_adoption_names_itself_and_the_base_that_would_judge() {
    let (up, dest) = adopted_locally();
    let run = up.run_in(&dest, &["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(up.redact_in(&dest, &run.stdout));
    assert_eq!(up.run_in(&dest, &["gate", "--require-judged"]).code, 1);
    // What the line says would judge does.
    let run = up.run_in(&dest, &["gate", "--base", "master"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout.lines().nth(2),
        Some("src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)")
    );
}

#[test]
fn verbose_lists_every_base_and_why_it_was_or_wasnt_taken() {
    let (up, dest) = adopted_locally();
    let run = up.run_in(&dest, &["gate", "-v"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("verbose_bases_text", up.redact_in(&dest, &run.stderr));
    let run = up.run_in(&dest, &["gate", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(value["not_judged"][0]["reason"], "no-judged-context");
    insta::assert_snapshot!(
        "verbose_bases_json",
        up.redact_in(&dest, &pretty_json(&value["bases_tried"]))
    );
}

#[test]
fn a_base_that_names_nothing_is_an_error_not_a_missing_merge_base() {
    let (up, dest) = adopted_locally();
    let run = up.run_in(&dest, &["gate", "--base", "origin/develop"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: --base origin/develop does not resolve: no branch, tag or commit of that name \
         in this repository (a remote branch is fetched first: git fetch origin develop)\n"
    );
    assert_eq!(run.stdout, "");
    let run = up.run_in(&dest, &["gate", "--base", "developp", "--base", "trunk"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: no --base resolves: no branch, tag or commit named developp, trunk in this \
         repository\n"
    );
    // One base of several that resolves is enough: the others are fallbacks.
    let run = up.run_in(
        &dest,
        &["gate", "--base", "origin/develop", "--base", "master"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    // A base that resolves but shares no history is a real missing merge-base.
    In(&up, &dest).git(&["checkout", "-q", "--orphan", "unrelated"]);
    In(&up, &dest).git(&["commit", "-q", "-m", "unrelated"]);
    In(&up, &dest).git(&["checkout", "-q", "feature"]);
    let run = up.run_in(
        &dest,
        &["gate", "--base", "unrelated", "--base", "origin/develop"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no merge-base of HEAD with unrelated (not \
         found: origin/develop)\n"
    );
}

#[test]
fn no_default_base_that_exists_says_so() {
    let s = Scenario::git();
    s.git_ok(&["checkout", "-q", "-b", "trunk"]);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.commit("c1");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no base found: origin/HEAD, origin/main, \
         origin/master, main, master name no commit; fetch the base branch, or name one with \
         --base <branch>\n"
    );
}

#[test]
fn the_shallow_clone_hint_names_the_branch_that_exists() {
    let up = Scenario::git();
    up.git_ok(&["checkout", "-q", "-b", "master"]);
    up.write("context.yaml", INVENTORY);
    up.write("principles.md", &principles("function_lines: 10\n"));
    up.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    assert_eq!(up.run(&["baseline", "init"]).code, 0);
    up.commit("base");
    up.git_ok(&["checkout", "-q", "-b", "feature"]);
    up.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    up.commit("grow");
    up.git_ok(&["checkout", "-q", "master"]);
    up.write("README.md", "moved on\n");
    up.commit("master moves on");
    let dest = up.abs("clone");
    let url = format!("file://{}", up.path().display());
    up.git_ok(&[
        "clone",
        "-q",
        "--depth",
        "1",
        "--no-single-branch",
        "--branch",
        "feature",
        &url,
        dest.to_str().expect("utf-8"),
    ]);
    let run = up.run_in(&dest, &["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no merge-base of HEAD with origin/HEAD, \
         origin/master (not found: origin/main, main, master) in this shallow clone: fetch \
         the base branch and the history down to the merge-base (`git fetch --unshallow \
         origin master:refs/remotes/origin/master`; in GitHub Actions, `fetch-depth: 0` in \
         actions/checkout)\n"
    );
    // The fix the hint names works.
    In(&up, &dest).git(&[
        "fetch",
        "-q",
        "--unshallow",
        "origin",
        "master:refs/remotes/origin/master",
    ]);
    assert_eq!(up.run_in(&dest, &["gate"]).code, 1);
}

#[test]
fn the_pr_summary_of_a_change_not_judged_says_so_first() {
    let (up, dest) = adopted_locally();
    let run = up.run_in(&dest, &["gate", "--pr-summary", "summary.md"]);
    assert_eq!(run.code, 0, "{run:?}");
    let summary = std::fs::read_to_string(dest.join("summary.md")).expect("summary");
    insta::assert_snapshot!(up.redact_in(&dest, &summary));
    assert!(!summary.contains("None."), "{summary}");
}

#[test]
fn a_source_the_base_lacks_is_reported_and_the_base_still_judges() {
    // main's context.yaml names `lib`, which main's tree doesn't hold: the working tree's
    // commands refuse that, but at the gate the base's terms are what they are.
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - src\n  - lib\n",
    );
    s.commit("name lib");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    let run = s.gate(&["--base", "main"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stderr,
        "warning: context.yaml:5: sources entry \"lib\" names lib, which does not exist \
         at the base: its context owns nothing there\n"
    );
    assert!(
        run.stdout
            .contains("src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)"),
        "{run:?}"
    );
}

/// `feature_of_inventory` with `Small.Run` grown to 13 lines (past its band of 12) and
/// committed on `feature`.
fn committed_excess() -> Scenario {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.commit("grow Small.Run");
    s
}

#[test]
fn a_base_that_is_head_itself_judges_nothing_and_says_how_to_judge_a_push() {
    let s = committed_excess();
    let head = s.rev_parse("HEAD");
    for base in ["HEAD", "feature"] {
        let run = s.gate(&["--base", base]);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(
            run.stdout,
            format!("base {head} (merge-base of HEAD and {base})\n{BASE_IS_HEAD}\n")
        );
        let required = s.gate(&["--base", base, "--require-judged"]);
        assert_eq!(required.code, 1, "{required:?}");
        let json = s.gate(&["--base", base, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
        assert_eq!(v["status"], "not_judged");
        assert_eq!(
            v["not_judged"],
            serde_json::json!([{"reason": "base-is-head",
                "detail": "on a push, pass --base with the commit before the push"}])
        );
    }
    let summary = s.abs("summary.md");
    let run = s.gate(&[
        "--base",
        "HEAD",
        "--pr-summary",
        summary.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        s.read("summary.md"),
        "**Structure not judged**: the base is HEAD itself (on a push, pass --base with the \
         commit before the push)\n"
    );
}

#[test]
fn a_push_build_of_main_judges_the_push_against_the_commit_before_it() {
    let s = committed_excess();
    s.git_ok(&["checkout", "-q", "main"]);
    let before = s.rev_parse("HEAD");
    s.git_ok(&["merge", "-q", "--ff-only", "feature"]);
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(after_base(&run.stdout), [BASE_IS_HEAD]);
    let run = s.gate(&["--base", &before, "--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)",
        ]
    );
}
