//! Hostile and odd paths (docs/dev/test-matrix.md): contexts that point out of the
//! repository, symbolic links out of it and in loops, and file names with spaces, tabs,
//! newlines and non-ASCII characters through `baseline init` → commit → `gate`.

use crate::common;

use std::os::unix::fs::symlink;
use std::path::Path;

use common::{principles, rs_fn, Scenario};

const LIMITS: &str = "function_lines: 3\n";

#[test]
fn a_workdir_or_sources_entry_leaving_the_repository_is_an_error_everywhere() {
    let cases = [
        ("meta:\n  workdir: ..\n", "context.yaml:2: meta.workdir \"..\" leaves the repository (resolved from \".\")"),
        ("meta:\n  workdir: a/../../x\n", "context.yaml:2: meta.workdir \"a/../../x\" leaves the repository (resolved from \".\")"),
        ("meta:\n  workdir: /etc\n", "context.yaml:2: meta.workdir \"/etc\" is an absolute path; write it relative to the repository"),
        ("sources:\n  - /etc\n", "context.yaml:2: sources entry \"/etc\" is an absolute path; write it relative to the repository"),
        ("meta:\n  workdir: sub\nsources:\n  - ok\n  - ../../up\n", "context.yaml:5: sources entry \"../../up\" leaves the repository (resolved from \"sub\")"),
    ];
    for (yaml, message) in cases {
        let s = Scenario::git();
        s.write("context.yaml", yaml);
        s.write("principles.md", &principles(LIMITS));
        for args in [&["limits"][..], &["measure"], &["baseline", "init"]] {
            let run = s.run(args);
            assert_eq!(run.code, 2, "{args:?} {yaml:?}: {run:?}");
            assert_eq!(run.stderr, format!("error: {message}\n"), "{args:?}");
            assert_eq!(run.stdout, "");
        }
        assert!(!s.abs("structure-baseline.tsv").exists());
    }
}

#[test]
fn the_gate_refuses_a_base_whose_context_leaves_the_repository() {
    let s = Scenario::git();
    s.write("context.yaml", "sources:\n  - ../elsewhere\n");
    s.write("principles.md", &principles(LIMITS));
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    let run = s.run(&["gate"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: context.yaml:2: sources entry \"../elsewhere\" leaves the repository (resolved from \".\")\n"
    );
}

/// A repository with one real file past its limit, and an outside directory holding
/// files past it too, reached only through symbolic links: to a file, to a directory
/// (also named as a `sources` entry), up out of the repository, and in loops.
fn linked() -> (Scenario, tempfile::TempDir) {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(outside.path().join("dir")).expect("mkdir");
    std::fs::write(outside.path().join("Big.rs"), rs_fn("outside_file", 9)).expect("write");
    std::fs::write(outside.path().join("dir/Big.rs"), rs_fn("outside_dir", 9)).expect("write");
    std::fs::write(outside.path().join("baseline.tsv"), "outside\n").expect("write");
    let s = Scenario::git();
    s.write("context.yaml", "sources:\n  - src\n  - ext\n");
    s.write("principles.md", &principles(LIMITS));
    s.write("src/real.rs", &rs_fn("real", 5));
    let link = |target: &Path, at: &str| symlink(target, s.abs(at)).expect("symlink");
    link(&outside.path().join("Big.rs"), "src/file_link.rs");
    link(&outside.path().join("dir"), "src/dir_link");
    link(&outside.path().join("dir"), "ext");
    link(&s.abs("src"), "src/loop");
    link(Path::new("."), "src/self");
    link(Path::new("../.."), "src/up");
    link(&s.abs("src/b.rs"), "src/a.rs");
    link(&s.abs("src/a.rs"), "src/b.rs");
    link(
        &outside.path().join("baseline.tsv"),
        "structure-baseline.tsv",
    );
    (s, outside)
}

/// The warning of every command reading the terms of [`linked`]: its `ext` sources entry
/// is a link, not followed.
const EXT_LINK: &str = "warning: context.yaml: ext is a symbolic link, which structgate \
     does not follow: this context owns nothing through it\n";

/// [`EXT_LINK`], then the warning of [`linked`]'s baseline, a link too.
fn baseline_link() -> String {
    format!(
        "{EXT_LINK}warning: structure-baseline.tsv is a symbolic link, which structgate does \
         not follow: this context has no baseline (a write replaces the link)\n"
    )
}

#[test]
fn symbolic_links_out_of_the_repository_and_in_loops_are_never_followed() {
    let (s, outside) = linked();
    let run = s.run(&["measure", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, baseline_link());
    assert_eq!(
        run.stdout,
        "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n\
         principles.md\tprinciples.md\tfile_bytes\t55\t1\t7\t-\n\
         src/real.rs\treal.rs\tfile_bytes\t65\t1\t5\t-\n\
         src/real.rs\treal.rs\tfile_lines\t5\t1\t5\t-\n\
         src/real.rs\treal.rs\ttypes_per_file\t0\t1\t5\t-\n\
         src/real.rs\treal\tfunction_lines\t5\t1\t5\texcess\n\
         src/real.rs\treal\tfunction_params\t0\t1\t5\t-\n\
         src/real.rs\treal\tfunction_nesting\t0\t1\t5\t-\n\
         src/real.rs\treal\tfunction_cyclomatic\t1\t1\t5\t-\n\
         src/real.rs\treal\tfunction_cognitive\t0\t1\t5\t-\n"
    );
    // The baseline link is not read as a baseline, and is replaced, not written through.
    let run = s.run(&["baseline", "init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, baseline_link());
    let written = std::fs::symlink_metadata(s.abs("structure-baseline.tsv")).expect("stat");
    assert!(written.file_type().is_file());
    assert!(s
        .read("structure-baseline.tsv")
        .ends_with("\nsrc/real.rs\treal\tfunction_lines\t5\n"));
    let untouched = std::fs::read_to_string(outside.path().join("baseline.tsv")).expect("read");
    assert_eq!(untouched, "outside\n");
}

#[test]
fn a_link_named_on_the_command_line_must_resolve_inside_the_repository() {
    let (s, _outside) = linked();
    let root = s.path().canonicalize().expect("canonical root");
    for target in [
        "ext",
        "src/dir_link",
        "src/up",
        "src/file_link.rs",
        "ext/Big.rs",
    ] {
        let run = s.run(&["measure", target]);
        assert_eq!(run.code, 2, "{target}: {run:?}");
        let message = format!("{target} is outside the repository at {}", root.display());
        assert_eq!(run.stderr, format!("error: {message}\n"), "{target}");
        assert_eq!(run.stdout, "", "{target}");
    }
    let run = s.run(&["measure", "src/a.rs"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: src/a.rs: Too many levels of symbolic links (os error 40)\n"
    );
    // A link to a directory inside names that directory, walked as itself.
    let run = s.run(&["measure", "--format", "tsv", "src/self"]);
    assert_eq!(run.code, 0, "{run:?}");
    let units: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("_lines\t"))
        .collect();
    assert_eq!(
        units,
        [
            "src/real.rs\treal.rs\tfile_lines\t5\t1\t5\t-",
            "src/real.rs\treal\tfunction_lines\t5\t1\t5\texcess",
        ]
    );
}

#[test]
fn a_principles_md_that_is_a_link_sets_no_limits_and_says_so() {
    let (s, outside) = linked();
    std::fs::remove_file(s.abs("structure-baseline.tsv")).expect("rm");
    std::fs::write(outside.path().join("principles.md"), principles(LIMITS)).expect("write");
    s.remove("principles.md");
    symlink(outside.path().join("principles.md"), s.abs("principles.md")).expect("symlink");
    let warning = format!(
        "{EXT_LINK}warning: principles.md is a symbolic link, which structgate does not \
         follow: this context has no limits\n"
    );
    let run = s.run(&["limits"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, warning.as_str()),
        "{run:?}"
    );
    assert!(run
        .stdout
        .contains("  limits: none (principles.md does not exist)\n"));
    let run = s.run(&["baseline", "init"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, warning.as_str()),
        "{run:?}"
    );
    assert!(!s.abs("structure-baseline.tsv").exists());
}

#[test]
fn the_gate_does_not_follow_a_link_a_branch_adds() {
    let (s, _outside) = linked();
    std::fs::remove_file(s.abs("structure-baseline.tsv")).expect("rm");
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    std::fs::remove_file(s.abs("src/file_link.rs")).expect("rm");
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("Big.rs"), rs_fn("outside_file", 9)).expect("write");
    symlink(outside.path().join("Big.rs"), s.abs("src/file_link.rs")).expect("symlink");
    // A file replaced by a link: the link is listed like a new one.
    s.remove("src/real.rs");
    symlink(outside.path().join("Big.rs"), s.abs("src/real.rs")).expect("symlink");
    s.git_ok(&["add", "-A"]);
    let run = s.run(&["gate", "--format", "json"]);
    // The terms at the base say so too: `ext` is a link there.
    assert_eq!((run.code, run.stderr.as_str()), (0, EXT_LINK), "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["status"], "passed");
    assert_eq!(json["judged_files"], 0);
    assert_eq!(json["excesses"], serde_json::json!([]));
    assert_eq!(json["skipped"], serde_json::json!([]));
    let link = |path: &str| {
        serde_json::json!({"path": path, "reason": "symbolic-link",
            "detail": "a symbolic link, not followed: what it points at is not judged"})
    };
    assert_eq!(
        json["left_out"],
        serde_json::json!([link("src/file_link.rs"), link("src/real.rs")])
    );
}

/// File names a shell, a TSV reader or a line-based tool could trip over.
const ODD_NAMES: [&str; 8] = [
    "src/a b.rs",
    "src/tab\there.rs",
    "src/new\nline.rs",
    "src/cr\rreturn.rs",
    "src/back\\slash.rs",
    "src/Ünïcødé ☃.rs",
    "src/dir with space/ü.rs",
    "#hash.rs",
];

#[test]
fn odd_file_names_round_trip_through_init_and_gate() {
    let s = Scenario::git();
    s.write("context.yaml", "");
    s.write("principles.md", &principles(LIMITS));
    for name in ODD_NAMES {
        s.write(name, &rs_fn("f", 5));
    }
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    let baseline = s.read("structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().skip(4).collect();
    assert_eq!(
        entries,
        [
            "\\#hash.rs\tf\tfunction_lines\t5",
            "src/a b.rs\tf\tfunction_lines\t5",
            "src/back\\\\slash.rs\tf\tfunction_lines\t5",
            "src/cr\\rreturn.rs\tf\tfunction_lines\t5",
            "src/dir with space/ü.rs\tf\tfunction_lines\t5",
            "src/new\\nline.rs\tf\tfunction_lines\t5",
            "src/tab\\there.rs\tf\tfunction_lines\t5",
            "src/Ünïcødé ☃.rs\tf\tfunction_lines\t5",
        ]
    );
    // Read back, the escaped paths name the same units: nothing to refresh, and a
    // refresh writes the same bytes.
    let check = s.run(&["baseline", "refresh", "--check"]);
    assert_eq!((check.code, check.stderr.as_str()), (0, ""), "{check:?}");
    let name = s.path().file_name().expect("name").to_string_lossy();
    assert_eq!(
        check.stdout,
        format!("{name}: structure-baseline.tsv is up to date (8 unit(s))\n")
    );
    assert_eq!(s.run(&["baseline", "refresh"]).code, 0);
    assert_eq!(s.read("structure-baseline.tsv"), baseline);
    let run = s.run(&["measure", "--check", "--format", "tsv"]);
    assert_eq!(run.code, 0, "{run:?}");
    let tolerated = run.stdout.lines().filter(|l| l.ends_with("\ttolerated"));
    assert_eq!(tolerated.count(), ODD_NAMES.len(), "{}", run.stdout);
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    // Every file is touched; each keeps its allowance of 5 lines, and one more line fails.
    for name in ODD_NAMES {
        s.write(name, &format!("{}// touched\n", rs_fn("f", 5)));
    }
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["judged_files"], ODD_NAMES.len());
    for name in ODD_NAMES {
        s.write(name, &rs_fn("f", 6));
    }
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let mut failed: Vec<&str> = json["excesses"]
        .as_array()
        .expect("excesses")
        .iter()
        .map(|e| e["path"].as_str().expect("path"))
        .collect();
    failed.sort_unstable();
    let mut expected = ODD_NAMES.to_vec();
    expected.sort_unstable();
    assert_eq!(failed, expected);
    assert!(json["excesses"]
        .as_array()
        .expect("excesses")
        .iter()
        .all(|e| e["baseline"] == 5));
}

/// Writes `text` at the repository-relative `rel`, given as bytes that need not be UTF-8.
fn write_raw(s: &Scenario, rel: &[u8], text: &str) {
    use std::os::unix::ffi::OsStrExt as _;
    let path = s.path().join(std::ffi::OsStr::from_bytes(rel));
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[test]
fn file_names_that_are_not_utf8_are_skipped_and_said_so_never_dropped() {
    let s = Scenario::git();
    s.write("context.yaml", "");
    s.write("principles.md", &principles(LIMITS));
    s.write("ok.rs", &rs_fn("f", 2));
    // Past the limit, but no baseline or report could name them.
    write_raw(&s, b"bad\xff.rs", &rs_fn("g", 9));
    write_raw(&s, b"d\xe9j\xe0/in.rs", &rs_fn("h", 9));
    // Not of a measured language: no concern of structgate's.
    write_raw(&s, b"pic\xff.png", "png");
    let skipped = serde_json::json!([
        {"path": "bad\\377.rs", "reason": "name-not-utf8", "detail": "file name not UTF-8"},
        {"path": "d\\351j\\340/in.rs", "reason": "name-not-utf8", "detail": "file name not UTF-8"},
    ]);
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["skipped"], skipped);
    let run = s.run(&["measure"]);
    let tail: Vec<&str> = run.stdout.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "skipped d\\351j\\340/in.rs: file name not UTF-8",
            "skipped bad\\377.rs: file name not UTF-8",
        ]
    );
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    assert_eq!(
        init.stderr,
        "warning: bad\\377.rs: skipped: file name not UTF-8\n\
         warning: d\\351j\\340/in.rs: skipped: file name not UTF-8\n"
    );
    assert_eq!(
        s.read("structure-baseline.tsv").lines().count(),
        4,
        "header only"
    );
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    // The base tree holds names that aren't UTF-8 (it used to stop the gate with exit 2);
    // the branch changes one of them and adds another of no measured language.
    write_raw(&s, b"bad\xff.rs", &rs_fn("g", 12));
    write_raw(&s, b"more\xff.png", "png");
    let run = s.run(&["gate", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["judged_files"], 0);
    assert_eq!(json["skipped"], serde_json::json!([skipped[0]]));
    let run = s.run(&["gate", "-v"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr
            .contains("  bad\\377.rs: not judged: skipped: file name not UTF-8\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_context_yaml_that_is_a_link_declares_no_context_and_says_so() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: top\n");
    s.write("principles.md", &principles(LIMITS));
    s.write("shared/ctx.yaml", "meta:\n  name: linked\n");
    s.write("svc/a.rs", &rs_fn("a", 2));
    symlink("../shared/ctx.yaml", s.abs("svc/context.yaml")).expect("symlink");
    let warning = "warning: svc/context.yaml is a symbolic link, which structgate does not \
                   follow: it declares no context\n";
    let run = s.run(&["limits"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, warning), "{run:?}");
    assert!(run.stdout.starts_with("top (.)\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("linked"), "{}", run.stdout);
    // Its directory stays with the context above it.
    let run = s.run(&["measure", "--format", "json", "svc"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, warning), "{run:?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["files"][0]["path"], "svc/a.rs");
    assert_eq!(json["files"][0]["context"], "top");
    assert_eq!(s.run(&["baseline", "init"]).code, 0);
    s.commit("base");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("svc/a.rs", &rs_fn("a", 3));
    // Read at the base, the link is a link there too.
    let run = s.run(&["gate"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, warning), "{run:?}");
}
