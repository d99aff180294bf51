//! What `structgate hook` answers an agent's host (docs/src/reference/hook.md): the
//! decision, from what the gate found in the files of one event; the reporter words it.

use super::GateStatus;

/// The event a hook answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// After an edit: only the edited files were judged.
    Edit,
    /// Before the agent (or a subagent) stops: the whole gate ran.
    Stop {
        /// The host says a stop hook already made the agent go on once.
        active: bool,
    },
}

/// What the gate found, as far as the answer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub status: GateStatus,
    /// Files judged by some context's Limits.
    pub judged_files: usize,
    /// Units within their band but over a limit.
    pub divergences: usize,
}

/// The answer, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Nothing judged (an unowned file, another tool, no file named): say nothing.
    Silent,
    /// Judged and within the Limits.
    Pass,
    /// Within the Limits, some units within tolerance: one line, no block.
    Diverged,
    /// Not judged (no base, no terms): one line, never a block.
    NotJudged,
    /// An excess or an unmeasurable file: the model is told to fix it.
    Block,
    /// A failed gate at a stop the host already let go on once: reported, not blocking,
    /// so an agent that cannot fix it isn't looped forever.
    Reported,
    /// A malformed payload or structgate's own error: reported, never blocking the agent
    /// unless `strict`.
    Error { strict: bool },
}

impl Decision {
    /// True when the answer stops the agent to fix something (exit 2, or the
    /// protocol's `"decision": "block"`).
    pub fn blocks(self) -> bool {
        matches!(self, Decision::Block | Decision::Error { strict: true })
    }
}

/// The decision on what the gate found at `moment`.
pub fn decide(moment: Moment, found: Found) -> Decision {
    match (found.status, moment) {
        (GateStatus::NotJudged, _) => Decision::NotJudged,
        (GateStatus::Failed, Moment::Stop { active: true }) => Decision::Reported,
        (GateStatus::Failed, _) => Decision::Block,
        (GateStatus::Passed, Moment::Edit) if found.judged_files == 0 => Decision::Silent,
        (GateStatus::Passed, _) if found.divergences > 0 => Decision::Diverged,
        (GateStatus::Passed, _) => Decision::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(status: GateStatus, judged_files: usize, divergences: usize) -> Found {
        Found {
            status,
            judged_files,
            divergences,
        }
    }

    #[test]
    fn an_edit_of_no_judged_file_is_silent_and_a_failed_stop_blocks_once() {
        let edit = Moment::Edit;
        assert_eq!(
            decide(edit, found(GateStatus::Passed, 0, 0)),
            Decision::Silent
        );
        assert_eq!(
            decide(edit, found(GateStatus::Passed, 1, 2)),
            Decision::Diverged
        );
        assert_eq!(
            decide(edit, found(GateStatus::Failed, 1, 0)),
            Decision::Block
        );
        let first = Moment::Stop { active: false };
        let again = Moment::Stop { active: true };
        assert_eq!(
            decide(first, found(GateStatus::Failed, 3, 0)),
            Decision::Block
        );
        assert_eq!(
            decide(again, found(GateStatus::Failed, 3, 0)),
            Decision::Reported
        );
        assert_eq!(
            decide(again, found(GateStatus::Passed, 0, 0)),
            Decision::Pass
        );
        let none = found(GateStatus::NotJudged, 0, 0);
        assert_eq!(decide(first, none), Decision::NotJudged);
        assert!(!Decision::Error { strict: false }.blocks());
        assert!(Decision::Error { strict: true }.blocks());
    }
}
