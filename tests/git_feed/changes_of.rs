//! `Repo::changes_of` (docs/src/reference/hook.md#speed): what the full listing says of
//! named paths, found without listing the working tree.

use structgate::git::ChangeKind;

use crate::git_feed::scenario::{change, lines, renamed, Scenario};

#[test]
fn each_path_is_what_the_full_listing_says_of_it() {
    let s = Scenario::new();
    s.write(".gitignore", "target/\n*.log\n!keep.log\n");
    for name in [
        "keep",
        "staged",
        "unstaged",
        "gone",
        "moved",
        "plain",
        "staged_mv",
        "chmod",
    ] {
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
    s.write("src/x.log", "ignored\n");
    s.write("src/keep.log", "whitelisted\n");
    s.remove("src/gone.rs");
    std::fs::create_dir_all(s.root.join("lib")).unwrap();
    s.git(&["mv", "src/staged_mv.rs", "lib/staged_mv.rs"]);
    s.rename("src/plain.rs", "lib/plain.rs");
    s.git(&["update-index", "--chmod=+x", "src/chmod.rs"]);
    let full = s.repo().changes(&base).unwrap();
    let paths = [
        "src/keep.rs",
        "src/committed.rs",
        "src/staged.rs",
        "src/unstaged.rs",
        "src/new/untracked.rs",
        "target/debug/ignored.rs",
        "src/x.log",
        "src/keep.log",
        "src/gone.rs",
        "lib/staged_mv.rs",
        "lib/plain.rs",
        "src/chmod.rs",
        "nowhere.rs",
    ];
    for path in paths {
        let one = s.repo().changes_of(&base, &[path.to_string()]).unwrap();
        let expected: Vec<_> = full.iter().filter(|c| c.path == path).cloned().collect();
        assert_eq!(one, expected, "{path}");
    }
    let both = ["lib/plain.rs".to_string(), "src/unstaged.rs".to_string()];
    assert_eq!(
        s.repo().changes_of(&base, &both).unwrap(),
        vec![
            renamed("src/plain.rs", "lib/plain.rs"),
            change("src/unstaged.rs", ChangeKind::Modified)
        ]
    );
}

/// Only the trees where the base and the index differ are read: a directory the index's
/// cache tree vouches for (here one whose tree is missing from the object store, as in a
/// partial clone) is taken from the index, by the whole listing and by one path's.
#[test]
fn trees_the_index_vouches_for_are_not_read() {
    let s = Scenario::new();
    s.write("src/edited.rs", &lines("edited"));
    s.write("src/staged.rs", &lines("staged"));
    s.write("elsewhere/deep/other.rs", &lines("other"));
    let base = s.commit("c1");
    s.write("src/edited.rs", &lines("edited, now"));
    s.write("src/staged.rs", &lines("staged, now"));
    s.git(&["add", "src/staged.rs"]);
    let elsewhere = s.git(&["rev-parse", "HEAD:elsewhere"]);
    let elsewhere = elsewhere.trim();
    let loose = s
        .root
        .join(".git/objects")
        .join(&elsewhere[..2])
        .join(&elsewhere[2..]);
    std::fs::remove_file(&loose).unwrap();
    let repo = s.repo();
    let modified = |path: &str| change(path, ChangeKind::Modified);
    assert_eq!(
        repo.changes(&base).unwrap(),
        [modified("src/edited.rs"), modified("src/staged.rs")]
    );
    let only = |path: &str| repo.changes_of(&base, &[path.to_string()]).unwrap();
    assert_eq!(only("src/edited.rs"), [modified("src/edited.rs")]);
    assert_eq!(only("src/staged.rs"), [modified("src/staged.rs")]);
    // Changed and staged there, the directory is read from its trees, and found missing.
    s.write("elsewhere/deep/other.rs", &lines("other, now"));
    s.git(&["add", "elsewhere/deep/other.rs"]);
    assert!(s.repo().changes(&base).is_err());
}
