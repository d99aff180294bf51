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
