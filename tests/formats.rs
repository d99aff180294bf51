//! `--format sarif` and `--format github` for `gate` and `measure`, pinned byte for byte
//! or value for value; every SARIF log is validated against the official SARIF 2.1.0
//! JSON schema (`fixtures/sarif/sarif-schema-2.1.0.json`).

use crate::common;

use common::{cs_class, exact, pretty_json, Scenario};
use serde_json::{json, Value};

/// [`Scenario::feature_of_inventory`], where `feature` grew `Small.Run` to 13 lines (an
/// excess, lines 3-15) and the new `Mid.Go` has 11 (a divergence, lines 3-13).
fn repo() -> Scenario {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 13)]));
    s.write("src/Mid.cs", &cs_class("Mid", &[("Go", 11)]));
    s
}

/// FNV-1a (64-bit) of path, unit and metric joined by NUL: the documented fingerprint.
fn fingerprint(path: &str, unit: &str, metric: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("{path}\0{unit}\0{metric}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The official schema's complaints about a SARIF log, one line each.
fn schema_errors(log: &Value) -> Vec<String> {
    let schema_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/sarif/sarif-schema-2.1.0.json"
    );
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema")).expect("json");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Parses a SARIF log and checks it against the official schema; returns the log.
fn valid_sarif(text: &str) -> Value {
    let log: Value = serde_json::from_str(text).expect("SARIF is JSON");
    assert_eq!(schema_errors(&log), Vec::<String>::new(), "{text}");
    log
}

/// Asserts that each SARIF result's fingerprint is the documented one of its path, unit
/// and metric.
fn assert_fingerprints(results: &Value) {
    for result in results.as_array().expect("results") {
        let path = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("uri");
        let unit = result["properties"]["unit"].as_str().expect("unit");
        let metric = result["ruleId"].as_str().expect("rule");
        assert_eq!(
            result["partialFingerprints"]["structgateUnit/v1"],
            fingerprint(path, unit, metric),
            "{result}"
        );
    }
}

#[test]
fn gate_github_annotates_each_excess_and_divergence() {
    let s = repo();
    let run = s.run(&["gate", "--format", "github"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.redact(&run.stdout));
}

#[test]
fn gate_github_escapes_properties_and_data() {
    let s = repo();
    s.git_ok(&["checkout", "-q", "--", "src/Small.cs"]);
    s.remove("src/Mid.cs");
    s.write("src/50%: a,b.cs", &cs_class("Odd", &[("Go", 14)]));
    s.write("src/Tests/ATests.cs", &cs_class("ATests", &[("Go", 40)]));
    let run = s.run(&["gate", "--format", "github"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(s.redact(&run.stdout));
}

#[test]
fn gate_github_passing_run_prints_the_plain_summary_only() {
    let s = repo();
    s.git_ok(&["checkout", "-q", "--", "src/Small.cs"]);
    s.remove("src/Mid.cs");
    s.write("README.md", "notes\n");
    s.commit("notes");
    let run = s.run(&["gate", "--format", "github"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "base {} (merge-base of HEAD and main)\n\
             structure judged 0 file(s) in 1 context(s), within their Limits\n",
            s.rev_parse("main")
        )
    );
}

#[test]
fn gate_github_not_judged_is_a_warning() {
    let s = repo();
    let run = s.run(&["gate", "--format", "github", "--start", "nowhere"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "::warning title=structure not judged::no comparable base: --start nowhere does not name a commit\n"
    );
}

#[test]
fn gate_sarif_is_valid_with_one_result_per_finding() {
    let s = repo();
    let run = s.run(&["gate", "--format", "sarif"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log = valid_sarif(&run.stdout);
    assert_eq!(log["version"], "2.1.0");
    let sarif_run = &log["runs"][0];
    assert_fingerprints(&sarif_run["results"]);
    let asserted = json!({
        "results": sarif_run["results"],
        "properties": sarif_run["properties"],
        "invocations": sarif_run["invocations"],
    });
    insta::assert_snapshot!(s.redact(&pretty_json(&asserted)));
}

#[test]
fn sarif_rules_name_every_metric_with_help() {
    let s = repo();
    let log = valid_sarif(&s.run(&["gate", "--format", "sarif"]).stdout);
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "structgate");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "chain_bytes",
            "file_bytes",
            "file_lines",
            "function_cognitive",
            "function_cyclomatic",
            "function_lines",
            "function_nesting",
            "function_params",
            "loaded_bytes",
            "type_lines",
            "types_per_file"
        ]
    );
    let help = rules[5]["help"]["text"].as_str().expect("help text");
    assert!(
        help.starts_with("function_lines limits the lines of one function, method,"),
        "{help}"
    );
    assert!(
        help.contains("structure-baseline.tsv tolerates the unit"),
        "{help}"
    );
    assert_eq!(
        rules[5]["shortDescription"]["text"],
        "A function past its line limit"
    );
}

#[test]
fn sarif_fingerprint_survives_a_line_shift() {
    let s = repo();
    s.remove("src/Mid.cs");
    let before = valid_sarif(&s.run(&["gate", "--format", "sarif"]).stdout);
    let grown = cs_class("Small", &[("Run", 13)]);
    s.write("src/Small.cs", &format!("// a comment\n\n{grown}"));
    let after = valid_sarif(&s.run(&["gate", "--format", "sarif"]).stdout);
    let (b, a) = (
        &before["runs"][0]["results"][0],
        &after["runs"][0]["results"][0],
    );
    assert_eq!(
        b["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );
    assert_eq!(
        a["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
    assert_eq!(b["partialFingerprints"], a["partialFingerprints"]);
}

#[test]
fn gate_sarif_not_judged_has_no_results_and_says_why() {
    let s = repo();
    let run = s.run(&["gate", "--format", "sarif", "--start", "nowhere"]);
    assert_eq!(run.code, 0, "{run:?}");
    let log = valid_sarif(&run.stdout);
    let sarif_run = &log["runs"][0];
    assert_eq!(sarif_run["results"], json!([]));
    assert_eq!(
        sarif_run["invocations"][0]["toolExecutionNotifications"],
        json!([{"level": "warning", "message": {
            "text": "structure not judged: no comparable base: --start nowhere does not name a commit"}}])
    );
    assert_eq!(
        sarif_run["properties"],
        json!({"status": "not_judged", "base": null, "judged_files": 0, "terms_from": "base"})
    );
}

#[test]
fn gate_sarif_lists_left_out_and_skipped_files_as_notes_and_unmeasurable_ones_as_errors() {
    let s = repo();
    // Not UTF-8 at the base already: skipped, a note. New and not UTF-8: an error.
    s.git_ok(&["stash", "-q", "-u"]);
    s.git_ok(&["checkout", "-q", "main"]);
    s.write_bytes("src/Latin1.cs", b"class Caf\xe9 {}\n");
    s.commit("latin-1");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "--ff-only", "main"]);
    s.git_ok(&["stash", "pop", "-q"]);
    s.write_bytes("src/Latin1.cs", b"class Caf\xe9 { }\n");
    s.write_bytes("src/New1.cs", b"class Caf\xe9 {}\n");
    s.write("src/Tests/ATests.cs", &cs_class("ATests", &[("Go", 40)]));
    let log = valid_sarif(&s.run(&["gate", "--format", "sarif"]).stdout);
    insta::assert_snapshot!(
        "left_out_and_skipped_notifications",
        pretty_json(&log["runs"][0]["invocations"][0]["toolExecutionNotifications"])
    );
    let location = |uri: &str| json!([{"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}}}]);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(
        results.last(),
        Some(&json!({"ruleId": "unmeasurable", "level": "error",
            "message": {"text": "src/New1.cs: unmeasurable (not UTF-8)"},
            "locations": location("src/New1.cs"), "properties": {"reason": "not-utf8"}}))
    );
}

#[test]
fn measure_sarif_check_fails_on_an_excess_and_leaves_tolerated_units_out() {
    let s = repo();
    let run = s.run(&["measure", "--check", "--format", "sarif", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log = valid_sarif(&run.stdout);
    // Big.Old (20 lines) is tolerated by the baseline: no result.
    assert_fingerprints(&log["runs"][0]["results"]);
    insta::assert_snapshot!(pretty_json(&log["runs"][0]["results"]));
    assert_eq!(log["runs"][0]["properties"], json!({"measured_files": 3}));
}

#[test]
fn measure_sarif_without_check_exits_zero_with_the_same_results() {
    let s = repo();
    let run = s.run(&["measure", "--format", "sarif", "src"]);
    assert_eq!(run.code, 0, "{run:?}");
    let log = valid_sarif(&run.stdout);
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(2));
}

#[test]
fn measure_sarif_uri_is_percent_encoded() {
    let s = repo();
    s.write("src/a b/Ü.cs", &cs_class("U", &[("Go", 14)]));
    let log = valid_sarif(&s.run(&["measure", "--format", "sarif", "src/a b"]).stdout);
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/a%20b/%C3%9C.cs");
}

#[test]
fn measure_github_annotates_and_ends_with_the_summary() {
    let s = repo();
    let run = s.run(&["measure", "--check", "--format", "github", "src"]);
    assert_eq!(run.code, 1, "{run:?}");
    insta::assert_snapshot!(exact(&run.stdout));
}

#[test]
fn the_schema_check_catches_a_broken_log() {
    let s = repo();
    let mut log: Value =
        serde_json::from_str(&s.run(&["gate", "--format", "sarif"]).stdout).expect("json");
    log["runs"][0]["results"][0]["level"] = json!("fatal");
    log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        json!(0);
    let errors = schema_errors(&log);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].ends_with("at /runs/0/results/0/level"),
        "{errors:?}"
    );
    assert!(
        errors[1].ends_with("at /runs/0/results/1/locations/0/physicalLocation/region/startLine"),
        "{errors:?}"
    );
}
