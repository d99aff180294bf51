//! The command line (clap derive). These structs stay at the edge: `lib.rs` turns them
//! into the typed options each command takes.

use std::path::PathBuf;

use clap::{Args, ColorChoice, Parser, Subcommand, ValueEnum};

mod agent;

pub use agent::HookArgs;

/// Parses a command line (the program's name first), colouring clap's own help and usage
/// errors as `--color` says (clap decides its colours before it has parsed `--color`).
/// `--help`, `--version` and a usage error come back as clap's error, for the caller to
/// print: nothing here exits.
pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory as _, FromArgMatches as _};
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let mut command = Cli::command();
    if let Some(choice) = color_asked(&args) {
        command = command.color(choice);
    }
    let matches = command.try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

/// The last `--color WHEN` or `--color=WHEN` before any `--`, when WHEN is valid.
fn color_asked(args: &[std::ffi::OsString]) -> Option<ColorChoice> {
    let mut asked = None;
    let mut args = args.iter().skip(1).map(|a| a.to_str());
    while let Some(arg) = args.next() {
        let when = match arg {
            Some("--") => break,
            Some("--color") => args.next().flatten(),
            Some(a) => a.strip_prefix("--color="),
            None => None,
        };
        if let Some(choice) = when.and_then(|w| ColorChoice::from_str(w, false).ok()) {
            asked = Some(choice);
        }
    }
    asked
}

/// What structgate does, in one line, naming the languages it measures.
fn about() -> String {
    format!(
        "Keeps {} code, and Markdown documents, inside the size limits its team wrote down",
        crate::model::Language::code_languages()
    )
}

fn long_about() -> String {
    format!(
        "{}.\n\n\
        Limits live in each context's principles.md; units already past them are recorded \
        in structure-baseline.tsv; the gate judges only what a branch changed since its \
        merge-base, by the terms as they were at that base.\n\n\
        Exit codes: 0 passed (or not judged), 1 findings or a failed --check, 2 bad usage, \
        bad configuration or input, or a git failure.",
        about()
    )
}

#[derive(Debug, Parser)]
#[command(
    name = "structgate",
    version,
    about = about(),
    long_about = long_about(),
    after_help = "Guide: docs/src/getting-started.md"
)]
pub struct Cli {
    /// Run as if started in DIR
    #[arg(short = 'C', global = true, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Colour: auto (a terminal, NO_COLOR unset), always or never
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Print nothing but errors; the exit code tells the result
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Also say which files were judged or measured, and why others weren't (stderr)
    #[arg(short, long, global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure files and directories and print every unit with its lines
    #[command(after_help = "Guide: docs/src/commands/measure.md")]
    Measure(MeasureArgs),
    /// Show each context's effective limits, bands and baseline state
    #[command(after_help = "Guide: docs/src/commands/limits.md")]
    Limits(LimitsArgs),
    /// Write, tighten, raise or merge structure-baseline.tsv
    #[command(subcommand, after_help = "Guide: docs/src/commands/baseline.md")]
    Baseline(BaselineCommand),
    /// Judge what the branch changed since its merge-base, by the base's terms
    #[command(after_help = "Guide: docs/src/commands/gate.md")]
    Gate(GateArgs),
    /// Answer an agent's hook event on stdin: exit 2 with a message for the model on an
    /// excess
    ///
    /// After an edit (PostToolUse) the edited files are judged as the gate judges them;
    /// before the agent stops (Stop, SubagentStop) the whole gate runs. Claude Code's and
    /// Codex's events are read. A malformed event or an error is reported and exits 0
    /// unless --strict.
    #[command(after_help = "Guide: docs/src/commands/hook.md")]
    Hook(HookArgs),
    /// Check that every directory of a managed tree carries a contract (README.md)
    #[command(after_help = "Guide: docs/src/commands/contracts.md")]
    Contracts(ContractsArgs),
    /// Set a context up: context.yaml from the project files, principles.md with default
    /// Limits, then its validation and baseline
    #[command(after_help = "Guide: docs/src/commands/init.md")]
    Init(InitArgs),
    /// Print a shell completion script
    #[command(after_help = "Guide: docs/src/commands/completions.md")]
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Subcommand)]
pub enum BaselineCommand {
    /// Write a baseline for each context with limits that has none
    #[command(after_help = "Guide: docs/src/commands/baseline.md")]
    Init(BaselineArgs),
    /// Tighten each baseline to what the code now measures
    #[command(after_help = "Guide: docs/src/commands/baseline.md")]
    Refresh(BaselineArgs),
    /// Record a deliberate growth: raise the pins of the files at or below PATH to
    /// their current values, within their bands (all or nothing)
    #[command(after_help = "Guide: docs/src/commands/baseline.md")]
    Accept(AcceptArgs),
    /// Git merge driver: merge two branches' baselines entry by entry into OURS
    #[command(after_help = "Guide: docs/src/integrations/merge-driver.md")]
    Merge {
        /// The common ancestor's version (git's %O)
        #[arg(value_name = "BASE")]
        base: PathBuf,
        /// Our version, replaced by the merged result (git's %A)
        #[arg(value_name = "OURS")]
        ours: PathBuf,
        /// Their version (git's %B)
        #[arg(value_name = "THEIRS")]
        theirs: PathBuf,
        /// The baseline's path in the repository, for messages (git's %P)
        #[arg(value_name = "PATH")]
        name: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MeasureFormat {
    Text,
    Json,
    Tsv,
    Sarif,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GateFormat {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Options every measuring command shares.
#[derive(Debug, Clone, Args)]
pub struct SizeArgs {
    /// Skip files larger than this many bytes (a plain number)
    #[arg(long, value_name = "BYTES", default_value_t = crate::measure::DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,
    /// Skip a file whose parse takes longer than this many seconds (0: no limit)
    #[arg(long, value_name = "SECONDS", default_value_t = crate::measure::DEFAULT_PARSE_TIMEOUT_SECS)]
    pub parse_timeout: u64,
    /// Measure every file afresh: neither read nor write the cache in .git/structgate
    #[arg(long)]
    pub no_cache: bool,
}

#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// Files and directories to measure
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = MeasureFormat::Text)]
    pub format: MeasureFormat,
    /// Exit 1 when a unit is past its band and not tolerated by the baseline
    #[arg(long)]
    pub check: bool,
    /// List only the files and units over a limit (divergences, tolerated units and
    /// excesses); the summary still counts everything measured (text format)
    #[arg(long)]
    pub over: bool,
    /// Only files of the context in DIR (repeatable)
    #[arg(long = "context", value_name = "DIR")]
    pub contexts: Vec<PathBuf>,
    /// Print the syntax tree of FILE instead: each node's kind and lines, and what the walk
    /// made of it (a unit, a scope, an attribute, a test item, or left alone)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["check", "contexts", "format"])]
    pub dump_tree: Option<PathBuf>,
    #[command(flatten)]
    pub size: SizeArgs,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The directory of the new context
    #[arg(value_name = "DIR", default_value = ".")]
    pub context_dir: PathBuf,
    /// Only the project files of this language (repeatable; all without one)
    #[arg(long = "lang", value_enum, value_name = "LANG")]
    pub langs: Vec<crate::model::Language>,
    /// Don't set up the budget context for the documents agents load (AGENTS.md, CLAUDE.md,
    /// their imports, .claude/agents, ...)
    #[arg(long)]
    pub no_agent_docs: bool,
    /// Add `structgate hook` to this agent's project hook settings (repeatable): claude
    /// (.claude/settings.json), codex (.codex/hooks.json); alone on a directory already
    /// set up
    #[arg(long = "agent", value_enum, value_name = "AGENT")]
    pub agents: Vec<crate::commands::init::agent::Agent>,
    #[command(flatten)]
    pub size: SizeArgs,
}

#[derive(Debug, Args)]
pub struct LimitsArgs {
    /// Only the context in DIR (repeatable)
    #[arg(long = "context", value_name = "DIR")]
    pub contexts: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Write nothing; print what would change and exit 1 if anything would
    #[arg(long)]
    pub check: bool,
    /// Only the context in DIR (repeatable)
    #[arg(long = "context", value_name = "DIR")]
    pub contexts: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub size: SizeArgs,
}

#[derive(Debug, Args)]
pub struct AcceptArgs {
    /// Files or directories whose pinned units grew on purpose
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// Write nothing; print what would be raised and exit 1 if anything would
    #[arg(long)]
    pub check: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub size: SizeArgs,
}

#[derive(Debug, Args)]
pub struct GateArgs {
    /// Working trees of one repository to judge together (default: the current one)
    #[arg(value_name = "DIR")]
    pub sandboxes: Vec<PathBuf>,
    /// A base to take the merge-base with (repeatable, tried in order; a list none of
    /// which names a commit is an error). Default, in order: origin/HEAD, origin/main,
    /// origin/master, main, master, skipping the current branch and its own
    /// remote-tracking ref
    #[arg(long = "base", value_name = "REV")]
    pub bases: Vec<String>,
    /// The commit the run started on: the base is never newer (it is REV when the
    /// merge-base is no ancestor of REV, or when none is found)
    #[arg(long, value_name = "REV")]
    pub start: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = GateFormat::Text)]
    pub format: GateFormat,
    /// Also write Markdown for the pull request to FILE: the status line (passed, failed,
    /// or not judged and why), then, each where there are any, the excesses, unmeasurable
    /// files, directory contract findings, the divergences (when anything was judged),
    /// renamed, left-out and skipped files, terms changed on this branch (not applied) and
    /// baseline entries that can tighten
    #[arg(long, value_name = "FILE")]
    pub pr_summary: Option<PathBuf>,
    /// Exit 1 when the change could not be judged
    #[arg(long)]
    pub require_judged: bool,
    /// Judge the index instead of the working tree: what the commit will hold (the mode
    /// for a pre-commit hook)
    #[arg(long)]
    pub staged: bool,
    /// Honour the pins this branch raised in its own baseline (`baseline accept`), within
    /// the base's bands; for a reviewed pull request check, never an agent's commit gate
    #[arg(long)]
    pub accept_growth: bool,
    #[command(flatten)]
    pub size: SizeArgs,
}

#[derive(Debug, Args)]
pub struct ContractsArgs {
    /// Directories to check (default: the whole repository)
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}
