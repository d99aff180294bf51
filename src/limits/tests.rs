//! Tests of the limits reader: every rule of docs/src/reference/limits.md, with the lines a user would check.

use std::time::Duration;

use super::*;
use crate::source::MemorySource;
use crate::thread_cpu::ThreadCpu;

const P: &str = "ctx/principles.md";

fn limits(text: &str) -> Limits {
    parse(text, P).expect("limits").limits
}

fn err(text: &str) -> String {
    parse(text, P).expect_err("an error").to_string()
}

fn values(l: &Limits) -> Vec<(&'static str, u64)> {
    l.values.iter().map(|(m, v)| (m.key(), *v)).collect()
}

#[test]
fn limits_fence_gives_values_tolerance_band_and_origins() {
    let l = limits("# P\n\n## Limits\n\n```yaml\nfunction_lines: 55\ntolerance_percent: 25\n```\n");
    assert_eq!(values(&l), vec![("function_lines", 55)]);
    assert_eq!(l.tolerance_percent, 25);
    assert_eq!(l.band(Metric::FunctionLines), Some(68));
    assert_eq!(l.origins.get("function_lines"), Some(&Origin::Limits));
    assert_eq!(l.origins.get("tolerance_percent"), Some(&Origin::Limits));
    assert!(l.has_limits());
}

#[test]
fn document_budget_keys_are_limits_with_bands() {
    let text = fence("loaded_bytes: 65536\nfile_bytes: 32768\ntolerance_percent: 10");
    let l = limits(&text);
    assert_eq!(
        values(&l),
        vec![("file_bytes", 32768), ("loaded_bytes", 65536)]
    );
    assert_eq!(l.band(Metric::FileBytes), Some(36044));
    assert_eq!(l.band(Metric::LoadedBytes), Some(72089));
    assert!(read_unknown(&text).is_empty());
    assert_eq!(
        err(&fence("file_bytes: 32KiB")),
        "ctx/principles.md:6: file_bytes: \"32KiB\" is not a positive whole number"
    );
}

fn read_unknown(text: &str) -> Vec<String> {
    let read = parse(text, P).expect("limits");
    read.unknown_keys.iter().map(|k| k.to_string()).collect()
}

#[test]
fn limits_heading_inside_a_code_block_is_not_a_section() {
    let text = "# P\n\n~~~markdown\n## Limits\n```yaml\nfile_lines: 5\n```\n~~~\n";
    assert_eq!(limits(text), Limits::default());
    let indented = "# P\n\n    ## Limits\n\n```yaml\nfile_lines: 5\n```\n";
    assert_eq!(limits(indented), Limits::default());
}

#[test]
fn fence_inside_a_list_counts_with_its_file_lines() {
    let text = "## Limits\n\n- the limits:\n\n  ```yaml\n  type_lines: 300\n  ```\n";
    assert_eq!(values(&limits(text)), vec![("type_lines", 300)]);
    let bad =
        "## Limits\n\n- the limits:\n\n  ```yaml\n  type_lines: 300\n  file_lines: 0\n  ```\n";
    assert_eq!(
        err(bad),
        "ctx/principles.md:7: file_lines: 0 is not a positive whole number"
    );
}

#[test]
fn fence_inside_a_blockquote_counts_with_its_file_lines() {
    let text = "## Limits\n\n> ```yaml\n> types_per_file: 3\n> ```\n";
    assert_eq!(values(&limits(text)), vec![("types_per_file", 3)]);
    let bad = "## Limits\n\n> ```yaml\n> # c\n> types_per_file: -3\n> ```\n";
    assert_eq!(
        err(bad),
        "ctx/principles.md:5: types_per_file: -3 is not a positive whole number"
    );
}

#[test]
fn heading_inside_a_quote_starts_no_section() {
    let text = "## Example\n\n> ## Limits\n>\n> ```yaml\n> file_lines: 1\n> ```\n";
    assert_eq!(limits(text), Limits::default());
}

#[test]
fn info_string_yml_any_case_and_extra_words() {
    for info in ["yml", "YAML", "Yml", "yaml title=limits"] {
        let text = format!("## Limits\n\n```{info}\nfile_lines: 400\n```\n");
        assert_eq!(values(&limits(&text)), vec![("file_lines", 400)], "{info}");
    }
    let other_first = "## Limits\n\n```json\n{}\n```\n\n```yaml\nfile_lines: 9\n```\n";
    assert_eq!(values(&limits(other_first)), vec![("file_lines", 9)]);
    let tilde = "## Limits\n\n~~~yaml\nfile_lines: 8\n~~~\n";
    assert_eq!(values(&limits(tilde)), vec![("file_lines", 8)]);
    let unmarked = "## Limits\n\n```\nfile_lines: 8\n```\n";
    assert_eq!(limits(unmarked), Limits::default());
}

#[test]
fn crlf_files_read_with_right_lines() {
    let text =
        "# P\r\n\r\n## Limits\r\n\r\n```yaml\r\nfunction_lines: 55\r\ntype_lines: 400\r\n```\r\n";
    assert_eq!(
        values(&limits(text)),
        vec![("function_lines", 55), ("type_lines", 400)]
    );
    let bad =
        "# P\r\n\r\n## Limits\r\n\r\n```yaml\r\nfunction_lines: 55\r\ntype_lines: 55.5\r\n```\r\n";
    assert_eq!(
        err(bad),
        "ctx/principles.md:7: type_lines: 55.5 is not a positive whole number"
    );
}

#[test]
fn headings_with_trailing_spaces_and_closing_hashes() {
    let text = "## Limits   \n\n```yaml\nfile_lines: 7\n```\n\n## Project Specifics (Inventory) ##  \n\n### Limits ###\n\n```yaml\nfile_lines: 9\n```\n";
    let l = limits(text);
    assert_eq!(values(&l), vec![("file_lines", 9)]);
    assert_eq!(l.origins.get("file_lines"), Some(&Origin::ProjectSpecifics));
}

#[test]
fn project_specifics_override_key_by_key() {
    let text = "## Limits\n\n```yaml\nfunction_lines: 55\ntype_lines: 400\ntolerance_percent: 25\n```\n\n## Project Specifics for Inventory\n\nLocal rules.\n\n### Limits\n\n```yaml\nfunction_lines: 80\n```\n";
    let l = limits(text);
    assert_eq!(
        values(&l),
        vec![("function_lines", 80), ("type_lines", 400)]
    );
    assert_eq!(l.tolerance_percent, 25);
    assert_eq!(
        l.origins.get("function_lines"),
        Some(&Origin::ProjectSpecifics)
    );
    assert_eq!(l.origins.get("type_lines"), Some(&Origin::Limits));
    assert_eq!(l.origins.get("tolerance_percent"), Some(&Origin::Limits));
}

#[test]
fn project_specifics_alone_still_apply() {
    let text = "## Project Specifics\n\n### Limits\n\n```yaml\nfile_lines: 600\n```\n";
    assert_eq!(values(&limits(text)), vec![("file_lines", 600)]);
}

#[test]
fn project_specifics_needs_level_two_and_its_own_limits_subsection() {
    let h3 = "## Limits\n\n```yaml\nfile_lines: 1\n```\n\n### Project Specifics\n\n### Limits\n\n```yaml\nfile_lines: 2\n```\n";
    assert_eq!(values(&limits(h3)), vec![("file_lines", 1)]);
    let after = "## Project Specifics\n\n### Limits\n\n### Notes\n\n```yaml\nfile_lines: 2\n```\n";
    assert_eq!(limits(after), Limits::default());
    let elsewhere = "## Other\n\n### Limits\n\n```yaml\nfile_lines: 2\n```\n";
    assert_eq!(limits(elsewhere), Limits::default());
}

#[test]
fn only_the_first_fence_counts() {
    let text = "## Limits\n\n```yaml\nfile_lines: 1\n```\n\n```yaml\nfile_lines: [broken\n```\n";
    assert_eq!(values(&limits(text)), vec![("file_lines", 1)]);
    let empty_first = "## Limits\n\n```yaml\n# nothing yet\n\n```\n\n```yaml\nfile_lines: 3\n```\n";
    assert_eq!(limits(empty_first), Limits::default());
}

#[test]
fn section_boundaries() {
    let sub = "## Limits\n\nProse.\n\n### Details\n\n```yaml\nfile_lines: 4\n```\n";
    assert_eq!(values(&limits(sub)), vec![("file_lines", 4)]);
    let next_h2 = "## Limits\n\nProse.\n\n## Other\n\n```yaml\nfile_lines: 4\n```\n";
    assert_eq!(limits(next_h2), Limits::default());
    let next_h1 = "## Limits\n\n# Part two\n\n```yaml\nfile_lines: 4\n```\n";
    assert_eq!(limits(next_h1), Limits::default());
    let before = "```yaml\nfile_lines: 4\n```\n\n## Limits\n";
    assert_eq!(limits(before), Limits::default());
    let setext = "Limits\n------\n\n```yaml\nfile_lines: 4\n```\n";
    assert_eq!(values(&limits(setext)), vec![("file_lines", 4)]);
}

fn fence(body: &str) -> String {
    format!("# P\n\n## Limits\n\n```yaml\n{body}\n```\n")
}

#[test]
fn bad_limit_values_name_file_line_key_and_value() {
    let cases = [
        ("function_lines: -3", "-3"),
        ("function_lines: 0", "0"),
        ("function_lines: 55.5", "55.5"),
        ("function_lines: \"55\"", "\"55\""),
        ("function_lines: null", "null"),
        ("function_lines:", "null"),
        ("function_lines: [55]", "a list"),
        ("function_lines: {a: 1}", "a mapping"),
        ("function_lines: true", "true"),
        (
            "function_lines: 99999999999999999999",
            "99999999999999999999",
        ),
    ];
    for (body, shown) in cases {
        let text = fence(&format!("type_lines: 400\n{body}"));
        assert_eq!(
            err(&text),
            format!("ctx/principles.md:7: function_lines: {shown} is not a positive whole number"),
            "{body}"
        );
    }
}

#[test]
fn tolerance_is_a_whole_number_of_zero_or_more() {
    let zero = limits(&fence("tolerance_percent: 0\nfile_lines: 10"));
    assert_eq!(zero.tolerance_percent, 0);
    assert_eq!(zero.origins.get("tolerance_percent"), Some(&Origin::Limits));
    assert_eq!(zero.band(Metric::FileLines), Some(10));
    for (value, shown) in [("-1", "-1"), ("2.5", "2.5"), ("'25'", "\"25\"")] {
        assert_eq!(
            err(&fence(&format!("tolerance_percent: {value}"))),
            format!("ctx/principles.md:6: tolerance_percent: {shown} is not a whole number of 0 or more")
        );
    }
}

#[test]
fn a_fence_with_only_tolerance_limits_nothing() {
    let l = limits(&fence("tolerance_percent: 20"));
    assert!(!l.has_limits());
    assert_eq!(l.tolerance_percent, 20);
}

#[test]
fn non_mapping_fences_and_broken_yaml_are_errors_with_lines() {
    assert_eq!(
        err(&fence("# c\n- function_lines: 5")),
        "ctx/principles.md:7: the yaml fence of ## Limits is not a mapping of keys to values (found a list)"
    );
    assert_eq!(
        err(&fence("55")),
        "ctx/principles.md:6: the yaml fence of ## Limits is not a mapping of keys to values (found 55)"
    );
    let broken = err(&fence("file_lines: 3\ntype_lines: [1, 2\nx: 1"));
    assert!(
        broken.starts_with("ctx/principles.md:8: the yaml fence of ## Limits cannot be read: "),
        "{broken}"
    );
    assert_eq!(
        err(&fence("file_lines: 3\nfile_lines: 4")),
        "ctx/principles.md:7: file_lines is set twice in the yaml fence of ## Limits"
    );
    assert_eq!(
        err(&fence("1: 3")),
        "ctx/principles.md:6: Limits key 1 is not a string"
    );
}

#[test]
fn no_section_no_fence_or_empty_fence_is_no_limits() {
    assert_eq!(limits(""), Limits::default());
    assert_eq!(limits("# P\n\nProse only.\n"), Limits::default());
    assert_eq!(limits("## Limits\n\nNone yet.\n"), Limits::default());
    assert_eq!(limits(&fence("\n# none yet\n\n")), Limits::default());
    assert_eq!(limits("## Limits\n\n```yaml\n```\n"), Limits::default());
}

#[test]
fn unknown_keys_are_collected_with_file_and_line() {
    let text = "## Limits\n\n```yaml\nfile_lines: 10\nfunction_line: 5\n```\n\n## Project Specifics\n\n### Limits\n\n```yaml\nmax_depth: 3\n```\n";
    let read = parse(text, P).expect("limits");
    assert_eq!(values(&read.limits), vec![("file_lines", 10)]);
    let unknown: Vec<(String, usize)> = read
        .unknown_keys
        .iter()
        .map(|u| (u.key.clone(), u.line))
        .collect();
    assert_eq!(
        unknown,
        vec![
            ("function_line".to_string(), 5),
            ("max_depth".to_string(), 13)
        ]
    );
    assert_eq!(
        read.unknown_keys[0].to_string(),
        "ctx/principles.md:5: unknown Limits key function_line: did you mean function_lines? (known: chain_bytes, file_bytes, file_lines, \
         function_cognitive, function_cyclomatic, function_lines, function_nesting, \
         function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tiers, tolerance_percent)"
    );
}

#[test]
fn project_specifics_errors_name_their_section() {
    let text = "## Project Specifics\n\n### Limits\n\n```yaml\n[1]\n```\n";
    assert_eq!(
        err(text),
        "ctx/principles.md:6: the yaml fence of ### Limits of ## Project Specifics is not a \
         mapping of keys to values (found a list)"
    );
}

#[test]
fn alias_bomb_in_a_fence_returns_promptly() {
    let mut body =
        String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for level in 1..9u8 {
        let (prev, name) = (char::from(b'a' + level - 1), char::from(b'a' + level));
        let refs = vec![format!("*{prev}"); 9].join(",");
        body.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    let start = ThreadCpu::now();
    let read = parse(&fence(&body), P).expect("read shallowly");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(read.unknown_keys.len(), 9);
    assert_eq!(read.unknown_keys[8].line, 14);
}

#[test]
fn ten_megabyte_principles_are_read_promptly() {
    let para = "Functions stay short: a reader should see a whole one at once, and a *long*\n\
                one is split where its steps are. See the examples below for how.\n\n";
    let mut text = String::from("# Principles\n\n");
    while text.len() < 10 << 20 {
        text.push_str("## Section\n\n");
        text.push_str(&para.repeat(40));
    }
    let lines = text.matches('\n').count();
    text.push_str("## Limits\n\n```yaml\nfile_lines: 0\n```\n");
    let start = ThreadCpu::now();
    let result = err(&text);
    let elapsed = start.elapsed();
    assert_eq!(
        result,
        format!(
            "ctx/principles.md:{}: file_lines: 0 is not a positive whole number",
            lines + 4
        )
    );
    // About 0.8 s alone in a debug build here; the bound leaves room for a loaded
    // machine and still fails on anything superlinear (minutes at this size).
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn read_from_a_source() {
    let source = MemorySource::default().with(
        "a/principles.md",
        "\u{feff}## Limits\n\n```yaml\nfile_lines: 3\n```\n",
    );
    let read = read(&source, "a/principles.md")
        .expect("read")
        .expect("a file");
    assert_eq!(values(&read.limits), vec![("file_lines", 3)]);
    assert_eq!(super::read(&source, "b/principles.md"), Ok(None));
    let mut bad = MemorySource::default();
    bad.files.insert("p.md".into(), vec![b'#', 0xff, b'\n']);
    assert_eq!(
        super::read(&bad, "p.md")
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        "p.md: not UTF-8"
    );
}

#[test]
fn an_unknown_key_that_would_read_as_a_known_one_is_quoted() {
    // `\_` is YAML's escape for a no-break space: shown bare, the key reads `file lines`.
    let text = "## Limits\n\n```yaml\n\"file\\_lines\": 10\n'it''s': 1\n\"\": 2\n```\n";
    let read = parse(text, P).expect("limits");
    let shown: Vec<String> = read
        .unknown_keys
        .iter()
        .map(|u| {
            u.to_string()
                .split(" (known")
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        shown,
        [
            "ctx/principles.md:4: unknown Limits key \"file\\u{a0}lines\": did you mean file_lines?",
            "ctx/principles.md:5: unknown Limits key it's",
            "ctx/principles.md:6: unknown Limits key \"\"",
        ]
    );
}

fn why_none(text: &str) -> (String, Vec<String>) {
    let none = parse(text, P).expect("limits").none.expect("no limits");
    (none.reason, none.found_instead)
}

#[test]
fn no_limits_says_what_was_found_instead() {
    let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        why_none("# P\n\n## limits\n\n```yaml\nfunction_lines: 5\n```\n"),
        (
            "no ## Limits section".to_string(),
            strs(&[
                "ctx/principles.md:3: a heading \"## limits\": only a level-2 heading titled exactly Limits starts the section",
                "ctx/principles.md:5: a yaml fence under \"## limits\", outside ## Limits: only a fence inside the section is read",
            ])
        )
    );
    assert_eq!(
        why_none("# Limits\n\n```yaml\nfunction_lines: 5\n```\n").1,
        strs(&[
            "ctx/principles.md:1: a heading \"# Limits\" at level 1: the section is the level-2 \"## Limits\"",
            "ctx/principles.md:3: a yaml fence under \"# Limits\", outside ## Limits: only a fence inside the section is read",
        ])
    );
    assert_eq!(
        why_none("# P\n\n## Limits\n\n```\nfunction_lines: 5\n```\n\n```toml\nx = 1\n```\n"),
        (
            "## Limits (line 3) holds no yaml fence".to_string(),
            strs(&[
                "ctx/principles.md:5: a fence without the yaml tag in ## Limits: open it with ```yaml",
                "ctx/principles.md:9: a fence tagged toml in ## Limits: only a yaml (or yml) fence is read",
            ])
        )
    );
    assert_eq!(
        why_none("# P\n\n## Limits\n\nSee below.\n\n## Rules\n\n```yaml\nfunction_lines: 5\n```\n"),
        (
            "## Limits (line 3) holds no yaml fence".to_string(),
            strs(&["ctx/principles.md:9: a yaml fence under \"## Rules\", outside ## Limits: only a fence inside the section is read"])
        )
    );
    assert_eq!(
        why_none("# P\n\n## Limits\n\n```yaml\n# nothing yet\n```\n"),
        (
            "the yaml fence of ## Limits (line 5) is empty".to_string(),
            vec![]
        )
    );
    assert_eq!(
        why_none("## Limits\n\n```yaml\ntolerance_percent: 5\n```\n").0,
        "its fence sets only tolerance_percent, which limits nothing"
    );
    assert_eq!(
        why_none("# P\n\n### Limits\n\n    function_lines: 5\n").1,
        strs(&["ctx/principles.md:3: a heading \"### Limits\" at level 3: the section is the level-2 \"## Limits\""])
    );
    let read = parse(
        "## Project Specifics\n\n### Limits\n\n```yaml\nfile_lines: 9\n```\n",
        P,
    );
    assert_eq!(read.expect("limits").none, None);
}
