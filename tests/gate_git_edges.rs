//! `structgate gate` on unusual repositories (docs/dev/test-matrix.md): unborn and detached
//! HEAD, a shallow clone, a bare repository, a linked worktree, a submodule, a sparse
//! checkout, CRLF under `core.autocrlf`, a missing object, and programs the repository
//! names (filters, textconv, hooks, fsmonitor), which must never run.

use crate::common;

use common::{after_base, cs_class, Scenario, BASE_IS_HEAD};

/// The scenarios are [`Scenario::feature_of_inventory`]: `Small.Run` at 13 lines is past
/// its band.
fn grow_small(dir: &std::path::Path) {
    std::fs::write(dir.join("src/Small.cs"), cs_class("Small", &[("Run", 13)])).expect("write");
}

const EXCESS: &str = "src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)";

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
    let s = Scenario::feature_of_inventory();
    grow_small(s.path());
    s.commit("grow");
    s.git_ok(&["checkout", "-q", "--detach", "feature"]);
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    let main = s.rev_parse("main");
    assert!(run
        .stdout
        .starts_with(&format!("base {main} (merge-base of HEAD and main)\n")));
    assert_eq!(after_base(&run.stdout)[1], EXCESS);
}

#[test]
fn a_shallow_clone_without_the_merge_base_is_not_judged_unless_started() {
    let s = Scenario::feature_of_inventory();
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
         origin/main (not found: origin/master, main, master) in this shallow clone: fetch the base branch \
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
        after_base(&run.stdout)[1],
        "src/Small.cs:3 Small.Run: function_lines 14 > 10 (band 12)"
    );
}

#[test]
fn a_bare_repository_is_an_error() {
    let s = Scenario::feature_of_inventory();
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
    let s = Scenario::feature_of_inventory();
    let (_other, wt) = s.linked_worktree("linked");
    let run = s.run_in(&wt, &["gate"]);
    assert_eq!(after_base(&run.stdout), [BASE_IS_HEAD]);
    grow_small(&wt);
    let run = s.run_in(&wt, &["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(after_base(&run.stdout)[1], EXCESS);
    // The main working tree is untouched by the linked one's change.
    assert_eq!(s.run(&["gate"]).code, 0);
}

#[test]
fn a_submodule_is_not_descended_into_and_said_so() {
    let s = Scenario::feature_of_inventory();
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
        serde_json::json!([{"path": "src/sub", "reason": "submodule",
            "detail": "submodule: not descended into, its changes are not judged"}])
    );
    // Inside the submodule, a file past every limit changes nothing for the gate.
    std::fs::write(s.abs("src/sub/Huge.cs"), cs_class("Huge", &[("Run", 80)])).expect("write");
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            SUBMODULE
        ]
    );
}

const SUBMODULE: &str =
    "skipped src/sub: submodule: not descended into, its changes are not judged";

/// `git` with a committer, for commits inside a submodule (which has no config of its own).
fn commit_in(s: &Scenario, dir: &str, msg: &str) {
    let who = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];
    s.git_ok(&[&["-C", dir][..], &who, &["add", "-A"]].concat());
    s.git_ok(&[&["-C", dir][..], &who, &["commit", "-q", "-m", msg]].concat());
}

#[test]
fn a_submodule_the_branch_moves_or_removes_is_listed_as_not_judged() {
    let s = Scenario::feature_of_inventory();
    let inner = Scenario::git();
    inner.write("Huge.cs", &cs_class("Huge", &[("Run", 40)]));
    inner.commit("inner");
    s.git_ok(&["checkout", "-q", "main"]);
    let inner_path = inner.path().to_str().expect("utf8");
    let add = ["-c", "protocol.file.allow=always", "submodule", "add", "-q"];
    s.git_ok(&[&add[..], &[inner_path, "src/sub"]].concat());
    s.commit("a submodule on main");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.write("README.md", "notes\n");
    s.commit("notes");
    let gate = |expected: &[&str]| {
        let run = s.run(&["gate"]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
        let mut lines = vec!["structure judged 0 file(s) in 1 context(s), within their Limits"];
        lines.extend(expected);
        assert_eq!(after_base(&run.stdout), lines);
    };
    // Unchanged since the base: nothing to say.
    gate(&[]);
    // Edits inside it, committed nowhere, are the submodule's own work in progress: this
    // repository can't commit them, so they aren't listed.
    s.write("src/sub/Huge.cs", &cs_class("Huge", &[("Run", 80)]));
    s.write("src/sub/New.cs", &cs_class("New", &[("Run", 80)]));
    gate(&[]);
    // Once they are a commit checked out in the submodule, its commit differs from the
    // base's: listed (also staged, also committed).
    commit_in(&s, "src/sub", "grow");
    gate(&[SUBMODULE]);
    s.git_ok(&["add", "src/sub"]);
    gate(&[SUBMODULE]);
    s.commit("move the submodule");
    gate(&[SUBMODULE]);
    let run = s.run(&["gate", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        json["skipped"],
        serde_json::json!([{"path": "src/sub", "reason": "submodule",
            "detail": "submodule: not descended into, its changes are not judged"}])
    );
    // Removed on the branch: listed too.
    s.git_ok(&["rm", "-q", "-r", "src/sub"]);
    gate(&[SUBMODULE]);
}

const SPARSE_OUT: &str =
    "skipped src/far/Far.cs: not in the working tree (a sparse checkout or skip-worktree leaves it out)";

#[test]
fn a_sparse_checkout_judges_what_it_holds_and_lists_what_it_left_out() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write("src/far/Far.cs", &cs_class("Far", &[("Run", 5)]));
    s.commit("a far directory");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "main"]);
    s.write("README.md", "notes\n");
    s.commit("notes");
    s.git_ok(&["sparse-checkout", "set", "--no-cone", "/*", "!/src/far/"]);
    assert!(!s.abs("src/far/Far.cs").exists());
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"],
    );
    grow_small(s.path());
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            EXCESS
        ]
    );
    // What the branch changed outside the checkout can't be measured: listed, not judged.
    s.git_ok(&["sparse-checkout", "disable"]);
    s.write("src/far/Far.cs", &cs_class("Far", &[("Run", 40)]));
    s.commit("grow both");
    s.git_ok(&["sparse-checkout", "set", "--no-cone", "/*", "!/src/far/"]);
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            EXCESS,
            SPARSE_OUT,
        ]
    );
}

#[test]
fn a_sparse_index_is_not_judged_with_the_command_that_expands_it() {
    let s = Scenario::feature_of_inventory();
    s.write("src/far/Far.cs", &cs_class("Far", &[("Run", 40)]));
    s.commit("far");
    s.git_ok(&["sparse-checkout", "set", "--cone", "--sparse-index", "docs"]);
    let listed = s.git_ok(&["ls-files", "--sparse"]);
    assert!(listed.contains("src/\n"), "not a sparse index: {listed}");
    let run = s.run(&["gate"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    let base = s.rev_parse("main");
    assert_eq!(
        after_base(&run.stdout),
        [format!(
            "structure not judged: git couldn't list the changed files: listing the changes \
             since commit {}: the index is a sparse index (`index.sparse`), which structgate \
             cannot compare with the base; `git sparse-checkout init --no-sparse-index` makes \
             it a full index again",
            base
        )]
    );
    assert_eq!(s.run(&["gate", "--require-judged"]).code, 1);
    s.git_ok(&["sparse-checkout", "init", "--no-sparse-index"]);
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            SPARSE_OUT
        ]
    );
}

#[test]
fn crlf_files_under_core_autocrlf_measure_as_their_lf_versions() {
    let s = Scenario::feature_of_inventory();
    s.write("README.md", "notes\n");
    s.commit("notes");
    s.git_ok(&["config", "core.autocrlf", "true"]);
    for file in ["src/Big.cs", "src/Small.cs"] {
        s.remove(file);
    }
    s.git_ok(&["checkout", "--", "src"]);
    assert!(s.read("src/Small.cs").contains("\r\n"));
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
    // Touched, they are compared by their bytes on disk, which differ from the blobs only
    // in their line ends: nothing structgate measures changed.
    for file in ["src/Big.cs", "src/Small.cs"] {
        let text = s.read(file);
        s.write(file, &text);
    }
    let run = s.run(&["gate"]);
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 0 file(s) in 1 context(s), within their Limits"]
    );
    s.write(
        "src/Small.cs",
        &cs_class("Small", &[("Run", 13)]).replace('\n', "\r\n"),
    );
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(after_base(&run.stdout)[1], EXCESS);
}

/// The loose object file of `rev` (a `commit:path`).
fn object_file(s: &Scenario, rev: &str) -> (String, std::path::PathBuf) {
    let id = s.rev_parse(rev);
    let file = s.abs(&format!(".git/objects/{}/{}", &id[..2], &id[2..]));
    (id, file)
}

/// [`Scenario::feature_of_inventory`] with the object of `rev` broken by `damage`, `Small.cs` grown first when
/// `grow`: the gate's exit code and its stderr with the base commit, the object's id, the
/// object's file and the repository's root written `{base}`, `{object}`, `{file}`,
/// `{root}`.
fn gate_with_broken_object(rev: &str, grow: bool, damage: Damage) -> (i32, String) {
    let s = Scenario::feature_of_inventory();
    if grow {
        grow_small(s.path());
    }
    let base = s.rev_parse("main");
    let (id, file) = object_file(&s, rev);
    let mut perms = std::fs::metadata(&file).expect("stat").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&file, perms).expect("chmod");
    damage(&file);
    let run = s.run(&["gate"]);
    assert_eq!(run.stdout, "", "{rev}");
    let file = file.canonicalize().unwrap_or(file);
    let root = s.path().canonicalize().expect("root");
    let filled = run
        .stderr
        .replace(&base, "{base}")
        .replace(&id, "{object}")
        .replace(&file.display().to_string(), "{file}")
        .replace(&root.display().to_string(), "{root}");
    (run.code, filled)
}

/// Breaks an object's file.
type Damage = fn(&std::path::Path);

fn remove(file: &std::path::Path) {
    std::fs::remove_file(file).expect("rm");
}

fn garble(file: &std::path::Path) {
    std::fs::write(file, "garbage\n").expect("write");
}

fn truncate(file: &std::path::Path) {
    std::fs::write(file, "").expect("write");
}

#[test]
fn a_missing_or_corrupt_object_is_an_error_naming_the_file_commit_and_object() {
    let cases: [(&str, bool, Damage, &str); 7] = [
        ("main:principles.md", false, remove,
         "error: reading principles.md: reading principles.md at commit {base}: An object with id {object} could not be found\n"),
        ("main:structure-baseline.tsv", false, remove,
         "error: reading structure-baseline.tsv at commit {base}: An object with id {object} could not be found\n"),
        // The base version of a changed file.
        ("main:src/Small.cs", true, remove,
         "error: reading src/Small.cs at commit {base}: An object with id {object} could not be found\n"),
        ("main:src/Small.cs", true, truncate,
         "error: reading src/Small.cs at commit {base}: Could not read loose object, path=\"{file}\": Empty loose object file\n"),
        ("main:context.yaml", false, garble,
         "error: reading context.yaml: reading context.yaml at commit {base}: Could not read loose object, path=\"{file}\": Could not decode zip stream: Invalid input data\n"),
        // The index vouches for the base's tree, so its files are listed without it; the
        // first read from it fails.
        ("main^{tree}", false, remove,
         "error: reading context.yaml: reading context.yaml at commit {base}: An object with id {object} could not be found\n"),
        // HEAD's own commit (here also the base's).
        ("HEAD", false, remove,
         "error: {root}: resolving HEAD: Could not peel reference to an object: object could not be found, object_id=\"{base}\", reference=\"refs/heads/feature\"\n"),
    ];
    for (rev, grow, damage, expected) in cases {
        let (code, stderr) = gate_with_broken_object(rev, grow, damage);
        assert_eq!((code, stderr.as_str()), (2, expected), "{rev}");
    }
}

#[test]
fn no_filter_textconv_hook_or_fsmonitor_of_the_repository_ever_runs() {
    let s = Scenario::feature_of_inventory();
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
        after_base(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s): 2 excess(es) past the band",
            "src/New.cs:3 New.Run: function_lines 13 > 10 (band 12)",
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
