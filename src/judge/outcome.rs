//! What a gate run comes to, and why (docs/src/reference/gate.md): its status with the
//! causes that made it so, and its exit code. Reporters say the causes; they never work
//! them out from which lists are empty.

use serde::Serialize;

use super::Finding;

/// What a gate run comes to. JSON: `passed`, `failed`, `not_judged`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateStatus {
    Passed,
    Failed,
    #[default]
    NotJudged,
}

impl GateStatus {
    pub fn key(self) -> &'static str {
        match self {
            GateStatus::Passed => "passed",
            GateStatus::Failed => "failed",
            GateStatus::NotJudged => "not_judged",
        }
    }
}

/// One reason a gate run came to its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Values past their band and not tolerated (`past_band`), and pinned values grown
    /// past their pin within their band (`grown_past_pin`,
    /// docs/src/reference/documents.md#pins-and-tiers): the gate fails.
    Excesses {
        past_band: usize,
        grown_past_pin: usize,
    },
    /// Changed files the branch made unmeasurable (docs/src/reference/gate.md#integrity):
    /// the gate fails.
    Unmeasurable { files: usize },
    /// Directory contract findings in the touched directories
    /// (docs/src/reference/contracts.md): the gate fails.
    ContractFindings { findings: usize },
    /// Judged contexts' terms leave limits out of force (unknown Limits keys,
    /// docs/src/reference/gate.md#terms-warnings): judged in part, which
    /// `--require-judged` fails.
    PartlyJudged { warnings: usize },
    /// Judged contexts' baselines predate anonymous-function units, and changed files
    /// they judge hold some: those units are not judged (docs/src/reference/baseline.md#units),
    /// judged in part, which `--require-judged` fails.
    AnonymousNotJudged { contexts: usize },
    /// The changed files were judged by no context's Limits (the run's not-judged entries
    /// say why): `--require-judged` fails.
    NothingJudged,
}

impl Cause {
    /// True for a cause that fails the gate.
    pub fn fails(self) -> bool {
        matches!(
            self,
            Cause::Excesses { .. } | Cause::Unmeasurable { .. } | Cause::ContractFindings { .. }
        )
    }
}

/// A gate run's status and every cause of it, in the order the reports say them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GateOutcome {
    pub status: GateStatus,
    pub causes: Vec<Cause>,
    /// The changed files were judged by some context's Limits (structure judged; a run
    /// may fail on contracts alone without).
    pub structure_judged: bool,
}

/// What a gate run found, for [`gate_outcome`] to decide on.
#[derive(Debug, Clone, Copy)]
pub struct GateFacts<'a> {
    /// The excesses, one per unit and metric ([`super::worst`]).
    pub excesses: &'a [Finding],
    pub unmeasurable: usize,
    pub contract_findings: usize,
    /// The changed files were judged by some context's Limits.
    pub structure_judged: bool,
    /// Terms warnings that leave a judged context's limits out of force.
    pub terms_warnings: usize,
    /// Judged contexts whose baseline predates the anonymous-function units of the
    /// changed files they judge.
    pub predating_units: usize,
}

/// Failed on an excess, an unmeasurable file or a contract finding; else passed when the
/// changed files were judged, not judged when they weren't (docs/src/reference/gate.md).
pub fn gate_outcome(facts: GateFacts) -> GateOutcome {
    let mut causes = Vec::new();
    let grown_past_pin = facts.excesses.iter().filter(|f| f.verdict.pin_growth());
    let grown_past_pin = grown_past_pin.count();
    if !facts.excesses.is_empty() {
        causes.push(Cause::Excesses {
            past_band: facts.excesses.len() - grown_past_pin,
            grown_past_pin,
        });
    }
    if facts.unmeasurable > 0 {
        causes.push(Cause::Unmeasurable {
            files: facts.unmeasurable,
        });
    }
    if facts.contract_findings > 0 {
        causes.push(Cause::ContractFindings {
            findings: facts.contract_findings,
        });
    }
    let failed = causes.iter().any(|c| c.fails());
    if !facts.structure_judged {
        causes.push(Cause::NothingJudged);
    } else {
        if facts.terms_warnings > 0 {
            causes.push(Cause::PartlyJudged {
                warnings: facts.terms_warnings,
            });
        }
        if facts.predating_units > 0 {
            causes.push(Cause::AnonymousNotJudged {
                contexts: facts.predating_units,
            });
        }
    }
    let status = match (failed, facts.structure_judged) {
        (true, _) => GateStatus::Failed,
        (false, true) => GateStatus::Passed,
        (false, false) => GateStatus::NotJudged,
    };
    GateOutcome {
        status,
        causes,
        structure_judged: facts.structure_judged,
    }
}

impl GateOutcome {
    /// The causes that fail the gate, in order.
    pub fn failures(&self) -> impl Iterator<Item = Cause> + '_ {
        self.causes.iter().copied().filter(|c| c.fails())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Exit, Lines, Status, Verdict};
    use crate::model::Metric;

    /// An excess of `value` over function_lines 10 (band 12); `pin` makes it a pinned
    /// value grown past its pin within its band.
    fn excess(value: u64, pin: Option<u64>) -> Finding {
        Finding {
            path: "src/a.rs".to_string(),
            unit: "f".to_string(),
            verdict: Verdict {
                metric: Metric::FunctionLines,
                value,
                limit: 10,
                band: 12,
                baseline: pin,
                status: Status::Excess,
                pinned: pin.is_some(),
                accepted: None,
                growth_refused: None,
                same_name: None,
            },
            lines: Lines { start: 1, end: 2 },
            base_value: None,
        }
    }

    fn facts(excesses: &[Finding]) -> GateFacts<'_> {
        GateFacts {
            excesses,
            unmeasurable: 0,
            contract_findings: 0,
            structure_judged: true,
            terms_warnings: 0,
            predating_units: 0,
        }
    }

    #[test]
    fn excesses_and_unmeasurable_files_fail_and_are_the_causes() {
        let excesses = [excess(20, None), excess(12, Some(11)), excess(30, None)];
        let outcome = gate_outcome(GateFacts {
            unmeasurable: 1,
            ..facts(&excesses)
        });
        assert_eq!(outcome.status, GateStatus::Failed);
        let failed = [
            Cause::Excesses {
                past_band: 2,
                grown_past_pin: 1,
            },
            Cause::Unmeasurable { files: 1 },
        ];
        assert_eq!(outcome.causes, failed);
        assert_eq!(outcome.failures().collect::<Vec<_>>(), failed);
        assert_eq!(Exit::of_gate(&outcome, false), Exit::Findings);
    }

    #[test]
    fn contract_findings_fail_a_run_that_judged_no_structure() {
        let outcome = gate_outcome(GateFacts {
            contract_findings: 2,
            structure_judged: false,
            ..facts(&[])
        });
        assert_eq!(outcome.status, GateStatus::Failed);
        assert_eq!(
            outcome.causes,
            [
                Cause::ContractFindings { findings: 2 },
                Cause::NothingJudged
            ]
        );
        assert!(!outcome.structure_judged);
    }

    #[test]
    fn not_judged_or_judged_in_part_passes_unless_judging_is_required() {
        let nothing = gate_outcome(GateFacts {
            structure_judged: false,
            ..facts(&[])
        });
        assert_eq!(
            (nothing.status, &nothing.causes[..]),
            (GateStatus::NotJudged, &[Cause::NothingJudged][..])
        );
        let partly = gate_outcome(GateFacts {
            terms_warnings: 1,
            ..facts(&[])
        });
        assert_eq!(
            (partly.status, &partly.causes[..]),
            (
                GateStatus::Passed,
                &[Cause::PartlyJudged { warnings: 1 }][..]
            )
        );
        let whole = gate_outcome(facts(&[]));
        assert_eq!((whole.status, whole.causes.len()), (GateStatus::Passed, 0));
        let exits = |o: &GateOutcome| (Exit::of_gate(o, false), Exit::of_gate(o, true));
        assert_eq!(exits(&nothing), (Exit::Pass, Exit::Findings));
        assert_eq!(exits(&partly), (Exit::Pass, Exit::Findings));
        assert_eq!(exits(&whole), (Exit::Pass, Exit::Pass));
    }

    #[test]
    fn anonymous_units_a_baseline_predates_judge_a_run_in_part() {
        let predating = gate_outcome(GateFacts {
            terms_warnings: 1,
            predating_units: 2,
            ..facts(&[])
        });
        assert_eq!(predating.status, GateStatus::Passed);
        let causes = [
            Cause::PartlyJudged { warnings: 1 },
            Cause::AnonymousNotJudged { contexts: 2 },
        ];
        assert_eq!(predating.causes, causes);
        assert_eq!(Exit::of_gate(&predating, false), Exit::Pass);
        assert_eq!(Exit::of_gate(&predating, true), Exit::Findings);
        let nothing = gate_outcome(GateFacts {
            structure_judged: false,
            predating_units: 1,
            ..facts(&[])
        });
        assert_eq!(nothing.causes, [Cause::NothingJudged]);
    }
}
