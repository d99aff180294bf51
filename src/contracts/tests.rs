//! Tests of directory contracts (docs/src/reference/contracts.md): front matter, keys, listing, and the rules.

use super::front::{front_matter, Front};
use super::readme::parse;
use super::schema::{Contract, Declared, Parsed, Problem};
use super::*;
use crate::source::{Listed, MemorySource};

/// A README whose front matter holds `schema: context/v1` and then `extra`.
fn contract(extra: &str) -> String {
    format!("---\nschema: context/v1\n{extra}---\n# What this directory is for\n")
}

fn side_of(source: &MemorySource, links: &[&str]) -> Listing {
    let files = source.files.keys().map(|p| Listed {
        path: p.clone(),
        link: false,
    });
    let links = links.iter().map(|p| Listed {
        path: p.to_string(),
        link: true,
    });
    Listing::new(files.chain(links))
}

fn source(files: &[(&str, &str)]) -> MemorySource {
    files
        .iter()
        .fold(MemorySource::default(), |s, (p, t)| s.with(p, t))
}

fn line(f: &Finding) -> String {
    crate::report::contracts::finding_line(f)
}

/// Checks every directory of the working tree `files` (plus symbolic links `links`).
fn outcome_with_links(files: &[(&str, &str)], links: &[&str]) -> Outcome {
    let work = source(files);
    let listing = side_of(&work, links);
    let dirs: Vec<String> = listing.dirs().map(str::to_string).collect();
    let side = Side {
        source: &work,
        listing: &listing,
    };
    check(side, None, &dirs).expect("check")
}

fn findings(files: &[(&str, &str)]) -> Vec<String> {
    outcome_with_links(files, &[])
        .findings
        .iter()
        .map(line)
        .collect()
}

// ---- front matter ----

#[test]
fn front_matter_is_the_block_between_the_first_two_delimiter_lines() {
    let text = "---\nschema: context/v1\ntitle: x\n---\n# Body\n---\nmore\n";
    assert_eq!(
        front_matter(text),
        Front::Yaml("schema: context/v1\ntitle: x\n".to_string())
    );
}

#[test]
fn front_matter_accepts_crlf_a_bom_and_the_yaml_end_marker() {
    assert_eq!(
        front_matter("\u{feff}---\r\nschema: context/v1\r\n---\r\n"),
        Front::Yaml("schema: context/v1\n".to_string())
    );
    assert_eq!(
        front_matter("---\nschema: context/v1\n...\nbody\n"),
        Front::Yaml("schema: context/v1\n".to_string())
    );
    assert_eq!(
        front_matter("---  \nschema: context/v1\n---"),
        Front::Yaml("schema: context/v1\n".to_string())
    );
}

#[test]
fn front_matter_is_absent_unless_the_first_line_is_three_dashes() {
    for text in [
        "",
        "# Title\n---\nschema: context/v1\n---\n",
        "----\nschema: context/v1\n----\n",
        " ---\nschema: context/v1\n---\n",
        "\n---\nschema: context/v1\n---\n",
    ] {
        assert_eq!(front_matter(text), Front::None, "{text:?}");
    }
}

#[test]
fn front_matter_that_never_closes_empty_or_blank_first_line() {
    assert_eq!(front_matter("---\nschema: context/v1\n"), Front::Unclosed);
    assert_eq!(
        front_matter("---\nschema: context/v1\n----\n"),
        Front::Unclosed
    );
    assert_eq!(front_matter("---\n---\n# x\n"), Front::Empty);
    assert_eq!(
        front_matter("---\n\nschema: context/v1\n---\n"),
        Front::BlankFirstLine
    );
}

#[test]
fn a_ten_megabyte_readme_costs_only_its_front_matter() {
    let mut text = contract("title: Big\n");
    let paragraph = "Lorem ipsum dolor sit amet, *consectetur* [adipiscing](x) elit.\n\n";
    while text.len() < 10 << 20 {
        text.push_str(paragraph);
    }
    let started = crate::thread_cpu::ThreadCpu::now();
    let parsed = parse(text.as_bytes());
    assert_eq!(parsed, Parsed::Contract(Contract::default()));
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
}

#[test]
fn front_matter_past_one_mebibyte_is_refused_and_an_unclosed_one_is_bounded() {
    let mut big = String::from("---\nschema: context/v1\n");
    while big.len() < (1 << 20) + 10 {
        big.push_str("# a comment line of YAML that only makes the block larger\n");
    }
    big.push_str("---\n");
    assert_eq!(front_matter(&big), Front::TooLarge);
    assert_eq!(
        parse(big.as_bytes()),
        invalid(
            1,
            "the front matter opened here runs past 1 MiB, more than structgate reads"
        )
    );
    let unclosed = format!("---\n{}", "key: value\n".repeat(1 << 20));
    assert_eq!(front_matter(&unclosed), Front::TooLarge);
    let just_under = format!("---\n{}", "key: value\n".repeat(1000));
    assert_eq!(front_matter(&just_under), Front::Unclosed);
}

// ---- README bytes → contract or not ----

fn invalid(line: usize, detail: &str) -> Parsed {
    Parsed::Invalid {
        line,
        detail: detail.to_string(),
    }
}

#[test]
fn readmes_without_a_schema_are_not_contracts() {
    let not = |d: &str| Parsed::NotContract(d.to_string());
    assert_eq!(parse(b"# Just a readme\n"), not("has no front matter"));
    assert_eq!(parse(b"---\n---\n"), not("has empty front matter"));
    assert_eq!(
        parse(b"---\ntitle: x\n---\n"),
        not("has front matter without a `schema` key")
    );
    assert_eq!(
        parse(b"---\n# only a comment\n---\n"),
        not("has front matter without a `schema` key")
    );
}

#[test]
fn broken_front_matter_is_invalid_with_its_readme_line() {
    assert_eq!(
        parse(b"---\nschema: context/v2\n---\n"),
        invalid(2, "`schema` is \"context/v2\", expected \"context/v1\"")
    );
    assert_eq!(
        parse(b"---\ntitle: x\nschema: 1\n---\n"),
        invalid(3, "`schema` is 1, expected \"context/v1\"")
    );
    assert_eq!(
        parse(b"---\n- schema\n- context/v1\n---\n"),
        invalid(2, "the front matter is a list, not a mapping")
    );
    assert_eq!(
        parse(b"---\nschema: context/v1\nschema: context/v1\n---\n"),
        invalid(3, "`schema` appears more than once")
    );
    let Parsed::Invalid { line, detail } = parse(b"---\nschema: context/v1\ntitle: [x\n---\n")
    else {
        panic!("invalid expected");
    };
    assert_eq!(line, 4, "{detail}");
    assert!(
        detail.starts_with("the front matter is not valid YAML: "),
        "{detail}"
    );
}

#[test]
fn deeply_nested_front_matter_is_refused_before_it_is_parsed() {
    let readme = format!(
        "---\nschema: context/v1\ntitle: {}\n---\n",
        "[".repeat(100_000)
    );
    let started = crate::thread_cpu::ThreadCpu::now();
    assert_eq!(
        parse(readme.as_bytes()),
        invalid(
            3,
            "the front matter is not valid YAML: YAML nested deeper than 64 levels; refusing to read it"
        )
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

#[test]
fn unclosed_blank_and_non_utf8_readmes_are_invalid() {
    assert_eq!(
        parse(b"---\nschema: context/v1\n# Title\n"),
        invalid(
            1,
            "the front matter opened here is never closed by a `---` line"
        )
    );
    assert_eq!(
        parse(b"---\n\nschema: context/v1\n---\n"),
        invalid(
            2,
            "the front matter's first line is blank, so Markdown reads no front matter here"
        )
    );
    assert_eq!(
        parse(b"---\nschema: context/v1\ntitle: Caf\xe9\n---\n"),
        invalid(3, "not UTF-8 (this line holds the first byte that isn't)")
    );
}

#[test]
fn a_billion_laughs_in_front_matter_is_read_without_expanding() {
    let mut yaml = String::from("---\nschema: context/v1\na0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..40 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        yaml.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    yaml.push_str("children: *a39\n---\n");
    let started = crate::thread_cpu::ThreadCpu::now();
    let Parsed::Contract(c) = parse(yaml.as_bytes()) else {
        panic!("a contract expected");
    };
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    assert_eq!(c.problems.len(), 41);
    assert_eq!(
        c.problems[40],
        problem(
            Class::InvalidContract,
            43,
            "`children` must be a mapping, found a list"
        )
    );
}

#[test]
fn an_alias_bomb_in_front_matter_is_refused_promptly() {
    let big = vec!["word"; 40_000].join(", ");
    let aliases = vec!["*big"; 200].join(", ");
    let yaml = format!("---\nschema: context/v1\nbig: &big [{big}]\nmany: [{aliases}]\n---\n");
    let started = crate::thread_cpu::ThreadCpu::now();
    let parsed = parse(yaml.as_bytes());
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    let Parsed::Invalid { line, detail } = parsed else {
        panic!("refused expected: {parsed:?}");
    };
    assert_eq!(line, 4);
    assert!(
        detail.ends_with("could expand it past 16 MiB; refusing to read it"),
        "{detail}"
    );
}

fn problem(class: Class, line: usize, detail: &str) -> Problem {
    Problem {
        class,
        line,
        detail: detail.to_string(),
    }
}

#[test]
fn the_closed_key_list() {
    let text = contract(
        "title: Orders\nsummary: 3\nowner: team\nchildren:\n  # a comment\n  \
         require_contract: \"yes\"\n  depth: 2\n",
    );
    let Parsed::Contract(c) = parse(text.as_bytes()) else {
        panic!("contract expected");
    };
    assert_eq!(c.require, None);
    assert_eq!(
        c.problems,
        [
            problem(
                Class::InvalidContract,
                4,
                "`summary` must be a string, found 3"
            ),
            problem(
                Class::UnknownKey,
                5,
                "unknown key `owner` (the keys are schema, title, summary, children)"
            ),
            problem(
                Class::InvalidContract,
                8,
                "`children.require_contract` must be true or false, found \"yes\""
            ),
            problem(
                Class::UnknownKey,
                9,
                "unknown key `children.depth` (the only key is require_contract)"
            ),
        ]
    );
}

#[test]
fn children_require_contract_is_read_in_block_and_flow_style() {
    let block = contract("children:\n  require_contract: false\n");
    let flow = contract("title: t\nchildren: {require_contract: true}\n");
    let read = |t: &str| match parse(t.as_bytes()) {
        Parsed::Contract(c) => c,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        read(&block).require,
        Some(Declared {
            value: false,
            line: 4
        })
    );
    assert_eq!(
        read(&flow).require,
        Some(Declared {
            value: true,
            line: 4
        })
    );
    let wrong = read(&contract("children: true\ntitle: [a]\n"));
    assert_eq!(
        wrong.problems,
        [
            problem(
                Class::InvalidContract,
                3,
                "`children` must be a mapping, found true"
            ),
            problem(
                Class::InvalidContract,
                4,
                "`title` must be a string, found a list"
            ),
        ]
    );
}

// ---- listing ----

#[test]
fn directories_are_read_off_the_files_and_readmes_in_any_case() {
    let listing = Listing::new(
        [
            "a/README.md",
            "a/readme.MD",
            "a/b/c/x.txt",
            "d/README.md/inner.txt",
        ]
        .iter()
        .map(|p| Listed {
            path: p.to_string(),
            link: false,
        }),
    );
    let dirs: Vec<&str> = listing.dirs().collect();
    assert_eq!(dirs, ["", "a", "a/b", "a/b/c", "d", "d/README.md"]);
    let a = listing.readmes("a");
    let names: Vec<&str> = a.files.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(names, ["a/README.md", "a/readme.MD"]);
    assert_eq!(
        listing.readmes("d").directory.as_deref(),
        Some("d/README.md")
    );
    assert_eq!(listing.readmes("a/b"), listing::Readmes::default());
}

mod base;
mod rules;
