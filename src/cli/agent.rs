//! The arguments of what an agent's host runs: `structgate hook` (docs/src/reference/hook.md).

use clap::Args;

use super::{Format, SizeArgs};

#[derive(Debug, Args)]
pub struct HookArgs {
    /// Answer format: text on stderr with exit 2 when blocking, or the hook protocol's JSON
    /// object on stdout (exit 0)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Block (exit 2) on a malformed event or structgate's own error too; without it
    /// those are reported and the agent goes on
    #[arg(long)]
    pub strict: bool,
    /// A base to take the merge-base with (repeatable), as for the gate
    #[arg(long = "base", value_name = "REV")]
    pub bases: Vec<String>,
    #[command(flatten)]
    pub size: SizeArgs,
}
