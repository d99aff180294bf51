//! Source that reads one way to the compiler and another to a grammar (SPEC §4, §6.1): a
//! branch can't hide code from the gate through C# directive text, top-level
//! statements, Rust `cfg` strings, lone-CR line ends, extension case or deep YAML.

mod common;

use common::{after_base, Scenario, BAND_12};

/// `lines` lines of C# top-level statements, one call each.
fn top_level_statements(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("System.Console.WriteLine({i});\n"))
        .collect()
}

#[test]
fn top_level_statements_that_grow_are_a_function_that_grew() {
    let s = Scenario::inventory(BAND_12);
    s.write("src/Program.cs", &top_level_statements(8));
    s.cut_feature();
    let program = format!(
        "using System;\n\n{}\nstatic int Twice(int x) => 2 * x;\n\nclass Helper {{ }}\n",
        top_level_statements(299)
    );
    s.write("src/Program.cs", &program);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/Program.cs <Main>$: function_lines 301 > 10 (band 12)",
        ]
    );
    let measured = s.run(&["measure", "src/Program.cs"]);
    assert_eq!(
        measured.stdout,
        "src/Program.cs:1    file      Program.cs  305 lines, 1 type(s), 9227 bytes  ok\n\
         src/Program.cs:3    function  <Main>$     301 lines  excess: function_lines 301 > 10 (band 12)\n\
         src/Program.cs:303  function  Twice       1 lines  ok\n\
         src/Program.cs:305  type      Helper      1 lines\n\
         measured 1 file(s): 2 function(s), 1 type(s); 1 excess(es) past the band, \
         0 divergence(s) within tolerance, 0 tolerated by the baseline\n"
    );
}
