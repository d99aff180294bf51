//! `structgate init` (docs/src/commands/init.md): a context set up from the project files,
//! its validation and baseline; the README's Quick start and every command of the guide's
//! getting-started page, followed line by line on a fresh clone.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{cs_class, exact, rs_fn, Scenario};

/// A repository with a C# project, a Rust workspace of one member and a unit of each
/// past the default limits.
fn project() -> Scenario {
    let s = Scenario::git();
    s.write("src/Shop.Api/Shop.Api.csproj", "<Project />\n");
    s.write(
        "src/Shop.Api/Orders.cs",
        &cs_class("Orders", &[("Place", 70), ("Get", 5)]),
    );
    s.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    s.write("crates/engine/Cargo.toml", "[package]\nname = \"engine\"\n");
    s.write("crates/engine/src/lib.rs", &rs_fn("run", 20));
    s.write("README.md", "# shop\n");
    s
}

#[test]
fn init_writes_the_context_its_principles_and_its_baseline_and_says_what_next() {
    let s = project();
    let run = s.run(&["init"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    insta::assert_snapshot!("init_stdout", exact(&s.redact(&run.stdout)));
    insta::assert_snapshot!("init_context_yaml", exact(&s.read("context.yaml")));
    insta::assert_snapshot!(
        "init_principles_md",
        exact(&s.redact(&s.read("principles.md")))
    );
    insta::assert_snapshot!(
        "init_structure_baseline_tsv",
        exact(&s.read("structure-baseline.tsv"))
    );
    let limits = s.run(&["limits"]);
    assert_eq!(limits.code, 0, "{limits:?}");
}

#[test]
fn init_refuses_to_overwrite_and_writes_nothing() {
    let s = project();
    s.write("principles.md", "# ours\n");
    let run = s.run(&["init"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (
            2,
            "",
            "error: principles.md already exists: structgate init writes nothing over them, and wrote nothing\n"
        )
    );
    assert!(!s.abs("context.yaml").exists());
    assert_eq!(s.read("principles.md"), "# ours\n");
}

#[test]
fn init_in_a_directory_names_it_in_every_path_and_lang_picks_the_project_files() {
    let s = project();
    let run = s.run(&["init", "--lang", "rust", "crates"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("in_a_directory_stdout", exact(&s.redact(&run.stdout)));
    insta::assert_snapshot!(
        "in_a_directory_context_yaml",
        exact(&s.read("crates/context.yaml"))
    );
}

#[test]
fn init_run_inside_a_subdirectory_says_the_directory_its_context_owns() {
    let s = Scenario::git();
    s.write("httpx/client.rs", &rs_fn("send", 5));
    let run = s.run_in(&s.abs("httpx"), &["init"]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().take(2).collect();
    assert_eq!(
        lines,
        [
            "wrote context.yaml, principles.md",
            "sources: none named by a project file; the context owns httpx and all below it",
        ]
    );
}

/// The shell lines of the `sh` blocks of `file` (relative to the repository root) from the
/// heading `from` on, up to the next heading of its level (or all of them with `from`
/// empty), in order, without comments.
fn shell_lines(file: &str, from: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut section = text.as_str();
    if !from.is_empty() {
        let at = text
            .find(&format!("\n{from}\n"))
            .unwrap_or_else(|| panic!("{file}: {from}"));
        section = &text[at + 1..];
        let level = from.split(' ').next().unwrap_or_default();
        if let Some(end) = section[from.len()..].find(&format!("\n{level} ")) {
            section = &section[..from.len() + end];
        }
    }
    let mut lines = Vec::new();
    for block in section.split("```sh\n").skip(1) {
        let block = &block[..block.find("```").expect("the block's end")];
        lines.extend(
            block
                .lines()
                .map(|l| l.split(" #").next().unwrap_or("").trim().to_string())
                .filter(|l| !l.is_empty() && !l.starts_with('#')),
        );
    }
    lines
}

/// Runs `lines` one by one with `sh` in a fresh clone of a generated project, structgate
/// on `PATH`, as a newcomer would; each must succeed, and the gate must judge. The
/// install is the one line not run: the test runs the binary it built.
fn follow_on_a_fresh_clone(lines: &[String]) {
    let origin = project();
    origin.commit("the project");
    let work = tempfile::tempdir().expect("temp dir");
    let clone = work.path().join("shop");
    let git = |dir: &Path, args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(
        work.path(),
        &["clone", "-q", &origin.path().display().to_string(), "shop"],
    );
    // The origin is a working repository: let it take a push to its checked-out branch.
    origin.git_ok(&["config", "receive.denyCurrentBranch", "updateInstead"]);
    let bin = assert_cmd::cargo::cargo_bin("structgate");
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    assert!(lines.iter().any(|l| l == "structgate init"), "{lines:?}");
    let mut judged = false;
    for line in lines.iter().filter(|l| !l.starts_with("cargo install")) {
        let out = Command::new("sh")
            .args(["-c", line])
            .current_dir(&clone)
            .env("PATH", &path)
            .env("HOME", work.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env("NO_COLOR", "1")
            .output()
            .expect("sh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{line}: {out:?}");
        if line.starts_with("structgate gate") {
            assert!(
                stdout.contains(
                    "\nstructure judged 0 file(s) by the terms this branch adds (the base has \
                     none; from the merge on, the base's terms judge)\n\
                     structure judged 0 file(s) in 1 context(s), within their Limits\n"
                ),
                "{stdout}"
            );
            judged = true;
        }
    }
    assert!(judged, "no gate in {lines:?}");
}

#[test]
fn the_readme_quick_start_judges_a_fresh_clone_on_the_first_try() {
    let lines = shell_lines("README.md", "## Quick start");
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "structgate gate --require-judged",
            "git push -u origin adopt-structgate"
        ]
    );
    follow_on_a_fresh_clone(&lines);
}

/// Every command the guide's getting-started page shows, in its order: the install, the
/// Quick start of the README, and a look around.
#[test]
fn every_command_of_the_getting_started_page_runs_on_a_fresh_clone() {
    let page = shell_lines("docs/src/getting-started.md", "");
    let adopt = shell_lines(
        "docs/src/getting-started.md",
        "## Adopt it on an existing codebase",
    );
    let readme = shell_lines("README.md", "## Quick start");
    assert_eq!(
        adopt[..],
        readme[1..],
        "the README's Quick start and the guide's differ"
    );
    assert!(page.iter().any(|l| l == "structgate --version"), "{page:?}");
    follow_on_a_fresh_clone(&page);
}

/// A project whose agents load a root `AGENTS.md` (importing `docs/rules.md`), a
/// `CLAUDE.md` that imports it, and a subagent in `.claude/agents/`.
fn agent_project() -> Scenario {
    let s = project();
    s.write("AGENTS.md", "# Agents\n\nFollow @docs/rules.md.\n");
    s.write("docs/rules.md", "# Rules\n\nKeep methods short.\n");
    s.write("CLAUDE.md", "@AGENTS.md\n");
    s.write(".claude/agents/reviewer.md", "# Reviewer\n");
    s.write("docs/unrelated.md", "# Not loaded by any agent\n");
    s
}

#[test]
fn init_budgets_the_documents_agents_load_in_a_context_of_their_own() {
    let s = agent_project();
    let run = s.run(&["init"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    insta::assert_snapshot!("agent_docs_stdout", exact(&s.redact(&run.stdout)));
    insta::assert_snapshot!(
        "agent_docs_context_yaml",
        exact(&s.read(".structgate/agent-docs/context.yaml"))
    );
    insta::assert_snapshot!(
        "agent_docs_structure_baseline_tsv",
        exact(&s.read(".structgate/agent-docs/structure-baseline.tsv"))
    );
    // Adopted on main; a branch that grows the root AGENTS.md by 9 bytes fails.
    s.commit("adopt");
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write(
        "AGENTS.md",
        "# Agents\n\nFollow @docs/rules.md.\nBe brief.\n",
    );
    let gate = s.gate(&["--require-judged"]);
    assert_eq!(gate.code, 1, "{gate:?}");
    insta::assert_snapshot!(
        "agent_docs_grown_gate_text",
        common::after_base(&gate.stdout).join("\n")
    );
}

#[test]
fn init_without_agent_docs_writes_only_the_code_context() {
    let s = agent_project();
    let run = s.run(&["init", "--no-agent-docs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stdout.contains("agent documents"), "{}", run.stdout);
    assert!(!s.abs(".structgate").exists());
}

#[test]
fn init_refuses_an_existing_agent_docs_context_and_writes_nothing() {
    let s = agent_project();
    s.write(".structgate/agent-docs/principles.md", "# mine\n");
    let run = s.run(&["init"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: .structgate/agent-docs/principles.md already exists: structgate init writes \
         nothing over them, and wrote nothing\n"
    );
    assert!(!s.abs("context.yaml").exists());
}
