//! `measure --check` after a rename carries what `baseline refresh` would move and the
//! gate tolerates (docs/src/reference/baseline.md): the entries of a file renamed since the baseline was last
//! changed, within the same context's baseline.

use crate::common;

use common::{cs_class, principles, Scenario, BAND_12};

const CARRIED: &str =
    "src/Moved.cs:3  function  Big.Old    40 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  tolerated (limit 10, band 12, baseline 40)\n";
const GATE_PASSED: &str = "structure judged 1 file(s) in 1 context(s), within their Limits\n";

/// `main` holds `src/Big.cs` with `Big.Old` at 40 lines (limit 10, band 12) recorded in
/// the baseline at 40; HEAD is branch `feature`.
fn baselined_big() -> Scenario {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 40)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.cut_feature();
    s
}

/// `measure --check src` passes with `Big.Old` tolerated at its new path, and the gate
/// agrees.
fn assert_carried(s: &Scenario) {
    let m = s.run(&["measure", "--check", "src"]);
    assert_eq!(m.code, 0, "{m:?}");
    assert!(m.stdout.contains(CARRIED), "{}", m.stdout);
    assert!(
        m.stdout
            .ends_with("0 excess(es), 0 divergence(s), 1 tolerated by the baseline\n"),
        "{}",
        m.stdout
    );
    let g = s.gate(&[]);
    assert_eq!(g.code, 0, "{g:?}");
    assert!(g.stdout.contains(GATE_PASSED), "{}", g.stdout);
}

#[test]
fn a_staged_git_mv_keeps_the_allowance_in_measure_check_as_at_the_gate() {
    let s = baselined_big();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    assert_carried(&s);
}

#[test]
fn a_committed_git_mv_keeps_the_allowance_until_and_after_the_refresh() {
    let s = baselined_big();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    s.commit("move");
    assert_carried(&s);
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    assert!(
        s.read("structure-baseline.tsv")
            .ends_with("\nsrc/Moved.cs\tBig.Old\tfunction_lines\t40\n"),
        "{}",
        s.read("structure-baseline.tsv")
    );
    s.commit("refresh");
    let m = s.run(&["measure", "--check", "src"]);
    assert_eq!(m.code, 0, "{m:?}");
    assert!(m.stdout.contains(CARRIED), "{}", m.stdout);
}

#[test]
fn a_move_not_yet_staged_keeps_the_allowance() {
    let s = baselined_big();
    std::fs::rename(s.abs("src/Big.cs"), s.abs("src/Moved.cs")).expect("mv");
    assert_carried(&s);
}

#[test]
fn a_moved_unit_grown_past_its_entry_fails_both_at_the_new_path() {
    let s = baselined_big();
    s.git_ok(&["mv", "src/Big.cs", "src/Moved.cs"]);
    s.write("src/Moved.cs", &cs_class("Big", &[("Old", 44)]));
    let m = s.run(&["measure", "--check", "src"]);
    assert_eq!(m.code, 1, "{m:?}");
    assert!(
        m.stdout.contains(
            "src/Moved.cs:3  function  Big.Old    44 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  excess: function_lines 44 > 10 (band 12, baseline 40)\n"
        ),
        "{}",
        m.stdout
    );
    let g = s.gate(&[]);
    assert_eq!(g.code, 1, "{g:?}");
    assert!(
        g.stdout
            .contains("src/Moved.cs:3 Big.Old: function_lines 44 > 10 (band 12, baseline 40)\n"),
        "{}",
        g.stdout
    );
}

#[test]
fn a_copy_carries_nothing() {
    let s = baselined_big();
    std::fs::copy(s.abs("src/Big.cs"), s.abs("src/Moved.cs")).expect("cp");
    s.git_ok(&["add", "src/Moved.cs"]);
    let m = s.run(&["measure", "--check", "src"]);
    assert_eq!(m.code, 1, "{m:?}");
    assert!(
        m.stdout
            .contains("src/Moved.cs:3  function  Big.Old    40 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  excess: function_lines 40 > 10 (band 12)\n"),
        "{}",
        m.stdout
    );
    assert!(
        m.stdout.contains(
            "src/Big.cs:3    function  Big.Old    40 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  tolerated (limit 10, band 12, baseline 40)\n"
        ),
        "{}",
        m.stdout
    );
    let g = s.gate(&[]);
    assert_eq!(g.code, 1, "{g:?}");
    assert!(
        g.stdout
            .contains("src/Moved.cs:3 Big.Old: function_lines 40 > 10 (band 12)\n"),
        "{}",
        g.stdout
    );
}

/// Decided: `measure --check` carries an allowance within the baseline that recorded it,
/// as `baseline refresh` moves it; a file moved into another context is judged by that
/// context's terms, which tolerate nothing of it (the gate alone carries the old owner's
/// entries, for the change that moves it).
#[test]
fn a_move_into_another_context_carries_nothing_in_measure_check() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 40)]));
    s.write(
        "billing/context.yaml",
        "meta:\n  name: billing\nsources:\n  - billing/lib\n",
    );
    s.write("billing/principles.md", &principles(BAND_12));
    s.write("billing/lib/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.cut_feature();
    s.git_ok(&["mv", "src/Big.cs", "billing/lib/Big.cs"]);
    let m = s.run(&["measure", "--check", "billing"]);
    assert_eq!(m.code, 1, "{m:?}");
    assert!(
        m.stdout.contains(
            "billing/lib/Big.cs:3     function  Big.Old        40 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  excess: function_lines 40 > 10 (band 12)\n"
        ),
        "{}",
        m.stdout
    );
    let g = s.gate(&[]);
    assert_eq!(g.code, 0, "{g:?}");
}
