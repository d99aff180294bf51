//! Hostile and odd file contents (docs/dev/test-matrix.md): YAML bombs, a 50 MB one-line
//! file, binary and UTF-16 files, 20,000 levels of nesting, a baseline with a merge
//! conflict, a principles.md with two `## Limits` sections. Each has a defined outcome.

use crate::common;

use std::time::Duration;

use common::{cpu, principles, rs_fn, Scenario};
use structgate::measure::{measure_file, Options};
use structgate::model::{FileOutcome, SkipReason};

/// The classic "billion laughs": ten levels of nine aliases each.
fn billion_laughs() -> String {
    let mut yaml = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for level in b'b'..=b'j' {
        let (name, prev) = (level as char, (level - 1) as char);
        let refs = vec![format!("*{prev}"); 9].join(",");
        yaml.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    yaml
}

/// The quadratic variant: one large node and many aliases to it.
fn alias_flood() -> String {
    let big = vec!["x"; 20_000].join(",");
    let refs = vec!["*big"; 2_000].join(",");
    format!("big: &big [{big}]\nflood: [{refs}]\n")
}

#[test]
fn a_billion_laughs_in_context_yaml_is_read_promptly_and_ignored() {
    let s = Scenario::git();
    std::fs::create_dir(s.abs("src")).expect("mkdir");
    s.write(
        "context.yaml",
        &format!("{}sources: [src]\n", billion_laughs()),
    );
    let (run, took) = s.run_cpu(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("  owns: src\n"), "{run:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // Aliased into a key structgate reads, it is a type error, not an expansion.
    s.write(
        "context.yaml",
        &format!("{}sources: *j\n", billion_laughs()),
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2);
    // The line is where the aliased sequence is written (`i`, which `j` repeats).
    assert_eq!(
        run.stderr,
        "error: context.yaml:9: sources[0]: invalid type: sequence, expected a string\n"
    );
}

#[test]
fn an_alias_flood_is_refused_with_an_error_naming_the_file() {
    let s = Scenario::git();
    let flood = alias_flood();
    s.write("context.yaml", &flood);
    let (run, took) = s.run_cpu(&["measure"]);
    assert_eq!(run.code, 2, "{run:?}");
    let refusal = format!(
        "2000 YAML aliases in a document of {} bytes could expand it past 16 MiB; refusing to read it",
        flood.len()
    );
    assert_eq!(run.stderr, format!("error: context.yaml:2: {refusal}\n"));
    assert!(took < Duration::from_secs(10), "{took:?}");
    s.write("context.yaml", "");
    s.write("principles.md", &principles(&alias_flood()));
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("error: principles.md:7: the yaml fence of ## Limits cannot be read: {refusal}\n")
    );
}

#[test]
fn a_50_mb_one_line_file_is_skipped_and_a_raised_limit_stays_bounded() {
    let s = Scenario::git();
    let line = "let x = 1;".repeat(50 << 20 >> 4);
    s.write("big.rs", &format!("fn f() {{{line}}}"));
    let size = std::fs::metadata(s.abs("big.rs")).expect("stat").len();
    let run = s.run(&["measure"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.ends_with(&format!(
        "skipped big.rs: larger than --max-file-size ({size} > 4194304 bytes)\n"
    )));
    let (run, took) = s.run_cpu(&[
        "measure",
        "--max-file-size",
        "100000000",
        "--parse-timeout",
        "1",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .ends_with("skipped big.rs: parsing took longer than --parse-timeout (1s)\n"),
        "{run:?}"
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
}

#[test]
fn a_parse_that_times_out_is_a_skip_and_the_next_file_parses_afresh() {
    let options = Options {
        parse_timeout: Duration::from_millis(1),
        ..Options::default()
    };
    let slow = format!("fn f() {{{}}}", "let x = (1 + 2) * 3;".repeat(200_000));
    let outcome = measure_file("slow.rs", slow.as_bytes(), &options);
    let reason = SkipReason::ParseTimeout {
        timeout: Duration::from_millis(1),
    };
    assert_eq!(
        outcome,
        Some(FileOutcome::Skipped {
            path: "slow.rs".into(),
            reason
        })
    );
    // The same thread's parser must not resume the stopped parse on the next file.
    let next = measure_file("next.rs", rs_fn("g", 4).as_bytes(), &Options::default());
    let Some(FileOutcome::Measured(m)) = next else {
        panic!("{next:?}")
    };
    let units: Vec<(&str, u32, u32)> = m
        .units
        .iter()
        .map(|u| (u.name.as_str(), u.start_line, u.end_line))
        .collect();
    assert_eq!(units, [("g", 1, 4)]);
}

#[test]
fn binary_and_utf16_files_are_skipped_with_their_reason() {
    let s = Scenario::git();
    let source = "class A\n{\n    void F()\n    {\n    }\n}\n";
    let utf16: Vec<u8> = source.encode_utf16().flat_map(u16::to_le_bytes).collect();
    s.write_bytes(
        "Binary.cs",
        &(0..=255u8).cycle().take(4096).collect::<Vec<u8>>(),
    );
    s.write_bytes("Nul.cs", b"class A {}\n\0\0\0\n");
    s.write_bytes("Utf16Bom.cs", &[&[0xFF, 0xFE][..], &utf16].concat());
    s.write_bytes("Utf16.cs", &utf16);
    s.write_bytes("Utf8Bom.cs", format!("\u{feff}{source}").as_bytes());
    let run = s.run(&["measure"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "");
    assert!(
        run.stdout.ends_with(
            "measured 1 file(s): 1 function(s), 1 type(s); 4 skipped\n\
         skipped Binary.cs: not UTF-8\n\
         skipped Nul.cs: binary (holds a NUL byte)\n\
         skipped Utf16.cs: binary (holds a NUL byte)\n\
         skipped Utf16Bom.cs: not UTF-8\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn twenty_thousand_levels_of_nesting_are_measured_or_skipped_without_overflow() {
    const N: usize = 20_000;
    let s = Scenario::git();
    s.write(
        "parens.rs",
        &format!(
            "fn f() {{\n    let x = {}1{};\n}}\n",
            "(".repeat(N),
            ")".repeat(N)
        ),
    );
    s.write(
        "blocks.rs",
        &format!("fn f() {{\n{}\n{}\n}}\n", "{".repeat(N), "}".repeat(N)),
    );
    s.write(
        "Parens.cs",
        &format!(
            "class A {{ int F() {{ return {}1{}; }} }}\n",
            "(".repeat(N),
            ")".repeat(N)
        ),
    );
    s.write(
        "Unclosed.cs",
        &format!("class A {{ void F() {{ {}\n", "{(".repeat(N)),
    );
    // Names grow with the square of the depth: these are skipped, promptly.
    s.write(
        "Types.cs",
        &format!("{}{}\n", "class A { ".repeat(N), "}".repeat(N)),
    );
    s.write(
        "mods.rs",
        &format!("{}{}\n", "mod m { fn f() {} ".repeat(N), "}".repeat(N)),
    );
    // No parse timeout: it counts wall-clock time, which a loaded machine stretches;
    // the bound is the CPU time below.
    let unbounded = ["--parse-timeout", "0"];
    let (run, took) = s.run_cpu(&[&["measure", "--format", "tsv"][..], &unbounded].concat());
    assert_eq!(run.code, 0, "{run:?}");
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("_lines\t"))
        .collect();
    assert_eq!(
        rows,
        [
            "Parens.cs\tParens.cs\tfile_lines\t1\t1\t1\t-",
            "Parens.cs\tA\ttype_lines\t1\t1\t1\t-",
            "Parens.cs\tA.F\tfunction_lines\t1\t1\t1\t-",
            // Unclosed: the parser recovers no declaration; the file is measured.
            "Unclosed.cs\tUnclosed.cs\tfile_lines\t1\t1\t1\t-",
            "blocks.rs\tblocks.rs\tfile_lines\t4\t1\t4\t-",
            "blocks.rs\tf\tfunction_lines\t4\t1\t4\t-",
            "parens.rs\tparens.rs\tfile_lines\t3\t1\t3\t-",
            "parens.rs\tf\tfunction_lines\t3\t1\t3\t-",
        ]
    );
    assert!(
        run.stderr
            .contains("warning: 1 file(s) with syntax errors; -v lists them\n"),
        "{}",
        run.stderr
    );
    let listed = s.run(
        &[
            &["measure", "-v", "--format", "tsv", "Unclosed.cs"],
            &unbounded[..],
        ]
        .concat(),
    );
    assert!(
        listed
            .stderr
            .contains("warning: Unclosed.cs: syntax error at line 1; measured what parsed\n"),
        "{}",
        listed.stderr
    );
    let text = s.run(&[&["measure"][..], &unbounded].concat()).stdout;
    let reason =
        "unit names add up to more than 16 MiB (declarations nested too deep or named too long)";
    assert!(
        text.contains(&format!("skipped Types.cs: {reason}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("skipped mods.rs: {reason}\n")),
        "{text}"
    );
    assert!(took < Duration::from_secs(120), "{took:?}");
}

#[test]
fn a_baseline_with_a_merge_conflict_is_an_error_and_left_as_it_was() {
    let s = Scenario::git();
    s.write("context.yaml", "");
    s.write("principles.md", &principles("function_lines: 3\n"));
    s.write("a.rs", &rs_fn("f", 9));
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "other"]);
    let edit = |value: &str| {
        let text = s
            .read("structure-baseline.tsv")
            .replace("\t9\n", &format!("\t{value}\n"));
        s.write("structure-baseline.tsv", &text);
    };
    edit("8");
    s.commit("other");
    s.git_ok(&["checkout", "-q", "main"]);
    edit("7");
    s.commit("main");
    let merge = std::process::Command::new("git")
        .args(["merge", "-q", "other"])
        .current_dir(s.path())
        .env("HOME", s.path())
        .output()
        .expect("git runs");
    assert!(!merge.status.success(), "the merge must conflict");
    let conflicted = s.read("structure-baseline.tsv");
    assert!(
        conflicted
            .lines()
            .nth(4)
            .is_some_and(|l| l.starts_with("<<<<<<< ")),
        "{conflicted}"
    );
    let message =
        "structure-baseline.tsv:5: this looks like a merge conflict marker (\"<<<<<<< HEAD\"): \
                   resolve the conflict in the baseline, then run `structgate baseline refresh`";
    for args in [
        &["measure", "--check"][..],
        &["baseline", "refresh"],
        &["baseline", "init"],
        &["limits"],
    ] {
        let run = s.run(args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert_eq!(run.stderr, format!("error: {message}\n"), "{args:?}");
        assert_eq!(s.read("structure-baseline.tsv"), conflicted);
    }
}

#[test]
fn only_the_first_limits_section_is_read_and_a_second_is_a_warning() {
    let s = Scenario::git();
    s.write("context.yaml", "");
    s.write("a.rs", &rs_fn("f", 6));
    let two_sections = "## Limits\n\n```yaml\nfunction_lines: 5\n```\n\n## Other\n\n## Limits\n\n```yaml\nfunction_lines: 50\n```\n";
    s.write("principles.md", two_sections);
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "warning: principles.md:9: a second ## Limits section; only the first is read\n"
    );
    assert!(
        run.stdout
            .contains("a.rs\tf\tfunction_lines\t6\t1\t6\texcess\n"),
        "{}",
        run.stdout
    );
    // The gate reads the base's principles.md, and warns of it the same way.
    s.write("principles.md", two_sections);
    s.cut_feature();
    s.write("a.rs", &rs_fn("f", 7));
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stderr,
        "warning: principles.md:9: a second ## Limits section; only the first is read\n"
    );
    assert!(
        run.stdout
            .ends_with("\na.rs:1 f: function_lines 7 > 5 (band 5, baseline 6)\n"),
        "{}",
        run.stdout
    );
    s.git_ok(&["checkout", "-q", "main"]);
    // A first section without a fence sets no limits; the second still doesn't count.
    s.write(
        "principles.md",
        "## Limits\n\nNone yet.\n\n## Limits\n\n```yaml\nfunction_lines: 5\n```\n",
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "warning: principles.md:5: a second ## Limits section; only the first is read\n"
    );
    assert!(run.stdout.contains("  limits: none"), "{}", run.stdout);
}

#[test]
fn many_yaml_fences_outside_the_limits_section_are_read_in_linear_time() {
    let mut text = String::from("# Principles\n\n");
    text.push_str(&"```yaml\nx: 1\n```\n".repeat(200_000));
    text.push_str("## Limits\n\n```yaml\nfunction_lines: 0\n```\n");
    let (result, took) = cpu::thread(|| structgate::limits::parse(&text, "principles.md"));
    let error = result.expect_err("0 is not a limit").to_string();
    assert_eq!(
        error,
        "principles.md:600006: function_lines: 0 is not a positive whole number"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_long_impl_type_repeated_in_every_method_name_is_skipped() {
    // A 300 KB type name, named again in each of 60 functions: 18 MB of names.
    let src = format!(
        "impl {} {{\n{}}}\n",
        "A".repeat(300_000),
        "fn a() {}\n".repeat(60)
    );
    let (outcome, took) =
        cpu::thread(|| measure_file("long.rs", src.as_bytes(), &Options::default()));
    let reason = SkipReason::NamesTooLong;
    assert_eq!(
        outcome,
        Some(FileOutcome::Skipped {
            path: "long.rs".into(),
            reason
        })
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    // Under the budget the same shape is measured.
    let src = format!(
        "impl {} {{\n{}}}\n",
        "A".repeat(1_000),
        "fn a() {}\n".repeat(60)
    );
    let Some(FileOutcome::Measured(m)) = measure_file("ok.rs", src.as_bytes(), &Options::default())
    else {
        panic!("not measured");
    };
    assert_eq!(m.units.len(), 61);
}
