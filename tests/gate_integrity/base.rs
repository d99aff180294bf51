//! The base (docs/src/reference/gate.md#integrity "the branch is never its own base"): a single-branch clone, a
//! `main` fast-forwarded to the branch inside the run, commits on `main` itself, and
//! replace refs and grafts, which are never honoured.

use crate::common::{after_base, principles, Scenario, BASE_IS_HEAD};
use crate::gate_integrity::{add_forty, assert_fails_forty, feature_with_forty};

/// `git clone --single-branch --branch feature` of `s` into a temp dir: origin/HEAD
/// points at origin/feature (as git sets it up when the upstream's HEAD is `feature`).
fn single_branch_clone(s: &Scenario) -> (Scenario, std::path::PathBuf) {
    let clone = Scenario::plain();
    let dest = clone.abs("c");
    let url = format!("file://{}", s.path().display());
    let dest_str = dest.to_str().expect("utf8");
    s.git_ok(&[
        "clone",
        "-q",
        "--single-branch",
        "--branch",
        "feature",
        &url,
        dest_str,
    ]);
    let c = Scenario { dir: clone.dir };
    let git = |args: &[&str]| {
        let mut all = vec!["-C", dest_str];
        all.extend_from_slice(args);
        c.git_ok(&all)
    };
    git(&[
        "symbolic-ref",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/feature",
    ]);
    (c, dest)
}

#[test]
fn a_single_branch_clone_refuses_its_own_origin_head_and_is_judged_against_origin_main() {
    let s = feature_with_forty();
    s.commit("forty");
    let (c, dest) = single_branch_clone(&s);
    let run = c.run_in(&dest, &["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no base found: origin/main, origin/master, \
         main, master name no commit (origin/HEAD skipped: it is refs/remotes/origin/feature, \
         this branch's own); fetch the base branch, or name one with --base <branch>\n"
    );
    assert_eq!(c.run_in(&dest, &["gate", "--require-judged"]).code, 1);
    let dest_str = dest.to_str().expect("utf8");
    c.git_ok(&[
        "-C",
        dest_str,
        "fetch",
        "-q",
        "origin",
        "main:refs/remotes/origin/main",
    ]);
    let run = c.run_in(&dest, &["gate", "--base", "origin/main"]);
    assert_fails_forty(&run);
    let main = s.rev_parse("main");
    assert!(
        run.stdout.starts_with(&format!(
            "base {main} (merge-base of HEAD and origin/main)\n"
        )),
        "{run:?}"
    );
    // The default bases now find origin/main, past the skipped origin/HEAD.
    assert_fails_forty(&c.run_in(&dest, &["gate"]));
}

#[test]
fn start_holds_when_the_run_fast_forwards_main_to_the_branch() {
    let s = feature_with_forty();
    let start = s.rev_parse("HEAD");
    s.commit("forty");
    s.git_ok(&["branch", "-f", "main", "feature"]);
    // Without --start the branch has become its own base: HEAD itself, which judges
    // nothing and says so.
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(after_base(&run.stdout), [BASE_IS_HEAD]);
    let run = s.gate(&["--start", &start]);
    assert_fails_forty(&run);
    assert!(
        run.stdout.starts_with(&format!(
            "base {start} (--start {start}; the merge-base of HEAD and main is not an ancestor \
             of it)\n"
        )),
        "{run:?}"
    );
}

#[test]
fn start_holds_for_commits_on_main_itself() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    let start = s.rev_parse("HEAD");
    add_forty(s.path());
    s.commit("forty on main");
    let run = s.gate(&[]);
    assert_eq!(after_base(&run.stdout), [BASE_IS_HEAD]);
    assert_fails_forty(&s.gate(&["--start", &start]));
    // A --start that names no commit bounds nothing: not judged, and said so.
    let run = s.gate(&["--start", "no-such-commit", "--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: --start no-such-commit does not name a commit\n"
    );
}

#[test]
fn a_replaced_base_is_read_as_stored() {
    let s = feature_with_forty();
    let main = s.rev_parse("main");
    // A fake of the base commit, with loose terms, put in its place by `git replace`.
    s.git_ok(&["checkout", "-q", "-b", "fake", "main"]);
    s.write("principles.md", &principles("function_lines: 1000\n"));
    s.git_ok(&["commit", "-q", "-a", "--amend", "-m", "base"]);
    let fake = s.rev_parse("HEAD");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["replace", &main, &fake]);
    // git itself now reads the fake's terms at the base's id.
    let seen = s.git_ok(&["show", &format!("{main}:principles.md")]);
    assert!(seen.contains("function_lines: 1000"), "{seen}");
    let run = s.gate(&[]);
    assert_fails_forty(&run);
    assert!(
        run.stdout
            .starts_with(&format!("base {main} (merge-base of HEAD and main)\n")),
        "{run:?}"
    );
    // Not even when the configuration or the environment asks for replacements.
    s.git_ok(&["config", "core.useReplaceRefs", "true"]);
    assert_fails_forty(&s.run_env(
        s.path(),
        &["gate"],
        &[("GIT_REPLACE_REF_BASE", "refs/replace/")],
    ));
}

#[test]
fn grafts_are_never_honoured() {
    let s = feature_with_forty();
    let tip = s.commit("forty");
    let main = s.rev_parse("main");
    s.git_ok(&["checkout", "-q", "-b", "fake", "main"]);
    s.write("principles.md", &principles("function_lines: 1000\n"));
    s.git_ok(&["commit", "-q", "-a", "-m", "loose"]);
    let tree = s.rev_parse("HEAD^{tree}");
    s.git_ok(&["checkout", "-q", "feature"]);
    let fake = s
        .git_ok(&["commit-tree", "-m", "fake", &tree])
        .trim()
        .to_string();
    // Both tips grafted onto the fake: git's merge-base becomes the fake.
    s.write(
        ".git/info/grafts",
        &format!("{tip} {fake}\n{main} {fake}\n"),
    );
    let seen = s.git_ok(&[
        "-c",
        "advice.graftFileDeprecated=false",
        "merge-base",
        "HEAD",
        "main",
    ]);
    assert_eq!(seen.trim(), fake);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .starts_with(&format!("base {main} (merge-base of HEAD and main)\n")),
        "{run:?}"
    );
    assert_eq!(after_base(&run.stdout)[1], crate::gate_integrity::FORTY);
}
