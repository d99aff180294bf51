//! `structgate contracts` on scenario repositories (docs/src/reference/contracts.md).

use crate::common;

use common::Scenario;

/// A README.md contract with `extra` lines of front matter.
fn contract(extra: &str) -> String {
    format!("---\nschema: context/v1\n{extra}---\n# What this directory is for\n")
}

/// A repository whose `docs` tree holds one directory per finding class.
fn every_class() -> Scenario {
    let s = Scenario::git();
    s.write("src/main.rs", "fn main() {}\n");
    s.write(
        "docs/README.md",
        &contract("title: Docs\nchildren:\n  require_contract: true\n"),
    );
    s.write("docs/missing/page.md", "x\n");
    s.write("docs/plain/README.md", "# Plain\n");
    s.write("docs/invalid/README.md", "---\nschema: context/v2\n---\n");
    s.write("docs/unknown/README.md", &contract("owner: team\n"));
    s.write(
        "docs/override/README.md",
        &contract("children:\n  require_contract: false\n"),
    );
    s.write("docs/twice/README.md", &contract(""));
    s.write("docs/twice/readme.md", &contract(""));
    s
}

#[test]
fn text_lists_each_finding_and_a_summary() {
    let s = every_class();
    let run = s.run(&["contracts"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(run.stdout);
    assert_eq!(run.stderr, "");
}

#[test]
fn json_gives_trees_and_findings() {
    let s = every_class();
    let run = s.run(&[
        "contracts",
        "--format",
        "json",
        "docs/missing",
        "docs/twice",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_clean_tree_and_no_tree_exit_zero() {
    let s = Scenario::git();
    s.write("docs/README.md", &contract(""));
    s.write("docs/api/README.md", &contract("title: API\n"));
    s.write("docs/api/v1.md", "x\n");
    s.write("src/lib.rs", "\n");
    let run = s.run(&["contracts"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "2 contract(s) in 1 tree(s), 0 finding(s)\n");
    let bare = Scenario::git();
    bare.write("README.md", "# A project\n");
    bare.write("src/lib.rs", "\n");
    let run = bare.run(&["contracts", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "{\n  \"trees\": [],\n  \"findings\": []\n}\n");
}

#[test]
fn ignored_and_file_less_directories_are_outside_the_tree() {
    let s = Scenario::git();
    s.write(".gitignore", "docs/build/\n*.log\n");
    s.write("docs/README.md", &contract(""));
    s.write("docs/build/out/index.html", "x\n");
    s.write("docs/logs/today.log", "x\n");
    std::fs::create_dir_all(s.abs("docs/empty/deeper")).expect("mkdir");
    s.write("docs/nested-repo/.git/HEAD", "ref: refs/heads/main\n");
    s.write("docs/nested-repo/file.md", "x\n");
    let run = s.run(&["contracts"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "1 contract(s) in 1 tree(s), 0 finding(s)\n");
    s.write("docs/logs/kept.md", "x\n");
    let run = s.run(&["contracts"]);
    assert_eq!(
        run.stdout,
        "missing-contract docs/logs: no README.md (governed by docs/README.md)\n\
         1 contract(s) in 1 tree(s), 1 finding(s)\n"
    );
}

#[test]
fn paths_select_directories_relative_to_the_current_one() {
    let s = every_class();
    let run = s.run_in(&s.abs("docs"), &["contracts", "missing", "plain"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "missing-contract docs/missing: no README.md (governed by docs/README.md)\n\
         not-a-contract docs/plain: README.md has no front matter (governed by docs/README.md)\n\
         0 contract(s) in 1 tree(s), 2 finding(s)\n"
    );
    let run = s.run(&["contracts", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "0 contract(s) in 0 tree(s), 0 finding(s)\n");
}

#[test]
fn bad_paths_are_usage_errors() {
    let s = every_class();
    let run = s.run(&["contracts", "nowhere"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .starts_with("error: nowhere: no such file or directory"),
        "{run:?}"
    );
    let run = s.run(&["contracts", "docs/README.md"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "error: docs/README.md: not a directory\n");
    let run = s.run(&["contracts", "--format", "xml"]);
    assert_eq!(run.code, 2, "{run:?}");
    let outside = Scenario::plain();
    let path = outside.path().to_string_lossy().into_owned();
    let run = s.run(&["contracts", &path]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is outside the repository"), "{run:?}");
}

#[test]
fn hostile_readmes_have_defined_outcomes() {
    let s = Scenario::git();
    s.write("docs/README.md", &contract(""));
    s.write_bytes(
        "docs/latin1/README.md",
        b"---\nschema: context/v1\ntitle: Caf\xe9\n---\n",
    );
    s.write(
        "docs/open/README.md",
        "---\nschema: context/v1\n# never closed\n",
    );
    s.write("docs/dir/README.md/notes.md", "x\n");
    let mut big = contract("title: Big\n");
    while big.len() < 10 << 20 {
        big.push_str("A long README paragraph that only makes the file larger.\n\n");
    }
    s.write("docs/big/README.md", &big);
    let (run, cpu) = s.run_cpu(&["contracts"]);
    assert!(cpu.as_secs() < 10, "{cpu:?}");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "not-a-contract docs/dir: README.md is a directory, not a file (governed by docs/README.md)\n\
         missing-contract docs/dir/README.md: no README.md (governed by docs/README.md)\n\
         invalid-contract docs/latin1: README.md:3: not UTF-8 (this line holds the first byte \
         that isn't) (governed by docs/README.md)\n\
         invalid-contract docs/open: README.md:1: the front matter opened here is never closed \
         by a `---` line (governed by docs/README.md)\n\
         2 contract(s) in 1 tree(s), 4 finding(s)\n"
    );
}

#[cfg(unix)]
#[test]
fn a_readme_that_is_a_link_leaving_the_repository_is_never_followed() {
    let s = Scenario::git();
    let outside = Scenario::plain();
    outside.write("README.md", &contract(""));
    s.write("docs/README.md", &contract(""));
    s.write("docs/linked/page.md", "x\n");
    std::os::unix::fs::symlink(outside.abs("README.md"), s.abs("docs/linked/README.md"))
        .expect("symlink");
    let run = s.run(&["contracts"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "not-a-contract docs/linked: README.md is a symbolic link; contracts are read from \
         regular files, links are never followed (governed by docs/README.md)\n\
         1 contract(s) in 1 tree(s), 1 finding(s)\n"
    );
}

#[test]
fn directory_names_with_spaces_and_non_ascii() {
    let s = Scenario::git();
    s.write("docs/README.md", &contract(""));
    s.write("docs/my notes/a.md", "x\n");
    s.write("docs/čeština/README.md", &contract("title: Čeština\n"));
    s.write("docs/čeština/ünï dir/b.md", "x\n");
    let run = s.run(&["contracts", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let dirs: Vec<&str> = value["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["directory"].as_str().expect("directory"))
        .collect();
    assert_eq!(dirs, ["docs/my notes", "docs/čeština/ünï dir"]);
    let run = s.run(&["contracts", "docs/čeština"]);
    assert_eq!(
        run.stdout,
        "missing-contract docs/čeština/ünï dir: no README.md (governed by docs/README.md)\n\
         1 contract(s) in 1 tree(s), 1 finding(s)\n"
    );
}
