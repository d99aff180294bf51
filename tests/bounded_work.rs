//! Bounded work (docs/src/reference/measurement.md#skipped, docs/src/reference/gate.md#integrity):
//! no input under the size caps keeps the gate long — a parse is bounded in time and
//! memory, and documents that import the same files share one walk of them. Bounded by
//! CPU time (tests/common/cpu.rs) and, so that a blowup fails the run instead of taking
//! the machine, by the run's address space.

use std::time::Duration;

use crate::common::{after_base, principles, Scenario, BAND_12};

/// 3 GiB: the gate's own needs are a small fraction; a parse that isn't bounded takes
/// 6 GB and more on these inputs.
const MEMORY: u64 = 3 << 30;

/// `a < b, ` written `n` times: tree-sitter's TypeScript and Java grammars keep every
/// reading of it (generic arguments or comparisons) to the end, then build a tree from
/// each: gigabytes, in one step its progress callback never sees.
fn comparisons(n: usize) -> String {
    "a < b, ".repeat(n)
}

#[test]
fn a_parse_that_explodes_is_stopped_in_time_and_memory_and_fails_the_gate() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Small.cs", "class Small { }\n");
    s.cut_feature();
    // 140 KB each, two of each language: the default --parse-timeout (10 s).
    let ts = comparisons(20_000);
    let java = format!(
        "class Slow {{ void f() {{ g({}); }} }}\n",
        comparisons(20_000)
    );
    s.write("src/slow.ts", &ts);
    s.write("src/other.ts", &ts);
    s.write("src/Slow.java", &java);
    s.write("src/Other.java", &java);
    let (run, cpu) = s.run_cpu_within(&["gate"], MEMORY, Duration::from_secs(60));
    assert_eq!(run.code, 1, "{run:?}");
    let why = "unmeasurable (parsing took more than 140 MiB of memory, given up as past \
               --parse-timeout)";
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s): 4 file(s) unmeasurable".to_string(),
            format!("src/Other.java: {why}"),
            format!("src/Slow.java: {why}"),
            format!("src/other.ts: {why}"),
            format!("src/slow.ts: {why}"),
        ]
    );
    assert!(cpu < Duration::from_secs(10), "{cpu:?}");
    let (json, _) = s.run_cpu_within(
        &["gate", "--format", "json"],
        MEMORY,
        Duration::from_secs(60),
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["unmeasurable"][0]["reason"], "parse-timeout");
    // `measure` skips such a file, and names why.
    let (run, _) = s.run_cpu_within(&["measure", "src/slow.ts"], MEMORY, Duration::from_secs(60));
    assert!(
        run.stdout.ends_with(
            "skipped src/slow.ts: parsing took more than 140 MiB of memory, given up as past \
             --parse-timeout\n"
        ),
        "{run:?}"
    );
}

#[test]
fn documents_that_import_the_same_files_share_one_walk_of_them() {
    // 300 new documents each import the same 300 files, each of which imports all 300:
    // 27 million imports to follow, one walk at a time.
    let s = Scenario::git();
    s.write(
        "docs/context.yaml",
        "meta:\n  name: docs\n  workdir: docs\n",
    );
    s.write("docs/principles.md", &principles("loaded_bytes: 2000000\n"));
    s.write("docs/README.md", "# Docs\n");
    s.cut_feature();
    let imports = |prefix: &str| -> String {
        (0..300)
            .map(|j| format!("@{prefix}f{j}.md"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for j in 0..300 {
        s.write(
            &format!("shared/f{j}.md"),
            &format!("# {j}\n{}\n", imports("")),
        );
    }
    for i in 0..300 {
        s.write(
            &format!("docs/d{i}.md"),
            &format!("# {i}\n{}\n", imports("../shared/")),
        );
    }
    let (run, cpu) = s.run_cpu_within(
        &["gate", "--require-judged"],
        MEMORY,
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 300 file(s) in 1 context(s), within their Limits"]
    );
    assert!(cpu < Duration::from_secs(10), "{cpu:?}");
    let run = s.run(&["measure", "--format", "json", "docs/d7.md"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let file = &v["files"][0];
    assert_eq!(file["imports"].as_array().map(Vec::len), Some(300));
    // Each file once: the 300 shared files (778,690 bytes) and the document (5,594).
    assert_eq!(file["loaded_bytes"], 778_690 + 5_594);
}
