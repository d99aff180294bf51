use super::*;

#[test]
fn the_walk_view_says_what_became_of_each_node() {
    let src =
        "#[inline]\nfn f() {\n    let x = (1);\n}\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n";
    let expected = "\
source_file 1-9
  attribute_item 1-1  ← attribute
    attribute 1-1  ← ·
      identifier 1-1 \"inline\"  ← ·
  function_item 2-4  ← unit function f 1-4  params 0  nesting 0  cyclomatic 1  cognitive 0; scope f
    name: identifier 2-2 \"f\"
    parameters: parameters 2-2  ← left alone
    body: block 2-4
      let_declaration 3-3  ← left alone
        pattern: identifier 3-3 \"x\"  ← ·
        value: parenthesized_expression 3-3  ← ·
          integer_literal 3-3 \"1\"  ← ·
  attribute_item 6-6  ← attribute
    attribute 6-6  ← ·
      identifier 6-6 \"cfg\"  ← ·
      arguments: token_tree 6-6  ← ·
        identifier 6-6 \"test\"  ← ·
  mod_item 7-9  ← test item 6-9, left out
    name: identifier 7-7 \"tests\"  ← ·
    body: declaration_list 7-9  ← ·
      function_item 8-8  ← ·
        name: identifier 8-8 \"t\"  ← ·
        parameters: parameters 8-8  ← ·
        body: block 8-8  ← ·
";
    assert_eq!(dump_walk("a.rs", src.as_bytes()).unwrap(), expected);
}

#[test]
fn the_walk_view_names_bindings_decorators_and_top_level_statements() {
    let ts = dump_walk("a.ts", b"@d\nclass A {\n  run = () => { go(); };\n}\n").unwrap();
    for line in [
        "  class_declaration 1-4  ← unit type A 1-4; scope A\n",
        "    decorator: decorator 1-1  ← decorator\n",
        "      public_field_definition 3-3  ← unit function A.run 3-3  params 0  nesting 0  \
         cyclomatic 1  cognitive 0; scope run\n",
        "        value: arrow_function 3-3  ← bound: named by its binding\n",
    ] {
        assert!(ts.contains(line), "{line}in\n{ts}");
    }
    let cs = dump_walk("P.cs", b"var x = 1;\nclass C { }\n").unwrap();
    assert!(
        cs.ends_with(
            "top-level statements  ← unit function <Main>$ 1-1  params 0  nesting 0  \
             cyclomatic 1  cognitive 0\n"
        ),
        "{cs}"
    );
    let broken = dump_walk("a.rs", b"fn f(").unwrap();
    assert!(broken.contains("ERROR 1-1  ← syntax error"), "{broken}");
}

/// Every file under `dir`, recursively.
fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_walk_view_finds_the_units_the_measurer_finds_in_every_fixture() {
    let mut all = Vec::new();
    files(std::path::Path::new("fixtures/measure"), &mut all);
    let mut compared = 0;
    for path in all {
        let name = path.to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let options = crate::measure::Options::default();
        let Some(crate::model::FileOutcome::Measured(m)) =
            crate::measure::measure_file(&name, &bytes, &options)
        else {
            continue;
        };
        let Some(dump) = dump_walk(&name, &bytes) else {
            continue;
        };
        let mut measured: Vec<String> = m
            .units
            .iter()
            .map(|u| {
                format!(
                    "{}{} {} {}-{}{}",
                    u.kind.key(),
                    if u.anonymous { " (anonymous)" } else { "" },
                    u.name,
                    u.start_line,
                    u.end_line,
                    shape_text(u),
                )
            })
            .collect();
        let mut dumped: Vec<String> = dump
            .lines()
            .filter_map(|l| l.split_once("← unit ").map(|(_, rest)| rest))
            .map(|rest| rest.split("; scope ").next().unwrap_or(rest).to_string())
            .collect();
        measured.sort();
        dumped.sort();
        assert_eq!(dumped, measured, "{name}");
        compared += 1;
    }
    assert!(compared > 50, "{compared} fixtures compared");
}

#[test]
fn the_walk_view_marks_what_each_node_added_to_its_units_shape() {
    let src =
        "fn f(a: bool, b: bool) {\n    if a && b {\n        for _ in 0..2 {}\n    } else {}\n}\n";
    let dump = dump_walk("a.rs", src.as_bytes()).unwrap();
    for line in [
        "  function_item 1-5  ← unit function f 1-5  params 2  nesting 2  cyclomatic 4  \
         cognitive 5; scope f\n",
        "      expression_statement 2-4\n        if_expression 2-4  ← [level 1, cyclomatic +1, \
         cognitive +1]\n",
        "          condition: binary_expression 2-2  ← left alone; [cyclomatic +1, cognitive +1]\n",
        "              for_expression 3-3  ← [level 2, cyclomatic +1, cognitive +2 (nesting 1)]\n",
        "          alternative: else_clause 4-4  ← [level 1, cognitive +1]\n",
    ] {
        assert!(dump.contains(line), "{line}in\n{dump}");
    }
    let plain = dump_tree("a.rs", src.as_bytes()).unwrap();
    assert!(!plain.contains('['), "{plain}");
}
