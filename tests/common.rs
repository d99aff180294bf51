//! Scenario repositories for the binary-level tests: a temp dir, optionally a git
//! repository built with the `git` program, and a way to run the built binary in it.
#![allow(dead_code)]

pub mod cpu;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;

pub struct Scenario {
    pub dir: tempfile::TempDir,
}

/// The result of one structgate run.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Scenario {
    /// An empty directory (not a git repository).
    pub fn plain() -> Scenario {
        Scenario {
            dir: tempfile::Builder::new()
                .prefix("sg")
                .tempdir()
                .expect("temp dir"),
        }
    }

    /// A git repository on branch `main` with no commits.
    pub fn git() -> Scenario {
        let s = Scenario::plain();
        s.git_ok(&["init", "-q", "-b", "main"]);
        s.git_ok(&["config", "user.name", "Test"]);
        s.git_ok(&["config", "user.email", "test@example.com"]);
        s.git_ok(&["config", "commit.gpgsign", "false"]);
        s
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn abs(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes a file, creating its directories.
    pub fn write(&self, rel: &str, text: &str) -> &Scenario {
        self.write_bytes(rel, text.as_bytes())
    }

    pub fn write_bytes(&self, rel: &str, bytes: &[u8]) -> &Scenario {
        let p = self.abs(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
        self
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.abs(rel)).expect("read")
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.abs(rel)).expect("remove");
    }

    /// Runs `git` in the scenario and returns its stdout; panics when it fails.
    pub fn git_ok(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.path())
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `git add -A && git commit -m msg`.
    pub fn commit(&self, msg: &str) -> String {
        self.git_ok(&["add", "-A"]);
        self.git_ok(&["commit", "-q", "--allow-empty", "-m", msg]);
        self.rev_parse("HEAD")
    }

    /// The full commit id `rev` names.
    pub fn rev_parse(&self, rev: &str) -> String {
        self.git_ok(&["rev-parse", rev]).trim().to_string()
    }

    /// A git repository holding the `inventory` context ([`INVENTORY`], owning `src`)
    /// with `limits` in its principles.md; nothing committed yet.
    pub fn inventory(limits: &str) -> Scenario {
        let s = Scenario::git();
        s.write("context.yaml", INVENTORY);
        s.write("principles.md", &principles(limits));
        s
    }

    /// The gate's usual scenario: `main` holds the `inventory` context with
    /// function_lines 10 (band 12, [`BAND_12`]), the old excess `Big.Old` (20 lines)
    /// recorded in the baseline, and `Small.Run` at 5 lines; HEAD is branch `feature`,
    /// cut from `main`.
    pub fn feature_of_inventory() -> Scenario {
        let s = Scenario::inventory(BAND_12);
        s.write("src/Big.cs", &cs_class("Big", &[("Old", 20)]));
        s.write("src/Small.cs", &cs_class("Small", &[("Run", 5)]));
        s.cut_feature();
        s
    }

    /// Runs `baseline init` (which must succeed), commits everything on `main` as
    /// `base`, and checks out a new branch `feature` there.
    pub fn cut_feature(&self) {
        let init = self.run(&["baseline", "init"]);
        assert_eq!(init.code, 0, "{init:?}");
        self.commit("base");
        self.git_ok(&["checkout", "-q", "-b", "feature"]);
    }

    /// `git worktree add -q -b BRANCH DIR main`, with DIR in a temp dir of its own: that
    /// temp dir (keep it while the worktree is used) and DIR.
    pub fn linked_worktree(&self, branch: &str) -> (tempfile::TempDir, PathBuf) {
        let other = tempfile::tempdir().expect("temp dir");
        let wt = other.path().join("wt");
        let dir = wt.to_str().expect("a UTF-8 path");
        self.git_ok(&["worktree", "add", "-q", "-b", branch, dir, "main"]);
        (other, wt)
    }

    /// `structgate gate` with `extra` arguments.
    pub fn gate(&self, extra: &[&str]) -> Run {
        self.run(&[&["gate"][..], extra].concat())
    }

    /// Runs the built binary with `args` in the scenario directory.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_in(self.path(), args)
    }

    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Run {
        self.run_env(dir, args, &[("NO_COLOR", "1")])
    }

    /// Runs the built binary in `dir` with `env` set (and `NO_COLOR` unset unless given).
    pub fn run_env(&self, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        let out = self.command(dir, args, env).output();
        Run::of(out.expect("structgate runs"))
    }

    /// [`Scenario::run`], and the CPU time the run used ([`cpu::output`]): what a test
    /// that bounds how long structgate takes measures, so that it holds on a busy machine.
    pub fn run_cpu(&self, args: &[&str]) -> (Run, Duration) {
        let mut cmd = self.command(self.path(), args, &[("NO_COLOR", "1")]);
        let (out, cpu) = cpu::output(&mut cmd);
        (Run::of(out), cpu)
    }

    /// Runs the built binary in the scenario directory with `stdin` as its input.
    pub fn run_stdin(&self, args: &[&str], stdin: &str) -> Run {
        use std::io::Write as _;
        let mut cmd = self.command(self.path(), args, &[("NO_COLOR", "1")]);
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().expect("structgate runs");
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(stdin.as_bytes()).expect("stdin written");
        drop(input);
        Run::of(child.wait_with_output().expect("structgate runs"))
    }

    /// [`Scenario::run_cpu`] with the run's memory (address space) bounded to `memory`
    /// bytes and its CPU time to `cpu` ([`cpu::output_within`]).
    pub fn run_cpu_within(&self, args: &[&str], memory: u64, cpu: Duration) -> (Run, Duration) {
        let mut cmd = self.command(self.path(), args, &[("NO_COLOR", "1")]);
        let (out, used) = cpu::output_within(&mut cmd, memory, cpu);
        (Run::of(out), used)
    }

    /// `text` as a snapshot shows it (tests/snapshots/, insta): what differs from run to
    /// run replaced by a stable name, here and nowhere else. The scenario's directory is
    /// `[root]`, and its name alone (the default name of a context at the root) `[root
    /// name]`; a commit at a branch's tip is `[BRANCH]` (`[main]`, else `[master]`,
    /// where several point at it), any other commit of the repository `[commit SUBJECT]`, in full (40 hex
    /// digits) or as a short id (its first 7); a commit id of no commit here is `[commit]`.
    /// No output carries a time.
    pub fn redact(&self, text: &str) -> String {
        self.redact_in(self.path(), text)
    }

    /// [`Scenario::redact`] for a run in `repo`, another repository inside the scenario
    /// (a clone): its commits are named first, by its own branches, then the scenario's.
    pub fn redact_in(&self, repo: &Path, text: &str) -> String {
        let mut out = text.to_string();
        for dir in [repo, self.path()] {
            if let Ok(real) = dir.canonicalize() {
                out = out.replace(&real.display().to_string(), "[root]");
            }
            out = out.replace(&dir.display().to_string(), "[root]");
        }
        let real = self.path().canonicalize();
        let real = real.as_deref().unwrap_or(self.path());
        if let Some(name) = real.file_name().and_then(|n| n.to_str()) {
            out = out.replace(name, "[root name]");
        }
        let mut labels = commit_labels(repo);
        for (id, label) in commit_labels(self.path()) {
            if !labels.iter().any(|(known, _)| *known == id) {
                labels.push((id, label));
            }
        }
        for (id, label) in labels {
            out = out.replace(&id, &label);
            out = replace_hex_word(&out, &id[..7], &label);
        }
        redact_full_ids(&out)
    }

    fn command(&self, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut cmd = Command::cargo_bin("structgate").expect("binary");
        cmd.args(args)
            .current_dir(dir)
            .env("HOME", self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
        cmd
    }
}

impl Run {
    fn of(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// The `context.yaml` of the inventory scenarios: a context named `inventory` that owns
/// `src`.
pub const INVENTORY: &str = "meta:\n  name: inventory\nsources:\n  - src\n";

/// The not-judged line of a run whose base is HEAD itself and that has nothing
/// uncommitted to judge.
pub const BASE_IS_HEAD: &str = "structure not judged: the base is HEAD itself (on a push, pass \
                                --base with the commit before the push)";

/// Limits of function_lines 10 with a band up to 12.
pub const BAND_12: &str = "function_lines: 10\ntolerance_percent: 20\n";

/// A gate report's lines after its `base ...` line.
pub fn after_base(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.starts_with("base ")).collect()
}

/// A C# method of exactly `lines` lines (`lines` ≥ 3) named `name`, indented for a class
/// body, with a trailing newline.
pub fn cs_method(name: &str, lines: usize) -> String {
    let mut s = format!("    public void {name}()\n    {{\n");
    for i in 0..lines.saturating_sub(3) {
        s.push_str(&format!("        var x{i} = {i};\n"));
    }
    s.push_str("    }\n");
    s
}

/// A C# file holding class `class` with the given methods (name, lines).
pub fn cs_class(class: &str, methods: &[(&str, usize)]) -> String {
    let mut s = format!("public class {class}\n{{\n");
    for (name, lines) in methods {
        s.push_str(&cs_method(name, *lines));
    }
    s.push_str("}\n");
    s
}

/// A Rust free function of exactly `lines` lines (`lines` ≥ 2).
pub fn rs_fn(name: &str, lines: usize) -> String {
    let mut s = format!("fn {name}() {{\n");
    for i in 0..lines.saturating_sub(2) {
        s.push_str(&format!("    let _x{i} = {i};\n"));
    }
    s.push_str("}\n");
    s
}

/// `text` as an insta snapshot pins it, byte for byte: a snapshot leaves out the
/// whitespace at its very end and reads `\r\n` as `\n`, so the end is marked by a last
/// `[end]` (on a line of its own after a final newline) and each `\r` is shown as `[CR]`.
pub fn exact(text: &str) -> String {
    format!("{}[end]", text.replace('\r', "[CR]"))
}

/// `value` as pretty JSON ending in a newline, as the commands print it: how a test
/// snapshots a part of a JSON or SARIF document.
pub fn pretty_json(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON") + "\n"
}

/// A principles.md with a `## Limits` fence holding `yaml`.
pub fn principles(yaml: &str) -> String {
    format!("# Principles\n\n## Limits\n\n```yaml\n{yaml}```\n")
}

/// Every commit of the repository at `dir` (none where it holds none) with its
/// [`Scenario::redact`] label.
fn commit_labels(dir: &Path) -> Vec<(String, String)> {
    if !dir.join(".git").exists() {
        return Vec::new();
    }
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .expect("git runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let mut labels: Vec<(String, String)> = Vec::new();
    let heads = git(&[
        "for-each-ref",
        "--format=%(objectname) %(refname:short)",
        "refs/heads",
    ]);
    for line in heads.lines() {
        let (id, branch) = line.split_once(' ').expect("id and branch");
        match labels.iter_mut().find(|(known, _)| known == id) {
            Some(known) if branch == "main" || branch == "master" && known.1 != "[main]" => {
                known.1 = format!("[{branch}]");
            }
            Some(_) => {}
            None => labels.push((id.to_string(), format!("[{branch}]"))),
        }
    }
    for line in git(&["log", "--all", "--format=%H %s"]).lines() {
        let (id, subject) = line.split_once(' ').unwrap_or((line, ""));
        if !labels.iter().any(|(known, _)| known == id) {
            labels.push((id.to_string(), format!("[commit {subject}]")));
        }
    }
    labels
}

/// `text` with every whole word `hex` (not inside a longer run of letters or digits)
/// replaced by `label`.
fn replace_hex_word(text: &str, hex: &str, label: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(hex) {
        let before = rest[..at].chars().last().or_else(|| out.chars().last());
        let after = rest[at + hex.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) {
            hex
        } else {
            label
        });
        rest = &rest[at + hex.len()..];
    }
    out.push_str(rest);
    out
}

/// `text` with every run of exactly 40 hexadecimal digits (a full commit id) replaced
/// by `[commit]`.
fn redact_full_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        let id = run.len() == 40 && run.chars().all(|c| c.is_ascii_hexdigit());
        out.push_str(if id { "[commit]" } else { run });
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}
