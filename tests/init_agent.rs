//! `structgate init --agent claude|codex`: the hook merged into the hosts' project settings,
//! everything else in them kept, idempotent, a file that doesn't parse refused.

use crate::common::Scenario;

/// A Claude Code project settings file with keys and hooks of its own, indented by 4.
const CLAUDE_SETTINGS: &str = r#"{
    "permissions": {
        "allow": ["Bash(npm run lint)", "Read(~/.zshrc)"],
        "deny": ["Read(./.env)"]
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./scripts/guard.sh"}]
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Write",
                "hooks": [{"type": "command", "command": "npx prettier --write"}]
            }
        ]
    },
    "env": {"FOO": "bar"}
}
"#;

const CLAUDE_MERGED: &str = r#"{
    "permissions": {
        "allow": [
            "Bash(npm run lint)",
            "Read(~/.zshrc)"
        ],
        "deny": [
            "Read(./.env)"
        ]
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "./scripts/guard.sh"
                    }
                ]
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Write",
                "hooks": [
                    {
                        "type": "command",
                        "command": "npx prettier --write"
                    }
                ]
            },
            {
                "matcher": "Edit|Write|MultiEdit|NotebookEdit",
                "hooks": [
                    {
                        "type": "command",
                        "command": "structgate hook"
                    }
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "structgate hook"
                    }
                ]
            }
        ]
    },
    "env": {
        "FOO": "bar"
    }
}
"#;

const CODEX_CREATED: &str = r#"{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "apply_patch",
        "hooks": [
          {
            "type": "command",
            "command": "structgate hook"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "structgate hook"
          }
        ]
      }
    ]
  }
}
"#;

#[test]
fn on_a_set_up_repository_only_the_hooks_are_merged_and_everything_else_is_kept() {
    let s = Scenario::feature_of_inventory();
    s.write(".claude/settings.json", CLAUDE_SETTINGS);
    let principles = s.read("principles.md");
    let run = s.run(&["init", "--agent", "claude", "--agent", "codex"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        ".claude/settings.json: added `structgate hook` on PostToolUse (matcher \
         Edit|Write|MultiEdit|NotebookEdit) and Stop\n\
         .codex/hooks.json: created, running `structgate hook` on PostToolUse (matcher \
         apply_patch) and Stop\n"
    );
    assert_eq!(s.read(".claude/settings.json"), CLAUDE_MERGED);
    assert_eq!(s.read(".codex/hooks.json"), CODEX_CREATED);
    assert_eq!(s.read("principles.md"), principles);
    assert_eq!(
        s.git_ok(&["status", "--short"]),
        "?? .claude/\n?? .codex/\n"
    );
}

#[test]
fn a_second_run_adds_nothing_and_says_so() {
    let s = Scenario::feature_of_inventory();
    s.write(".claude/settings.json", CLAUDE_SETTINGS);
    assert_eq!(s.run(&["init", "--agent", "claude"]).code, 0);
    let again = s.run(&["init", "--agent", "claude", "--agent", "claude"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(
        again.stdout,
        ".claude/settings.json: already runs `structgate hook`; nothing added\n"
    );
    assert_eq!(s.read(".claude/settings.json"), CLAUDE_MERGED);
}

#[test]
fn a_settings_file_that_does_not_parse_is_refused_and_nothing_is_written() {
    let s = Scenario::feature_of_inventory();
    let broken = "{\n  \"hooks\": {,\n}\n";
    s.write(".claude/settings.json", broken);
    let run = s.run(&["init", "--agent", "codex", "--agent", "claude"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: .claude/settings.json: not JSON (key must be a string at line 2 column 13); \
         structgate init wrote nothing\n"
    );
    assert_eq!(s.read(".claude/settings.json"), broken);
    assert!(!s.abs(".codex").exists());
    s.write(".claude/settings.json", "{\"hooks\": []}\n");
    let run = s.run(&["init", "--agent", "claude"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: .claude/settings.json: \"hooks\" is not an object; structgate init \
             wrote nothing\n"
        )
    );
}

#[test]
fn on_a_new_repository_the_context_is_set_up_and_the_hooks_added() {
    let s = Scenario::git();
    s.write("src/lib.rs", "fn f() {}\n");
    let run = s.run(&["init", "--agent", "codex", "--no-agent-docs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.abs("context.yaml").is_file());
    assert_eq!(s.read(".codex/hooks.json"), CODEX_CREATED);
    let line = ".codex/hooks.json: created, running `structgate hook` on PostToolUse \
                (matcher apply_patch) and Stop";
    assert!(run.stdout.lines().any(|l| l == line), "{}", run.stdout);
}
