//! The terminal: `--version`, `--color` and `NO_COLOR`, `--quiet`, `--verbose`, the
//! progress bar (only on a terminal: runs under `script` get a pseudo-terminal) and
//! `completions`.

use crate::common;

use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use common::{cs_class, principles, rs_fn, Scenario, BAND_12};

const RED_BOLD: &str = "\u{1b}[1m\u{1b}[31m";
const YELLOW: &str = "\u{1b}[33m";
const DIM: &str = "\u{1b}[2m";
const RESET: &str = "\u{1b}[0m";

/// `main` with one context (function_lines 10, band 12) and a baseline; branch `feature`
/// grows `Small.Run` to 13 lines (an excess) and adds `Mid.Go` at 11 (a divergence),
/// deletes `Gone.cs`, and adds a note, a test file and a file outside the context.
fn repo() -> Scenario {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write("src/Gone.cs", &cs_class("Gone", &[("Run", 5)]));
    s.cut_feature();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.write("src/Mid.cs", &cs_class("Mid", &[("Go", 11)]));
    s.remove("src/Gone.cs");
    s.write("src/notes.txt", "notes\n");
    s.write("src/Tests/ATests.cs", &cs_class("ATests", &[("Go", 4)]));
    s.write("tools/Tool.cs", &cs_class("Tool", &[("Go", 40)]));
    s
}

fn base_line(s: &Scenario) -> String {
    format!("base {} (merge-base of HEAD and main)", s.rev_parse("main"))
}

/// Runs the binary on a pseudo-terminal (`script`), returning everything it wrote.
fn on_terminal(s: &Scenario, args: &str, env: &[(&str, &str)]) -> String {
    let bin = cargo_bin("structgate");
    let mut cmd = Command::new("script");
    cmd.args(["-qfec", &format!("{} {args}", bin.display()), "/dev/null"])
        .current_dir(s.path())
        .env("HOME", s.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("TERM", "xterm")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("script runs");
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

#[test]
fn version_names_the_binary_and_the_crate_version() {
    let s = Scenario::plain();
    let run = s.run(&["--version"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        format!("structgate {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn color_always_paints_the_gate_report() {
    let s = repo();
    let run = s.run_env(
        s.path(),
        &["gate", "--color", "always"],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "{DIM}{}{RESET}\n\
             {RED_BOLD}structure judged 2 file(s) in 1 context(s): 1 excess(es) past the band{RESET}\n\
             src/Small.cs:3 Small.Run: {RED_BOLD}function_lines 13 > 10 (band 12){RESET}\n\
             {YELLOW}Structure within tolerance:{RESET}\n\
             \x20 src/Mid.cs:3 Mid.Go: function_lines 11 > 10 (band 12)\n\
             left out src/Tests/ATests.cs: test directory \"Tests\"\n\
             left out tools/Tool.cs: no judged context owns it at the base\n",
            base_line(&s)
        )
    );
}

#[test]
fn color_always_paints_measure_status_words() {
    let s = repo();
    let run = s.run_env(
        s.path(),
        &["--color", "always", "measure", "src/Mid.cs"],
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "src/Mid.cs:1  file      Mid.cs  14 lines, 1 type(s), 214 bytes                            ok\n\
             src/Mid.cs:1  type      Mid     14 lines\n\
             src/Mid.cs:3  function  Mid.Go  11 lines  params 0  nesting 0  cyclomatic 1  cognitive 0  \u{1b}[33mdivergence (limit 10, band 12)\u{1b}[0m\n\
             measured 1 file(s): 1 function(s), 1 type(s); 0 excess(es), 1 divergence(s), 0 tolerated by the baseline\n"
        )
    );
}

#[test]
fn color_auto_and_never_print_no_escape_codes_off_a_terminal() {
    let s = repo();
    for args in [
        &["gate"][..],
        &["gate", "--color", "never"],
        &["gate", "--color", "auto"],
    ] {
        let run = s.run_env(s.path(), args, &[]);
        assert_eq!(run.code, 1, "{run:?}");
        assert!(!run.stdout.contains('\u{1b}'), "{args:?}: {:?}", run.stdout);
    }
}

#[test]
fn on_a_terminal_auto_colours_unless_no_color_is_set() {
    let s = repo();
    let coloured = on_terminal(&s, "gate", &[]);
    assert!(
        coloured.contains(&format!(
            "src/Small.cs:3 Small.Run: {RED_BOLD}function_lines 13"
        )),
        "{coloured:?}"
    );
    let plain = on_terminal(&s, "gate", &[("NO_COLOR", "1")]);
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    assert!(
        plain.contains("src/Small.cs:3 Small.Run: function_lines 13 > 10 (band 12)\n"),
        "{plain:?}"
    );
    let never = on_terminal(&s, "--color never gate", &[]);
    assert!(!never.contains('\u{1b}'), "{never:?}");
}

#[test]
fn errors_are_red_on_a_coloured_stderr() {
    let s = Scenario::git();
    let run = s.run_env(s.path(), &["--color", "always", "measure", "missing"], &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with(&format!("{RED_BOLD}error:{RESET} missing: no such file")),
        "{:?}",
        run.stderr
    );
}

#[test]
fn quiet_prints_nothing_and_keeps_the_exit_code() {
    let s = repo();
    s.write(
        "principles.md",
        &principles("function_lines: 10\nbogus: 1\n"),
    );
    let failed = s.run(&["gate", "-q"]);
    assert_eq!(
        (failed.code, failed.stdout.as_str(), failed.stderr.as_str()),
        (1, "", "")
    );
    let check = s.run(&["measure", "--check", "--quiet", "src"]);
    assert_eq!(
        (check.code, check.stdout.as_str(), check.stderr.as_str()),
        (1, "", "")
    );
    let loud = s.run(&["measure", "src"]);
    assert_eq!(
        loud.stderr,
        "warning: principles.md:7: unknown Limits key bogus (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tiers, tolerance_percent)\n"
    );
}

#[test]
fn quiet_still_prints_errors() {
    let s = Scenario::git();
    let run = s.run(&["-q", "measure", "missing"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with("error: missing: no such file"),
        "{:?}",
        run.stderr
    );
}

#[test]
fn quiet_and_verbose_together_are_a_usage_error() {
    let s = Scenario::plain();
    let run = s.run(&["-q", "-v", "measure"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: the argument '--quiet' cannot be used with '--verbose'"),
        "{:?}",
        run.stderr
    );
}

#[test]
fn verbose_gate_says_what_became_of_each_changed_file() {
    let s = repo();
    let run = s.run(&["gate", "-v"]);
    assert_eq!(run.code, 1, "{run:?}");
    let base = s.rev_parse("main");
    assert_eq!(
        run.stderr,
        format!(
            "bases, in the order tried:\n\
         \x20 origin/HEAD: not found: it names no commit\n\
         \x20 origin/main: not found: it names no commit\n\
         \x20 origin/master: not found: it names no commit\n\
         \x20 main: taken: its merge-base with HEAD is {base}\n\
         \x20 master: not tried: an earlier base was taken\n\
         changed since the base: 6 file(s)\n\
         \x20 src/Gone.cs: not judged: deleted\n\
         \x20 src/Mid.cs: judged (added; context inventory)\n\
         \x20 src/Small.cs: judged (modified; context inventory)\n\
         \x20 src/Tests/ATests.cs: not judged: left out: test directory \"Tests\"\n\
         \x20 src/notes.txt: not judged: not a measured language\n\
         \x20 tools/Tool.cs: not judged: left out: no judged context owns it at the base\n\
         cache: parsed 2 file(s), 0 from cache\n"
        )
    );
    // stdout is the same report as without --verbose.
    assert_eq!(run.stdout, s.run(&["gate"]).stdout);
}

#[test]
fn verbose_gate_names_a_context_without_terms() {
    let s = Scenario::inventory("function_lines: 10\n");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write("web/context.yaml", "meta:\n  name: web\n");
    s.cut_feature();
    s.write("web/Page.cs", &cs_class("Page", &[("Go", 4)]));
    s.git_ok(&["mv", "src/Small.cs", "src/Smaller.cs"]);
    let run = s.run(&["gate", "--verbose"]);
    assert_eq!(run.code, 0, "{run:?}");
    let base = s.rev_parse("main");
    assert_eq!(
        run.stderr,
        format!(
            "bases, in the order tried:\n\
         \x20 origin/HEAD: not found: it names no commit\n\
         \x20 origin/main: not found: it names no commit\n\
         \x20 origin/master: not found: it names no commit\n\
         \x20 main: taken: its merge-base with HEAD is {base}\n\
         \x20 master: not tried: an earlier base was taken\n\
         changed since the base: 2 file(s)\n\
         \x20 src/Smaller.cs: judged (renamed from src/Small.cs; context inventory)\n\
         \x20 web/Page.cs: not judged: left out: no judged context owns it at the base (context \
         web has no Limits at the merge-base)\n\
         cache: parsed 1 file(s), 0 from cache\n"
        )
    );
}

#[test]
fn verbose_measure_lists_left_out_files_with_the_rule() {
    let s = repo();
    s.write("src/Gen.g.cs", &cs_class("Gen", &[("Go", 4)]));
    s.write(
        "src/lib.rs",
        &format!("// @generated by a tool\n{}", rs_fn("f", 3)),
    );
    let run = s.run(&["measure", "--verbose", "--format", "json", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "left out src/Gen.g.cs: generated file name (.g.cs)\n\
         left out src/Tests/ATests.cs: test directory \"Tests\"\n\
         left out src/lib.rs: generated header (@generated) at line 1\n\
         cache: parsed 3 file(s), 0 from cache\n"
    );
    serde_json::from_str::<serde_json::Value>(&run.stdout).expect("stdout stays JSON");
}

fn many_rust_files(s: &Scenario, n: usize) {
    s.write("context.yaml", "meta:\n  name: big\n");
    s.write("principles.md", &principles("function_lines: 3\n"));
    for i in 0..n {
        s.write(&format!("src/f{i:04}.rs"), &rs_fn(&format!("f{i}"), 5));
    }
}

#[test]
fn baseline_init_draws_a_progress_bar_on_a_terminal_only() {
    let s = Scenario::git();
    many_rust_files(&s, 40);
    let terminal = on_terminal(&s, "baseline init --check", &[]);
    assert!(terminal.contains("measuring ["), "{terminal:?}");
    // 40 Rust files and principles.md (Markdown is measured for its bytes, docs/src/reference/documents.md).
    assert!(terminal.contains("/41 files"), "{terminal:?}");
    let piped = s.run(&["baseline", "init", "--check"]);
    assert_eq!(piped.stderr, "");
    let quiet = on_terminal(&s, "-q baseline init --check", &[]);
    assert_eq!(quiet, "");
}

#[test]
fn measure_draws_a_bar_only_for_large_runs() {
    let s = Scenario::git();
    // 498 Rust files and principles.md: 499 measured files.
    many_rust_files(&s, 498);
    let small = on_terminal(&s, "measure --format tsv", &[]);
    assert!(!small.contains("measuring ["), "a bar for 499 files");
    s.write("src/f0498.rs", &rs_fn("f498", 5));
    let large = on_terminal(&s, "measure --format tsv", &[]);
    assert!(large.contains("/500 files"), "no bar for 500 files");
}

#[test]
fn completions_for_each_shell() {
    let s = Scenario::plain();
    let first_line = |shell: &str| {
        let run = s.run(&["completions", shell]);
        assert_eq!(run.code, 0, "{run:?}");
        run.stdout.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(first_line("bash"), "_structgate() {");
    assert_eq!(first_line("zsh"), "#compdef structgate");
    let fish = s.run(&["completions", "fish"]).stdout;
    assert!(fish.contains("complete -c structgate"), "{fish}");
    let ps = s.run(&["completions", "powershell"]).stdout;
    assert!(
        ps.contains("Register-ArgumentCompleter -Native -CommandName 'structgate'"),
        "{ps}"
    );
}

#[test]
fn bash_completion_completes_subcommands_and_formats() {
    let s = Scenario::plain();
    let bin = cargo_bin("structgate");
    let script = format!(
        "source <({} completions bash)\n\
         COMP_WORDS=(structgate baseline m); COMP_CWORD=2; _structgate structgate m baseline\n\
         echo \"${{COMPREPLY[@]}}\"\n\
         COMP_WORDS=(structgate gate --format ''); COMP_CWORD=3; _structgate structgate '' --format\n\
         echo \"${{COMPREPLY[@]}}\"\n",
        bin.display()
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(s.path())
        .output()
        .expect("bash runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "merge\ntext json sarif github\n"
    );
}

#[test]
fn clap_help_and_usage_errors_follow_color() {
    let s = Scenario::plain();
    let help = s.run(&["--color", "always", "--help"]);
    assert_eq!(help.code, 0, "{help:?}");
    assert!(
        help.stdout
            .contains("\u{1b}[1m\u{1b}[4mUsage:\u{1b}[0m \u{1b}[1mstructgate\u{1b}[0m"),
        "{}",
        help.stdout
    );
    let plain = s.run(&["--help"]);
    assert!(plain
        .stdout
        .contains("\nUsage: structgate [OPTIONS] <COMMAND>\n"));
    assert!(!plain.stdout.contains('\u{1b}'), "{}", plain.stdout);
    let usage = s.run(&["measure", "--color=always", "--bogus"]);
    assert_eq!(usage.code, 2, "{usage:?}");
    assert!(
        usage
            .stderr
            .starts_with("\u{1b}[1m\u{1b}[31merror:\u{1b}[0m unexpected argument"),
        "{}",
        usage.stderr
    );
    // `never` wins over a terminal, and a later `--color` over an earlier one.
    let usage = s.run(&[
        "--color", "always", "measure", "--color", "never", "--bogus",
    ]);
    assert!(
        usage
            .stderr
            .starts_with("error: unexpected argument '--bogus'"),
        "{}",
        usage.stderr
    );
}
