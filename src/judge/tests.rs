use super::*;
use crate::baseline::{Baseline, EntryKey};
use crate::model::{Unit, UnitKind};
use crate::terms::diff::{Term, TermValue};

fn limits(function_lines: u64, tolerance: u64) -> Limits {
    let mut l = Limits::default();
    l.values.insert(Metric::FunctionLines, function_lines);
    l.tolerance_percent = tolerance;
    l
}

#[test]
fn band_of_spec_example_ends_at_68() {
    assert_eq!(limits(55, 25).band(Metric::FunctionLines), Some(68));
}

#[test]
fn statuses_at_each_edge() {
    let l = limits(55, 25);
    let s = |v, a| verdict(&l, Metric::FunctionLines, v, a).map(|v| v.status);
    assert_eq!(s(55, None), Some(Status::Ok));
    assert_eq!(s(56, None), Some(Status::Divergence));
    assert_eq!(s(68, None), Some(Status::Divergence));
    assert_eq!(s(69, None), Some(Status::Excess));
    assert_eq!(s(91, Some(91)), Some(Status::Tolerated));
    assert_eq!(s(92, Some(91)), Some(Status::Excess));
    assert_eq!(s(60, Some(91)), Some(Status::Divergence));
    assert_eq!(verdict(&l, Metric::TypeLines, 1000, None), None);
}

#[test]
fn what_loosens_for_every_kind_of_term() {
    use TermValue::{Flag, Number, Text};
    let (n, t) = (|v| Some(Number(v)), |v: &str| Some(Text(v.to_string())));
    let flag = |v| Some(Flag(v));
    let entry = Term::Entry(crate::baseline::EntryKey {
        path: "a.rs".to_string(),
        unit: "f".to_string(),
        metric: Metric::FunctionLines,
    });
    let none: Vec<String> = Vec::new();
    let taken = vec!["web".to_string()];
    let cases = [
        (Term::Limit(Metric::FunctionLines), n(10), n(40), true),
        (Term::Limit(Metric::FunctionLines), n(40), n(10), false),
        (Term::Limit(Metric::TypeLines), n(300), None, true),
        (Term::Limit(Metric::TypeLines), None, n(300), false),
        (Term::Tolerance, n(20), n(30), true),
        (Term::Tolerance, n(20), n(0), false),
        (entry.clone(), None, n(25), true),
        (entry.clone(), n(20), n(25), true),
        (entry.clone(), n(25), n(20), false),
        (entry, n(25), None, false),
        (
            Term::Source {
                taken_from: none.clone(),
            },
            t("lib"),
            None,
            true,
        ),
        (
            Term::Source {
                taken_from: none.clone(),
            },
            None,
            t("lib"),
            false,
        ),
        (
            Term::Source {
                taken_from: taken.clone(),
            },
            None,
            t("web/x"),
            true,
        ),
        (
            Term::Context {
                taken_from: none.clone(),
            },
            t("web"),
            None,
            true,
        ),
        (Term::Context { taken_from: none }, None, t("web"), false),
        (Term::Context { taken_from: taken }, None, t("src/x"), true),
        (Term::Baseline, t("2 entries"), None, true),
        (Term::Baseline, None, t("2 entries"), false),
        (Term::RequireContract, flag(true), flag(false), true),
        (Term::RequireContract, flag(true), None, true),
        (Term::RequireContract, None, flag(false), true),
        (Term::RequireContract, flag(false), flag(true), false),
        (Term::RequireContract, flag(false), None, false),
        (Term::Unreadable, None, t("x.md:1: bad"), true),
    ];
    for (term, from, to, expected) in cases {
        let got = loosens(&term, from.as_ref(), to.as_ref());
        assert_eq!(got, expected, "{term:?} {from:?} -> {to:?}");
    }
}

#[test]
fn a_header_edit_loosens_where_a_later_refresh_would_record_more() {
    use crate::terms::diff::RecordedKey;
    use TermValue::{Dirs, Number, Text};
    let n = |v| Some(Number(v));
    let limit = |tier: Option<&str>| {
        let tier = tier.map(str::to_string);
        Term::Recorded(RecordedKey::Limit {
            tier,
            metric: Metric::FunctionLines,
        })
    };
    let line = Term::Recorded(RecordedKey::Line);
    let pinned = Term::Recorded(RecordedKey::Written("pinned".to_string()));
    let recorded = [
        (limit(None), n(10), n(99), true),
        (limit(None), n(10), None, true),
        (limit(None), n(99), n(10), false),
        (limit(None), None, n(10), false),
        (limit(Some("docs")), n(40), None, true),
        (Term::Recorded(RecordedKey::Tolerance), n(0), n(20), true),
        (Term::Recorded(RecordedKey::Tolerance), n(20), None, false),
        (
            line.clone(),
            Some(Text("function_lines=10".into())),
            None,
            true,
        ),
        (line, None, Some(Text("function_lines=10".into())), false),
        (pinned, Some(Text("file_bytes".into())), None, false),
    ];
    for (term, from, to, expected) in recorded {
        let got = loosens(&term, from.as_ref(), to.as_ref());
        assert_eq!(got, expected, "{term:?} {from:?} -> {to:?}");
    }
    let dirs = |d: &[&str]| Some(Dirs(d.iter().map(|d| d.to_string()).collect()));
    let owned = |d: &[&str]| Term::RecordedOwned {
        owned: d.iter().map(|d| d.to_string()).collect(),
    };
    let cases = [
        // A directory the context owns, dropped from the header: newly owned again.
        (
            owned(&["lib", "src"]),
            dirs(&["lib", "src"]),
            dirs(&["src"]),
            true,
        ),
        (
            owned(&["lib", "src"]),
            dirs(&["src"]),
            dirs(&["lib", "src"]),
            false,
        ),
        // Dropped, but owned by no one: nothing to add.
        (
            owned(&["src"]),
            dirs(&["old", "src"]),
            dirs(&["src"]),
            false,
        ),
        // The root recorded, then only `src`: the context's `lib` is newly owned.
        (owned(&["lib", "src"]), dirs(&[""]), dirs(&["src"]), true),
        (owned(&["src"]), dirs(&[""]), dirs(&["src"]), false),
        // A part of an owned directory left out.
        (owned(&["src"]), dirs(&["src"]), dirs(&["src/a"]), true),
        // Without the line nothing is newly owned: removing it tightens, adding it
        // loosens only where it leaves an owned directory out.
        (owned(&["src"]), dirs(&["src"]), None, false),
        (owned(&["lib", "src"]), None, dirs(&["src"]), true),
        (owned(&["src"]), None, dirs(&["src"]), false),
        (owned(&["src"]), dirs(&["src"]), dirs(&[]), true),
    ];
    for (term, from, to, expected) in cases {
        let got = loosens(&term, from.as_ref(), to.as_ref());
        assert_eq!(got, expected, "{term:?} {from:?} -> {to:?}");
    }
}

#[test]
fn can_tighten_below_the_entry_or_within_the_band() {
    let l = limits(10, 20);
    let finding = |value, entry: Option<u64>| {
        let v = UnitValue {
            path: "a.rs".to_string(),
            unit: "f".to_string(),
            metric: Metric::FunctionLines,
            value,
            start_line: 1,
            end_line: 1,
            anonymous: false,
        };
        let key = EntryKey {
            path: v.path.clone(),
            unit: v.unit.clone(),
            metric: v.metric,
        };
        let baseline = Baseline {
            entries: entry.map(|e| (key, e)).into_iter().collect(),
            ..Baseline::default()
        };
        let own = Allowances {
            own: Some(&baseline),
            renamed_from: None,
            ..Allowances::default()
        };
        file(&l, &[v], &own).remove(0).verdict
    };
    assert!(can_tighten(&finding(15, Some(20))));
    assert!(can_tighten(&finding(11, Some(20))));
    assert!(can_tighten(&finding(5, Some(20))));
    assert!(!can_tighten(&finding(20, Some(20))));
    assert!(!can_tighten(&finding(25, Some(20))));
    assert!(!can_tighten(&finding(5, None)));
}

#[test]
fn a_pin_fails_any_growth_within_the_limit_and_tightens_only_below_it() {
    let mut l = Limits::default();
    l.values.insert(Metric::FileBytes, 40960);
    l.pinned.insert(Metric::FileBytes);
    let v = |value, pin| verdict(&l, Metric::FileBytes, value, pin).expect("limited");
    let grown = v(10320, Some(10010));
    assert_eq!((grown.status, grown.pin_growth()), (Status::Excess, true));
    assert_eq!(v(10010, Some(10010)).status, Status::Ok);
    assert_eq!(v(50000, Some(10010)).status, Status::Excess);
    assert!(
        !v(50000, Some(10010)).pin_growth(),
        "past the band: an excess"
    );
    assert_eq!(
        v(30000, None).status,
        Status::Ok,
        "no pin: judged by the band"
    );
    // Refresh keeps a pin within the band: only a smaller value tightens it.
    assert!(!can_tighten(&v(10010, Some(10010))));
    assert!(can_tighten(&v(9000, Some(10010))));
    l.pinned.clear();
    let unpinned = verdict(&l, Metric::FileBytes, 10010, Some(10010)).expect("limited");
    assert!(can_tighten(&unpinned), "unpinned: dropped");
}

#[test]
fn a_file_takes_its_first_matching_tier_and_a_new_file_the_new_file_cap() {
    let text = "## Limits\n\n```yaml\nfile_bytes: 40960\nnew_file_bytes: 32768\ntiers:\n  - name: xl\n    paths: [plan.md]\n    file_bytes: 98304\n  - name: all\n    paths: [\"*.md\"]\n    file_bytes: 61440\n    new_file_bytes: 50000\n```\n";
    let mut l = crate::limits::parse(text, "p.md").expect("limits").limits;
    l.workdir = "docs".to_string();
    let cap = |path: &str, new: bool| l.for_file(path, new).limit(Metric::FileBytes);
    assert_eq!(cap("docs/plan.md", false), Some(98304));
    assert_eq!(
        cap("docs/plan.md", true),
        Some(98304),
        "tiered: its file_bytes"
    );
    assert_eq!(cap("docs/other.md", false), Some(61440));
    assert_eq!(cap("docs/other.md", true), Some(50000));
    assert_eq!(
        cap("docs/sub/deep.md", false),
        Some(40960),
        "* stays in a segment"
    );
    assert_eq!(cap("docs/sub/deep.md", true), Some(32768));
    assert_eq!(cap("plan.md", false), Some(40960), "outside the workdir");
}

#[test]
fn a_renamed_file_carries_its_entries_to_the_new_path_and_its_name() {
    let key = |path: &str, unit: &str, metric| EntryKey {
        path: path.to_string(),
        unit: unit.to_string(),
        metric,
    };
    let mut baseline = Baseline::default();
    baseline
        .entries
        .insert(key("src/Big.cs", "Big.Old", Metric::FunctionLines), 40);
    baseline
        .entries
        .insert(key("src/Big.cs", "Big.cs", Metric::FileLines), 900);
    baseline
        .entries
        .insert(key("src/Moved.cs", "Big.Old", Metric::FunctionLines), 30);
    baseline
        .entries
        .insert(key("src/Kept.cs", "K.Run", Metric::FunctionLines), 20);
    let renames = [("src/Big.cs".to_string(), "src/Moved.cs".to_string())];
    let (carried, moved) = carried(&baseline, &renames);
    let entries: Vec<(EntryKey, u64)> = carried.entries.into_iter().collect();
    assert_eq!(
        entries,
        vec![
            (key("src/Kept.cs", "K.Run", Metric::FunctionLines), 20),
            (key("src/Moved.cs", "Big.Old", Metric::FunctionLines), 30),
            (key("src/Moved.cs", "Moved.cs", Metric::FileLines), 900),
        ]
    );
    assert_eq!(
        moved,
        vec![
            (
                key("src/Big.cs", "Big.Old", Metric::FunctionLines),
                key("src/Moved.cs", "Big.Old", Metric::FunctionLines)
            ),
            (
                key("src/Big.cs", "Big.cs", Metric::FileLines),
                key("src/Moved.cs", "Moved.cs", Metric::FileLines)
            ),
        ]
    );
}

#[test]
fn a_raised_pin_is_honoured_only_within_the_band_at_the_files_old_path_too() {
    let pinned = |file_bytes| {
        let mut l = Limits::default();
        l.values.insert(Metric::FileBytes, file_bytes);
        l.pinned.insert(Metric::FileBytes);
        l
    };
    let (new_path, old_path) = (pinned(600), pinned(400));
    let entry = |path: &str, value| {
        let key = EntryKey {
            path: path.to_string(),
            unit: "a.md".to_string(),
            metric: Metric::FileBytes,
        };
        Baseline {
            entries: [(key, value)].into(),
            ..Baseline::default()
        }
    };
    let (base, branch) = (entry("old/a.md", 300), entry("new/a.md", 500));
    let value = |v| UnitValue {
        path: "new/a.md".to_string(),
        unit: "a.md".to_string(),
        metric: Metric::FileBytes,
        value: v,
        start_line: 1,
        end_line: 1,
        anonymous: false,
    };
    let judged = |renamed_limits, v| {
        let allowances = Allowances {
            own: None,
            renamed_from: Some(("old/a.md", &base)),
            accepted: Some(&branch),
            renamed_limits,
            moved: None,
        };
        file(&new_path, &[value(v)], &allowances)[0].verdict
    };
    // Without the old path's limits, the new path's band (600) alone bounds the raise.
    let free = judged(None, 500);
    assert_eq!(
        (free.status, free.accepted.map(|g| g.to)),
        (Status::Ok, Some(500))
    );
    // The old path's band is 400: the raise to 500 is refused, the pin (300) holds.
    let bound = judged(Some(&old_path), 450);
    assert_eq!((bound.status, bound.accepted), (Status::Excess, None));
    assert_eq!(
        bound.growth_refused,
        Some(RefusedGrowth {
            to: 500,
            bound: 400
        })
    );
    assert!(bound.pin_growth());
}

/// A file's terms judge by its own entries alone where nothing else tolerates it, as the
/// whole baseline would; and whether an anonymous unit is judged is the whole baseline's
/// to say, for a file it names no entry of too.
#[test]
fn a_files_terms_judge_by_its_own_entries_and_the_whole_baselines_units_revision() {
    let entry = |path: &str, unit: &str| EntryKey {
        path: path.to_string(),
        unit: unit.to_string(),
        metric: Metric::FunctionLines,
    };
    let baseline = Baseline {
        units: None,
        entries: [(entry("a.rs", "f"), 90), (entry("b.rs", "g"), 95)].into(),
        ..Baseline::default()
    };
    let allowances = Allowances {
        own: Some(&baseline),
        ..Allowances::default()
    };
    let l = limits(50, 20);
    let a = FileTerms::new(&l, &allowances, "a.rs", false);
    let judged =
        |t: &FileTerms, path, unit, value| t.value(path, unit, Metric::FunctionLines, value);
    let f = judged(&a, "a.rs", "f", 80).expect("limited");
    assert_eq!((f.status, f.baseline), (Status::Tolerated, Some(90)));
    let g = judged(&a, "a.rs", "g", 80).expect("limited");
    assert_eq!((g.status, g.baseline), (Status::Excess, None));
    let mut anonymous = Unit::new("<anonymous>".to_string(), UnitKind::Function, 1, 80);
    anonymous.anonymous = true;
    let c = FileTerms::new(&l, &allowances, "c.rs", false);
    assert_eq!(
        c.unit_value("c.rs", &anonymous, Metric::FunctionLines, 80),
        None
    );
    let named = Unit::new("h".to_string(), UnitKind::Function, 1, 80);
    let h = c
        .unit_value("c.rs", &named, Metric::FunctionLines, 80)
        .expect("limited");
    assert_eq!(h.status, Status::Excess);
}

/// `measure` judges a file's units merged by name at their worse value: a file whose every
/// value is within its limit has no finding, and one unit past it among namesakes gives
/// the merged value, with that unit's lines, tolerated by the name's entry where it holds.
#[test]
fn a_files_past_values_are_its_namesakes_merged_at_the_worse_value() {
    let unit = |name: &str, start, end| Unit::new(name.to_string(), UnitKind::Function, start, end);
    let file = |units| FileMeasure {
        lines: 200,
        types: 0,
        bytes: 100,
        ..FileMeasure::rust_for_test("a.rs", units)
    };
    let entry = EntryKey {
        path: "a.rs".to_string(),
        unit: "g".to_string(),
        metric: Metric::FunctionLines,
    };
    let baseline = Baseline {
        units: Some(crate::baseline::UNITS_REVISION),
        entries: [(entry, 70)].into(),
        ..Baseline::default()
    };
    let allowances = Allowances {
        own: Some(&baseline),
        ..Allowances::default()
    };
    let l = limits(50, 20);
    let past = |units| {
        let found = file_past(&l, &file(units), &allowances);
        let shown = |f: &Finding| {
            let v = &f.verdict;
            (
                f.unit.clone(),
                v.value,
                v.status,
                f.lines.start,
                f.lines.end,
            )
        };
        found.iter().map(shown).collect::<Vec<_>>()
    };
    assert_eq!(
        past(vec![
            unit("f", 1, 50),
            unit("f", 60, 70),
            unit("g", 80, 129)
        ]),
        []
    );
    assert_eq!(
        past(vec![
            unit("f", 1, 50),
            unit("f", 60, 120),
            unit("g", 130, 199),
            unit("g", 1, 5)
        ]),
        [
            ("f".to_string(), 61, Status::Excess, 60, 120),
            ("g".to_string(), 70, Status::Tolerated, 130, 199),
        ]
    );
    // Every name its own: judged value by value, in the units' order.
    assert_eq!(
        past(vec![
            unit("g", 1, 71),
            unit("h", 80, 130),
            unit("f", 131, 140)
        ]),
        [
            ("g".to_string(), 71, Status::Excess, 1, 71),
            ("h".to_string(), 51, Status::Divergence, 80, 130),
        ]
    );
    // Past a dozen units names are told apart by a set: the last unit's namesake is the
    // first, merged where the first stands, with the last one's lines.
    let mut many: Vec<Unit> = (0..14)
        .map(|i| unit(&format!("u{i}"), i + 1, i + 1))
        .collect();
    many.push(unit("u0", 100, 160));
    many.push(unit("u13", 170, 225));
    assert_eq!(
        past(many),
        [
            ("u0".to_string(), 61, Status::Excess, 100, 160),
            ("u13".to_string(), 56, Status::Divergence, 170, 225),
        ]
    );
}
