//! The terms of docs/src/reference/documents.md#pins-and-tiers — `pinned`, `new_file_bytes` and `tiers` — as the readers take
//! them: every bad value is exit 2 naming principles.md, the line and the key; `structgate
//! limits` shows each tier with its files, values and bands, and warns of stale tiers;
//! Project Specifics replaces `pinned` and `tiers` whole; a branch that loosens a tier or
//! a pin is told so.

use crate::common;

use common::{after_base, exact, principles, Scenario};

/// A `docs` context (workdir `docs`, owning it) with `limits`, and `files`; not a git
/// repository.
fn docs(limits: &str, files: &[(&str, &str)]) -> Scenario {
    let s = Scenario::plain();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles(limits));
    for (path, text) in files {
        s.write(path, text);
    }
    s
}

#[test]
fn every_bad_value_of_pinned_tiers_and_new_file_bytes_is_exit_2_naming_file_line_and_key() {
    let cases: &[(&str, &str)] = &[
        (
            "file_bytes: 100\npinned: [file_bytes, bogus]\n",
            "docs/principles.md:7: pinned: \"bogus\" is not a metric key (known: chain_bytes, file_bytes, \
             file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file)",
        ),
        (
            "file_bytes: 100\npinned: [loaded_bytes]\n",
            "docs/principles.md:7: pinned: loaded_bytes is pinned but has no limit (a pin \
             needs a cap: set loaded_bytes)",
        ),
        (
            "file_bytes: 100\npinned: file_bytes\n",
            "docs/principles.md:7: pinned: \"file_bytes\" is not a list of metric keys (write \
             pinned: [file_bytes])",
        ),
        (
            "file_bytes: 100\ntiers:\n  - paths: [a.md]\n    file_bytes: 5\n",
            "docs/principles.md:8: tiers: tier 1 has no name",
        ),
        (
            "file_bytes: 100\ntiers:\n  - name: xl\n    file_bytes: 5\n",
            "docs/principles.md:8: tiers: tier 1 has no paths",
        ),
        (
            "file_bytes: 100\ntiers:\n  - name: xl\n    paths: [a.md]\n    file_bytes: 5\n  \
             - name: xl\n    paths: [b.md]\n    file_bytes: 6\n",
            "docs/principles.md:11: tiers.name: two tiers are named \"xl\"; tier names are unique",
        ),
        (
            "file_bytes: 100\ntiers:\n  - name: xl\n    paths: [a.md]\n    file_bytes: \"5\"\n",
            "docs/principles.md:10: tiers.file_bytes: \"5\" is not a positive whole number",
        ),
        (
            "file_bytes: 100\ntiers:\n  - name: xl\n    paths: [\"a[.md\"]\n    file_bytes: 5\n",
            "docs/principles.md:9: tiers.paths: \"a[.md\" is not a valid glob: unclosed \
             character class; missing ']'",
        ),
        (
            "file_bytes: 100\ntiers: [{name: xl, paths: a.md, file_bytes: 5}]\n",
            "docs/principles.md:7: tiers.paths: \"a.md\" is not a non-empty list of glob patterns",
        ),
        (
            "file_bytes: 100\ntiers:\n  - name: xl\n    paths: [a.md]\n",
            "docs/principles.md:8: tiers: tier \"xl\" sets no limit (give it a metric key or \
             new_file_bytes)",
        ),
        (
            "file_bytes: 100\ntiers: {name: xl}\n",
            "docs/principles.md:7: tiers: a mapping is not a list of tiers (each `- name: ..., \
             paths: [...]`)",
        ),
        (
            "file_bytes: 100\nnew_file_bytes: 0\n",
            "docs/principles.md:7: new_file_bytes: 0 is not a positive whole number",
        ),
    ];
    for (limits, message) in cases {
        let s = docs(limits, &[("docs/a.md", "# A\n")]);
        for args in [&["limits"][..], &["measure", "docs"], &["baseline", "init"]] {
            let run = s.run(args);
            assert_eq!(
                (run.code, run.stdout.as_str(), run.stderr.as_str()),
                (2, "", format!("error: {message}\n").as_str()),
                "{args:?} with {limits}"
            );
        }
        assert!(!s.abs("docs/structure-baseline.tsv").exists());
    }
}

#[test]
fn a_key_inside_a_tier_outside_its_list_is_an_unknown_key() {
    let s = docs(
        "file_bytes: 100\ntiers:\n  - name: xl\n    paths: [a.md]\n    file_bytes: 500\n    \
         tolerance_percent: 5\n",
        &[("docs/a.md", "# A\n")],
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .starts_with("error: docs/principles.md:11: unknown Limits key tolerance_percent"),
        "{run:?}"
    );
    let measured = s.run(&["measure", "docs"]);
    assert_eq!(measured.code, 0, "{measured:?}");
    assert!(
        measured
            .stderr
            .starts_with("warning: docs/principles.md:11: unknown Limits key tolerance_percent"),
        "{measured:?}"
    );
}

/// The agent-documents recipe's terms: a 40 KiB default, a 32 KiB new-file anchor, every document pinned
/// at its size, and two tiers for named files.
const SEED: &str = "file_bytes: 40960\nnew_file_bytes: 32768\nloaded_bytes: 65536\n\
pinned: [file_bytes, loaded_bytes]\ntiers:\n  - name: xl\n    paths: [workflows/plan.md, \
workflows/execute.md]\n    file_bytes: 98304\n  - name: large\n    paths: [\"workflows/*.md\", \
\"agents/gone/**\"]\n    file_bytes: 61440\n    new_file_bytes: 40000\n";

#[test]
fn limits_shows_each_tier_with_its_files_values_bands_and_pins_and_warns_of_stale_patterns() {
    let s = docs(
        SEED,
        &[
            ("docs/workflows/plan.md", "# Plan\n"),
            ("docs/workflows/discuss.md", "# Discuss\n"),
            ("docs/agents/a.md", "# A\n"),
        ],
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("limits_with_tiers_and_pins", exact(&run.stdout));
    assert_eq!(
        run.stderr,
        "warning: docs/principles.md: tier xl pattern \"workflows/execute.md\" matches no file \
         the context owns: a stale tier does nothing\n\
         warning: docs/principles.md: tier large pattern \"agents/gone/**\" matches no file the \
         context owns: a stale tier does nothing\n"
    );
    let json = s.run(&["limits", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let c = &v["contexts"][0];
    assert_eq!(
        c["pinned"],
        serde_json::json!(["file_bytes", "loaded_bytes"])
    );
    assert_eq!(
        c["new_file_bytes"],
        serde_json::json!({"value": 32768, "band": 32768, "from": "limits"})
    );
    assert_eq!(
        c["tiers"][1],
        serde_json::json!({"name": "large", "paths": ["workflows/*.md", "agents/gone/**"],
            "limits": {"file_bytes": {"value": 61440, "band": 61440},
                       "new_file_bytes": {"value": 40000, "band": 40000}},
            "files": ["docs/workflows/discuss.md"]})
    );
}

#[test]
fn baseline_init_and_refresh_warn_of_stale_tier_patterns_as_limits_does() {
    let s = docs(
        SEED,
        &[
            ("docs/workflows/plan.md", "# Plan\n"),
            ("docs/agents/a.md", "# A\n"),
        ],
    );
    let stale = "warning: docs/principles.md: tier xl pattern \"workflows/execute.md\" matches \
                 no file the context owns: a stale tier does nothing\n\
                 warning: docs/principles.md: tier large pattern \"agents/gone/**\" matches no \
                 file the context owns: a stale tier does nothing\n";
    let init = s.run(&["baseline", "init"]);
    assert_eq!(
        (init.code, init.stdout.as_str(), init.stderr.as_str()),
        (
            0,
            "docs: wrote docs/structure-baseline.tsv with 6 unit(s)\n",
            stale
        )
    );
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(
        (
            refresh.code,
            refresh.stdout.as_str(),
            refresh.stderr.as_str()
        ),
        (
            0,
            "docs: docs/structure-baseline.tsv is up to date (6 unit(s))\n",
            stale
        )
    );
}

#[test]
fn a_limit_set_by_tiers_alone_that_the_header_does_not_record_is_said() {
    let s = docs("file_bytes: 40960\n", &[("docs/agents/a.md", "# A\n")]);
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    let tiered = "file_bytes: 40960\ntiers:\n  - name: agents\n    paths: [\"agents/*.md\"]\n    \
                  loaded_bytes: 8000\n";
    s.write("docs/principles.md", &principles(tiered));
    let said = "warning: docs/principles.md sets loaded_bytes, which docs/structure-baseline.tsv \
                does not record: structgate baseline refresh records today's excesses\n";
    let limits = s.run(&["limits"]);
    assert_eq!((limits.code, limits.stderr.as_str()), (0, said));
    // A new tier's value of a metric the header records is a changed limit, not said.
    s.write(
        "docs/principles.md",
        &principles("file_bytes: 40960\ntiers:\n  - name: agents\n    paths: [\"agents/*.md\"]\n    file_bytes: 8000\n"),
    );
    let changed = s.run(&["limits"]);
    assert_eq!((changed.code, changed.stderr.as_str()), (0, ""));
}

#[test]
fn project_specifics_replaces_pinned_and_tiers_whole() {
    let text = format!(
        "{}\n## Project Specifics\n\n### Limits\n\n```yaml\npinned: [loaded_bytes]\ntiers:\n  \
         - name: small\n    paths: [agents/*.md]\n    file_bytes: 2000\n```\n",
        principles(SEED)
    );
    let s = docs(SEED, &[("docs/agents/a.md", "# A\n")]);
    s.write("docs/principles.md", &text);
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("limits_with_project_specifics", exact(&run.stdout));
    assert_eq!(run.stderr, "");
}

#[test]
fn a_branch_that_loosens_a_tier_or_a_pin_is_told_so() {
    let s = Scenario::git();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles(SEED));
    s.write("docs/workflows/plan.md", "# Plan\n");
    s.cut_feature();
    let looser = SEED
        .replace(
            "pinned: [file_bytes, loaded_bytes]",
            "pinned: [loaded_bytes]",
        )
        .replace("98304", "120000")
        .replace("workflows/plan.md, ", "workflows/plan.md, big/*.md, ");
    s.write("docs/principles.md", &principles(&looser));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "a_loosened_tier_and_pin",
        after_base(&run.stdout).join("\n")
    );
    let tighter = SEED.replace("61440", "50000");
    s.write("docs/principles.md", &principles(&tighter));
    let run = s.gate(&[]);
    assert_eq!(
        after_base(&run.stdout)[2],
        "  docs: docs/principles.md: tiers.large.file_bytes 61440 -> 50000 (tightens)",
        "principles.md is pinned too, and within it: nothing to tighten"
    );
}
