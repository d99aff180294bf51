//! Checks with a base (the gate): obligations come from the base version of every
//! contract the base holds; only contracts new on the branch speak for themselves.

use super::*;

/// Checks `dirs` of the working tree `work` against the base `base`.
fn against_base(base: &[(&str, &str)], work: &[(&str, &str)], dirs: &[&str]) -> Vec<String> {
    let (base, work) = (source(base), source(work));
    let (base_listing, work_listing) = (side_of(&base, &[]), side_of(&work, &[]));
    let dirs: Vec<String> = dirs.iter().map(|d| d.to_string()).collect();
    let outcome = check(
        Side {
            source: &work,
            listing: &work_listing,
        },
        Some(Side {
            source: &base,
            listing: &base_listing,
        }),
        &dirs,
    )
    .expect("check");
    outcome.findings.iter().map(line).collect()
}

#[test]
fn lowering_an_existing_parent_on_the_branch_does_not_exempt_its_new_directory() {
    let root = contract("");
    let parent = contract("title: Guides\n");
    let lowered = contract("title: Guides\nchildren:\n  require_contract: false\n");
    let base = [
        ("docs/README.md", root.as_str()),
        ("docs/guides/README.md", &parent),
    ];
    let work = [
        ("docs/README.md", root.as_str()),
        ("docs/guides/README.md", &lowered),
        ("docs/guides/new/page.md", "x\n"),
    ];
    assert_eq!(
        against_base(&base, &work, &["docs/guides", "docs/guides/new"]),
        ["missing-contract docs/guides/new: no README.md (governed by docs/README.md)"]
    );
}

#[test]
fn a_contract_new_on_the_branch_speaks_for_itself() {
    let root = contract("");
    let exempt = contract("children:\n  require_contract: false\n");
    let base = [("docs/README.md", root.as_str())];
    let work = [
        ("docs/README.md", root.as_str()),
        ("docs/skills/README.md", exempt.as_str()),
        ("docs/skills/one/examples/a.md", "x\n"),
    ];
    let dirs = ["docs/skills", "docs/skills/one", "docs/skills/one/examples"];
    assert_eq!(against_base(&base, &work, &dirs), Vec::<String>::new());
}

#[test]
fn a_raise_on_the_branch_waits_for_the_base() {
    let root = contract("children:\n  require_contract: false\n");
    let raised = contract("children:\n  require_contract: true\n");
    let base = [("docs/README.md", root.as_str()), ("docs/x.md", "x\n")];
    let work = [
        ("docs/README.md", raised.as_str()),
        ("docs/new/a.md", "x\n"),
    ];
    assert_eq!(
        against_base(&base, &work, &["docs", "docs/new"]),
        Vec::<String>::new()
    );
}

#[test]
fn a_deleted_contract_still_governs_and_its_directory_misses_one() {
    let root = contract("");
    let strict = contract("children:\n  require_contract: true\n");
    let base = [
        ("docs/README.md", root.as_str()),
        ("docs/a/README.md", strict.as_str()),
        ("docs/a/b/README.md", root.as_str()),
    ];
    let work = [
        ("docs/README.md", root.as_str()),
        ("docs/a/notes.md", "x\n"),
        ("docs/a/b/notes.md", "x\n"),
    ];
    assert_eq!(
        against_base(&base, &work, &["docs/a", "docs/a/b"]),
        [
            "missing-contract docs/a: no README.md (governed by docs/README.md)",
            "missing-contract docs/a/b: no README.md (governed by docs/a/README.md)",
        ]
    );
}

#[test]
fn a_tree_of_the_base_survives_a_broken_or_deleted_root() {
    let root = contract("");
    let base = [("docs/README.md", root.as_str()), ("docs/a.md", "x\n")];
    let deleted = [("docs/a.md", "x\n"), ("docs/new/b.md", "x\n")];
    assert_eq!(
        against_base(&base, &deleted, &["docs", "docs/new"]),
        [
            "missing-contract docs: no README.md (governed by docs/README.md)",
            "missing-contract docs/new: no README.md (governed by docs/README.md)",
        ]
    );
    let broken = [
        ("docs/README.md", "---\nschema: [\n---\n"),
        ("docs/a.md", "x\n"),
    ];
    let lines = against_base(&base, &broken, &["docs"]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0]
            .starts_with("invalid-contract docs: README.md:3: the front matter is not valid YAML"),
        "{lines:?}"
    );
}

#[test]
fn only_the_directories_asked_for_are_checked() {
    let root = contract("");
    let base = [("docs/README.md", root.as_str()), ("docs/old/a.md", "x\n")];
    let work = [
        ("docs/README.md", root.as_str()),
        ("docs/old/a.md", "x\n"),
        ("docs/new/b.md", "x\n"),
    ];
    assert_eq!(
        against_base(&base, &work, &["docs/new", "gone"]),
        ["missing-contract docs/new: no README.md (governed by docs/README.md)"]
    );
}
