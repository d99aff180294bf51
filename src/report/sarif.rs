//! `--format sarif`: a SARIF 2.1.0 log (OASIS) for code-scanning tools. One result per
//! excess (level `error`) and per divergence (level `warning`); units the baseline
//! tolerates pass silently and are left out, as in the gate. Each result carries a
//! `partialFingerprints` entry computed from the unit's identity (path, unit, metric) so
//! a finding is tracked across line shifts.

use serde_json::{json, Value};

use crate::commands::gate::GateReport;
use crate::commands::measure::MeasureReport;
use crate::judge::{Finding, Status};
use crate::model::{Metric, Scope};
use crate::reason::{FileReason, Reason, Unmeasurable};
use crate::report::finding_detail;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// The `partialFingerprints` key; its value is [`fingerprint`].
pub const FINGERPRINT_KEY: &str = "structgateUnit/v1";

/// The SARIF log of a gate run: its excesses and divergences; not-judged reasons,
/// skipped and left-out files as tool notifications.
pub fn gate(report: &GateReport) -> String {
    let findings: Vec<&Finding> = report.excesses.iter().chain(&report.divergences).collect();
    let mut notes: Vec<Value> = report.terms_warnings.iter().map(terms_note).collect();
    let not_judged = super::listed::not_judged(report);
    notes.extend(
        not_judged
            .iter()
            .filter(|n| !n.reason.told_as_terms_warning())
            .map(|n| {
                let text = format!("structure not judged: {}", n.sentence());
                notification("warning", &text, None)
            }),
    );
    notes.extend(report.generated_claims.iter().map(|path| {
        let text = super::gate::claim_line(path);
        notification("note", &text, Some(path))
    }));
    notes.extend(file_notes(&report.skipped, "skipped"));
    notes.extend(file_notes(&report.left_out, "left out"));
    let properties = json!({
        "status": report.outcome.status.key(),
        "base": report.base,
        "judged_files": report.judged_files,
        "terms_from": report.terms_from,
    });
    let mut log = log(&findings, notes, properties);
    if !report.contract_findings.is_empty() {
        log = with_contract_results(&log, &report.contract_findings);
    }
    if !report.unmeasurable.is_empty() {
        log = with_unmeasurable_results(&log, &report.unmeasurable);
    }
    log
}

/// Adds one `error` result per unmeasurable file (docs/src/reference/gate.md#integrity), rule id `unmeasurable`,
/// located at the file.
fn with_unmeasurable_results(log: &str, files: &[FileReason<Unmeasurable>]) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(log) else {
        return log.to_string();
    };
    let results = files.iter().map(|u| {
        json!({
            "ruleId": "unmeasurable",
            "level": "error",
            "message": {"text": super::listed::unmeasurable_line(u)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": u.path, "uriBaseId": "%SRCROOT%"}}}],
            "properties": {"reason": u.reason.code()},
        })
    });
    if let Some(list) = value["runs"][0]["results"].as_array_mut() {
        list.extend(results);
    }
    super::json_text(&value)
}

/// Adds one `error` result per directory contract finding (docs/src/reference/contracts.md), its rule id the
/// finding's class, located at the directory's README.md (or the directory).
fn with_contract_results(log: &str, findings: &[crate::contracts::Finding]) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(log) else {
        return log.to_string();
    };
    let results = findings.iter().map(|f| {
        let uri = f.contract.clone().unwrap_or_else(|| f.directory.clone());
        json!({
            "ruleId": f.class.key(),
            "level": "error",
            "message": {"text": super::contracts::finding_line(f)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}}}],
            "properties": {"directory": f.directory, "governed_by": f.governed_by},
        })
    });
    if let Some(list) = value["runs"][0]["results"].as_array_mut() {
        list.extend(results);
    }
    super::json_text(&value)
}

/// The SARIF log of a `measure` run: every excess and divergence; skipped files as tool
/// notifications.
pub fn measure(report: &MeasureReport) -> String {
    let findings: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| matches!(f.verdict.status, Status::Excess | Status::Divergence))
        .collect();
    let notes = file_notes(&report.skipped, "skipped").collect();
    let properties = json!({"measured_files": report.counts.files});
    log(&findings, notes, properties)
}

fn log(findings: &[&Finding], notes: Vec<Value>, properties: Value) -> String {
    let results: Vec<Value> = findings.iter().map(|f| result(f)).collect();
    let rules: Vec<Value> = Metric::ALL.iter().map(|m| rule(*m)).collect();
    super::json_text(&json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "structgate",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notes,
            }],
            "results": results,
            "properties": properties,
        }],
    }))
}

fn result(f: &Finding) -> Value {
    let v = &f.verdict;
    let level = if v.status == Status::Excess {
        "error"
    } else {
        "warning"
    };
    let mut location = location(&f.path, Some((f.lines.start, f.lines.end)));
    if let Some(kind) = logical_kind(v.metric) {
        location["logicalLocations"] = json!([{"fullyQualifiedName": f.unit, "kind": kind}]);
    }
    json!({
        "ruleId": v.metric.key(),
        "ruleIndex": Metric::ALL.iter().position(|m| *m == v.metric),
        "level": level,
        "message": {"text": message(f)},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(&f.path, &f.unit, v.metric)},
        "properties": {
            "unit": f.unit,
            "metric": v.metric,
            "value": v.value,
            "limit": v.limit,
            "band": v.band,
            "baseline": v.baseline,
            "status": v.status,
        },
    })
}

/// `UNIT: DETAIL`, or `UNIT grew past its pin: DETAIL` for a pin's growth within its band.
fn message(f: &Finding) -> String {
    let grew = if f.verdict.pin_growth() {
        " grew past its pin"
    } else {
        ""
    };
    format!("{}{grew}: {}", f.unit, finding_detail(f))
}

fn location(path: &str, lines: Option<(u32, u32)>) -> Value {
    let mut physical = json!({"artifactLocation": {"uri": uri(path), "uriBaseId": "%SRCROOT%"}});
    if let Some((start, end)) = lines {
        physical["region"] = json!({"startLine": start.max(1), "endLine": end.max(start).max(1)});
    }
    json!({"physicalLocation": physical})
}

fn notification(level: &str, text: &str, path: Option<&str>) -> Value {
    let mut note = json!({"level": level, "message": {"text": text}});
    if let Some(path) = path {
        note["locations"] = json!([location(path, None)]);
    }
    note
}

/// A terms warning as a tool notification located at its file and line
/// (docs/src/reference/gate.md#terms-warnings).
fn terms_note(w: &crate::judge::TermsWarning) -> Value {
    let text = super::gate::terms_warning_line(w);
    let line = u32::try_from(w.line).unwrap_or(u32::MAX);
    let mut note = notification("warning", &text, None);
    note["locations"] = json!([location(&w.file, Some((line, line)))]);
    note
}

fn file_notes<'a, R: Reason>(
    list: &'a [FileReason<R>],
    what: &'a str,
) -> impl Iterator<Item = Value> + 'a {
    list.iter().map(move |l| {
        let text = format!("{what} {}: {}", l.path, l.reason);
        notification("note", &text, Some(&l.path))
    })
}

/// The SARIF logical-location kind of a metric's unit; `None` for file-level metrics.
fn logical_kind(metric: Metric) -> Option<&'static str> {
    match metric.scope() {
        Scope::Unit(kind) => Some(kind.key()),
        Scope::CodeFile | Scope::EveryFile | Scope::Document => None,
    }
}

/// One rule per metric, with the help a reader of the finding needs.
fn rule(metric: Metric) -> Value {
    let (short, full) = (metric.def().rule_short, metric.def().rule_full);
    let help = format!(
        "{full} Over the limit and within the band (the limit plus tolerance_percent) is a \
         divergence: it passes and is listed. Past the band is an excess: it fails, unless \
         structure-baseline.tsv tolerates the unit up to its recorded value. The limits live \
         in the ## Limits section of the context's principles.md."
    );
    json!({
        "id": metric.key(),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": help},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": metric.def().tags},
    })
}

/// A stable identity for a finding: FNV-1a (64-bit) over path, unit and metric joined
/// by NUL, as 16 lowercase hex digits. Line numbers take no part, so a unit keeps its
/// fingerprint when code above it moves.
pub fn fingerprint(path: &str, unit: &str, metric: Metric) -> String {
    let key = [path, unit, metric.key()].join("\0");
    format!("{:016x}", fnv1a64(key.as_bytes()))
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A repository-relative path as a relative URI reference: `/` kept, unreserved and
/// most sub-delimiter characters kept, every other byte percent-encoded.
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(char::from(byte)),
            b'-' | b'.' | b'_' | b'~' | b'/' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' => {
                out.push(char::from(byte))
            }
            b'*' | b'+' | b',' | b';' | b'=' | b'@' => out.push(char::from(byte)),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_keeps_slashes_and_encodes_spaces_colons_and_non_ascii() {
        assert_eq!(uri("src/A b/C.cs"), "src/A%20b/C.cs");
        assert_eq!(uri("a:b/ü.rs"), "a%3Ab/%C3%BC.rs");
        assert_eq!(uri("x/#y%.cs"), "x/%23y%25.cs");
    }

    #[test]
    fn fingerprint_is_fnv1a_of_the_identity() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        let a = fingerprint("src/A.cs", "A.Run", Metric::FunctionLines);
        assert_eq!(a, fingerprint("src/A.cs", "A.Run", Metric::FunctionLines));
        assert_ne!(a, fingerprint("src/A.cs", "A.Run", Metric::TypeLines));
        assert_ne!(a, fingerprint("src/A.cs", "A.Ru", Metric::FunctionLines));
    }
}
