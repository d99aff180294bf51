//! Tests of context discovery and ownership: every rule of docs/src/reference/contexts.md.

use super::*;
use crate::source::MemorySource;

fn discover_in(files: &[(&str, &str)]) -> Result<Contexts, ContextError> {
    let source = files
        .iter()
        .fold(MemorySource::default(), |s, (path, text)| {
            s.with(path, text)
        });
    discover(&source, "shop")
}

fn ok(files: &[(&str, &str)]) -> Contexts {
    discover_in(files).expect("contexts")
}

fn err(files: &[(&str, &str)]) -> String {
    discover_in(files).expect_err("an error").to_string()
}

fn summary(contexts: &Contexts) -> Vec<(String, String, String, Vec<String>)> {
    contexts
        .list
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.dir.clone(),
                c.workdir.clone(),
                c.owned.clone(),
            )
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn names_default_to_the_directory_or_the_repository() {
    let contexts = ok(&[
        ("context.yaml", "meta:\n  workdir: web\n"),
        (
            "services/inventory/context.yaml",
            "sources: [services/inventory]\n",
        ),
        (
            "billing/context.yaml",
            "meta:\n  name: payments\nsources: [billing]\n",
        ),
    ]);
    let names: Vec<(&str, &str)> = contexts
        .list
        .iter()
        .map(|c| (c.dir.as_str(), c.name.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("", "shop"),
            ("billing", "payments"),
            ("services/inventory", "inventory")
        ]
    );
}

#[test]
fn workdir_is_relative_to_the_repository_root_and_sources_to_the_workdir() {
    let text = "meta:\n  name: inventory\n  workdir: services/inventory\nsources:\n  - src/Inventory.Api\n  - ./src/Inventory.Core/\n  - ../shared\n";
    let contexts = ok(&[("services/inventory/context.yaml", text)]);
    assert_eq!(
        summary(&contexts),
        vec![(
            "inventory".to_string(),
            "services/inventory".to_string(),
            "services/inventory".to_string(),
            strings(&[
                "services/inventory/src/Inventory.Api",
                "services/inventory/src/Inventory.Core",
                "services/shared",
            ]),
        )]
    );
}

#[test]
fn no_sources_or_an_empty_list_owns_the_workdir() {
    let contexts = ok(&[
        ("a/context.yaml", "meta:\n  workdir: a\n"),
        ("b/context.yaml", "meta:\n  workdir: ./b/\nsources: []\n"),
        ("context.yaml", "sources:\n"),
    ]);
    let owned: Vec<Vec<String>> = contexts.list.iter().map(|c| c.owned.clone()).collect();
    assert_eq!(
        owned,
        vec![strings(&[""]), strings(&["a"]), strings(&["b"])]
    );
}

#[test]
fn default_workdir_is_the_repository_root() {
    let contexts = ok(&[("tools/context.yaml", "sources: [src/Tools]\n")]);
    assert_eq!(contexts.list[0].workdir, "");
    assert_eq!(contexts.list[0].owned, strings(&["src/Tools"]));
}

#[test]
fn empty_or_null_documents_take_every_default() {
    for text in ["", "# nothing here\n", "~\n", "meta:\n"] {
        let contexts = ok(&[("svc/context.yaml", text)]);
        assert_eq!(
            summary(&contexts),
            vec![(
                "svc".to_string(),
                "svc".to_string(),
                String::new(),
                strings(&[""])
            )],
            "{text:?}"
        );
    }
}

#[test]
fn other_keys_belong_to_other_tools() {
    let text = "owner: team-a\nmeta:\n  name: inv\n  version: 3\n  tags: [x]\nlint:\n  rules: {a: 1}\nsources: [src]\n";
    let contexts = ok(&[("context.yaml", text)]);
    assert_eq!(contexts.list[0].name, "inv");
    assert_eq!(contexts.list[0].owned, strings(&["src"]));
}

#[test]
fn paths_leaving_the_repository_are_errors_naming_file_and_entry() {
    assert_eq!(
        err(&[("a/context.yaml", "meta:\n  workdir: a\nsources:\n  - ../../outside\n")]),
        "a/context.yaml:4: sources entry \"../../outside\" leaves the repository (resolved from \"a\")"
    );
    assert_eq!(
        err(&[("context.yaml", "meta:\n  workdir: ..\n")]),
        "context.yaml:2: meta.workdir \"..\" leaves the repository (resolved from \".\")"
    );
}

#[test]
fn absolute_paths_are_errors_naming_file_and_entry() {
    assert_eq!(
        err(&[("context.yaml", "sources:\n  - src\n  - /srv/app\n")]),
        "context.yaml:3: sources entry \"/srv/app\" is an absolute path; write it relative to the repository"
    );
    assert_eq!(
        err(&[("x/context.yaml", "meta: {workdir: 'C:/work'}\n")]),
        "x/context.yaml:1: meta.workdir \"C:/work\" is an absolute path; write it relative to the repository"
    );
}

#[test]
fn two_contexts_owning_one_directory_is_an_error_naming_both() {
    assert_eq!(
        err(&[
            ("a/context.yaml", "sources: [src/Shared]\n"),
            (
                "b/context.yaml",
                "meta: {workdir: src}\nsources: [Shared/]\n"
            ),
        ]),
        "directory \"src/Shared\" is owned by two contexts: a/context.yaml and b/context.yaml"
    );
    // Neither names a workdir or sources: both own the root.
    assert_eq!(
        err(&[("a/context.yaml", ""), ("b/context.yaml", "")]),
        "directory \".\" is owned by two contexts: a/context.yaml and b/context.yaml"
    );
}

#[test]
fn the_longest_owned_directory_wins() {
    let contexts = ok(&[
        ("context.yaml", "meta: {name: all}\n"),
        (
            "svc/context.yaml",
            "sources: [src/App, src/App/Core/Deep]\n",
        ),
        ("core/context.yaml", "sources: [src/App/Core]\n"),
    ]);
    let owner = |path: &str| contexts.owner(path).map(|c| c.name.clone());
    assert_eq!(owner("README.md"), Some("all".to_string()));
    assert_eq!(owner("src/App/Program.cs"), Some("svc".to_string()));
    assert_eq!(owner("src/App/Core/Price.cs"), Some("core".to_string()));
    assert_eq!(owner("src/App/Core/Deep/x.cs"), Some("svc".to_string()));
    assert_eq!(owner("src/AppTests/x.cs"), Some("all".to_string()));
}

#[test]
fn files_outside_every_owned_directory_have_no_owner() {
    let contexts = ok(&[("a/context.yaml", "sources: [src/App]\n")]);
    assert_eq!(contexts.owner("src/AppTests/x.cs"), None);
    assert_eq!(contexts.owner("src/Ap"), None);
    assert!(contexts.owner("src/App/x.cs").is_some());
}

#[test]
fn a_file_entry_owns_that_file_and_beats_every_directory() {
    let contexts = ok(&[
        ("context.yaml", "meta:\n  name: all\n"),
        (
            "agents/context.yaml",
            "sources: [AGENTS.md, src/App/AGENTS.md]\n",
        ),
        ("src/context.yaml", "sources: [src/App]\n"),
    ]);
    let owner = |path: &str| contexts.owner(path).map(|c| c.name.clone());
    assert_eq!(owner("AGENTS.md"), Some("agents".to_string()));
    assert_eq!(owner("src/App/AGENTS.md"), Some("agents".to_string()));
    assert_eq!(owner("src/App/AGENTS.mdx"), Some("src".to_string()));
    assert_eq!(owner("docs/AGENTS.md"), Some("all".to_string()));
}

#[test]
fn documents_that_are_not_mappings_are_errors_with_lines() {
    assert_eq!(
        err(&[("context.yaml", "# c\n- src\n")]),
        "context.yaml:2: invalid type: sequence, expected a mapping with optional keys meta, sources and exclude"
    );
    assert_eq!(
        err(&[("context.yaml", "meta: inventory\n")]),
        "context.yaml:1: meta: invalid type: string \"inventory\", expected a mapping with optional keys name and workdir"
    );
    assert_eq!(
        err(&[("context.yaml", "sources: src\n")]),
        "context.yaml:1: sources: invalid type: string \"src\", expected a sequence"
    );
}

#[test]
fn names_workdirs_and_sources_must_be_strings() {
    assert_eq!(
        err(&[("context.yaml", "meta:\n  name: 123\n")]),
        "context.yaml:2: meta.name: invalid type: integer `123`, expected a string"
    );
    assert_eq!(
        err(&[("context.yaml", "meta:\n  workdir: [a]\n")]),
        "context.yaml:2: meta.workdir: invalid type: sequence, expected a string"
    );
    assert_eq!(
        err(&[("context.yaml", "sources:\n  - src\n  - ~\n")]),
        "context.yaml:3: sources[1]: invalid type: unit value, expected a string"
    );
    assert_eq!(
        err(&[("context.yaml", "meta:\n  name: ' '\n")]),
        "context.yaml: meta.name is empty"
    );
}

#[test]
fn broken_yaml_and_bad_bytes_name_the_file() {
    // The syntax error, not the type error of what came before it.
    let broken = err(&[("svc/context.yaml", "meta:\n  name: [x\n")]);
    assert!(
        broken.starts_with("svc/context.yaml:3: did not find expected"),
        "{broken}"
    );
    let mut source = MemorySource::default();
    source
        .files
        .insert("context.yaml".into(), vec![0xff, b'\n']);
    assert_eq!(
        discover(&source, "shop").unwrap_err().to_string(),
        "context.yaml: not UTF-8"
    );
}

#[test]
fn a_bom_and_crlf_are_accepted() {
    let contexts = ok(&[(
        "context.yaml",
        "\u{feff}meta:\r\n  name: inv\r\nsources:\r\n  - src\r\n",
    )]);
    assert_eq!(contexts.list[0].name, "inv");
    assert_eq!(contexts.list[0].owned, strings(&["src"]));
}

#[test]
fn restrict_keeps_named_contexts_and_leaves_the_others_owning() {
    let contexts = ok(&[
        ("context.yaml", "meta: {name: all}\n"),
        ("svc/context.yaml", "sources: [svc]\n"),
        ("web/context.yaml", "sources: [web]\n"),
    ]);
    let root = contexts.restrict(&strings(&["."])).expect("restricted");
    let dirs: Vec<&str> = root.list.iter().map(|c| c.dir.as_str()).collect();
    assert_eq!(dirs, vec![""]);
    assert_eq!(
        root.owner("README.md").map(|c| c.name.as_str()),
        Some("all")
    );
    assert_eq!(root.owner("svc/x.rs"), None);
    let two = contexts
        .restrict(&strings(&["./web/", "svc"]))
        .expect("restricted");
    let dirs: Vec<&str> = two.list.iter().map(|c| c.dir.as_str()).collect();
    assert_eq!(dirs, vec!["svc", "web"]);
    assert_eq!(contexts.restrict(&[]), Ok(contexts.clone()));
}

#[test]
fn restrict_to_an_unknown_directory_names_it() {
    let contexts = ok(&[
        ("context.yaml", ""),
        ("svc/context.yaml", "sources: [svc]\n"),
    ]);
    assert_eq!(
        contexts
            .restrict(&strings(&["svc", "src"]))
            .unwrap_err()
            .to_string(),
        "--context src: no context.yaml there (contexts: ., svc)"
    );
    assert_eq!(
        Contexts::default()
            .restrict(&strings(&["../x"]))
            .unwrap_err()
            .to_string(),
        "--context ../x: no context.yaml there (contexts: none)"
    );
}

#[test]
fn alias_bomb_in_a_context_returns_promptly() {
    let mut text = String::from("tool:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..9u8 {
        let (prev, name) = (char::from(b'a' + level - 1), char::from(b'a' + level));
        let refs = vec![format!("*{prev}"); 9].join(", ");
        text.push_str(&format!("  {name}: &{name} [{refs}]\n"));
    }
    text.push_str("meta:\n  name: *i\n");
    let start = crate::thread_cpu::ThreadCpu::now();
    let result = err(&[("context.yaml", &text)]);
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    // serde_yaml names the line of the anchored node an alias stands for.
    assert_eq!(
        result,
        "context.yaml:10: meta.name: invalid type: sequence, expected a string"
    );
}

#[test]
fn a_key_one_slip_from_a_known_one_warns_and_other_tools_keys_do_not() {
    let yaml = "meta:\n  name: shop\n  work_dir: .\nsource:\n  - src\nowners: [team]\ndata: 1\nMeta: {}\nworkdir: .\n";
    let contexts = ok(&[("context.yaml", yaml)]);
    assert_eq!(
        contexts.warnings,
        strings(&[
            "context.yaml:4: structgate does not read the key \"source\": did you mean sources?",
            "context.yaml:8: structgate does not read the key \"Meta\": did you mean meta?",
            "context.yaml:9: structgate does not read the key \"workdir\": did you mean meta.workdir?",
            "context.yaml:3: structgate does not read the key \"work_dir\": did you mean meta.workdir?",
        ])
    );
    let clean = ok(&[(
        "context.yaml",
        "meta:\n  name: shop\nsources: [src]\nowners: [a]\n",
    )]);
    assert_eq!(clean.warnings, Vec::<String>::new());
}
