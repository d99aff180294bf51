//! `measure` output: text (one line per unit), JSON (docs/src/reference/json.md#measure) and TSV.

use std::borrow::Cow;
use std::io;

use crate::commands::measure::{Judging, MeasureReport, MeasuredFile, UnitVerdict};
use crate::judge::{Finding, Mark, Status, Verdict};
use crate::model::{FileMeasure, Language, Source, Unit};
use crate::reason::FileReason;
use crate::report::style::{Paint, Role};
use crate::report::{count, status_text};

mod kept;
mod stream;

pub use kept::Kept;
pub use stream::{json, tsv, Format, Stream};

/// One line of text output, borrowed from the report.
struct Row<'a> {
    path: &'a str,
    line: u32,
    kind: &'a str,
    name: &'a str,
    size: Size<'a>,
    status: Option<Cow<'static, str>>,
    /// Past a limit: a divergence, tolerated or an excess (what `--over` lists).
    over: bool,
}

/// A unit's values (`12 lines`, then `params 3` and the like); the file's sizes for a
/// file (see [`file_size`]).
enum Size<'a> {
    Unit(&'a Unit),
    File(&'a FileMeasure),
}

impl Size<'_> {
    /// Appends the size to `out`, returning how many characters it took (all ASCII).
    fn push_to(&self, out: &mut Vec<u8>) -> usize {
        let before = out.len();
        match self {
            Size::Unit(unit) => push_unit_size(out, unit),
            Size::File(m) => out.extend_from_slice(file_size(m).as_bytes()),
        }
        out.len() - before
    }
}

/// Appends a unit's values in the registry's order, two spaces apart: its lines as
/// `12 lines`, every other value after its label (`params 3`).
fn push_unit_size(out: &mut Vec<u8>, unit: &Unit) {
    for (i, (metric, value)) in unit.values().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"  ");
        }
        let row = metric.def();
        if let Source::Lines = row.source {
            push_number(out, value);
            out.extend_from_slice(if value == 1 { b" line" } else { b" lines" });
        } else {
            out.extend_from_slice(row.field.as_bytes());
            out.push(b' ');
            push_number(out, value);
        }
    }
}

/// The status words of a verdict, coloured by what they mean.
fn painted_status(f: &Verdict, paint: Paint) -> Cow<'static, str> {
    let role = match f.status {
        Status::Ok => return Cow::Borrowed("ok"),
        Status::Divergence => Role::Warn,
        Status::Tolerated => Role::Quiet,
        Status::Excess => Role::Bad,
    };
    Cow::Owned(paint.paint(role, &status_text(f)))
}

/// The file line's status: `ok`, or what is past its limit; `None` where unlimited.
fn file_word(file: &MeasuredFile, verdicts: &[Verdict], paint: Paint) -> Option<Cow<'static, str>> {
    if !file.limited {
        return None;
    }
    Some(status_words(verdicts.iter(), true, paint))
}

/// `ok`, or each verdict past its limit, `; ` apart: an excess names its metric, and so
/// does the rest where `several` metrics were judged (`type_lines divergence (...)`).
fn status_words<'a>(
    verdicts: impl Iterator<Item = &'a Verdict>,
    several: bool,
    paint: Paint,
) -> Cow<'static, str> {
    let notes: Vec<String> = verdicts
        .filter(|f| f.status != Status::Ok)
        .map(|f| match f.status {
            Status::Excess => painted_status(f, paint).into_owned(),
            _ if several => format!("{} {}", f.metric, painted_status(f, paint)),
            _ => painted_status(f, paint).into_owned(),
        })
        .collect();
    if notes.is_empty() {
        Cow::Borrowed("ok")
    } else {
        Cow::Owned(notes.join("; "))
    }
}

/// The file's own row. Judging marked it ([`MeasuredFile::marks`]): it is judged again
/// only where a value is past its limit, for its words.
fn file_row<'a>(
    report: &'a MeasureReport,
    file: &'a MeasuredFile,
    judging: &mut Option<Judging<'a>>,
    paint: Paint,
) -> Row<'a> {
    let m = &file.measure;
    let (status, over) = match file.marks.file {
        Mark::Past => {
            let verdicts = judging
                .get_or_insert_with(|| report.judging(file))
                .file_verdicts();
            (file_word(file, &verdicts, paint), true)
        }
        _ => (file.limited.then_some(Cow::Borrowed("ok")), false),
    };
    Row {
        path: &m.path,
        line: 1,
        kind: "file",
        name: m.file_name(),
        size: Size::File(m),
        over,
        status,
    }
}

/// The status words of a unit's values: its verdicts', naming the metric of each where
/// several were judged.
fn unit_words(values: &[UnitVerdict], paint: Paint) -> Cow<'static, str> {
    let judged = || values.iter().filter_map(|v| v.verdict.as_ref());
    status_words(judged(), judged().count() > 1, paint)
}

/// The characters of `s`: its length where it is ASCII, as most names are.
fn chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// `1 line`, `12 lines`.
fn line_count(n: u64) -> String {
    match n {
        1 => "1 line".to_string(),
        n => format!("{n} lines"),
    }
}

/// The characters of [`line_count`]'s text, without making it.
fn line_count_len(n: u64) -> usize {
    digits(n) + if n == 1 { 5 } else { 6 }
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends `n` spaces.
fn push_spaces(out: &mut Vec<u8>, n: usize) {
    out.resize(out.len() + n, b' ');
}

/// Across files, locations (`path:line`) and names are padded to at most these widths:
/// one deep path or long name elsewhere would widen every line past a terminal's width.
/// A file whose own are longer pads its rows to its own.
const LOCATION_PAD_MAX: usize = 44;
const NAME_PAD_MAX: usize = 28;

/// The widths one file's rows pad to — location (`path:line`), name (in characters) and
/// size (`12 lines`) — so that the status words stand in one column.
#[derive(Debug, Clone, Copy, Default)]
struct Widths {
    location: usize,
    name: usize,
    size: usize,
}

impl Widths {
    fn max(self, other: Widths) -> Widths {
        Widths {
            location: self.location.max(other.location),
            name: self.name.max(other.name),
            size: self.size.max(other.size),
        }
    }

    /// What every file pads to at least, these the widest of all: capped.
    fn capped(self) -> Widths {
        Widths {
            location: self.location.min(LOCATION_PAD_MAX),
            name: self.name.min(NAME_PAD_MAX),
            size: self.size,
        }
    }
}

/// `45 lines, 1 type(s), 1210 bytes` for code; `40 lines, 3120 bytes, loads 5230 bytes`
/// for a Markdown document, `, chain 9120 bytes` after it where the document has
/// namesakes above it (docs/src/reference/documents.md#chains).
fn file_size(m: &FileMeasure) -> String {
    let chain = match &m.chain {
        Some(c) if !c.documents.is_empty() => format!(", chain {} bytes", c.bytes),
        _ => String::new(),
    };
    match (&m.loaded, m.language) {
        (Some(loaded), Language::Markdown) => format!(
            "{}, {} bytes, loads {} bytes{chain}",
            line_count(m.lines),
            m.bytes,
            loaded.bytes
        ),
        (None, Language::Markdown) => format!("{}, {} bytes", line_count(m.lines), m.bytes),
        _ => format!(
            "{}, {}, {} bytes",
            line_count(m.lines),
            count(m.types as usize, "type"),
            m.bytes
        ),
    }
}

/// Text: one aligned line per file and unit, then a summary and skipped files; `paint`
/// colours the status words for a terminal.
pub fn text(report: &MeasureReport, paint: Paint) -> String {
    let mut out = Vec::new();
    let _ = write_text(report, paint, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`text`], written to `out` a buffer at a time.
pub fn write_text(report: &MeasureReport, paint: Paint, out: &mut dyn io::Write) -> io::Result<()> {
    let mut kept = Kept::default();
    for file in &report.files {
        kept.add(file, Kept::pack(&file.measure, &file.marks));
    }
    write_kept(report, &kept, paint, out)
}

/// [`write_text`] of the files `kept` as the run handed them on (a report that kept none
/// of its own: [`crate::commands::measure::run_each`]).
pub fn write_kept(
    report: &MeasureReport,
    kept: &Kept,
    paint: Paint,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let shared = kept.shared();
    let mut buf: Vec<u8> = Vec::with_capacity(FLUSH_AT + 4096);
    // One buffer for every unit judged again.
    let mut values = Vec::new();
    kept.each_file(&mut |file, own, units| {
        let w = shared.max(own);
        let path = &file.measure.path;
        let path_len = chars(path);
        let mut judging = None;
        let row = file_row(report, file, &mut judging, paint);
        if row.over || !report.over_only {
            push_row(&mut buf, &row, path_len, w);
        }
        while let Some(marked) = units.next() {
            let unit = units.unit();
            let (status, over) = match marked {
                Mark::Unjudged => (None, false),
                Mark::Ok => (Some(Cow::Borrowed("ok")), false),
                Mark::Past => {
                    let mut named = unit.clone();
                    named.name = units.name().into();
                    let judging = judging.get_or_insert_with(|| report.judging(file));
                    judging.unit(&named, &mut values);
                    (Some(unit_words(&values, paint)), true)
                }
            };
            if report.over_only && !over {
                continue;
            }
            let row = Row {
                path,
                line: unit.start_line,
                kind: unit.kind.key(),
                name: units.name(),
                size: Size::Unit(unit),
                over,
                status,
            };
            push_row(&mut buf, &row, path_len, w);
            if buf.len() >= FLUSH_AT {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
        Ok(())
    })?;
    out.write_all(&buf)?;
    out.write_all(summary(report).as_bytes())?;
    for s in &report.skipped {
        writeln!(out, "skipped {}: {}", s.path, s.reason)?;
    }
    Ok(())
}

/// How much text [`write_kept`] gathers before it writes.
const FLUSH_AT: usize = 1 << 16;

/// Appends one row padded to `w`, `path_len` the characters of its path:
/// `{path}:{line}{pad}  {kind:8}  {name:name_w}  {size:size_w}  {status}`, padded by
/// characters as `format!` would, without its machinery.
fn push_row(out: &mut Vec<u8>, r: &Row, path_len: usize, w: Widths) {
    let start = out.len();
    out.extend_from_slice(r.path.as_bytes());
    out.push(b':');
    push_number(out, u64::from(r.line));
    let location_len = path_len + 1 + digits(u64::from(r.line));
    push_spaces(out, w.location.saturating_sub(location_len) + 2);
    out.extend_from_slice(r.kind.as_bytes());
    push_spaces(out, 8usize.saturating_sub(r.kind.len()) + 2);
    out.extend_from_slice(r.name.as_bytes());
    push_spaces(out, w.name.saturating_sub(chars(r.name)) + 2);
    let size_len = r.size.push_to(out);
    push_spaces(out, w.size.saturating_sub(size_len));
    if let Some(status) = &r.status {
        out.extend_from_slice(b"  ");
        out.extend_from_slice(status.as_bytes());
    }
    // As `str::trim_end`: a row ends in its status or its size, both ASCII.
    let end = start + out[start..].trim_ascii_end().len();
    out.truncate(end);
    out.push(b'\n');
}

/// `measured N file(s): ...`, with a final newline.
pub(crate) fn summary(report: &MeasureReport) -> String {
    let counts = &report.counts;
    let mut parts = vec![format!(
        "measured {}: {}, {}",
        count(counts.files, "file"),
        count(counts.functions, "function"),
        count(counts.types, "type")
    )];
    let by = |s: Status| {
        let of = |f: &&Finding| f.verdict.status == s;
        report.findings.iter().filter(of).count()
    };
    if counts.limited {
        // A pin's growth within the band is an excess only the pin makes (docs/src/reference/documents.md#pins-and-tiers).
        let grown = report.findings.iter().filter(|f| f.verdict.pin_growth());
        let grown = grown.count();
        let pins = match grown {
            0 => String::new(),
            n => format!(", {} grown past their pin", count(n, "value")),
        };
        parts.push(format!(
            "{}{pins}, {}, {} tolerated by the baseline",
            count(by(Status::Excess) - grown, "excess"),
            count(by(Status::Divergence), "divergence"),
            by(Status::Tolerated)
        ));
    }
    if !report.skipped.is_empty() {
        parts.push(format!("{} skipped", report.skipped.len()));
    }
    format!("{}\n", parts.join("; "))
}

/// `--verbose`: the files left out by rule, with the rule.
pub fn verbose(report: &MeasureReport) -> Vec<String> {
    let line = |l: &FileReason<_>| format!("left out {}: {}", l.path, l.reason);
    report.left_out.iter().map(line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::model::Metric;

    /// A unit judged on one metric says its status as ever; one judged on several names
    /// the metric of each status past its limit (an excess names it anyway).
    #[test]
    fn a_units_status_names_its_metric_where_several_were_judged() {
        let mut limits = Limits {
            tolerance_percent: 25,
            ..Limits::default()
        };
        limits.values.insert(Metric::FunctionLines, 20);
        limits.values.insert(Metric::TypeLines, 10);
        let judged = |metric, value| crate::judge::verdict(&limits, metric, value, None);
        let diverging = judged(Metric::FunctionLines, 22).expect("limited");
        let ok = judged(Metric::FunctionLines, 20).expect("limited");
        let excess = judged(Metric::TypeLines, 13).expect("limited");
        let words = |v: &[Verdict], several| status_words(v.iter(), several, Paint::PLAIN);
        assert_eq!(words(&[diverging], false), "divergence (limit 20, band 25)");
        assert_eq!(words(&[ok], false), "ok");
        assert_eq!(words(&[ok, ok], true), "ok");
        assert_eq!(
            words(&[diverging, excess], true),
            "function_lines divergence (limit 20, band 25); excess: type_lines 13 > 10 (band 12)"
        );
    }
}
