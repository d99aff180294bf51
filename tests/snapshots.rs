//! Snapshots of the long output (insta, files in `tests/snapshots/`): every subcommand's
//! `--help`, one JSON object of each command, and the text report of a failing gate. A
//! change to any of them shows as a diff to review (`INSTA_UPDATE=always cargo test`
//! rewrites them; `git diff tests/snapshots` shows what changed).

use crate::common;

use common::{cs_class, principles, Scenario};

/// The run's stdout, with what differs from run to run redacted ([`Scenario::redact`]).
pub fn stdout(s: &Scenario, args: &[&str], code: i32) -> String {
    let run = s.run(args);
    assert_eq!(run.code, code, "{args:?}: {run:?}");
    s.redact(&run.stdout)
}

#[test]
fn every_subcommands_help() {
    let s = Scenario::plain();
    let commands: [&[&str]; 12] = [
        &[],
        &["measure"],
        &["limits"],
        &["baseline"],
        &["baseline", "init"],
        &["baseline", "refresh"],
        &["baseline", "merge"],
        &["gate"],
        &["hook"],
        &["contracts"],
        &["init"],
        &["completions"],
    ];
    for command in commands {
        let args = [command, &["--help"]].concat();
        let name = match command.join("-") {
            n if n.is_empty() => "structgate".to_string(),
            n => n,
        };
        insta::assert_snapshot!(format!("help-{name}"), stdout(&s, &args, 0));
    }
}

/// A branch of the inventory scenario that fails its gate: a new excess, a grown old
/// excess, a divergence, a new test file left out, a rename, and a raised limit.
fn failing_branch() -> Scenario {
    let s = Scenario::inventory("function_lines: 10\ntolerance_percent: 20\n");
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write("src/Moved.cs", &cs_class("Moved", &[("Stay", 4)]));
    s.cut_feature();
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 22)]));
    s.write(
        "src/Small.cs",
        &cs_class("Small", &[("Run", 5), ("Grown", 16), ("Near", 12)]),
    );
    s.git_ok(&["mv", "src/Moved.cs", "src/Renamed.cs"]);
    s.write(
        "src/tests/SmallTests.cs",
        &cs_class("SmallTests", &[("Long", 30)]),
    );
    s.write(
        "principles.md",
        &principles("function_lines: 40\ntolerance_percent: 20\n"),
    );
    s.commit("grow");
    s
}

#[test]
fn the_text_report_of_a_failing_gate() {
    let s = failing_branch();
    insta::assert_snapshot!("gate-text-failed", stdout(&s, &["gate"], 1));
}

#[test]
fn one_json_object_of_each_command() {
    let s = failing_branch();
    insta::assert_snapshot!("gate-json", stdout(&s, &["gate", "--format", "json"], 1));
    insta::assert_snapshot!(
        "measure-json",
        stdout(&s, &["measure", "--format", "json", "src"], 0)
    );
    insta::assert_snapshot!(
        "limits-json",
        stdout(&s, &["limits", "--format", "json"], 0)
    );
    insta::assert_snapshot!(
        "baseline-refresh-json",
        stdout(
            &s,
            &["baseline", "refresh", "--check", "--format", "json"],
            1
        )
    );
    s.write(
        "docs/README.md",
        "---\nschema: context/v1\ntitle: Docs\n---\n",
    );
    s.write("docs/guide/notes.md", "notes\n");
    insta::assert_snapshot!(
        "contracts-json",
        stdout(&s, &["contracts", "--format", "json"], 1)
    );
}
