//! Shared data of the pipeline: what the measurer produces and what every later stage
//! (baseline, judge, report) consumes. No behaviour beyond small conversions lives here.

use serde::{Deserialize, Serialize};

pub use crate::reason::{LeftOutReason, SkipReason, NAME_BUDGET_BYTES};
pub use metric::{Metric, MetricDef, Scope, Source, METRICS};

mod merge;
pub mod metric;
mod name;

pub use name::Name;

/// Makes [`Language`] and [`Language::ALL`] of the list in src/lang/languages.rs; what
/// each language is — its name, extensions, grammar and rules — is its record
/// (`Language::record`, src/lang).
macro_rules! languages {
    ($($variant:ident => $module:ident,)*) => {
        /// A measured language, chosen by file extension (docs/src/reference/measurement.md,
        /// docs/src/reference/languages.md, docs/src/reference/documents.md). Markdown
        /// documents are measured for `file_bytes`, `loaded_bytes` and `chain_bytes` only.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum Language {
            $($variant,)*
        }

        impl Language {
            /// Every language, in the order `--help`, the package description and the docs
            /// name them: the code languages, then Markdown.
            pub const ALL: [Language; [$(stringify!($variant)),*].len()] =
                [$(Language::$variant),*];
        }
    };
}

include!("lang/languages.rs");

/// Whether a unit is a function-like or a type-like declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitKind {
    Function,
    Type,
}

impl UnitKind {
    pub fn key(self) -> &'static str {
        match self {
            UnitKind::Function => "function",
            UnitKind::Type => "type",
        }
    }
}

/// One declaration found in a file: a function-like or type-like unit (docs/src/reference/measurement.md),
/// with a value for each metric of its kind ([`Unit::values`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// The unit key: `PriceRules.Calculate`, `<Parser as Iterator>::next`, ...
    pub name: Name,
    pub kind: UnitKind,
    /// 1-based, inclusive.
    pub start_line: u32,
    /// 1-based, inclusive.
    pub end_line: u32,
    /// An anonymous function unit (docs/src/reference/measurement.md#anonymous-functions):
    /// a baseline that predates them doesn't judge it.
    #[serde(default)]
    pub anonymous: bool,
    /// The values of the kind's [`Source::Stored`] metrics, by slot; lines come from the
    /// span. A fixed array: no allocation per unit.
    stored: [u32; metric::STORED_MAX],
}

impl Unit {
    /// A unit spanning `start_line..=end_line`, its stored values 0 until set.
    pub fn new(name: String, kind: UnitKind, start_line: u32, end_line: u32) -> Unit {
        Unit {
            name: Name::from(name),
            kind,
            start_line,
            end_line,
            anonymous: false,
            stored: [0; metric::STORED_MAX],
        }
    }

    pub fn lines(&self) -> u64 {
        u64::from(self.end_line - self.start_line + 1)
    }

    /// The unit's value of `metric`; `None` where the metric doesn't apply to its kind.
    pub fn value(&self, metric: Metric) -> Option<u64> {
        let row = metric.def();
        if row.scope != Scope::Unit(self.kind) {
            return None;
        }
        match row.source {
            Source::Lines => Some(self.lines()),
            Source::Stored => Some(u64::from(self.stored[metric.slot()])),
            Source::File(_) => None,
        }
    }

    /// The unit's values, one per metric of its kind, in the registry's order.
    pub fn values(&self) -> impl Iterator<Item = (Metric, u64)> + '_ {
        metric::of_unit_kind(self.kind)
            .filter_map(|row| Some((row.metric, self.value(row.metric)?)))
    }

    /// Sets the unit's value of a [`Source::Stored`] metric of its kind (saturating at
    /// `u32::MAX`); a metric that isn't one is a caller's mistake, ignored.
    pub fn set_value(&mut self, metric: Metric, value: u64) {
        let row = metric.def();
        let stored = matches!(row.source, Source::Stored) && row.scope == Scope::Unit(self.kind);
        debug_assert!(
            stored,
            "{metric} is not a value stored on a {} unit",
            self.kind.key()
        );
        if stored {
            self.stored[metric.slot()] = u32::try_from(value).unwrap_or(u32::MAX);
        }
    }
}

/// The measurement of one file that was measured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMeasure {
    /// Repository-relative path with `/`.
    pub path: String,
    pub language: Language,
    /// The file's lines (docs/src/reference/measurement.md), less the lines of `#[cfg(test)]` items in Rust.
    pub lines: u64,
    /// How many type declarations the file holds, nested ones included, impls not.
    pub types: u64,
    /// Units sorted by start line (then end line descending, then name); the cache keeps
    /// their names as one text ([`name::units`]).
    #[serde(with = "name::units")]
    pub units: Vec<Unit>,
    /// Non-fatal problems, e.g. a preprocessor directive inside a block comment.
    pub warnings: Vec<String>,
    /// `syntax errors at lines 12, 40; measured what parsed`: told apart from the other
    /// warnings, since every command sums these up in one line unless `-v`.
    #[serde(default)]
    pub syntax_errors: Option<String>,
    /// The file's LF-normalised bytes: BOM removed, `\r\n` counted as one (docs/src/reference/documents.md).
    pub bytes: u64,
    /// What a Markdown file loads through its eager imports; `None` for code, and for a
    /// document measured without a source to resolve its imports in.
    pub loaded: Option<Loaded>,
    /// What a worker in a Markdown document's directory loads: the document's chain of
    /// same-name documents up to the root (docs/src/reference/documents.md#chains); `None` where `loaded` is.
    pub chain: Option<Chain>,
    /// The first line, inside a C# block comment, that begins with a preprocessor
    /// directive (`#endif`): the compiler may read code around it that the grammar reads
    /// as comment, so the gate fails such a file where its base had none (docs/src/reference/gate.md#integrity).
    pub directive_in_comment: Option<u32>,
    /// The first line holding a Java Unicode escape, outside string and character
    /// literals, that decodes to a comment or literal delimiter (`\u002a`, `\u000a`, ...):
    /// javac reads code around it that the grammar may read as comment, so the gate fails
    /// such a file where its base had none (docs/src/reference/gate.md#integrity).
    #[serde(default)]
    pub unicode_escape: Option<u32>,
}

/// What a Markdown document loads: itself and every file it imports eagerly (docs/src/reference/documents.md).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Loaded {
    /// `loaded_bytes`: the document's bytes plus those of every distinct file reached.
    pub bytes: u64,
    /// Every distinct file counted other than the document, repository-relative, sorted.
    pub imports: Vec<String>,
    /// The symbolic links passed through on the way to them, sorted: the gate re-judges
    /// the document when one changes (docs/src/reference/documents.md#links).
    #[serde(default)]
    pub links: Vec<String>,
}

/// A Markdown document's chain (docs/src/reference/documents.md#chains): it and every document of the same file name
/// (ASCII case-insensitive) in each directory above it, with all their imports.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Chain {
    /// `chain_bytes`: the bytes of every distinct file of the chain and their imports.
    pub bytes: u64,
    /// The other documents of the chain, repository-relative, root first.
    pub documents: Vec<String>,
    /// Every distinct file counted other than the document (the other documents and every
    /// file the chain imports), and the symbolic links passed through on the way to them,
    /// sorted: what the gate re-judges the document for.
    pub files: Vec<String>,
}

/// One value to judge: a unit (or the file itself) and one of its metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitValue {
    pub path: String,
    pub unit: String,
    pub metric: Metric,
    pub value: u64,
    pub start_line: u32,
    pub end_line: u32,
    /// Every unit of the name is an anonymous function
    /// (docs/src/reference/measurement.md#anonymous-functions).
    pub anonymous: bool,
}

impl UnitValue {
    pub fn as_ref(&self) -> ValueRef<'_> {
        ValueRef {
            path: &self.path,
            unit: &self.unit,
            metric: self.metric,
            value: self.value,
            start_line: self.start_line,
            end_line: self.end_line,
            anonymous: self.anonymous,
        }
    }
}

/// A [`UnitValue`] borrowed from the file it was measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueRef<'a> {
    pub path: &'a str,
    pub unit: &'a str,
    pub metric: Metric,
    pub value: u64,
    pub start_line: u32,
    pub end_line: u32,
    pub anonymous: bool,
}

impl<'a> ValueRef<'a> {
    /// The value of `metric` of `unit`, measured in the file at `path`.
    fn of(path: &'a str, unit: &'a Unit, metric: Metric, value: u64) -> Self {
        ValueRef {
            path,
            unit: unit.name.as_str(),
            metric,
            value,
            start_line: unit.start_line,
            end_line: unit.end_line,
            anonymous: unit.anonymous,
        }
    }

    pub fn to_owned(&self) -> UnitValue {
        UnitValue {
            path: self.path.to_string(),
            unit: self.unit.to_string(),
            metric: self.metric,
            value: self.value,
            start_line: self.start_line,
            end_line: self.end_line,
            anonymous: self.anonymous,
        }
    }
}

impl FileMeasure {
    /// A Rust file of these units and nothing else, for tests to build on.
    #[cfg(test)]
    pub(crate) fn rust_for_test(path: &str, units: Vec<Unit>) -> FileMeasure {
        FileMeasure {
            path: path.to_string(),
            language: Language::Rust,
            lines: 0,
            types: 0,
            units,
            warnings: Vec::new(),
            syntax_errors: None,
            bytes: 0,
            loaded: None,
            chain: None,
            directive_in_comment: None,
            unicode_escape: None,
        }
    }

    /// The file's name, which names its file-level units (docs/src/reference/measurement.md).
    pub fn file_name(&self) -> &str {
        crate::relpath::file_name(&self.path)
    }

    /// The file-level values that apply to this file's language, in the keys' order
    /// ([`Metric::ALL`]): `file_lines`, `types_per_file` and `file_bytes` for code;
    /// `file_bytes` and (once its imports are resolved) `chain_bytes` and `loaded_bytes`
    /// for Markdown.
    pub fn file_values(&self) -> Vec<(Metric, u64)> {
        let value = |metric: Metric| match metric.def().source {
            Source::File(value) if metric.applies_to(self.language) => value(self),
            _ => None,
        };
        let values = Metric::ALL.into_iter().map(|m| Some((m, value(m)?)));
        values.flatten().collect()
    }

    /// Every value of this file keyed for judging: the file-level values of
    /// [`FileMeasure::file_values`], then one per unit and metric of its kind. Units of one
    /// file with the same name are merged, metric by metric, into one at the worse (larger)
    /// value, keeping the lines of the unit whose value it is.
    pub fn values(&self) -> Vec<UnitValue> {
        self.value_refs().iter().map(ValueRef::to_owned).collect()
    }

    /// [`FileMeasure::values`], borrowed from the file: nothing is copied.
    pub fn value_refs(&self) -> Vec<ValueRef<'_>> {
        let count: usize = self.units.iter().map(|u| u.values().count()).sum();
        let mut out: Vec<ValueRef<'_>> = Vec::with_capacity(count + 4);
        out.extend(self.file_value_refs());
        merge::push_values(&self.path, &self.units, count, &mut out);
        out
    }

    /// What `keep` keeps of [`FileMeasure::value_refs`], in its order, without collecting
    /// the values themselves: those of a name of its own (most) handed over as they come,
    /// only namesakes' merged first.
    pub fn kept_values<'a, T>(&'a self, mut keep: impl FnMut(ValueRef<'a>) -> Option<T>) -> Vec<T> {
        let mut out: Vec<T> = self.file_value_refs().filter_map(&mut keep).collect();
        merge::keep_values(&self.path, &self.units, &mut keep, &mut out);
        out
    }

    /// The file-level values ([`FileMeasure::file_values`]) keyed by the file's name,
    /// spanning the whole file.
    fn file_value_refs(&self) -> impl Iterator<Item = ValueRef<'_>> {
        let last = u32::try_from(self.lines).unwrap_or(u32::MAX).max(1);
        let name = self.file_name();
        self.file_values()
            .into_iter()
            .map(move |(metric, value)| ValueRef {
                path: &self.path,
                unit: name,
                metric,
                value,
                start_line: 1,
                end_line: last,
                anonymous: false,
            })
    }
}

/// What became of one file handed to the measurer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileOutcome {
    Measured(FileMeasure),
    Skipped { path: String, reason: SkipReason },
    LeftOut { path: String, reason: LeftOutReason },
}

impl FileOutcome {
    pub fn path(&self) -> &str {
        match self {
            FileOutcome::Measured(m) => &m.path,
            FileOutcome::Skipped { path, .. } | FileOutcome::LeftOut { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(name: &str, start_line: u32, end_line: u32) -> Unit {
        Unit::new(name.to_string(), UnitKind::Function, start_line, end_line)
    }

    #[test]
    fn a_unit_has_a_value_for_each_metric_of_its_kind_and_none_other() {
        let f = function("run", 3, 14);
        assert_eq!(f.value(Metric::FunctionLines), Some(12));
        assert_eq!(f.value(Metric::TypeLines), None);
        assert_eq!(f.value(Metric::FileLines), None);
        let of_kind: Vec<Metric> = metric::of_unit_kind(UnitKind::Function)
            .map(|row| row.metric)
            .collect();
        let values: Vec<Metric> = f.values().map(|(m, _)| m).collect();
        assert_eq!(values, of_kind);
        assert_eq!(f.values().next(), Some((Metric::FunctionLines, 12)));
        let t = Unit::new("Shop".to_string(), UnitKind::Type, 1, 40);
        assert_eq!(t.values().collect::<Vec<_>>(), [(Metric::TypeLines, 40)]);
    }

    /// Same-name units merge metric by metric: each metric's worse value wins with the
    /// lines of its own unit, whichever unit that is. Two metrics of one unit are fed here
    /// by hand, as a unit of a kind with several metrics gives them.
    #[test]
    fn same_name_units_merge_at_the_worse_value_of_each_metric_with_its_units_lines() {
        let (a, b, c) = (
            function("A", 1, 10),
            function("A", 20, 25),
            function("B", 30, 31),
        );
        let (first, second) = (Metric::FunctionLines, Metric::TypeLines);
        let values = [
            (&a, first, 10),
            (&a, second, 3),
            (&b, first, 6),
            (&b, second, 7),
            (&c, first, 2),
            (&b, first, 10),
        ];
        let mut out = Vec::new();
        merge::merge_units("x.rs", values.into_iter(), (6, |_: &str| true), &mut out);
        let shown: Vec<(&str, Metric, u64, u32, u32)> = out
            .iter()
            .map(|v| (v.unit, v.metric, v.value, v.start_line, v.end_line))
            .collect();
        assert_eq!(
            shown,
            [
                // 10 from `a` (1-10): `b`'s later 10 is no worse.
                ("A", first, 10, 1, 10),
                // 7 from `b` (20-25) beats `a`'s 3.
                ("A", second, 7, 20, 25),
                ("B", first, 2, 30, 31),
            ]
        );
    }

    /// What a file keeps of its values is what it would keep of them collected and merged,
    /// in the same order: names of their own, names shared in a small file (told apart
    /// pairwise) and in a large one (by a set).
    #[test]
    fn a_file_keeps_of_its_values_what_it_would_keep_of_them_collected() {
        let mut m = FileMeasure {
            lines: 300,
            types: 0,
            bytes: 90,
            ..FileMeasure::rust_for_test(
                "src/b.rs",
                vec![function("f", 1, 10), function("g", 11, 30)],
            )
        };
        let shown = |values: Vec<ValueRef>| -> Vec<String> {
            let shown = values.iter().map(|v| {
                format!(
                    "{} {} {} {}-{} {}",
                    v.unit, v.metric, v.value, v.start_line, v.end_line, v.anonymous
                )
            });
            shown.collect()
        };
        let long = |v: &ValueRef| v.metric == Metric::FunctionLines && v.value > 5;
        let check = |m: &FileMeasure| {
            assert_eq!(shown(m.kept_values(Some)), shown(m.value_refs()));
            let kept = m.kept_values(|v| long(&v).then_some(v));
            let collected = m.value_refs().into_iter().filter(long).collect();
            assert_eq!(shown(kept), shown(collected));
        };
        check(&m);
        assert_eq!(
            shown(m.kept_values(|v| long(&v).then_some(v))),
            [
                "f function_lines 10 1-10 false",
                "g function_lines 20 11-30 false"
            ]
        );
        m.units.push(function("f", 31, 31));
        m.units[1].anonymous = true;
        m.units.push(function("g", 40, 70));
        check(&m);
        assert_eq!(
            shown(m.kept_values(|v| long(&v).then_some(v))),
            [
                "f function_lines 10 1-10 false",
                "g function_lines 31 40-70 false"
            ]
        );
        m.units = (0..13)
            .map(|i| function(&format!("u{i}"), i + 1, i + 1))
            .collect();
        check(&m);
        m.units.push(function("u12", 20, 29));
        m.units.push(function("u1", 30, 39));
        check(&m);
        assert_eq!(
            shown(m.kept_values(|v| long(&v).then_some(v))),
            [
                "u1 function_lines 10 30-39 false",
                "u12 function_lines 10 20-29 false"
            ]
        );
    }

    #[test]
    fn a_file_values_each_unit_once_per_name_after_its_own_values() {
        let m = FileMeasure {
            lines: 40,
            types: 1,
            bytes: 300,
            ..FileMeasure::rust_for_test(
                "src/a.rs",
                vec![
                    Unit::new("S".to_string(), UnitKind::Type, 1, 5),
                    function("S", 7, 9),
                    function("f", 10, 20),
                    function("g", 21, 21),
                    function("f", 22, 40),
                ],
            )
        };
        let shown: Vec<String> = m
            .value_refs()
            .iter()
            .map(|v| {
                format!(
                    "{} {} {} {}-{}",
                    v.unit, v.metric, v.value, v.start_line, v.end_line
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "a.rs file_bytes 300 1-40",
                "a.rs file_lines 40 1-40",
                "a.rs types_per_file 1 1-40",
                "S type_lines 5 1-5",
                "S function_lines 3 7-9",
                "S function_params 0 7-9",
                "S function_nesting 0 7-9",
                "S function_cyclomatic 0 7-9",
                "S function_cognitive 0 7-9",
                "f function_lines 19 22-40",
                "f function_params 0 10-20",
                "f function_nesting 0 10-20",
                "f function_cyclomatic 0 10-20",
                "f function_cognitive 0 10-20",
                // A name of its own among shared ones stands where it comes.
                "g function_lines 1 21-21",
                "g function_params 0 21-21",
                "g function_nesting 0 21-21",
                "g function_cyclomatic 0 21-21",
                "g function_cognitive 0 21-21",
            ]
        );
    }
}
