//! Why a file or a context was not measured or not judged (docs/src/reference/gate.md, docs/src/reference/gate.md#integrity, docs/src/reference/json.md#measure). Each
//! reason is a value with a stable kebab-case code (the JSON `reason`), a description of
//! what the code means (the table of docs/src/reference/reason-codes.md), and a sentence with its particulars
//! (`Display`: the text output and the JSON `detail`): the measurer's in `measure`, the
//! gate's in `gate`.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct as _, Serializer};

mod gate;
mod measure;

pub use gate::{NotJudgedReason, TermsWarningKind, Unmeasurable, GENERATED_CLAIM};
pub use measure::{LeftOutReason, SkipReason, NAME_BUDGET_BYTES};

/// A reason with a stable code, as cargo-deny gives its diagnostics.
pub trait Reason: fmt::Display {
    /// The stable kebab-case code.
    fn code(&self) -> &'static str;
    /// What the code means, whatever the particulars.
    fn description(&self) -> &'static str;
}

/// A file named with the reason it was not measured or not judged; serialised as
/// `{"path", "reason": code, "detail": sentence}`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileReason<R> {
    pub path: String,
    pub reason: R,
}

impl<R> FileReason<R> {
    pub fn new(path: &str, reason: R) -> FileReason<R> {
        FileReason {
            path: path.to_string(),
            reason,
        }
    }
}

impl<R: Reason> Serialize for FileReason<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("FileReason", 3)?;
        s.serialize_field("path", &self.path)?;
        s.serialize_field("reason", self.reason.code())?;
        s.serialize_field("detail", &self.reason.to_string())?;
        s.end()
    }
}

/// Every code, once, with its description, in the order docs/src/reference/reason-codes.md
/// lists them (tests/doc_book.rs checks the page against it): why a
/// file was skipped, left out or unmeasurable, why the gate judged nothing, then what
/// its terms warnings say.
pub fn every_code() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<(&str, &str)> = Vec::new();
    let mut add = |reason: &dyn Reason| {
        if !all.iter().any(|(code, _)| *code == reason.code()) {
            all.push((reason.code(), reason.description()));
        }
    };
    SkipReason::examples().iter().for_each(|r| add(r));
    LeftOutReason::examples().iter().for_each(|r| add(r));
    add(&Unmeasurable::DirectiveInComment { line: 1 });
    add(&Unmeasurable::UnicodeEscape { line: 1 });
    NotJudgedReason::ALL.iter().for_each(|r| add(r));
    TermsWarningKind::ALL.iter().for_each(|r| add(r));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_kebab_case() {
        for (code, _) in every_code() {
            let kebab = code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit());
            assert!(
                kebab && !code.starts_with('-') && !code.ends_with('-'),
                "{code}"
            );
        }
    }

    #[test]
    fn a_file_reason_is_its_path_code_and_sentence_in_json() {
        let listed = FileReason::new("src/A.cs", SkipReason::TooLarge { size: 93, max: 10 });
        assert_eq!(
            serde_json::to_value(&listed).unwrap(),
            serde_json::json!({"path": "src/A.cs", "reason": "too-large",
                "detail": "larger than --max-file-size (93 > 10 bytes)"})
        );
        let directive = FileReason::new("a.cs", Unmeasurable::DirectiveInComment { line: 5 });
        assert_eq!(
            serde_json::to_value(&directive).unwrap()["detail"],
            "a preprocessor directive inside a block comment at line 5"
        );
        assert_eq!(
            serde_json::to_value(NotJudgedReason::GitFailed).unwrap(),
            "git-failed"
        );
    }
}
