//! The terminal as the global options shape it: `--color`, `--quiet`, `--verbose`.
//! Commands hand their report values here; this decides what reaches stdout and stderr.

use std::io::{IsTerminal as _, Write as _};

use clap::ColorChoice;

use super::progress::Bar;
use super::style::{Paint, Role};

/// How much is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Errors only; the exit code tells the rest.
    Quiet,
    Normal,
    /// Also which files were judged or measured and why others weren't (stderr).
    Verbose,
}

/// Where output goes and how it looks, decided once per run.
#[derive(Debug, Clone, Copy)]
pub struct Console {
    /// Colour for stdout (text reports).
    pub out: Paint,
    /// Colour for stderr (warnings, notes, errors).
    pub err: Paint,
    pub level: Level,
}

impl Console {
    pub fn new(color: ColorChoice, quiet: bool, verbose: bool) -> Console {
        let level = match (quiet, verbose) {
            (true, _) => Level::Quiet,
            (false, true) => Level::Verbose,
            (false, false) => Level::Normal,
        };
        Console {
            out: Paint::for_stream(color, false),
            err: Paint::for_stream(color, true),
            level,
        }
    }

    /// Writes a report to stdout, unless quiet.
    pub fn print(&self, text: &str) -> std::io::Result<()> {
        if self.level == Level::Quiet {
            return Ok(());
        }
        super::print(text)
    }

    /// Streams a report to stdout through a buffer, unless quiet. A closed pipe
    /// (`structgate measure | head`) is not an error.
    pub fn print_with(
        &self,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if self.level == Level::Quiet {
            return Ok(());
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        match write(&mut out).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }

    /// Stdout for a report written while the run still measures: buffered, and nothing
    /// when quiet. A closed pipe (`structgate measure | head`) discards the rest.
    pub fn stream(&self) -> Stream {
        let out = (self.level != Level::Quiet)
            .then(|| std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()));
        Stream { out, closed: false }
    }

    /// One `warning: ...` line per warning on stderr, unless quiet.
    pub fn warn(&self, warnings: &[String]) {
        if self.level == Level::Quiet {
            return;
        }
        let prefix = self.err.paint(Role::Warn, "warning:");
        let mut err = std::io::stderr().lock();
        for w in warnings {
            let _ = writeln!(err, "{prefix} {w}");
        }
    }

    /// Files with syntax errors (`path: syntax errors at ...`): each with `--verbose`,
    /// else one line, `3 file(s) with syntax errors; -v lists them` (they repeat on every
    /// run of a repository, and each was measured for what parsed).
    pub fn warn_syntax(&self, files: &[String]) {
        if self.level == Level::Verbose || files.is_empty() {
            self.warn(files);
        } else {
            self.warn(&[format!(
                "{} file(s) with syntax errors; -v lists them",
                files.len()
            )]);
        }
    }

    /// Text for stderr as it is (a hook's answer for the model), unless quiet.
    pub fn note(&self, text: &str) {
        if self.level == Level::Quiet || text.is_empty() {
            return;
        }
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }

    /// Lines for `--verbose` only, on stderr so stdout stays one format.
    pub fn verbose(&self, lines: &[String]) {
        if self.level != Level::Verbose {
            return;
        }
        let mut err = std::io::stderr().lock();
        for line in lines {
            let _ = writeln!(err, "{line}");
        }
    }

    /// What the measurement cache did: `cache: parsed N file(s), M from cache` on stderr
    /// with `--verbose` or when `STRUCTGATE_CACHE_STATS` is set; a cache that could not be
    /// written is a warning (the results stand; the next run is slower).
    pub fn cache(&self, stats: &crate::cache::Stats) {
        let line = format!(
            "cache: parsed {} file(s), {} from cache",
            stats.parsed, stats.cached
        );
        if std::env::var_os("STRUCTGATE_CACHE_STATS").is_some() && self.level != Level::Verbose {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
        self.verbose(&[line]);
        if let Some(e) = &stats.write_error {
            self.warn(&[format!("the measurement cache was not saved: {e}")]);
        }
    }

    /// A progress bar on stderr, drawn only on a terminal and not when quiet, for runs of
    /// at least `min_files` files.
    pub fn bar(&self, min_files: u64, label: &'static str) -> Bar {
        let show = self.level != Level::Quiet && std::io::stderr().is_terminal();
        Bar::new(show, min_files, label)
    }

    /// Whether a report may be written while the run still measures: not when stdout is
    /// a terminal, where the lines would cross the progress bar; the report is written
    /// whole at the end there, as it always was.
    pub fn can_stream(&self) -> bool {
        !std::io::stdout().is_terminal()
    }
}

/// Stdout as [`Console::stream`] gives it.
pub struct Stream {
    out: Option<std::io::BufWriter<std::io::Stdout>>,
    /// The reader went away: what is left is discarded.
    closed: bool,
}

impl Stream {
    /// Writes out what is buffered.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.flush()
    }

    fn pass<T>(&mut self, result: std::io::Result<T>, ok: T) -> std::io::Result<T> {
        match result {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(ok)
            }
            other => other,
        }
    }
}

impl std::io::Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match (&mut self.out, self.closed) {
            (Some(out), false) => {
                let written = out.write(buf);
                self.pass(written, buf.len())
            }
            _ => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match (&mut self.out, self.closed) {
            (Some(out), false) => {
                let flushed = out.flush();
                self.pass(flushed, ())
            }
            _ => Ok(()),
        }
    }
}

/// Prints an error once on stderr as `error: ...` (also when quiet).
pub fn error(message: &str, color: ColorChoice) {
    let prefix = Paint::for_stream(color, true).paint(Role::Bad, "error:");
    let _ = writeln!(std::io::stderr().lock(), "{prefix} {message}");
}

/// Prints what ended a run without a report: clap's help, version or usage error as clap
/// formats it (stdout for help and version, stderr for an error), or `error: ...`.
pub fn failure(failure: &crate::judge::Failure) {
    match failure {
        crate::judge::Failure::Usage(e) => {
            let _ = e.print();
        }
        crate::judge::Failure::Error { error: e, color } => error(&format!("{e:#}"), *color),
    }
}
