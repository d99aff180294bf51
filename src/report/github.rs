//! `--format github`: GitHub Actions workflow commands, so findings show inline on a pull
//! request. `::error` per excess, `::warning` per divergence, per not-judged reason and
//! per term the branch loosened, `::notice` per skipped or left-out file, per term
//! tightened and per baseline entry that can tighten; the summary lines follow as plain
//! log text.

use std::fmt::Write as _;

use crate::commands::gate::GateReport;
use crate::commands::measure::MeasureReport;
use crate::judge::{Finding, Status};
use crate::reason::{FileReason, Reason};
use crate::report::finding_detail;

/// The workflow commands of a gate run, then its base and headline as plain lines.
pub fn gate(report: &GateReport) -> String {
    let mut out = String::new();
    for f in report.excesses.iter().chain(&report.divergences) {
        out.push_str(&finding(f));
    }
    for f in &report.contract_findings {
        out.push_str(&contract_finding(f));
    }
    out.push_str(&review(report));
    for u in &report.unmeasurable {
        let line = super::listed::unmeasurable_line(u);
        out.push_str(&command(
            "error",
            &[("file", &u.path), ("title", "unmeasurable")],
            &line,
        ));
    }
    out.push_str(&terms_warnings(report));
    let not_judged = super::listed::not_judged(report);
    for n in not_judged
        .iter()
        .filter(|n| !n.reason.told_as_terms_warning())
    {
        let message = n.sentence();
        out.push_str(&command(
            "warning",
            &[("title", "structure not judged")],
            &message,
        ));
    }
    out.push_str(&claims(report));
    out.push_str(&file_notices(&report.skipped, "skipped"));
    out.push_str(&file_notices(&report.left_out, "left out"));
    let plain = [
        super::gate::base_line(report),
        super::gate::adoption_line(report),
        Some(super::gate::headline(report)).filter(|h| !h.is_empty()),
        super::gate::partly_judged_line(report),
    ];
    for line in plain.into_iter().flatten() {
        let _ = writeln!(out, "{line}");
    }
    let renamed = super::gate::renamed_lines(report);
    for line in renamed.into_iter().chain(super::gate::moved_lines(report)) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// `::warning` at the file and line of each terms warning (docs/src/reference/gate.md#terms-warnings).
fn terms_warnings(report: &GateReport) -> String {
    let mut out = String::new();
    for w in &report.terms_warnings {
        let line = w.line.to_string();
        let props = [
            ("file", w.file.as_str()),
            ("line", &line),
            ("title", "terms warning"),
        ];
        out.push_str(&command("warning", &props, &super::terms::detail(w)));
    }
    out
}

/// `::notice` on each new file judged although it says it is generated.
fn claims(report: &GateReport) -> String {
    let mut out = String::new();
    for path in &report.generated_claims {
        let props = [
            ("file", path.as_str()),
            ("title", "judged although generated"),
        ];
        out.push_str(&command("notice", &props, crate::reason::GENERATED_CLAIM));
    }
    out
}

/// The workflow commands of a `measure` run (tolerated units pass silently), then its
/// summary line.
pub fn measure(report: &MeasureReport) -> String {
    let mut out = String::new();
    let shown = report
        .findings
        .iter()
        .filter(|f| matches!(f.verdict.status, Status::Excess | Status::Divergence));
    for f in shown {
        out.push_str(&finding(f));
    }
    out.push_str(&file_notices(&report.skipped, "skipped"));
    out.push_str(&super::measure::summary(report));
    out
}

/// `::error file=P,line=S,endLine=E,title=function_lines past the band::UNIT: DETAIL`.
fn finding(f: &Finding) -> String {
    let metric = f.verdict.metric;
    let (kind, title) = if f.verdict.pin_growth() {
        ("error", format!("{metric} grew past its pin"))
    } else if f.verdict.status == Status::Excess {
        ("error", format!("{metric} past the band"))
    } else {
        ("warning", format!("{metric} within tolerance"))
    };
    let (start, end) = (f.lines.start.to_string(), f.lines.end.to_string());
    let props = [
        ("file", f.path.as_str()),
        ("line", start.as_str()),
        ("endLine", end.as_str()),
        ("title", title.as_str()),
    ];
    command(kind, &props, &format!("{}: {}", f.unit, finding_detail(f)))
}

/// `::warning` per term the branch loosened, `::notice` per one it tightened and per
/// baseline entry that can tighten (docs/src/reference/gate.md#integrity).
fn review(report: &GateReport) -> String {
    let mut out = String::new();
    for c in &report.terms_changed {
        let (kind, title) = if c.loosens {
            ("warning", "terms loosened on this branch (not applied)")
        } else {
            ("notice", "terms tightened on this branch (not applied)")
        };
        let line = super::review::change_line(c);
        out.push_str(&command(
            kind,
            &[("file", &c.file), ("title", title)],
            &line,
        ));
    }
    for f in &report.tightenable {
        let (line, title) = (f.lines.start.to_string(), "baseline can tighten");
        let props = [("file", f.path.as_str()), ("line", &line), ("title", title)];
        out.push_str(&command("notice", &props, &super::review::tighten_text(f)));
    }
    out
}

fn file_notices<R: Reason>(list: &[FileReason<R>], title: &str) -> String {
    list.iter()
        .map(|l| {
            let props = [("file", l.path.as_str()), ("title", title)];
            command("notice", &props, &l.reason.to_string())
        })
        .collect()
}

/// One workflow command line: `::KIND k=v,k=v::MESSAGE`.
/// `::error file=docs/x/README.md,title=missing-contract::…` for a directory contract
/// finding (docs/src/reference/contracts.md); a directory without a README.md names the directory.
fn contract_finding(f: &crate::contracts::Finding) -> String {
    let file = f.contract.clone().unwrap_or_else(|| f.directory.clone());
    let line = super::contracts::finding_line(f);
    command("error", &[("file", &file), ("title", f.class.key())], &line)
}

fn command(kind: &str, props: &[(&str, &str)], message: &str) -> String {
    let props: Vec<String> = props
        .iter()
        .map(|(k, v)| format!("{k}={}", escape_property(v)))
        .collect();
    let sep = if props.is_empty() { "" } else { " " };
    format!(
        "::{kind}{sep}{}::{}\n",
        props.join(","),
        escape_data(message)
    )
}

/// A message: `%`, CR and LF percent-encoded (GitHub's workflow command rules).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as [`escape_data`], and `:` and `,` too.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_escapes_percent_cr_lf_only() {
        assert_eq!(escape_data("a%b\r\nc: d, e"), "a%25b%0D%0Ac: d, e");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("src/a,b:c%.cs"), "src/a%2Cb%3Ac%25.cs");
    }

    #[test]
    fn a_command_without_properties_has_no_space() {
        assert_eq!(command("warning", &[], "x\ny"), "::warning::x%0Ay\n");
        assert_eq!(
            command("notice", &[("file", "a.cs"), ("title", "t")], "m"),
            "::notice file=a.cs,title=t::m\n"
        );
    }
}
