//! `measure` as JSON (docs/src/reference/json.md#measure) and TSV, whole or written file by file as the files are
//! measured ([`Stream`]).

use std::fmt::Write as _;
use std::io;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::baseline::tsv::escape;
use crate::commands::measure::{MeasureReport, MeasuredFile};
use crate::judge::{Finding, Status};
use crate::model::{SkipReason, Unit};
use crate::reason::FileReason;

/// What follows the files in the JSON (docs/src/reference/json.md#measure), plus `findings` (every value past its
/// limit, with its `status`).
#[derive(Serialize)]
struct JsonTail<'a> {
    skipped: &'a [FileReason<SkipReason>],
    findings: Vec<StatusFinding<'a>>,
}

/// One measured file of the JSON (docs/src/reference/json.md#measure; `loaded_bytes`, `imports`, `chain_bytes` and
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

/// A unit of the JSON: its name, kind and span, then a field per value in the registry's
/// order (`lines`, ...).
struct UnitJson<'a>(&'a Unit);

impl Serialize for UnitJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let u = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &u.name)?;
        map.serialize_entry("kind", u.kind.key())?;
        map.serialize_entry("start_line", &u.start_line)?;
        map.serialize_entry("end_line", &u.end_line)?;
        for (metric, value) in u.values() {
            map.serialize_entry(metric.def().field, &value)?;
        }
        // An anonymous function unit (docs/src/reference/measurement.md#anonymous-functions).
        if u.anonymous {
            map.serialize_entry("anonymous", &true)?;
        }
        map.end()
    }
}

/// A finding with its status.
#[derive(Serialize)]
struct StatusFinding<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    status: Status,
}

/// JSON: exactly the docs/src/reference/json.md#measure object `{"files", "skipped"}`, plus `findings`.
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
            let tail = crate::report::json_of(&JsonTail {
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
    let units = m.units.iter().map(UnitJson);
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

/// TSV: a header, then one row per file-level value and per unit:
/// path, unit, metric, value, start_line, end_line, status (`-` where no limit applies).
pub fn tsv(report: &MeasureReport) -> String {
    written(report, Format::Tsv)
}

/// The TSV rows of one file.
fn tsv_file(out: &mut String, report: &MeasureReport, f: &MeasuredFile) {
    let m = &f.measure;
    let last = m.lines.max(1);
    let judging = report.judging(f);
    let file_verdicts = judging.file_verdicts();
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
    let path = escape(&m.path);
    judging.each_unit(&mut |u, values| {
        let name = escape(&u.name);
        for v in values {
            let status = v.verdict.as_ref().map_or("-", |s| s.status.key());
            let (metric, value) = (v.metric, v.value);
            let (start, end) = (u.start_line, u.end_line);
            let _ = writeln!(
                out,
                "{path}\t{name}\t{metric}\t{value}\t{start}\t{end}\t{status}"
            );
        }
    });
}
