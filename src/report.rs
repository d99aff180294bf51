//! The last stage: the only code that prints. Each command's report value is rendered
//! here as text, JSON, TSV, SARIF or GitHub workflow commands; `console` decides what
//! reaches the terminal (`--quiet`, `--verbose`, colour via `style`, progress bars).

pub mod baseline;
pub mod console;
pub mod contracts;
pub mod gate;
pub mod github;
pub mod hook;
pub mod init;
pub mod limits;
mod listed;
pub mod measure;
pub mod progress;
mod review;
pub mod sarif;
pub mod style;
pub mod terms;

use std::io::Write;

use crate::judge::{Finding, Status, Verdict};

/// Writes `text` to stdout. A closed pipe (`structgate measure | head`) is not an error.
pub fn print(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes one warning per line to stderr, prefixed `warning: `.
pub fn warn(warnings: &[String]) {
    let mut err = std::io::stderr().lock();
    for w in warnings {
        let _ = writeln!(err, "warning: {w}");
    }
}

/// `path:line`, where a terminal or an editor jumps to the unit.
pub(crate) fn located(f: &Finding) -> String {
    format!("{}:{}", f.path, f.lines.start)
}

/// `function_lines 92 > 55 (band 68, baseline 91)`: what a finding breaks, in words.
pub fn finding_detail(f: impl Into<Verdict>) -> String {
    let f: Verdict = f.into();
    let refused = f.growth_refused.map(|r| {
        format!(
            "; raised to {} on the branch, past {}, its band at its path at the base",
            r.to, r.bound
        )
    });
    let refused = refused.unwrap_or_default() + &same_name_note(&f);
    if let (true, Some(pin)) = (f.pin_growth(), f.baseline) {
        let delta = f.value - pin;
        return format!(
            "{} {} > pinned {pin} (+{delta}; limit {}, band {}{refused})",
            f.metric, f.value, f.limit, f.band
        );
    }
    let mut detail = format!("{} {} > {} (band {}", f.metric, f.value, f.limit, f.band);
    if let Some(b) = f.baseline {
        detail.push_str(&format!(", baseline {b}"));
    }
    detail.push_str(&refused);
    detail.push(')');
    detail
}

/// `; 2 units share this name where the base had 1: its baseline entry covers the
/// largest 1`, on an excess judged without allowance for that reason; empty otherwise.
fn same_name_note(f: &Verdict) -> String {
    let Some(same) = f.same_name.filter(|_| f.status == Status::Excess) else {
        return String::new();
    };
    let units = match same.units {
        1 => "1 unit has this name".to_string(),
        n => format!("{n} units share this name"),
    };
    match same.at_base {
        0 => format!("; {units} where the base had none: its baseline entry covers none"),
        n => format!("; {units} where the base had {n}: its baseline entry covers the largest {n}"),
    }
}

/// A short status word with its numbers, for `measure`'s text output.
pub fn status_text(f: impl Into<Verdict>) -> String {
    let f: Verdict = f.into();
    match f.status {
        Status::Ok => "ok".to_string(),
        Status::Divergence => format!("divergence (limit {}, band {})", f.limit, f.band),
        Status::Tolerated => format!(
            "tolerated (limit {}, band {}, baseline {})",
            f.limit,
            f.band,
            f.baseline.unwrap_or(f.value)
        ),
        Status::Excess => format!("excess: {}", finding_detail(f)),
    }
}

/// `n thing(s)`, `n excess(es)`.
pub fn count(n: usize, what: &str) -> String {
    let plural = if what.ends_with('s') { "(es)" } else { "(s)" };
    format!("{n} {what}{plural}")
}

/// Pretty JSON with a final newline.
pub fn json_text(value: &serde_json::Value) -> String {
    json_of(value)
}

/// A report value as pretty JSON with a final newline.
pub fn json_of<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}
