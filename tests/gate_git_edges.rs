//! `structgate gate` on unusual repositories (README "Reliability"): unborn and detached
//! HEAD, a shallow clone, a bare repository, a linked worktree, a submodule, a sparse
//! checkout, CRLF under `core.autocrlf`, a missing object, and programs the repository
//! names (filters, textconv, hooks, fsmonitor), which must never run.

mod common;

use common::{cs_class, principles, Scenario};

/// `main` holds one context (function_lines 10, band 12) with a baseline tolerating
/// `Big.Old` at 20 lines, and `src/Small.cs`; HEAD is `feature`, cut from `main`.
fn repo() -> Scenario {
    let s = Scenario::git();
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources:\n  - src\n",
    );
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 20\n"),
    );
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s
}

fn grow_small(dir: &std::path::Path) {
    std::fs::write(dir.join("src/Small.cs"), cs_class("Small", &[("Run", 13)])).expect("write");
}

const EXCESS: &str = "src/Small.cs Small.Run: function_lines 13 > 10 (band 12)";

/// The report's lines after the `base ...` line.
fn verdict(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.starts_with("base ")).collect()
}

#[test]
fn unborn_head_is_not_judged_and_require_judged_fails() {
    let s = Scenario::git();
    s.write("context.yaml", "");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: HEAD has no commit yet\n"
    );
    assert_eq!(s.run(&["gate", "--require-judged"]).code, 1);
}

#[test]
fn a_detached_head_is_judged_against_its_merge_base() {
    let s = repo();
    grow_small(s.path());
    s.commit("grow");
    s.git_ok(&["checkout", "-q", "--detach", "feature"]);
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    let main = s.git_ok(&["rev-parse", "main"]);
    assert!(run.stdout.starts_with(&format!(
        "base {} (merge-base of HEAD and main)\n",
        main.trim()
    )));
    assert_eq!(verdict(&run.stdout)[1], EXCESS);
}

#[test]
fn a_shallow_clone_without_the_merge_base_is_not_judged_unless_started() {
    let s = repo();
    grow_small(s.path());
    s.commit("grow");
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("src/Other.cs", "class Other {}\n");
    s.commit("main moves on");
    let clone = tempfile::tempdir().expect("tmp");
    let url = format!("file://{}", s.path().display());
    let dest = clone.path().join("c");
    let dest_str = dest.to_str().expect("utf8");
    s.git_ok(&[
        "clone",
        "-q",
        "--depth",
        "1",
        "--no-single-branch",
        "--branch",
        "feature",
        &url,
        dest_str,
    ]);
    let c = Scenario { dir: clone };
    let run = c.run_in(&dest, &["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "structure not judged: no comparable base: no merge-base of HEAD with origin/HEAD, \
         origin/main, origin/master, main, master in this shallow clone: fetch the base branch \
         and the history down to the merge-base (`git fetch --unshallow origin \
         main:refs/remotes/origin/main`; in GitHub Actions, `fetch-depth: 0` in \
         actions/checkout)\n"
    );
    assert_eq!(c.run_in(&dest, &["gate", "--require-judged"]).code, 1);
    // With the commit the run started on as the base, what changed since is judged.
    grow_small(&dest);
    std::fs::write(dest.join("src/Small.cs"), cs_class("Small", &[("Run", 14)])).expect("write");
    let run = c.run_in(&dest, &["gate", "--start", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        verdict(&run.stdout)[1],
        "src/Small.cs Small.Run: function_lines 14 > 10 (band 12)"
    );
}

#[test]
fn a_bare_repository_is_an_error() {
    let s = repo();
    let bare = tempfile::tempdir().expect("tmp");
    let dest = bare.path().join("b.git");
    s.git_ok(&["clone", "-q", "--bare", ".", dest.to_str().expect("utf8")]);
    let run = s.run(&["-C", dest.to_str().expect("utf8"), "gate"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: {}: a bare repository has no working tree to judge\n",
            dest.display()
        )
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn a_linked_worktree_is_judged_on_its_own_changes() {
    let s = repo();
    let other = tempfile::tempdir().expect("tmp");
    let wt = other.path().join("wt");
    s.git_ok(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "linked",
        wt.to_str().expect("utf8"),
        "main",
    ]);
    let run = s.run_in(&wt, &["gate"]);
    assert_eq!(
        verdict(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
    grow_small(&wt);
    let run = s.run_in(&wt, &["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(verdict(&run.stdout)[1], EXCESS);
    // The main working tree is untouched by the linked one's change.
    assert_eq!(s.run(&["gate"]).code, 0);
}

#[test]
fn a_submodule_is_not_descended_into_and_said_so() {
    let s = repo();
    let inner = Scenario::git();
    inner.write("Huge.cs", &cs_class("Huge", &[("Run", 40)]));
    inner.commit("inner");
    let inner_path = inner.path().to_str().expect("utf8");
    s.git_ok(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        inner_path,
        "src/sub",
    ]);
    s.commit("add a submodule");
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["judged_files"], 0);
    assert_eq!(
        json["skipped"],
        serde_json::json!([{"path": "src/sub", "reason": "submodule: not descended into, its changes are not judged"}])
    );
    // Inside the submodule, a file past every limit changes nothing for the gate.
    std::fs::write(s.abs("src/sub/Huge.cs"), cs_class("Huge", &[("Run", 80)])).expect("write");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("skipped src/sub: submodule: not descended into"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_sparse_checkout_judges_what_it_holds_and_not_what_it_left_out() {
    let s = repo();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("src/far/Far.cs", &cs_class("Far", &[("Run", 5)]));
    s.commit("a far directory");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.git_ok(&["sparse-checkout", "set", "--no-cone", "/*", "!/src/far/"]);
    assert!(!s.abs("src/far/Far.cs").exists());
    let run = s.run(&["gate"]);
    assert_eq!(
        verdict(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"],
        "{run:?}"
    );
    grow_small(s.path());
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        verdict(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            EXCESS
        ]
    );
}

#[test]
fn crlf_files_under_core_autocrlf_measure_as_their_lf_versions() {
    let s = repo();
    s.git_ok(&["config", "core.autocrlf", "true"]);
    for file in ["src/Big.cs", "src/Small.cs"] {
        s.remove(file);
    }
    s.git_ok(&["checkout", "--", "src"]);
    assert!(s.read("src/Small.cs").contains("\r\n"));
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        verdict(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
    s.write(
        "src/Small.cs",
        &cs_class("Small", &[("Run", 13)]).replace('\n', "\r\n"),
    );
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(verdict(&run.stdout)[1], EXCESS);
}

/// The loose object file of `rev` (a `commit:path`).
fn object_file(s: &Scenario, rev: &str) -> (String, std::path::PathBuf) {
    let id = s.git_ok(&["rev-parse", rev]).trim().to_string();
    let file = s.abs(&format!(".git/objects/{}/{}", &id[..2], &id[2..]));
    (id, file)
}

#[test]
fn a_missing_or_corrupt_object_is_an_error_naming_the_file_commit_and_object() {
    let base = |s: &Scenario| s.git_ok(&["rev-parse", "main"]).trim().to_string();
    // The base's principles.md is missing.
    let s = repo();
    let (id, file) = object_file(&s, "main:principles.md");
    std::fs::remove_file(file).expect("rm");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("error: reading principles.md: reading principles.md at commit {}: An object with id {id} could not be found\n", base(&s))
    );
    // The base version of a changed file is missing.
    let s = repo();
    grow_small(s.path());
    let (id, file) = object_file(&s, "main:src/Small.cs");
    std::fs::remove_file(file).expect("rm");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: reading src/Small.cs at commit {}: An object with id {id} could not be found\n",
            base(&s)
        )
    );
    // The base's context.yaml is corrupt.
    let s = repo();
    let (_, file) = object_file(&s, "main:context.yaml");
    let mut perms = std::fs::metadata(&file).expect("stat").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&file, perms).expect("chmod");
    std::fs::write(&file, "garbage\n").expect("write");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.starts_with(&format!("error: reading context.yaml: reading context.yaml at commit {}: Could not read loose object", base(&s))),
        "{}",
        run.stderr
    );
}

#[test]
fn no_filter_textconv_hook_or_fsmonitor_of_the_repository_ever_runs() {
    let s = repo();
    let spy = s.abs("spy-ran");
    let script = s.abs("spy.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\ncat\n", spy.display()),
    )
    .expect("write");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let program = script.to_str().expect("utf8");
    for (key, value) in [
        ("filter.spy.clean", program),
        ("filter.spy.smudge", program),
        ("filter.spy.process", program),
        ("filter.spy.required", "true"),
        ("diff.spy.textconv", program),
        ("diff.spy.command", program),
        ("core.fsmonitor", program),
        ("core.hooksPath", s.abs("hooks").to_str().expect("utf8")),
    ] {
        s.git_ok(&["config", key, value]);
    }
    std::fs::create_dir_all(s.abs("hooks")).expect("mkdir");
    for hook in [
        "post-index-change",
        "pre-commit",
        "post-checkout",
        "reference-transaction",
        "fsmonitor-watchman",
    ] {
        std::fs::copy(&script, s.abs(&format!("hooks/{hook}"))).expect("copy");
    }
    std::fs::write(s.abs(".git/info/attributes"), "*.cs filter=spy diff=spy\n").expect("write");
    std::fs::remove_file(&spy).ok();
    grow_small(s.path());
    s.write("src/New.cs", &cs_class("New", &[("Run", 13)]));
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        verdict(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s): 2 excess(es) past the band",
            "src/New.cs New.Run: function_lines 13 > 10 (band 12)",
            EXCESS,
        ]
    );
    for args in [&["measure"][..], &["baseline", "refresh"], &["limits"]] {
        assert_ne!(s.run(args).code, 2, "{args:?}");
    }
    assert!(
        !spy.exists(),
        "a program of the repository ran: {:?}",
        std::fs::read_to_string(&spy)
    );
    // The spy is armed: git itself runs it (and then fails on the filter protocol).
    let _ = std::process::Command::new("git")
        .args(["diff", "--stat"])
        .current_dir(s.path())
        .env("HOME", s.path())
        .output();
    assert!(spy.exists(), "git ran no spy: the test proves nothing");
}
