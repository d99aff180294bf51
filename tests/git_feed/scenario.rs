//! Scenario repositories built with the `git` program, and expectations to compare with.

use std::path::{Path, PathBuf};
use std::process::Command;

use structgate::git::{BaseResolution, Change, ChangeKind, Repo};

/// A scratch repository in a temporary directory.
pub struct Scenario {
    /// Holds the directory; `root` is inside it.
    pub tmp: tempfile::TempDir,
    pub root: PathBuf,
}

impl Scenario {
    /// A fresh repository on branch `main`.
    pub fn new() -> Scenario {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join("repo");
        std::fs::create_dir(&root).expect("mkdir");
        let s = Scenario { tmp, root };
        s.git(&["init", "-q", "-b", "main"]);
        s.configure();
        s
    }

    /// A clone of `up` made with `git clone EXTRA... file://UP`.
    pub fn clone_of(up: &Scenario, extra: &[&str]) -> Scenario {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join("clone");
        let url = format!("file://{}", up.root.display());
        let mut args = vec!["clone", "-q"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[&url, "clone"]);
        run_git(tmp.path(), &args);
        let s = Scenario { tmp, root };
        s.configure();
        s
    }

    pub fn configure(&self) {
        self.git(&["config", "user.name", "Test"]);
        self.git(&["config", "user.email", "test@example.com"]);
        self.git(&["config", "commit.gpgsign", "false"]);
        self.git(&["config", "init.defaultBranch", "main"]);
    }

    pub fn git(&self, args: &[&str]) -> String {
        run_git(&self.root, args)
    }

    pub fn write(&self, path: &str, text: &str) {
        let abs = self.root.join(path);
        if let Some(parent) = abs.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(abs, text).expect("write");
    }

    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.root.join(path)).expect("remove");
    }

    pub fn rename(&self, from: &str, to: &str) {
        std::fs::rename(self.root.join(from), self.root.join(to)).expect("rename");
    }

    /// Stages everything and commits; returns the new commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.head()
    }

    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"])
    }

    pub fn repo(&self) -> Repo {
        Repo::discover(&self.root).expect("discover")
    }
}

pub fn run_git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "protocol.file.allow=always"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Forty numbered lines: enough text for similarity-based rename detection.
pub fn lines(tag: &str) -> String {
    (1..=40).map(|i| format!("{tag} line {i}\n")).collect()
}

pub fn change(path: &str, kind: ChangeKind) -> Change {
    Change {
        path: path.to_string(),
        kind,
    }
}

pub fn renamed(from: &str, to: &str) -> Change {
    change(
        to,
        ChangeKind::Renamed {
            from: from.to_string(),
        },
    )
}

pub fn found(commit: &str, via: &str, from_start: bool) -> BaseResolution {
    BaseResolution::Found {
        commit: commit.to_string(),
        via: via.to_string(),
        from_start,
        newer: None,
    }
}

/// A [`BaseResolution::NotFound`] after trying `tried`, with nothing skipped.
pub fn not_found(tried: &[String]) -> BaseResolution {
    BaseResolution::NotFound {
        tried: tried.to_vec(),
        skipped: Vec::new(),
        bad_start: None,
    }
}

pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// main: c1; branch `feature` from c1 with one more commit.
pub fn branched() -> (Scenario, String) {
    let s = Scenario::new();
    s.write("src/a.rs", &lines("a"));
    let cut = s.commit("c1");
    s.git(&["checkout", "-q", "-b", "feature"]);
    s.write("src/b.rs", &lines("b"));
    s.commit("f1");
    (s, cut)
}
