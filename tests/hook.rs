//! `structgate hook` driven the way Claude Code and Codex drive it: a recorded event on
//! stdin, the exit code and stderr the host hands the model.

use crate::common::{cs_class, exact, Scenario, BAND_12};

/// A Claude Code `PostToolUse` event for the `Edit` tool on `file` (absolute), as the host
/// sends it.
fn claude_edit(s: &Scenario, file: &str) -> String {
    let abs = s.abs(file);
    let cwd = s.path().display().to_string();
    serde_json::json!({
        "session_id": "7f3c1a52-9d0e-4b8a-a1f6-2c4e8d9b0a17",
        "transcript_path": format!("{cwd}/.claude/projects/demo/7f3c1a52.jsonl"),
        "cwd": cwd,
        "permission_mode": "acceptEdits",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {
            "file_path": abs,
            "old_string": "        var x0 = 0;\n",
            "new_string": "        var x0 = 0;\n        var y = 1;\n",
            "replace_all": false
        },
        "tool_response": {
            "filePath": abs,
            "oldString": "        var x0 = 0;\n",
            "newString": "        var x0 = 0;\n        var y = 1;\n",
            "originalFile": "public class Small\n{\n}\n",
            "structuredPatch": [{"oldStart": 5, "oldLines": 1, "newStart": 5, "newLines": 2,
                                 "lines": [" var x0 = 0;", "+var y = 1;"]}],
            "userModified": false,
            "replaceAll": false
        },
        "tool_use_id": "toolu_01HXm8cZ3fJ7kq9TnVb2Wd4R"
    })
    .to_string()
}

/// A Claude Code `Stop` event.
fn claude_stop(s: &Scenario, active: bool) -> String {
    let cwd = s.path().display().to_string();
    serde_json::json!({
        "session_id": "7f3c1a52-9d0e-4b8a-a1f6-2c4e8d9b0a17",
        "transcript_path": format!("{cwd}/.claude/projects/demo/7f3c1a52.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        "last_assistant_message": "Done: Small.Run now also sets y."
    })
    .to_string()
}

/// The feature branch with `Small.Run` grown to `lines` lines in the working tree.
fn small_run_of(lines: usize) -> Scenario {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", lines)]));
    s
}

const WHAT_TO_DO: &str = "Split the unit (or the file) into smaller ones; the limits are in \
     principles.md and the baseline in structure-baseline.tsv, and neither is to be changed.\n";

#[test]
fn an_edit_past_the_band_exits_2_with_the_finding_and_what_to_do_for_the_model() {
    let s = small_run_of(14);
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Small.cs"));
    assert_eq!(run.code, 2, "{run:?}");
    insta::assert_snapshot!("edit_past_the_band_stderr", exact(&run.stderr));
    assert_eq!(run.stdout, "");
}

#[test]
fn a_baselined_unit_grown_past_its_entry_names_the_baseline() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Big.cs", &cs_class("Big", &[("Old", 21)]));
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Big.cs"));
    assert_eq!(run.code, 2, "{run:?}");
    let second = run.stderr.lines().nth(1);
    assert_eq!(
        second,
        Some("src/Big.cs:3 Big.Old: function_lines 21 > 10 (band 12, baseline 20)")
    );
}

/// The answer after an edit reads the base's trees only where the base and the index
/// differ (docs/src/reference/hook.md#speed): here a directory's tree the index vouches for
/// is missing from the object store, as in a partial clone, and the answer is the same.
#[test]
fn an_edit_is_answered_without_the_trees_the_index_vouches_for() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
    s.write("tools/deep/Gen.cs", &cs_class("Gen", &[("Long", 3)]));
    s.cut_feature();
    let tools = s.git_ok(&["rev-parse", "main:tools"]);
    let tools = tools.trim();
    let objects = s.path().join(".git/objects").join(&tools[..2]);
    std::fs::remove_file(objects.join(&tools[2..])).expect("a loose tree object");
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 14)]));
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Small.cs"));
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr.lines().nth(1),
        Some("src/Small.cs:3 Small.Run: function_lines 14 > 10 (band 12)")
    );
}

#[test]
fn a_clean_edit_exits_0_silently_and_judges_only_the_edited_file() {
    let s = small_run_of(8);
    // Another file past its band in the working tree is not this edit's business.
    s.write("src/Other.cs", &cs_class("Other", &[("Long", 30)]));
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Small.cs"));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
}

#[test]
fn a_divergence_is_one_line_on_stderr_and_exit_0() {
    let s = small_run_of(11);
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Small.cs"));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "structgate: within tolerance, not blocking: \
         src/Small.cs:3 Small.Run: function_lines 11 > 10 (band 12)\n"
    );
}

#[test]
fn an_edit_no_judged_context_owns_or_outside_the_repository_is_silent() {
    let s = Scenario::feature_of_inventory();
    s.write("tools/Gen.cs", &cs_class("Gen", &[("Long", 30)]));
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "tools/Gen.cs"));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    let outside = tempfile::tempdir().expect("temp dir");
    let file = outside.path().join("Far.cs");
    std::fs::write(&file, cs_class("Far", &[("Long", 30)])).expect("write");
    let event = claude_edit(&s, "x").replace(
        &s.abs("x").display().to_string(),
        &file.display().to_string(),
    );
    let run = s.run_stdin(&["hook"], &event);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
}

#[test]
fn a_bash_tool_or_an_event_naming_no_file_is_silent() {
    let s = small_run_of(14);
    let cwd = s.path().display().to_string();
    let bash = serde_json::json!({
        "session_id": "7f3c1a52-9d0e-4b8a-a1f6-2c4e8d9b0a17",
        "transcript_path": format!("{cwd}/.claude/projects/demo/7f3c1a52.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "dotnet build", "description": "Build the solution"},
        "tool_response": {"stdout": "Build succeeded.", "stderr": "", "interrupted": false,
                          "isImage": false},
        "tool_use_id": "toolu_01Q3zV8mFJ2kLr5XcT9bNw7E"
    });
    let run = s.run_stdin(&["hook"], &bash.to_string());
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    let mut no_file =
        serde_json::from_str::<serde_json::Value>(&claude_edit(&s, "src/Small.cs")).expect("json");
    no_file["tool_input"] = serde_json::json!({"old_string": "a", "new_string": "b"});
    let run = s.run_stdin(&["hook"], &no_file.to_string());
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
}

#[test]
fn stop_judges_the_whole_branch_and_blocks_once() {
    let s = small_run_of(8);
    s.write("src/Other.cs", &cs_class("Other", &[("Long", 30)]));
    let run = s.run_stdin(&["hook"], &claude_stop(&s, false));
    assert_eq!(run.code, 2, "{run:?}");
    insta::assert_snapshot!("stop_stderr", exact(&run.stderr));
    let again = s.run_stdin(&["hook"], &claude_stop(&s, true));
    assert_eq!(again.code, 0, "{again:?}");
    insta::assert_snapshot!("stop_again_stderr", exact(&again.stderr));
}

#[test]
fn a_subagent_stop_within_the_limits_passes_silently() {
    let s = small_run_of(8);
    let event = claude_stop(&s, false).replace("\"Stop\"", "\"SubagentStop\"");
    let run = s.run_stdin(&["hook"], &event);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
}

#[test]
fn a_malformed_event_is_reported_and_never_blocks_unless_strict() {
    let s = small_run_of(14);
    let run = s.run_stdin(&["hook"], "Edit src/Small.cs\n");
    assert_eq!(run.code, 0, "{run:?}");
    let error = "structgate hook: error: the hook event on stdin is not JSON: \
                 expected value at line 1 column 1\n";
    assert_eq!(run.stderr, error);
    let strict = s.run_stdin(&["hook", "--strict"], "Edit src/Small.cs\n");
    assert_eq!((strict.code, strict.stderr.as_str()), (2, error));
    let nameless = s.run_stdin(&["hook"], "{\"cwd\": \"/\"}");
    assert_eq!(
        (nameless.code, nameless.stderr.as_str()),
        (
            0,
            "structgate hook: error: the hook event on stdin has no \"hook_event_name\"\n"
        )
    );
}

#[test]
fn not_judged_is_one_line_and_exit_0() {
    let s = Scenario::inventory(crate::common::BAND_12);
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 14)]));
    let run = s.run_stdin(&["hook"], &claude_edit(&s, "src/Small.cs"));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "structgate: structure not judged: no comparable base: HEAD has no commit yet\n"
    );
}

#[test]
fn a_codex_apply_patch_judges_the_files_the_patch_adds_updates_or_moves_to() {
    let s = small_run_of(14);
    s.write("src/Added.cs", &cs_class("Added", &[("Go", 13)]));
    let cwd = s.path().display().to_string();
    let patch = "*** Begin Patch\n*** Update File: src/Small.cs\n@@\n         var x0 = 0;\n\
                 +        var y = 1;\n*** Add File: src/Added.cs\n+public class Added\n\
                 *** Delete File: src/Gone.cs\n*** End Patch\n";
    let event = serde_json::json!({
        "session_id": "019a4f2e-7c1b-7d30-9e52-4b8f0c6a1d93",
        "transcript_path": null,
        "cwd": cwd,
        "hook_event_name": "PostToolUse",
        "model": "gpt-5-codex",
        "turn_id": "019a4f2e-8d4c-7a11-b6e0-5f2a9c3d7e18",
        "tool_name": "apply_patch",
        "tool_use_id": "call_Yk3nR8wQ2vL6pT0sX5mJ9bHc",
        "tool_input": {"command": patch},
        "tool_response": "Success. Updated the following files:\nM src/Small.cs\nA src/Added.cs\n"
    });
    let run = s.run_stdin(&["hook"], &event.to_string());
    assert_eq!(run.code, 2, "{run:?}");
    insta::assert_snapshot!("codex_apply_patch_stderr", exact(&run.stderr));
}

#[test]
fn format_json_answers_with_the_protocols_block_object_and_exit_0() {
    let s = small_run_of(14);
    let run = s.run_stdin(
        &["hook", "--format", "json"],
        &claude_edit(&s, "src/Small.cs"),
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let reason = format!(
        "structgate: the edit puts code past its structure limits\n\
         src/Small.cs:3 Small.Run: function_lines 14 > 10 (band 12)\n{}",
        WHAT_TO_DO.trim_end()
    );
    assert_eq!(
        answer,
        serde_json::json!({"decision": "block", "reason": reason})
    );
    let clean = small_run_of(8);
    let run = clean.run_stdin(
        &["hook", "--format", "json"],
        &claude_edit(&clean, "src/Small.cs"),
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{run:?}");
}
