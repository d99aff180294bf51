//! `structgate gate` on document budgets (docs/src/reference/documents.md): a document is judged for
//! `loaded_bytes` when a file it imports eagerly changed, and moving prose into an
//! imported file does not shrink what it loads.

use crate::common;

use common::{after_base, principles, Scenario};

/// `main` holds a `docs` context (owning `docs/`) with `limits`, its baseline from
/// `baseline init`, and `files`; HEAD is a new branch `feature`.
fn repo(limits: &str, files: &[(&str, &str)]) -> Scenario {
    let s = Scenario::git();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles(limits));
    for (path, text) in files {
        s.write(path, text);
    }
    s.cut_feature();
    s
}

/// guide.md (36 bytes) loads shared/rules.md (34), which loads shared/tone.md (9): 79.
fn chain() -> Scenario {
    repo(
        "loaded_bytes: 100\n",
        &[
            ("docs/guide.md", "# Guide\n\nFollow @../shared/rules.md\n"),
            (
                "shared/rules.md",
                "Rules. The tone: (@tone.md).\n\n\n\n\n\n",
            ),
            ("shared/tone.md", "Be kind.\n"),
        ],
    )
}

#[test]
fn growing_an_imported_file_fails_the_document_that_loads_it() {
    let s = chain();
    s.write("shared/tone.md", &format!("Be kind.\n{}\n", "x".repeat(30)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "docs/guide.md:1 guide.md: loaded_bytes 110 > 100 (band 100) (imports changed: shared/tone.md)",
        ]
    );
    assert_eq!(run.stderr, "");
    let run = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        v["excesses"],
        serde_json::json!([{
            "path": "docs/guide.md", "unit": "guide.md", "metric": "loaded_bytes",
            "value": 110, "limit": 100, "band": 100, "baseline": null,
            "start_line": 1, "end_line": 3, "base_value": 79, "imports_changed": ["shared/tone.md"],
        }])
    );
}

#[test]
fn an_import_that_still_fits_passes_and_unrelated_changes_judge_no_document() {
    let s = chain();
    s.write("shared/tone.md", "Be kind!\n");
    s.write("shared/other.md", &"x".repeat(500));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    // tone.md was judged through the document that loads it; other.md by nothing.
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "left out shared/other.md: no judged context owns it at the base",
        ]
    );
    s.git_ok(&["checkout", "-q", "shared/tone.md"]);
    s.commit("another document");
    let run = s.gate(&[]);
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "left out shared/other.md: no judged context owns it at the base",
        ]
    );
}

/// guide.md is 310 bytes at the base: past `file_bytes`/`loaded_bytes: 300`, pinned.
fn pinned() -> Scenario {
    let prose = format!("{}\n", "word ".repeat(60));
    let s = repo(
        "file_bytes: 300\nloaded_bytes: 300\n",
        &[("docs/guide.md", &format!("# Guide\n\n{prose}"))],
    );
    assert!(s.read("docs/structure-baseline.tsv").ends_with(
        "docs/guide.md\tguide.md\tfile_bytes\t310\ndocs/guide.md\tguide.md\tloaded_bytes\t310\n"
    ));
    s
}

#[test]
fn moving_prose_into_an_eagerly_imported_file_still_fails() {
    let s = pinned();
    let kept = format!("{}\n", "word ".repeat(10));
    s.write("docs/guide.md", &format!("# Guide\n\n@more.md\n\n{kept}"));
    s.write("docs/more.md", &format!("{}\n", "word ".repeat(50)));
    s.commit("split the guide");
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s): 1 excess(es) past the band",
            "docs/guide.md:1 guide.md: loaded_bytes 321 > 300 (band 300, baseline 310) (imports changed: docs/more.md)",
            "can tighten: docs/guide.md:1 guide.md: file_bytes 70 (baseline 310)",
        ]
    );
}

#[test]
fn moving_prose_behind_a_link_shrinks_what_a_document_loads() {
    let s = pinned();
    let kept = format!("{}\n", "word ".repeat(10));
    s.write(
        "docs/guide.md",
        &format!("# Guide\n\nSee [more](more.md).\n\n{kept}"),
    );
    s.write("docs/more.md", &format!("{}\n", "word ".repeat(50)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s), within their Limits",
            "can tighten: docs/guide.md:1 guide.md: file_bytes 82 (baseline 310)",
            "can tighten: docs/guide.md:1 guide.md: loaded_bytes 82 (baseline 310)",
        ]
    );
}

#[test]
fn a_context_with_only_code_limits_judges_no_markdown_in_the_gate() {
    let s = repo(
        "function_lines: 10\n",
        &[("docs/README.md", "# Docs\n"), ("docs/a.rs", "fn f() {}\n")],
    );
    s.write("docs/README.md", &"long ".repeat(1_000_000));
    s.write("docs/gen.md", "<!-- @generated -->\n");
    s.git_ok(&["mv", "docs/a.rs", "docs/b.rs"]);
    s.git_ok(&["mv", "docs/README.md", "docs/INDEX.md"]);
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "renamed docs/a.rs -> docs/b.rs: judged at the new path, with the baseline entries of docs/a.rs",
        ]
    );
}

#[test]
fn a_new_document_must_fit_the_cap_and_bad_imports_are_warned() {
    let s = pinned();
    s.write(
        "docs/new.md",
        &format!("@/etc/passwd\n{}\n", "word ".repeat(70)),
    );
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 2 excess(es) past the band",
            "docs/new.md:1 new.md: file_bytes 364 > 300 (band 300)",
            "docs/new.md:1 new.md: loaded_bytes 364 > 300 (band 300)",
        ]
    );
    assert_eq!(
        run.stderr,
        "warning: docs/new.md: import \"@/etc/passwd\" at docs/new.md:1 not followed: an absolute path\n"
    );
}

#[test]
fn an_import_cycle_ends_and_both_documents_are_judged() {
    let s = repo(
        "loaded_bytes: 100\n",
        &[
            ("docs/a.md", "A loads @b.md\n"),
            ("docs/b.md", "B loads @a.md\n"),
        ],
    );
    s.write("docs/b.md", "B loads @a.md and @./a.md again\n");
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 2 file(s) in 1 context(s), within their Limits"]
    );
    s.write("docs/b.md", &format!("B loads @a.md\n{}\n", "x".repeat(80)));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 2 file(s) in 1 context(s): 2 excess(es) past the band",
            "docs/a.md:1 a.md: loaded_bytes 109 > 100 (band 100) (imports changed: docs/b.md)",
            "docs/b.md:1 b.md: loaded_bytes 109 > 100 (band 100)",
        ]
    );
}

#[test]
fn an_imported_file_that_is_not_utf8_still_counts_and_its_imports_are_followed() {
    let s = chain();
    // Latin-1 `é` (17 bytes), importing a new 40-byte file: 36 + 34 + 17 + 40.
    s.write_bytes("shared/tone.md", b"Caf\xe9. (@more.md)\n");
    s.write("shared/more.md", &format!("{}\n", "x".repeat(39)));
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "docs/guide.md:1 guide.md: loaded_bytes 127 > 100 (band 100) \
             (imports changed: shared/more.md, shared/tone.md)",
        ]
    );
    assert_eq!(run.stderr, "");
    let run = s.run(&["measure", "--format", "json", "docs/guide.md"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(v["files"][0]["loaded_bytes"], 127);
    assert_eq!(
        v["files"][0]["imports"],
        serde_json::json!(["shared/more.md", "shared/rules.md", "shared/tone.md"])
    );
}

/// Replaces `path` in `s` with a symbolic link to `target`.
#[cfg(unix)]
fn link(s: &Scenario, path: &str, target: &str) {
    let _ = std::fs::remove_file(s.abs(path));
    std::os::unix::fs::symlink(target, s.abs(path)).expect("link");
}

#[cfg(unix)]
#[test]
fn an_import_swapped_for_a_link_to_a_bigger_file_is_read_through_it() {
    let s = chain();
    // tone.md (9 bytes) becomes a link to a new 60-byte file no context owns.
    s.write("outside/tone.md", &format!("{}\n", "x".repeat(59)));
    link(&s, "shared/tone.md", "../outside/tone.md");
    let run = s.gate(&["--require-judged"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "docs/guide.md:1 guide.md: loaded_bytes 130 > 100 (band 100) \
             (imports changed: outside/tone.md, shared/tone.md)",
        ]
    );
    assert_eq!(run.stderr, "");
    // Staged, the link is read from the index as the commit will hold it.
    s.git_ok(&["add", "-A"]);
    let staged = s.gate(&["--staged"]);
    assert_eq!(after_base(&staged.stdout), after_base(&run.stdout));
    let run = s.run(&["measure", "--format", "json", "docs/guide.md"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        (&v["files"][0]["loaded_bytes"], &v["files"][0]["imports"]),
        (
            &serde_json::json!(130),
            &serde_json::json!(["outside/tone.md", "shared/rules.md"])
        )
    );
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_repository_or_into_git_makes_the_document_unmeasurable() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("tone.md"), "x".repeat(5000)).expect("write");
    let away = outside.path().join("tone.md");
    for target in [
        away.to_str().expect("UTF-8"),
        "../../outside.md",
        "../.git/config",
    ] {
        let s = chain();
        link(&s, "shared/tone.md", target);
        let run = s.gate(&["--require-judged"]);
        assert_eq!(run.code, 1, "{target}: {run:?}");
        assert_eq!(
            after_base(&run.stdout),
            [
                "structure judged 0 file(s) in 1 context(s): 1 file(s) unmeasurable",
                "docs/guide.md: unmeasurable (link leaves the repository: shared/tone.md)",
            ],
            "{target}"
        );
        let json = s.gate(&["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
        assert_eq!(
            v["unmeasurable"],
            serde_json::json!([{"path": "docs/guide.md", "reason": "link-leaves-repository",
                "detail": "link leaves the repository: shared/tone.md"}])
        );
        let measured = s.run(&["measure", "docs/guide.md"]);
        assert!(
            measured
                .stdout
                .contains("skipped docs/guide.md: link leaves the repository: shared/tone.md"),
            "{measured:?}"
        );
    }
}
