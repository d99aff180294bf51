//! No module cycles (docs/dev/architecture.md#no-module-cycles): the modules of src/ form a
//! graph of who names whom through `crate::` and `super::` paths, at the granularity of the
//! top-level modules and of the submodules of `commands::gate` and `report`; the graph has
//! no cycle.
//!
//! A module naming its own children (`mod x;`, `x::f()`) is no edge: a parent owns its
//! children. Everything else is: `use crate::a::b`, `crate::a::f()` in code, `use
//! super::x` and `super::f()`. Unit tests (a `tests` module, inline or in its own file) are
//! left out: they are compiled only for themselves, and may reach anything.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// A module path, `["commands", "gate", "merge"]`; the crate root is `[]`.
type ModPath = Vec<String>;

/// The graph: for each node and each node it names, one place that names it (`file:
/// path`), for the message.
#[derive(Default)]
struct Graph {
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn add(&mut self, from: &str, to: &str, witness: String) {
        if from != to {
            let targets = self.edges.entry(from.to_string()).or_default();
            targets.entry(to.to_string()).or_insert(witness);
        }
    }

    /// Every cycle, one per strongly connected component of more than one node, each as
    /// its nodes from the smallest back to it: `a -> b -> a`.
    fn cycles(&self) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for component in self.components() {
            if component.len() > 1 {
                out.push(self.cycle_through(&component));
            }
        }
        out
    }

    fn targets(&self, node: &str) -> impl Iterator<Item = &String> {
        self.edges.get(node).into_iter().flat_map(|t| t.keys())
    }

    /// The strongly connected components: nodes that reach each other.
    fn components(&self) -> Vec<BTreeSet<String>> {
        let nodes: BTreeSet<&String> = self
            .edges
            .iter()
            .flat_map(|(from, to)| std::iter::once(from).chain(to.keys()))
            .collect();
        let reach = |start: &String| -> BTreeSet<String> {
            let mut seen = BTreeSet::from([start.clone()]);
            let mut queue = VecDeque::from([start.clone()]);
            while let Some(n) = queue.pop_front() {
                for t in self.targets(&n) {
                    if seen.insert(t.clone()) {
                        queue.push_back(t.clone());
                    }
                }
            }
            seen
        };
        let reached: BTreeMap<&String, BTreeSet<String>> =
            nodes.iter().map(|n| (*n, reach(n))).collect();
        let mut done = BTreeSet::new();
        let mut components = Vec::new();
        for n in &nodes {
            if done.contains(*n) {
                continue;
            }
            let component: BTreeSet<String> = reached[n]
                .iter()
                .filter(|m| reached[m].contains(*n))
                .cloned()
                .collect();
            done.extend(component.iter().cloned());
            components.push(component);
        }
        components
    }

    /// The shortest cycle within `component` through its smallest node.
    fn cycle_through(&self, component: &BTreeSet<String>) -> Vec<String> {
        let start = component.first().expect("a component has a node").clone();
        let mut came_from: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = VecDeque::from([start.clone()]);
        while let Some(n) = queue.pop_front() {
            for t in self.targets(&n).filter(|t| component.contains(*t)) {
                if *t == start {
                    let mut path = vec![n.clone()];
                    while let Some(prev) = came_from.get(path.last().expect("a node")) {
                        path.push(prev.clone());
                    }
                    path.reverse();
                    path.push(start);
                    return path;
                }
                if !came_from.contains_key(t) && *t != start {
                    came_from.insert(t.clone(), n.clone());
                    queue.push_back(t.clone());
                }
            }
        }
        unreachable!("a component of several nodes holds a cycle through each")
    }

    /// A cycle as a message: its nodes, then each edge's witness.
    fn describe(&self, cycle: &[String]) -> String {
        let mut s = cycle.join(" -> ");
        for pair in cycle.windows(2) {
            let witness = &self.edges[&pair[0]][&pair[1]];
            s.push_str(&format!("\n  {} -> {}: {witness}", pair[0], pair[1]));
        }
        s
    }
}

/// The crate's modules, each a file: `src/a/b.rs` is `a::b`, `src/lib.rs` the root.
fn module_of(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts == ["lib"] {
        parts.clear();
    }
    parts
}

/// The node a module belongs to: a top-level module, or a submodule of
/// `commands::gate` or `report`; the crate root is `crate`.
fn node_of(module: &[String]) -> String {
    let split = match module {
        [c, g, ..] if c == "commands" && g == "gate" => 3,
        [r, ..] if r == "report" => 2,
        _ => 1,
    };
    if module.is_empty() {
        return "crate".to_string();
    }
    module[..split.min(module.len())].join("::")
}

/// The module a path names (its longest prefix that is a module): `crate::judge::Status`
/// names `judge`.
fn named_module(path: &[String], modules: &BTreeSet<ModPath>) -> ModPath {
    let mut longest = Vec::new();
    for n in 1..=path.len() {
        if modules.contains(&path[..n].to_vec()) {
            longest = path[..n].to_vec();
        }
    }
    longest
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sep,
    Other(char),
}

/// Rust source as identifiers, `::` and other punctuation, without comments, string and
/// character literals.
fn tokens(src: &str) -> Vec<Tok> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character literal, or a lifetime (left as an identifier).
            if at(i + 1) == '\\' {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let hashes = (i..).take_while(|&j| at(j) == '#').count();
            if (word == "r" || word == "br") && at(i + hashes) == '"' {
                // A raw string: up to the quote followed by as many hashes.
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = chars[i + hashes + 1..].iter().collect();
                let end = rest.find(&close).map_or(rest.len(), |e| e + close.len());
                i += hashes + 1 + rest[..end].chars().count();
            } else if word == "b" && at(i) == '\'' {
                i += 1;
            } else {
                out.push(Tok::Ident(word));
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Tok::Sep);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Tok::Other(c));
            }
            i += 1;
        }
    }
    out
}

/// The paths a `use` tree names, from just after `use` (`crate::a::{b, c::D}` gives
/// `crate::a::b` and `crate::a::c::D`); `self` in a group names the group's own path.
fn use_tree(t: &[Tok], i: &mut usize, prefix: ModPath, out: &mut Vec<ModPath>) {
    let mut path = prefix;
    while let Some(tok) = t.get(*i) {
        match tok {
            Tok::Ident(word) if word == "as" => {
                *i += 2;
                break;
            }
            Tok::Ident(word) => {
                if word != "self" || path.is_empty() {
                    path.push(word.clone());
                }
                *i += 1;
            }
            Tok::Sep => *i += 1,
            Tok::Other('{') => {
                *i += 1;
                while t.get(*i).is_some_and(|t| *t != Tok::Other('}')) {
                    use_tree(t, i, path.clone(), out);
                    if t.get(*i) == Some(&Tok::Other(',')) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            Tok::Other('*') => {
                *i += 1;
                break;
            }
            Tok::Other(_) => break,
        }
    }
    out.push(path);
}

/// Every `crate::`, `super::` and `self::` path a file names, in `use` items and in code,
/// each with the inline modules (`mod tests { ... }`) it is named in.
fn paths_named(src: &str) -> Vec<(ModPath, ModPath)> {
    let t = tokens(src);
    let mut out = Vec::new();
    // The inline modules open at this point, each with the brace depth inside it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < t.len() {
        let within = || {
            inline
                .iter()
                .map(|(name, _)| name.clone())
                .collect::<ModPath>()
        };
        match &t[i] {
            Tok::Other('{') => depth += 1,
            Tok::Other('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Other('{'))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(w) if w == "use" => {
                i += 1;
                let mut paths = Vec::new();
                use_tree(&t, &mut i, Vec::new(), &mut paths);
                out.extend(paths.into_iter().map(|p| (within(), p)));
                continue;
            }
            Tok::Ident(w) if w == "crate" || w == "super" || w == "self" => {
                let after_sep = i > 0 && t[i - 1] == Tok::Sep;
                if !after_sep && t.get(i + 1) == Some(&Tok::Sep) {
                    let mut path = Vec::new();
                    while let Some(Tok::Ident(w)) = t.get(i) {
                        path.push(w.clone());
                        if t.get(i + 1) != Some(&Tok::Sep) {
                            break;
                        }
                        i += 2;
                    }
                    out.push((within(), path));
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A path named in module `at`, resolved from the crate root; `None` for a path that
/// starts elsewhere (another crate, a child module, a local item).
fn resolve(at: &[String], path: &[String]) -> Option<ModPath> {
    let (first, rest) = path.split_first()?;
    let mut base: ModPath = match first.as_str() {
        "crate" => Vec::new(),
        "self" => at.to_vec(),
        "super" => at[..at.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest = rest.iter().peekable();
    while rest.peek().is_some_and(|s| *s == "super") {
        rest.next();
        base.pop();
    }
    base.extend(rest.cloned());
    Some(base)
}

/// True for a unit-test module, or a module within one.
fn is_test(module: &[String]) -> bool {
    module.iter().any(|m| m == "tests")
}

/// The graph of `files` (each a path under src/ and its text).
fn graph_of(files: &[(PathBuf, String)]) -> Graph {
    let modules: BTreeSet<ModPath> = files.iter().map(|(p, _)| module_of(p)).collect();
    let mut graph = Graph::default();
    for (rel, text) in files {
        let file = module_of(rel);
        let from = node_of(&file);
        if is_test(&file) {
            continue;
        }
        for (inline, path) in paths_named(text) {
            let at: ModPath = file.iter().cloned().chain(inline).collect();
            if is_test(&at) {
                continue;
            }
            let Some(full) = resolve(&at, &path) else {
                continue;
            };
            let to = node_of(&named_module(&full, &modules));
            let witness = format!("{}: {}", rel.display(), path.join("::"));
            graph.add(&from, &to, witness);
        }
    }
    graph
}

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ reads")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src").to_path_buf();
            // main.rs is the binary, a crate of its own.
            if rel != Path::new("main.rs") {
                out.push((rel, std::fs::read_to_string(&path).expect("UTF-8 source")));
            }
        }
    }
}

#[test]
fn the_modules_of_src_name_each_other_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    let graph = graph_of(&files);
    // The graph is the real one: the gate's modules name the judge.
    assert!(graph.edges["commands::gate"].contains_key("judge"));
    let cycles: Vec<String> = graph.cycles().iter().map(|c| graph.describe(c)).collect();
    assert!(
        cycles.is_empty(),
        "module cycles (docs/dev/architecture.md#no-module-cycles):\n{}",
        cycles.join("\n")
    );
}

fn synthetic(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    graph_of(&files)
}

#[test]
fn a_cycle_through_three_modules_is_found_and_named() {
    let graph = synthetic(&[
        (
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub mod d;\nmod t { use super::a; }\n",
        ),
        ("a.rs", "use crate::b::{self, Thing};\n"),
        ("b.rs", "fn f() { crate::c::g(); }\n"),
        // Unit tests may reach anything.
        ("d/tests.rs", "use crate::a::A;\n"),
        ("c.rs", "use crate::{a::A as Z, d};\n"),
        (
            "d.rs",
            "// use crate::a;\nconst S: &str = \"crate::a::X\";\n",
        ),
        // An inline module's `super` is its file's module.
        (
            "b/inner.rs",
            "mod tests {\n    use super::super::B;\n}\nuse super::B;\n",
        ),
    ]);
    let cycles = graph.cycles();
    assert_eq!(cycles, [["a", "b", "c", "a"]]);
    assert_eq!(
        graph.describe(&cycles[0]),
        "a -> b -> c -> a\n  a -> b: a.rs: crate::b\n  b -> c: b.rs: crate::c::g\n  \
         c -> a: c.rs: crate::a::A"
    );
    // An inline module's `super` is its file's module: b names no crate root.
    assert!(!graph.edges["b"].contains_key("crate"));
    // d names a only in a comment, a string and its tests: no edge.
    assert!(!graph.edges.contains_key("d"));
}

#[test]
fn siblings_naming_each_other_through_super_are_a_cycle_and_a_parent_is_not() {
    let graph = synthetic(&[
        ("lib.rs", "pub mod commands;\npub mod report;\n"),
        ("commands.rs", "pub mod gate;\n"),
        (
            "commands/gate.rs",
            "mod base;\nmod sandbox;\nfn run() { sandbox::judge(); }\n",
        ),
        (
            "commands/gate/base.rs",
            "use super::{Request, sandbox::judges};\n",
        ),
        (
            "commands/gate/sandbox.rs",
            "fn judge() { super::base::find(); }\n",
        ),
        ("report.rs", "mod gate;\nmod review;\n"),
        (
            "report/gate.rs",
            "use crate::report::review;\nuse crate::commands::gate::X;\n",
        ),
        (
            "report/review.rs",
            "use crate::report::{gate::located, style};\n",
        ),
    ]);
    let cycles = graph.cycles();
    assert_eq!(
        cycles,
        [
            [
                "commands::gate::base",
                "commands::gate::sandbox",
                "commands::gate::base"
            ],
            ["report::gate", "report::review", "report::gate"],
        ]
    );
    // A child naming its parent is an edge; the parent calling its child is not.
    assert!(graph.edges["commands::gate::base"].contains_key("commands::gate"));
    assert!(!graph.edges.contains_key("commands::gate"));
}

#[test]
fn a_graph_without_a_cycle_has_none() {
    let graph = synthetic(&[
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        (
            "a.rs",
            "use crate::b::B;\nfn f<'a>(x: &'a str) -> char { 'x' }\n",
        ),
        ("b.rs", "fn g() -> &'static str { r#\"crate::a\"# }\n"),
    ]);
    assert_eq!(graph.cycles(), Vec::<Vec<String>>::new());
    assert_eq!(graph.edges["a"].keys().collect::<Vec<_>>(), ["b"]);
}
