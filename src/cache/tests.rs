use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use super::store::Store;
use super::{Cache, Stats, STAMP};
use crate::measure::{self, Options};
use crate::model::FileOutcome;

fn cache_in(dir: &Path, stamp: &str) -> Cache {
    Cache {
        store: Some(Store::new(dir.to_path_buf(), stamp)),
        index: None,
        parsed: AtomicUsize::new(0),
        cached: AtomicUsize::new(0),
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/measure")
}

/// Every fixture file's repository-relative path and bytes.
fn fixture_files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![fixtures()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(fixtures()).unwrap();
                let rel = rel.to_str().unwrap().replace('\\', "/");
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Measures every fixture through `cache`; the outcomes and the run's statistics.
fn run(cache: Cache, options: &Options) -> (Vec<Option<FileOutcome>>, Stats) {
    let outcomes = fixture_files()
        .iter()
        .map(|(path, bytes)| cache.measure_bytes(path, bytes, options))
        .collect();
    (outcomes, cache.finish())
}

fn direct(options: &Options) -> Vec<Option<FileOutcome>> {
    fixture_files()
        .iter()
        .map(|(path, bytes)| measure::measure_file(path, bytes, options))
        .collect()
}

/// Files the measurer parses (a language with a grammar, not left out by path).
fn parsed_count() -> usize {
    fixture_files()
        .iter()
        .filter(|(p, _)| super::cacheable(p).is_some_and(|g| g != super::DOCUMENT))
        .count()
}

fn stats(parsed: usize, cached: usize) -> Stats {
    Stats {
        parsed,
        cached,
        write_error: None,
    }
}

#[test]
fn a_second_run_parses_nothing_and_gives_exactly_what_measuring_gives() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let n = parsed_count();
    assert!(n >= 30, "{n}");
    let (first, s1) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s1, stats(n, 0));
    let (second, s2) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s2, stats(0, n));
    assert_eq!(first, direct(&options));
    assert_eq!(second, direct(&options));
}

#[test]
fn a_documents_outcome_is_kept_by_its_bytes_and_counted_as_neither_parse_nor_hit() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let doc = b"# Rules\n\nKeep it short.\n";
    let cache = cache_in(dir.path(), STAMP);
    let first = cache.measure_bytes("AGENTS.md", doc, &options).unwrap();
    assert_eq!(cache.finish(), stats(0, 0));
    assert_eq!(
        first,
        measure::measure_file("AGENTS.md", doc, &options).unwrap()
    );
    let cache = cache_in(dir.path(), STAMP);
    let store = cache.store.as_ref().unwrap();
    let key = super::Key::new(crate::git::blob_id(doc), super::DOCUMENT, &options);
    let kept = cache.lookup(store, &key, "docs/CLAUDE.md").unwrap();
    assert_eq!(
        kept,
        measure::measure_file("docs/CLAUDE.md", doc, &options).unwrap()
    );
    assert_eq!(cache.finish(), stats(0, 0));
}

#[test]
fn the_generated_header_setting_is_part_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let honour = Options::default();
    let judge_all = Options {
        honour_generated_header: false,
        ..Options::default()
    };
    let n = parsed_count();
    run(cache_in(dir.path(), STAMP), &honour);
    let (outcomes, s) = run(cache_in(dir.path(), STAMP), &judge_all);
    assert_eq!(s, stats(n, 0));
    assert_eq!(outcomes, direct(&judge_all));
    let generated = |o: &Vec<Option<FileOutcome>>| {
        o.iter()
            .flatten()
            .filter(|o| o.path() == "cs/Generated.cs")
            .map(|o| matches!(o, FileOutcome::Measured(_)))
            .collect::<Vec<_>>()
    };
    assert_eq!(generated(&outcomes), [true]);
    assert_eq!(generated(&direct(&honour)), [false]);
}

#[test]
fn the_same_bytes_at_another_path_or_language_are_keyed_apart_or_renamed() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let text = b"fn a() {\n}\n";
    let cache = cache_in(dir.path(), STAMP);
    let first = cache.measure_bytes("src/a.rs", text, &options).unwrap();
    let moved = cache.measure_bytes("lib/b.rs", text, &options).unwrap();
    let as_cs = cache.measure_bytes("src/a.cs", text, &options).unwrap();
    assert_eq!(cache.finish(), stats(2, 1));
    assert_eq!(first.path(), "src/a.rs");
    assert_eq!(
        moved,
        measure::measure_file("lib/b.rs", text, &options).unwrap()
    );
    assert_eq!(
        as_cs,
        measure::measure_file("src/a.cs", text, &options).unwrap()
    );
}

#[test]
fn the_same_bytes_as_ts_and_tsx_are_keyed_by_their_grammar() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    // A type assertion in TypeScript, an unclosed JSX element in TSX.
    let text = b"const cast = <Factory>(() => {});\n";
    let cache = cache_in(dir.path(), STAMP);
    let ts = cache.measure_bytes("src/a.ts", text, &options).unwrap();
    let tsx = cache.measure_bytes("src/a.tsx", text, &options).unwrap();
    let again = cache.measure_bytes("src/b.TSX", text, &options).unwrap();
    assert_eq!(cache.finish(), stats(2, 1));
    assert_eq!(
        ts,
        measure::measure_file("src/a.ts", text, &options).unwrap()
    );
    assert_eq!(
        tsx,
        measure::measure_file("src/a.tsx", text, &options).unwrap()
    );
    assert_eq!(
        again,
        measure::measure_file("src/b.TSX", text, &options).unwrap()
    );
    let units = |o: &FileOutcome| match o {
        FileOutcome::Measured(m) => (m.units.len(), m.syntax_errors.iter().count()),
        other => panic!("{other:?}"),
    };
    assert_eq!((units(&ts), units(&tsx)), ((1, 0), (0, 1)));
}

/// The shard files the cache wrote.
fn shards(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn a_damaged_entry_is_measured_again_and_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let n = parsed_count();
    run(cache_in(dir.path(), STAMP), &options);
    let files = shards(dir.path());
    assert!(files.iter().all(|f| !f.to_string_lossy().ends_with(".tmp")));
    let mut damaged = 0;
    for file in files.iter().step_by(3) {
        let mut bytes = std::fs::read(file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(file, bytes).unwrap();
        damaged += 1;
    }
    let (outcomes, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s, stats(damaged, n - damaged));
    assert_eq!(outcomes, direct(&options));
    let (_, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s, stats(0, n));
}

#[test]
fn truncated_garbage_and_foreign_shards_are_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let n = parsed_count();
    run(cache_in(dir.path(), STAMP), &options);
    let files = shards(dir.path());
    for (i, file) in files.iter().enumerate() {
        let bytes = std::fs::read(file).unwrap();
        let replaced = match i % 3 {
            0 => bytes[..bytes.len() - 3].to_vec(),
            1 => vec![0xA5; 300],
            _ => Vec::new(),
        };
        std::fs::write(file, replaced).unwrap();
    }
    let (outcomes, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s.parsed + s.cached, n);
    assert!(
        s.parsed >= files.len(),
        "each shard lost at least one entry"
    );
    assert_eq!(outcomes, direct(&options));
    let (_, s) = run(cache_in(dir.path(), "v0 another build"), &options);
    assert_eq!(s, stats(n, 0));
}

/// The entry format is part of the stamp: a cache of the previous format (`v2`, a text
/// per unit name) is ignored whole and measured afresh, never read in the new one.
#[test]
fn a_cache_of_the_previous_entry_format_is_ignored_whole() {
    assert!(STAMP.starts_with("v3 structgate "), "{STAMP}");
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let n = parsed_count();
    let previous = STAMP.replacen("v3 ", "v2 ", 1);
    run(cache_in(dir.path(), &previous), &options);
    let (outcomes, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s, stats(n, 0));
    assert_eq!(outcomes, direct(&options));
    let (_, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s, stats(0, n));
}

#[test]
fn concurrent_runs_keep_each_others_entries() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options::default();
    let files = fixture_files();
    let (a, b) = (cache_in(dir.path(), STAMP), cache_in(dir.path(), STAMP));
    for (i, (path, bytes)) in files.iter().enumerate() {
        let cache = if i % 2 == 0 { &a } else { &b };
        cache.measure_bytes(path, bytes, &options);
    }
    a.finish();
    b.finish();
    let (_, s) = run(cache_in(dir.path(), STAMP), &options);
    assert_eq!(s, stats(0, parsed_count()));
}

#[test]
fn a_cache_that_cannot_be_written_costs_nothing_but_speed() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("cache");
    std::fs::write(&blocker, "a file where the directory should be").unwrap();
    let options = Options::default();
    let (outcomes, s) = run(cache_in(&blocker, STAMP), &options);
    assert_eq!(outcomes, direct(&options));
    assert_eq!((s.parsed, s.cached), (parsed_count(), 0));
    let why = s.write_error.unwrap();
    assert!(why.starts_with("creating the directory of "), "{why}");
}

#[test]
fn a_parse_that_timed_out_is_not_kept() {
    // A bound that holds at any load: the first parse (tens of milliseconds of CPU time,
    // and wall-clock time is never less) runs past 1 ms; the second has no timeout at
    // all, so however loaded the machine it is measured, and comes from a parse, not the
    // cache.
    let dir = tempfile::tempdir().unwrap();
    let hurried = Options {
        parse_timeout: std::time::Duration::from_millis(1),
        ..Options::default()
    };
    let slow = format!("fn f() {{{}}}", "let x = (1 + 2) * 3;".repeat(20_000));
    let cache = cache_in(dir.path(), STAMP);
    let first = cache.measure_bytes("slow.rs", slow.as_bytes(), &hurried);
    assert!(
        matches!(
            first,
            Some(FileOutcome::Skipped {
                reason: crate::model::SkipReason::ParseTimeout { .. },
                ..
            })
        ),
        "{first:?}"
    );
    assert_eq!(cache.finish(), stats(1, 0));
    let cache = cache_in(dir.path(), STAMP);
    let unbounded = measure::test_support::unbounded();
    let second = cache.measure_bytes("slow.rs", slow.as_bytes(), &unbounded);
    assert!(
        matches!(second, Some(FileOutcome::Measured(_))),
        "{second:?}"
    );
    assert_eq!(cache.finish(), stats(1, 0));
}

/// A Markdown file's import scan, through `cache`, counting how often it was made afresh.
fn scanned(cache: &Cache, path: &str, bytes: &[u8], made: &AtomicUsize) -> measure::Scan {
    use crate::measure::Memo as _;
    cache.scan(path, bytes, &|| {
        made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        measure::scan_markdown(bytes)
    })
}

#[test]
fn a_markdown_scan_is_kept_by_the_bytes_and_made_again_when_they_change() {
    let dir = tempfile::tempdir().unwrap();
    let doc = b"# Rules\r\nSee @docs/style.md and @../out.md.\n".as_slice();
    let made = AtomicUsize::new(0);
    let writer = cache_in(dir.path(), STAMP);
    let first = scanned(&writer, "AGENTS.md", doc, &made);
    assert_eq!(
        writer.finish(),
        stats(0, 0),
        "a scan is no parse and no measured hit"
    );
    let cache = cache_in(dir.path(), STAMP);
    assert_eq!(first, measure::scan_markdown(doc));
    let refs: Vec<(&str, u32)> = first
        .refs
        .iter()
        .map(|r| (r.path.as_str(), r.line))
        .collect();
    assert_eq!(
        (first.bytes, refs),
        (43, vec![("docs/style.md", 2), ("../out.md", 2)])
    );
    // The next run: the same bytes at any path are not scanned again.
    let again = scanned(&cache, "elsewhere/CLAUDE.md", doc, &made);
    assert_eq!(again, first);
    let edited = scanned(&cache, "AGENTS.md", b"# Rules\n@a.md\n", &made);
    assert_eq!(edited.refs.len(), 1);
    assert_eq!(made.load(std::sync::atomic::Ordering::Relaxed), 2);
    // No grammar shares the scan entries' key.
    assert!(crate::lang::grammars().all(|l| l.grammar_id() != super::SCAN));
}
