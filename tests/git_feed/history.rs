//! Files at a commit (docs/src/reference/gate.md step 2) and the history `baseline refresh` needs (docs/src/reference/baseline.md).

use structgate::source::{Entry, FileSource, Listed};

use crate::git_feed::scenario::{branched, lines, Scenario};

#[test]
fn tree_source_reads_files_at_a_commit() {
    let s = Scenario::new();
    s.write("context.yaml", "meta: {}\n");
    s.write("svc/a/context.yaml", "meta: {name: a}\n");
    s.write("svc/b/context.yaml", "old\n");
    s.write("svc/b/principles.md", "# P\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink("../a/context.yaml", s.root.join("svc/c-context.yaml")).unwrap();
    std::fs::create_dir_all(s.root.join("svc/e")).unwrap();
    std::os::unix::fs::symlink("../a/context.yaml", s.root.join("svc/e/context.yaml")).unwrap();
    let first = s.commit("c1");
    s.write("svc/b/context.yaml", "new\n");
    s.write("svc/d/context.yaml", "later\n");
    s.commit("c2");
    let tree = s.repo().tree_source(&first).unwrap();
    assert_eq!(
        tree.read("svc/b/context.yaml").unwrap(),
        Some(b"old\n".to_vec())
    );
    assert_eq!(
        tree.read("svc/a/context.yaml").unwrap(),
        Some(b"meta: {name: a}\n".to_vec())
    );
    assert_eq!(tree.read("svc/d/context.yaml").unwrap(), None);
    assert_eq!(tree.read("svc/b").unwrap(), None);
    assert_eq!(tree.read("svc/c-context.yaml").unwrap(), None);
    assert_eq!(tree.read("").unwrap(), None);
    let listed = |path: &str, link: bool| Listed {
        path: path.to_string(),
        link,
    };
    let named = tree.find_named("context.yaml").unwrap();
    assert_eq!(
        named,
        [
            listed("context.yaml", false),
            listed("svc/a/context.yaml", false),
            listed("svc/b/context.yaml", false),
            listed("svc/e/context.yaml", true),
        ]
    );
    assert_eq!(
        tree.find_named("principles.md").unwrap(),
        [listed("svc/b/principles.md", false)]
    );
    assert_eq!(tree.entry("svc/e/context.yaml").unwrap(), Entry::Link);
    assert_eq!(tree.entry("svc/e").unwrap(), Entry::Dir);
    assert_eq!(tree.entry("").unwrap(), Entry::Dir);
    assert_eq!(
        tree.entry("svc/b/context.yaml").unwrap(),
        Entry::File { len: 4 }
    );
    assert_eq!(tree.entry("svc/d/context.yaml").unwrap(), Entry::Missing);
    assert_eq!(tree.entry("svc/e/context.yaml/x").unwrap(), Entry::Missing);
    assert_eq!(tree.describe(), format!("commit {}", &first[..7]));
    assert_eq!(tree.commit(), first);
}

#[test]
fn tree_source_of_something_that_is_no_commit_is_an_error() {
    let (s, _) = branched();
    let err = s.repo().tree_source("no-such-rev").err().expect("error");
    assert!(
        format!("{err:#}").starts_with("no-such-rev does not name a commit in"),
        "{err:#}"
    );
}

#[test]
fn renames_since_lists_moves_committed_and_in_the_working_tree() {
    let s = Scenario::new();
    s.write("a/baseline.rs", &lines("one"));
    s.write("a/two.rs", &lines("two"));
    s.write("a/three.rs", &lines("three"));
    let since = s.commit("c1");
    std::fs::create_dir_all(s.root.join("b")).unwrap();
    s.git(&["mv", "a/two.rs", "b/two.rs"]);
    s.commit("move two");
    s.rename("a/three.rs", "b/three.rs");
    s.write("a/baseline.rs", &lines("one, edited"));
    let expected = vec![
        ("a/three.rs".to_string(), "b/three.rs".to_string()),
        ("a/two.rs".to_string(), "b/two.rs".to_string()),
    ];
    assert_eq!(s.repo().renames_since(&since).unwrap(), expected);
}

#[test]
fn last_commit_touching_follows_git_log_history() {
    let s = Scenario::new();
    s.write("baseline.tsv", "v1\n");
    s.commit("c1");
    s.write("baseline.tsv", "v2\n");
    let second = s.commit("c2");
    s.write("other.rs", "fn x() {}\n");
    s.commit("c3");
    let repo = s.repo();
    assert_eq!(
        repo.last_commit_touching("baseline.tsv").unwrap(),
        Some(second)
    );
    assert_eq!(repo.last_commit_touching("never.tsv").unwrap(), None);
    s.git(&["rm", "-q", "other.rs"]);
    let removal = s.commit("c4");
    assert_eq!(
        s.repo().last_commit_touching("other.rs").unwrap(),
        Some(removal)
    );
}

#[test]
fn last_commit_touching_walks_into_the_merged_branch() {
    let s = Scenario::new();
    s.write("baseline.tsv", "v1\n");
    s.commit("c1");
    s.git(&["checkout", "-q", "-b", "side"]);
    s.write("baseline.tsv", "side\n");
    let side = s.commit("side edit");
    s.git(&["checkout", "-q", "main"]);
    s.write("main.rs", "fn main() {}\n");
    s.commit("main edit");
    s.git(&["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    assert_eq!(
        s.repo().last_commit_touching("baseline.tsv").unwrap(),
        Some(side)
    );
}

#[test]
fn a_missing_object_is_an_error_naming_the_file_and_commit() {
    let s = Scenario::new();
    s.write("src/a.rs", &lines("a"));
    let commit = s.commit("c1");
    let blob = s.git(&["rev-parse", "HEAD:src/a.rs"]);
    let loose = s
        .root
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(loose).unwrap();
    let tree = s.repo().tree_source(&commit).unwrap();
    let err = tree.read("src/a.rs").unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.starts_with(&format!("reading src/a.rs at commit {commit}: ")),
        "{text}"
    );
    s.write("src/a.rs", &lines("edited"));
    s.rename("src/a.rs", "src/b.rs");
    s.git(&["add", "-A"]);
    let err = s.repo().changes(&commit).unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.starts_with(&format!("listing the changes since commit {commit}: ")),
        "{text}"
    );
}
