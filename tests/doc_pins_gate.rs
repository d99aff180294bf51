//! Pins and tier caps, the two guards of document budgets, end to end (docs/src/reference/documents.md#pins-and-tiers): every document pinned at its size by
//! `baseline init`, any growth failing the gate with its delta, a deliberate growth
//! recorded by `baseline accept` within the band, honoured by `gate --accept-growth` only
//! within the base's bands, new documents held to `new_file_bytes`, the first matching
//! tier winning.

use crate::common;

use common::{after_base, exact, principles, Scenario};

const LIMITS: &str = "file_bytes: 40960\nnew_file_bytes: 32768\nloaded_bytes: 65536\n\
pinned: [file_bytes, loaded_bytes]\ntiers:\n  - name: xl\n    paths: [docs/workflows/plan.md, \
\"docs/workflows/new-*.md\"]\n    file_bytes: 98304\n    loaded_bytes: 98304\n    new_file_bytes: 70000\n  - name: large\n    \
paths: [\"docs/workflows/*.md\"]\n    file_bytes: 61440\n    loaded_bytes: 61440\n";

/// A Markdown document of exactly `bytes` bytes.
fn doc(bytes: usize) -> String {
    format!("# Doc\n{}\n", "x".repeat(bytes - 7))
}

/// `main` holds the `docs` context (owning `docs/`) with [`LIMITS`], `docs/plan.md`
/// (10,010 bytes), `docs/old.md` (40,000) and `docs/workflows/plan.md` (90,000, tier
/// xl), every one pinned by `baseline init`; HEAD is branch `feature`.
fn repo() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: docs\nsources:\n  - docs\n");
    s.write("principles.md", &principles(LIMITS));
    s.write("docs/plan.md", &doc(10_010));
    s.write("docs/old.md", &doc(40_000));
    s.write("docs/workflows/plan.md", &doc(90_000));
    s.cut_feature();
    s
}

#[test]
fn init_pins_every_document_at_its_size_and_records_the_terms() {
    let s = repo();
    insta::assert_snapshot!("init_pins", exact(&s.read("structure-baseline.tsv")));
    let refresh = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!(refresh.code, 0, "nothing to change: {refresh:?}");
}

#[test]
fn a_pinned_document_that_grows_by_310_bytes_fails_with_the_delta() {
    let s = repo();
    s.write("docs/plan.md", &doc(10_320));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 2 value(s) grown past their pin",
            "docs/plan.md:1 plan.md: file_bytes 10320 > pinned 10010 (+310; limit 40960, band 40960)",
            "docs/plan.md:1 plan.md: loaded_bytes 10320 > pinned 10010 (+310; limit 65536, band 65536)",
        ]
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["excesses"][0],
        serde_json::json!({"path": "docs/plan.md", "unit": "plan.md", "metric": "file_bytes",
            "value": 10320, "limit": 40960, "band": 40960, "baseline": 10010,
            "start_line": 1, "end_line": 2, "base_value": 10010})
    );
    assert_eq!(v["accepted_growth"], serde_json::json!([]));
    let measured = s.run(&["measure", "--check", "docs/plan.md"]);
    assert_eq!(measured.code, 1, "{measured:?}");
    assert_eq!(
        measured.stdout.lines().last(),
        Some(
            "measured 1 file(s): 0 function(s), 0 type(s); 0 excess(es), \
             2 value(s) grown past their pin, 0 divergence(s), 0 tolerated by the baseline"
        )
    );
}

/// A pin's growth within its band is labelled as such in every format, never "past the
/// band": the PR summary's section, GitHub's annotation title and SARIF's message.
#[test]
fn a_pins_growth_is_labelled_grew_past_its_pin_in_every_format() {
    let s = repo();
    s.write("docs/plan.md", &doc(10_320));
    s.write("docs/old.md", &doc(41_000));
    let summary = s.path().join("summary.md");
    let run = s.gate(&["--pr-summary", summary.to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{run:?}");
    let md = std::fs::read_to_string(&summary).expect("summary");
    insta::assert_snapshot!("pin_growth_pr_summary", exact(&md));
    let github = s.gate(&["--format", "github"]);
    assert_eq!(github.code, 1, "{github:?}");
    let titles: Vec<&str> = github
        .stdout
        .lines()
        .filter_map(|l| l.split("title=").nth(1)?.split("::").next())
        .collect();
    assert_eq!(
        titles,
        [
            "file_bytes past the band",
            "loaded_bytes grew past its pin",
            "file_bytes grew past its pin",
            "loaded_bytes grew past its pin",
            // summary.md, which the run above wrote where no judged context owns it.
            "left out",
        ]
    );
    let sarif = s.gate(&["--format", "sarif"]);
    let v: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("sarif");
    let messages: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["message"]["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        messages,
        [
            "old.md: file_bytes 41000 > 40960 (band 40960, baseline 40000)",
            "old.md grew past its pin: loaded_bytes 41000 > pinned 40000 (+1000; limit 65536, band 65536)",
            "plan.md grew past its pin: file_bytes 10320 > pinned 10010 (+310; limit 40960, band 40960)",
            "plan.md grew past its pin: loaded_bytes 10320 > pinned 10010 (+310; limit 65536, band 65536)",
        ]
    );
}

#[test]
fn a_shrinking_document_passes_and_refresh_records_the_lower_size() {
    let s = repo();
    s.write("docs/plan.md", &doc(9_000));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "can tighten: docs/plan.md:1 plan.md: file_bytes 9000 (baseline 10010)",
            "can tighten: docs/plan.md:1 plan.md: loaded_bytes 9000 (baseline 10010)",
        ]
    );
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    let baseline = s.read("structure-baseline.tsv");
    assert!(
        baseline.contains("docs/plan.md\tplan.md\tfile_bytes\t9000\n"),
        "{baseline}"
    );
    assert!(
        baseline.contains("docs/plan.md\tplan.md\tloaded_bytes\t9000\n"),
        "{baseline}"
    );
    // The others stay pinned where they are, within their bands.
    assert!(
        baseline.contains("docs/old.md\told.md\tfile_bytes\t40000\n"),
        "{baseline}"
    );
    // Growing back does not raise a pin: refresh only ever tightens.
    s.write("docs/plan.md", &doc(9_500));
    s.run(&["baseline", "refresh"]);
    assert!(s
        .read("structure-baseline.tsv")
        .contains("docs/plan.md\tplan.md\tfile_bytes\t9000\n"));
}

#[test]
fn accept_raises_within_the_band_and_refuses_past_it_leaving_the_file_unchanged() {
    let s = repo();
    s.write("docs/plan.md", &doc(10_320));
    let before = s.read("structure-baseline.tsv");
    let check = s.run(&["baseline", "accept", "--check", "docs/plan.md"]);
    assert_eq!(
        (check.code, check.stdout.as_str(), check.stderr.as_str()),
        (
            1,
            "docs/plan.md plan.md: file_bytes 10010 \u{2192} 10320 (+310, band 40960)\n\
             docs/plan.md plan.md: loaded_bytes 10010 \u{2192} 10320 (+310, band 65536)\n\
             docs: would raise 2 entry(ies) in structure-baseline.tsv\n",
            ""
        )
    );
    assert_eq!(s.read("structure-baseline.tsv"), before);
    let run = s.run(&["baseline", "accept", "docs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "docs/plan.md plan.md: file_bytes 10010 \u{2192} 10320 (+310, band 40960)\n\
         docs/plan.md plan.md: loaded_bytes 10010 \u{2192} 10320 (+310, band 65536)\n\
         docs: raised 2 entry(ies) in structure-baseline.tsv\n"
    );
    assert_eq!(
        s.read("structure-baseline.tsv"),
        before
            .replace("plan.md\tfile_bytes\t10010", "plan.md\tfile_bytes\t10320")
            .replace(
                "plan.md\tloaded_bytes\t10010",
                "plan.md\tloaded_bytes\t10320"
            )
    );
    let again = s.run(&["baseline", "accept", "--check", "docs"]);
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, "docs: nothing to accept in structure-baseline.tsv\n")
    );
    // Past the band: refused, all or nothing, the file byte for byte as it was.
    s.write("docs/plan.md", &doc(41_000));
    s.write("docs/old.md", &doc(40_100));
    let accepted = s.read("structure-baseline.tsv");
    let refused = s.run(&["baseline", "accept", "docs"]);
    assert_eq!(refused.code, 1, "{refused:?}");
    insta::assert_snapshot!("accept_refused_past_the_band", exact(&refused.stdout));
    assert_eq!(s.read("structure-baseline.tsv"), accepted);
}

#[test]
fn accept_on_a_path_no_context_owns_is_an_error_naming_it() {
    let s = repo();
    s.write("notes/a.md", "# A\n");
    let before = s.read("structure-baseline.tsv");
    let run = s.run(&["baseline", "accept", "notes/a.md"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (2, "", "error: notes/a.md: no context owns it\n")
    );
    assert_eq!(s.read("structure-baseline.tsv"), before);
}

#[test]
fn a_new_document_is_held_to_new_file_bytes_an_old_one_to_its_limit_and_the_first_tier_wins() {
    let s = repo();
    s.write("docs/new.md", &doc(32_769));
    s.write("docs/old.md", &doc(40_000).replace("# Doc", "# Old"));
    // Matches both tiers: xl, listed first, gives a new file 70,000 bytes; large 61,440.
    s.write("docs/workflows/new-phase.md", &doc(65_000));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 3 file(s) in 1 context(s): 1 excess(es) past the band",
            "docs/new.md:1 new.md: file_bytes 32769 > 32768 (band 32768)",
        ]
    );
    s.write("docs/new.md", &doc(32_768));
    assert_eq!(s.gate(&[]).code, 0);
}

#[test]
fn a_branch_raising_its_own_pin_passes_only_with_accept_growth_and_never_past_the_base_band() {
    let s = repo();
    s.write("docs/plan.md", &doc(10_320));
    assert_eq!(s.run(&["baseline", "accept", "docs/plan.md"]).code, 0);
    s.commit("plan: the new review step");
    let strict = s.gate(&[]);
    assert_eq!(
        strict.code, 1,
        "the branch's baseline is not read: {strict:?}"
    );
    assert_eq!(
        after_base(&strict.stdout)[1],
        "docs/plan.md:1 plan.md: file_bytes 10320 > pinned 10010 (+310; limit 40960, band 40960)"
    );
    let summary = s.abs(".git/summary.md");
    let accepted = s.gate(&[
        "--accept-growth",
        "--pr-summary",
        summary.to_str().expect("UTF-8"),
    ]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    let lines = after_base(&accepted.stdout);
    assert_eq!(
        lines[..3],
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "accepted growth: docs/plan.md plan.md file_bytes 10010 \u{2192} 10320 (+310)",
            "accepted growth: docs/plan.md plan.md loaded_bytes 10010 \u{2192} 10320 (+310)",
        ]
    );
    let md = std::fs::read_to_string(&summary).expect("summary");
    insta::assert_snapshot!("accept_growth_pr_summary", exact(&md));
    let json = s.gate(&["--accept-growth", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["accepted_growth"][0],
        serde_json::json!({"path": "docs/plan.md", "unit": "plan.md", "metric": "file_bytes",
                           "from": 10010, "to": 10320})
    );
    // Raising a tier cap on the branch, and the pin up to it, is not honoured: the band
    // is the base's.
    s.write(
        "principles.md",
        &principles(&LIMITS.replace("98304", "120000")),
    );
    s.write("docs/workflows/plan.md", &doc(99_000));
    assert_eq!(s.run(&["baseline", "accept", "docs/workflows"]).code, 0);
    s.commit("a bigger plan tier");
    let capped = s.gate(&["--accept-growth"]);
    assert_eq!(capped.code, 1, "{capped:?}");
    assert_eq!(
        after_base(&capped.stdout)[..2],
        [
            "structure judged 2 file(s) in 1 context(s): 2 excess(es) past the band",
            "docs/workflows/plan.md:1 plan.md: file_bytes 99000 > 98304 (band 98304, baseline 90000)",
        ]
    );
}

/// A Markdown document of exactly `bytes` bytes in lines of 50 (as prose is written,
/// so that git's rename detection pairs its versions line by line).
fn prose(bytes: usize) -> String {
    let mut text = String::from("# Guide\n");
    while text.len() + 50 <= bytes {
        text.push_str(&format!("{:<49}\n", format!("line {}", text.len() / 50)));
    }
    text.push_str(&"x".repeat(bytes - text.len() - 1));
    text.push('\n');
    text
}

#[test]
fn accept_growth_honours_a_moved_documents_raise_only_within_the_band_of_its_old_path() {
    // docs/guide.md (40,000 bytes, pinned; untiered: file_bytes band 40960) moved into
    // the `large` tier (file_bytes band 61440) and grown to 50,000; the branch records
    // the growth with `baseline accept`, within the new tier's band.
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: docs\nsources:\n  - docs\n");
    s.write("principles.md", &principles(LIMITS));
    s.write("docs/guide.md", &prose(40_000));
    s.cut_feature();
    std::fs::create_dir(s.abs("docs/workflows")).expect("mkdir");
    s.git_ok(&["mv", "docs/guide.md", "docs/workflows/guide.md"]);
    s.write("docs/workflows/guide.md", &prose(50_000));
    let accept = s.run(&["baseline", "accept", "docs/workflows/guide.md"]);
    assert_eq!(accept.code, 0, "{accept:?}");
    s.commit("guide: moved to the workflows and grown");
    let run = s.gate(&["--accept-growth"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!("moved_document_text", after_base(&run.stdout).join("\n"));
    let json = s.gate(&["--accept-growth", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["excesses"],
        serde_json::json!([{"path": "docs/workflows/guide.md", "unit": "guide.md",
            "metric": "file_bytes", "value": 50000, "limit": 61440, "band": 61440,
            "baseline": 40000, "growth_refused": {"to": 50000, "bound": 40960},
            "start_line": 1, "end_line": 1001, "base_value": 40000}])
    );
    // A raise within the old path's band too is honoured (refresh lowers the entries to
    // the document's size).
    s.write("docs/workflows/guide.md", &prose(40_500));
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    let run = s.gate(&["--accept-growth"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout)[..3],
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            "accepted growth: docs/workflows/guide.md guide.md file_bytes 40000 \u{2192} 40500 (+500)",
            "accepted growth: docs/workflows/guide.md guide.md loaded_bytes 40000 \u{2192} 40500 (+500)",
        ]
    );
}
