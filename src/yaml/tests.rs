//! Tests of the YAML module: shapes, lines, hostile input.

use std::time::Duration;

use super::*;
use crate::thread_cpu::ThreadCpu;

fn entries(text: &str) -> Vec<(String, String, usize)> {
    match read_flat(text) {
        Ok(FlatDoc::Mapping(entries)) => entries
            .into_iter()
            .map(|e| (e.key.to_string(), e.value.to_string(), e.line))
            .collect(),
        other => panic!("not a mapping: {other:?}"),
    }
}

#[test]
fn flat_mapping_keeps_order_values_and_key_lines() {
    let text =
        "# head\n\nb: -3\n'a''x': 55.5\n\"c\": \"55\"\nd: ~\ne: [1, 2]\nf:\n  g: 1\nh: true\n";
    assert_eq!(
        entries(text),
        vec![
            ("\"b\"".into(), "-3".into(), 3),
            ("\"a'x\"".into(), "55.5".into(), 4),
            ("\"c\"".into(), "\"55\"".into(), 5),
            ("\"d\"".into(), "null".into(), 6),
            ("\"e\"".into(), "a list".into(), 7),
            ("\"f\"".into(), "a mapping".into(), 8),
            ("\"h\"".into(), "true".into(), 10),
        ]
    );
}

#[test]
fn crlf_lines_and_flow_fallback() {
    assert_eq!(
        entries("\r\na: 1\r\nb: 2\r\n")[1],
        ("\"b\"".into(), "2".into(), 3)
    );
    // Flow style has no column-0 keys: the first line holding anything stands in.
    assert_eq!(entries("# c\n{a: 1,\n b: 2}\n")[1].2, 2);
}

#[test]
fn empty_null_and_non_mappings() {
    assert_eq!(read_flat(""), Ok(FlatDoc::Empty));
    assert_eq!(read_flat("\n# only a comment\n\n"), Ok(FlatDoc::Empty));
    assert_eq!(read_flat("null\n"), Ok(FlatDoc::Other(Shallow::Null)));
    assert_eq!(read_flat("- 1\n"), Ok(FlatDoc::Other(Shallow::List)));
    assert_eq!(read_flat("55\n"), Ok(FlatDoc::Other(Shallow::Int(55))));
    assert_eq!(
        read_flat("!env 3\n"),
        Ok(FlatDoc::Other(Shallow::Tagged("env".into())))
    );
}

#[test]
fn syntax_errors_carry_the_document_line_and_no_position_text() {
    let err = read_flat("a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
    assert_eq!(err.line, Some(3), "{}", err.message);
    assert!(!err.message.contains(" at line"), "{}", err.message);
    assert!(
        err.message.contains("did not find expected"),
        "{}",
        err.message
    );
}

#[test]
fn strip_positions_removes_only_positions() {
    assert_eq!(
        strip_positions("x at line 3 column 4, while y at line 1 column 1"),
        "x, while y"
    );
    assert_eq!(
        strip_positions("look at this at position 12"),
        "look at this"
    );
}

fn billion_laughs() -> String {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for level in 1..9u8 {
        let prev = char::from(b'a' + level - 1);
        let name = char::from(b'a' + level);
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    text
}

/// A type that follows every alias of the bomb's last key.
#[derive(Debug, Deserialize)]
#[allow(dead_code, clippy::type_complexity)]
struct Deep {
    i: Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<String>>>>>>>>>,
}

#[test]
fn billion_laughs_returns_promptly() {
    let text = billion_laughs();
    let start = ThreadCpu::now();
    // Shallow: nested aliases are never followed.
    assert!(matches!(read_flat(&text), Ok(FlatDoc::Mapping(e)) if e.len() == 9));
    // Deep: serde_yaml's repetition limit stops the expansion.
    let err = from_str::<Deep>(&text).unwrap_err();
    assert_eq!(err.message, "repetition limit exceeded");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

fn aliased_big_node(aliases: usize) -> String {
    let mut text = String::from("big: &big\n");
    text.push_str(&"  - 1\n".repeat(100_000));
    text.push_str(
        &(0..aliases)
            .map(|i| format!("k{i}: *big\n"))
            .collect::<String>(),
    );
    text
}

#[test]
fn many_aliases_to_a_large_node_are_refused_before_parsing() {
    let text = aliased_big_node(2_000);
    let start = ThreadCpu::now();
    let err = read_flat(&text).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(err.line, Some(100_002));
    assert_eq!(
        err.message,
        "2000 YAML aliases in a document of 622900 bytes could expand it past 16 MiB; \
         refusing to read it"
    );
}

#[test]
fn aliases_within_the_budget_are_read_within_seconds() {
    // 25 aliases of a 622 KB document: just inside the budget, the worst accepted.
    let text = aliased_big_node(25);
    let start = ThreadCpu::now();
    let read = read_flat(&text);
    let elapsed = start.elapsed();
    assert!(matches!(read, Ok(FlatDoc::Mapping(e)) if e.len() == 26));
    // About 0.8 s alone in a debug build here (serde_yaml unoptimised).
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_few_aliases_are_read() {
    let text = "x: &n 5\ny: *n\n";
    assert_eq!(entries(text)[1], ("\"y\"".into(), "5".into(), 2));
}

fn keys(bytes: usize) -> String {
    let line_len = "key_0000000: 123456\n".len();
    (0..bytes / line_len)
        .map(|i| format!("key_{i:07}: 123456\n"))
        .collect()
}

#[test]
fn ten_megabytes_are_refused_promptly() {
    let text = keys(10 << 20);
    let start = ThreadCpu::now();
    let err = read_flat(&text).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(err.line, None);
    assert_eq!(
        err.message,
        "a YAML document of 10485760 bytes is larger than structgate reads (1 MiB)"
    );
}

#[test]
fn a_megabyte_is_read_in_debug_within_seconds() {
    let text = keys(1 << 20);
    let start = ThreadCpu::now();
    let read = read_flat(&text);
    let elapsed = start.elapsed();
    assert!(matches!(read, Ok(FlatDoc::Mapping(e)) if e.len() == 52_428));
    // About 1.1 s alone in a debug build here (serde_yaml unoptimised).
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}
