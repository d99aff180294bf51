//! A `sources` entry that names a file: the context owns that file, the most specific
//! entry winning, in every command (docs/src/reference/contexts.md).

use crate::common;

use common::{principles, Scenario};

/// A root context `code` owning the whole repository (no byte limits), and the context
/// `agents` in `agents/` whose sources name the root `AGENTS.md` and `CLAUDE.md`, with
/// `file_bytes: 1000`; `AGENTS.md` holds 1,500 bytes.
fn agent_documents() -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: code\n");
    s.write("principles.md", &principles("function_lines: 10\n"));
    s.write(
        "agents/context.yaml",
        "meta:\n  name: agents\nsources: [AGENTS.md, CLAUDE.md]\n",
    );
    s.write("agents/principles.md", &principles("file_bytes: 1000\n"));
    s.write("AGENTS.md", &line(1499));
    s.write("CLAUDE.md", "# Claude\n");
    s.write("README.md", &"r".repeat(3000));
    s
}

/// One line of `n` letters and its line break: `n + 1` bytes.
fn line(n: usize) -> String {
    format!("{}\n", "a".repeat(n))
}

#[test]
fn limits_and_measure_give_a_named_file_to_its_context() {
    let s = agent_documents();
    let limits = s.run(&["limits", "--context", "agents"]);
    assert_eq!(limits.code, 0, "{limits:?}");
    assert!(
        limits
            .stdout
            .contains("agents (agents)\n  owns: AGENTS.md, CLAUDE.md\n"),
        "{}",
        limits.stdout
    );
    let run = s.run(&["measure", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let context_of = |path: &str| {
        let files = v["files"].as_array().expect("files");
        let file = files.iter().find(|f| f["path"] == path).expect(path);
        file["context"].clone()
    };
    assert_eq!(context_of("AGENTS.md"), "agents");
    assert_eq!(context_of("CLAUDE.md"), "agents");
    assert_eq!(context_of("README.md"), "code");
    let check = s.run(&["measure", "--check", "AGENTS.md"]);
    assert_eq!(check.code, 1, "{check:?}");
}

#[test]
fn baseline_init_and_refresh_record_a_named_file() {
    let s = agent_documents();
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    assert!(
        init.stdout
            .contains("agents: wrote agents/structure-baseline.tsv with 1 unit(s)"),
        "{}",
        init.stdout
    );
    let baseline = s.read("agents/structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["AGENTS.md\tAGENTS.md\tfile_bytes\t1500"]);
    assert!(
        baseline.contains("# owned:\tAGENTS.md\tCLAUDE.md\n"),
        "{baseline}"
    );
    s.write("AGENTS.md", &line(1199));
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    let baseline = s.read("agents/structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["AGENTS.md\tAGENTS.md\tfile_bytes\t1200"]);
}

#[test]
fn the_gate_judges_a_named_files_growth_by_its_contexts_terms() {
    let s = agent_documents();
    s.cut_feature();
    s.write("AGENTS.md", &line(4499));
    s.write("README.md", &"r".repeat(9000));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        common::after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 2 context(s): 1 excess(es) past the band",
            "AGENTS.md:1 AGENTS.md: file_bytes 4500 > 1000 (band 1000, baseline 1500)",
        ]
    );
}

#[test]
fn baseline_accept_raises_the_pin_of_a_named_file() {
    let s = agent_documents();
    s.write(
        "agents/principles.md",
        &principles("file_bytes: 2000\npinned: [file_bytes]\n"),
    );
    let init = s.run(&["baseline", "init"]);
    assert_eq!(init.code, 0, "{init:?}");
    s.write("AGENTS.md", &line(1799));
    let accept = s.run(&["baseline", "accept", "AGENTS.md"]);
    assert_eq!(accept.code, 0, "{accept:?}");
    let baseline = s.read("agents/structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        entries,
        [
            "AGENTS.md\tAGENTS.md\tfile_bytes\t1800",
            "CLAUDE.md\tCLAUDE.md\tfile_bytes\t9",
        ]
    );
}
