//! `structgate baseline init|refresh` on scenario repositories (docs/src/reference/baseline.md).

use crate::common;

use common::{cs_class, exact, principles, Scenario, BAND_12};

const HEADER: &str = "# path\tunit\tmetric\tvalue — units over their Limits when measured, each tolerated up to its value\n";

#[test]
fn init_writes_excesses_but_not_divergences() {
    let s = Scenario::inventory(BAND_12);
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Over", 13), ("Within", 12), ("Fine", 5)]),
    );
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: wrote structure-baseline.tsv with 1 unit(s)\n"
    );
    insta::assert_snapshot!(
        "init_writes_the_excess_only",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn init_with_nothing_past_the_band_writes_the_header_alone() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Fine", 5)]));
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "init_with_nothing_past_the_band",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn init_without_limits_writes_nothing_and_says_so() {
    let s = Scenario::git();
    s.write("web/context.yaml", "meta:\n  name: web\n");
    s.write("web/principles.md", "# Principles\n\nNo limits here.\n");
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "web: no Limits declared; no baseline written\n");
    assert!(!s.abs("web/structure-baseline.tsv").exists());
}

#[test]
fn rerunning_init_changes_nothing_byte_for_byte() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Over", 13)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    let first = s.read("structure-baseline.tsv");
    s.write("src/A.cs", &cs_class("A", &[("Over", 15), ("Other", 30)]));
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: structure-baseline.tsv exists; kept as it is (1 unit(s)); structgate \
         baseline refresh updates it\n"
    );
    assert_eq!(s.read("structure-baseline.tsv"), first);
    let check = s.run(&["baseline", "init", "--check"]);
    assert_eq!(check.code, 0, "{check:?}");
}

#[test]
fn init_check_writes_nothing_and_fails() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Over", 13)]));
    let run = s.run(&["baseline", "init", "--check"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: would write structure-baseline.tsv with 1 unit(s)\n  + src/A.cs A.Over function_lines 13\n"
    );
    assert!(!s.abs("structure-baseline.tsv").exists());
}

#[test]
fn refresh_lowers_drops_and_never_adds_a_unit_that_grew() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Shrinks", 20), ("Heals", 20), ("Grows", 5)]),
    );
    s.write("src/B.cs", &cs_class("B", &[("Gone", 20)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("base");
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Shrinks", 15), ("Heals", 8), ("Grows", 30)]),
    );
    s.remove("src/B.cs");
    let check = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!(check.code, 1, "{check:?}");
    insta::assert_snapshot!("refresh_check_lowered_and_dropped", exact(&check.stdout));
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "refresh_lowered_and_dropped",
        exact(&s.read("structure-baseline.tsv"))
    );
    let again = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!(again.code, 0, "{again:?}");
}

#[test]
fn a_lowered_limit_exposes_units_but_not_those_that_grew() {
    let s = Scenario::inventory("function_lines: 20\n");
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Exposed", 15), ("Grows", 10)]),
    );
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write("principles.md", &principles("function_lines: 12\n"));
    s.write(
        "src/A.cs",
        &cs_class("A", &[("Exposed", 15), ("Grows", 25)]),
    );
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "refresh_after_a_lowered_limit",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn a_raised_limit_drops_entries_now_inside_the_band() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 15)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance_percent: 50\n"),
    );
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "refresh_after_a_raised_limit",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn a_malformed_baseline_is_an_error_and_left_as_it_was() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 15)]));
    let bad = format!("{HEADER}src/A.cs\tA.Long\tfunction_lines\tmany\n");
    s.write("structure-baseline.tsv", &bad);
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("structure-baseline.tsv:2"),
        "{}",
        run.stderr
    );
    assert_eq!(s.read("structure-baseline.tsv"), bad);
}

#[test]
fn a_git_mv_moves_entries_on_refresh() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 15)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("base");
    s.git_ok(&["mv", "src/A.cs", "src/Moved.cs"]);
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(
        "refresh_after_a_git_mv",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn measure_marks_tolerated_units() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 15)]));
    assert_eq!(s.run(&["measure", "--check", "src"]).code, 1);
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    let run = s.run(&["measure", "--check", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("  A.Long  15 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  tolerated (limit 10, \
                 band 10, baseline 15)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn refresh_collapses_duplicate_entries_and_rewrites_the_file_canonically() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 25), ("Short", 5)]));
    let header =
        format!("{HEADER}# measured with: function_lines=10 tolerance_percent=0\n# owned:\tsrc\n# units: 2\n");
    let entry = |v: u32| format!("src/A.cs\tA.Long\tfunction_lines\t{v}\n");
    let messy = format!("{header}{}{}{}", entry(25), entry(18), entry(30));
    s.write("structure-baseline.tsv", &messy);
    let check = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!(check.code, 1, "{check:?}");
    assert_eq!(
        check.stdout,
        "inventory: would update structure-baseline.tsv: 0 added, 0 lowered, 0 dropped, \
         rewritten in canonical form; 1 unit(s)\n"
    );
    assert_eq!(s.read("structure-baseline.tsv"), messy);
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: refreshed structure-baseline.tsv: 0 added, 0 lowered, 0 dropped, \
         rewritten in canonical form; 1 unit(s)\n"
    );
    assert_eq!(
        run.stderr,
        "warning: structure-baseline.tsv:6: duplicate entry for src/A.cs A.Long function_lines \
         (also at line 5); the lower value 18 stands\n\
         warning: structure-baseline.tsv:7: duplicate entry for src/A.cs A.Long function_lines \
         (also at line 5); the lower value 18 stands\n"
    );
    insta::assert_snapshot!(
        "refresh_collapsed_duplicates",
        exact(&s.read("structure-baseline.tsv"))
    );
    let again = s.run(&["baseline", "refresh"]);
    assert_eq!(
        again.stdout,
        "inventory: structure-baseline.tsv is up to date (1 unit(s))\n"
    );
}

#[test]
fn refresh_sorts_entries_and_rewrites_a_crlf_file() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 25), ("Longer", 30)]));
    s.write("src/B.cs", &cs_class("B", &[("Long", 20)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    let canonical = s.read("structure-baseline.tsv");
    let mut lines: Vec<&str> = canonical.lines().collect();
    lines[3..].reverse();
    s.write("structure-baseline.tsv", &(lines.join("\r\n") + "\r\n"));
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: refreshed structure-baseline.tsv: 0 added, 0 lowered, 0 dropped, \
         rewritten in canonical form; 3 unit(s)\n"
    );
    assert_eq!(s.read("structure-baseline.tsv"), canonical);
}

#[test]
fn init_keeps_a_baseline_with_duplicates_untouched() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/A.cs", &cs_class("A", &[("Long", 25)]));
    let messy = format!(
        "{HEADER}# measured with: function_lines=10 tolerance_percent=0\n# owned:\tsrc\n# units: 2\n\
         src/A.cs\tA.Long\tfunction_lines\t30\nsrc/A.cs\tA.Long\tfunction_lines\t25\n"
    );
    s.write("structure-baseline.tsv", &messy);
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: structure-baseline.tsv exists; kept as it is (1 unit(s)); structgate \
         baseline refresh updates it\n"
    );
    assert_eq!(s.read("structure-baseline.tsv"), messy);
    assert_eq!(s.run(&["baseline", "init", "--check"]).code, 0);
}

#[test]
fn a_source_missing_from_the_working_tree_is_an_error_for_limits_measure_and_baseline() {
    let s = Scenario::git();
    s.write(
        "services/shop/context.yaml",
        "meta:\n  name: shop\n  workdir: services/shop\nsources:\n  - src\n  - scr/Core\n",
    );
    s.write("services/shop/principles.md", &principles(BAND_12));
    s.write("services/shop/src/A.cs", &cs_class("A", &[("Run", 5)]));
    let said = "error: services/shop/context.yaml:6: sources entry \"scr/Core\" names \
                services/shop/scr/Core, which does not exist\n";
    for args in [
        &["limits"][..],
        &["measure"],
        &["measure", "--check", "services/shop/src"],
        &["baseline", "init"],
        &["baseline", "refresh", "--check"],
    ] {
        let run = s.run(args);
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", said),
            "{args:?}"
        );
    }
    assert!(!s.abs("services/shop/structure-baseline.tsv").exists());
}

#[test]
fn a_missing_workdir_is_named_by_its_key_and_line() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n  workdir: srv\n");
    let run = s.run(&["limits"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: context.yaml:3: meta.workdir \"srv\" names srv, which does not exist\n"
        )
    );
}

#[test]
fn refresh_says_which_entries_went_with_a_directory_no_longer_owned() {
    let s = Scenario::git();
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources: [src, lib]\n",
    );
    s.write("principles.md", &principles(BAND_12));
    s.write("src/A.cs", &cs_class("A", &[("Over", 13)]));
    s.write("lib/B.cs", &cs_class("B", &[("Over", 14)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write("context.yaml", "meta:\n  name: inventory\nsources: [src]\n");
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory: refreshed structure-baseline.tsv: 0 added, 0 lowered, 0 dropped, \
         1 no longer owned; 1 unit(s)\n\
         \x20 - lib/B.cs B.Over function_lines 14 (no longer owned: no sources entry holds lib/B.cs)\n"
    );
    insta::assert_snapshot!(
        "refresh_without_a_directory_no_longer_owned",
        exact(&s.read("structure-baseline.tsv"))
    );
}

#[test]
fn init_on_an_existing_baseline_adds_only_newly_owned_directories_and_points_at_refresh() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: inventory\nsources: [src]\n");
    s.write("principles.md", &principles(BAND_12));
    s.write("src/A.cs", &cs_class("A", &[("Over", 13)]));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.write(
        "context.yaml",
        "meta:\n  name: inventory\nsources: [src, lib]\n",
    );
    s.write("lib/B.cs", &cs_class("B", &[("Over", 14)]));
    s.write("src/A.cs", &cs_class("A", &[("Over", 13), ("Grew", 20)]));
    let check = s.run(&["baseline", "init", "--check"]);
    assert_eq!(
        (check.code, check.stdout.as_str()),
        (
            1,
            "inventory: structure-baseline.tsv exists; would add 1 unit(s) of newly owned \
             directories (2 unit(s)); structgate baseline refresh updates the rest\n\
             \x20 + lib/B.cs B.Over function_lines 14\n"
        )
    );
    let run = s.run(&["baseline", "init"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (
            0,
            "inventory: structure-baseline.tsv exists; added 1 unit(s) of newly owned \
             directories (2 unit(s)); structgate baseline refresh updates the rest\n",
            ""
        )
    );
    insta::assert_snapshot!(
        "init_adds_newly_owned_directories",
        exact(&s.read("structure-baseline.tsv"))
    );
}
