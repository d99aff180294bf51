//! The fuzzers' regression inputs, inside the normal `cargo test`: every file in
//! `fuzz/regressions/TARGET/` goes through the same check as the fuzz target TARGET
//! (fuzz/checks.rs). A crash or hang the fuzzers found becomes a file there.

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

#[test]
fn every_regression_input_passes_its_targets_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut seen = 0;
    for (target, check) in checks::TARGETS {
        let dir = root.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no regression input", dir.display());
        for file in files {
            let data = std::fs::read(&file).expect("a regression input");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} fails its check", file.display());
            seen += 1;
        }
    }
    assert!(
        seen >= checks::TARGETS.len(),
        "only {seen} regression inputs"
    );
}
