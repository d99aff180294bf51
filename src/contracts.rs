//! Directory contracts (docs/src/reference/contracts.md), a reader beside the pipeline: every directory of a
//! managed tree carries a `README.md` whose front matter holds `schema: context/v1`.
//!
//! Readers work over a [`FileSource`](crate::source::FileSource) plus its listing, so the
//! same code reads the working tree (`structgate contracts`) and, for the gate, the
//! base commit's tree (obligations come from the base's contracts). `front` finds the
//! front matter (pulldown-cmark), `schema` validates it (YAML through `crate::yaml`),
//! `listing` lists directories, `readme` reads one directory's README, and `check`
//! applies the obligation and narrowing-only rules.

mod check;
mod front;
mod listing;
mod readme;
mod schema;

pub use check::{check, Side};
pub use listing::{is_readme, work_entries, Listing};

/// The six finding classes, in the order docs/src/reference/contracts.md lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    MissingContract,
    NotAContract,
    InvalidContract,
    UnknownKey,
    IllegalOverride,
    DuplicateContract,
}

impl Class {
    /// The stable kebab-case code reports print.
    pub fn key(self) -> &'static str {
        match self {
            Class::MissingContract => "missing-contract",
            Class::NotAContract => "not-a-contract",
            Class::InvalidContract => "invalid-contract",
            Class::UnknownKey => "unknown-key",
            Class::IllegalOverride => "illegal-override",
            Class::DuplicateContract => "duplicate-contract",
        }
    }
}

/// One finding: a directory, its README (`None` when it has none), and the contract
/// that imposed the obligation on it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Repository-relative directory, `.` for the repository root.
    pub directory: String,
    pub class: Class,
    /// The directory's `README.md` (as spelled on disk), `None` when it has none.
    pub contract: Option<String>,
    /// The nearest ancestor contract that declares `children.require_contract: true`,
    /// the tree's root contract under the default (for the root: its own contract), or,
    /// for `illegal-override`, the contract whose explicit `true` is lowered.
    pub governed_by: String,
    pub detail: String,
}

/// One managed tree, counted over the directories that were checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeCount {
    /// The root directory, `.` for the repository root.
    pub root: String,
    pub directories: usize,
    pub contracts: usize,
}

/// What a check found: the trees the checked directories belong to (sorted by root),
/// and the findings (sorted by directory, then class).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    pub trees: Vec<TreeCount>,
    pub findings: Vec<Finding>,
    /// The directories checked inside managed trees, sorted.
    pub checked: Vec<String>,
}

impl Outcome {
    /// Directories checked inside managed trees.
    pub fn directories(&self) -> usize {
        self.trees.iter().map(|t| t.directories).sum()
    }

    pub fn contracts(&self) -> usize {
        self.trees.iter().map(|t| t.contracts).sum()
    }
}

/// What a README's bytes declare: `None` when they make no contract, else the contract's
/// `children.require_contract` (`None` when it declares none).
pub fn declared_require(bytes: &[u8]) -> Option<Option<bool>> {
    match readme::parse(bytes) {
        schema::Parsed::Contract(contract) => Some(contract.require.map(|d| d.value)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
