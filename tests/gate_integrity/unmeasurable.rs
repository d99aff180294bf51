//! A branch can't make a file unmeasurable (docs/src/reference/gate.md#integrity), and the gate trusts no cache for
//! what it judges.

use crate::common::{after_base, cs_class, Scenario};

/// `text` as UTF-16LE with a byte order mark.
fn utf16(text: &str) -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

#[test]
fn a_changed_file_made_unmeasurable_fails_the_gate() {
    let grown = cs_class("Small", &[("Run", 40)]);
    let forms: [(Vec<u8>, &[&str], &str, &str); 3] = [
        (utf16(&grown), &[], "not-utf8", "not UTF-8"),
        (
            format!("{grown}\0").into_bytes(),
            &[],
            "nul-byte",
            "binary (holds a NUL byte)",
        ),
        (
            grown.clone().into_bytes(),
            &["--max-file-size", "400"],
            "too-large",
            "larger than --max-file-size (851 > 400 bytes)",
        ),
    ];
    for (bytes, args, code, detail) in forms {
        let s = Scenario::feature_of_inventory();
        s.write_bytes("src/Small.cs", &bytes);
        let run = s.gate(args);
        assert_eq!(run.code, 1, "{code}: {run:?}");
        assert_eq!(
            after_base(&run.stdout),
            [
                "structure judged 0 file(s) in 1 context(s): 1 file(s) unmeasurable".to_string(),
                format!("src/Small.cs: unmeasurable ({detail})"),
            ]
        );
        let json = s.gate(&[args, &["--format", "json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
        assert_eq!(v["status"], "failed");
        assert_eq!(
            v["unmeasurable"],
            serde_json::json!([{"path": "src/Small.cs", "reason": code, "detail": detail}])
        );
        assert_eq!(v["skipped"], serde_json::json!([]));
    }
}

#[test]
fn a_new_unmeasurable_file_fails_and_one_unmeasurable_at_the_base_stays_skipped() {
    let s = Scenario::feature_of_inventory();
    s.git_ok(&["checkout", "-q", "main"]);
    s.write_bytes("src/Latin1.cs", b"class Caf\xe9 {}\n");
    s.commit("latin-1");
    s.git_ok(&["checkout", "-q", "feature"]);
    s.git_ok(&["merge", "-q", "--ff-only", "main"]);
    s.write_bytes("src/Latin1.cs", &utf16(&cs_class("Latin1", &[("Run", 40)])));
    let run = s.gate(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s), within their Limits",
            "skipped src/Latin1.cs: not UTF-8",
        ]
    );
    s.write_bytes("src/New.cs", &utf16(&cs_class("New", &[("Run", 40)])));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s): 1 file(s) unmeasurable",
            "src/New.cs: unmeasurable (not UTF-8)",
            "skipped src/Latin1.cs: not UTF-8",
        ]
    );
}

/// The first line of a cache shard (its header) and its entries as (payload) frames.
fn frames(shard: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let header_end = shard.iter().position(|&b| b == b'\n').expect("header") + 1;
    let mut at = header_end;
    let mut payloads = Vec::new();
    while at + 8 <= shard.len() {
        let len = u32::from_le_bytes(shard[at..at + 4].try_into().unwrap()) as usize;
        payloads.push(shard[at + 8..at + 8 + len].to_vec());
        at += 8 + len;
    }
    (shard[..header_end].to_vec(), payloads)
}

fn hex_id(s: &Scenario, path: &str) -> Vec<u8> {
    let hex = s.git_ok(&["hash-object", path]);
    (0..20)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_forged_cache_entry_is_ignored_by_the_gate() {
    let s = Scenario::feature_of_inventory();
    assert_eq!(s.run(&["measure", "src/Small.cs"]).code, 0);
    let small = hex_id(&s, "src/Small.cs");
    let shard_of = |id: &[u8]| s.abs(&format!(".git/structgate/cache/{:02x}", id[0]));
    let (header, payloads) = frames(&std::fs::read(shard_of(&small)).expect("shard"));
    let honest = payloads
        .iter()
        .find(|p| p[..20] == small[..])
        .expect("Small.cs's entry")
        .clone();
    // The grown file's key, the 5-line file's outcome, the checksum recomputed.
    s.write("src/Small.cs", &cs_class("Small", &[("Run", 40)]));
    let grown = hex_id(&s, "src/Small.cs");
    let target = shard_of(&grown);
    let mut shard = std::fs::read(&target).unwrap_or(header);
    // Keyed both with and without generated-code headers honoured (byte 21 of the key).
    for honour in [0, 1] {
        let mut forged = grown.clone();
        forged.extend_from_slice(&honest[20..]);
        forged[21] = honour;
        shard.extend_from_slice(&(forged.len() as u32).to_le_bytes());
        shard.extend_from_slice(&crc32fast::hash(&forged).to_le_bytes());
        shard.extend_from_slice(&forged);
    }
    std::fs::write(&target, shard).expect("forge");
    // measure keeps using the cache: the forgery is what it reports.
    let measured = s.run(&["measure", "src/Small.cs"]);
    assert!(
        measured.stdout.contains("Small.Run") && measured.stdout.contains(" 5 lines"),
        "{measured:?}"
    );
    let run = s.gate(&[]);
    crate::gate_integrity::assert_fails_with(
        &run,
        &crate::gate_integrity::forty_in("src/Small.cs", "Small.Run"),
    );
}

/// `Small` with `Run` of `lines` lines hidden from the grammar in a block comment that
/// the compiler skips (`#if false` / `/*` / `#endif` ... `#if false` / `*/` / `#endif`).
fn hidden_run(lines: usize) -> String {
    let method = crate::common::cs_method("Run", lines);
    format!(
        "public class Small\n{{\n#if false\n    /*\n#endif\n{method}#if false\n    */\n#endif\n}}\n"
    )
}

#[test]
fn a_directive_inside_a_block_comment_fails_where_the_base_had_none() {
    let s = Scenario::feature_of_inventory();
    s.write("src/Small.cs", &hidden_run(40));
    let run = s.gate(&["--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let detail = "a preprocessor directive inside a block comment at line 5";
    assert_eq!(
        v["unmeasurable"],
        serde_json::json!([{"path": "src/Small.cs", "reason": "directive-in-comment",
            "detail": detail}])
    );
    let run = s.gate(&[]);
    assert_eq!(
        after_base(&run.stdout)[1],
        format!("src/Small.cs: unmeasurable ({detail})")
    );
    // Where the base's version already had one, the file is judged as before.
    s.commit("hidden");
    s.git_ok(&["checkout", "-q", "-b", "later"]);
    s.write("src/Small.cs", &format!("// more\n{}", hidden_run(40)));
    let run = s.gate(&["--base", "feature"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
}

/// A Java class `Small` with `run` of 5 lines, and `big` of `lines` lines after a block
/// comment that a Unicode escape closes for javac (`\u002a/`) but not for the grammar,
/// which reads `big` as comment up to the `*/` of the comment after it.
fn escaped_java(lines: usize) -> String {
    let body: String = (0..lines - 2)
        .map(|i| format!("        int x{i} = {i};\n"))
        .collect();
    format!(
        "public class Small {{\n    /* helpers \\u002a/\n    int big() {{\n{body}    }}\n    \
         /* end */\n    void run() {{\n        int a = 1;\n        int b = 2;\n        \
         int c = 3;\n    }}\n}}\n"
    )
}

#[test]
fn a_java_unicode_escape_of_a_delimiter_fails_where_the_base_had_none() {
    let s = Scenario::inventory(crate::common::BAND_12);
    s.write("src/Small.java", &escaped_java(3).replace("\\u002a/", "*/"));
    s.cut_feature();
    // javac compiles `big` (40 lines); the grammar reads it as comment.
    s.write("src/Small.java", &escaped_java(40));
    let run = s.gate(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    let detail = "a unicode escape javac reads as a delimiter at line 2";
    assert_eq!(
        after_base(&run.stdout),
        [
            "structure judged 0 file(s) in 1 context(s): 1 file(s) unmeasurable".to_string(),
            format!("src/Small.java: unmeasurable ({detail})"),
        ]
    );
    let json = s.gate(&["--format", "json", "--require-judged"]);
    assert_eq!(json.code, 1, "{json:?}");
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["unmeasurable"],
        serde_json::json!([{"path": "src/Small.java", "reason": "unicode-escape",
            "detail": detail}])
    );
    // A new file holding one fails too; where the base's version already had one, the
    // file is judged as before.
    s.write("src/Other.java", &escaped_java(40));
    let run = s.gate(&[]);
    assert_eq!(
        after_base(&run.stdout)[2],
        "src/Small.java: unmeasurable (a unicode escape javac reads as a delimiter at line 2)"
    );
    assert_eq!(
        after_base(&run.stdout)[1],
        "src/Other.java: unmeasurable (a unicode escape javac reads as a delimiter at line 2)"
    );
    s.remove("src/Other.java");
    s.commit("hidden");
    s.git_ok(&["checkout", "-q", "-b", "later"]);
    s.write("src/Small.java", &format!("// more\n{}", escaped_java(40)));
    let run = s.gate(&["--base", "feature"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        after_base(&run.stdout),
        ["structure judged 1 file(s) in 1 context(s), within their Limits"]
    );
}
