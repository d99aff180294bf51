//! What structgate says of the terms it judges by: the terms warnings' wording
//! (docs/src/reference/gate.md#terms-warnings) and the sentence `limits`, `measure` and
//! `baseline init` warn with for a limit the baseline doesn't record
//! (docs/src/reference/baseline.md#terms-and-baseline-out-of-step).

use crate::judge::{TermsCause, TermsWarning};
use crate::model::Metric;
use crate::terms::Terms;

/// What a terms warning means, without its file and line (JSON `detail`): `unknown Limits
/// key function_line (did you mean function_lines?): that limit is not in force`.
pub fn detail(w: &TermsWarning) -> String {
    match &w.cause {
        TermsCause::UnknownKey { shown, meant } => {
            let meant = meant.map(|m| format!(" (did you mean {m}?)"));
            format!(
                "unknown Limits key {shown}{}: that limit is not in force",
                meant.unwrap_or_default()
            )
        }
        TermsCause::Unrecorded {
            metric,
            pinned,
            baseline,
        } => unrecorded(&w.file, *metric, *pinned, baseline),
    }
}

/// The `not_judged` detail of a terms warning that leaves a limit out of force: `context
/// app: principles.md:11: unknown Limits key ...`.
pub fn not_judged_detail(w: &TermsWarning) -> String {
    format!(
        "context {}: {}:{}: {}",
        w.context,
        w.file,
        w.line,
        detail(w)
    )
}

/// `principles.md sets type_lines, which structure-baseline.tsv does not record: structgate
/// baseline refresh records today's excesses` (`pinned`: `pins`, and refresh pins today's
/// values).
pub fn unrecorded(principles: &str, metric: Metric, pinned: bool, baseline: &str) -> String {
    let metric = metric.key();
    if pinned {
        format!(
            "{principles} pins {metric}, which {baseline} does not record: structgate \
             baseline refresh pins today's values"
        )
    } else {
        format!(
            "{principles} sets {metric}, which {baseline} does not record: structgate \
             baseline refresh records today's excesses"
        )
    }
}

/// One warning for each limit and pin the chosen contexts' terms set that their
/// baselines' headers don't record, in `limits`, `measure` and `baseline init`.
pub fn unrecorded_warnings(terms: &Terms) -> Vec<String> {
    let said = terms.contexts.iter().flat_map(|c| {
        let (principles, baseline) = (c.context.principles_path(), c.context.baseline_path());
        let unrecorded = c.unrecorded().into_iter();
        unrecorded.map(move |u| self::unrecorded(&principles, u.metric, u.pinned, &baseline))
    });
    said.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reason::TermsWarningKind;

    fn pinned(metric: Metric) -> TermsWarning {
        TermsWarning {
            kind: TermsWarningKind::UnrecordedLimit,
            context: "docs".to_string(),
            file: "docs/principles.md".to_string(),
            line: 12,
            key: "pinned".to_string(),
            cause: TermsCause::Unrecorded {
                metric,
                pinned: true,
                baseline: "docs/structure-baseline.tsv".to_string(),
            },
        }
    }

    #[test]
    fn warnings_of_one_line_sort_as_their_sentences_do() {
        // Two pins set on one line: sorted by their metrics' keys, as their sentences.
        let mut warnings = [pinned(Metric::LoadedBytes), pinned(Metric::FileBytes)];
        warnings.sort();
        let said: Vec<String> = warnings.iter().map(detail).collect();
        assert_eq!(
            said,
            [
                "docs/principles.md pins file_bytes, which docs/structure-baseline.tsv does not \
                 record: structgate baseline refresh pins today's values",
                "docs/principles.md pins loaded_bytes, which docs/structure-baseline.tsv does \
                 not record: structgate baseline refresh pins today's values",
            ]
        );
        let mut sorted = said.clone();
        sorted.sort();
        assert_eq!(said, sorted);
        assert_eq!(
            not_judged_detail(&warnings[0]),
            format!("context docs: docs/principles.md:12: {}", said[0])
        );
    }

    #[test]
    fn an_unknown_key_says_the_key_it_meant() {
        let w = TermsWarning {
            kind: TermsWarningKind::UnknownLimitsKey,
            context: "app".to_string(),
            file: "principles.md".to_string(),
            line: 11,
            key: "function_line".to_string(),
            cause: TermsCause::UnknownKey {
                shown: "function_line".to_string(),
                meant: Some("function_lines"),
            },
        };
        assert_eq!(
            detail(&w),
            "unknown Limits key function_line (did you mean function_lines?): that limit is \
             not in force"
        );
    }
}
