//! A hook event as Claude Code and Codex send it on stdin (docs/src/reference/hook.md#events):
//! one JSON object with `hook_event_name` and `cwd`; a `PostToolUse` also carries
//! `tool_name` and `tool_input`, a `Stop` or `SubagentStop` `stop_hook_active`.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use serde_json::{Map, Value};

/// The tools whose `tool_input` names the one file they wrote (Claude Code).
const FILE_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];
/// Codex's file-editing tool: its `tool_input.command` is the patch.
const PATCH_TOOL: &str = "apply_patch";
/// The lines of an `apply_patch` envelope that name a file the patch leaves written.
const PATCH_WRITES: [&str; 3] = ["*** Add File: ", "*** Update File: ", "*** Move to: "];

/// What an event asks of the hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A file-writing tool ran: the files it wrote, as the payload names them (absolute,
    /// or relative to `cwd`).
    Edit { files: Vec<String> },
    /// The agent (or a subagent) is about to stop.
    Stop { active: bool },
    /// Another event or tool, or an edit that names no file: nothing to judge.
    Nothing,
}

/// One parsed payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    pub event: Event,
    /// The session's working directory, when the payload gives one.
    pub cwd: Option<PathBuf>,
}

/// Parses the bytes read from stdin; an error says what is wrong with them.
pub fn parse(bytes: &[u8]) -> Result<Payload> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| anyhow!("the hook event on stdin is not JSON: {e}"))?;
    let Value::Object(object) = value else {
        bail!("the hook event on stdin is not a JSON object");
    };
    let name = text(&object, "hook_event_name")?
        .ok_or_else(|| anyhow!("the hook event on stdin has no \"hook_event_name\""))?;
    let cwd = text(&object, "cwd")?.map(PathBuf::from);
    let event = match name {
        "PostToolUse" => edit(&object)?,
        "Stop" | "SubagentStop" => Event::Stop {
            active: object
                .get("stop_hook_active")
                .is_some_and(|v| v.as_bool() == Some(true)),
        },
        _ => Event::Nothing,
    };
    Ok(Payload { event, cwd })
}

/// The string at `key`; `None` when absent or null; an error when of another type.
fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => bail!("the hook event's \"{key}\" is not a string: {other}"),
    }
}

/// The files a `PostToolUse` event's tool wrote.
fn edit(object: &Map<String, Value>) -> Result<Event> {
    let tool = text(object, "tool_name")?.unwrap_or_default();
    let Some(input) = object.get("tool_input").and_then(Value::as_object) else {
        return Ok(Event::Nothing);
    };
    let files = if FILE_TOOLS.contains(&tool) {
        let path = text(input, "file_path")?.or(text(input, "notebook_path")?);
        path.map(str::to_string).into_iter().collect()
    } else if tool == PATCH_TOOL {
        patch_files(input.get("command"))
    } else {
        Vec::new()
    };
    Ok(if files.is_empty() {
        Event::Nothing
    } else {
        Event::Edit { files }
    })
}

/// The files an `apply_patch` envelope leaves written: those it adds, updates or moves
/// to (a file it deletes, or moves away from, is judged by nothing). The patch is a
/// string, or the last string of an argument list (`["apply_patch", "*** Begin Patch..."]`).
fn patch_files(command: Option<&Value>) -> Vec<String> {
    let patch = match command {
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Array(args)) => args.iter().rev().find_map(Value::as_str).unwrap_or(""),
        _ => "",
    };
    let mut files: Vec<String> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        if let Some(path) = line.strip_prefix("*** Move to: ") {
            // The update before it named the old path, gone now.
            files.pop();
            files.push(path.trim().to_string());
            continue;
        }
        let named = PATCH_WRITES.iter().find_map(|p| line.strip_prefix(p));
        if let Some(path) = named.map(str::trim).filter(|p| !p.is_empty()) {
            files.push(path.to_string());
        }
    }
    files.dedup();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codex_patch_names_the_files_it_adds_updates_and_moves_to() {
        let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+fn a() {}\n\
                     *** Update File: src/old.rs\n*** Move to: src/moved.rs\n@@\n-a\n+b\n\
                     *** Delete File: src/gone.rs\n*** Update File: src/lib.rs\n@@\n-x\n+y\n\
                     *** End Patch\n";
        let files = patch_files(Some(&Value::String(patch.into())));
        assert_eq!(files, ["src/new.rs", "src/moved.rs", "src/lib.rs"]);
        let argv = serde_json::json!(["apply_patch", "*** Begin Patch\n*** Add File: a.rs\n"]);
        assert_eq!(patch_files(Some(&argv)), ["a.rs"]);
    }
}
