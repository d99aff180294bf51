//! The metric registry: one row per metric, and the only list of metrics there is
//! (docs/dev/adding-a-metric.md). The Limits keys and their did-you-mean, the baseline,
//! `init`'s defaults, every writer of `measure` and the SARIF rules iterate it; the
//! reference tables (docs/src/reference/metrics.md, docs/src/reference/sarif.md) are
//! checked against it.

use std::cmp::Ordering;
use std::fmt;

use serde::{Serialize, Serializer};

use super::{FileMeasure, Language, UnitKind};

/// A limited quantity: the keys of the closed list in docs/src/reference/metrics.md
/// except the other keys (`tolerance_percent`, ...). Declared in the order of
/// [`METRICS`], the registry; metrics compare and sort by their keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    FunctionLines,
    FunctionParams,
    FunctionNesting,
    FunctionCyclomatic,
    FunctionCognitive,
    TypeLines,
    FileLines,
    TypesPerFile,
    FileBytes,
    LoadedBytes,
    ChainBytes,
}

/// What a metric limits: each unit of one kind, or each file of some languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every unit of this kind.
    Unit(UnitKind),
    /// Every file of a code language.
    CodeFile,
    /// Every measured file.
    EveryFile,
    /// Every Markdown document.
    Document,
}

/// Where a metric's value comes from.
#[derive(Clone, Copy)]
pub enum Source {
    /// A unit's lines, from its span.
    Lines,
    /// A value the measurer sets on every unit of the metric's kind
    /// ([`super::Unit::set_value`]).
    Stored,
    /// A value of the file; `None` where it was not measured (a document measured
    /// without a source to resolve its imports in).
    File(fn(&FileMeasure) -> Option<u64>),
}

/// One row of the registry.
pub struct MetricDef {
    pub metric: Metric,
    /// The Limits key, the baseline's metric column, the SARIF rule id.
    pub key: &'static str,
    pub scope: Scope,
    pub source: Source,
    /// What the metric limits: the `limits` column of docs/src/reference/metrics.md.
    pub description: &'static str,
    /// The value `init` writes in `principles.md` (docs/src/reference/metrics.md#what-structgate-init-writes);
    /// `None` where it writes none.
    pub init_default: Option<u64>,
    /// A unit metric's field in `measure`'s JSON (docs/src/reference/json.md#measure), and its
    /// label in text (`params 3`): [`Source::Lines`] metrics share `lines`, shown as `12 lines`.
    pub field: &'static str,
    /// The SARIF rule's short description (docs/src/reference/sarif.md).
    pub rule_short: &'static str,
    /// The SARIF rule's full description: what the metric limits and what to do past it.
    pub rule_full: &'static str,
    /// The SARIF rule's `properties.tags` (docs/src/reference/sarif.md): [`SIZE`] or
    /// [`COMPLEXITY`].
    pub tags: &'static [&'static str],
}

/// The SARIF tags of a metric that limits a size: lines, bytes, types.
pub const SIZE: &[&str] = &["maintainability", "size"];
/// The SARIF tags of a metric that limits a function's shape: its parameters, nesting
/// and complexity (docs/src/reference/metrics.md#shape-metrics).
pub const COMPLEXITY: &[&str] = &["maintainability", "complexity"];

/// The registry, in the order the reference lists the metrics: function units, type
/// units, code files, every file, Markdown documents. A unit's values, `init`'s defaults
/// and the reference table follow this order; the keys' own sorted order is
/// [`Metric::ALL`].
pub const METRICS: &[MetricDef] = &[
    MetricDef {
        metric: Metric::FunctionLines,
        key: "function_lines",
        scope: Scope::Unit(UnitKind::Function),
        source: Source::Lines,
        description: "lines of one function unit: a function, method, constructor, operator, \
                      property, indexer or local function, from its first line (attributes and \
                      decorators included) to its last",
        init_default: Some(55),
        field: "lines",
        rule_short: "A function past its line limit",
        rule_full: "function_lines limits the lines of one function, method, constructor, \
                    operator, property, indexer or local function, from its first line \
                    (attributes included) to its last. Extract smaller functions.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::FunctionParams,
        key: "function_params",
        scope: Scope::Unit(UnitKind::Function),
        source: Source::Stored,
        description: "parameters of one function unit, a receiver (`self`, `this`, a Go \
                      receiver, a Python method's first parameter) not counted",
        init_default: Some(6),
        field: "params",
        rule_short: "A function with too many parameters",
        rule_full: "function_params limits the parameters of one function, a receiver not \
                    counted. Group parameters that travel together into a type, or split \
                    the function.",
        tags: COMPLEXITY,
    },
    MetricDef {
        metric: Metric::FunctionNesting,
        key: "function_nesting",
        scope: Scope::Unit(UnitKind::Function),
        source: Source::Stored,
        description: "the deepest nesting of control structures (`if`, switch, loop, `try`) \
                      in one function unit's own code",
        init_default: Some(4),
        field: "nesting",
        rule_short: "A function nesting control structures too deep",
        rule_full: "function_nesting limits how deep if, switch, loop and try structures \
                    nest in one function's own code. Return early, or extract the inner \
                    blocks into functions.",
        tags: COMPLEXITY,
    },
    MetricDef {
        metric: Metric::FunctionCyclomatic,
        key: "function_cyclomatic",
        scope: Scope::Unit(UnitKind::Function),
        source: Source::Stored,
        description: "McCabe cyclomatic complexity of one function unit's own code: 1 plus \
                      each decision",
        init_default: Some(15),
        field: "cyclomatic",
        rule_short: "A function with too many decisions",
        rule_full: "function_cyclomatic limits the McCabe cyclomatic complexity of one \
                    function's own code: 1 plus each if, loop, case, catch, conditional \
                    expression and short-circuit operator. Split the function's decisions \
                    into smaller functions.",
        tags: COMPLEXITY,
    },
    MetricDef {
        metric: Metric::FunctionCognitive,
        key: "function_cognitive",
        scope: Scope::Unit(UnitKind::Function),
        source: Source::Stored,
        description: "cognitive complexity (SonarSource's definition) of one function unit's \
                      own code",
        init_default: Some(15),
        field: "cognitive",
        rule_short: "A function too hard to follow",
        rule_full: "function_cognitive limits the cognitive complexity (SonarSource's \
                    definition) of one function's own code: each break in its linear flow \
                    counts, more when nested. Flatten nested structures, return early, and \
                    extract parts into well-named functions.",
        tags: COMPLEXITY,
    },
    MetricDef {
        metric: Metric::TypeLines,
        key: "type_lines",
        scope: Scope::Unit(UnitKind::Type),
        source: Source::Lines,
        description: "lines of one type unit: a class, struct, interface, record, enum, union, \
                      trait or Rust `impl` block",
        init_default: Some(400),
        field: "lines",
        rule_short: "A type past its line limit",
        rule_full: "type_lines limits the lines of one class, struct, interface, record, enum, \
                    union, trait or Rust impl block. Split the type or move behaviour out of it.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::FileLines,
        key: "file_lines",
        scope: Scope::CodeFile,
        source: Source::File(|m| Some(m.lines)),
        description: "lines of one file",
        init_default: Some(1000),
        field: "lines",
        rule_short: "A file past its line limit",
        rule_full: "file_lines limits the lines of one file. Split the file by responsibility.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::TypesPerFile,
        key: "types_per_file",
        scope: Scope::CodeFile,
        source: Source::File(|m| Some(m.types)),
        description: "how many types one file declares, nested ones included, Rust `impl` \
                      blocks not",
        init_default: Some(10),
        field: "types",
        rule_short: "A file declaring too many types",
        rule_full: "types_per_file limits how many types one file declares, nested ones \
                    included, impl blocks not. Move types to files of their own.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::FileBytes,
        key: "file_bytes",
        scope: Scope::EveryFile,
        source: Source::File(|m| Some(m.bytes)),
        description: "bytes of one file, LF-normalised (a BOM removed, CRLF counted as one byte)",
        init_default: None,
        field: "bytes",
        rule_short: "A file past its byte budget",
        rule_full: "file_bytes limits the bytes of one file, LF-normalised (a BOM removed, \
                    CRLF counted as one byte). Move prose or code out of the file.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::LoadedBytes,
        key: "loaded_bytes",
        scope: Scope::Document,
        source: Source::File(|m| m.loaded.as_ref().map(|l| l.bytes)),
        description: "bytes a document loads: its own plus every file it imports eagerly with \
                      `@PATH`",
        init_default: None,
        field: "loaded_bytes",
        rule_short: "A Markdown document loading past its byte budget",
        rule_full: "loaded_bytes limits the bytes a Markdown document loads: its own plus \
                    every file it imports eagerly with @path, up to 5 hops. Put detail behind \
                    a link that is read only when needed instead of an eager import.",
        tags: SIZE,
    },
    MetricDef {
        metric: Metric::ChainBytes,
        key: "chain_bytes",
        scope: Scope::Document,
        source: Source::File(|m| m.chain.as_ref().map(|c| c.bytes)),
        description: "bytes a worker in a document's directory loads: the document and every \
                      same-name document in each directory above it, with their eager \
                      imports, each distinct file once",
        init_default: None,
        field: "chain_bytes",
        rule_short: "A chain of same-name documents loading past its byte budget",
        rule_full: "chain_bytes limits the bytes a worker in a Markdown document's directory \
                    loads: the document and every document of the same name in each directory \
                    above it, with their eager imports, each distinct file once. Move prose \
                    out of the documents higher up the chain, or behind a link read only when \
                    needed.",
        tags: SIZE,
    },
];

/// How many metrics there are.
pub const COUNT: usize = METRICS.len();

// Each row stands at its metric's place in the enum ([`Metric::def`] indexes by it), and
// only unit metrics take their value from a unit.
const _: () = {
    let mut i = 0;
    while i < COUNT {
        let row = &METRICS[i];
        assert!(
            row.metric as usize == i,
            "METRICS rows follow Metric's order"
        );
        let unit = matches!(row.scope, Scope::Unit(_));
        let from_unit = matches!(row.source, Source::Lines | Source::Stored);
        assert!(
            unit == from_unit,
            "unit metrics, and only they, come from units"
        );
        i += 1;
    }
};

/// Whether `a` sorts before `b`, byte by byte.
const fn key_before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// The registry's metrics sorted by key.
const fn sorted_by_key() -> [Metric; COUNT] {
    let mut out = [Metric::FunctionLines; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = METRICS[i].metric;
        let mut j = i;
        while j > 0
            && key_before(
                METRICS[out[j] as usize].key,
                METRICS[out[j - 1] as usize].key,
            )
        {
            let moved = out[j];
            out[j] = out[j - 1];
            out[j - 1] = moved;
            j -= 1;
        }
        i += 1;
    }
    out
}

/// For each [`Source::Stored`] metric (by its place in the enum), its slot among the
/// stored values of its unit kind; every other metric's is unused.
const fn stored_slots() -> [usize; COUNT] {
    let mut out = [0; COUNT];
    let mut i = 0;
    while i < COUNT {
        if let (Source::Stored, Scope::Unit(kind)) = (METRICS[i].source, METRICS[i].scope) {
            let mut before = 0;
            let mut j = 0;
            while j < i {
                if let (Source::Stored, Scope::Unit(other)) = (METRICS[j].source, METRICS[j].scope)
                {
                    before += (other as usize == kind as usize) as usize;
                }
                j += 1;
            }
            out[i] = before;
        }
        i += 1;
    }
    out
}

const SLOTS: [usize; COUNT] = stored_slots();

/// The most values the measurer stores on a unit of one kind: the size of
/// [`super::Unit`]'s fixed array of them.
pub const STORED_MAX: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < COUNT {
        if let Source::Stored = METRICS[i].source {
            if SLOTS[i] + 1 > max {
                max = SLOTS[i] + 1;
            }
        }
        i += 1;
    }
    max
};

impl Metric {
    /// Every metric, sorted by key: the order of the SARIF rules, the baseline and the
    /// lists of keys.
    pub const ALL: [Metric; COUNT] = sorted_by_key();

    /// The metric's row of the registry.
    pub fn def(self) -> &'static MetricDef {
        &METRICS[self as usize]
    }

    pub fn key(self) -> &'static str {
        self.def().key
    }

    pub fn scope(self) -> Scope {
        self.def().scope
    }

    /// True for the metrics of the file itself, whose unit is named by the file's name.
    pub fn is_file_level(self) -> bool {
        !matches!(self.scope(), Scope::Unit(_))
    }

    /// Whether the metric applies to files of `language`: `file_bytes` to every file,
    /// `loaded_bytes` and `chain_bytes` to Markdown only, the unit, line and type metrics
    /// to code only (docs/src/reference/documents.md, docs/src/reference/documents.md#chains).
    pub fn applies_to(self, language: Language) -> bool {
        match self.scope() {
            Scope::EveryFile => true,
            Scope::Document => language == Language::Markdown,
            Scope::Unit(_) | Scope::CodeFile => language != Language::Markdown,
        }
    }

    /// The slot of a [`Source::Stored`] metric among its unit kind's stored values.
    pub(super) fn slot(self) -> usize {
        SLOTS[self as usize]
    }

    pub fn from_key(key: &str) -> Option<Metric> {
        METRICS
            .iter()
            .find(|row| row.key == key)
            .map(|row| row.metric)
    }
}

impl Scope {
    /// The `applies to` column of docs/src/reference/metrics.md.
    pub fn reference_text(self) -> &'static str {
        match self {
            Scope::Unit(_) | Scope::CodeFile => "code",
            Scope::EveryFile => "every measured file",
            Scope::Document => "Markdown",
        }
    }
}

impl PartialOrd for Metric {
    fn partial_cmp(&self, other: &Metric) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Metric {
    /// By key, as every list of metrics is sorted.
    fn cmp(&self, other: &Metric) -> Ordering {
        RANK[*self as usize].cmp(&RANK[*other as usize])
    }
}

/// Each metric's place (by its place in the enum) in [`Metric::ALL`].
const RANK: [usize; COUNT] = {
    let mut out = [0; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[Metric::ALL[i] as usize] = i;
        i += 1;
    }
    out
};

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The Limits key of the band above every limit (docs/src/reference/limits.md#the-band).
pub const TOLERANCE_KEY: &str = "tolerance_percent";

/// The Limits `init` writes, in the registry's order: each metric's default, then
/// `tolerance_percent: 25` (docs/src/reference/metrics.md#what-structgate-init-writes).
pub fn init_defaults() -> impl Iterator<Item = (&'static str, u64)> {
    let defaults = METRICS
        .iter()
        .filter_map(|row| Some((row.key, row.init_default?)));
    defaults.chain([(TOLERANCE_KEY, 25)])
}

/// The metrics of units of `kind`, in the registry's order.
pub fn of_unit_kind(kind: UnitKind) -> impl Iterator<Item = &'static MetricDef> {
    METRICS
        .iter()
        .filter(move |row| row.scope == Scope::Unit(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_listed_once_sorted_by_key_and_found_by_it() {
        let keys: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
        assert_eq!(
            keys,
            [
                "chain_bytes",
                "file_bytes",
                "file_lines",
                "function_cognitive",
                "function_cyclomatic",
                "function_lines",
                "function_nesting",
                "function_params",
                "loaded_bytes",
                "type_lines",
                "types_per_file"
            ]
        );
        let mut sorted = Metric::ALL.to_vec();
        sorted.sort();
        assert_eq!(sorted, Metric::ALL);
        for row in METRICS {
            assert_eq!(Metric::from_key(row.key), Some(row.metric));
            assert_eq!(row.metric.def().key, row.key);
        }
        assert_eq!(Metric::from_key("function_line"), None);
    }

    #[test]
    fn init_writes_the_registrys_defaults_in_its_order_then_the_tolerance() {
        let defaults: Vec<(&str, u64)> = init_defaults().collect();
        assert_eq!(
            defaults,
            [
                ("function_lines", 55),
                ("function_params", 6),
                ("function_nesting", 4),
                ("function_cyclomatic", 15),
                ("function_cognitive", 15),
                ("type_lines", 400),
                ("file_lines", 1000),
                ("types_per_file", 10),
                ("tolerance_percent", 25)
            ]
        );
    }

    #[test]
    fn a_metric_applies_to_the_files_of_its_scope() {
        use Language::{Markdown, Rust};
        let applies = |m: Metric| {
            (
                m.applies_to(Rust),
                m.applies_to(Markdown),
                m.is_file_level(),
            )
        };
        assert_eq!(applies(Metric::FunctionLines), (true, false, false));
        assert_eq!(applies(Metric::TypeLines), (true, false, false));
        assert_eq!(applies(Metric::FileLines), (true, false, true));
        assert_eq!(applies(Metric::FileBytes), (true, true, true));
        assert_eq!(applies(Metric::ChainBytes), (false, true, true));
    }
}
