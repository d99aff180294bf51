//! The benchmark's floor (scripts/bench): read and parse every file named in a list with
//! tree-sitter alone — one parser per thread and language, files spread over rayon's
//! threads like `structgate measure` does — and nothing else. No walk, no units.
//!
//! `cargo run --release --example raw_parse -- FILE_LIST` where FILE_LIST holds one path
//! per line (`.rs` and `.cs`); prints `parsed N file(s), B byte(s), E with errors`.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tree_sitter::Parser;

thread_local! {
    static PARSERS: RefCell<Option<(Parser, Parser)>> = const { RefCell::new(None) };
}

fn parse(path: &str, bytes: &[u8]) -> Option<bool> {
    PARSERS.with_borrow_mut(|slot| {
        let (rust, csharp) = slot.get_or_insert_with(|| {
            let mut rust = Parser::new();
            let mut csharp = Parser::new();
            let loaded = rust
                .set_language(&tree_sitter_rust::LANGUAGE.into())
                .and(csharp.set_language(&tree_sitter_c_sharp::LANGUAGE.into()));
            if let Err(e) = loaded {
                eprintln!("error: loading a grammar: {e}");
                std::process::exit(2);
            }
            (rust, csharp)
        });
        let parser = if path.ends_with(".rs") { rust } else { csharp };
        let tree = parser.parse(bytes, None)?;
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
