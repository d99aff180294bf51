//! The exit code of every command (docs/src/reference/exit-codes.md), chosen here from
//! what the command came to; `main` only hands it to the process.

use std::process::ExitCode;

use clap::ColorChoice;

use super::{Cause, Finding, GateOutcome, GateStatus, Status};

/// The three exit codes of every command (docs/src/reference/exit-codes.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Passed, or not judged.
    Pass = 0,
    /// Findings: an excess, a failed `--check`.
    Findings = 1,
    /// Bad usage, configuration or input; a git failure.
    Error = 2,
}

impl Exit {
    /// Every exit code, in order.
    pub const ALL: [Exit; 3] = [Exit::Pass, Exit::Findings, Exit::Error];

    /// The process's exit code.
    pub fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    /// `1` when `findings`, else `0`.
    fn findings_if(findings: bool) -> Exit {
        if findings {
            Exit::Findings
        } else {
            Exit::Pass
        }
    }

    /// `measure --check` (docs/src/reference/exit-codes.md): `1` on a value past its band
    /// and not tolerated.
    pub fn of_measure(check: bool, findings: &[Finding]) -> Exit {
        let excess = findings.iter().any(|f| f.verdict.status == Status::Excess);
        Exit::findings_if(check && excess)
    }

    /// `baseline init|refresh --check`: `1` when a baseline would change.
    pub fn of_baseline(check: bool, would_change: bool) -> Exit {
        Exit::findings_if(check && would_change)
    }

    /// `baseline accept`: `1` when a value is refused, or with `--check` when anything
    /// would be raised.
    pub fn of_accept(check: bool, refused: usize, raised: usize) -> Exit {
        Exit::findings_if(refused > 0 || (check && raised > 0))
    }

    /// `contracts`: `1` with any finding (docs/src/reference/contracts.md).
    pub fn of_contracts(findings: usize) -> Exit {
        Exit::findings_if(findings > 0)
    }

    /// `gate`: `1` when failed, or, when `--require-judged` asks for it, when not judged or
    /// judged only in part (a terms warning left a limit out of force, or a baseline that
    /// predates anonymous-function units left them unjudged); else `0`.
    pub fn of_gate(outcome: &GateOutcome, require_judged: bool) -> Exit {
        let short = |c: &Cause| {
            matches!(
                c,
                Cause::NothingJudged
                    | Cause::PartlyJudged { .. }
                    | Cause::AnonymousNotJudged { .. }
            )
        };
        let failed = outcome.status == GateStatus::Failed;
        Exit::findings_if(failed || (require_judged && outcome.causes.iter().any(short)))
    }

    /// `structgate hook` (docs/src/reference/hook.md): an answer that blocks is exit 2 in
    /// text, what the hosts feed back to the model; a JSON answer goes with exit 0.
    pub fn of_hook(blocks: bool, json: bool) -> Exit {
        match (blocks, json) {
            (true, false) => Exit::Error,
            _ => Exit::Pass,
        }
    }
}

/// A run that ended without a report: on the command line, or in an error.
#[derive(Debug)]
pub enum Failure {
    /// clap's own: a usage error, or `--help` and `--version` (which clap prints, exit 0).
    Usage(clap::Error),
    /// Bad configuration or input, a git failure (exit 2), printed in the colour `--color`
    /// asked for.
    Error {
        error: anyhow::Error,
        color: ColorChoice,
    },
}

impl Failure {
    /// `2`, but for clap's own `--help` and `--version` (printed on stdout), which are `0`.
    pub fn exit(&self) -> Exit {
        match self {
            Failure::Usage(e) if !e.use_stderr() => Exit::Pass,
            _ => Exit::Error,
        }
    }
}
