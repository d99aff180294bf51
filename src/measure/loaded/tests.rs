//! Tests of `loaded_bytes`: chains, cycles, depth, and imports not followed.

use super::walk::MAX_WARNINGS;
use super::*;
use crate::source::MemorySource;
use crate::work_tree::WorkTree;

fn load(source: &dyn FileSource, path: &str) -> (Loaded, Vec<String>) {
    let bytes = source.read(path).unwrap().unwrap();
    Imports::new(source, 1 << 20).load(path, &bytes)
}

#[test]
fn a_chain_counts_every_file_once() {
    let source = MemorySource::default()
        .with("docs/a.md", "A @b.md\n") // 8 bytes
        .with("docs/b.md", "B @sub/c.md and @b.md\n") // 22
        .with("docs/sub/c.md", "C @../../notes.txt @../b.md\n") // 28
        .with("notes.txt", "0123456789"); // 10
    let (loaded, warnings) = load(&source, "docs/a.md");
    assert_eq!(loaded.bytes, 8 + 22 + 28 + 10);
    assert_eq!(loaded.imports, ["docs/b.md", "docs/sub/c.md", "notes.txt"]);
    assert_eq!(warnings, Vec::<String>::new());
}

#[test]
fn a_cycle_ends_where_it_began() {
    let source = MemorySource::default()
        .with("a.md", "@b.md\n") // 6
        .with("b.md", "@a.md @./a.md @b.md\n"); // 20
    let (loaded, warnings) = load(&source, "a.md");
    assert_eq!(
        (loaded.bytes, loaded.imports),
        (26, vec!["b.md".to_string()])
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn imports_are_followed_five_hops_and_no_further() {
    let mut source = MemorySource::default();
    for i in 0..7 {
        source = source.with(&format!("d{i}.md"), &format!("@d{}.md\n", i + 1));
    }
    let (loaded, warnings) = load(&source, "d0.md");
    assert_eq!(
        loaded.imports,
        ["d1.md", "d2.md", "d3.md", "d4.md", "d5.md"]
    );
    assert_eq!(loaded.bytes, 6 * 7);
    assert_eq!(
        warnings,
        ["import \"@d6.md\" at d5.md:1 not followed: more than 5 imports away from the document"]
    );
}

#[test]
fn depth_is_the_shortest_distance() {
    // e.md is 5 hops away along a..d, but 1 hop away directly: its import f.md is counted.
    let source = MemorySource::default()
        .with("r.md", "@a.md @e.md\n")
        .with("a.md", "@b.md\n")
        .with("b.md", "@c.md\n")
        .with("c.md", "@d.md\n")
        .with("d.md", "@e.md\n")
        .with("e.md", "@f.md\n")
        .with("f.md", "end\n");
    let (loaded, warnings) = load(&source, "r.md");
    assert_eq!(loaded.imports.len(), 6, "{:?}", loaded.imports);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn imports_not_followed_are_warnings_naming_file_and_line() {
    let source = MemorySource::default()
        .with(
            "docs/a.md",
            "x\n@/etc/passwd\n@~/notes.md\n@../../up.md\n@missing.md\n@C:/x.md\n",
        )
        .with("up.md", "never\n");
    let (loaded, warnings) = load(&source, "docs/a.md");
    assert_eq!(loaded.bytes, 61);
    assert!(loaded.imports.is_empty());
    assert_eq!(
        warnings,
        [
            "import \"@/etc/passwd\" at docs/a.md:2 not followed: an absolute path",
            "import \"@~/notes.md\" at docs/a.md:3 not followed: a path starting with ~",
            "import \"@../../up.md\" at docs/a.md:4 not followed: it leaves the repository",
            "import \"@missing.md\" at docs/a.md:5 not followed: names no existing file",
            "import \"@C:/x.md\" at docs/a.md:6 not followed: an absolute path",
        ]
    );
}

#[test]
fn a_binary_import_counts_its_raw_bytes_and_a_non_utf8_document_is_still_scanned() {
    let mut source = MemorySource::default().with("a.md", "@logo.png @old.md\n"); // 18
    source
        .files
        .insert("logo.png".into(), b"\x89PNG\r\n\x1a\n\x00@c.md".to_vec()); // 14
                                                                            // Latin-1 `é`: its imports are read from its bytes, line numbers kept.
    source.files.insert(
        "old.md".into(),
        b"caf\xe9\r\n\xff @b.md @gone\xe9.md\r\n".to_vec(),
    ); // 25, raw
    source = source
        .with("b.md", "reached\n")
        .with("c.md", "never reached\n");
    let (loaded, warnings) = load(&source, "a.md");
    assert_eq!(loaded.bytes, 18 + 14 + 25 + 8);
    assert_eq!(loaded.imports, ["b.md", "logo.png", "old.md"]);
    assert_eq!(
        warnings,
        ["import \"@gone\u{fffd}.md\" at old.md:2 not followed: names no existing file"]
    );
}

#[test]
fn an_import_larger_than_the_limit_counts_its_size_unread() {
    let big = format!("{}\n@b.md\n", "x".repeat(200));
    let source = MemorySource::default()
        .with("a.md", "@big.md\n")
        .with("big.md", &big)
        .with("b.md", "never reached\n");
    let (loaded, warnings) = Imports::new(&source, 100).load("a.md", b"@big.md\n");
    assert_eq!(loaded.bytes, 8 + 207);
    assert_eq!(loaded.imports, ["big.md"]);
    assert_eq!(
        warnings,
        ["big.md: larger than --max-file-size (207 > 100 bytes); counted by its size, unread"]
    );
}

#[test]
fn crlf_and_bom_count_as_lf_in_imports_too() {
    let mut source = MemorySource::default().with("a.md", "@b.md\n");
    source
        .files
        .insert("b.md".into(), b"\xEF\xBB\xBFone\r\ntwo\r\n".to_vec());
    assert_eq!(load(&source, "a.md").0.bytes, 6 + 8);
}

#[cfg(unix)]
#[test]
fn directories_are_not_followed_and_links_are_read_through() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "secret\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/sub")).unwrap();
    std::fs::write(root.join("docs/inside.md"), "inside\n").unwrap();
    std::fs::write(
        root.join("docs/sub/big.md"),
        "big, imported through a link\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("sub/big.md", root.join("docs/in.md")).unwrap();
    std::os::unix::fs::symlink(root.join("docs/inside.md"), root.join("docs/abs.md")).unwrap();
    std::os::unix::fs::symlink("sub", root.join("docs/dir")).unwrap();
    let text = "@sub/\n@./sub\n@in.md\n@abs.md\n@dir/big.md\n@inside.md\n";
    std::fs::write(root.join("docs/a.md"), text).unwrap();
    let (loaded, warnings) = load(&WorkTree::new(root), "docs/a.md");
    // Each file once, by where its links lead; an absolute link inside the root too.
    assert_eq!(loaded.imports, ["docs/inside.md", "docs/sub/big.md"]);
    assert_eq!(loaded.links, ["docs/abs.md", "docs/dir", "docs/in.md"]);
    assert_eq!(loaded.bytes, 51 + 7 + 29);
    assert_eq!(
        warnings,
        [
            "import \"@sub/\" at docs/a.md:1 not followed: names a directory",
            "import \"@./sub\" at docs/a.md:2 not followed: names a directory",
        ]
    );
    // A link out of the repository, to a file or a directory, makes the document
    // unmeasurable.
    std::os::unix::fs::symlink(outside.path().join("secret.md"), root.join("docs/out.md")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("docs/away")).unwrap();
    for (import, link) in [("@out.md", "docs/out.md"), ("@away/secret.md", "docs/away")] {
        let text = format!("{import}\n");
        let tree = WorkTree::new(root);
        let imports = Imports::new(&tree, 1 << 20);
        let document = imports.document("docs/b.md", text.as_bytes());
        assert_eq!(document.err().as_deref(), Some(link));
    }
}

#[test]
fn resolution_is_relative_to_the_importing_directory() {
    assert_eq!(resolve("docs/a.md", "b.md"), Ok("docs/b.md".into()));
    assert_eq!(
        resolve("docs/a.md", "./x//y/../b.md"),
        Ok("docs/x/b.md".into())
    );
    assert_eq!(resolve("a.md", "../b.md"), Err("it leaves the repository"));
    assert_eq!(
        resolve("a.md", "x/../../b.md"),
        Err("it leaves the repository")
    );
    assert_eq!(resolve("docs/a.md", "../b.md"), Ok("b.md".into()));
    assert_eq!(
        resolve("docs/a.md", "\\\\server\\x"),
        Err("an absolute path")
    );
}

#[test]
fn warnings_are_given_once_and_capped() {
    let mut text = String::from("@gone.md @gone.md\n");
    for i in 0..60 {
        text.push_str(&format!("@missing{i}.md\n"));
    }
    let source = MemorySource::default().with("a.md", &text);
    let (loaded, warnings) = load(&source, "a.md");
    assert_eq!(loaded.bytes, text.len() as u64);
    assert_eq!(warnings.len(), MAX_WARNINGS + 1);
    assert_eq!(
        warnings[0],
        "import \"@gone.md\" at a.md:1 not followed: names no existing file"
    );
    assert_eq!(
        warnings[MAX_WARNINGS],
        "11 more import warning(s) not shown"
    );
}

#[test]
fn a_document_follows_its_first_thousand_imports() {
    let mut source = MemorySource::default();
    let mut text = String::new();
    for i in 0..=MAX_IMPORTS {
        text.push_str(&format!("@f{i}.txt\n"));
        source = source.with(&format!("f{i}.txt"), "x");
    }
    source = source.with("a.md", &text);
    let (loaded, warnings) = load(&source, "a.md");
    assert_eq!(loaded.imports.len(), MAX_IMPORTS);
    assert_eq!(loaded.bytes, text.len() as u64 + MAX_IMPORTS as u64);
    assert_eq!(
        warnings,
        ["a.md: more than 1000 imports; only the first 1000 are followed"]
    );
}
