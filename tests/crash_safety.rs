//! Crash safety of baseline writes (docs/dev/test-matrix.md): a `baseline refresh` killed
//! at any moment leaves the old file or the new one, never a mix; what a killed run left
//! behind is removed by the next write; two refreshes at once leave a valid file.

use crate::common;

use std::process::{Child, Command};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use common::{principles, Scenario};

const FILES: usize = 8;
const FNS_PER_FILE: usize = 1_000;

/// A repository whose baseline holds 8,000 entries at 4 lines, while the code measures 3:
/// a refresh lowers every one (about 300 KB rewritten).
fn scenario() -> (Scenario, String, String) {
    let s = Scenario::git();
    s.write("context.yaml", "");
    s.write("principles.md", &principles("function_lines: 2\n"));
    for file in 0..FILES {
        let body: String = (0..FNS_PER_FILE)
            .map(|i| format!("fn f{i}() {{\n    let _ = {i};\n}}\n"))
            .collect();
        s.write(&format!("src/m{file}.rs"), &body);
    }
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    let new = s.read("structure-baseline.tsv");
    let old = new.replace("\tfunction_lines\t3\n", "\tfunction_lines\t4\n");
    assert_ne!(old, new);
    s.write("structure-baseline.tsv", &old);
    (s, old, new)
}

fn refresh(s: &Scenario) -> Child {
    Command::cargo_bin("structgate")
        .expect("binary")
        .args(["baseline", "refresh"])
        .current_dir(s.path())
        .env("HOME", s.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("structgate runs")
}

fn temp_files(s: &Scenario) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(s.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".structure-baseline.tsv.tmp."))
        .collect();
    names.sort();
    names
}

/// Kills a refresh `delay` after its temp file appears (or when it ends without one).
fn kill_after_temp_appears(s: &Scenario, delay: Duration) {
    let mut child = refresh(s);
    loop {
        if !temp_files(s).is_empty() {
            std::thread::sleep(delay);
            break;
        }
        if child.try_wait().expect("try_wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_refresh_killed_at_any_moment_leaves_the_old_file_or_the_new_one() {
    let (s, old, new) = scenario();
    let (mut saw_old, mut saw_new) = (0, 0);
    let mut left = std::collections::BTreeSet::new();
    for trial in 0..14u32 {
        s.write("structure-baseline.tsv", &old);
        // Kills while the temp file is written, synced and renamed, then after:
        // 0, 0.25 ms, 0.5 ms, ... 0.5 s after the temp file appears.
        let delay = if trial == 0 { 0 } else { 250 << (trial - 1) };
        kill_after_temp_appears(&s, Duration::from_micros(delay));
        let now = s.read("structure-baseline.tsv");
        assert!(
            now == old || now == new,
            "trial {trial}: a mix of {} bytes",
            now.len()
        );
        if now == old {
            saw_old += 1;
        } else {
            saw_new += 1;
        }
        left.extend(temp_files(&s));
        // Moved aside, so the next trial waits for its own temp file.
        for temp in temp_files(&s) {
            std::fs::rename(
                s.abs(&temp),
                s.abs(&temp.replacen(".structure", ".left.structure", 1)),
            )
            .expect("move aside");
        }
    }
    for temp in &left {
        std::fs::rename(
            s.abs(&temp.replacen(".structure", ".left.structure", 1)),
            s.abs(temp),
        )
        .expect("move back");
    }
    eprintln!(
        "kills: {saw_old} left the old file, {saw_new} the new one; {} temp file(s) left",
        left.len()
    );
    assert!(!left.is_empty(), "no kill landed inside the write");
    // The next write removes what the killed runs left, and says so.
    s.write("structure-baseline.tsv", &old);
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(s.read("structure-baseline.tsv"), new);
    assert_eq!(temp_files(&s), Vec::<String>::new());
    let warned: Vec<String> = left
        .iter()
        .map(|t| format!("warning: removed {t}, left by an interrupted baseline write"))
        .collect();
    assert_eq!(run.stderr.lines().collect::<Vec<_>>(), warned);
}

/// Two contexts (the root owning `src`, and `a/b`), each with a baseline tolerating its
/// one function at 4 lines while it measures 3, and temp files beside both baselines:
/// two of processes that no longer run, one of a process that still runs (this test).
fn with_leftovers() -> (Scenario, [String; 3]) {
    let s = Scenario::git();
    let limits = principles("function_lines: 2\n");
    let function = "fn f() {\n    let _ = 1;\n}\n";
    s.write("context.yaml", "sources: [src]\n")
        .write("principles.md", &limits)
        .write("src/m.rs", function)
        .write("a/b/context.yaml", "sources: [a/b]\n")
        .write("a/b/principles.md", &limits)
        .write("a/b/m.rs", function);
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    for baseline in ["structure-baseline.tsv", "a/b/structure-baseline.tsv"] {
        let text = s.read(baseline).replace("\t3\n", "\t4\n");
        s.write(baseline, &text);
    }
    // PIDs above the kernel's largest (2^22) never run.
    let dead = ".structure-baseline.tsv.tmp.999999999.0".to_string();
    let dead_nested = "a/b/.structure-baseline.tsv.tmp.999999998.7".to_string();
    let live = format!(".structure-baseline.tsv.tmp.{}.0", std::process::id());
    for temp in [&dead, &dead_nested, &live] {
        s.write(temp, "<<<<<<< half a baseline\n");
    }
    (s, [dead, dead_nested, live])
}

#[test]
fn temp_files_of_killed_runs_are_ignored_by_every_reader() {
    let (s, temps) = with_leftovers();
    let before = s.read("structure-baseline.tsv");
    let run = s.run(&["measure", "--check"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert!(run.stdout.ends_with(
        "measured 4 file(s): 2 function(s), 0 type(s); 0 excess(es), \
         0 divergence(s), 2 tolerated by the baseline\n"
    ));
    let run = s.run(&["limits"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert!(run
        .stdout
        .contains("  baseline: structure-baseline.tsv with 1 unit(s)\n"));
    let run = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!((run.code, run.stderr.as_str()), (1, ""), "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "{name}: would update structure-baseline.tsv: 0 added, 1 lowered, 0 dropped; 1 unit(s)\n  \
             ~ src/m.rs f function_lines 4 -> 3\n\
             b: would update a/b/structure-baseline.tsv: 0 added, 1 lowered, 0 dropped; 1 unit(s)\n  \
             ~ a/b/m.rs f function_lines 4 -> 3\n",
            name = s.path().file_name().expect("name").to_string_lossy()
        )
    );
    // Committed by a careless `git add -A`, they are no measured language to the gate.
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    for temp in &temps {
        s.write(temp, "<<<<<<< another half\n");
    }
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        (&json["status"], &json["judged_files"]),
        (&"passed".into(), &0.into())
    );
    // Nothing was written or removed.
    assert_eq!(s.read("structure-baseline.tsv"), before);
    for temp in &temps {
        assert_eq!(s.read(temp), "<<<<<<< another half\n", "{temp}");
    }
}

#[test]
fn the_next_write_removes_temp_files_whose_process_is_gone_and_keeps_a_running_ones() {
    let (s, [dead, dead_nested, live]) = with_leftovers();
    let run = s.run(&["baseline", "refresh"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "warning: removed {dead}, left by an interrupted baseline write\n\
             warning: removed {dead_nested}, left by an interrupted baseline write\n"
        )
    );
    assert!(!s.abs(&dead).exists() && !s.abs(&dead_nested).exists());
    // A write still under way in another process keeps its temp file.
    assert_eq!(s.read(&live), "<<<<<<< half a baseline\n");
    assert!(s
        .read("structure-baseline.tsv")
        .ends_with("\nsrc/m.rs\tf\tfunction_lines\t3\n"));
    assert!(s
        .read("a/b/structure-baseline.tsv")
        .ends_with("\na/b/m.rs\tf\tfunction_lines\t3\n"));
    // `init` cleans up too, even when it keeps the baseline as it is.
    s.write(&dead, "<<<<<<< half a baseline\n");
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("warning: removed {dead}, left by an interrupted baseline write\n")
    );
    assert!(!s.abs(&dead).exists());
    assert_eq!(s.read(&live), "<<<<<<< half a baseline\n");
}

#[test]
fn a_write_that_fails_at_the_rename_leaves_what_was_there_and_no_temp_file() {
    // The rename is the last step, after the temp file is written and synced: a
    // directory in the baseline's place makes it fail there.
    let s = Scenario::git();
    s.write("context.yaml", "sources: [src]\n")
        .write("principles.md", &principles("function_lines: 2\n"))
        .write("src/m.rs", "fn f() {\n    let _ = 1;\n}\n")
        .write("structure-baseline.tsv/inside", "kept\n");
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 2, "{run:?}");
    let target = s
        .path()
        .canonicalize()
        .expect("root")
        .join("structure-baseline.tsv");
    assert_eq!(
        run.stderr,
        format!(
            "error: writing baseline structure-baseline.tsv: cannot replace {}: Is a directory (os error 21)\n",
            target.display()
        )
    );
    assert_eq!(s.read("structure-baseline.tsv/inside"), "kept\n");
    assert_eq!(temp_files(&s), Vec::<String>::new());
}

#[test]
fn two_refreshes_at_once_leave_a_valid_file() {
    let (s, old, new) = scenario();
    for round in 0..3 {
        s.write("structure-baseline.tsv", &old);
        let (mut a, mut b) = (refresh(&s), refresh(&s));
        assert!(a.wait().expect("wait").success(), "round {round}");
        assert!(b.wait().expect("wait").success(), "round {round}");
        assert_eq!(s.read("structure-baseline.tsv"), new, "round {round}");
        assert_eq!(temp_files(&s), Vec::<String>::new(), "round {round}");
    }
}
