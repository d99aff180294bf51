//! The benchmark's floor (scripts/bench): read and parse every file named in a list with
//! tree-sitter alone — one parser per thread and language, files spread over rayon's
//! threads like `structgate measure` does — and nothing else. No walk, no units.
//!
//! `cargo run --release --example raw_parse -- FILE_LIST` where FILE_LIST holds one path
//! per line (`.rs`, `.cs`, `.ts` `.mts` `.cts`, `.tsx`, `.js` `.jsx` `.mjs` `.cjs`, `.py`,
//! `.go`, `.java`: each with the grammar structgate parses it with); prints `parsed N
//! file(s), B byte(s), E with errors`.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tree_sitter::{Language, Parser};

/// The grammars, in the order of [`grammar_of`]'s indices.
fn grammars() -> [Language; 8] {
    [
        tree_sitter_rust::LANGUAGE.into(),
        tree_sitter_c_sharp::LANGUAGE.into(),
        tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        tree_sitter_typescript::LANGUAGE_TSX.into(),
        tree_sitter_javascript::LANGUAGE.into(),
        tree_sitter_python::LANGUAGE.into(),
        tree_sitter_go::LANGUAGE.into(),
        tree_sitter_java::LANGUAGE.into(),
    ]
}

/// The index in [`grammars`] of a path's grammar, by its extension in any case.
fn grammar_of(path: &str) -> usize {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match ext.as_str() {
        "rs" => 0,
        "ts" | "mts" | "cts" => 2,
        "tsx" => 3,
        "js" | "jsx" | "mjs" | "cjs" => 4,
        "py" => 5,
        "go" => 6,
        "java" => 7,
        _ => 1,
    }
}

thread_local! {
    static PARSERS: RefCell<Vec<Parser>> = const { RefCell::new(Vec::new()) };
}

fn parse(path: &str, bytes: &[u8]) -> Option<bool> {
    PARSERS.with_borrow_mut(|parsers| {
        if parsers.is_empty() {
            for grammar in grammars() {
                let mut parser = Parser::new();
                if let Err(e) = parser.set_language(&grammar) {
                    eprintln!("error: loading a grammar: {e}");
                    std::process::exit(2);
                }
                parsers.push(parser);
            }
        }
        let tree = parsers[grammar_of(path)].parse(bytes, None)?;
        Some(tree.root_node().has_error())
    })
}

fn main() {
    let Some(list) = std::env::args().nth(1) else {
        eprintln!("usage: raw_parse FILE_LIST");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: reading {list}: {e}");
            std::process::exit(2);
        }
    };
    let files: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let bytes = AtomicU64::new(0);
    let errors = AtomicU64::new(0);
    files.par_iter().for_each(|path| {
        let Ok(content) = std::fs::read(path) else {
            eprintln!("warning: cannot read {path}");
            return;
        };
        bytes.fetch_add(content.len() as u64, Ordering::Relaxed);
        if parse(path, &content) == Some(true) {
            errors.fetch_add(1, Ordering::Relaxed);
        }
    });
    println!(
        "parsed {} file(s), {} byte(s), {} with errors",
        files.len(),
        bytes.load(Ordering::Relaxed),
        errors.load(Ordering::Relaxed)
    );
}
