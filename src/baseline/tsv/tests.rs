use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;

const FILE: &str = "structure-baseline.tsv";

fn key(path: &str, unit: &str, metric: Metric) -> EntryKey {
    EntryKey {
        path: path.to_string(),
        unit: unit.to_string(),
        metric,
    }
}

fn sample() -> Baseline {
    let mut entries = BTreeMap::new();
    let pricing = "src/Inventory.Core/Pricing.cs";
    entries.insert(key(pricing, "PriceRules", Metric::TypeLines), 420);
    entries.insert(
        key(pricing, "PriceRules.Calculate", Metric::FunctionLines),
        91,
    );
    entries.insert(key(pricing, "Pricing.cs", Metric::FileLines), 600);
    Baseline {
        measured_with: Some(BTreeMap::from([
            ("function_lines".to_string(), 55),
            ("tolerance_percent".to_string(), 25),
        ])),
        owned: Some(vec![
            "src/Inventory.Api".to_string(),
            "src/Inventory.Core".to_string(),
        ]),
        units: None,
        entries,
    }
}

fn parse_error(text: &str) -> String {
    match parse(text.as_bytes(), FILE) {
        Ok(parsed) => panic!("expected an error, read {parsed:?}"),
        Err(e) => e.to_string(),
    }
}

fn parse_ok(text: &str) -> Parsed {
    match parse(text.as_bytes(), FILE) {
        Ok(parsed) => parsed,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn title_is_byte_exact_with_the_spec() {
    let mut expected = b"# path\tunit\tmetric\tvalue ".to_vec();
    expected.extend_from_slice(&[0xE2, 0x80, 0x94]);
    expected.extend_from_slice(
        b" units over their Limits when measured, each tolerated up to its value",
    );
    assert_eq!(TITLE.as_bytes(), expected.as_slice());
}

#[test]
fn renders_the_sample_byte_for_byte() {
    let expected = format!(
        "{TITLE}\n\
         # measured with: function_lines=55 tolerance_percent=25\n\
         # owned:\tsrc/Inventory.Api\tsrc/Inventory.Core\n\
         src/Inventory.Core/Pricing.cs\tPriceRules\ttype_lines\t420\n\
         src/Inventory.Core/Pricing.cs\tPriceRules.Calculate\tfunction_lines\t91\n\
         src/Inventory.Core/Pricing.cs\tPricing.cs\tfile_lines\t600\n"
    );
    assert_eq!(render(&sample()), expected);
    assert_eq!(parse_ok(&expected).baseline, sample());
}

#[test]
fn entries_sort_by_path_unit_then_metric_key() {
    let mut b = Baseline::default();
    for metric in [Metric::TypesPerFile, Metric::FileLines] {
        b.entries.insert(key("b.rs", "b.rs", metric), 9);
    }
    b.entries.insert(key("a.rs", "z", Metric::FunctionLines), 3);
    b.entries.insert(key("a.rs", "Z", Metric::FunctionLines), 4);
    let expected = format!(
        "{TITLE}\na.rs\tZ\tfunction_lines\t4\na.rs\tz\tfunction_lines\t3\n\
         b.rs\tb.rs\tfile_lines\t9\nb.rs\tb.rs\ttypes_per_file\t9\n"
    );
    assert_eq!(render(&b), expected);
}

#[test]
fn metric_order_is_the_order_of_metric_keys() {
    let mut by_ord = Metric::ALL.to_vec();
    by_ord.sort();
    let mut by_key = Metric::ALL.to_vec();
    by_key.sort_by_key(|m| m.key());
    assert_eq!(by_ord, by_key);
}

#[test]
fn root_owned_dir_is_a_dot_and_reads_back_as_empty() {
    let b = Baseline {
        owned: Some(vec![String::new(), "a b".to_string()]),
        ..Baseline::default()
    };
    let text = render(&b);
    assert_eq!(text, format!("{TITLE}\n# owned:\t.\ta b\n"));
    assert_eq!(parse_ok(&text).baseline, b);
}

#[test]
fn header_only_and_empty_headers_render_and_read() {
    let b = Baseline {
        measured_with: Some(BTreeMap::from([("tolerance_percent".to_string(), 0)])),
        owned: Some(Vec::new()),
        units: None,
        entries: BTreeMap::new(),
    };
    let text = render(&b);
    assert_eq!(
        text,
        format!("{TITLE}\n# measured with: tolerance_percent=0\n# owned:\n")
    );
    assert_eq!(parse_ok(&text).baseline, b);
    assert_eq!(parse_ok("").baseline, Baseline::default());
}

#[test]
fn escapes_round_trip_for_awkward_paths() {
    let mut b = Baseline::default();
    let paths = [
        "a\tb/x.cs",
        "line\nbreak.rs",
        "back\\slash.rs",
        "cr\r.rs",
        "Ünïcødé/ß.cs",
        "with space/a b.cs",
        "#hash.rs",
    ];
    for path in paths {
        b.entries
            .insert(key(path, "Unit\twith\\tab\n", Metric::FunctionLines), 70);
    }
    let text = render(&b);
    assert!(text.contains("a\\tb/x.cs\tUnit\\twith\\\\tab\\n\tfunction_lines\t70\n"));
    assert!(text.contains("\n\\#hash.rs\t"));
    assert!(text.contains("\nÜnïcødé/ß.cs\t"));
    assert_eq!(text.matches('\n').count(), 1 + paths.len());
    assert_eq!(parse_ok(&text).baseline, b);
}

#[test]
fn reads_crlf_and_a_bom() {
    let text = render(&sample()).replace('\n', "\r\n");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(text.as_bytes());
    let parsed = parse(&bytes, FILE).map_err(|e| e.to_string());
    assert_eq!(parsed.map(|p| p.baseline), Ok(sample()));
}

#[test]
fn blank_lines_and_comments_are_ignored() {
    let text = "# a comment\n\n   \na.rs\tf\tfunction_lines\t70\n\n# another\n";
    let parsed = parse_ok(text);
    assert_eq!(
        parsed
            .baseline
            .allowance("a.rs", "f", Metric::FunctionLines),
        Some(70)
    );
    assert_eq!(parsed.baseline.entries.len(), 1);
    assert_eq!(parsed.baseline.measured_with, None);
    assert_eq!(parsed.baseline.owned, None);
}

#[test]
fn malformed_entries_name_file_and_line() {
    let head = format!("{TITLE}\n# measured with: tolerance_percent=0\n");
    let cases = [
        ("a.rs\tf\tfunction_lines\tabc", "value \"abc\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines\t0", "value \"0\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines\t-3", "value \"-3\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines\t+3", "value \"+3\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines\t5.5", "value \"5.5\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines\t99999999999999999999", "value \"99999999999999999999\" is not a positive whole number"),
        ("a.rs\tf\tfunction_lines", "expected 4 tab-separated fields (path, unit, metric, value), found 3"),
        ("a.rs\tf\tfunction_lines\t7\textra", "expected 4 tab-separated fields (path, unit, metric, value), found 5"),
        ("a.rs\tf\tfn_lines\t7", "unknown metric \"fn_lines\" (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file)"),
        ("a\\q.rs\tf\tfunction_lines\t7", "unknown escape \"\\q\" in the path"),
        ("a.rs\tf\\\tfunction_lines\t7", "a lone \"\\\" at the end of a field in the unit name"),
        ("\tf\tfunction_lines\t7", "the path is empty"),
        ("a.rs\t\tfunction_lines\t7", "the unit name is empty"),
    ];
    for (line, message) in cases {
        let text = format!("{head}\nb.rs\tg\ttype_lines\t9\n{line}\n");
        assert_eq!(
            parse_error(&text),
            format!("{FILE}:5: {message}"),
            "line {line:?}"
        );
    }
}

#[test]
fn the_document_budget_header_reads_back_as_written() {
    let text = format!(
        "{TITLE}\n# measured with: file_bytes=40960 new_file_bytes=32768 \
         pinned=file_bytes,loaded_bytes tier.xl.file_bytes=98304 tolerance_percent=0\n"
    );
    let parsed = parse(text.as_bytes(), FILE).expect("parses");
    assert_eq!(render(&parsed.baseline), text);
    let recorded = parsed.baseline.recorded_for(Some("xl")).expect("a header");
    assert_eq!(recorded.limit(Metric::FileBytes), Some(98304));
    assert_eq!(recorded.new_file_bytes, Some(32768));
    assert!(recorded.is_pinned(Metric::LoadedBytes));
    let untiered = parsed.baseline.recorded_for(None).expect("a header");
    assert_eq!(untiered.limit(Metric::FileBytes), Some(40960));
}

#[test]
fn malformed_measured_with_names_file_and_line() {
    let cases = [
        ("function_lines55", "malformed \"# measured with:\" pair \"function_lines55\": expected key=value"),
        ("function_lines=x", "\"# measured with:\" function_lines=\"x\" is not a positive whole number"),
        ("function_lines=0", "\"# measured with:\" function_lines=\"0\" is not a positive whole number"),
        ("tolerance_percent=-1", "\"# measured with:\" tolerance_percent=\"-1\" is not a whole number"),
        ("fn=3", "unknown limit \"fn\" in \"# measured with:\" (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tier.NAME.KEY, tolerance_percent)"),
        ("type_lines=3 type_lines=4", "\"# measured with:\" lists type_lines twice"),
        ("pinned=file_bytes,bogus", "\"# measured with:\" pinned=\"file_bytes,bogus\" names \"bogus\", not a metric (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file)"),
        ("tier.xl.tolerance_percent=3", "unknown limit \"tier.xl.tolerance_percent\" in \"# measured with:\" (known: chain_bytes, file_bytes, file_lines, function_cognitive, function_cyclomatic, function_lines, function_nesting, function_params, loaded_bytes, type_lines, types_per_file, new_file_bytes, pinned, tier.NAME.KEY, tolerance_percent)"),
        ("tier.xl.file_bytes=0", "\"# measured with:\" tier.xl.file_bytes=\"0\" is not a positive whole number"),
    ];
    for (pairs, message) in cases {
        let text = format!("{TITLE}\n# measured with: {pairs}\n");
        assert_eq!(
            parse_error(&text),
            format!("{FILE}:2: {message}"),
            "pairs {pairs:?}"
        );
    }
}

#[test]
fn second_header_line_is_an_error() {
    let text = format!("{TITLE}\n# owned:\ta\n\n# owned:\tb\n");
    assert_eq!(
        parse_error(&text),
        format!("{FILE}:4: a second \"# owned:\" line (the first is at line 2)")
    );
    let text = "# measured with: tolerance_percent=0\n# measured with: tolerance_percent=0\n";
    assert_eq!(
        parse_error(text),
        format!("{FILE}:2: a second \"# measured with:\" line (the first is at line 1)")
    );
}

#[test]
fn merge_conflict_markers_are_named_as_such() {
    let text = format!(
        "{TITLE}\n<<<<<<< HEAD\na.rs\tf\tfunction_lines\t70\n=======\na.rs\tf\tfunction_lines\t80\n>>>>>>> topic\n"
    );
    let expected = format!(
        "{FILE}:2: this looks like a merge conflict marker (\"<<<<<<< HEAD\"): resolve the \
         conflict in the baseline, then run `structgate baseline refresh`"
    );
    assert_eq!(parse_error(&text), expected);
    let middle = format!("{TITLE}\na.rs\tf\tfunction_lines\t70\n=======\n");
    assert!(parse_error(&middle).starts_with(&format!(
        "{FILE}:3: this looks like a merge conflict marker (\"=======\")"
    )));
}

#[test]
fn duplicate_key_keeps_the_lower_value_with_a_warning() {
    let text = format!("{TITLE}\na.rs\tf\tfunction_lines\t80\nb.rs\tg\ttype_lines\t9\na.rs\tf\tfunction_lines\t70\n");
    let parsed = parse_ok(&text);
    assert_eq!(
        parsed
            .baseline
            .allowance("a.rs", "f", Metric::FunctionLines),
        Some(70)
    );
    assert_eq!(
        parsed.warnings,
        vec![format!("{FILE}:4: duplicate entry for a.rs f function_lines (also at line 2); the lower value 70 stands")]
    );
    let reversed = text.replace("\t80\n", "\t60\n");
    assert_eq!(
        parse_ok(&reversed)
            .baseline
            .allowance("a.rs", "f", Metric::FunctionLines),
        Some(60)
    );
}

#[test]
fn invalid_utf8_names_the_line() {
    let bytes = b"# title\na.rs\tf\tfunction_lines\t70\nb\xFF.rs\tf\tfunction_lines\t70\n";
    let error = parse(bytes, FILE).map_err(|e| e.to_string());
    assert_eq!(error, Err(format!("{FILE}:3: not valid UTF-8")));
}

fn field() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 ./#\\\\\t\n\rÜß=:<>-]{1,12}")
        .unwrap_or_else(|e| panic!("{e}"))
}

fn metric() -> impl Strategy<Value = Metric> {
    proptest::sample::select(Metric::ALL.to_vec())
}

fn baseline() -> impl Strategy<Value = Baseline> {
    let entries = proptest::collection::btree_map((field(), field(), metric()), 1..u64::MAX, 0..8);
    let limits = proptest::collection::btree_map(metric(), 1..u64::MAX, 0..4);
    let measured_with = proptest::option::of((limits, 0..u64::MAX));
    let owned = proptest::option::of(proptest::collection::vec(
        field().prop_filter("dot", |d| d != "."),
        0..4,
    ));
    let units = proptest::option::of(1..=crate::baseline::UNITS_REVISION);
    (entries, measured_with, owned, units).prop_map(|(entries, measured_with, owned, units)| {
        Baseline {
            measured_with: measured_with.map(|(limits, tolerance)| {
                let mut pairs: BTreeMap<String, u64> = limits
                    .into_iter()
                    .map(|(m, v)| (m.key().to_string(), v))
                    .collect();
                pairs.insert(TOLERANCE_KEY.to_string(), tolerance);
                pairs
            }),
            owned,
            units,
            entries: entries
                .into_iter()
                .map(|((path, unit, metric), value)| (EntryKey { path, unit, metric }, value))
                .collect(),
        }
    })
}

proptest! {
    #[test]
    fn render_then_parse_is_identity(b in baseline()) {
        let text = render(&b);
        let parsed = parse(text.as_bytes(), FILE).map_err(|e| e.to_string());
        prop_assert_eq!(parsed, Ok(Parsed { baseline: b.clone(), warnings: Vec::new() }));
        prop_assert_eq!(render(&b), text);
    }
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|it| {
            it.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn write_atomic_replaces_the_target_and_leaves_no_temp_file() -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("structure-baseline.tsv");
    fs::write(&target, b"old\n")?;
    write_atomic(&target, b"new\n")?;
    assert_eq!(fs::read(&target)?, b"new\n");
    write_atomic(&target, b"newer\n")?;
    assert_eq!(fs::read(&target)?, b"newer\n");
    assert_eq!(files_in(dir.path()), vec!["structure-baseline.tsv"]);
    Ok(())
}

#[test]
fn failed_write_leaves_the_old_file_and_no_temp_file() -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("structure-baseline.tsv");
    fs::write(&target, b"old\n")?;
    let error = write_via_temp(&target, |file| {
        file.write_all(b"half")?;
        Err(io::Error::other("disk full"))
    })
    .map(|()| "written".to_string())
    .map_err(|e| e.to_string());
    assert_eq!(
        error,
        Err(format!("cannot write {}: disk full", target.display()))
    );
    assert_eq!(fs::read(&target)?, b"old\n");
    assert_eq!(files_in(dir.path()), vec!["structure-baseline.tsv"]);
    Ok(())
}

#[test]
fn failed_rename_onto_a_directory_leaves_it_and_no_temp_file() -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("structure-baseline.tsv");
    fs::create_dir(&target)?;
    fs::write(target.join("inside"), b"kept\n")?;
    let error = write_atomic(&target, b"new\n").map_err(|e| e.to_string());
    let message = error.err().unwrap_or_default();
    assert!(
        message.starts_with(&format!("cannot replace {}: ", target.display())),
        "{message}"
    );
    assert_eq!(fs::read(target.join("inside"))?, b"kept\n");
    assert_eq!(files_in(dir.path()), vec!["structure-baseline.tsv"]);
    Ok(())
}

#[test]
fn unwritable_directory_is_named() -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let blocker = dir.path().join("ctx");
    fs::write(&blocker, b"a file, not a directory\n")?;
    let target = blocker.join("structure-baseline.tsv");
    let message = write_atomic(&target, b"new\n")
        .map_err(|e| e.to_string())
        .err()
        .unwrap_or_default();
    let expected = format!(
        "cannot write {}: cannot create a file in {}: ",
        target.display(),
        blocker.display()
    );
    assert!(message.starts_with(&expected), "{message}");
    assert_eq!(fs::read(&blocker)?, b"a file, not a directory\n");
    Ok(())
}

#[test]
fn a_failure_between_the_synced_temp_file_and_the_rename_leaves_the_old_file() -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("structure-baseline.tsv");
    fs::write(&target, b"old\n")?;
    let error = write_steps(
        &target,
        |file| file.write_all(b"new\n"),
        || Err(io::Error::other("power cut")),
    )
    .map_err(|e| e.to_string());
    assert_eq!(
        error,
        Err(format!("cannot replace {}: power cut", target.display()))
    );
    assert_eq!(fs::read(&target)?, b"old\n");
    assert_eq!(files_in(dir.path()), vec!["structure-baseline.tsv"]);
    Ok(())
}

#[test]
fn a_crash_before_the_rename_leaves_the_old_file_and_a_temp_file_the_next_write_removes(
) -> io::Result<()> {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("structure-baseline.tsv");
    fs::write(&target, b"old\n")?;
    let crashed = std::panic::catch_unwind(|| {
        write_steps(
            &target,
            |file| file.write_all(b"new\n"),
            || panic!("killed"),
        )
    });
    assert!(crashed.is_err());
    assert_eq!(fs::read(&target)?, b"old\n");
    let left = files_in(dir.path());
    assert_eq!(left.len(), 2, "{left:?}");
    let temp = dir.path().join(&left[0]);
    assert!(
        left[0].starts_with(".structure-baseline.tsv.tmp."),
        "{left:?}"
    );
    assert_eq!(fs::read(&temp)?, b"new\n");
    // Our own temp files are never stale; one whose process is gone is.
    assert!(crate::baseline::leftovers::remove_stale_temps(&target).is_empty());
    let mut gone = std::process::Command::new("true").spawn()?;
    let dead_pid = gone.id();
    gone.wait()?;
    let dead = dir
        .path()
        .join(format!(".structure-baseline.tsv.tmp.{dead_pid}.0"));
    fs::rename(&temp, &dead)?;
    fs::write(
        dir.path().join(".structure-baseline.tsv.tmp.notapid"),
        b"kept\n",
    )?;
    fs::write(dir.path().join(".other.tsv.tmp.1.0"), b"kept\n")?;
    let removed = crate::baseline::leftovers::remove_stale_temps(&target);
    assert_eq!(removed, vec![dead]);
    assert_eq!(
        files_in(dir.path()),
        vec![
            ".other.tsv.tmp.1.0",
            ".structure-baseline.tsv.tmp.notapid",
            "structure-baseline.tsv"
        ]
    );
    Ok(())
}

#[test]
fn units_is_read_written_and_an_unknown_revision_refused() {
    let text = format!("{TITLE}\n# owned:\t.\n# units: 2\na.rs\tf\tfunction_lines\t70\n");
    let parsed = parse_ok(&text);
    assert_eq!(parsed.baseline.units, Some(2));
    assert!(!parsed.baseline.predates_units());
    assert_eq!(render(&parsed.baseline), text);
    let old = parse_ok(&format!("{TITLE}\na.rs\tf\tfunction_lines\t70\n"));
    assert_eq!(old.baseline.units, None);
    assert!(old.baseline.predates_units());
    assert!(parse_ok(&format!("{TITLE}\n# units: 1\n"))
        .baseline
        .predates_units());
    assert_eq!(
        parse_error(&format!("{TITLE}\n# units: 3\n")),
        format!(
            "{FILE}:2: \"# units: 3\" is a revision this structgate doesn't know (it knows 1 \
             and 2): the baseline was written by a newer structgate"
        )
    );
    assert_eq!(
        parse_error(&format!("{TITLE}\n# units: two\n")),
        format!("{FILE}:2: \"# units:\" \"two\" is not a revision (1 or 2)")
    );
    assert_eq!(
        parse_error(&format!("{TITLE}\n# units: 2\n# units: 2\n")),
        format!("{FILE}:3: a second \"# units:\" line (the first is at line 2)")
    );
}
