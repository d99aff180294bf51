//! `structgate init [--lang LANG]... [DIR]`: sets a context up in one step — a
//! `context.yaml` whose sources come from the project files found under DIR, a
//! `principles.md` with default Limits — then validates it as `limits` does and writes
//! its baseline as `baseline init` does, through those commands' own paths.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use crate::commands::baseline::{self, BaselineReport};
use crate::commands::Workspace;
use crate::measure::Options;
use crate::relpath;

mod sources;

pub use sources::{Found, Project};

/// The Limits `init` writes: `function_lines: 55` with `tolerance_percent: 25`, and a
/// default for every other code metric (docs/src/reference/metrics.md#what-structgate-init-writes).
pub const DEFAULT_LIMITS: [(&str, u64); 5] = [
    ("function_lines", 55),
    ("type_lines", 400),
    ("file_lines", 1000),
    ("types_per_file", 10),
    ("tolerance_percent", 25),
];

/// The files `init` writes, beside each other in DIR.
const WRITTEN: [&str; 3] = ["context.yaml", "principles.md", "structure-baseline.tsv"];

pub struct Request {
    pub cwd: PathBuf,
    /// The context directory, relative to `cwd`.
    pub dir: PathBuf,
    /// Only the project files of these languages (all without one).
    pub langs: Vec<Project>,
    pub options: Options,
    pub cache: bool,
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
    /// What `baseline init` did.
    pub baseline: BaselineReport,
    /// The paths to commit, from the user's directory.
    pub to_commit: Vec<String>,
}

pub fn run(request: &Request) -> Result<InitReport> {
    let ws = Workspace::open(&request.cwd)?;
    let rel = ws.relative(&request.cwd, &request.dir)?;
    let abs = ws.tree.abs(&rel);
    if !abs.is_dir() {
        bail!("{}: not a directory", request.dir.display());
    }
    let shown = |name: &str| shown_path(&request.dir, name);
    let existing: Vec<String> = WRITTEN
        .iter()
        .filter(|name| abs.join(name).symlink_metadata().is_ok())
        .map(|name| shown(name))
        .collect();
    if !existing.is_empty() {
        bail!(
            "{} already exist{}: structgate init writes nothing over them, and wrote nothing",
            existing.join(", "),
            if existing.len() == 1 { "s" } else { "" }
        );
    }
    let sources = sources::find(&abs, &request.langs);
    write(&abs.join("context.yaml"), &context_yaml(&rel, &sources))?;
    write(
        &abs.join("principles.md"),
        &principles_md(&ws.repo_name, &rel),
    )?;
    let contexts = vec![request.dir.clone()];
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
    Ok(InitReport {
        dir: relpath::shown(&rel).to_string(),
        written: WRITTEN[..2].iter().map(|n| shown(n)).collect(),
        sources,
        baseline,
        to_commit: WRITTEN.iter().map(|n| shown(n)).collect(),
    })
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

/// A `principles.md` whose `## Limits` carries [`DEFAULT_LIMITS`].
fn principles_md(repo_name: &str, rel: &str) -> String {
    let name = match relpath::file_name(rel) {
        "" => repo_name,
        last => last,
    };
    let fence: String = DEFAULT_LIMITS
        .iter()
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
