//! docs/src/reference/gate.md step 1: which commit is the base.

use structgate::git::{BaseResolution, Repo};
use structgate::source::FileSource;

use crate::git_feed::scenario::{branched, found, lines, not_found, run_git, strings, Scenario};

#[test]
fn default_bases_prefer_origin_head_then_origin_main() {
    let up = Scenario::new();
    up.write("a.rs", &lines("a"));
    let cut = up.commit("c1");
    let clone = Scenario::clone_of(&up, &[]);
    clone.git(&["checkout", "-q", "-b", "feature"]);
    clone.write("b.rs", &lines("b"));
    clone.commit("f1");
    up.write("a.rs", &lines("moved on"));
    up.commit("c2");
    clone.git(&["fetch", "-q"]);
    let repo = clone.repo();
    assert_eq!(
        repo.resolve_base(&[], None).unwrap(),
        found(&cut, "origin/HEAD", false)
    );
    clone.git(&["remote", "set-head", "origin", "-d"]);
    let repo = clone.repo();
    assert_eq!(
        repo.resolve_base(&[], None).unwrap(),
        found(&cut, "origin/main", false)
    );
}

#[test]
fn default_bases_fall_back_to_local_main() {
    let (s, cut) = branched();
    assert_eq!(
        s.repo().resolve_base(&[], None).unwrap(),
        found(&cut, "main", false)
    );
}

#[test]
fn given_bases_are_tried_in_order_and_unrelated_history_is_skipped() {
    let (s, cut) = branched();
    s.git(&["checkout", "-q", "--orphan", "other"]);
    s.commit("unrelated");
    s.git(&["checkout", "-q", "feature"]);
    s.git(&["branch", "-q", "release", "main"]);
    let repo = s.repo();
    let bases = strings(&["no-such-branch", "other", "release", "main"]);
    assert_eq!(
        repo.resolve_base(&bases, None).unwrap(),
        found(&cut, "release", false)
    );
}

#[test]
fn start_is_the_base_when_no_base_shares_history() {
    let (s, cut) = branched();
    s.git(&["checkout", "-q", "--orphan", "other"]);
    let start = s.commit("unrelated");
    let repo = s.repo();
    let bases = strings(&["main"]);
    assert_eq!(
        repo.resolve_base(&bases, Some("HEAD")).unwrap(),
        found(&start, "HEAD", true)
    );
    assert_eq!(
        repo.resolve_base(&bases, Some("no-such-rev")).unwrap(),
        BaseResolution::NotFound {
            tried: bases.clone(),
            skipped: Vec::new(),
            bad_start: Some("no-such-rev".to_string()),
        }
    );
    assert_ne!(start, cut);
}

#[test]
fn no_base_lists_what_was_tried() {
    let s = Scenario::new();
    s.git(&["checkout", "-q", "-b", "trunk"]);
    s.write("a.rs", "fn a() {}\n");
    s.commit("c1");
    let repo = s.repo();
    let defaults = strings(&[
        "origin/HEAD",
        "origin/main",
        "origin/master",
        "main",
        "master",
    ]);
    assert_eq!(repo.resolve_base(&[], None).unwrap(), not_found(&defaults));
    let given = strings(&["x", "y"]);
    assert_eq!(repo.resolve_base(&given, None).unwrap(), not_found(&given));
}

#[test]
fn detached_head_resolves_its_base() {
    let (s, cut) = branched();
    let tip = s.head();
    s.git(&["checkout", "-q", "--detach"]);
    let repo = s.repo();
    assert_eq!(repo.head_commit().unwrap(), Some(tip));
    assert_eq!(
        repo.resolve_base(&[], None).unwrap(),
        found(&cut, "main", false)
    );
}

#[test]
fn unborn_head_has_no_commit_and_no_base() {
    let s = Scenario::new();
    s.write("a.rs", "fn a() {}\n");
    let repo = s.repo();
    assert_eq!(repo.head_commit().unwrap(), None);
    assert!(matches!(
        repo.resolve_base(&[], None).unwrap(),
        BaseResolution::NotFound { .. }
    ));
    assert_eq!(repo.last_commit_touching("a.rs").unwrap(), None);
    let err = repo.changes("HEAD").unwrap_err();
    assert!(
        format!("{err:#}").contains("HEAD does not name a commit"),
        "{err:#}"
    );
}

#[test]
fn shallow_clone_without_the_merge_base_finds_no_base() {
    let up = Scenario::new();
    up.write("a.rs", &lines("a"));
    up.commit("c1");
    up.git(&["checkout", "-q", "-b", "feature"]);
    for i in 0..3 {
        up.write("b.rs", &lines(&format!("feature {i}")));
        up.commit("feature");
    }
    up.git(&["checkout", "-q", "main"]);
    for i in 0..3 {
        up.write("a.rs", &lines(&format!("main {i}")));
        up.commit("main");
    }
    let clone = Scenario::clone_of(
        &up,
        &["--depth", "1", "--no-single-branch", "--branch", "feature"],
    );
    let repo = clone.repo();
    assert!(repo.is_shallow());
    assert!(matches!(
        repo.resolve_base(&[], None).unwrap(),
        BaseResolution::NotFound { .. }
    ));
    let tip = clone.head();
    assert_eq!(
        repo.last_commit_touching("b.rs").unwrap(),
        Some(tip.clone())
    );
    assert_eq!(
        repo.resolve_base(&[], Some("HEAD")).unwrap(),
        found(&tip, "HEAD", true)
    );
}

#[test]
fn bare_repository_has_no_changes_to_list() {
    let (up, cut) = branched();
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("file://{}", up.root.display());
    run_git(tmp.path(), &["clone", "-q", "--bare", &url, "bare.git"]);
    let repo = Repo::discover(&tmp.path().join("bare.git")).unwrap();
    assert!(repo.is_bare());
    assert_eq!(repo.workdir(), None);
    let err = repo.changes(&cut).unwrap_err();
    assert!(
        format!("{err:#}").contains("a bare repository has no working tree to compare with"),
        "{err:#}"
    );
    let tree = repo.tree_source(&cut).unwrap();
    assert_eq!(
        tree.read("src/a.rs").unwrap(),
        Some(lines("a").into_bytes())
    );
}

#[test]
fn a_directory_outside_any_repository_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = Repo::discover(tmp.path()).err().expect("no repository");
    let dir = tmp.path().display();
    let expected = format!(
        "opening the git repository at {dir}: Could not find a git repository in \"{dir}\" or in any of its parents"
    );
    assert_eq!(format!("{err:#}"), expected);
}

#[test]
fn an_annotated_tag_is_peeled_to_its_commit() {
    let (s, cut) = branched();
    s.git(&["tag", "-a", "-m", "release", "v1", &cut]);
    let bases = strings(&["v1"]);
    assert_eq!(
        s.repo().resolve_base(&bases, None).unwrap(),
        found(&cut, "v1", false)
    );
    assert_eq!(s.repo().rev_commit("v1").unwrap(), Some(cut));
    let tree = s.git(&["rev-parse", "HEAD^{tree}"]);
    assert_eq!(s.repo().rev_commit(&tree).unwrap(), None);
}

#[test]
fn a_single_branch_clone_never_takes_its_own_branch_as_the_base() {
    let (up, cut) = branched();
    let clone = Scenario::clone_of(&up, &["--single-branch", "--branch", "feature"]);
    // What git sets up when the upstream's HEAD is `feature` (and newer git always).
    clone.git(&["remote", "set-head", "origin", "feature"]);
    let own = clone.git(&["symbolic-ref", "refs/remotes/origin/HEAD"]);
    assert_eq!(own, "refs/remotes/origin/feature");
    let repo = clone.repo();
    assert_eq!(
        repo.resolve_base(&[], None).unwrap(),
        BaseResolution::NotFound {
            tried: strings(&["origin/main", "origin/master", "main", "master"]),
            skipped: vec![(
                "origin/HEAD".to_string(),
                "refs/remotes/origin/feature".to_string()
            )],
            bad_start: None,
        }
    );
    // Named on the command line, a base is taken as given.
    assert_eq!(
        repo.resolve_base(&strings(&["origin/HEAD"]), None).unwrap(),
        found(&clone.head(), "origin/HEAD", false)
    );
    clone.git(&["fetch", "-q", "origin", "main:refs/remotes/origin/main"]);
    assert_eq!(
        clone.repo().resolve_base(&[], None).unwrap(),
        found(&cut, "origin/main", false)
    );
}

#[test]
fn on_a_branch_named_like_a_default_base_nothing_is_skipped() {
    let (up, _) = branched();
    let clone = Scenario::clone_of(&up, &["--single-branch", "--branch", "main"]);
    clone.git(&["remote", "set-head", "origin", "main"]);
    let tip = clone.head();
    assert_eq!(
        clone.repo().resolve_base(&[], None).unwrap(),
        found(&tip, "origin/HEAD", false)
    );
}

#[test]
fn a_default_base_that_is_a_link_to_the_current_branch_is_skipped() {
    let (s, cut) = branched();
    s.git(&["branch", "-q", "-m", "main", "trunk"]);
    s.git(&["symbolic-ref", "refs/heads/main", "refs/heads/feature"]);
    let repo = s.repo();
    let resolved = repo.resolve_base(&[], None).unwrap();
    let BaseResolution::NotFound { skipped, .. } = resolved else {
        panic!("{resolved:?}");
    };
    assert_eq!(
        skipped,
        [("main".to_string(), "refs/heads/feature".to_string())]
    );
    assert_eq!(
        repo.resolve_base(&strings(&["trunk"]), None).unwrap(),
        found(&cut, "trunk", false)
    );
}

#[test]
fn with_start_the_base_is_never_newer_than_the_start() {
    let (s, cut) = branched();
    let start = s.head();
    s.write("c.rs", &lines("c"));
    let tip = s.commit("f2");
    // The run fast-forwards main to the branch: its merge-base with HEAD is HEAD.
    s.git(&["branch", "-q", "-f", "main", "feature"]);
    let repo = s.repo();
    assert_eq!(
        repo.resolve_base(&[], None).unwrap(),
        found(&tip, "main", false)
    );
    assert_eq!(
        repo.resolve_base(&[], Some(&start)).unwrap(),
        BaseResolution::Found {
            commit: start.clone(),
            via: start.clone(),
            from_start: true,
            newer: Some("main".to_string()),
        }
    );
    // A merge-base that is an ancestor of the start (or the start itself) stands.
    s.git(&["branch", "-q", "-f", "main", &cut]);
    assert_eq!(
        s.repo().resolve_base(&[], Some(&start)).unwrap(),
        found(&cut, "main", false)
    );
    assert_eq!(
        s.repo().resolve_base(&[], Some(&cut)).unwrap(),
        found(&cut, "main", false)
    );
}
