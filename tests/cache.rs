//! The measurement cache as a user meets it: a second run parses nothing and prints the
//! same bytes; an edit is measured afresh; `--no-cache`, `baseline` and `gate`; linked
//! worktrees share it; a damaged cache is rewritten. `STRUCTGATE_CACHE_STATS` makes each
//! run say on stderr how many files it parsed and how many came from the cache.

use crate::common;

use std::path::Path;

use common::{cs_class, principles, rs_fn, Run, Scenario};

const STATS: (&str, &str) = ("STRUCTGATE_CACHE_STATS", "1");

fn run(s: &Scenario, args: &[&str]) -> Run {
    s.run_env(s.path(), args, &[STATS, ("NO_COLOR", "1")])
}

/// The statistics line of a run.
fn stats(run: &Run) -> &str {
    run.stderr
        .lines()
        .find(|l| l.starts_with("cache: "))
        .unwrap_or_else(|| panic!("no statistics in {run:?}"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A repository holding the measurer's fixtures, committed.
fn fixtures_repo() -> Scenario {
    let s = Scenario::git();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/measure");
    copy_dir(&fixtures, &s.abs("fx"));
    s.commit("fixtures");
    s
}

/// Fixture files the measurer parses: every `.cs`, `.rs`, TypeScript, JavaScript, Python,
/// Go and Java file not left out by its path (test directories, `.g.cs`, `.Designer.cs`,
/// `tests.rs`, `__tests__`, `*.d.ts`, `test_*.py`, `*_test.go`, ...): 47 C# and Rust
/// files, 18 TypeScript, 14 JavaScript, 9 Python, 8 Go and 5 Java.
const PARSED: usize = 101;

#[test]
fn a_second_measure_parses_nothing_and_prints_the_same_bytes() {
    let s = fixtures_repo();
    let args = ["measure", "--check", "--format", "json", "fx"];
    let cold = run(&s, &args);
    assert_eq!(
        stats(&cold),
        format!("cache: parsed {PARSED} file(s), 0 from cache")
    );
    let warm = run(&s, &args);
    assert_eq!(
        stats(&warm),
        format!("cache: parsed 0 file(s), {PARSED} from cache")
    );
    let uncached = run(
        &s,
        &["measure", "--check", "--format", "json", "fx", "--no-cache"],
    );
    assert_eq!(
        stats(&uncached),
        format!("cache: parsed {PARSED} file(s), 0 from cache")
    );
    assert_eq!((cold.code, warm.code, uncached.code), (0, 0, 0));
    assert!(
        cold.stdout.contains("\"path\": \"fx/rust/"),
        "{}",
        cold.stdout
    );
    assert_eq!(warm.stdout, uncached.stdout);
    assert_eq!(cold.stdout, uncached.stdout);
    let warnings = |run: &Run| -> Vec<String> {
        let lines = run.stderr.lines().filter(|l| !l.starts_with("cache: "));
        lines.map(str::to_string).collect()
    };
    assert_eq!(warnings(&warm), warnings(&cold));
    assert_eq!(warnings(&cold).len(), 2, "{}", cold.stderr);
    // The files with syntax errors, summed up in one of those lines, are kept by the
    // cache as they are: -v lists the same nine from it.
    let listed = |run: &Run| -> Vec<String> {
        let lines = run
            .stderr
            .lines()
            .filter(|l| l.contains("; measured what parsed"));
        lines.map(str::to_string).collect()
    };
    let warm_v = s.run(&["measure", "-v", "fx"]);
    let fresh_v = s.run(&["measure", "-v", "--no-cache", "fx"]);
    assert_eq!(listed(&warm_v).len(), 9, "{}", warm_v.stderr);
    assert_eq!(listed(&warm_v), listed(&fresh_v));
    for format in ["text", "tsv"] {
        let cached = s.run(&["measure", "--format", format, "fx"]);
        let fresh = s.run(&["measure", "--format", format, "fx", "--no-cache"]);
        assert_eq!(cached.stdout, fresh.stdout, "{format}");
    }
}

#[test]
fn an_edited_file_alone_is_measured_afresh() {
    let s = Scenario::git();
    s.write("src/a.rs", &rs_fn("a", 4));
    s.write("src/b.rs", &rs_fn("b", 4));
    s.write("src/C.cs", &cs_class("C", &[("Run", 5)]));
    s.commit("c1");
    run(&s, &["measure"]);
    s.write("src/a.rs", &rs_fn("a", 9));
    let edited = run(&s, &["measure"]);
    assert_eq!(stats(&edited), "cache: parsed 1 file(s), 2 from cache");
    assert!(
        edited
            .stdout
            .contains("src/a.rs:1  function  a      9 lines  params 0  nesting 0  cyclomatic 1  cognitive 0\n"),
        "{}",
        edited.stdout
    );
    s.write("src/a.rs", &rs_fn("a", 4));
    let back = run(&s, &["measure"]);
    assert_eq!(stats(&back), "cache: parsed 0 file(s), 3 from cache");
}

#[test]
fn the_cache_lives_in_the_git_directory_and_no_cache_writes_none() {
    let s = Scenario::git();
    s.write("src/a.rs", &rs_fn("a", 4));
    s.commit("c1");
    let off = run(&s, &["measure", "--no-cache"]);
    assert_eq!(stats(&off), "cache: parsed 1 file(s), 0 from cache");
    assert!(!s.abs(".git/structgate").exists());
    run(&s, &["measure"]);
    let shards = std::fs::read_dir(s.abs(".git/structgate/cache")).unwrap();
    assert_eq!(shards.count(), 1);
    assert_eq!(s.git_ok(&["status", "--porcelain", "--ignored"]), "");
}

#[test]
fn outside_git_there_is_no_cache() {
    let s = Scenario::plain();
    s.write("a.rs", &rs_fn("a", 4));
    run(&s, &["measure"]);
    let again = run(&s, &["measure"]);
    assert_eq!(stats(&again), "cache: parsed 1 file(s), 0 from cache");
    assert_eq!(std::fs::read_dir(s.path()).unwrap().count(), 1);
}

#[test]
fn baseline_measures_through_the_cache_and_the_gate_afresh() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write("principles.md", &principles("function_lines: 5\n"));
    for name in ["a", "b", "c"] {
        s.write(&format!("src/{name}.rs"), &rs_fn(name, 4));
    }
    s.write("src/long.rs", &rs_fn("long", 8));
    let init = run(&s, &["baseline", "init"]);
    assert_eq!(stats(&init), "cache: parsed 4 file(s), 0 from cache");
    s.commit("c1");
    let refresh = run(&s, &["baseline", "refresh", "--check"]);
    assert_eq!(stats(&refresh), "cache: parsed 0 file(s), 4 from cache");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("src/a.rs", &rs_fn("a", 5));
    s.write("src/new.rs", &rs_fn("new", 7));
    let gate = run(&s, &["gate"]);
    assert_eq!(gate.code, 1, "{gate:?}");
    assert_eq!(stats(&gate), "cache: parsed 2 file(s), 0 from cache");
    // The gate trusts no cache for what it judges: each file is measured afresh.
    let again = run(&s, &["gate"]);
    assert_eq!(stats(&again), "cache: parsed 2 file(s), 0 from cache");
    assert_eq!(again.stdout, gate.stdout);
    assert!(
        gate.stdout
            .contains("src/new.rs:1 new: function_lines 7 > 5 (band 5)"),
        "{}",
        gate.stdout
    );
}

#[test]
fn linked_worktrees_share_one_cache() {
    let s = Scenario::git();
    s.write("src/a.rs", &rs_fn("a", 4));
    s.write("src/B.cs", &cs_class("B", &[("Run", 5)]));
    s.commit("c1");
    run(&s, &["measure"]);
    let linked = s.path().join("linked");
    s.git_ok(&["worktree", "add", "-q", linked.to_str().unwrap()]);
    let there = s.run_env(&linked, &["measure"], &[STATS, ("NO_COLOR", "1")]);
    assert_eq!(stats(&there), "cache: parsed 0 file(s), 2 from cache");
    assert!(there.stdout.starts_with("src/B.cs:1"), "{}", there.stdout);
}

#[test]
fn a_damaged_cache_is_ignored_and_rewritten() {
    let s = fixtures_repo();
    let cold = run(&s, &["measure", "fx"]);
    let dir = s.abs(".git/structgate/cache");
    let mut shards = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
        shards += 1;
    }
    let damaged = run(&s, &["measure", "fx"]);
    assert_eq!(damaged.stdout, cold.stdout);
    let parsed: usize = stats(&damaged)
        .split(' ')
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(parsed >= shards, "{parsed} < {shards}");
    let healed = run(&s, &["measure", "fx"]);
    assert_eq!(
        stats(&healed),
        format!("cache: parsed 0 file(s), {PARSED} from cache")
    );
}

#[test]
fn verbose_says_what_the_cache_did_and_stale_temp_files_go() {
    let s = Scenario::git();
    s.write("src/a.rs", &rs_fn("a", 4));
    s.write("src/b.rs", &rs_fn("b", 4));
    s.commit("c1");
    let cold = s.run(&["measure", "-v"]);
    assert_eq!(cold.code, 0, "{cold:?}");
    assert!(
        cold.stderr
            .lines()
            .any(|l| l == "cache: parsed 2 file(s), 0 from cache"),
        "{}",
        cold.stderr
    );
    let quiet = s.run(&["measure"]);
    assert!(!quiet.stderr.contains("cache:"), "{}", quiet.stderr);
    // A run killed between writing a shard's temp file and renaming it left this behind.
    let cache = s.abs(".git/structgate/cache");
    let shard = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .next()
        .unwrap();
    let dead = cache.join(format!(".{shard}.tmp.999999999.0"));
    std::fs::write(&dead, "half a shard").unwrap();
    s.write("src/a.rs", &rs_fn("a", 6));
    s.write("src/b.rs", &rs_fn("b", 6));
    let warm = s.run(&["measure", "-v"]);
    assert!(
        warm.stderr
            .lines()
            .any(|l| l == "cache: parsed 2 file(s), 0 from cache"),
        "{}",
        warm.stderr
    );
    let again = run(&s, &["measure"]);
    assert_eq!(stats(&again), "cache: parsed 0 file(s), 2 from cache");
    let left: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp."))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Sets a file's modification time an hour back, so that git's index, written after it,
/// records it as clean and not racy.
fn backdate(s: &Scenario, rel: &str) {
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let file = std::fs::File::options()
        .write(true)
        .open(s.abs(rel))
        .unwrap();
    file.set_modified(hour_ago).unwrap();
}

#[test]
fn a_file_an_attribute_converts_is_hashed_from_its_bytes_and_the_rest_keep_the_index_ids() {
    let s = Scenario::git();
    // The clean filter keeps a file's first two lines: what git stores for conv/long.rs is
    // the bytes of plain/short.rs, while the working tree holds two functions.
    s.git_ok(&["config", "filter.firsttwo.clean", "head -n 2"]);
    s.git_ok(&["config", "filter.firsttwo.smudge", "cat"]);
    s.write(".gitattributes", "conv/*.rs filter=firsttwo\n*.sh eol=lf\n");
    s.write("plain/short.rs", "fn a() {\n}\n");
    s.write("conv/long.rs", "fn a() {\n}\nfn b() {\n    let x = 1;\n}\n");
    for rel in ["plain/short.rs", "conv/long.rs", ".gitattributes"] {
        backdate(&s, rel);
    }
    s.commit("c1");
    let stored = s.git_ok(&["cat-file", "-p", "HEAD:conv/long.rs"]);
    assert_eq!(
        stored, "fn a() {\n}\n",
        "the filter stored the short version"
    );
    let cold = run(&s, &["measure"]);
    assert_eq!(stats(&cold), "cache: parsed 2 file(s), 0 from cache");
    let warm = run(&s, &["measure"]);
    assert_eq!(stats(&warm), "cache: parsed 0 file(s), 2 from cache");
    assert_eq!(warm.stdout, cold.stdout);
    assert!(
        warm.stdout
            .contains("conv/long.rs:3    function  b         3 lines  params 0  nesting 0  cyclomatic 1  cognitive 0\n"),
        "{}",
        warm.stdout
    );
}

/// The line `measure` prints for a Markdown document (its path is its only unit).
fn document_line(run: &Run, rel: &str) -> String {
    let start = format!("{rel}:1 ");
    let line = run.stdout.lines().find(|l| l.starts_with(&start));
    let line = line.unwrap_or_else(|| panic!("no {rel} in {}", run.stdout));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_stat_clean_file_only_line_end_attributes_touch_keeps_the_index_id_unless_it_holds_a_cr() {
    let s = Scenario::git();
    // A clean filter while they are added makes the index hold short.md's blob for the
    // three others; then it goes, leaving the line-end attributes alone. As `git status`,
    // structgate takes a stat-clean file to be the blob the index names where nothing
    // but line ends may have been converted and that cannot have happened.
    s.git_ok(&["config", "filter.firsttwo.clean", "head -n 2"]);
    s.git_ok(&["config", "filter.firsttwo.smudge", "cat"]);
    s.write(".gitattributes", "* text=auto eol=lf\ncrlf.md eol=crlf\n");
    s.write(
        ".git/info/attributes",
        "[a-z]*.md filter=firsttwo\nshort.md -filter\n",
    );
    s.write("short.md", "# A\n\n");
    s.write("lf.md", "# A\n\none\ntwo\n");
    s.write("cr.md", "# A\r\n\r\none\r\ntwo\r\n");
    s.write("crlf.md", "# A\n\none\ntwo\n");
    for rel in ["short.md", "lf.md", "cr.md", "crlf.md", ".gitattributes"] {
        backdate(&s, rel);
    }
    s.commit("c1");
    std::fs::remove_file(s.abs(".git/info/attributes")).unwrap();
    assert_eq!(s.git_ok(&["status", "--porcelain"]), "");
    let short = s.git_ok(&["rev-parse", "HEAD:short.md"]);
    for rel in ["lf.md", "cr.md", "crlf.md"] {
        assert_eq!(
            s.git_ok(&["rev-parse", &format!("HEAD:{rel}")]),
            short,
            "{rel}"
        );
    }
    let first = run(&s, &["measure", "short.md"]);
    assert_eq!(
        document_line(&first, "short.md"),
        "short.md:1 file short.md 2 lines, 5 bytes"
    );
    let then = run(&s, &["measure", "lf.md", "cr.md", "crlf.md"]);
    // eol=lf checks a file out as its blob and only takes the \r out of \r\n when it is
    // added: lf.md, holding no \r, is taken to be its blob, whose measure is cached.
    assert_eq!(
        document_line(&then, "lf.md"),
        "lf.md:1 file lf.md 2 lines, 5 bytes"
    );
    // cr.md holds \r and is not as long as its blob: hashed from its bytes.
    assert_eq!(
        document_line(&then, "cr.md"),
        "cr.md:1 file cr.md 4 lines, 13 bytes"
    );
    // eol=crlf may write \r\n on checkout: crlf.md is hashed from its bytes.
    assert_eq!(
        document_line(&then, "crlf.md"),
        "crlf.md:1 file crlf.md 4 lines, 13 bytes"
    );
}
