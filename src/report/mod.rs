//! The last stage: the only code that prints. Each command's report value is rendered
//! here as text, JSON or TSV.

pub mod baseline;
pub mod gate;
pub mod limits;
pub mod measure;

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

/// Streams output to stdout through a buffer. A closed pipe is not an error.
pub fn print_with(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
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

/// `cache: parsed 2 file(s), 48 from cache` on stderr (with `STRUCTGATE_CACHE_STATS`).
pub fn cache_stats(stats: &crate::cache::Stats) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "cache: parsed {} file(s), {} from cache",
        stats.parsed, stats.cached
    );
    if let Some(why) = &stats.write_error {
        let _ = writeln!(err, "cache: not written: {why}");
    }
}

/// A finding as the JSON object of SPEC §6.
pub fn finding_json(f: &Finding) -> serde_json::Value {
    serde_json::json!({
        "path": f.path,
        "unit": f.unit,
        "metric": f.metric.key(),
        "value": f.value,
        "limit": f.limit,
        "band": f.band,
        "baseline": f.baseline,
        "start_line": f.start_line,
        "end_line": f.end_line,
    })
}

/// `function_lines 92 > 55 (band 68, baseline 91)`: what a finding breaks, in words.
pub fn finding_detail(f: impl Into<Verdict>) -> String {
    let f: Verdict = f.into();
    let mut detail = format!("{} {} > {} (band {}", f.metric, f.value, f.limit, f.band);
    if let Some(b) = f.baseline {
        detail.push_str(&format!(", baseline {b}"));
    }
    detail.push(')');
    detail
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
        Status::Excess => format!("excess: {}", finding_detail(&f)),
    }
}

/// `n thing(s)`, `n excess(es)`.
pub fn count(n: usize, what: &str) -> String {
    let plural = if what.ends_with('s') { "(es)" } else { "(s)" };
    format!("{n} {what}{plural}")
}

/// Pretty JSON with a final newline.
pub fn json_text(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}
