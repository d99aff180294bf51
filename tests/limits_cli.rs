//! `structgate limits` and the configuration errors every command reports (docs/src/reference/contexts.md, docs/src/reference/limits.md).

use crate::common;

use common::{cs_class, principles, Scenario};

const PRINCIPLES: &str = "# Principles\n\n## Limits\n\n```yaml\nfunction_lines: 55\ntype_lines: 400\ntolerance_percent: 25\n```\n\n\
## Project Specifics — inventory\n\n### Limits\n\n```yml\ntype_lines: 500\n```\n";

fn two_contexts() -> Scenario {
    let s = Scenario::git();
    s.write("services/inventory/context.yaml", "meta:\n  name: inventory\n  workdir: services/inventory\nsources:\n  - src/Api\n  - src/Core\n");
    s.write("services/inventory/principles.md", PRINCIPLES);
    s.write("web/context.yaml", "meta:\n  workdir: web\n");
    for dir in ["src/Api", "src/Core"] {
        std::fs::create_dir_all(s.abs(&format!("services/inventory/{dir}"))).expect("mkdir");
    }
    s
}

#[test]
fn limits_shows_values_bands_origins_and_baseline_state() {
    let s = two_contexts();
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn limits_json_names_where_each_value_came_from() {
    let s = two_contexts();
    let run = s.run(&[
        "limits",
        "--format",
        "json",
        "--context",
        "services/inventory",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let c = &v["contexts"][0];
    assert_eq!(v["contexts"].as_array().map(Vec::len), Some(1));
    assert_eq!(c["name"], "inventory");
    assert_eq!(
        c["limits"]["type_lines"],
        serde_json::json!({"value": 500, "band": 625, "from": "project_specifics"})
    );
    assert_eq!(
        c["limits"]["function_lines"],
        serde_json::json!({"value": 55, "band": 68, "from": "limits"})
    );
    assert_eq!(c["baseline"]["exists"], false);
}

const KNOWN: &str =
    "(known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, \
                     types_per_file, new_file_bytes, pinned, tiers, tolerance_percent)";

#[test]
fn an_unknown_key_is_an_error_in_limits_and_the_baseline_commands_and_a_warning_elsewhere() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\nsources: [src]\n");
    s.write(
        "principles.md",
        &principles("function_lines: 10\ntolerance: 20\ntype_line: 500\n"),
    );
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    let refused = format!(
        "error: principles.md:7: unknown Limits key tolerance: did you mean tolerance_percent? {KNOWN}\n\
         principles.md:8: unknown Limits key type_line: did you mean type_lines? {KNOWN}\n"
    );
    for args in [
        &["limits"][..],
        &["baseline", "init"],
        &["baseline", "refresh"],
        &["baseline", "init", "--check"],
    ] {
        let run = s.run(args);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (2, ""),
            "{args:?}: {run:?}"
        );
        assert_eq!(run.stderr, refused, "error: principles.md:7: unknown Limits key tolerance: did you mean tolerance_percent? (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tiers, tolerance_percent)\n\
                                         principles.md:8: unknown Limits key type_line: did you mean type_lines? (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tiers, tolerance_percent)\n");
    }
    assert!(!s.abs("structure-baseline.tsv").exists());
    let warned = format!(
        "warning: principles.md:7: unknown Limits key tolerance: did you mean tolerance_percent? {KNOWN}\n\
         warning: principles.md:8: unknown Limits key type_line: did you mean type_lines? {KNOWN}\n"
    );
    let run = s.run(&["measure", "src"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, warned.as_str()),
        "{run:?}"
    );
    s.write(
        "structure-baseline.tsv",
        "# measured with: function_lines=10 tolerance_percent=0\n",
    );
    s.commit("base");
    // The gate lists them in its report, as terms warnings (gate_terms_warnings).
    let run = s.run(&["gate", "--base", "main"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert!(
        run.stdout.ends_with(
            "terms warning: principles.md:7: unknown Limits key tolerance (did you mean \
             tolerance_percent?): that limit is not in force\n\
             terms warning: principles.md:8: unknown Limits key type_line (did you mean \
             type_lines?): that limit is not in force\n"
        ),
        "{run:?}"
    );
}

#[test]
fn an_unknown_key_far_from_every_known_one_names_the_known_keys_alone() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write(
        "principles.md",
        &principles("function_lines: 10\nbogus: 1\n"),
    );
    let run = s.run(&["limits"]);
    assert_eq!(
        (run.code, run.stderr),
        (
            2,
            format!("error: principles.md:7: unknown Limits key bogus {KNOWN}\n")
        )
    );
}

#[test]
fn a_context_yaml_key_one_slip_from_a_known_one_warns_and_other_tools_keys_do_not() {
    let s = Scenario::git();
    s.write(
        "context.yaml",
        "meta:\n  name: app\n  owner: team\nsource:\n  - src\nlinters: [clippy]\n",
    );
    s.write("principles.md", &principles("function_lines: 10\n"));
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    let run = s.run(&["measure", "src"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            0,
            "warning: context.yaml:4: structgate does not read the key \"source\": did you mean sources?\n"
        ),
        "{run:?}"
    );
}

fn bad_value(value: &str) -> common::Run {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write(
        "principles.md",
        &principles(&format!("function_lines: {value}\n")),
    );
    s.run(&["measure"])
}

#[test]
fn bad_values_are_errors_naming_file_line_key_and_value() {
    for value in ["-3", "0", "55.5", "\"55\"", "null", "[1, 2]"] {
        let run = bad_value(value);
        assert_eq!(run.code, 2, "{value}: {run:?}");
        assert!(
            run.stderr.contains("principles.md:6"),
            "{value}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("function_lines"),
            "{value}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_sources_entry_leaving_the_repository_is_an_error() {
    let s = Scenario::git();
    s.write("context.yaml", "sources:\n  - ../outside\n");
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("context.yaml"), "{}", run.stderr);
    assert!(run.stderr.contains("../outside"), "{}", run.stderr);
}

#[test]
fn two_contexts_owning_one_directory_is_an_error_naming_both() {
    let s = Scenario::git();
    s.write("a/context.yaml", "sources: [src]\n");
    s.write("b/context.yaml", "sources: [src]\n");
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("a/context.yaml"), "{}", run.stderr);
    assert!(run.stderr.contains("b/context.yaml"), "{}", run.stderr);
}

#[test]
fn a_context_yaml_that_is_not_a_mapping_is_an_error() {
    let s = Scenario::git();
    s.write("context.yaml", "- just\n- a list\n");
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("context.yaml"), "{}", run.stderr);
}

#[test]
fn the_longest_owned_directory_wins() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: outer\nsources: [src]\n");
    s.write("principles.md", &principles("function_lines: 10\n"));
    s.write(
        "src/inner/context.yaml",
        "meta:\n  name: inner\n  workdir: src/inner\n",
    );
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    s.write("src/inner/B.cs", &cs_class("B", &[("Run", 50)]));
    let run = s.run(&["measure", "--check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let owners: Vec<(String, String)> = v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or("").to_string(),
                f["context"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("principles.md".to_string(), String::new()),
            ("src/A.cs".to_string(), "outer".to_string()),
            ("src/inner/B.cs".to_string(), "inner".to_string())
        ]
    );
}

#[test]
fn limits_none_declared_says_what_was_found_instead() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\n");
    s.write(
        "principles.md",
        "# Principles\n\n## limits\n\n```\nfunction_lines: 55\n```\n",
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "app (.)\n\
         \x20 owns: .\n\
         \x20 limits: none declared in principles.md (no ## Limits section)\n\
         \x20   found instead: principles.md:3: a heading \"## limits\": only a level-2 heading titled exactly Limits starts the section\n\
         \x20 baseline: none (structure-baseline.tsv does not exist)\n"
    );
    let json = s.run(&["limits", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["contexts"][0]["no_limits"],
        serde_json::json!({
            "reason": "no ## Limits section",
            "found_instead": ["principles.md:3: a heading \"## limits\": only a level-2 heading titled exactly Limits starts the section"],
        })
    );
}

#[test]
fn two_contexts_of_one_name_are_an_error_naming_both_files_unless_meta_name_differs() {
    let s = Scenario::git();
    let repo = s.path().canonicalize().expect("canonical");
    let name = repo.file_name().and_then(|n| n.to_str()).expect("name");
    s.write("context.yaml", "sources: [docs]\n");
    s.write(&format!("{name}/context.yaml"), "sources: [src]\n");
    std::fs::create_dir_all(s.abs("docs")).expect("mkdir");
    std::fs::create_dir_all(s.abs("src")).expect("mkdir");
    let expected = format!(
        "error: two contexts are named {name:?}: context.yaml and {name}/context.yaml (set \
         meta.name in one of them to tell them apart)\n"
    );
    for args in [&["limits"][..], &["measure"], &["baseline", "init"]] {
        let run = s.run(args);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (2, expected.as_str()),
            "{args:?}"
        );
    }
    s.write(
        &format!("{name}/context.yaml"),
        "meta:\n  name: library\nsources: [src]\n",
    );
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
}
