//! The rules of docs/src/reference/contracts.md: one tree per finding class, the inheritance algebra, trees, and
//! the gate's reading of obligations from the base.

use super::*;

const ROOT: &str = "docs/README.md";

fn root_with(extra: &str) -> (&'static str, String) {
    (ROOT, contract(extra))
}

fn owned<'a>(files: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    files.iter().map(|(p, t)| (*p, t.as_str())).collect()
}

fn check_files(files: &[(&'static str, String)]) -> Vec<String> {
    findings(&owned(files))
}

#[test]
fn missing_contract() {
    let files = [
        root_with(""),
        ("docs/api/guide.md", "# Guide\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        ["missing-contract docs/api: no README.md (governed by docs/README.md)"]
    );
}

#[test]
fn not_a_contract() {
    let files = [root_with(""), ("docs/api/README.md", "# API\n".to_string())];
    assert_eq!(
        check_files(&files),
        ["not-a-contract docs/api: README.md has no front matter (governed by docs/README.md)"]
    );
}

#[test]
fn invalid_contract() {
    let files = [
        root_with(""),
        (
            "docs/api/Readme.md",
            "---\nschema: context/v2\n---\n".to_string(),
        ),
    ];
    assert_eq!(
        check_files(&files),
        [
            "invalid-contract docs/api: Readme.md:2: `schema` is \"context/v2\", expected \
             \"context/v1\" (governed by docs/README.md)"
        ]
    );
}

#[test]
fn unknown_key() {
    let files = [
        root_with(""),
        ("docs/api/README.md", contract("owner: payments\n")),
    ];
    assert_eq!(
        check_files(&files),
        [
            "unknown-key docs/api: README.md:3: unknown key `owner` (the keys are schema, \
             title, summary, children) (governed by docs/README.md)"
        ]
    );
}

#[test]
fn illegal_override_has_no_effect() {
    let files = [
        root_with("children:\n  require_contract: true\n"),
        (
            "docs/api/README.md",
            contract("children:\n  require_contract: false\n"),
        ),
        ("docs/api/v1/spec.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        [
            "illegal-override docs/api: README.md:4: `children.require_contract: false` \
             lowers the `true` that docs/README.md declares; it has no effect (governed by \
             docs/README.md)",
            "missing-contract docs/api/v1: no README.md (governed by docs/README.md)",
        ]
    );
}

#[test]
fn duplicate_contract() {
    let files = [
        root_with(""),
        ("docs/api/README.md", contract("")),
        ("docs/api/readme.md", contract("")),
    ];
    let outcome = outcome_with_links(&owned(&files), &[]);
    assert_eq!(
        outcome.findings,
        [Finding {
            directory: "docs/api".to_string(),
            class: Class::DuplicateContract,
            contract: Some("docs/api/README.md".to_string()),
            governed_by: ROOT.to_string(),
            detail: "2 files named README.md in any letter case: README.md, readme.md".to_string(),
        }]
    );
}

// ---- the inheritance algebra ----

#[test]
fn false_above_true_below() {
    let files = [
        root_with("children:\n  require_contract: false\n"),
        ("docs/free/notes.md", "x\n".to_string()),
        (
            "docs/strict/README.md",
            contract("children:\n  require_contract: true\n"),
        ),
        ("docs/strict/part/notes.md", "x\n".to_string()),
        ("docs/free/deeper/notes.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        ["missing-contract docs/strict/part: no README.md (governed by docs/strict/README.md)"]
    );
}

#[test]
fn an_explicit_true_above_keeps_every_false_below_in_vain() {
    let files = [
        root_with("children:\n  require_contract: true\n"),
        (
            "docs/a/README.md",
            contract("children:\n  require_contract: false\n"),
        ),
        (
            "docs/a/b/README.md",
            contract("children: {require_contract: false}\n"),
        ),
        ("docs/a/b/c/notes.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        [
            "illegal-override docs/a: README.md:4: `children.require_contract: false` lowers \
             the `true` that docs/README.md declares; it has no effect (governed by \
             docs/README.md)",
            "illegal-override docs/a/b: README.md:3: `children.require_contract: false` \
             lowers the `true` that docs/README.md declares; it has no effect (governed by \
             docs/README.md)",
            "missing-contract docs/a/b/c: no README.md (governed by docs/README.md)",
        ]
    );
}

#[test]
fn a_raised_true_cannot_be_lowered_below_it() {
    let files = [
        root_with("children:\n  require_contract: false\n"),
        (
            "docs/a/README.md",
            contract("children:\n  require_contract: true\n"),
        ),
        (
            "docs/a/b/README.md",
            contract("children:\n  require_contract: false\n"),
        ),
        ("docs/a/b/c/notes.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        [
            "illegal-override docs/a/b: README.md:4: `children.require_contract: false` \
             lowers the `true` that docs/a/README.md declares; it has no effect (governed by \
             docs/a/README.md)",
            "missing-contract docs/a/b/c: no README.md (governed by docs/a/README.md)",
        ]
    );
}

#[test]
fn a_default_true_may_be_lowered() {
    let files = [
        root_with(""),
        (
            "docs/skills/README.md",
            contract("children:\n  require_contract: false\n"),
        ),
        ("docs/skills/review/examples/one.md", "x\n".to_string()),
        ("docs/other/notes.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        ["missing-contract docs/other: no README.md (governed by docs/README.md)"]
    );
}

#[test]
fn every_readme_in_a_tree_must_be_a_contract_even_where_none_is_required() {
    let files = [
        root_with("children:\n  require_contract: false\n"),
        ("docs/a/README.md", "plain\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        ["not-a-contract docs/a: README.md has no front matter (governed by docs/README.md)"]
    );
}

// ---- trees ----

#[test]
fn an_inner_root_is_just_a_contract() {
    let files = [
        root_with(""),
        ("docs/inner/README.md", contract("")),
        ("docs/inner/deep/x.md", "x\n".to_string()),
        ("src/main.rs", "fn main() {}\n".to_string()),
    ];
    let outcome = outcome_with_links(&owned(&files), &[]);
    assert_eq!(
        outcome.trees,
        [TreeCount {
            root: "docs".to_string(),
            directories: 3,
            contracts: 2,
        }]
    );
    let lines: Vec<String> = outcome.findings.iter().map(line).collect();
    assert_eq!(
        lines,
        ["missing-contract docs/inner/deep: no README.md (governed by docs/README.md)"]
    );
}

#[test]
fn separate_trees_and_directories_outside_them() {
    let files = [
        ("a/README.md", contract("")),
        ("b/README.md", contract("")),
        ("b/x/y.md", "y\n".to_string()),
        ("c/README.md", "plain\n".to_string()),
        ("c/d/README.md", contract("")),
        ("src/lib.rs", "\n".to_string()),
    ];
    let outcome = outcome_with_links(&owned(&files), &[]);
    let roots: Vec<(&str, usize, usize)> = outcome
        .trees
        .iter()
        .map(|t| (t.root.as_str(), t.directories, t.contracts))
        .collect();
    assert_eq!(roots, [("a", 1, 1), ("b", 2, 1), ("c/d", 1, 1)]);
    let lines: Vec<String> = outcome.findings.iter().map(line).collect();
    assert_eq!(
        lines,
        ["missing-contract b/x: no README.md (governed by b/README.md)"]
    );
}

#[test]
fn a_contract_at_the_repository_root_governs_everything() {
    let files = [
        ("README.md", contract("")),
        ("src/lib.rs", "\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        ["missing-contract src: no README.md (governed by README.md)"]
    );
    let none = [
        ("src/lib.rs", "\n".to_string()),
        ("README.md", "# x\n".to_string()),
    ];
    let outcome = outcome_with_links(&owned(&none), &[]);
    assert_eq!(outcome, Outcome::default());
}

#[test]
fn a_readme_that_is_a_link_or_a_directory() {
    let files = [
        root_with(""),
        ("docs/api/spec.md", "x\n".to_string()),
        ("docs/web/README.md/notes.md", "x\n".to_string()),
    ];
    let outcome = outcome_with_links(&owned(&files), &["docs/api/README.md"]);
    let lines: Vec<String> = outcome.findings.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "not-a-contract docs/api: README.md is a symbolic link; contracts are read from \
             regular files, links are never followed (governed by docs/README.md)",
            "not-a-contract docs/web: README.md is a directory, not a file (governed by \
             docs/README.md)",
            "missing-contract docs/web/README.md: no README.md (governed by docs/README.md)",
        ]
    );
    let root_link = outcome_with_links(&[("docs/x.md", "x\n")], &["docs/README.md"]);
    assert_eq!(root_link, Outcome::default());
}

#[test]
fn directory_names_with_spaces_and_non_ascii() {
    let files = [
        root_with(""),
        ("docs/my notes/a.md", "x\n".to_string()),
        ("docs/čeština/README.md", contract("title: Čeština\n")),
        ("docs/čeština/ünïcode dir/b.md", "x\n".to_string()),
    ];
    assert_eq!(
        check_files(&files),
        [
            "missing-contract docs/my notes: no README.md (governed by docs/README.md)",
            "missing-contract docs/čeština/ünïcode dir: no README.md (governed by \
             docs/README.md)",
        ]
    );
}
