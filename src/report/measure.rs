//! `measure` output: text (one line per unit), JSON (SPEC §7) and TSV.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::io;

use serde_json::json;

use crate::baseline::tsv::escape;
use crate::commands::measure::{MeasureReport, MeasuredFile};
use crate::judge::{Finding, Status, Verdict};
use crate::model::UnitKind;
use crate::report::{count, finding_json, status_text};

/// The widths text output pads locations (`path:line`, the longest in bytes, padded
/// by characters) and names (in characters) to.
#[derive(Clone, Copy)]
struct Widths {
    location: usize,
    name: usize,
}

/// One line of text output, borrowed from the report.
struct Row<'a> {
    path: &'a str,
    /// `path` in characters.
    path_chars: usize,
    line: u32,
    kind: &'a str,
    name: &'a str,
    size: Size,
    status: Option<Cow<'a, str>>,
}

/// `12 lines` for a unit, `45 lines, 1 type(s)` for a file.
enum Size {
    Unit(u64),
    File(u64, u64),
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Unit(lines) => write!(f, "{lines} lines"),
            Size::File(lines, types) => {
                write!(f, "{lines} lines, {}", count(*types as usize, "type"))
            }
        }
    }
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

fn widths(report: &MeasureReport) -> Widths {
    let mut w = Widths {
        location: 0,
        name: 0,
    };
    for file in &report.files {
        let m = &file.measure;
        let path = m.path.len() + 1;
        w.location = w.location.max(path + 1);
        w.name = w.name.max(m.file_name().chars().count());
        for unit in &m.units {
            w.location = w.location.max(path + digits(unit.start_line));
            w.name = w.name.max(unit.name.chars().count());
        }
    }
    w
}

/// The status word of a unit: `ok` needs no allocation.
fn status_word(verdict: &Verdict) -> Cow<'static, str> {
    match verdict.status {
        Status::Ok => Cow::Borrowed("ok"),
        _ => Cow::Owned(status_text(verdict)),
    }
}

fn file_word(file: &MeasuredFile) -> Option<Cow<'static, str>> {
    if !file.limited {
        return None;
    }
    let notes: Vec<String> = file
        .file_status
        .iter()
        .filter(|f| f.status != Status::Ok)
        .map(status_text)
        .collect();
    Some(if notes.is_empty() {
        Cow::Borrowed("ok")
    } else {
        Cow::Owned(notes.join("; "))
    })
}

/// Writes one row into `line` (cleared first), padded to `w`, without trailing spaces.
fn render(line: &mut String, w: Widths, row: &Row) {
    line.clear();
    let _ = write!(line, "{}:{}", row.path, row.line);
    let pad = w
        .location
        .saturating_sub(row.path_chars + 1 + digits(row.line));
    let _ = write!(
        line,
        "{:pad$}  {:8}  {:name_w$}  {}",
        "",
        row.kind,
        row.name,
        row.size,
        name_w = w.name
    );
    if let Some(status) = &row.status {
        line.push_str("  ");
        line.push_str(status);
    }
    line.truncate(line.trim_end().len());
    line.push('\n');
}

/// Text: one aligned line per file and unit, then a summary and skipped files.
pub fn text(report: &MeasureReport) -> String {
    let mut out = Vec::new();
    let _ = write_text(report, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`text`], written to `out` line by line: a full-tree report is never held whole.
pub fn write_text(report: &MeasureReport, out: &mut dyn io::Write) -> io::Result<()> {
    let w = widths(report);
    let mut line = String::new();
    for file in &report.files {
        let m = &file.measure;
        let path_chars = m.path.chars().count();
        let head = Row {
            path: &m.path,
            path_chars,
            line: 1,
            kind: "file",
            name: m.file_name(),
            size: Size::File(m.lines, m.types),
            status: file_word(file),
        };
        render(&mut line, w, &head);
        out.write_all(line.as_bytes())?;
        for (unit, verdict) in m.units.iter().zip(&file.unit_status) {
            let row = Row {
                path: &m.path,
                path_chars,
                line: unit.start_line,
                kind: unit.kind.key(),
                name: &unit.name,
                size: Size::Unit(unit.lines()),
                status: verdict.as_ref().map(status_word),
            };
            render(&mut line, w, &row);
            out.write_all(line.as_bytes())?;
        }
    }
    out.write_all(summary(report).as_bytes())?;
    for (path, reason) in &report.skipped {
        writeln!(out, "skipped {path}: {reason}")?;
    }
    Ok(())
}

fn summary(report: &MeasureReport) -> String {
    let units = report.files.iter().flat_map(|f| &f.measure.units);
    let functions = units
        .clone()
        .filter(|u| u.kind == UnitKind::Function)
        .count();
    let types = units.filter(|u| u.kind == UnitKind::Type).count();
    let mut parts = vec![format!(
        "measured {}: {}, {}",
        count(report.files.len(), "file"),
        count(functions, "function"),
        count(types, "type")
    )];
    let by = |s: Status| report.findings.iter().filter(|f| f.status == s).count();
    let judged = report.files.iter().any(|f| f.limited);
    if judged {
        parts.push(format!(
            "{} past the band, {} within tolerance, {} tolerated by the baseline",
            count(by(Status::Excess), "excess"),
            count(by(Status::Divergence), "divergence"),
            by(Status::Tolerated)
        ));
    }
    if !report.skipped.is_empty() {
        parts.push(format!("{} skipped", report.skipped.len()));
    }
    format!("{}\n", parts.join("; "))
}

/// JSON: exactly the SPEC §7 object, plus `findings` (every value past its limit, with
/// its `status`).
pub fn json(report: &MeasureReport) -> String {
    let files: Vec<_> = report
        .files
        .iter()
        .map(|f| {
            let m = &f.measure;
            let units: Vec<_> = m
                .units
                .iter()
                .map(|u| {
                    json!({"name": u.name, "kind": u.kind.key(), "start_line": u.start_line,
                           "end_line": u.end_line, "lines": u.lines()})
                })
                .collect();
            json!({"path": m.path, "language": m.language.key(), "lines": m.lines,
                   "types": m.types, "context": f.context, "units": units})
        })
        .collect();
    let skipped: Vec<_> = report
        .skipped
        .iter()
        .map(|(path, reason)| json!({"path": path, "reason": reason}))
        .collect();
    let findings: Vec<_> = report.findings.iter().map(finding_with_status).collect();
    super::json_text(&json!({"files": files, "skipped": skipped, "findings": findings}))
}

fn finding_with_status(f: &Finding) -> serde_json::Value {
    let mut v = finding_json(f);
    v["status"] = json!(f.status.key());
    v
}

/// TSV: a header, then one row per file-level value and per unit:
/// path, unit, metric, value, start_line, end_line, status (`-` where no limit applies).
pub fn tsv(report: &MeasureReport) -> String {
    let mut out = String::from("path\tunit\tmetric\tvalue\tstart_line\tend_line\tstatus\n");
    for f in &report.files {
        let m = &f.measure;
        let last = m.lines.max(1);
        for (metric, value) in [("file_lines", m.lines), ("types_per_file", m.types)] {
            let status = f
                .file_status
                .iter()
                .find(|s| s.metric.key() == metric)
                .map_or("-", |s| s.status.key());
            let _ = writeln!(
                out,
                "{}\t{}\t{metric}\t{value}\t1\t{last}\t{status}",
                escape(&m.path),
                escape(m.file_name())
            );
        }
        for (u, s) in m.units.iter().zip(&f.unit_status) {
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
    out
}
