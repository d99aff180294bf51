use proptest::prelude::*;

use super::*;
use crate::baseline::tsv::render;
use crate::model::Metric;

fn limits(pairs: &[(Metric, u64)], tolerance: u64) -> Limits {
    let mut l = Limits::default();
    l.values.extend(pairs.iter().copied());
    l.tolerance_percent = tolerance;
    l
}

/// function_lines 55, type_lines 300, 25 %: bands end at 68 and 375.
fn spec_limits() -> Limits {
    limits(&[(Metric::FunctionLines, 55), (Metric::TypeLines, 300)], 25)
}

fn value(path: &str, unit: &str, metric: Metric, value: u64) -> UnitValue {
    UnitValue {
        path: path.to_string(),
        unit: unit.to_string(),
        metric,
        value,
        start_line: 1,
        end_line: 1,
        anonymous: false,
    }
}

fn key(path: &str, unit: &str, metric: Metric) -> EntryKey {
    EntryKey {
        path: path.to_string(),
        unit: unit.to_string(),
        metric,
    }
}

fn dirs(list: &[&str]) -> Vec<String> {
    list.iter().map(|d| d.to_string()).collect()
}

const CORE: &str = "src/Core/Pricing.cs";
const API: &str = "src/Api/Orders.cs";

fn first_measure() -> Vec<UnitValue> {
    vec![
        value(CORE, "PriceRules.Calculate", Metric::FunctionLines, 91),
        value(CORE, "PriceRules.Round", Metric::FunctionLines, 60),
        value(CORE, "PriceRules.Tiny", Metric::FunctionLines, 10),
        value(CORE, "PriceRules", Metric::TypeLines, 420),
        value(CORE, "Pricing.cs", Metric::FileLines, 900),
    ]
}

#[test]
fn init_writes_excesses_not_divergences() {
    let owned = dirs(&["src/Core"]);
    let (b, changes) = init(None, &spec_limits(), &owned, &first_measure());
    let expected = format!(
        "{}\n# measured with: function_lines=55 tolerance_percent=25 type_lines=300\n\
         # owned:\tsrc/Core\n\
         # units: 2\n\
         src/Core/Pricing.cs\tPriceRules\ttype_lines\t420\n\
         src/Core/Pricing.cs\tPriceRules.Calculate\tfunction_lines\t91\n",
        crate::baseline::tsv::TITLE
    );
    assert_eq!(render(&b), expected);
    let added: Vec<u64> = changes.added.iter().map(|(_, v)| *v).collect();
    assert_eq!(added, vec![420, 91]);
    assert!(changes.measured_with_changed && changes.owned_changed);
}

/// An anonymous function's value (docs/src/reference/measurement.md#anonymous-functions).
fn anonymous(path: &str, unit: &str, lines: u64) -> UnitValue {
    UnitValue {
        anonymous: true,
        ..value(path, unit, Metric::FunctionLines, lines)
    }
}

#[test]
fn a_refresh_of_a_revision_1_baseline_adds_anonymous_excesses_and_writes_units_2() {
    let owned = dirs(&["src/Core"]);
    let (mut old, _) = init(None, &spec_limits(), &owned, &first_measure());
    old.units = None;
    let mut measured = first_measure();
    measured.push(anonymous(CORE, "app.MapGet(\"/todos\")", 80));
    measured.push(anonymous(CORE, "Task.Run()", 60));
    measured.push(value(CORE, "Grown", Metric::FunctionLines, 90));
    let (b, changes) = refresh(&old, &spec_limits(), &owned, &measured, &[]);
    assert_eq!(b.units, Some(2));
    assert_eq!(changes.units_upgraded, Some(1));
    let added: Vec<(&str, u64)> = changes
        .added
        .iter()
        .map(|(k, v)| (k.unit.as_str(), *v))
        .collect();
    // Within the band (68) the lambda stays out; a named unit that grew is the gate's.
    assert_eq!(added, [("app.MapGet(\"/todos\")", 80)]);
    let (again, changes) = refresh(&b, &spec_limits(), &owned, &measured, &[]);
    assert_eq!((again, changes.units_upgraded), (b, None));
}

#[test]
fn init_at_the_band_edge_records_only_past_it() {
    let measured = [
        value(CORE, "AtBand", Metric::FunctionLines, 68),
        value(CORE, "PastBand", Metric::FunctionLines, 69),
    ];
    let (b, _) = init(None, &spec_limits(), &dirs(&["src"]), &measured);
    let units: Vec<&str> = b.entries.keys().map(|k| k.unit.as_str()).collect();
    assert_eq!(units, vec!["PastBand"]);
}

#[test]
fn init_with_nothing_past_the_band_writes_the_header_alone() {
    let measured = [value(CORE, "Small", Metric::FunctionLines, 40)];
    let (b, changes) = init(None, &spec_limits(), &dirs(&["src/Core"]), &measured);
    assert!(b.entries.is_empty());
    assert_eq!(b.owned, Some(dirs(&["src/Core"])));
    assert_eq!(b.measured_with, Some(spec_limits().measured_with()));
    assert!(changes.added.is_empty());
}

#[test]
fn init_twice_changes_nothing_byte_for_byte() {
    let owned = dirs(&["src/Core"]);
    let (first, _) = init(None, &spec_limits(), &owned, &first_measure());
    let mut grown = first_measure();
    grown.push(value(CORE, "PriceRules.New", Metric::FunctionLines, 200));
    let looser = limits(&[(Metric::FunctionLines, 80)], 0);
    let (second, changes) = init(Some(&first), &looser, &owned, &grown);
    assert_eq!(render(&second), render(&first));
    assert!(changes.is_empty(), "{changes:?}");
}

#[test]
fn init_adds_only_units_in_newly_owned_directories() {
    let (first, _) = init(None, &spec_limits(), &dirs(&["src/Core"]), &first_measure());
    let mut measured = first_measure();
    measured.push(value(CORE, "PriceRules.Grown", Metric::FunctionLines, 99));
    measured.push(value(
        "src/Core/Deep/Rates.cs",
        "Rates.Load",
        Metric::FunctionLines,
        99,
    ));
    measured.push(value(API, "Orders.Place", Metric::FunctionLines, 80));
    measured.push(value(API, "Orders.Small", Metric::FunctionLines, 60));
    measured.push(value(
        "lib/Other.cs",
        "Other.Run",
        Metric::FunctionLines,
        90,
    ));
    let owned = dirs(&["src/Core", "src/Api"]);
    let (b, changes) = init(Some(&first), &spec_limits(), &owned, &measured);
    assert_eq!(
        changes.added,
        vec![(key(API, "Orders.Place", Metric::FunctionLines), 80)]
    );
    assert_eq!(b.owned, Some(dirs(&["src/Api", "src/Core"])));
    assert!(changes.owned_changed && !changes.measured_with_changed);
    assert_eq!(b.entries.len(), first.entries.len() + 1);
    assert_eq!(b.measured_with, first.measured_with);
}

#[test]
fn init_without_a_recorded_owned_list_adds_nothing() {
    let (mut first, _) = init(None, &spec_limits(), &dirs(&["src/Core"]), &first_measure());
    first.owned = None;
    let mut measured = first_measure();
    measured.push(value(API, "Orders.Place", Metric::FunctionLines, 80));
    let (b, changes) = init(Some(&first), &spec_limits(), &dirs(&["src"]), &measured);
    assert!(changes.added.is_empty());
    assert_eq!(b.entries, first.entries);
    assert_eq!(b.owned, Some(dirs(&["src"])));
}

#[test]
fn init_keeps_entries_of_metrics_no_longer_limited() {
    let (first, _) = init(None, &spec_limits(), &dirs(&["src/Core"]), &first_measure());
    let only_types = limits(&[(Metric::TypeLines, 300)], 25);
    let (b, _) = init(
        Some(&first),
        &only_types,
        &dirs(&["src/Core"]),
        &first_measure(),
    );
    assert_eq!(
        b.allowance(CORE, "PriceRules.Calculate", Metric::FunctionLines),
        Some(91)
    );
}

fn baseline_of(measured: &[UnitValue]) -> Baseline {
    init(None, &spec_limits(), &dirs(&["src/Core"]), measured).0
}

fn refreshed(old: &Baseline, l: &Limits, measured: &[UnitValue]) -> (Baseline, Changes) {
    refresh(old, l, &dirs(&["src/Core"]), measured, &[])
}

#[test]
fn refresh_lowers_to_the_new_value_and_never_raises() {
    let old = baseline_of(&first_measure());
    let mut measured = first_measure();
    measured[0].value = 80;
    measured[3].value = 500;
    let (b, changes) = refreshed(&old, &spec_limits(), &measured);
    assert_eq!(
        b.allowance(CORE, "PriceRules.Calculate", Metric::FunctionLines),
        Some(80)
    );
    assert_eq!(
        b.allowance(CORE, "PriceRules", Metric::TypeLines),
        Some(420)
    );
    assert_eq!(
        changes.lowered,
        vec![(
            key(CORE, "PriceRules.Calculate", Metric::FunctionLines),
            91,
            80
        )]
    );
    assert!(changes.added.is_empty() && changes.dropped.is_empty());
}

#[test]
fn refresh_drops_units_back_inside_the_band_or_gone() {
    let old = baseline_of(&first_measure());
    let measured = vec![value(
        CORE,
        "PriceRules.Calculate",
        Metric::FunctionLines,
        68,
    )];
    let (b, changes) = refreshed(&old, &spec_limits(), &measured);
    assert!(b.entries.is_empty());
    let dropped: Vec<(&str, u64)> = changes
        .dropped
        .iter()
        .map(|(k, v)| (k.unit.as_str(), *v))
        .collect();
    assert_eq!(
        dropped,
        vec![("PriceRules", 420), ("PriceRules.Calculate", 91)]
    );
}

#[test]
fn lowered_limit_adds_the_exposed_unit_but_not_one_grown_under_an_unchanged_limit() {
    let old = baseline_of(&first_measure());
    let mut measured = first_measure();
    measured.push(value(CORE, "Grown", Metric::TypeLines, 400));
    let lower = limits(&[(Metric::FunctionLines, 45), (Metric::TypeLines, 300)], 25);
    let (b, changes) = refreshed(&old, &lower, &measured);
    assert_eq!(
        changes.added,
        vec![(key(CORE, "PriceRules.Round", Metric::FunctionLines), 60)]
    );
    assert_eq!(b.allowance(CORE, "Grown", Metric::TypeLines), None);
    assert!(changes.measured_with_changed);
    assert_eq!(b.measured_with, Some(lower.measured_with()));
}

#[test]
fn newly_limited_metric_exposes_its_excesses() {
    let old = baseline_of(&first_measure());
    let with_files = limits(
        &[
            (Metric::FunctionLines, 55),
            (Metric::TypeLines, 300),
            (Metric::FileLines, 500),
        ],
        25,
    );
    let (b, changes) = refreshed(&old, &with_files, &first_measure());
    assert_eq!(
        changes.added,
        vec![(key(CORE, "Pricing.cs", Metric::FileLines), 900)]
    );
    assert_eq!(b.entries.len(), 3);
}

#[test]
fn raised_limit_drops_entries_now_inside_the_band() {
    let old = baseline_of(&first_measure());
    let raised = limits(&[(Metric::FunctionLines, 80), (Metric::TypeLines, 300)], 25);
    let (b, changes) = refreshed(&old, &raised, &first_measure());
    assert_eq!(
        changes.dropped,
        vec![(key(CORE, "PriceRules.Calculate", Metric::FunctionLines), 91)]
    );
    assert_eq!(
        b.entries
            .keys()
            .map(|k| k.unit.as_str())
            .collect::<Vec<_>>(),
        vec!["PriceRules"]
    );
}

#[test]
fn refresh_drops_entries_of_metrics_no_longer_limited() {
    let old = baseline_of(&first_measure());
    let (b, _) = refreshed(
        &old,
        &limits(&[(Metric::TypeLines, 300)], 25),
        &first_measure(),
    );
    assert_eq!(
        b.allowance(CORE, "PriceRules.Calculate", Metric::FunctionLines),
        None
    );
    assert_eq!(
        b.allowance(CORE, "PriceRules", Metric::TypeLines),
        Some(420)
    );
}

#[test]
fn refresh_adds_excesses_in_newly_owned_directories() {
    let old = baseline_of(&first_measure());
    let mut measured = first_measure();
    measured.push(value(API, "Orders.Place", Metric::FunctionLines, 80));
    measured.push(value(CORE, "PriceRules.Grown", Metric::FunctionLines, 80));
    let owned = dirs(&["src/Core", "src/Api"]);
    let (b, changes) = refresh(&old, &spec_limits(), &owned, &measured, &[]);
    assert_eq!(
        changes.added,
        vec![(key(API, "Orders.Place", Metric::FunctionLines), 80)]
    );
    assert_eq!(b.owned, Some(dirs(&["src/Api", "src/Core"])));
}

#[test]
fn refresh_without_recorded_limits_adds_every_excess() {
    let mut old = baseline_of(&first_measure());
    old.measured_with = None;
    let mut measured = first_measure();
    measured.push(value(CORE, "PriceRules.Grown", Metric::FunctionLines, 80));
    let (b, changes) = refreshed(&old, &spec_limits(), &measured);
    assert_eq!(
        changes.added,
        vec![(key(CORE, "PriceRules.Grown", Metric::FunctionLines), 80)]
    );
    assert_eq!(b.measured_with, Some(spec_limits().measured_with()));
}

#[test]
fn renames_move_entries_including_file_level_units() {
    let l = limits(&[(Metric::FunctionLines, 55), (Metric::FileLines, 500)], 0);
    let old = init(None, &l, &dirs(&["src"]), &first_measure()).0;
    let new_path = "src/Sales/Prices.cs";
    let measured: Vec<UnitValue> = first_measure()
        .into_iter()
        .map(|v| {
            let unit = if v.unit == "Pricing.cs" {
                "Prices.cs".to_string()
            } else {
                v.unit
            };
            UnitValue {
                path: new_path.to_string(),
                unit,
                ..v
            }
        })
        .collect();
    let renames = [(CORE.to_string(), new_path.to_string())];
    let (b, changes) = refresh(&old, &l, &dirs(&["src"]), &measured, &renames);
    assert_eq!(
        b.allowance(new_path, "Prices.cs", Metric::FileLines),
        Some(900)
    );
    assert_eq!(
        b.allowance(new_path, "PriceRules.Calculate", Metric::FunctionLines),
        Some(91)
    );
    assert_eq!(
        b.allowance(new_path, "PriceRules.Round", Metric::FunctionLines),
        Some(60)
    );
    assert_eq!(b.entries.len(), 3);
    assert!(changes.added.is_empty() && changes.dropped.is_empty());
    let file_move = (
        key(CORE, "Pricing.cs", Metric::FileLines),
        key(new_path, "Prices.cs", Metric::FileLines),
    );
    assert!(changes.moved.contains(&file_move), "{:?}", changes.moved);
    assert_eq!(changes.moved.len(), 3);
}

#[test]
fn rename_onto_a_listed_path_keeps_the_lower_value() {
    let mut old = Baseline::default();
    old.entries
        .insert(key("a/Old.cs", "Old.cs", Metric::FileLines), 700);
    old.entries
        .insert(key("a/New.cs", "New.cs", Metric::FileLines), 650);
    old.entries
        .insert(key("a/Old.cs", "Old.cs", Metric::TypeLines), 400);
    let l = limits(&[(Metric::FileLines, 500), (Metric::TypeLines, 300)], 0);
    let measured = [
        value("a/New.cs", "New.cs", Metric::FileLines, 680),
        value("a/New.cs", "Old.cs", Metric::TypeLines, 400),
    ];
    let renames = [("a/Old.cs".to_string(), "a/New.cs".to_string())];
    let (b, _) = refresh(&old, &l, &dirs(&["a"]), &measured, &renames);
    assert_eq!(
        b.allowance("a/New.cs", "New.cs", Metric::FileLines),
        Some(650)
    );
    assert_eq!(
        b.allowance("a/New.cs", "Old.cs", Metric::TypeLines),
        Some(400)
    );
}

#[test]
fn a_renamed_document_keeps_its_byte_allowances() {
    let mut old = Baseline::default();
    old.entries
        .insert(key("docs/old.md", "old.md", Metric::FileBytes), 40000);
    old.entries
        .insert(key("docs/old.md", "old.md", Metric::LoadedBytes), 50000);
    let l = limits(
        &[(Metric::FileBytes, 32768), (Metric::LoadedBytes, 32768)],
        0,
    );
    let measured = [
        value("docs/new.md", "new.md", Metric::FileBytes, 39000),
        value("docs/new.md", "new.md", Metric::LoadedBytes, 50000),
    ];
    let renames = [("docs/old.md".to_string(), "docs/new.md".to_string())];
    let (b, changes) = refresh(&old, &l, &dirs(&["docs"]), &measured, &renames);
    assert_eq!(
        b.entries.into_iter().collect::<Vec<_>>(),
        [
            (key("docs/new.md", "new.md", Metric::FileBytes), 39000),
            (key("docs/new.md", "new.md", Metric::LoadedBytes), 50000),
        ]
    );
    assert_eq!(changes.moved.len(), 2);
}

#[test]
fn refresh_of_an_unchanged_tree_changes_nothing() {
    let old = baseline_of(&first_measure());
    let (b, changes) = refreshed(&old, &spec_limits(), &first_measure());
    assert_eq!(b, old);
    assert!(changes.is_empty(), "{changes:?}");
}

#[test]
fn an_owned_entry_holds_the_file_it_names_or_every_path_below_it() {
    assert!(owns("", "a.rs") && owns("src", "src/a.rs") && owns("src", "src/x/a.rs"));
    assert!(!owns("src", "srcx/a.rs") && !owns("src/a.rs", "src/a.rsx"));
    assert!(owns("AGENTS.md", "AGENTS.md") && !owns("AGENTS.md", "docs/AGENTS.md"));
}

const PATHS: [&str; 3] = ["a/x.cs", "a/y.cs", "b/z.cs"];

fn arb_key() -> impl Strategy<Value = EntryKey> {
    let unit = proptest::sample::select(vec!["U", "V", "x.cs", "z.cs"]);
    let metric = proptest::sample::select(Metric::ALL.to_vec());
    (proptest::sample::select(PATHS.to_vec()), unit, metric)
        .prop_map(|(p, u, metric)| key(p, u, metric))
}

fn arb_limits() -> impl Strategy<Value = Limits> {
    let values = proptest::collection::btree_map(
        proptest::sample::select(Metric::ALL.to_vec()),
        1..100u64,
        0..4,
    );
    (values, 0..60u64).prop_map(|(values, tolerance_percent)| Limits {
        values,
        tolerance_percent,
        ..Limits::default()
    })
}

fn arb_owned() -> impl Strategy<Value = Vec<String>> {
    proptest::sample::subsequence(vec!["", "a", "b"], 0..3)
        .prop_map(|d| d.into_iter().map(String::from).collect())
}

fn arb_baseline() -> impl Strategy<Value = Baseline> {
    let entries = proptest::collection::btree_map(arb_key(), 1..200u64, 0..10);
    let recorded = proptest::option::of(arb_limits());
    (entries, recorded, proptest::option::of(arb_owned())).prop_map(|(entries, recorded, owned)| {
        Baseline {
            measured_with: recorded.map(|l| l.measured_with()),
            owned,
            units: None,
            entries,
        }
    })
}

fn arb_measured() -> impl Strategy<Value = Vec<UnitValue>> {
    proptest::collection::vec((arb_key(), 1..200u64), 0..16).prop_map(|list| {
        list.into_iter()
            .map(|(k, v)| value(&k.path, &k.unit, k.metric, v))
            .collect()
    })
}

fn arb_renames() -> impl Strategy<Value = Vec<(String, String)>> {
    let pair = (
        proptest::sample::select(PATHS.to_vec()),
        proptest::sample::select(vec!["a/y.cs", "b/z.cs", "c/w.cs"]),
    );
    proptest::collection::vec(pair.prop_map(|(a, b)| (a.to_string(), b.to_string())), 0..2)
}

proptest! {
    #[test]
    fn refresh_never_raises_a_recorded_value(
        old in arb_baseline(), l in arb_limits(), owned in arb_owned(),
        measured in arb_measured(), renames in arb_renames(),
    ) {
        let (new, _) = refresh(&old, &l, &owned, &measured, &renames);
        // A renamed-away path that is measured again is another file: only the entries
        // that stay where they were are compared.
        let stayed = |key: &EntryKey| !renames.iter().any(|(from, _)| *from == key.path);
        for (key, value) in new.entries.iter().filter(|(key, _)| stayed(key)) {
            if let Some(before) = old.entries.get(key) {
                prop_assert!(value <= before, "{key:?}: {value} > {before}");
            }
        }
    }

    #[test]
    fn refresh_is_idempotent(
        old in arb_baseline(), l in arb_limits(), owned in arb_owned(),
        measured in arb_measured(), renames in arb_renames(),
    ) {
        let (once, _) = refresh(&old, &l, &owned, &measured, &renames);
        let (twice, changes) = refresh(&once, &l, &owned, &measured, &[]);
        prop_assert_eq!(&twice, &once);
        prop_assert!(changes.is_empty(), "{:?}", changes);
    }

    #[test]
    fn init_is_idempotent(l in arb_limits(), owned in arb_owned(), measured in arb_measured()) {
        let (once, _) = init(None, &l, &owned, &measured);
        let (twice, changes) = init(Some(&once), &l, &owned, &measured);
        prop_assert_eq!(render(&twice), render(&once));
        prop_assert!(changes.is_empty(), "{:?}", changes);
    }
}
