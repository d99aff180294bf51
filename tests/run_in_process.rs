//! `run_with_args` runs a command line in process, as `main` does: clap's errors and the
//! run's errors come back as values with their exit code, and nothing exits. Also the
//! error messages that name a file or a path: each names it once.

use crate::common;

use common::{cs_class, principles, Scenario, BAND_12, INVENTORY};
use structgate::{run_with_args, Exit, Failure};

fn run(s: &Scenario, args: &[&str]) -> Result<Exit, Failure> {
    let dir = s.path().to_string_lossy().into_owned();
    let line = [&["structgate", "-q", "-C", &dir][..], args].concat();
    run_with_args(line)
}

fn error_text(result: Result<Exit, Failure>) -> String {
    match result {
        Err(Failure::Error { error, .. }) => format!("{error:#}"),
        other => panic!("not an error of the run: {other:?}"),
    }
}

fn inventory() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", INVENTORY);
    s.write("principles.md", &principles(BAND_12));
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s
}

#[test]
fn usage_errors_help_and_version_come_back_from_clap_with_their_exit_code() {
    let Err(Failure::Usage(e)) = run_with_args(["structgate", "--frobnicate"]) else {
        panic!("an unknown option is clap's error");
    };
    assert_eq!(e.kind(), clap::error::ErrorKind::UnknownArgument);
    assert_eq!(Failure::Usage(e).exit(), Exit::Error);
    let Err(help) = run_with_args(["structgate", "gate", "--help"]) else {
        panic!("--help is clap's to print");
    };
    assert_eq!(help.exit(), Exit::Pass);
    let Err(Failure::Usage(version)) = run_with_args(["structgate", "--version"]) else {
        panic!("--version is clap's to print");
    };
    assert_eq!(version.kind(), clap::error::ErrorKind::DisplayVersion);
    let Err(Failure::Usage(bytes)) =
        run_with_args(["structgate", "measure", "--max-file-size", "4MiB"])
    else {
        panic!("4MiB is no number of bytes");
    };
    assert_eq!(bytes.kind(), clap::error::ErrorKind::ValueValidation);
}

#[test]
fn each_report_says_its_exit_code() {
    let s = inventory();
    assert_eq!(run(&s, &["measure", "--check"]).unwrap(), Exit::Pass);
    s.write("src/Big.cs", &cs_class("Big", &[("Run", 13)]));
    assert_eq!(run(&s, &["measure"]).unwrap(), Exit::Pass);
    assert_eq!(run(&s, &["measure", "--check"]).unwrap(), Exit::Findings);
    assert_eq!(
        run(&s, &["baseline", "init", "--check"]).unwrap(),
        Exit::Findings
    );
    assert_eq!(run(&s, &["baseline", "init"]).unwrap(), Exit::Pass);
    assert_eq!(run(&s, &["measure", "--check"]).unwrap(), Exit::Pass);
    assert_eq!(run(&s, &["limits"]).unwrap(), Exit::Pass);
    // Not judged (no commit): exit 0, or 1 when the run requires a judgement.
    assert_eq!(run(&s, &["gate"]).unwrap(), Exit::Pass);
    assert_eq!(
        run(&s, &["gate", "--require-judged"]).unwrap(),
        Exit::Findings
    );
}

#[test]
fn errors_name_the_path_or_file_once() {
    let s = inventory();
    assert_eq!(
        error_text(run(&s, &["measure", "nosuch"])),
        "nosuch: no such file or directory"
    );
    assert_eq!(
        error_text(run(&s, &["measure", "--context", "nosuch"])),
        "--context nosuch: no such file or directory"
    );
    let outside = Scenario::plain();
    let path = outside.path().to_string_lossy().into_owned();
    let root = s.path().canonicalize().unwrap();
    assert_eq!(
        error_text(run(&s, &["limits", "--context", &path])),
        format!(
            "--context {path} is outside the repository at {}",
            root.display()
        )
    );
    s.write(
        "structure-baseline.tsv",
        "src/Small.cs\tSmall.Run\tfunction_lines\tx\n",
    );
    assert_eq!(
        error_text(run(&s, &["limits"])),
        "structure-baseline.tsv:1: value \"x\" is not a positive whole number"
    );
    s.write("structure-baseline.tsv", "");
    s.write("principles.md", &principles("function_lines: -3\n"));
    assert_eq!(
        error_text(run(&s, &["measure"])),
        "principles.md:6: function_lines: -3 is not a positive whole number"
    );
}
