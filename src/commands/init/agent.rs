//! `structgate init --agent claude|codex` (docs/src/reference/hook.md#settings): the
//! `structgate hook` entries merged into an agent host's project settings, the rest of
//! the file kept as it was (its keys in their order); a file already holding them is left
//! alone, and one that doesn't parse is refused before anything is written.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::{Map, Value};

/// The command each hook entry runs.
pub const HOOK_COMMAND: &str = "structgate hook";

/// An agent host whose hook settings `init --agent` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Agent {
    // Claude Code: `.claude/settings.json` (no doc comments: clap would make them help).
    Claude,
    // Codex: `.codex/hooks.json`.
    Codex,
}

impl Agent {
    /// The settings file, relative to the repository root.
    pub fn settings_path(self) -> &'static str {
        match self {
            Agent::Claude => ".claude/settings.json",
            Agent::Codex => ".codex/hooks.json",
        }
    }

    /// The events the hook runs on, each with its tool matcher (`None`: the event takes
    /// none).
    pub fn events(self) -> [(&'static str, Option<&'static str>); 2] {
        let edits = match self {
            Agent::Claude => "Edit|Write|MultiEdit|NotebookEdit",
            Agent::Codex => "apply_patch",
        };
        [("PostToolUse", Some(edits)), ("Stop", None)]
    }
}

/// What `init --agent` did to one host's settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub agent: Agent,
    /// The settings file, repository-relative.
    pub path: String,
    /// The events an entry was added to, with their matcher; empty when the file already
    /// ran `structgate hook` on every one.
    pub events: Vec<(String, Option<String>)>,
    /// True when the file did not exist before.
    pub created: bool,
}

/// One host's settings, merged in memory, not yet written.
pub struct Planned {
    pub added: Added,
    abs: PathBuf,
    text: Option<String>,
}

/// Reads and merges every host's settings under the repository `root`; an error names a
/// file that doesn't parse, or whose `hooks` aren't what the hosts read, before anything
/// is written.
pub fn plan(root: &Path, agents: &[Agent]) -> Result<Vec<Planned>> {
    let mut agents = agents.to_vec();
    agents.sort();
    agents.dedup();
    agents.into_iter().map(|a| plan_one(root, a)).collect()
}

/// Writes what [`plan`] merged (a file already holding the hooks is not touched).
pub fn write(planned: Vec<Planned>) -> Result<Vec<Added>> {
    let mut done = Vec::new();
    for p in planned {
        if let Some(text) = &p.text {
            let dir = p.abs.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let tmp = p.abs.with_extension("json.structgate-tmp");
            std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, &p.abs)
                .with_context(|| format!("writing {}", p.abs.display()))?;
        }
        done.push(p.added);
    }
    Ok(done)
}

fn plan_one(root: &Path, agent: Agent) -> Result<Planned> {
    let path = agent.settings_path();
    let abs = root.join(path);
    let existing = match std::fs::read_to_string(&abs) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {path}")),
    };
    let mut settings = match &existing {
        Some(text) => serde_json::from_str::<Value>(text)
            .map_err(|e| anyhow!("{path}: not JSON ({e}); structgate init wrote nothing"))?,
        None => Value::Object(Map::new()),
    };
    let events = merge(&mut settings, agent).map_err(|e| anyhow!("{path}: {e}"))?;
    let text = (!events.is_empty()).then(|| render(&settings, existing.as_deref()));
    Ok(Planned {
        added: Added {
            agent,
            path: path.to_string(),
            events,
            created: existing.is_none(),
        },
        abs,
        text,
    })
}

/// Adds a `structgate hook` entry to each of the agent's events that runs none; gives
/// the events added to.
fn merge(settings: &mut Value, agent: Agent) -> Result<Vec<(String, Option<String>)>> {
    let Value::Object(top) = settings else {
        bail!("not a JSON object; structgate init wrote nothing");
    };
    let hooks = top
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        bail!("\"hooks\" is not an object; structgate init wrote nothing");
    };
    let mut added = Vec::new();
    for (event, matcher) in agent.events() {
        let groups = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            bail!("\"hooks.{event}\" is not a list; structgate init wrote nothing");
        };
        if groups.iter().any(runs_the_hook) {
            continue;
        }
        let mut group = Map::new();
        if let Some(m) = matcher {
            group.insert("matcher".into(), Value::String(m.into()));
        }
        let command = serde_json::json!({"type": "command", "command": HOOK_COMMAND});
        group.insert("hooks".into(), Value::Array(vec![command]));
        groups.push(Value::Object(group));
        added.push((event.to_string(), matcher.map(String::from)));
    }
    Ok(added)
}

/// True when a matcher group already runs `structgate hook` (with any arguments).
fn runs_the_hook(group: &Value) -> bool {
    let commands = group.get("hooks").and_then(Value::as_array);
    commands.into_iter().flatten().any(|h| {
        h.get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| c.trim() == HOOK_COMMAND || c.trim().starts_with("structgate hook "))
    })
}

/// The settings as pretty JSON, indented as the file was (two spaces for a new file),
/// with a final newline.
fn render(settings: &Value, existing: Option<&str>) -> String {
    let indent = existing
        .and_then(indent_of)
        .unwrap_or_else(|| "  ".to_string());
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    serde::Serialize::serialize(settings, &mut ser).expect("a JSON value serializes");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    text.push('\n');
    text
}

/// The indentation of the first indented line of `text`.
fn indent_of(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let body = line.trim_start_matches([' ', '\t']);
        let indent = &line[..line.len() - body.len()];
        (!indent.is_empty() && !body.is_empty()).then(|| indent.to_string())
    })
}
