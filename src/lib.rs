//! structgate: limits reader → measurer → baseline → git feed → one judge → report.
//!
//! `main.rs` parses the command line and calls [`run`]; everything below returns values.

pub mod baseline;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod context;
pub mod git;
pub mod judge;
pub mod lang;
pub mod limits;
pub mod measure;
pub mod model;
pub mod report;
pub mod source;
pub mod terms;
pub mod walk;
pub mod yaml;

use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::cli::{BaselineCommand, Command, Format, MeasureFormat};
use crate::commands::gate::GateStatus;

/// The three exit codes of every command (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Passed, or not judged.
    Pass = 0,
    /// Findings: an excess, a failed `--check`.
    Findings = 1,
    /// Bad usage, configuration or input; a git failure.
    Error = 2,
}

/// Runs one parsed command line.
pub fn run(cli: cli::Cli) -> Result<Exit> {
    let cwd = match cli.dir {
        Some(dir) => dir,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    match cli.command {
        Command::Measure(args) => run_measure(cwd, args),
        Command::Limits(args) => run_limits(cwd, args),
        Command::Baseline(BaselineCommand::Init(args)) => {
            run_baseline(cwd, args, commands::baseline::Mode::Init)
        }
        Command::Baseline(BaselineCommand::Refresh(args)) => {
            run_baseline(cwd, args, commands::baseline::Mode::Refresh)
        }
        Command::Gate(args) => run_gate(cwd, args),
    }
}

fn options(size: &cli::SizeArgs) -> measure::Options {
    measure::Options {
        max_file_size: size.max_file_size,
        ..measure::Options::default()
    }
}

/// The cache's statistics go to stderr when `STRUCTGATE_CACHE_STATS` is set.
fn cache_stats(stats: &cache::Stats) {
    if std::env::var_os("STRUCTGATE_CACHE_STATS").is_some() {
        report::cache_stats(stats);
    }
}

fn run_measure(cwd: PathBuf, args: cli::MeasureArgs) -> Result<Exit> {
    let request = commands::measure::Request {
        cwd,
        paths: args.paths,
        contexts: args.contexts,
        options: options(&args.size),
        cache: !args.size.no_cache,
    };
    let rep = commands::measure::run(&request)?;
    cache_stats(&rep.cache);
    report::warn(&rep.warnings);
    match args.format {
        MeasureFormat::Text => report::print_with(|out| report::measure::write_text(&rep, out))?,
        MeasureFormat::Json => report::print(&report::measure::json(&rep))?,
        MeasureFormat::Tsv => report::print(&report::measure::tsv(&rep))?,
    }
    Ok(if args.check && rep.has_excess() {
        Exit::Findings
    } else {
        Exit::Pass
    })
}

fn run_limits(cwd: PathBuf, args: cli::LimitsArgs) -> Result<Exit> {
    let request = commands::limits::Request {
        cwd,
        contexts: args.contexts,
    };
    let terms = commands::limits::run(&request)?;
    report::warn(&terms.warnings);
    report::print(&match args.format {
        Format::Text => report::limits::text(&terms),
        Format::Json => report::limits::json(&terms),
    })?;
    Ok(Exit::Pass)
}

fn run_baseline(
    cwd: PathBuf,
    args: cli::BaselineArgs,
    mode: commands::baseline::Mode,
) -> Result<Exit> {
    let request = commands::baseline::Request {
        cwd,
        contexts: args.contexts,
        check: args.check,
        mode,
        options: options(&args.size),
        cache: !args.size.no_cache,
    };
    let rep = commands::baseline::run(&request)?;
    cache_stats(&rep.cache);
    report::warn(&rep.warnings);
    report::print(&match args.format {
        Format::Text => report::baseline::text(&rep),
        Format::Json => report::baseline::json(&rep),
    })?;
    Ok(if args.check && rep.would_change() {
        Exit::Findings
    } else {
        Exit::Pass
    })
}

fn run_gate(cwd: PathBuf, args: cli::GateArgs) -> Result<Exit> {
    let request = commands::gate::Request {
        cwd,
        sandboxes: args.sandboxes,
        bases: args.bases,
        start: args.start,
        options: options(&args.size),
        cache: !args.size.no_cache,
    };
    let rep = commands::gate::run(&request)?;
    cache_stats(&rep.cache);
    report::warn(&rep.warnings);
    if let Some(path) = &args.pr_summary {
        std::fs::write(path, report::gate::pr_summary(&rep))
            .with_context(|| format!("writing --pr-summary {}", path.display()))?;
    }
    report::print(&match args.format {
        Format::Text => report::gate::text(&rep),
        Format::Json => report::gate::json(&rep),
    })?;
    Ok(match rep.status {
        GateStatus::Failed => Exit::Findings,
        GateStatus::NotJudged if args.require_judged => Exit::Findings,
        _ => Exit::Pass,
    })
}
