//! structgate: limits reader → measurer → baseline → git feed → one judge → report.
//!
//! `main.rs` hands the command line to [`run_with_args`] and the exit code that comes
//! back to the process; everything below returns values. This module wires a command to
//! its report and returns the exit code the judge chose (`judge/exit.rs`).
//!
//! The layout (docs/dev/architecture.md, the same one), stage by stage:
//! - the edge: `main.rs`, `cli.rs`, `lib.rs`;
//! - wiring: `commands/` (one module per subcommand; `commands/gate/`: `base`,
//!   `branch_tree`, `changed_files`, `ahead`, `docs`, `contracts`, `moves`, `review`,
//!   `sandbox`, `merge`);
//! - readers: `context/`, `limits/`, `baseline/`, `terms/`, `contracts/`, `yaml/`,
//!   `source.rs`, `nearest.rs`;
//! - git: `git/`, the only code that touches gix;
//! - measure: `measure/`, `lang/`, `work_tree.rs`, `cache/`;
//! - decide: `judge/`, every decision (verdicts, the ratchet, each changed file's fate,
//!   the gate's outcome and its causes, exit codes);
//! - data: `model/`, `reason/`, `relpath.rs`, `lines.rs`;
//! - print: `report/`, the only code that prints.
//!
//! No module names another that names it back (`tests/module_graph.rs`).

pub mod baseline;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod context;
pub mod contracts;
pub mod git;
pub mod judge;
pub mod lang;
pub mod limits;
pub mod lines;
pub mod measure;
pub mod model;
pub mod nearest;
pub mod reason;
pub mod relpath;
pub mod report;
pub mod source;
pub mod terms;
#[cfg(test)]
mod thread_cpu;
pub mod work_tree;
pub mod yaml;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context as _, Result};

use crate::cli::{BaselineCommand, Command, Format, GateFormat, MeasureFormat};
use crate::report::console::Console;

pub use judge::exit::{Exit, Failure};

/// Set by `main` ([`ends_process`]): the process ends when the command returns.
static ENDS_PROCESS: AtomicBool = AtomicBool::new(false);

/// Tells the run that the process ends when the command returns (what `main` says): a
/// full-tree report is then left to the process's end instead of being freed value by
/// value, a twentieth of a warm `measure` of a large tree. Called in process (tests), a
/// run frees everything.
pub fn ends_process() {
    ENDS_PROCESS.store(true, Ordering::Relaxed);
}

/// What `last` makes of `value`, the command's last use of it; then `value` is left to
/// the process's end where the process ends with the command ([`ends_process`]), dropped
/// otherwise.
fn leave_to_exit<T, R>(value: T, last: impl FnOnce(&T) -> R) -> R {
    let out = last(&value);
    if ENDS_PROCESS.load(Ordering::Relaxed) {
        std::mem::forget(value);
    }
    out
}

/// Parses a command line (the program's name first) and runs it: what `main` does, in
/// process, so tests can call it.
pub fn run_with_args<I, T>(args: I) -> Result<Exit, Failure>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = cli::try_parse_from(args).map_err(Failure::Usage)?;
    let color = cli.color;
    run(cli).map_err(|error| Failure::Error { error, color })
}

/// Runs one parsed command line.
pub fn run(cli: cli::Cli) -> Result<Exit> {
    let console = Console::new(cli.color, cli.quiet, cli.verbose);
    let cwd = match cli.dir {
        Some(dir) => dir,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let con = &console;
    let measures = matches!(
        cli.command,
        Command::Measure(_)
            | Command::Gate(_)
            | Command::Init(_)
            | Command::Baseline(
                BaselineCommand::Init(_) | BaselineCommand::Refresh(_) | BaselineCommand::Accept(_)
            )
    );
    if measures {
        // A grammar that won't load is exit 2 naming it (docs/src/reference/gate.md), not a file skipped.
        measure::check_grammars()?;
    }
    match cli.command {
        Command::Measure(args) => run_measure(cwd, args, con),
        Command::Limits(args) => run_limits(cwd, args, con),
        Command::Baseline(BaselineCommand::Init(args)) => {
            run_baseline(cwd, args, commands::baseline::Mode::Init, con)
        }
        Command::Baseline(BaselineCommand::Refresh(args)) => {
            run_baseline(cwd, args, commands::baseline::Mode::Refresh, con)
        }
        Command::Baseline(BaselineCommand::Accept(args)) => run_accept(cwd, args, con),
        Command::Contracts(args) => run_contracts(cwd, args, con),
        Command::Init(args) => run_init(cwd, args, con),
        Command::Baseline(BaselineCommand::Merge {
            base,
            ours,
            theirs,
            name,
        }) => {
            let request = commands::merge_driver::Request {
                base: cwd.join(base),
                ours: cwd.join(ours),
                theirs: cwd.join(theirs),
                name,
            };
            run_merge(&request, con)
        }
        Command::Gate(args) => run_gate(cwd, args, con),
        Command::Hook(args) => Ok(run_hook(cwd, args, con)),
        Command::Completions { shell } => run_completions(shell),
    }
}

fn options(size: &cli::SizeArgs) -> measure::Options {
    measure::Options {
        max_file_size: size.max_file_size,
        parse_timeout: std::time::Duration::from_secs(size.parse_timeout),
        ..measure::Options::default()
    }
}

fn run_measure(cwd: PathBuf, args: cli::MeasureArgs, console: &Console) -> Result<Exit> {
    if let Some(file) = &args.dump_tree {
        console.print(&commands::measure::dump_tree(&cwd, file)?)?;
        return Ok(Exit::Pass);
    }
    let request = commands::measure::Request {
        cwd,
        paths: args.paths,
        contexts: args.contexts,
        options: options(&args.size),
        cache: !args.size.no_cache,
        over_only: args.over,
    };
    let streamed = match args.format {
        MeasureFormat::Json => Some(report::measure::Format::Json),
        MeasureFormat::Tsv => Some(report::measure::Format::Tsv),
        _ => None,
    }
    .filter(|_| console.can_stream());
    if let Some(format) = streamed {
        let rep = run_measure_streamed(&request, format, console)?;
        return Ok(rep.exit(args.check));
    }
    let bar = console.bar(report::progress::MEASURE_MIN_FILES, "measuring");
    let quiet = console.level == report::console::Level::Quiet;
    // The text keeps each file packed until the last is measured ([`report::measure::Kept`]).
    let mut kept = report::measure::Kept::default();
    let rep = if quiet || matches!(args.format, MeasureFormat::Sarif | MeasureFormat::Github) {
        // SARIF and GitHub commands name findings and skipped files only; `--quiet`
        // prints no file at all.
        commands::measure::run_each(&request, &bar, false, &mut |_, _| Ok(()))?
    } else if args.format == MeasureFormat::Text {
        let pack: commands::measure::Packer<_> = &report::measure::Kept::pack;
        let keep = &mut |_: &_, file: &_, packed: Option<_>| {
            if let Some(packed) = packed {
                kept.add(file, packed);
            }
            Ok(())
        };
        commands::measure::run_packing(&request, &bar, (false, Some(pack)), keep)?
    } else {
        commands::measure::run_with(&request, &bar)?
    };
    report_notes(&rep, console);
    let text = match args.format {
        MeasureFormat::Text => {
            let paint = console.out;
            console.print_with(|out| report::measure::write_kept(&rep, &kept, paint, out))?;
            None
        }
        MeasureFormat::Sarif => Some(report::sarif::measure(&rep)),
        MeasureFormat::Github => Some(report::github::measure(&rep)),
        MeasureFormat::Json => Some(report::measure::json(&rep)),
        MeasureFormat::Tsv => Some(report::measure::tsv(&rep)),
    };
    if let Some(text) = text {
        console.print(&text)?;
    }
    Ok(leave_to_exit(rep, |rep| rep.exit(args.check)))
}

/// `measure` written file by file as the files are measured: a full-tree report is never
/// held.
fn run_measure_streamed(
    request: &commands::measure::Request,
    format: report::measure::Format,
    console: &Console,
) -> Result<commands::measure::MeasureReport> {
    let bar = console.bar(report::progress::MEASURE_MIN_FILES, "measuring");
    let mut out = console.stream();
    let mut stream = report::measure::Stream::new(format, &mut out);
    let rep = commands::measure::run_each(request, &bar, false, &mut |r, f| stream.file(r, f))?;
    stream.finish(&rep)?;
    out.finish()?;
    report_notes(&rep, console);
    Ok(rep)
}

/// A measure run's warnings, `--verbose` lines and cache statistics, on stderr.
fn report_notes(rep: &commands::measure::MeasureReport, console: &Console) {
    console.warn(&rep.warnings);
    console.warn_syntax(&rep.syntax_errors);
    console.verbose(&report::measure::verbose(rep));
    console.cache(&rep.cache);
}

fn run_limits(cwd: PathBuf, args: cli::LimitsArgs, console: &Console) -> Result<Exit> {
    let request = commands::limits::Request {
        cwd,
        contexts: args.contexts,
    };
    let rep = commands::limits::run(&request)?;
    console.warn(&rep.terms.warnings);
    console.print(&match args.format {
        Format::Text => report::limits::text(&rep),
        Format::Json => report::limits::json(&rep),
    })?;
    Ok(Exit::Pass)
}

fn run_baseline(
    cwd: PathBuf,
    args: cli::BaselineArgs,
    mode: commands::baseline::Mode,
    console: &Console,
) -> Result<Exit> {
    let request = commands::baseline::Request {
        cwd,
        contexts: args.contexts,
        check: args.check,
        mode,
        options: options(&args.size),
        cache: !args.size.no_cache,
    };
    let rep = commands::baseline::run_with(&request, &console.bar(1, "measuring"))?;
    console.cache(&rep.cache);
    console.warn(&rep.warnings);
    console.warn_syntax(&rep.syntax_errors);
    console.print(&match args.format {
        Format::Text => report::baseline::text(&rep),
        Format::Json => report::baseline::json(&rep),
    })?;
    Ok(rep.exit())
}

fn run_accept(cwd: PathBuf, args: cli::AcceptArgs, console: &Console) -> Result<Exit> {
    let request = commands::accept::Request {
        cwd,
        paths: args.paths,
        check: args.check,
        options: options(&args.size),
        cache: !args.size.no_cache,
    };
    let rep = commands::accept::run(&request)?;
    console.cache(&rep.cache);
    console.warn(&rep.warnings);
    console.print(&match args.format {
        Format::Text => report::baseline::accept_text(&rep),
        Format::Json => report::baseline::accept_json(&rep),
    })?;
    Ok(rep.exit())
}

fn run_gate(cwd: PathBuf, args: cli::GateArgs, console: &Console) -> Result<Exit> {
    let request = commands::gate::Request {
        cwd,
        sandboxes: args.sandboxes,
        bases: args.bases,
        start: args.start,
        options: options(&args.size),
        staged: args.staged,
        accept_growth: args.accept_growth,
        only: None,
    };
    let rep = commands::gate::run(&request)?;
    console.warn(&rep.warnings);
    console.verbose(&report::gate::verbose(&rep));
    console.cache(&rep.cache);
    if let Some(path) = &args.pr_summary {
        report::gate::write_pr_summary(&rep, path)?;
    }
    console.print(&match args.format {
        GateFormat::Text => report::gate::text(&rep, console.out),
        GateFormat::Json => report::gate::json(&rep),
        GateFormat::Sarif => report::sarif::gate(&rep),
        GateFormat::Github => report::github::gate(&rep),
    })?;
    Ok(rep.exit(args.require_judged))
}

/// `structgate hook`: never an error of its own (docs/src/reference/hook.md): a broken
/// hook must not wedge the agent, so a failure is answered like any other event.
fn run_hook(cwd: PathBuf, args: cli::HookArgs, console: &Console) -> Exit {
    let answer = read_stdin().and_then(|payload| {
        measure::check_grammars()?;
        commands::hook::run(&commands::hook::Request {
            cwd,
            payload,
            bases: args.bases,
            options: options(&args.size),
        })
    });
    let rep = answer.unwrap_or_else(|e| commands::hook::HookReport::failed(&e, args.strict));
    let json = args.format == Format::Json;
    let blocks = rep.decision.blocks();
    if json && blocks {
        let _ = console.print(&report::hook::json(&rep));
    } else {
        console.note(&report::hook::message(&rep));
    }
    Exit::of_hook(blocks, json)
}

fn read_stdin() -> Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("reading the hook event on stdin")?;
    Ok(bytes)
}

fn run_init(cwd: PathBuf, args: cli::InitArgs, console: &Console) -> Result<Exit> {
    let request = commands::init::Request {
        cwd,
        dir: args.context_dir,
        langs: args.langs,
        options: options(&args.size),
        cache: !args.size.no_cache,
        agent_docs: !args.no_agent_docs,
        agents: args.agents,
    };
    if let Some(added) = commands::init::hooks_only(&request)? {
        console.print(&report::init::agents(&added))?;
        return Ok(Exit::Pass);
    }
    let rep = commands::init::run(&request)?;
    console.warn(&rep.baseline.warnings);
    console.warn_syntax(&rep.baseline.syntax_errors);
    console.print(&report::init::text(&rep))?;
    Ok(Exit::Pass)
}

fn run_contracts(cwd: PathBuf, args: cli::ContractsArgs, console: &Console) -> Result<Exit> {
    let request = commands::contracts::Request {
        cwd,
        paths: args.paths,
    };
    let outcome = commands::contracts::run(&request)?;
    console.print(&match args.format {
        Format::Text => report::contracts::text(&outcome),
        Format::Json => report::contracts::json(&outcome),
    })?;
    Ok(Exit::of_contracts(outcome.findings.len()))
}

fn run_merge(request: &commands::merge_driver::Request, console: &Console) -> Result<Exit> {
    let rep = commands::merge_driver::run(request)?;
    console.warn(&rep.warnings);
    console.verbose(&[report::baseline::merged(&rep)]);
    Ok(Exit::Pass)
}

fn run_completions(shell: clap_complete::Shell) -> Result<Exit> {
    use clap::CommandFactory as _;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), "structgate", &mut script);
    report::print(&String::from_utf8_lossy(&script))?;
    Ok(Exit::Pass)
}
