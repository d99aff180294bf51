//! Anonymous functions as units at the gate (docs/src/reference/measurement.md#anonymous-functions)
//! and the baseline's `# units: 2` upgrade (docs/src/reference/baseline.md#units): a
//! newcomer's TypeScript callbacks fail by name; a baseline written before anonymous
//! functions were units judges none of them, says so, and judges them once refreshed.

use crate::common;

use common::{after_base, principles, Scenario};

const CONTEXT: &str = "meta:\n  name: mcp\n";
const NOTE: &str = "anonymous functions not judged in mcp: its baseline predates them \
                    (structgate baseline refresh records them)";
/// The header `baseline init` wrote before `# units:` existed.
const REVISION_1: &str = "# path\tunit\tmetric\tvalue \u{2014} units over their Limits when \
                          measured, each tolerated up to its value\n# measured with: \
                          function_lines=55 tolerance_percent=0\n# owned:\t.\n";

/// `server.registerTool('big', {...}, async () => {...})` whose callback spans 124 lines
/// (lines 2-125 of the file).
fn registered_tool() -> String {
    let mut s = String::from("import { server, app } from './deps';\n");
    s.push_str("server.registerTool('big', { description: 'big' }, async () => {\n");
    for i in 0..121 {
        s.push_str(&format!("  const v{i} = {i};\n"));
    }
    s.push_str("  return v0;\n});\n");
    s
}

/// `app.post('/hook', async (req, res) => {...})` spanning 93 lines.
fn hook_route() -> String {
    let mut s = String::from("app.post('/hook', async (req, res) => {\n");
    for i in 0..90 {
        s.push_str(&format!("  const w{i} = {i};\n"));
    }
    s.push_str("  res.send(w0);\n});\n");
    s
}

/// `main` holds the `mcp` context (function_lines 55) and `src/server.ts`; `baseline`
/// is the baseline `main` commits, `None` for what `baseline init` writes.
fn mcp_server(baseline: Option<&str>, tool_on_main: bool) -> Scenario {
    let s = Scenario::git();
    s.write("context.yaml", CONTEXT);
    s.write("principles.md", &principles("function_lines: 55\n"));
    let main = match tool_on_main {
        true => registered_tool(),
        false => "import { server, app } from './deps';\n".to_string(),
    };
    s.write("src/server.ts", &main);
    match baseline {
        Some(text) => {
            s.write("structure-baseline.tsv", text);
        }
        None => assert_eq!(s.run(&["baseline", "init"]).code, 0),
    }
    s.commit("main");
    s
}

#[test]
fn a_newcomers_two_typescript_callbacks_fail_the_gate_by_name() {
    let s = mcp_server(None, false);
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("src/server.ts", &(registered_tool() + &hook_route()));
    s.commit("an MCP tool and a web hook");
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 2 excess(es) past the band",
            "src/server.ts:126 app.post(\"/hook\"): function_lines 93 > 55 (band 55)",
            "src/server.ts:2 server.registerTool(\"big\"): function_lines 124 > 55 (band 55)",
        ]
    );
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let units: Vec<(&str, u64, u64)> = v["excesses"]
        .as_array()
        .expect("excesses")
        .iter()
        .map(|e| {
            let line = |k: &str| e[k].as_u64().expect("line");
            (
                e["unit"].as_str().expect("unit"),
                line("start_line"),
                line("end_line"),
            )
        })
        .collect();
    assert_eq!(
        units,
        [
            ("app.post(\"/hook\")", 126, 218),
            ("server.registerTool(\"big\")", 2, 125)
        ]
    );
}

#[test]
fn init_writes_revision_2_and_records_anonymous_excesses() {
    let s = mcp_server(None, true);
    assert_eq!(
        s.read("structure-baseline.tsv"),
        format!(
            "{REVISION_1}# units: 2\nsrc/server.ts\tserver.registerTool(\"big\")\tfunction_lines\t124\n"
        )
    );
}

#[test]
fn a_revision_1_baseline_upgrades_without_a_red_gate() {
    // Old baseline: written before anonymous functions were units, it records none.
    let s = mcp_server(Some(REVISION_1), true);
    s.git_ok(&["checkout", "-q", "-b", "feature"]);
    s.write("src/server.ts", &(registered_tool() + &hook_route()));
    s.commit("a web hook beside the tool");

    // Branch: neither callback is judged, and the gate says so once.
    let run = s.gate(&[]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s), within their Limits",
            NOTE
        ]
    );
    let required = s.gate(&["--require-judged"]);
    assert_eq!(required.code, 1, "{required:?}");
    let json = s.gate(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["status"], "passed");
    assert_eq!(
        v["not_judged"],
        serde_json::json!([{"reason": "baseline-predates-units", "detail": NOTE}])
    );
    let check = s.run(&["measure", "--check"]);
    assert_eq!(check.code, 0, "{check:?}");
    assert_eq!(check.stderr, format!("warning: {NOTE}\n"));

    // Refresh on main records the tool's excess, as if a changed limit exposed it.
    s.git_ok(&["checkout", "-q", "main"]);
    let refresh = s.run(&["baseline", "refresh"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    assert_eq!(
        refresh.stdout,
        "mcp: refreshed structure-baseline.tsv: 1 added, 0 lowered, 0 dropped; 1 unit(s)\n  \
         added 1 anonymous-function unit(s) past their band: the baseline predated them (it \
         now says # units: 2)\n"
    );
    assert_eq!(
        s.read("structure-baseline.tsv"),
        format!(
            "{REVISION_1}# units: 2\nsrc/server.ts\tserver.registerTool(\"big\")\tfunction_lines\t124\n"
        )
    );
    s.commit("refresh: record anonymous functions");

    // Judged: the tool is tolerated at its value, the new hook fails by name.
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["rebase", "-q", "main"]);
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 1 file(s) in 1 context(s): 1 excess(es) past the band",
            "src/server.ts:126 app.post(\"/hook\"): function_lines 93 > 55 (band 55)",
        ]
    );
}

#[test]
fn a_refresh_of_a_revision_2_baseline_adds_no_anonymous_unit_that_grew() {
    let s = mcp_server(None, false);
    s.write("src/server.ts", &(registered_tool()));
    let refresh = s.run(&["baseline", "refresh", "--format", "json"]);
    assert_eq!(refresh.code, 0, "{refresh:?}");
    let v: serde_json::Value = serde_json::from_str(&refresh.stdout).expect("json");
    assert_eq!(
        v["contexts"][0]["changes"]["units_upgraded"],
        serde_json::Value::Null
    );
    assert_eq!(v["contexts"][0]["changes"]["added"], serde_json::json!([]));
}
