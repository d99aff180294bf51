//! The gate's reasons (docs/src/reference/gate.md, docs/src/reference/gate.md#integrity): why it judged nothing or not every context, and
//! why a changed file fails unmeasured.

use std::fmt;

use serde::ser::{Serialize, Serializer};

use super::{Reason, SkipReason};

/// Why the gate judged nothing, or not every context (docs/src/reference/gate.md "not judged is never
/// silent"). Serialised as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NotJudgedReason {
    /// No merge-base with any base tried, and no `--start` to fall back on.
    NoComparableBase,
    /// One of several sandboxes found no base of its own.
    SandboxNoBase,
    /// No context has Limits and a baseline at the base.
    NoJudgedContext,
    /// This context has no Limits at the base.
    ContextWithoutLimits,
    /// This context has Limits but no baseline at the base.
    ContextWithoutBaseline,
    /// Git couldn't list the changed files.
    GitFailed,
    /// The base's merge-base with HEAD is HEAD itself: nothing committed is compared.
    BaseIsHead,
    /// A judged context's terms at the base hold a key outside the closed list of Limits
    /// keys: the limit it meant is not in force (judged, but not by all its terms).
    UnknownLimitsKey,
    /// A judged context's baseline at the base predates anonymous-function units (no `#
    /// units: 2`): they are not judged in it until `baseline refresh` records them
    /// (docs/src/reference/baseline.md#units).
    BaselinePredatesUnits,
}

impl NotJudgedReason {
    pub const ALL: [NotJudgedReason; 9] = [
        NotJudgedReason::NoComparableBase,
        NotJudgedReason::BaseIsHead,
        NotJudgedReason::SandboxNoBase,
        NotJudgedReason::NoJudgedContext,
        NotJudgedReason::ContextWithoutLimits,
        NotJudgedReason::ContextWithoutBaseline,
        NotJudgedReason::GitFailed,
        NotJudgedReason::UnknownLimitsKey,
        NotJudgedReason::BaselinePredatesUnits,
    ];

    /// The sentence every format gives a not-judged entry: `REASON: DETAIL`, or, where
    /// the detail is advice on the reason rather than its particulars, `REASON (DETAIL)`
    /// (`the base is HEAD itself (on a push, pass --base with the commit before the
    /// push)`, docs/src/reference/gate.md).
    pub fn sentence(&self, detail: &str) -> String {
        match self {
            NotJudgedReason::BaseIsHead => format!("{self} ({detail})"),
            NotJudgedReason::BaselinePredatesUnits => detail.to_string(),
            _ => format!("{self}: {detail}"),
        }
    }

    /// True for partial judging: a judged context judged without some of its terms
    /// (`unknown-limits-key`) or without its anonymous functions
    /// (`baseline-predates-units`); `--require-judged` fails on it.
    pub fn partial(self) -> bool {
        matches!(
            self,
            NotJudgedReason::UnknownLimitsKey | NotJudgedReason::BaselinePredatesUnits
        )
    }

    /// True for the partial judging a terms warning tells (`unknown-limits-key`): the
    /// formats that list terms warnings say it there, naming the file and line, rather
    /// than twice (docs/src/reference/gate.md#terms-warnings).
    pub fn told_as_terms_warning(self) -> bool {
        self == NotJudgedReason::UnknownLimitsKey
    }
}

impl Reason for NotJudgedReason {
    fn code(&self) -> &'static str {
        match self {
            NotJudgedReason::NoComparableBase => "no-comparable-base",
            NotJudgedReason::SandboxNoBase => "sandbox-no-base",
            NotJudgedReason::NoJudgedContext => "no-judged-context",
            NotJudgedReason::ContextWithoutLimits => "context-without-limits",
            NotJudgedReason::ContextWithoutBaseline => "context-without-baseline",
            NotJudgedReason::GitFailed => "git-failed",
            NotJudgedReason::BaseIsHead => "base-is-head",
            NotJudgedReason::UnknownLimitsKey => "unknown-limits-key",
            NotJudgedReason::BaselinePredatesUnits => "baseline-predates-units",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            NotJudgedReason::NoComparableBase => "no comparable base",
            NotJudgedReason::SandboxNoBase => "a sandbox has no comparable base of its own",
            NotJudgedReason::NoJudgedContext => {
                "no context with Limits and a baseline at the merge-base"
            }
            NotJudgedReason::ContextWithoutLimits => "no Limits at the merge-base",
            NotJudgedReason::ContextWithoutBaseline => "no baseline at the merge-base",
            NotJudgedReason::GitFailed => "git couldn't list the changed files",
            NotJudgedReason::BaseIsHead => "the base is HEAD itself",
            NotJudgedReason::UnknownLimitsKey => {
                "an unknown Limits key at the base: the limit it meant is not in force"
            }
            NotJudgedReason::BaselinePredatesUnits => {
                "anonymous functions not judged: the baseline predates them"
            }
        }
    }
}

impl fmt::Display for NotJudgedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl Serialize for NotJudgedReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// What a terms warning of the gate says (docs/src/reference/gate.md#terms-warnings);
/// serialised as its code (JSON `terms_warnings[].kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TermsWarningKind {
    /// A key outside the closed list of Limits keys: the limit it meant is not in force.
    UnknownLimitsKey,
    /// A limit or pin the terms set that the baseline's `# measured with:` header doesn't
    /// record: in force, but the baseline was never refreshed for it.
    UnrecordedLimit,
}

impl TermsWarningKind {
    pub const ALL: [TermsWarningKind; 2] = [
        TermsWarningKind::UnknownLimitsKey,
        TermsWarningKind::UnrecordedLimit,
    ];

    /// The partial judging it makes (`not_judged[].reason`), where it makes one: an
    /// unrecorded limit is in force, so its context is judged whole.
    pub fn partly_judged(self) -> Option<NotJudgedReason> {
        match self {
            TermsWarningKind::UnknownLimitsKey => Some(NotJudgedReason::UnknownLimitsKey),
            TermsWarningKind::UnrecordedLimit => None,
        }
    }
}

impl Reason for TermsWarningKind {
    fn code(&self) -> &'static str {
        match self {
            TermsWarningKind::UnknownLimitsKey => NotJudgedReason::UnknownLimitsKey.code(),
            TermsWarningKind::UnrecordedLimit => "unrecorded-limit",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            TermsWarningKind::UnknownLimitsKey => NotJudgedReason::UnknownLimitsKey.description(),
            TermsWarningKind::UnrecordedLimit => {
                "the terms at the base set a limit or pin their baseline's header doesn't \
                 record: in force, never refreshed for"
            }
        }
    }
}

impl fmt::Display for TermsWarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl Serialize for TermsWarningKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// What the gate says of a file new on the branch that it judged although the file's own
/// header says it is generated (docs/src/reference/gate.md#integrity).
pub const GENERATED_CLAIM: &str = "judged although it says it is generated: new files are \
                                   left out as generated only by the base's path rules and \
                                   exclude globs";

/// Why a changed file fails the gate unmeasured (docs/src/reference/gate.md#integrity): the branch gave it a form
/// structgate skips, or C# whose structure the compiler reads differently from the
/// grammar.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unmeasurable {
    /// A form of the file's bytes the measurer skips ([`SkipReason::is_unmeasurable_form`]).
    Form(SkipReason),
    /// A block comment holding a line that begins with a preprocessor directive, at this
    /// line, where the base's version of the file had none.
    DirectiveInComment { line: u32 },
    /// A Java Unicode escape outside string and character literals that decodes to a
    /// comment or literal delimiter, at this line, where the base's version of the file
    /// had none.
    UnicodeEscape { line: u32 },
}

impl Reason for Unmeasurable {
    fn code(&self) -> &'static str {
        match self {
            Unmeasurable::Form(reason) => reason.code(),
            Unmeasurable::DirectiveInComment { .. } => "directive-in-comment",
            Unmeasurable::UnicodeEscape { .. } => "unicode-escape",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            Unmeasurable::Form(reason) => reason.description(),
            Unmeasurable::DirectiveInComment { .. } => {
                "a C# block comment holds a line that begins with a preprocessor directive"
            }
            Unmeasurable::UnicodeEscape { .. } => {
                "a Java unicode escape outside literals decodes to a line break, `*`, `/`, a quote or a backslash"
            }
        }
    }
}

impl fmt::Display for Unmeasurable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unmeasurable::Form(reason) => reason.fmt(f),
            Unmeasurable::DirectiveInComment { line } => write!(
                f,
                "a preprocessor directive inside a block comment at line {line}"
            ),
            Unmeasurable::UnicodeEscape { line } => write!(
                f,
                "a unicode escape javac reads as a delimiter at line {line}"
            ),
        }
    }
}
