//! `measure` output: text (one line per unit), JSON (SPEC §7) and TSV.

use std::fmt::Write as _;

use serde_json::json;

use crate::baseline::tsv::escape;
use crate::commands::measure::{MeasureReport, MeasuredFile};
use crate::judge::{Finding, Status};
use crate::model::{FileMeasure, Language, UnitKind};
use crate::report::style::{Paint, Role};
use crate::report::{count, finding_json, status_text};

struct Row {
    location: String,
    kind: &'static str,
    name: String,
    size: String,
    status: Option<String>,
}

/// The status words of a finding, coloured by what they mean.
fn painted_status(f: &Finding, paint: Paint) -> String {
    let role = match f.status {
        Status::Ok => return status_text(f),
        Status::Divergence => Role::Warn,
        Status::Tolerated => Role::Quiet,
        Status::Excess => Role::Bad,
    };
    paint.paint(role, &status_text(f))
}

fn rows(file: &MeasuredFile, paint: Paint) -> Vec<Row> {
    let m = &file.measure;
    let file_status: Vec<String> = file
        .file_status
        .iter()
        .filter(|f| f.status != Status::Ok)
        .map(|f| match f.status {
            Status::Excess => painted_status(f, paint),
            _ => format!("{} {}", f.metric, painted_status(f, paint)),
        })
        .collect();
    let file_word = if !file.limited {
        None
    } else if file_status.is_empty() {
        Some("ok".to_string())
    } else {
        Some(file_status.join("; "))
    };
    let mut out = vec![Row {
        location: format!("{}:1", m.path),
        kind: "file",
        name: m.file_name().to_string(),
        size: file_size(m),
        status: file_word,
    }];
    for (unit, status) in m.units.iter().zip(&file.unit_status) {
        out.push(Row {
            location: format!("{}:{}", m.path, unit.start_line),
            kind: unit.kind.key(),
            name: unit.name.clone(),
            size: format!("{} lines", unit.lines()),
            status: status.as_ref().map(|f| painted_status(f, paint)),
        });
    }
    out
}

/// `45 lines, 1 type(s), 1210 bytes` for code; `40 lines, 3120 bytes, loads 5230 bytes`
/// for a Markdown document.
fn file_size(m: &FileMeasure) -> String {
    match (&m.loaded, m.language) {
        (_, Language::CSharp | Language::Rust) => format!(
            "{} lines, {}, {} bytes",
            m.lines,
            count(m.types as usize, "type"),
            m.bytes
        ),
        (Some(loaded), Language::Markdown) => format!(
            "{} lines, {} bytes, loads {} bytes",
            m.lines, m.bytes, loaded.bytes
        ),
        (None, Language::Markdown) => format!("{} lines, {} bytes", m.lines, m.bytes),
    }
}

/// Text: one aligned line per file and unit, then a summary and skipped files; `paint`
/// colours the status words for a terminal.
pub fn text(report: &MeasureReport, paint: Paint) -> String {
    let all: Vec<Row> = report.files.iter().flat_map(|f| rows(f, paint)).collect();
    let loc_w = all.iter().map(|r| r.location.len()).max().unwrap_or(0);
    let name_w = all
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for r in &all {
        let mut line = format!(
            "{:loc_w$}  {:8}  {:name_w$}  {}",
            r.location, r.kind, r.name, r.size
        );
        if let Some(status) = &r.status {
            line.push_str("  ");
            line.push_str(status);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str(&summary(report));
    for (path, reason) in &report.skipped {
        let _ = writeln!(out, "skipped {path}: {reason}");
    }
    out
}

/// `measured N file(s): ...`, with a final newline.
pub(crate) fn summary(report: &MeasureReport) -> String {
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
            let mut file = json!({"path": m.path, "language": m.language.key(),
                                  "lines": m.lines, "types": m.types, "bytes": m.bytes});
            if let Some(loaded) = &m.loaded {
                file["loaded_bytes"] = json!(loaded.bytes);
                file["imports"] = json!(loaded.imports);
            }
            file["context"] = json!(f.context);
            file["units"] = json!(units);
            file
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

/// `--verbose`: the files left out by rule, with the rule.
pub fn verbose(report: &MeasureReport) -> Vec<String> {
    let line = |(path, reason): &(String, String)| format!("left out {path}: {reason}");
    report.left_out.iter().map(line).collect()
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
        for (metric, value) in m.file_values() {
            let status = f
                .file_status
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
