//! `structgate limits` and the configuration errors every command reports (SPEC §2, §3).

mod common;

use common::{cs_class, principles, Scenario};

const PRINCIPLES: &str = "# Principles\n\n## Limits\n\n```yaml\nfunction_lines: 55\ntype_lines: 400\ntolerance_percent: 25\n```\n\n\
## Project Specifics — inventory\n\n### Limits\n\n```yml\ntype_lines: 500\n```\n";

fn two_contexts() -> Scenario {
    let s = Scenario::git();
    s.write("services/inventory/context.yaml", "meta:\n  name: inventory\n  workdir: services/inventory\nsources:\n  - src/Api\n  - src/Core\n");
    s.write("services/inventory/principles.md", PRINCIPLES);
    s.write("web/context.yaml", "meta:\n  workdir: web\n");
    s
}

#[test]
fn limits_shows_values_bands_origins_and_baseline_state() {
    let s = two_contexts();
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "inventory (services/inventory)\n\
         \x20 owns: services/inventory/src/Api, services/inventory/src/Core\n\
         \x20 function_lines        55  band     68  from ## Limits\n\
         \x20 type_lines           500  band    625  from Project Specifics ### Limits\n\
         \x20 tolerance_percent     25  from ## Limits\n\
         \x20 baseline: none (services/inventory/structure-baseline.tsv does not exist)\n\
         web (web)\n\
         \x20 owns: web\n\
         \x20 limits: none (web/principles.md does not exist)\n\
         \x20 baseline: none (web/structure-baseline.tsv does not exist)\n"
    );
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

#[test]
fn an_unknown_key_is_an_error_in_limits_and_a_warning_elsewhere() {
    let s = Scenario::git();
    s.write("context.yaml", "meta:\n  name: app\nsources: [src]\n");
    s.write(
        "principles.md",
        &principles("function_lines: 10\nmethod_lines: 5\n"),
    );
    s.write("src/A.cs", &cs_class("A", &[("Run", 5)]));
    let run = s.run(&["limits"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("principles.md:7"), "{}", run.stderr);
    assert!(run.stderr.contains("method_lines"), "{}", run.stderr);
    let run = s.run(&["measure", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.starts_with("warning: "), "{}", run.stderr);
    assert!(run.stderr.contains("method_lines"), "{}", run.stderr);
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
