//! docs/src/reference/gate.md#integrity: nothing a branch controls gets an excess past the gate unseen. Each test
//! builds a scenario repository, makes one attack the way a branch could, and asserts
//! the exact outcome: the gate fails naming the unit, or lists the path with its reason.

use crate::common;

mod base;
mod index;
mod left_out;
mod listing;
mod staged;
mod unmeasurable;

use common::{cs_class, Scenario};

/// A new file holding a 40-line method, far past the scenarios' band of 12.
fn add_forty(dir: &std::path::Path) {
    let text = cs_class("Forty", &[("Run", 40)]);
    std::fs::write(dir.join("src/Forty.cs"), text).expect("write");
}

/// The excess line of [`add_forty`]'s method.
const FORTY: &str = "src/Forty.cs:3 Forty.Run: function_lines 40 > 10 (band 12)";

/// Asserts a failed run whose first excess is `excess`.
fn assert_fails_with(run: &common::Run, excess: &str) {
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(common::after_base(&run.stdout)[1], excess, "{run:?}");
}

/// The excess line of a 40-line `UNIT` at line 3 of `PATH`.
fn forty_in(path: &str, unit: &str) -> String {
    format!("{path}:3 {unit}: function_lines 40 > 10 (band 12)")
}

/// Asserts a failed run whose only excess is [`FORTY`].
fn assert_fails_forty(run: &common::Run) {
    assert_eq!(run.code, 1, "{run:?}");
    let lines = common::after_base(&run.stdout);
    assert_eq!(
        lines[..2],
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            FORTY
        ],
        "{run:?}"
    );
}

/// [`Scenario::feature_of_inventory`] with [`add_forty`] on the branch, uncommitted.
fn feature_with_forty() -> Scenario {
    let s = Scenario::feature_of_inventory();
    add_forty(s.path());
    s
}
