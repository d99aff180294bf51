//! How long listing changes takes on a repository of thousands of files.

use structgate::git::Repo;

use crate::git_feed::scenario::{lines, Scenario};

/// `cargo test --release --test integration git_feed -- --ignored --nocapture`: prints how long
/// `changes()` takes on a repository of 5,000 files with a branch's worth of changes.
#[test]
#[ignore = "timing, run by hand"]
fn timing_of_changes_on_a_repository_of_thousands_of_files() {
    let s = Scenario::new();
    for i in 0..5000 {
        s.write(
            &format!("src/m{}/f{i}.rs", i % 100),
            &lines(&format!("file {i}")),
        );
    }
    let base = s.commit("c1");
    s.git(&["checkout", "-q", "-b", "feature"]);
    for i in 0..20 {
        s.write(
            &format!("src/m{}/f{i}.rs", i % 100),
            &lines(&format!("edited {i}")),
        );
    }
    s.commit("f1");
    for i in 20..40 {
        s.write(
            &format!("src/m{}/f{i}.rs", i % 100),
            &lines(&format!("unstaged {i}")),
        );
    }
    for i in 40..45 {
        s.rename(
            &format!("src/m{}/f{i}.rs", i % 100),
            &format!("src/moved{i}.rs"),
        );
    }
    s.write("src/new/n.rs", &lines("new"));
    let repo = s.repo();
    for round in 0..3 {
        let started = std::time::Instant::now();
        let changes = repo.changes(&base).unwrap();
        let took = started.elapsed();
        assert_eq!(changes.len(), 20 + 20 + 5 + 1);
        eprintln!("round {round}: changes() on 5000 files took {took:?}");
    }
    let started = std::time::Instant::now();
    let _ = Repo::discover(&s.root).unwrap();
    eprintln!("discover took {:?}", started.elapsed());
}

/// Prints how long `last_commit_touching` takes to walk 3,000 commits back.
#[test]
#[ignore = "timing, run by hand"]
fn timing_of_last_commit_touching_over_a_long_history() {
    let s = Scenario::new();
    s.write("baseline.tsv", "v1\n");
    for i in 0..200 {
        s.write(&format!("src/m{}/f{i}.rs", i % 20), &lines("x"));
    }
    let first = s.commit("c1");
    let mut script = format!("reset refs/heads/main\nfrom {first}\n\n");
    for i in 0..3000 {
        let content = format!("edit {i}\n");
        let (time, dir, file) = (1_700_000_000 + i, i % 20, i % 200);
        script.push_str(&format!(
            "commit refs/heads/main\ncommitter T <t@e> {time} +0000\ndata 2\nc\n\
             M 100644 inline src/m{dir}/f{file}.rs\ndata {}\n{content}",
            content.len()
        ));
    }
    let mut child = std::process::Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(&s.root)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    s.git(&["reset", "-q", "--hard", "main"]);
    let repo = s.repo();
    let started = std::time::Instant::now();
    assert_eq!(
        repo.last_commit_touching("baseline.tsv").unwrap(),
        Some(first)
    );
    eprintln!(
        "last_commit_touching over 3000 commits took {:?}",
        started.elapsed()
    );
}
