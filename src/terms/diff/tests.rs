//! Tests of the terms comparison: which files it reads, and what a difference is.

use super::*;
use crate::source::MemorySource;

const CONTEXT: &str = "meta:\n  name: inventory\nsources:\n  - src\n";

fn principles(yaml: &str) -> String {
    format!("## Limits\n\n```yaml\n{yaml}```\n")
}

fn base() -> MemorySource {
    MemorySource::default()
        .with("context.yaml", CONTEXT)
        .with(
            "principles.md",
            &principles("function_lines: 10\ntolerance_percent: 20\n"),
        )
        .with("docs/README.md", "---\nschema: context/v1\n---\n")
}

/// The changes from `base()` to `branch`, in the files `changed`, as text lines.
fn lines(branch: &MemorySource, changed: &[&str]) -> Vec<String> {
    let base_tree = base();
    let terms = crate::terms::load(&base_tree, "shop", &[]).expect("base terms");
    let branch = Branch {
        source: branch,
        max_bytes: 4 << 20,
        changed: changed.iter().map(|p| p.to_string()).collect(),
        renames: BTreeMap::new(),
    };
    let found = changes(&terms, &base_tree, &branch, "shop").expect("changes");
    found
        .iter()
        .map(|c| {
            let side =
                |v: &Option<TermValue>| v.as_ref().map_or("-".to_string(), |v| v.to_string());
            let what = c.term.what();
            let loosens = crate::judge::loosens(&c.term, c.from.as_ref(), c.to.as_ref());
            let (from, to) = (side(&c.from), side(&c.to));
            format!("{} {what} {from} {to} {loosens}", c.file)
        })
        .collect()
}

#[test]
fn only_files_the_change_names_are_compared() {
    let branch = base().with("principles.md", &principles("function_lines: 99\n"));
    assert_eq!(lines(&branch, &[]), Vec::<String>::new());
    assert_eq!(
        lines(&branch, &["principles.md"]),
        [
            "principles.md function_lines 10 99 true",
            "principles.md tolerance_percent 20 0 false"
        ]
    );
}

#[test]
fn a_deleted_principles_md_removes_every_limit() {
    let mut branch = base();
    branch.files.remove("principles.md");
    assert_eq!(
        lines(&branch, &["principles.md"]),
        [
            "principles.md function_lines 10 - true",
            "principles.md tolerance_percent 20 0 false"
        ]
    );
}

#[test]
fn a_changed_file_with_the_same_terms_is_no_difference() {
    let branch = base()
        .with(
            "context.yaml",
            "# reordered\nsources: [src]\nmeta: {name: inventory}\n",
        )
        .with(
            "principles.md",
            &principles("tolerance_percent: 20\nfunction_lines: 10\n"),
        )
        .with(
            "docs/README.md",
            "---\nschema: context/v1\ntitle: Docs\n---\n",
        );
    let changed = ["context.yaml", "principles.md", "docs/README.md"];
    assert_eq!(lines(&branch, &changed), Vec::<String>::new());
}

#[test]
fn a_readme_that_becomes_a_contract_on_the_branch_is_not_listed() {
    let base_only = base().with("notes/README.md", "# Notes\n");
    let branch = base_only.clone().with(
        "notes/README.md",
        "---\nschema: context/v1\nchildren:\n  require_contract: false\n---\n",
    );
    let terms = crate::terms::load(&base_only, "shop", &[]).expect("base terms");
    let branch = Branch {
        source: &branch,
        max_bytes: 4 << 20,
        changed: ["notes/README.md".to_string()].into(),
        renames: BTreeMap::new(),
    };
    let found = changes(&terms, &base_only, &branch, "shop").expect("changes");
    assert_eq!(found, Vec::new());
}

#[test]
fn a_context_yaml_that_vanishes_takes_its_other_files_with_it() {
    let mut branch = base();
    branch.files.remove("context.yaml");
    branch.files.remove("principles.md");
    assert_eq!(
        lines(&branch, &["context.yaml", "principles.md"]),
        ["context.yaml context src - true"]
    );
}

#[test]
fn a_new_context_that_owns_an_old_ones_directory_takes_it() {
    let branch = base().with("src/api/context.yaml", "meta:\n  workdir: src/api\n");
    assert_eq!(
        lines(&branch, &["src/api/context.yaml"]),
        ["src/api/context.yaml context - src/api true"]
    );
    let branch = base().with("tools/context.yaml", "meta:\n  workdir: tools\n");
    assert_eq!(
        lines(&branch, &["tools/context.yaml"]),
        ["tools/context.yaml context - tools false"]
    );
}

#[test]
fn baseline_header_edits_are_listed_key_by_key() {
    let header = |measured: &str, owned: &str| {
        format!(
            "{}\n{measured}{owned}src/a.rs\tf\tfunction_lines\t30\n",
            tsv::TITLE
        )
    };
    let at_base = header(
        "# measured with: function_lines=10 pinned=file_bytes tier.docs.file_bytes=900 tolerance_percent=20\n",
        "# owned:\tsrc\n",
    );
    let base_tree = base().with("structure-baseline.tsv", &at_base);
    let terms = crate::terms::load(&base_tree, "shop", &[]).expect("base terms");
    let compare = |branch_text: &str| -> Vec<String> {
        let branch = base().with("structure-baseline.tsv", branch_text);
        let branch = Branch {
            source: &branch,
            max_bytes: 4 << 20,
            changed: ["structure-baseline.tsv".to_string()].into(),
            renames: BTreeMap::new(),
        };
        let found = changes(&terms, &base_tree, &branch, "shop").expect("changes");
        found
            .iter()
            .map(|c| {
                let side =
                    |v: &Option<TermValue>| v.as_ref().map_or("-".to_string(), |v| v.to_string());
                let loosens = crate::judge::loosens(&c.term, c.from.as_ref(), c.to.as_ref());
                format!(
                    "{} | {} | {} | {loosens}",
                    c.term.what(),
                    side(&c.from),
                    side(&c.to)
                )
            })
            .collect()
    };
    assert_eq!(compare(&at_base), Vec::<String>::new());
    let edited = header(
        "# measured with: function_lines=99 tier.docs.file_bytes=800 tolerance_percent=20 type_lines=50\n",
        "# owned:\tlib\n",
    );
    assert_eq!(
        compare(&edited),
        [
            "# measured with: function_lines | 10 | 99 | true",
            "# measured with: type_lines | - | 50 | false",
            "# measured with: tier.docs.file_bytes | 900 | 800 | false",
            "# measured with: pinned | file_bytes | - | false",
            "# owned: | src | lib | true",
        ]
    );
    assert_eq!(
        compare(&header("", "")),
        [
            "# measured with: | function_lines=10 pinned=file_bytes tier.docs.file_bytes=900 tolerance_percent=20 | - | true",
            "# owned: | src | - | false",
        ]
    );
}
