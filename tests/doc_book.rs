//! The guide and the reference (docs/src/) against the code: every reference page and
//! anchor the code cites exists, every link between the pages resolves, every page is in
//! the book's summary, and every table that lists one of the code's registries (Limits
//! keys, reason codes, languages and extensions, SARIF rules, exit codes) lists exactly
//! what the code has. `--help` and the package description name the languages from the
//! code's own list.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};

use common::Scenario;
use structgate::model::{Language, Metric, METRICS};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` whose name ends with one of `exts`, sorted.
fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("entry").path();
            let built = ["target", "corpus", "artifacts", "logs", "coverage"]
                .iter()
                .any(|d| path.ends_with(d));
            if path.is_dir() {
                if !built {
                    todo.push(path);
                }
            } else if exts.iter().any(|e| path.to_string_lossy().ends_with(e)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Every Markdown file of the docs: the book, the contributor docs, the README and
/// CONTRIBUTING.md.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = files_under(&root().join("docs"), &[".md"]);
    files.push(root().join("README.md"));
    files.push(root().join("CONTRIBUTING.md"));
    files
}

/// A heading's anchor as mdBook and GitHub make it: lower case, letters, digits, `-` and
/// `_` kept, whitespace made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_lowercase().next()?),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings (a repeated one gets `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.insert(match *n {
                    0 => base.clone(),
                    k => format!("{base}-{k}"),
                });
                *n += 1;
            }
            _ => {}
        }
    }
    anchors
}

/// The link targets of a Markdown page, outside code.
fn links(text: &str) -> Vec<String> {
    Parser::new(text)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// Every `docs/src/reference/PAGE.md[#anchor]` written in `text`.
fn citations(text: &str) -> Vec<(String, Option<String>)> {
    const PREFIX: &str = "docs/src/reference/";
    let name = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in text.match_indices(PREFIX) {
        let rest = &text[at + PREFIX.len()..];
        let page = name(rest);
        let Some(after) = rest[page.len()..].strip_prefix(".md") else {
            continue;
        };
        if page.is_empty() {
            continue;
        }
        let anchor = after.strip_prefix('#').map(name).filter(|a| !a.is_empty());
        found.push((format!("{page}.md"), anchor));
    }
    found
}

#[test]
fn every_reference_page_and_anchor_the_code_cites_exists() {
    let mut sources = files_under(&root().join("src"), &[".rs"]);
    sources.extend(files_under(&root().join("tests"), &[".rs"]));
    sources.extend(markdown_files());
    sources.extend(files_under(&root().join("scripts"), &[""]));
    sources.extend(files_under(&root().join("fuzz"), &[".rs", ".toml"]));
    sources.extend(["Cargo.toml", "build.rs", ".ci/run", ".gitattributes"].map(|f| root().join(f)));
    let mut cited = 0;
    let mut dangling = Vec::new();
    for file in &sources {
        let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (page, anchor) in citations(&String::from_utf8_lossy(&bytes)) {
            cited += 1;
            let path = root().join("docs/src/reference").join(&page);
            let ok = path.is_file()
                && anchor
                    .as_ref()
                    .is_none_or(|a| anchors(&read(&path)).contains(a));
            if !ok {
                let anchor = anchor.map(|a| format!("#{a}")).unwrap_or_default();
                dangling.push(format!("{}: {page}{anchor}", file.display()));
            }
        }
    }
    assert!(cited > 300, "only {cited} citations found");
    assert_eq!(dangling, Vec::<String>::new());
}

/// `path` with its `..` and `.` parts resolved lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_link_between_the_pages_resolves() {
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = read(&file);
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match link.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("dir").join(path)
            };
            let ok = target.exists()
                && anchor.is_none_or(|a| {
                    !target.to_string_lossy().ends_with(".md")
                        || anchors(&read(&target)).contains(a)
                });
            // The book is built from docs/src alone: a page there that links outside it
            // would be a broken link in the book.
            let book = root().join("docs/src");
            let outside = file.starts_with(&book) && !normalize(&target).starts_with(&book);
            if !ok || outside {
                broken.push(format!("{}: {link}", file.display()));
            }
        }
    }
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn the_summary_lists_every_page_of_the_book() {
    let src = root().join("docs/src");
    let summary = read(&src.join("SUMMARY.md"));
    let listed: BTreeSet<PathBuf> = links(&summary).iter().map(|l| src.join(l)).collect();
    let pages: BTreeSet<PathBuf> = files_under(&src, &[".md"])
        .into_iter()
        .filter(|p| !p.ends_with("SUMMARY.md"))
        .collect();
    assert_eq!(listed, pages);
    assert!(read(&root().join("docs/book.toml")).contains("src = \"src\""));
}

/// The rows of the tables under heading `section` (a level-2 heading) of a reference
/// page: each row's cells, without the header rows.
fn table_rows(page: &str, section: &str) -> Vec<Vec<String>> {
    let text = read(&root().join("docs/src/reference").join(page));
    let mut rows = Vec::new();
    let (mut in_section, mut in_head, mut in_cell) = (section.is_empty(), false, false);
    let (mut heading, mut row, mut cell): (Option<String>, Vec<String>, String) =
        (None, Vec::new(), String::new());
    for event in Parser::new_ext(&text, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                in_section = heading.take().as_deref() == Some(section) || section.is_empty();
            }
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                row.clear();
            }
            Event::Start(Tag::TableCell) => (in_cell, cell) = (true, String::new()),
            Event::End(TagEnd::TableCell) => {
                in_cell = false;
                row.push(cell.trim().to_string());
            }
            Event::End(TagEnd::TableRow) => {
                let done = std::mem::take(&mut row);
                if in_section && !in_head {
                    rows.push(done);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                } else if in_cell {
                    cell.push_str(&t);
                }
            }
            _ => {}
        }
    }
    rows
}

fn first_cells(rows: &[Vec<String>]) -> Vec<String> {
    rows.iter().map(|r| r[0].clone()).collect()
}

/// The metrics page's table is the registry's, row by row in its order: key, what it
/// applies to, what it limits.
#[test]
fn the_metrics_page_lists_every_limits_key() {
    let rows = table_rows("metrics.md", "Limits keys");
    let expected: Vec<Vec<String>> = METRICS
        .iter()
        .map(|row| {
            vec![
                row.key.to_string(),
                row.scope.reference_text().to_string(),
                // The table's cells are read as text: code spans lose their backticks.
                row.description.replace('`', ""),
            ]
        })
        .collect();
    assert_eq!(rows, expected);
    let mut all: Vec<String> = first_cells(&rows);
    all.extend(first_cells(&table_rows("metrics.md", "Other keys")));
    all.sort();
    let mut known: Vec<String> = structgate::limits::known_keys()
        .iter()
        .map(|k| k.to_string())
        .collect();
    known.sort();
    assert_eq!(all, known);
}

/// The keys a did-you-mean names are the registry's, sorted, then the other keys.
#[test]
fn the_known_limits_keys_are_the_registrys() {
    let known = structgate::limits::known_keys();
    let mut keys: Vec<&str> = METRICS.iter().map(|row| row.key).collect();
    keys.sort_unstable();
    assert_eq!(known[..keys.len()], keys[..]);
    assert_eq!(
        known[keys.len()..],
        ["new_file_bytes", "pinned", "tiers", "tolerance_percent"]
    );
    let all: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
    assert_eq!(all, keys);
    for row in METRICS {
        assert_eq!(Metric::from_key(row.key), Some(row.metric));
    }
}

/// The page names the values `init` writes, each row's default in the registry's order,
/// and `init` writes exactly those.
#[test]
fn the_metrics_page_names_the_defaults_init_writes() {
    let text = section(
        "docs/src/reference/metrics.md",
        "## What `structgate init` writes",
    );
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut defaults: Vec<String> = METRICS
        .iter()
        .filter_map(|row| Some(format!("`{}: {}`", row.key, row.init_default?)))
        .collect();
    defaults.push("`tolerance_percent: 25`".to_string());
    let mut at = 0;
    for default in &defaults {
        let found = text[at..].find(default.as_str());
        let found = found.unwrap_or_else(|| panic!("metrics.md lacks {default} in order"));
        at += found + default.len();
    }
    let s = Scenario::git();
    s.write("src/lib.rs", "pub fn f() {}\n");
    s.write("Cargo.toml", "[package]\nname = \"a\"\n");
    let run = s.run(&["init", "--no-agent-docs"]);
    assert_eq!(run.code, 0, "{run:?}");
    let principles = s.read("principles.md");
    let fence: Vec<String> = defaults.iter().map(|d| d.replace('`', "")).collect();
    assert!(
        principles.contains(&format!("```yaml\n{}\n```", fence.join("\n"))),
        "{principles}"
    );
}

#[test]
fn the_reason_codes_page_lists_every_code_with_its_meaning() {
    let rows: Vec<(String, String)> = table_rows("reason-codes.md", "")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    let codes = structgate::reason::every_code();
    assert_eq!(codes.len(), 31);
    for (code, description) in &codes {
        assert!(
            // The table's cells are read as text: code spans lose their backticks.
            rows.contains(&(code.to_string(), description.replace('`', ""))),
            "reason-codes.md lacks | `{code}` | {description} |"
        );
    }
    for (code, _) in &rows {
        assert!(
            codes.iter().any(|(c, _)| c == code),
            "reason-codes.md lists {code}, which the code doesn't have"
        );
    }
}

#[test]
fn the_languages_page_lists_every_language_with_its_extensions() {
    let rows = table_rows("languages.md", "Languages and extensions");
    let listed: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone()))
        .collect();
    let expected: Vec<(String, String, String)> = Language::ALL
        .iter()
        .map(|l| {
            let exts: Vec<String> = l.extensions().map(|e| format!(".{e}")).collect();
            (l.name().to_string(), exts.join(" "), l.key().to_string())
        })
        .collect();
    assert_eq!(listed, expected);
    // Every extension the code measures is listed, and only those.
    for (_, exts, _) in &listed {
        for ext in exts.split(' ') {
            assert!(Language::of_path(&format!("x{ext}")).is_some(), "{ext}");
        }
    }
}

#[test]
fn the_sarif_page_lists_the_rules_of_the_log() {
    let s = Scenario::git();
    let run = s.run(&["measure", "--format", "sarif"]);
    assert_eq!(run.code, 0, "{run:?}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let rules: Vec<Vec<String>> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                i.to_string(),
                r["id"].as_str().expect("id").to_string(),
                r["shortDescription"]["text"]
                    .as_str()
                    .expect("text")
                    .to_string(),
                r["properties"]["tags"]
                    .as_array()
                    .expect("tags")
                    .iter()
                    .map(|t| t.as_str().expect("tag"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ]
        })
        .collect();
    let registry: Vec<Vec<String>> = Metric::ALL
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let (short, tags) = (m.def().rule_short.to_string(), m.def().tags.join(", "));
            vec![i.to_string(), m.key().to_string(), short, tags]
        })
        .collect();
    assert_eq!(rules, registry);
    assert_eq!(
        rules[7][1..],
        [
            "function_params",
            "A function with too many parameters",
            "maintainability, complexity"
        ]
    );
    assert_eq!(rules[5][3], "maintainability, size");
    let table = table_rows("sarif.md", "");
    assert_eq!(table[..rules.len()], rules[..]);
    assert!(table.len() == rules.len() || table[rules.len()].len() == 2);
    // The page's example result gives its rule's index in the list.
    let page = read(&root().join("docs/src/reference/sarif.md"));
    let example = page.split("```json\n").nth(1).expect("example");
    let example: serde_json::Value =
        serde_json::from_str(example.split("```").next().expect("end")).expect("json");
    let index = example["ruleIndex"].as_u64().expect("ruleIndex") as usize;
    assert_eq!(Some(rules[index][1].as_str()), example["ruleId"].as_str());
}

#[test]
fn the_exit_codes_page_lists_every_exit_code() {
    let listed = first_cells(&table_rows("exit-codes.md", ""));
    let codes: Vec<String> = structgate::Exit::ALL
        .iter()
        .map(|e| (*e as u8).to_string())
        .collect();
    assert_eq!(listed, codes);
}

#[test]
fn help_and_the_package_description_name_the_languages_from_the_code() {
    let languages = Language::code_languages();
    assert_eq!(
        languages,
        "C#, Rust, TypeScript, JavaScript, Python, Go and Java"
    );
    let s = Scenario::git();
    let help = s.run(&["--help"]);
    assert_eq!(help.code, 0, "{help:?}");
    assert_eq!(
        help.stdout.lines().next(),
        Some(format!("Keeps {languages} code, and Markdown documents, inside the size limits its team wrote down.").as_str())
    );
    let manifest = read(&root().join("Cargo.toml"));
    assert!(
        manifest.contains(&format!(
            "description = \"A gate that keeps {languages} code, and Markdown documents,"
        )),
        "Cargo.toml's description doesn't name {languages}"
    );
}

#[test]
fn the_readme_and_the_guide_name_the_languages_from_the_code() {
    let named = format!(
        "It measures {} with a real parser",
        Language::code_languages()
    );
    for page in ["README.md", "docs/src/introduction.md"] {
        let text = read(&root().join(page)).replace('\n', " ");
        assert!(text.contains(&named), "{page} doesn't say \"{named}\"");
    }
    // The summary and What is measured link every language's guide page, in the list's
    // order.
    let expected: Vec<String> = Language::ALL
        .iter()
        .map(|l| format!("- [{}](languages/{}.md)", l.name(), l.key()))
        .collect();
    for page in ["SUMMARY.md", "what-is-measured.md"] {
        let text = read(&root().join("docs/src").join(page));
        let links: Vec<&str> = text
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with("- [") && l.contains("](languages/"))
            .collect();
        assert_eq!(links, expected, "{page}");
    }
}

#[test]
fn every_help_says_what_the_command_does_and_names_its_guide_page() {
    let s = Scenario::git();
    let commands: [&[&str]; 13] = [
        &[],
        &["measure"],
        &["limits"],
        &["baseline"],
        &["baseline", "init"],
        &["baseline", "refresh"],
        &["baseline", "accept"],
        &["baseline", "merge"],
        &["gate"],
        &["hook"],
        &["contracts"],
        &["init"],
        &["completions"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let run = s.run(&args);
        assert_eq!(run.code, 0, "{args:?}: {run:?}");
        let page = run
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("Guide: "))
            .unwrap_or_else(|| panic!("{args:?} names no guide page: {}", run.stdout));
        assert!(root().join(page).is_file(), "{args:?}: {page}");
        let first = run.stdout.lines().next().unwrap_or_default();
        assert!(!first.is_empty() && !first.starts_with("Usage"), "{args:?}");
    }
}

#[test]
fn the_readme_is_at_most_15_kb() {
    let size = std::fs::metadata(root().join("README.md"))
        .expect("README")
        .len();
    assert!(size <= 15 * 1024, "README.md is {size} bytes");
}

/// Words that point outside the project: the repository speaks of itself alone.
#[test]
fn the_repository_cites_nothing_outside_itself() {
    let outside = [concat!("SP", "EC"), concat!("seed", " 00"), "\u{a7}"];
    let mut files = files_under(&root().join("src"), &[".rs"]);
    files.extend(files_under(&root().join("tests"), &[".rs", ".snap"]));
    files.extend(markdown_files());
    files.extend([root().join("Cargo.toml"), root().join("build.rs")]);
    let mut found = Vec::new();
    for file in files {
        for (n, line) in read(&file).lines().enumerate() {
            if outside.iter().any(|w| line.contains(w)) {
                found.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

/// The fenced code blocks of `text`: each one's info string and content.
fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some((info.to_string(), String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = open.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    blocks
}

/// Each language page's example is real: its source blocks, written to the paths their
/// first lines name in a scratch repository, measure there exactly as its console block
/// shows.
#[test]
fn every_language_page_example_measures_as_shown() {
    let mut checked = 0;
    for page in files_under(&root().join("docs/src/languages"), &[".md"]) {
        let text = read(&page);
        let Some(at) = text.find("\n## Example\n") else {
            continue;
        };
        let s = Scenario::git();
        let (mut sources, mut runs) = (0, 0);
        for (info, body) in code_blocks(&text[at..]) {
            if info != "console" {
                let first = body.lines().next().unwrap_or_default();
                let path = first
                    .strip_prefix("// ")
                    .or_else(|| first.strip_prefix("# "))
                    .unwrap_or_else(|| panic!("{}: {first} names no file", page.display()));
                s.write(path, &body);
                sources += 1;
                continue;
            }
            let (command, shown) = body.split_once('\n').expect("a command and its output");
            let args: Vec<&str> = command
                .strip_prefix("$ structgate ")
                .unwrap_or_else(|| panic!("{}: {command}", page.display()))
                .split(' ')
                .collect();
            let run = s.run(&args);
            assert_eq!(run.code, 0, "{}: {run:?}", page.display());
            assert_eq!(run.stdout, shown, "{}: {command}", page.display());
            runs += 1;
        }
        assert!(sources > 0 && runs > 0, "{}", page.display());
        checked += 1;
    }
    assert_eq!(checked, Language::ALL.len() - 1, "a page per code language");
}

/// The output the README and the guide show of `structgate measure` on the repository's
/// own demo is what the binary prints there.
#[test]
fn the_demo_output_shown_is_real() {
    let mut checked = 0;
    for file in markdown_files() {
        for (info, body) in code_blocks(&read(&file)) {
            let Some((command, shown)) = body.split_once('\n') else {
                continue;
            };
            let Some(args) = command.strip_prefix("$ structgate ") else {
                continue;
            };
            if info != "console" || !args.ends_with(" fixtures/demo") {
                continue;
            }
            let args: Vec<&str> = args.split(' ').collect();
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("structgate"))
                .args(&args)
                .current_dir(root())
                .env("NO_COLOR", "1")
                .output()
                .expect("structgate runs");
            assert!(out.status.success(), "{}: {out:?}", file.display());
            let stdout = String::from_utf8_lossy(&out.stdout);
            // A block may end with the next command: compare up to it.
            let shown = shown.split("\n$ ").next().unwrap_or_default();
            assert_eq!(
                stdout.trim_end(),
                shown.trim_end(),
                "{}: {command}",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked}");
}

/// The text of `file` from the heading line `heading` to the next heading of its level,
/// headings inside fenced code not counted.
fn section(file: &str, heading: &str) -> String {
    let text = read(&root().join(file));
    let level = format!("{} ", heading.split(' ').next().unwrap_or_default());
    let mut lines = text.lines().skip_while(|l| *l != heading);
    let mut out = vec![lines
        .next()
        .unwrap_or_else(|| panic!("{file}: no {heading}"))];
    let mut fence: Option<String> = None;
    for line in lines {
        let ticks: String = line.chars().take_while(|c| *c == '`').collect();
        match &fence {
            None if ticks.len() >= 3 => fence = Some(ticks),
            Some(open) if ticks.len() >= open.len() && line.trim_end() == ticks => fence = None,
            None if line.starts_with(&level) => break,
            _ => {}
        }
        out.push(line);
    }
    out.join("\n")
}

/// The root `AGENTS.md` recipe of the README and of the guide, followed on a project
/// whose code `structgate init` set up: the context's `context.yaml` and `principles.md`
/// as the page shows them own the file and pin it, a growth fails the gate naming the
/// file and the delta, and `baseline accept` records it for a reviewed check.
#[test]
fn the_root_agents_md_recipe_budgets_the_file() {
    for (file, heading) in [
        ("README.md", "### Budget a root AGENTS.md"),
        ("docs/src/agent-docs.md", "## A root AGENTS.md or CLAUDE.md"),
    ] {
        let blocks = code_blocks(&section(file, heading));
        let block = |info: &str| {
            blocks
                .iter()
                .find(|(i, _)| i == info)
                .map(|(_, body)| body.clone())
                .unwrap_or_else(|| panic!("{file}: no {info} block"))
        };
        let s = Scenario::git();
        s.write("Cargo.toml", "[package]\nname = \"app\"\n");
        s.write("src/main.rs", "fn main() {}\n");
        let agents = format!("# Agents\n{}\n", "Keep it lean. ".repeat(870));
        s.write("AGENTS.md", &agents);
        // A repository adopted by hand: its code context only.
        assert_eq!(s.run(&["init", "--no-agent-docs"]).code, 0, "{file}");
        s.write("agent-docs/context.yaml", &block("yaml"));
        s.write("agent-docs/principles.md", &block("markdown"));
        let limits = s.run(&["limits"]);
        assert_eq!(limits.code, 0, "{file}: {limits:?}");
        assert!(
            limits
                .stdout
                .contains("agent-docs (agent-docs)\n  owns: AGENTS.md\n"),
            "{file}: {}",
            limits.stdout
        );
        s.cut_feature();
        let grown = format!(
            "{agents}{}",
            "One more rule for every run, which makes the file grow a little.\n".repeat(7)
        );
        s.write("AGENTS.md", &grown);
        let gate = s.gate(&["--require-judged"]);
        assert_eq!(gate.code, 1, "{file}: {gate:?}");
        assert_eq!(
            gate.stdout.lines().skip(1).collect::<Vec<_>>(),
            [
                "structure judged 1 file(s) in 2 context(s): 2 value(s) grown past their pin",
                "AGENTS.md:1 AGENTS.md: file_bytes 12645 > pinned 12190 (+455; limit 16384, band 16384)",
                "AGENTS.md:1 AGENTS.md: loaded_bytes 12645 > pinned 12190 (+455; limit 32768, band 32768)",
            ],
            "{file}"
        );
        assert_eq!(
            s.run(&["baseline", "accept", "AGENTS.md"]).code,
            0,
            "{file}"
        );
        let accepted = s.gate(&["--accept-growth", "--require-judged"]);
        assert_eq!(accepted.code, 0, "{file}: {accepted:?}");
    }
}
