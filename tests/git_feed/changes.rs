//! docs/src/reference/gate.md step 3: the files that differ between the base and the working tree.

use structgate::git::{BaseResolution, ChangeKind, Repo};

use crate::git_feed::scenario::{branched, change, lines, renamed, run_git, Scenario};

#[test]
fn changes_cover_committed_staged_unstaged_untracked_and_deleted() {
    let s = Scenario::new();
    s.write(".gitignore", "target/\n*.log\n");
    for name in ["keep", "staged", "unstaged", "gone", "gone_staged"] {
        s.write(&format!("src/{name}.rs"), &lines(name));
    }
    let base = s.commit("c1");
    s.git(&["checkout", "-q", "-b", "feature"]);
    s.write("src/committed.rs", &lines("committed"));
    s.commit("f1");
    s.write("src/staged.rs", &lines("staged, edited"));
    s.git(&["add", "src/staged.rs"]);
    s.write("src/unstaged.rs", &lines("unstaged, edited"));
    s.write("src/new/untracked.rs", &lines("untracked"));
    s.write("target/debug/ignored.rs", &lines("ignored"));
    s.write("build.log", "ignored\n");
    s.remove("src/gone.rs");
    s.git(&["rm", "-q", "src/gone_staged.rs"]);
    let expected = vec![
        change("src/committed.rs", ChangeKind::Added),
        change("src/gone.rs", ChangeKind::Deleted),
        change("src/gone_staged.rs", ChangeKind::Deleted),
        change("src/new/untracked.rs", ChangeKind::Added),
        change("src/staged.rs", ChangeKind::Modified),
        change("src/unstaged.rs", ChangeKind::Modified),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn a_clean_branch_at_its_base_has_no_changes() {
    let (s, _) = branched();
    let tip = s.head();
    assert_eq!(s.repo().changes(&tip).unwrap(), vec![]);
}

#[test]
fn renames_staged_committed_and_unstaged_are_detected() {
    let s = Scenario::new();
    for name in ["committed", "staged", "plain", "edited", "split"] {
        s.write(&format!("old/{name}.rs"), &lines(name));
    }
    let base = s.commit("c1");
    std::fs::create_dir_all(s.root.join("new")).unwrap();
    s.git(&["mv", "old/committed.rs", "new/committed.rs"]);
    s.commit("move");
    s.git(&["mv", "old/staged.rs", "new/staged.rs"]);
    std::fs::create_dir_all(s.root.join("new")).unwrap();
    s.rename("old/plain.rs", "new/plain.rs");
    let mut edited = lines("edited");
    edited.push_str("one more line\nand another\n");
    s.write("new/edited2.rs", &edited);
    s.remove("old/edited.rs");
    s.rename("old/split.rs", "new/split.rs");
    s.git(&["add", "new/split.rs"]);
    let expected = vec![
        renamed("old/committed.rs", "new/committed.rs"),
        renamed("old/edited.rs", "new/edited2.rs"),
        renamed("old/plain.rs", "new/plain.rs"),
        renamed("old/split.rs", "new/split.rs"),
        renamed("old/staged.rs", "new/staged.rs"),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn a_rewrite_below_half_similarity_is_a_deletion_and_an_addition() {
    let s = Scenario::new();
    s.write("a.rs", &lines("a"));
    let base = s.commit("c1");
    s.git(&["mv", "a.rs", "b.rs"]);
    let mut text: String = (1..=30).map(|i| format!("brand new {i}\n")).collect();
    text.push_str(
        &lines("a")
            .lines()
            .take(10)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    );
    s.write("b.rs", &text);
    let expected = vec![
        change("a.rs", ChangeKind::Deleted),
        change("b.rs", ChangeKind::Added),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn a_rename_then_edit_stays_a_rename_and_a_rename_then_delete_is_a_deletion() {
    let s = Scenario::new();
    s.write("a.rs", &lines("a"));
    s.write("b.rs", &lines("b"));
    let base = s.commit("c1");
    s.git(&["mv", "a.rs", "a2.rs"]);
    s.git(&["mv", "b.rs", "b2.rs"]);
    s.commit("moves");
    let mut edited = lines("a");
    edited.push_str("edited\n");
    s.write("a2.rs", &edited);
    s.remove("b2.rs");
    s.write("added_then_gone.rs", "x\n");
    s.git(&["add", "added_then_gone.rs"]);
    s.remove("added_then_gone.rs");
    let expected = vec![
        renamed("a.rs", "a2.rs"),
        change("b.rs", ChangeKind::Deleted),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn files_changed_only_on_main_after_the_cut_are_not_listed() {
    let (s, _) = branched();
    s.git(&["checkout", "-q", "main"]);
    s.write("src/a.rs", &lines("main moved on"));
    s.write("src/main_only.rs", &lines("main only"));
    s.commit("c2");
    s.git(&["checkout", "-q", "feature"]);
    let repo = s.repo();
    let BaseResolution::Found { commit, .. } = repo.resolve_base(&[], None).unwrap() else {
        panic!("no base");
    };
    assert_eq!(
        repo.changes(&commit).unwrap(),
        vec![change("src/b.rs", ChangeKind::Added)]
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_links_not_files() {
    let s = Scenario::new();
    s.write("file_to_link.rs", &lines("f"));
    s.write("target.rs", &lines("t"));
    std::os::unix::fs::symlink("target.rs", s.root.join("link_to_file.rs")).unwrap();
    let base = s.commit("c1");
    s.remove("file_to_link.rs");
    std::os::unix::fs::symlink("target.rs", s.root.join("file_to_link.rs")).unwrap();
    s.remove("link_to_file.rs");
    s.write("link_to_file.rs", &lines("now a file"));
    std::os::unix::fs::symlink("target.rs", s.root.join("new_link.rs")).unwrap();
    let expected = vec![
        change("file_to_link.rs", ChangeKind::Link),
        change("link_to_file.rs", ChangeKind::Added),
        change("new_link.rs", ChangeKind::Link),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn submodules_are_reported_not_descended_into() {
    let sub = Scenario::new();
    sub.write("lib.rs", &lines("sub"));
    sub.commit("s1");
    let s = Scenario::new();
    s.write("a.rs", &lines("a"));
    let base = s.commit("c1");
    let url = format!("file://{}", sub.root.display());
    s.git(&["submodule", "add", "-q", &url, "vendor/sub"]);
    s.commit("add submodule");
    let expected = vec![
        change(".gitmodules", ChangeKind::Added),
        change("vendor/sub", ChangeKind::Submodule),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
    let with_sub = s.head();
    let inner = s.root.join("vendor/sub");
    run_git(
        &inner,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "s2",
        ],
    );
    std::fs::write(inner.join("lib.rs"), "dirty\n").unwrap();
    let expected = vec![change("vendor/sub", ChangeKind::Submodule)];
    assert_eq!(s.repo().changes(&with_sub).unwrap(), expected);
}

#[test]
fn configured_filter_programs_are_never_run() {
    let s = Scenario::new();
    let marker = s.tmp.path().join("filter-ran");
    let command = format!("touch {} && cat", marker.display());
    s.git(&["config", "filter.spy.clean", &command]);
    s.git(&["config", "filter.spy.smudge", &command]);
    s.git(&["config", "diff.spy.textconv", &command]);
    s.write(".gitattributes", "*.rs filter=spy diff=spy\n");
    s.write("a.rs", &lines("a"));
    s.write("b.rs", &lines("b"));
    let base = s.commit("c1");
    std::fs::remove_file(&marker).unwrap();
    s.write("a.rs", &lines("A"));
    s.rename("b.rs", "c.rs");
    let expected = vec![
        change("a.rs", ChangeKind::Modified),
        renamed("b.rs", "c.rs"),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
    assert!(!marker.exists(), "a filter program ran");
}

#[test]
fn untouched_files_with_new_timestamps_and_untracked_index_entries() {
    let s = Scenario::new();
    s.write("touched.rs", &lines("t"));
    s.write("uncached.rs", &lines("u"));
    let base = s.commit("c1");
    let file = std::fs::File::options()
        .write(true)
        .open(s.root.join("touched.rs"))
        .unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    file.set_modified(later).unwrap();
    s.git(&["rm", "-q", "--cached", "uncached.rs"]);
    let expected = vec![change("uncached.rs", ChangeKind::Modified)];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}

#[test]
fn a_linked_worktree_lists_its_own_changes() {
    let (s, cut) = branched();
    let other = s.tmp.path().join("linked");
    s.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "side",
        other.to_str().unwrap(),
        &cut,
    ]);
    std::fs::write(
        other.join("src/a.rs"),
        lines("edited in the linked worktree"),
    )
    .unwrap();
    s.write("src/main_tree.rs", &lines("only in the main worktree"));
    let repo = Repo::discover(&other.join("src")).unwrap();
    assert_eq!(repo.workdir(), Some(other.as_path()));
    assert_eq!(
        repo.changes(&cut).unwrap(),
        vec![change("src/a.rs", ChangeKind::Modified)]
    );
}

#[cfg(unix)]
#[test]
fn a_directory_replaced_by_a_link_holds_no_tracked_file() {
    let s = Scenario::new();
    s.write("lib/a.rs", &lines("a"));
    s.write("elsewhere/a.rs", &lines("grown elsewhere"));
    let base = s.commit("c1");
    std::fs::remove_dir_all(s.root.join("lib")).unwrap();
    std::os::unix::fs::symlink("elsewhere", s.root.join("lib")).unwrap();
    let expected = vec![
        change("lib", ChangeKind::Link),
        change("lib/a.rs", ChangeKind::Deleted),
    ];
    assert_eq!(s.repo().changes(&base).unwrap(), expected);
}
