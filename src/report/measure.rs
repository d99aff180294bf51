//! `measure` output: text (one line per unit), JSON (SPEC §7) and TSV.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

use serde::Serialize;

use crate::baseline::tsv::escape;
use crate::commands::measure::{MeasureReport, MeasuredFile};
use crate::judge::{Finding, Status, Verdict};
use crate::model::{FileMeasure, Language, SkipReason};
use crate::reason::FileReason;
use crate::report::style::{Paint, Role};
use crate::report::{count, status_text};

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

/// `12 lines` for a unit; the file's sizes for a file (see [`file_size`]).
enum Size<'a> {
    Unit(u64),
    File(&'a FileMeasure),
}

impl Size<'_> {
    /// Appends the size to `out`, returning how many characters it took (all ASCII).
    fn push_to(&self, out: &mut Vec<u8>) -> usize {
        let before = out.len();
        match self {
            Size::Unit(lines) => {
                push_number(out, *lines);
                out.extend_from_slice(if *lines == 1 { b" line" } else { b" lines" });
            }
            Size::File(m) => out.extend_from_slice(file_size(m).as_bytes()),
        }
        out.len() - before
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
    let notes: Vec<String> = verdicts
        .iter()
        .filter(|f| f.status != Status::Ok)
        .map(|f| match f.status {
            Status::Excess => painted_status(f, paint).into_owned(),
            _ => format!("{} {}", f.metric, painted_status(f, paint)),
        })
        .collect();
    Some(if notes.is_empty() {
        Cow::Borrowed("ok")
    } else {
        Cow::Owned(notes.join("; "))
    })
}

/// Calls `each` with the file's row, then one row per unit.
fn for_rows(report: &MeasureReport, file: &MeasuredFile, paint: Paint, each: &mut dyn FnMut(&Row)) {
    let m = &file.measure;
    let verdicts = report.file_verdicts(file);
    each(&Row {
        path: &m.path,
        line: 1,
        kind: "file",
        name: m.file_name(),
        size: Size::File(m),
        over: verdicts.iter().any(|f| f.status != Status::Ok),
        status: file_word(file, &verdicts, paint),
    });
    for (unit, status) in m.units.iter().zip(report.unit_verdicts(file)) {
        each(&Row {
            path: &m.path,
            line: unit.start_line,
            kind: unit.kind.key(),
            name: &unit.name,
            size: Size::Unit(unit.lines()),
            over: status.as_ref().is_some_and(|f| f.status != Status::Ok),
            status: status.as_ref().map(|f| painted_status(f, paint)),
        });
    }
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
    fn of(m: &FileMeasure) -> Widths {
        let path = m.path.chars().count();
        let mut w = Widths {
            location: path + 2,
            name: m.file_name().chars().count(),
            size: 0,
        };
        for unit in &m.units {
            w.location = w
                .location
                .max(path + 1 + digits(u64::from(unit.start_line)));
            w.name = w.name.max(chars(&unit.name));
            w.size = w.size.max(line_count_len(unit.lines()));
        }
        w
    }

    fn max(self, other: Widths) -> Widths {
        Widths {
            location: self.location.max(other.location),
            name: self.name.max(other.name),
            size: self.size.max(other.size),
        }
    }

    /// What every file pads to at least: the widest of all, capped.
    fn shared(each: &[Widths]) -> Widths {
        let all = each.iter().copied().fold(Widths::default(), Widths::max);
        Widths {
            location: all.location.min(LOCATION_PAD_MAX),
            name: all.name.min(NAME_PAD_MAX),
            size: all.size,
        }
    }
}

/// `45 lines, 1 type(s), 1210 bytes` for code; `40 lines, 3120 bytes, loads 5230 bytes`
/// for a Markdown document, `, chain 9120 bytes` after it where the document has
/// namesakes above it (SPEC §8.2).
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

/// [`text`], written to `out` line by line: a full-tree report is never held whole.
pub fn write_text(report: &MeasureReport, paint: Paint, out: &mut dyn io::Write) -> io::Result<()> {
    let each: Vec<Widths> = report
        .files
        .iter()
        .map(|f| Widths::of(&f.measure))
        .collect();
    let shared = Widths::shared(&each);
    let mut line: Vec<u8> = Vec::with_capacity(256);
    let mut result = Ok(());
    for (file, own) in report.files.iter().zip(each) {
        let w = shared.max(own);
        let (loc_w, name_w, size_w) = (w.location, w.name, w.size);
        let path_len = file.measure.path.chars().count();
        for_rows(report, file, paint, &mut |r| {
            if result.is_err() || (report.over_only && !r.over) {
                return;
            }
            // `{path}:{line}{pad}  {kind:8}  {name:name_w}  {size:size_w}`, padded by
            // characters as `format!` would, without its machinery.
            line.clear();
            line.extend_from_slice(r.path.as_bytes());
            line.push(b':');
            push_number(&mut line, u64::from(r.line));
            let location_len = path_len + 1 + digits(u64::from(r.line));
            push_spaces(&mut line, loc_w.saturating_sub(location_len) + 2);
            line.extend_from_slice(r.kind.as_bytes());
            push_spaces(&mut line, 8usize.saturating_sub(chars(r.kind)) + 2);
            line.extend_from_slice(r.name.as_bytes());
            push_spaces(&mut line, name_w.saturating_sub(chars(r.name)) + 2);
            let size_len = r.size.push_to(&mut line);
            push_spaces(&mut line, size_w.saturating_sub(size_len));
            if let Some(status) = &r.status {
                line.extend_from_slice(b"  ");
                line.extend_from_slice(status.as_bytes());
            }
            // As `str::trim_end`: a row ends in its status or its size, both ASCII.
            line.truncate(line.trim_ascii_end().len());
            line.push(b'\n');
            result = out.write_all(&line);
        });
        std::mem::replace(&mut result, Ok(()))?;
    }
    out.write_all(summary(report).as_bytes())?;
    for s in &report.skipped {
        writeln!(out, "skipped {}: {}", s.path, s.reason)?;
    }
    Ok(())
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
        // A pin's growth within the band is an excess only the pin makes (SPEC §8.1).
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

/// What follows the files in the JSON (SPEC §7), plus `findings` (every value past its
/// limit, with its `status`).
#[derive(Serialize)]
struct JsonTail<'a> {
    skipped: &'a [FileReason<SkipReason>],
    findings: Vec<StatusFinding<'a>>,
}

/// One measured file of the JSON (SPEC §7; `loaded_bytes`, `imports`, `chain_bytes` and
/// `chain` for Markdown).
#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    language: &'static str,
    lines: u64,
    types: u64,
    bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    loaded_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    imports: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain: Option<&'a [String]>,
    context: Option<&'a str>,
    units: Vec<UnitJson<'a>>,
}

#[derive(Serialize)]
struct UnitJson<'a> {
    name: &'a str,
    kind: &'static str,
    start_line: u32,
    end_line: u32,
    lines: u64,
}

/// A finding with its status.
#[derive(Serialize)]
struct StatusFinding<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    status: Status,
}

/// JSON: exactly the SPEC §7 object `{"files", "skipped"}`, plus `findings`.
pub fn json(report: &MeasureReport) -> String {
    written(report, Format::Json)
}

/// The formats a [`Stream`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Tsv,
}

/// A `measure` report written file by file as [`crate::commands::measure::run_each`]
/// hands them on, in path order, then finished with what only the whole run knows
/// (skipped files, findings). Gives the same bytes as writing the whole report at once.
pub struct Stream<'w> {
    format: Format,
    out: &'w mut (dyn io::Write + Send),
    /// Files written so far.
    files: usize,
    /// One reused buffer for a file's text.
    text: String,
    /// One reused buffer for a file's JSON.
    json: Vec<u8>,
}

impl<'w> Stream<'w> {
    pub fn new(format: Format, out: &'w mut (dyn io::Write + Send)) -> Stream<'w> {
        Stream {
            format,
            out,
            files: 0,
            text: String::new(),
            json: Vec::new(),
        }
    }

    /// Writes one measured file.
    pub fn file(&mut self, report: &MeasureReport, file: &MeasuredFile) -> io::Result<()> {
        self.text.clear();
        if self.files == 0 {
            self.text.push_str(self.opening());
        }
        if self.format == Format::Json {
            self.json.clear();
            self.json.extend_from_slice(self.text.as_bytes());
            self.json.extend_from_slice(if self.files == 0 {
                b"\n    "
            } else {
                b",\n    "
            });
            // Pretty-printed as `serde_json::to_string_pretty` would, nested two levels deep.
            let formatter = Nested {
                level: 2,
                has_value: false,
            };
            let mut serializer = serde_json::Serializer::with_formatter(&mut self.json, formatter);
            file_json(file).serialize(&mut serializer)?;
            self.files += 1;
            return self.out.write_all(&self.json);
        }
        tsv_file(&mut self.text, report, file);
        self.files += 1;
        self.out.write_all(self.text.as_bytes())
    }

    /// Writes what follows the files.
    pub fn finish(mut self, report: &MeasureReport) -> io::Result<()> {
        self.text.clear();
        if self.files == 0 {
            self.text.push_str(self.opening());
        }
        if self.format == Format::Json {
            self.text
                .push_str(if self.files == 0 { "]" } else { "\n  ]" });
            let findings = report.findings.iter().map(|f| StatusFinding {
                finding: f,
                status: f.verdict.status,
            });
            let tail = super::json_of(&JsonTail {
                skipped: &report.skipped,
                findings: findings.collect(),
            });
            // The tail's own object, opened by `{` and a line break, continues this one.
            self.text.push(',');
            self.text.push_str(tail.strip_prefix('{').unwrap_or(&tail));
        }
        self.out.write_all(self.text.as_bytes())
    }

    fn opening(&self) -> &'static str {
        match self.format {
            Format::Json => "{\n  \"files\": [",
            Format::Tsv => "path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n",
        }
    }
}

/// serde_json's pretty printer (two spaces a level) starting `level` levels deep, so that
/// an object written into an enclosing document needs no re-indenting.
struct Nested {
    level: usize,
    has_value: bool,
}

impl Nested {
    fn indent<W: ?Sized + io::Write>(&self, out: &mut W) -> io::Result<()> {
        for _ in 0..self.level {
            out.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            out.write_all(b"\n")?;
            self.indent(out)?;
        }
        out.write_all(bracket)
    }

    fn item<W: ?Sized + io::Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(out)
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(out, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(out, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// A whole report (its kept files) in `format`.
fn written(report: &MeasureReport, format: Format) -> String {
    let mut out = Vec::new();
    let mut stream = Stream::new(format, &mut out);
    for f in &report.files {
        if stream.file(report, f).is_err() {
            break;
        }
    }
    let _ = stream.finish(report);
    String::from_utf8_lossy(&out).into_owned()
}

fn file_json(f: &MeasuredFile) -> FileJson<'_> {
    let m = &f.measure;
    let units = m.units.iter().map(|u| UnitJson {
        name: &u.name,
        kind: u.kind.key(),
        start_line: u.start_line,
        end_line: u.end_line,
        lines: u.lines(),
    });
    FileJson {
        path: &m.path,
        language: m.language.key(),
        lines: m.lines,
        types: m.types,
        bytes: m.bytes,
        loaded_bytes: m.loaded.as_ref().map(|l| l.bytes),
        imports: m.loaded.as_ref().map(|l| &l.imports[..]),
        chain_bytes: m.chain.as_ref().map(|c| c.bytes),
        chain: m.chain.as_ref().map(|c| &c.documents[..]),
        context: f.context.as_deref(),
        units: units.collect(),
    }
}

/// `--verbose`: the files left out by rule, with the rule.
pub fn verbose(report: &MeasureReport) -> Vec<String> {
    let line = |l: &FileReason<_>| format!("left out {}: {}", l.path, l.reason);
    report.left_out.iter().map(line).collect()
}

/// TSV: a header, then one row per file-level value and per unit:
/// path, unit, metric, value, start_line, end_line, status (`-` where no limit applies).
pub fn tsv(report: &MeasureReport) -> String {
    written(report, Format::Tsv)
}

/// The TSV rows of one file.
fn tsv_file(out: &mut String, report: &MeasureReport, f: &MeasuredFile) {
    let m = &f.measure;
    let last = m.lines.max(1);
    let file_verdicts = report.file_verdicts(f);
    for (metric, value) in m.file_values() {
        let status = file_verdicts
            .iter()
            .find(|s| s.metric == metric)
            .map_or("-", |s| s.status.key());
        let _ = writeln!(
            out,
            "{}\t{}\t{metric}\t{value}\t1\t{last}\t{status}",
            escape(&m.path),
            escape(m.file_name())
        );
    }
    for (u, s) in m.units.iter().zip(report.unit_verdicts(f)) {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            escape(&m.path),
            escape(&u.name),
            u.kind.metric(),
            u.lines(),
            u.start_line,
            u.end_line,
            s.as_ref().map_or("-", |s| s.status.key())
        );
    }
}
