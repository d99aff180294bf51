//! `structgate init` (docs/src/commands/init.md): a context set up from the project files,
//! its validation and baseline; the README's Quick start and every command of the guide's
//! getting-started page, followed line by line on a fresh clone.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{cs_class, rs_fn, Scenario};

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
    assert_eq!(
        run.stdout,
        "wrote context.yaml, principles.md\n\
         sources, from the project files found (check them in context.yaml):\n\
         \x20 crates/engine  a workspace member in Cargo.toml\n\
         \x20 src/Shop.Api   from src/Shop.Api/Shop.Api.csproj\n\
         limits: function_lines 55, function_params 6, function_nesting 4, \
         function_cyclomatic 15, function_cognitive 15, type_lines 400, file_lines 1000, \
         types_per_file 10, tolerance_percent 25\n\
         SHOP: wrote structure-baseline.tsv with 1 unit(s)\n\
         next: commit them on a branch and gate it (until it merges, the gate judges it by \
         the terms it adds), then open the pull request:\n\
         \x20 git switch -c adopt-structgate\n\
         \x20 git add context.yaml principles.md structure-baseline.tsv\n\
         \x20 git commit -m \"Adopt structgate: Limits and baseline\"\n\
         \x20 structgate gate --require-judged\n\
         \x20 git push -u origin adopt-structgate\n"
            .replace("SHOP", &repo_name(s.path()))
    );
    assert_eq!(
        s.read("context.yaml"),
        "# structgate: the directories this context owns (docs/src/reference/contexts.md in structgate's guide).\n\
         # workdir is relative to the repository root, sources to workdir.\n\
         meta:\n  workdir: .\n\
         sources:\n\
         \x20 - crates/engine   # a workspace member in Cargo.toml\n\
         \x20 - src/Shop.Api   # from src/Shop.Api/Shop.Api.csproj\n"
    );
    assert!(
        s.read("principles.md").contains("## Limits\n\n")
            && s.read("principles.md").contains(
                "```yaml\nfunction_lines: 55\nfunction_params: 6\nfunction_nesting: 4\n\
             function_cyclomatic: 15\nfunction_cognitive: 15\ntype_lines: 400\n\
             file_lines: 1000\ntypes_per_file: 10\ntolerance_percent: 25\n```\n"
            ),
        "{}",
        s.read("principles.md")
    );
    assert!(
        s.read("structure-baseline.tsv")
            .ends_with("src/Shop.Api/Orders.cs\tOrders.Place\tfunction_lines\t70\n"),
        "{}",
        s.read("structure-baseline.tsv")
    );
    let limits = s.run(&["limits"]);
    assert_eq!(limits.code, 0, "{limits:?}");
}

fn repo_name(path: &Path) -> String {
    path.canonicalize()
        .expect("canonical")
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_string()
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
    assert!(
        run.stdout.starts_with(
            "wrote crates/context.yaml, crates/principles.md\n\
             sources, from the project files found (check them in crates/context.yaml):\n\
             \x20 engine/src  from engine/Cargo.toml\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "  git add crates/context.yaml crates/principles.md crates/structure-baseline.tsv\n"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(
        s.read("crates/context.yaml")
            .lines()
            .skip(2)
            .collect::<Vec<_>>(),
        [
            "meta:",
            "  workdir: crates",
            "sources:",
            "  - engine/src   # from engine/Cargo.toml"
        ]
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
    let shown: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        shown[5..12],
        [
            "agent documents: 4 budgeted by the context in .structgate/agent-docs (each pinned at its size; a new one within 32768 bytes):",
            "  .claude/agents/reviewer.md",
            "  AGENTS.md",
            "  CLAUDE.md",
            "  docs/rules.md",
            "agent document limits: file_bytes 32768, new_file_bytes 32768, loaded_bytes 65536, chain_bytes 32768, pinned [file_bytes, loaded_bytes], tolerance_percent 0",
            &format!("{}: wrote structure-baseline.tsv with 1 unit(s)", repo_name(s.path())),
        ]
    );
    assert_eq!(
        shown[12..14],
        [
            "agent-docs: wrote .structgate/agent-docs/structure-baseline.tsv with 8 unit(s)",
            "next: commit them on a branch and gate it (until it merges, the gate judges it by \
             the terms it adds), then open the pull request:",
        ]
    );
    assert_eq!(
        shown[15],
        "  git add context.yaml principles.md structure-baseline.tsv \
         .structgate/agent-docs/context.yaml .structgate/agent-docs/principles.md \
         .structgate/agent-docs/structure-baseline.tsv"
    );
    assert_eq!(
        s.read(".structgate/agent-docs/context.yaml"),
        "# structgate: the documents agents load, each with a byte budget (the guide's\n\
         # \"Agent documents\"). workdir is relative to the repository root, sources to it.\n\
         meta:\n  name: agent-docs\n  workdir: .\n\
         sources:\n  - \".claude/agents\"\n  - AGENTS.md\n  - CLAUDE.md\n  - docs/rules.md\n"
    );
    let baseline = s.read(".structgate/agent-docs/structure-baseline.tsv");
    let entries: Vec<&str> = baseline.lines().skip(4).collect();
    assert_eq!(
        entries,
        [
            ".claude/agents/reviewer.md\treviewer.md\tfile_bytes\t11",
            ".claude/agents/reviewer.md\treviewer.md\tloaded_bytes\t11",
            "AGENTS.md\tAGENTS.md\tfile_bytes\t33",
            "AGENTS.md\tAGENTS.md\tloaded_bytes\t62",
            "CLAUDE.md\tCLAUDE.md\tfile_bytes\t11",
            "CLAUDE.md\tCLAUDE.md\tloaded_bytes\t73",
            "docs/rules.md\trules.md\tfile_bytes\t29",
            "docs/rules.md\trules.md\tloaded_bytes\t29",
        ]
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
    assert_eq!(
        common::after_base(&gate.stdout),
        [
            "structure judged 2 file(s) in 2 context(s): 3 value(s) grown past their pin",
            "AGENTS.md:1 AGENTS.md: file_bytes 43 > pinned 33 (+10; limit 32768, band 32768)",
            "AGENTS.md:1 AGENTS.md: loaded_bytes 72 > pinned 62 (+10; limit 65536, band 65536)",
            "CLAUDE.md:1 CLAUDE.md: loaded_bytes 83 > pinned 73 (+10; limit 65536, band 65536) \
             (imports changed: AGENTS.md)",
        ]
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
