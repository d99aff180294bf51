//! `structgate init [--lang LANG]... [DIR]`: sets a context up in one step — a
//! `context.yaml` whose sources come from the project files found under DIR, a
//! `principles.md` with default Limits — then validates it as `limits` does and writes
//! its baseline as `baseline init` does, through those commands' own paths.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use crate::commands::baseline::{self, BaselineReport};
use crate::commands::Workspace;
use crate::measure::Options;
use crate::model::Language;
use crate::relpath;

pub mod agent;
mod agent_docs;
mod sources;

pub use agent_docs::AgentDocs;
pub use sources::Found;

/// The files `init` writes, beside each other in DIR.
const WRITTEN: [&str; 3] = ["context.yaml", "principles.md", "structure-baseline.tsv"];

/// Where, in DIR, `init` puts the context that budgets the documents agents load.
pub const AGENT_DOCS_DIR: &str = ".structgate/agent-docs";

/// The Limits of that context: every document pinned at its size (file_bytes and
/// loaded_bytes), a new document held to 32 KiB (what Codex reads of a project document,
/// its `project_doc_max_bytes`), a document with its eager imports to 64 KiB, and a
/// chain of same-name documents (every `AGENTS.md` from the root down) to 32 KiB.
pub const AGENT_DOCS_LIMITS: [(&str, &str); 6] = [
    ("file_bytes", "32768"),
    ("new_file_bytes", "32768"),
    ("loaded_bytes", "65536"),
    ("chain_bytes", "32768"),
    ("pinned", "[file_bytes, loaded_bytes]"),
    ("tolerance_percent", "0"),
];

pub struct Request {
    pub cwd: PathBuf,
    /// The context directory, relative to `cwd`.
    pub dir: PathBuf,
    /// Only the project files of these languages (all without one).
    pub langs: Vec<Language>,
    pub options: Options,
    pub cache: bool,
    /// Budget the documents agents load in a context of their own (`--no-agent-docs`
    /// turns it off).
    pub agent_docs: bool,
    /// `--agent`: the hosts whose project hook settings get `structgate hook`.
    pub agents: Vec<agent::Agent>,
}

/// What `init` did.
#[derive(Debug)]
pub struct InitReport {
    /// The context directory, repository-relative as messages show it (`.` for the
    /// root, `httpx` for `init` run inside `httpx/`).
    pub dir: String,
    /// The files written (context.yaml, principles.md), as paths from the user's directory.
    pub written: Vec<String>,
    /// The sources, relative to the context directory, each with what named it; empty
    /// when the context owns its whole directory.
    pub sources: Vec<Found>,
    /// The agent documents found and budgeted, and where (empty when none were found or
    /// `--no-agent-docs`).
    pub agent_docs: AgentDocs,
    /// The directory of their context as the user would type it.
    pub agent_docs_dir: String,
    /// What `baseline init` did.
    pub baseline: BaselineReport,
    /// The paths to commit, from the user's directory.
    pub to_commit: Vec<String>,
    /// What `--agent` added to each host's hook settings.
    pub agents: Vec<agent::Added>,
}

pub fn run(request: &Request) -> Result<InitReport> {
    let ws = Workspace::open(&request.cwd)?;
    let rel = ws.relative(&request.cwd, &request.dir)?;
    let abs = ws.tree.abs(&rel);
    if !abs.is_dir() {
        bail!("{}: not a directory", request.dir.display());
    }
    let agent_docs = match request.agent_docs {
        true => find_agent_docs(&ws, &rel)?,
        false => AgentDocs::default(),
    };
    let agent_dir = request.dir.join(AGENT_DOCS_DIR);
    let planned = planned_files(request, !agent_docs.is_empty())?;
    let hooks = agent::plan(&ws.root, &request.agents)?;
    let sources = sources::find(&abs, &request.langs);
    write(&abs.join("context.yaml"), &context_yaml(&rel, &sources))?;
    write(
        &abs.join("principles.md"),
        &principles_md(&ws.repo_name, &rel),
    )?;
    let mut contexts = vec![request.dir.clone()];
    if !agent_docs.is_empty() {
        write_agent_context(&abs.join(AGENT_DOCS_DIR), &rel, &ws.repo_name, &agent_docs)?;
        contexts.push(agent_dir.clone());
    }
    // The validator `limits` runs: a key or a source gone wrong is an error here too.
    crate::commands::limits::run(&crate::commands::limits::Request {
        cwd: request.cwd.clone(),
        contexts: contexts.clone(),
    })?;
    let baseline = baseline::run(&baseline::Request {
        cwd: request.cwd.clone(),
        contexts,
        check: false,
        mode: baseline::Mode::Init,
        options: request.options,
        cache: request.cache,
    })?;
    let shown = |name: &str| shown_path(&request.dir, name);
    Ok(InitReport {
        dir: relpath::shown(&rel).to_string(),
        written: WRITTEN[..2].iter().map(|n| shown(n)).collect(),
        sources,
        agent_docs_dir: shown(AGENT_DOCS_DIR),
        agent_docs,
        baseline,
        to_commit: planned.iter().map(|(d, n)| shown_path(d, n)).collect(),
        agents: agent::write(hooks)?,
    })
}

/// `init --agent` on a directory already set up (its `context.yaml` exists): only the
/// hook settings are added; `None` when there is a context to set up first, or no
/// `--agent`.
pub fn hooks_only(request: &Request) -> Result<Option<Vec<agent::Added>>> {
    if request.agents.is_empty() {
        return Ok(None);
    }
    let ws = Workspace::open(&request.cwd)?;
    let rel = ws.relative(&request.cwd, &request.dir)?;
    if !ws.tree.abs(&rel).join("context.yaml").is_file() {
        return Ok(None);
    }
    let hooks = agent::plan(&ws.root, &request.agents)?;
    agent::write(hooks).map(Some)
}

/// The files `init` will write (directory, name), the agent documents' context's with
/// `agent_docs`; an error naming those that exist already: `init` writes over nothing.
fn planned_files(request: &Request, agent_docs: bool) -> Result<Vec<(PathBuf, String)>> {
    let mut planned: Vec<(PathBuf, String)> = WRITTEN
        .iter()
        .map(|name| (request.dir.clone(), name.to_string()))
        .collect();
    if agent_docs {
        let in_agent_dir = WRITTEN
            .iter()
            .map(|n| (request.dir.clone(), format!("{AGENT_DOCS_DIR}/{n}")));
        planned.extend(in_agent_dir);
    }
    let existing: Vec<String> = planned
        .iter()
        .filter(|(dir, name)| request.cwd.join(dir).join(name).symlink_metadata().is_ok())
        .map(|(dir, name)| shown_path(dir, name))
        .collect();
    if !existing.is_empty() {
        bail!(
            "{} already exist{}: structgate init writes nothing over them, and wrote nothing",
            existing.join(", "),
            if existing.len() == 1 { "s" } else { "" }
        );
    }
    Ok(planned)
}

/// The agent documents in the context directory `rel`, from the working tree's listing
/// (links left out: a budget is of files).
fn find_agent_docs(ws: &Workspace, rel: &str) -> Result<AgentDocs> {
    let prefix = if rel.is_empty() {
        String::new()
    } else {
        format!("{rel}/")
    };
    let files: Vec<String> = ws
        .tree
        .files()?
        .iter()
        .filter(|f| !f.link)
        .filter_map(|f| {
            f.name
                .shown()
                .strip_prefix(prefix.as_str())
                .map(String::from)
        })
        .collect();
    let root = ws.tree.abs(rel);
    Ok(agent_docs::find(&files, |p| {
        std::fs::read_to_string(root.join(p)).ok()
    }))
}

/// The budget context of the agent documents: its `context.yaml` (the documents, and the
/// folders agents load whole, as sources of the same workdir) and `principles.md`.
fn write_agent_context(dir: &Path, rel: &str, repo_name: &str, docs: &AgentDocs) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = match relpath::file_name(rel) {
        "" => "agent-docs".to_string(),
        last => format!("{last}-agent-docs"),
    };
    let mut yaml = format!(
        "# structgate: the documents agents load, each with a byte budget (the guide's\n\
         # \"Agent documents\"). workdir is relative to the repository root, sources to it.\n\
         meta:\n  name: {name}\n  workdir: {}\nsources:\n",
        relpath::shown(rel)
    );
    for source in &docs.sources {
        yaml.push_str(&format!("  - {}\n", yaml_string(source)));
    }
    write(&dir.join("context.yaml"), &yaml)?;
    let fence: String = AGENT_DOCS_LIMITS
        .iter()
        .map(|(key, value)| format!("{key}: {value}\n"))
        .collect();
    let title = match relpath::file_name(rel) {
        "" => repo_name,
        last => last,
    };
    write(
        &dir.join("principles.md"),
        &format!(
            "# {title} agent documents — principles\n\n\
             ## Limits\n\n\
             The documents agents load, each pinned at its size: any growth fails until\n\
             `structgate baseline accept PATH` records it, a one-line baseline change a\n\
             reviewer sees. A new document must fit in 32 KiB (what Codex reads of a project\n\
             document), a document with what it imports in 64 KiB, and an `AGENTS.md` with\n\
             every `AGENTS.md` above it in 32 KiB (Codex's cut for the whole chain).\n\n\
             ```yaml\n{fence}```\n"
        ),
    )
}

/// A path as a YAML scalar: quoted when plain YAML would read it otherwise.
fn yaml_string(path: &str) -> String {
    let plain = path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
        && !path.starts_with(['-', '.']);
    match plain {
        true => path.to_string(),
        false => format!("\"{}\"", path.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

/// `name` in `dir` as the user would type it: `context.yaml`, `services/shop/context.yaml`.
fn shown_path(dir: &Path, name: &str) -> String {
    let dir = dir.to_string_lossy();
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() || dir == "." {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// The `context.yaml` of a context in `rel` (repository-relative) with `sources`.
fn context_yaml(rel: &str, sources: &[Found]) -> String {
    let mut out = String::from(
        "# structgate: the directories this context owns (docs/src/reference/contexts.md in structgate's guide).\n\
         # workdir is relative to the repository root, sources to workdir.\n",
    );
    out.push_str(&format!("meta:\n  workdir: {}\n", relpath::shown(rel)));
    if !sources.is_empty() {
        out.push_str("sources:\n");
        for found in sources {
            out.push_str(&format!("  - {}   # {}\n", found.dir, found.why));
        }
    }
    out
}

/// A `principles.md` whose `## Limits` carries the registry's defaults
/// ([`crate::model::metric::init_defaults`]).
fn principles_md(repo_name: &str, rel: &str) -> String {
    let name = match relpath::file_name(rel) {
        "" => repo_name,
        last => last,
    };
    let fence: String = crate::model::metric::init_defaults()
        .map(|(key, value)| format!("{key}: {value}\n"))
        .collect();
    format!(
        "# {name} — principles\n\n\
         ## Limits\n\n\
         structgate's defaults: a unit past its limit by at most tolerance_percent is a\n\
         divergence a pull request names; past that band it is an excess the gate sends back.\n\
         Change them here, or override them key by key in a `### Limits` section under\n\
         `## Project Specifics`.\n\n\
         ```yaml\n{fence}```\n"
    )
}
