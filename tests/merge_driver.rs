//! `structgate baseline merge %O %A %B %P` as git's merge driver for
//! `structure-baseline.tsv`: real `git merge` runs in scenario repositories.

use crate::common;

use assert_cmd::cargo::cargo_bin;
use common::Scenario;

const TITLE: &str = "# path\tunit\tmetric\tvalue \u{2014} units over their Limits when measured, \
                     each tolerated up to its value";
const FILE: &str = "structure-baseline.tsv";

fn baseline(measured_with: &str, entries: &[(&str, u64)]) -> String {
    let mut text = format!("{TITLE}\n# measured with: {measured_with}\n# owned:\tsrc\n");
    for (unit, value) in entries {
        let file = unit.split('.').next().unwrap_or(unit);
        text.push_str(&format!("src/{file}.cs\t{unit}\tfunction_lines\t{value}\n"));
    }
    text
}

const LIMITS: &str = "function_lines=10 tolerance_percent=0";

/// `main` holds a baseline with A.Run 20, B.Run 30, C.Run 40. Branch `theirs` lowers A to
/// 18 and C to 35 and adds E 22; then `main` lowers A to 15, drops B and adds D 25. Every
/// edit touches neighbouring lines, so a plain text merge conflicts.
fn diverged(with_driver: bool) -> Scenario {
    let s = Scenario::git();
    if with_driver {
        s.write(
            ".gitattributes",
            "structure-baseline.tsv merge=structgate\n",
        );
        let driver = format!(
            "'{}' baseline merge %O %A %B %P",
            cargo_bin("structgate").display()
        );
        s.git_ok(&[
            "config",
            "merge.structgate.name",
            "structgate baseline merge",
        ]);
        s.git_ok(&["config", "merge.structgate.driver", &driver]);
    }
    s.write(
        FILE,
        &baseline(LIMITS, &[("A.Run", 20), ("B.Run", 30), ("C.Run", 40)]),
    );
    s.commit("baseline");
    s.git_ok(&["checkout", "-q", "-b", "theirs"]);
    s.write(
        FILE,
        &baseline(
            LIMITS,
            &[("A.Run", 18), ("B.Run", 30), ("C.Run", 35), ("E.Run", 22)],
        ),
    );
    s.commit("theirs tightens");
    s.git_ok(&["checkout", "-q", "main"]);
    s.write(
        FILE,
        &baseline(LIMITS, &[("A.Run", 15), ("C.Run", 40), ("D.Run", 25)]),
    );
    s.commit("ours tightens");
    s
}

fn git_merge(s: &Scenario) -> std::process::Output {
    std::process::Command::new("git")
        .args(["merge", "--no-edit", "theirs"])
        .current_dir(s.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", s.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("git runs")
}

#[test]
fn without_the_driver_git_conflicts() {
    let s = diverged(false);
    let out = git_merge(&s);
    assert!(
        !out.status.success(),
        "the scenario must conflict without the driver"
    );
    assert!(s.read(FILE).contains("<<<<<<<"));
}

#[test]
fn with_the_driver_git_merges_entry_by_entry() {
    let s = diverged(true);
    let out = git_merge(&s);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        s.read(FILE),
        baseline(
            LIMITS,
            &[("A.Run", 15), ("C.Run", 35), ("D.Run", 25), ("E.Run", 22)]
        )
    );
    // The merge is committed: nothing left to resolve.
    assert_eq!(s.git_ok(&["status", "--porcelain"]), "");
}

#[test]
fn the_merged_header_takes_a_limit_changed_on_one_side() {
    let s = diverged(true);
    s.git_ok(&["checkout", "-q", "theirs"]);
    let lower = "function_lines=8 tolerance_percent=0";
    s.write(
        FILE,
        &baseline(lower, &[("A.Run", 18), ("C.Run", 35), ("E.Run", 22)]),
    );
    s.commit("theirs lowers the limit");
    s.git_ok(&["checkout", "-q", "main"]);
    let out = git_merge(&s);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        s.read(FILE),
        baseline(
            lower,
            &[("A.Run", 15), ("C.Run", 35), ("D.Run", 25), ("E.Run", 22)]
        )
    );
}

#[test]
fn an_unparseable_side_is_a_conflict_with_a_message() {
    let s = diverged(true);
    s.git_ok(&["checkout", "-q", "theirs"]);
    let broken = format!(
        "{}src/E.cs\tE.Run\tfunction_lines\tlots\n",
        baseline(LIMITS, &[])
    );
    s.write(FILE, &broken);
    s.commit("theirs breaks the baseline");
    s.git_ok(&["checkout", "-q", "main"]);
    let ours = s.read(FILE);
    let out = git_merge(&s);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("error: cannot merge {FILE}: their version (")),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "):4: value \"lots\" is not a positive whole number; resolve the conflict by \
             hand, then run `structgate baseline refresh`\n"
        ),
        "{stderr}"
    );
    assert_eq!(
        s.git_ok(&["diff", "--name-only", "--diff-filter=U"]),
        format!("{FILE}\n")
    );
    assert_eq!(s.read(FILE), ours, "ours is left as it was");
}

#[test]
fn the_command_merges_three_files_into_ours() {
    let s = Scenario::plain();
    s.write("o.tsv", &baseline(LIMITS, &[("A.Run", 20), ("B.Run", 30)]));
    s.write("a.tsv", &baseline(LIMITS, &[("A.Run", 20)]));
    s.write(
        "b.tsv",
        &baseline(LIMITS, &[("A.Run", 12), ("B.Run", 30), ("C.Run", 50)]),
    );
    let run = s.run(&["baseline", "merge", "o.tsv", "a.tsv", "b.tsv"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    assert_eq!(
        s.read("a.tsv"),
        baseline(LIMITS, &[("A.Run", 12), ("C.Run", 50)])
    );
    assert_eq!(
        s.read("b.tsv"),
        baseline(LIMITS, &[("A.Run", 12), ("B.Run", 30), ("C.Run", 50)])
    );
    let verbose = s.run(&["baseline", "merge", "-v", "o.tsv", "a.tsv", "b.tsv", FILE]);
    assert_eq!(verbose.stderr, format!("merged {FILE}: 2 unit(s)\n"));
}

#[test]
fn a_missing_input_is_an_error_naming_it() {
    let s = Scenario::plain();
    s.write("a.tsv", &baseline(LIMITS, &[]));
    s.write("b.tsv", &baseline(LIMITS, &[]));
    let run = s.run(&["baseline", "merge", "gone.tsv", "a.tsv", "b.tsv", FILE]);
    assert_eq!(run.code, 2);
    let expected = format!(
        "error: cannot merge {FILE}: cannot read the common ancestor's version ({}): ",
        s.abs("gone.tsv").display()
    );
    assert!(run.stderr.starts_with(&expected), "{}", run.stderr);
    assert_eq!(s.read("a.tsv"), baseline(LIMITS, &[]));
}

#[test]
fn the_driver_removes_temp_files_of_interrupted_merges_and_keeps_a_running_ones() {
    let s = diverged(true);
    // What a driver killed before its rename leaves beside git's `%A` (named anew each
    // merge): one of a process that is gone, one of a process still running (this test).
    let gone = "..merge_file_AbC123.tmp.4194300.0";
    let running = format!("..merge_file_XyZ789.tmp.{}.0", std::process::id());
    s.write(gone, "half a baseline");
    s.write(&running, "half a baseline");
    let out = git_merge(&s);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!s.abs(gone).exists(), "the dead run's temp file is removed");
    assert!(
        s.abs(&running).exists(),
        "a running process's temp file is kept"
    );
    assert_eq!(
        s.read(FILE),
        baseline(
            LIMITS,
            &[("A.Run", 15), ("C.Run", 35), ("D.Run", 25), ("E.Run", 22)]
        )
    );
    // The driver said so on its standard error, which git passes through (git gives
    // `%A` as an absolute path).
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warning = format!(
        "warning: removed {}, left by an interrupted merge\n",
        s.abs(gone).display()
    );
    assert!(stderr.contains(&warning), "{stderr}");
}
