//! Stamps the measurement cache's version (src/cache): a digest of the measurer's source
//! (src/measure, src/lang, src/model, src/reason, src/lines.rs, each module file with its folder) and the locked
//! versions of the tree-sitter crates and pulldown-cmark, so a cache written by a build that could measure
//! differently is never read.

use std::hash::Hasher as _;
use std::path::Path;

const MEASURER: &[&str] = &[
    "src/measure.rs",
    "src/measure",
    "src/lang.rs",
    "src/lang",
    "src/model.rs",
    "src/model",
    "src/reason.rs",
    "src/reason",
    "src/lines.rs",
];
/// The parsers besides the grammars: tree-sitter itself and pulldown-cmark (the import
/// scan of Markdown files, kept in the cache too). The grammars are every `tree-sitter-*`
/// dependency in Cargo.toml, read there, so a language added there is stamped too.
const PARSERS: &[&str] = &["tree-sitter", "pulldown-cmark"];

fn main() {
    let mut files = Vec::new();
    for path in MEASURER {
        println!("cargo:rerun-if-changed={path}");
        collect(Path::new(path), &mut files);
    }
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=Cargo.toml");
    files.sort();
    // FNV-1a: stable across Rust versions and platforms, unlike std's default hasher.
    let mut digest = Fnv(0xcbf2_9ce4_8422_2325);
    for file in &files {
        digest.write(file.to_string_lossy().as_bytes());
        digest.write(&std::fs::read(file).unwrap_or_default());
    }
    println!(
        "cargo:rustc-env=STRUCTGATE_MEASURER_DIGEST={:016x}",
        digest.finish()
    );
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap_or_default();
    let grammars: Vec<String> = PARSERS
        .iter()
        .map(|name| name.to_string())
        .chain(grammar_crates(&manifest))
        .map(|name| format!("{name} {}", locked_version(&lock, &name)))
        .collect();
    println!(
        "cargo:rustc-env=STRUCTGATE_GRAMMARS={}",
        grammars.join(", ")
    );
}

fn collect(path: &Path, files: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            collect(&entry.path(), files);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        files.push(path.to_path_buf());
    }
}

/// The `tree-sitter-*` crates among the `[dependencies]` of Cargo.toml, in its order.
fn grammar_crates(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .skip_while(|line| line.trim() != "[dependencies]")
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| name.starts_with("tree-sitter-"))
        .map(str::to_string)
        .collect()
}

/// The version Cargo.lock records for package `name`, or `unlocked`.
fn locked_version(lock: &str, name: &str) -> String {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            if let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
            {
                return version.trim_matches('"').to_string();
            }
        }
    }
    "unlocked".to_string()
}

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
