//! The measurer's reasons (docs/src/reference/measurement.md, docs/src/reference/gate.md#integrity): why a file of a measured language was not
//! measured ([`SkipReason`]) or is left out by rule ([`LeftOutReason`]). Kept in the
//! measurement cache, so a change here makes a new cache stamp (build.rs).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{NotJudgedReason, Reason};

/// The most bytes of unit names (scopes included) the measurer keeps for one file; a file
/// whose names add up to more is skipped: names grow with the square of the nesting
/// depth, so 20,000 nested classes would need gigabytes.
pub const NAME_BUDGET_BYTES: usize = 16 << 20;

/// Why a file that has a measured language was not measured (docs/src/reference/measurement.md), or, for the last
/// three, why the gate did not measure a changed path (docs/src/reference/gate.md).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SkipReason {
    NotUtf8,
    TooLarge {
        size: u64,
        max: u64,
    },
    Unreadable(String),
    /// The parse ran past `--parse-timeout`.
    ParseTimeout {
        timeout: std::time::Duration,
    },
    /// The parse allocated more than its memory bound (`bytes`), which bounds it as
    /// `--parse-timeout` does (docs/src/reference/measurement.md#skipped).
    ParseMemory {
        bytes: u64,
    },
    /// Holds a NUL byte: binary, or UTF-16 without a byte order mark.
    Binary,
    /// The file's unit names add up to more than the measurer keeps (hostile nesting).
    NamesTooLong,
    /// The file's path isn't UTF-8, so no baseline or report can name it.
    NameNotUtf8,
    /// A submodule the change touches: its contents are not looked into.
    Submodule,
    /// A changed file the working tree doesn't hold (sparse checkout, skip-worktree).
    NotInWorkTree,
    /// A changed path that is no regular file in the working tree.
    NotARegularFile,
    /// A Markdown document loads a file through this symbolic link, which leaves the
    /// repository or points into `.git` (docs/src/reference/documents.md#links).
    LinkLeaves {
        link: String,
    },
}

impl SkipReason {
    /// True for a form of the file's own bytes that structgate skips (docs/src/reference/gate.md#integrity): one a
    /// branch could give a file so that it isn't measured.
    pub fn is_unmeasurable_form(&self) -> bool {
        matches!(
            self,
            SkipReason::NotUtf8
                | SkipReason::TooLarge { .. }
                | SkipReason::ParseTimeout { .. }
                | SkipReason::ParseMemory { .. }
                | SkipReason::Binary
                | SkipReason::NamesTooLong
                | SkipReason::LinkLeaves { .. }
        )
    }

    /// One reason of each kind, for the list of codes (`crate::reason::every_code`).
    pub fn examples() -> Vec<SkipReason> {
        vec![
            SkipReason::NotUtf8,
            SkipReason::Binary,
            SkipReason::TooLarge { size: 0, max: 0 },
            SkipReason::ParseTimeout {
                timeout: std::time::Duration::ZERO,
            },
            SkipReason::NamesTooLong,
            SkipReason::LinkLeaves {
                link: String::new(),
            },
            SkipReason::NameNotUtf8,
            SkipReason::Unreadable(String::new()),
            SkipReason::Submodule,
            SkipReason::NotInWorkTree,
            SkipReason::NotARegularFile,
        ]
    }
}

impl Reason for SkipReason {
    fn code(&self) -> &'static str {
        match self {
            SkipReason::NotUtf8 => "not-utf8",
            SkipReason::TooLarge { .. } => "too-large",
            SkipReason::Unreadable(_) => "unreadable",
            SkipReason::ParseTimeout { .. } | SkipReason::ParseMemory { .. } => "parse-timeout",
            SkipReason::Binary => "nul-byte",
            SkipReason::NamesTooLong => "name-budget",
            SkipReason::NameNotUtf8 => "name-not-utf8",
            SkipReason::Submodule => "submodule",
            SkipReason::NotInWorkTree => "not-in-work-tree",
            SkipReason::NotARegularFile => "not-a-regular-file",
            SkipReason::LinkLeaves { .. } => "link-leaves-repository",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            SkipReason::NotUtf8 => "the file is not UTF-8 (a UTF-8 byte order mark is fine)",
            SkipReason::TooLarge { .. } => "the file is larger than `--max-file-size`",
            SkipReason::Unreadable(_) => "the file could not be read",
            SkipReason::ParseTimeout { .. } | SkipReason::ParseMemory { .. } => {
                "parsing took longer than `--parse-timeout`, or more memory than its bound"
            }
            SkipReason::Binary => {
                "the file holds a NUL byte: binary, or UTF-16 without a byte order mark"
            }
            SkipReason::NamesTooLong => "the file's unit names add up to more than 16 MiB",
            SkipReason::NameNotUtf8 => "the file's path is not UTF-8, so nothing can name it",
            SkipReason::Submodule => "a submodule: not descended into, its changes are not judged",
            SkipReason::NotInWorkTree => {
                "a changed file the working tree does not hold (a sparse checkout or skip-worktree)"
            }
            SkipReason::NotARegularFile => "the changed path is not a regular file",
            SkipReason::LinkLeaves { .. } => {
                "a Markdown document loads a file through a symbolic link that leaves the repository or points into `.git`"
            }
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::NotUtf8 => f.write_str("not UTF-8"),
            SkipReason::TooLarge { size, max } => {
                write!(f, "larger than --max-file-size ({size} > {max} bytes)")
            }
            SkipReason::Unreadable(why) => write!(f, "unreadable: {why}"),
            SkipReason::ParseTimeout { timeout } => {
                write!(f, "parsing took longer than --parse-timeout ({timeout:?})")
            }
            SkipReason::ParseMemory { bytes } => write!(
                f,
                "parsing took more than {} MiB of memory, given up as past --parse-timeout",
                bytes >> 20
            ),
            SkipReason::Binary => f.write_str("binary (holds a NUL byte)"),
            SkipReason::NameNotUtf8 => f.write_str("file name not UTF-8"),
            SkipReason::NamesTooLong => write!(
                f,
                "unit names add up to more than {} MiB (declarations nested too deep or named too long)",
                NAME_BUDGET_BYTES >> 20
            ),
            SkipReason::Submodule => {
                f.write_str("submodule: not descended into, its changes are not judged")
            }
            SkipReason::NotInWorkTree => f.write_str(
                "not in the working tree (a sparse checkout or skip-worktree leaves it out)",
            ),
            SkipReason::NotARegularFile => {
                f.write_str("not a regular file (symbolic links are not followed)")
            }
            SkipReason::LinkLeaves { link } => {
                write!(f, "link leaves the repository: {link}")
            }
        }
    }
}

/// Why a file of a measured language is left out by rule (docs/src/reference/measurement.md): not an error, and
/// not listed by `measure`, but listed by the gate for files new on a branch (docs/src/reference/gate.md). The
/// last two are the gate's own (docs/src/reference/gate.md#integrity).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LeftOutReason {
    /// A test path rule, e.g. `test directory "Inventory.Tests"`.
    TestPath(String),
    /// A generated-code file name, e.g. `generated file name (.g.cs)`.
    GeneratedName(String),
    /// A generated-code header in the first 10 lines (`<auto-generated` or `@generated`).
    GeneratedHeader(String),
    /// A symbolic link in owned directories: never followed.
    SymbolicLink,
    /// Renamed from `from`, which the judged context `context` owned, to a path no judged
    /// context owns.
    MovedOut { from: String, context: String },
    /// A changed file of a measured language that no judged context owns at the base;
    /// `owner` names the context that owns it and why that one isn't judged, where one
    /// does (docs/src/reference/gate.md#integrity). Only the gate says it: never cached.
    Unowned {
        #[serde(skip)]
        owner: Option<(String, NotJudgedReason)>,
    },
    /// Matched by the `exclude` glob `glob` of the `context.yaml` at `file`
    /// (docs/src/reference/contexts.md).
    Excluded { glob: String, file: String },
    /// A NUL byte in its first 8,000 bytes (git's own test), and the base didn't measure it
    /// (docs/src/reference/gate.md#integrity).
    Binary,
}

impl LeftOutReason {
    /// One reason of each kind, for the list of codes (`crate::reason::every_code`).
    pub fn examples() -> Vec<LeftOutReason> {
        vec![
            LeftOutReason::TestPath(String::new()),
            LeftOutReason::GeneratedName(String::new()),
            LeftOutReason::GeneratedHeader(String::new()),
            LeftOutReason::SymbolicLink,
            LeftOutReason::MovedOut {
                from: String::new(),
                context: String::new(),
            },
            LeftOutReason::Unowned { owner: None },
            LeftOutReason::Excluded {
                glob: String::new(),
                file: String::new(),
            },
            LeftOutReason::Binary,
        ]
    }

    /// True for the reasons the gate lists also for a file the base had (changed, not new):
    /// a file no judged context owns, or one an `exclude` glob names.
    pub fn listed_when_modified(&self) -> bool {
        matches!(
            self,
            LeftOutReason::Unowned { .. } | LeftOutReason::Excluded { .. } | LeftOutReason::Binary
        )
    }
}

impl Reason for LeftOutReason {
    fn code(&self) -> &'static str {
        match self {
            LeftOutReason::TestPath(_) => "test-path",
            LeftOutReason::GeneratedName(_) => "generated-name",
            LeftOutReason::GeneratedHeader(_) => "generated-header",
            LeftOutReason::SymbolicLink => "symbolic-link",
            LeftOutReason::MovedOut { .. } => "moved-out",
            LeftOutReason::Unowned { .. } => "unowned",
            LeftOutReason::Excluded { .. } => "excluded",
            LeftOutReason::Binary => "binary",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            LeftOutReason::TestPath(_) => "test code by its path: a test directory or file name",
            LeftOutReason::GeneratedName(_) => "generated code by its file name",
            LeftOutReason::GeneratedHeader(_) => {
                "generated code by a header in its first 10 lines"
            }
            LeftOutReason::SymbolicLink => {
                "a symbolic link in owned directories: never followed, what it points at is not judged"
            }
            LeftOutReason::MovedOut { .. } => {
                "renamed from a path a judged context owns to one no judged context owns"
            }
            LeftOutReason::Unowned { .. } => {
                "a changed file of a measured language that no judged context owns at the base"
            }
            LeftOutReason::Excluded { .. } => {
                "named by an exclude glob of its context (the gate reads them at the base)"
            }
            LeftOutReason::Binary => {
                "a NUL byte in its first 8000 bytes, and the base didn't measure the file"
            }
        }
    }
}

impl fmt::Display for LeftOutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOutReason::TestPath(why)
            | LeftOutReason::GeneratedName(why)
            | LeftOutReason::GeneratedHeader(why) => f.write_str(why),
            LeftOutReason::SymbolicLink => {
                f.write_str("a symbolic link, not followed: what it points at is not judged")
            }
            LeftOutReason::MovedOut { from, context } => write!(
                f,
                "moved out of every judged context's owned directories, from {from} (context {context})"
            ),
            LeftOutReason::Unowned { owner: None } => {
                f.write_str("no judged context owns it at the base")
            }
            LeftOutReason::Unowned {
                owner: Some((context, reason)),
            } => write!(
                f,
                "no judged context owns it at the base (context {context} has {reason})"
            ),
            LeftOutReason::Excluded { glob, file } => {
                write!(f, "excluded by the exclude glob {glob} of {file}")
            }
            LeftOutReason::Binary => f.write_str("binary: a NUL byte in its first 8000 bytes"),
        }
    }
}
