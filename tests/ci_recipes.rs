//! The CI recipes (docs/src/integrations/ci.md, the README's "Gate in CI"), run the way CI
//! runs them: a clone of an `origin` repository, shallow or full, a pull request judged
//! against `origin/main` and a push to `main` against the commit before the push; the
//! pre-commit hook definition; this repository's own `.gitattributes`.

use crate::common;

use std::path::Path;

use common::{cs_class, Scenario};

/// An `origin` repository: `main` with a context and baseline, moved on after branch
/// `feature` was cut; `feature` grows `Small.Run` to 13 lines (an excess, lines 3-15).
fn origin() -> Scenario {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.cut_feature();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.commit("grow");
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("README.md", "moved on\n");
    s.commit("main moves on");
    s
}

/// `git clone ARGS origin clone` inside `origin`'s temp dir; returns the clone's path.
fn clone(origin: &Scenario, args: &[&str]) -> std::path::PathBuf {
    let url = format!("file://{}", origin.path().display());
    let target = origin.abs("clone");
    let mut all = vec!["clone", "-q"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[url.as_str(), target.to_str().expect("utf-8 path")]);
    origin.git_ok(&all);
    target
}

fn git_in(s: &Scenario, dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["-C", dir.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    s.git_ok(&all)
}

#[test]
fn a_shallow_clone_says_why_it_is_not_judged_and_how_to_fix_it() {
    let s = origin();
    let dir = clone(&s, &["--depth", "1", "--branch", "feature"]);
    let run = s.run_in(&dir, &["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no base found: origin/HEAD, origin/main, \
         origin/master, main, master name no commit in this shallow clone: fetch the base \
         branch and the history down to the merge-base (`git fetch --unshallow origin \
         BRANCH:refs/remotes/origin/BRANCH`; in GitHub Actions, `fetch-depth: 0` in \
         actions/checkout)\n"
    );
    let required = s.run_in(&dir, &["gate", "--require-judged"]);
    assert_eq!(required.code, 1);
    // The fix the message names works, with the base branch for BRANCH.
    git_in(
        &s,
        &dir,
        &[
            "fetch",
            "-q",
            "--unshallow",
            "origin",
            "main:refs/remotes/origin/main",
        ],
    );
    let judged = s.run_in(&dir, &["gate"]);
    assert_eq!(judged.code, 1, "{judged:?}");
    assert_eq!(
        judged.stdout.lines().nth(2),
        Some("src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 10)")
    );
}

#[test]
fn a_shallow_clone_with_an_explicit_base_names_that_branch() {
    let s = origin();
    let dir = clone(&s, &["--depth", "1", "--branch", "feature"]);
    let run = s.run_in(&dir, &["gate", "--base", "origin/develop"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: --base origin/develop does not resolve: no branch, tag or commit of that name \
         in this shallow clone (a remote branch is fetched first, with the history down to \
         the merge-base: `git fetch --unshallow origin develop:refs/remotes/origin/develop`; \
         in GitHub Actions, `fetch-depth: 0` in actions/checkout)\n"
    );
}

/// The GitHub Actions job: a full clone (`fetch-depth: 0`) of the pull request's branch,
/// then `structgate gate --base origin/${{ github.base_ref }} --format github`.
#[test]
fn the_github_actions_job_annotates_the_pull_request() {
    let s = origin();
    let dir = clone(&s, &["--branch", "feature"]);
    let run = s.run_in(
        &dir,
        &["gate", "--base", "origin/main", "--format", "github"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let base = git_in(&s, &dir, &["merge-base", "HEAD", "origin/main"]);
    assert_eq!(
        run.stdout,
        format!(
            "::error file=src/Small.cs,line=3,endLine=15,title=function_lines past the band::\
             Small.Run: function_lines 13 > 10 (band 10)\n\
             base {} (merge-base of HEAD and origin/main)\n\
             structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band\n",
            base.trim()
        )
    );
}

/// A push build of `main`: a full clone at the pushed commit, judged with `--base` the
/// commit `main` pointed at before the push (`github.event.before`,
/// `$CI_COMMIT_BEFORE_SHA`), so the push's own commits are judged.
#[test]
fn a_push_build_is_judged_against_the_commit_before_the_push() {
    let s = origin();
    let before = s.rev_parse("main");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.commit("grow on main");
    let dir = clone(&s, &["--branch", "main"]);
    let run = s.run_in(&dir, &["gate", "--base", &before, "--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "base {before} (merge-base of HEAD and {before})\n\
             structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band\n\
             src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 10)\n"
        )
    );
}

/// A workflow engine: `--start` as the fallback base, one JSON object, the exit code.
#[test]
fn a_workflow_engine_reads_json_and_the_exit_code() {
    let s = origin();
    // A base that shares no history with the branch: the run falls back on --start.
    s.git_ok(&["checkout", "-q", "--orphan", "elsewhere"]);
    s.commit("unrelated");
    s.git_ok(&["checkout", "-q", "-f", "feature"]);
    let start = s.rev_parse("HEAD");
    let gate = || {
        let args = ["--base", "elsewhere", "--start", &start, "--format", "json"];
        s.gate(&args)
    };
    let clean = gate();
    assert_eq!(clean.code, 0, "{clean:?}");
    let v: serde_json::Value = serde_json::from_str(&clean.stdout).expect("json");
    assert_eq!(v["status"], "passed");
    assert_eq!(v["base"], start.as_str());
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 14)]));
    let grown = gate();
    assert_eq!(grown.code, 1, "{grown:?}");
    let v: serde_json::Value = serde_json::from_str(&grown.stdout).expect("json");
    assert_eq!(v["status"], "failed");
    assert_eq!(v["excesses"][0]["value"], 14);
}

/// The `files` pattern of every hook: each extension structgate measures, then the
/// terms files.
const HOOK_FILES: &str = "(?i)(\\.(cs|rs|ts|mts|cts|tsx|js|jsx|mjs|cjs|py|go|java|md)|(^|/)(context\\.yaml|structure-baseline\\.tsv))$";

#[test]
fn the_pre_commit_hooks_run_the_gate_without_file_names_on_every_file_it_judges() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(path).expect(".pre-commit-hooks.yaml");
    let hooks: serde_yaml::Value = serde_yaml::from_str(&text).expect("YAML");
    assert_eq!(hooks.as_sequence().map(Vec::len), Some(2));
    for (hook, id, language) in [
        (&hooks[0], "structgate-gate", "rust"),
        (&hooks[1], "structgate-gate-system", "system"),
    ] {
        assert_eq!(hook["id"].as_str(), Some(id));
        assert_eq!(
            hook["entry"].as_str(),
            Some("structgate gate --staged --require-judged")
        );
        assert_eq!(hook["language"].as_str(), Some(language));
        assert_eq!(hook["pass_filenames"].as_bool(), Some(false));
        assert_eq!(hook["verbose"].as_bool(), Some(true), "{id}");
        assert_eq!(hook["files"].as_str(), Some(HOOK_FILES), "{id}");
    }
    // Every extension in the pattern is measured, and every measured language is there.
    let listed = &HOOK_FILES[HOOK_FILES.find("\\.(").expect("extensions") + 3..];
    let listed: Vec<&str> = listed[..listed.find(')').expect("end")]
        .split('|')
        .collect();
    for ext in &listed {
        assert!(
            structgate::model::Language::of_path(&format!("x.{ext}")).is_some(),
            "{ext}"
        );
    }
    for ext in [
        "cs", "rs", "ts", "tsx", "js", "jsx", "py", "go", "java", "md",
    ] {
        assert!(listed.contains(&ext), "{ext}");
    }
}

#[test]
fn this_repository_merges_its_baseline_with_structgate() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.gitattributes");
    let text = std::fs::read_to_string(path).expect(".gitattributes");
    assert!(
        text.lines()
            .any(|l| l == "structure-baseline.tsv merge=structgate"),
        "{text}"
    );
}
