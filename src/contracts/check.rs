//! The rules of docs/src/reference/contracts.md over the READMEs read: which tree a directory belongs to, whether
//! it is under obligation (nearest ancestor contract that declares
//! `children.require_contract`, default true), narrowing only, and the findings.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use super::listing::Listing;
use super::readme::{self, DirReadme, Readme};
use super::schema::{Declared, Parsed};
use super::{Class, Finding, Outcome, TreeCount};
use crate::relpath::{file_name, self_and_ancestors, shown};
use crate::source::FileSource;

/// One source as the checker reads it: its files and its listing.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub source: &'a dyn FileSource,
    pub listing: &'a Listing,
}

/// What a directory passes down to the directories below it.
#[derive(Debug, Clone)]
struct State {
    /// Whether a directory below must carry a contract.
    require: bool,
    /// The contract whose declaration (or the root's default) decides `require`.
    governed_by: String,
    /// The nearest ancestor contract that declared `true` explicitly, still in force.
    explicit_true: Option<String>,
}

/// The READMEs of every directory a check needs, in the working tree and at the base.
struct Known {
    work: BTreeMap<String, DirReadme>,
    base: BTreeMap<String, DirReadme>,
}

/// Checks the working tree's directories `dirs` (others are ignored): each one inside a
/// managed tree is judged by the rules of docs/src/reference/contracts.md. With a `base`, a directory whose
/// README is a contract at the base still counts as holding one, and obligations come
/// from the base version of every contract the base holds (the gate).
pub fn check(work: Side<'_>, base: Option<Side<'_>>, dirs: &[String]) -> Result<Outcome> {
    let dirs: BTreeSet<&str> = dirs
        .iter()
        .map(String::as_str)
        .filter(|d| work.listing.has_dir(d))
        .collect();
    let known = Known::read(work, base, &dirs)?;
    let mut trees: BTreeMap<&str, TreeCount> = BTreeMap::new();
    let mut findings = Vec::new();
    let mut checked = Vec::new();
    for dir in dirs {
        let Some(root) = known.root_of(dir) else {
            continue;
        };
        checked.push(dir.to_string());
        let state = known.incoming(root, dir);
        known.findings(dir, &state, &mut findings);
        let tree = trees.entry(root).or_insert_with(|| TreeCount {
            root: shown(root).to_string(),
            directories: 0,
            contracts: 0,
        });
        tree.directories += 1;
        tree.contracts += usize::from(known.work_contract(dir).is_some());
    }
    findings.sort();
    Ok(Outcome {
        trees: trees.into_values().collect(),
        findings,
        checked,
    })
}

impl Known {
    /// Reads the READMEs of `dirs` and of every directory above them.
    fn read(work: Side<'_>, base: Option<Side<'_>>, dirs: &BTreeSet<&str>) -> Result<Known> {
        let needed: BTreeSet<&str> = dirs.iter().flat_map(|d| self_and_ancestors(d)).collect();
        let mut known = Known {
            work: BTreeMap::new(),
            base: BTreeMap::new(),
        };
        for dir in needed {
            let read = |side: Side<'_>| readme::read(side.source, side.listing, dir);
            known.work.insert(dir.to_string(), read(work)?);
            if let Some(base) = base.filter(|b| b.listing.has_dir(dir)) {
                known.base.insert(dir.to_string(), read(base)?);
            }
        }
        Ok(known)
    }

    fn work_contract(&self, dir: &str) -> Option<&str> {
        self.work.get(dir).and_then(|r| r.contract()).map(|c| c.0)
    }

    /// The contract that speaks for `dir`: the base version when the base holds one,
    /// else the working tree's; with its declared `children.require_contract`.
    fn effective(&self, dir: &str) -> Option<(&str, Option<Declared>)> {
        let base = self.base.get(dir).and_then(DirReadme::contract);
        let work = self.work.get(dir).and_then(DirReadme::contract);
        base.or(work).map(|(path, c)| (path, c.require))
    }

    /// The root of the managed tree holding `dir`: the topmost directory, `dir` itself
    /// included, that holds a contract.
    fn root_of<'d>(&self, dir: &'d str) -> Option<&'d str> {
        let chain = self_and_ancestors(dir);
        chain
            .into_iter()
            .rev()
            .find(|d| self.effective(d).is_some())
    }

    /// The state `dir` inherits: the root's default, passed down to `dir`'s parent.
    fn incoming(&self, root: &str, dir: &str) -> State {
        let governed_by = self.effective(root).map_or("", |e| e.0).to_string();
        let mut state = State {
            require: true,
            governed_by,
            explicit_true: None,
        };
        let chain = self_and_ancestors(dir);
        let from_root = chain.iter().rev().skip_while(|d| **d != root);
        for above in from_root.take_while(|d| **d != dir) {
            state = self.pass_down(above, state);
        }
        state
    }

    /// Applies `dir`'s declaration: raising to true always counts; lowering counts only
    /// where no ancestor declared `true` explicitly (narrowing only).
    fn pass_down(&self, dir: &str, state: State) -> State {
        match self.effective(dir) {
            Some((path, Some(Declared { value: true, .. }))) => State {
                require: true,
                governed_by: path.to_string(),
                explicit_true: Some(path.to_string()),
            },
            Some((path, Some(Declared { value: false, .. }))) if state.explicit_true.is_none() => {
                State {
                    require: false,
                    governed_by: path.to_string(),
                    explicit_true: None,
                }
            }
            _ => state,
        }
    }

    /// The findings of one directory, given what it inherits.
    fn findings(&self, dir: &str, state: &State, out: &mut Vec<Finding>) {
        let Some(readme) = self.work.get(dir) else {
            return;
        };
        let finding = |class, detail: String| Finding {
            directory: shown(dir).to_string(),
            class,
            contract: readme.path().map(str::to_string),
            governed_by: state.governed_by.clone(),
            detail,
        };
        if !readme.duplicates.is_empty() {
            let names: Vec<&str> = readme.duplicates.iter().map(|p| file_name(p)).collect();
            let detail = format!(
                "{} files named README.md in any letter case: {}",
                names.len(),
                names.join(", ")
            );
            out.push(finding(Class::DuplicateContract, detail));
        }
        match &readme.readme {
            Readme::None if state.require => {
                out.push(finding(Class::MissingContract, "no README.md".to_string()));
            }
            Readme::None => {}
            Readme::Directory(path) => {
                let detail = format!("{} is a directory, not a file", file_name(path));
                out.push(finding(Class::NotAContract, detail));
            }
            Readme::Link(path) => {
                let detail = format!(
                    "{} is a symbolic link; contracts are read from regular files, links are \
                     never followed",
                    file_name(path)
                );
                out.push(finding(Class::NotAContract, detail));
            }
            Readme::File { path, parsed } => {
                file_findings(file_name(path), parsed, state, out, finding)
            }
        }
    }
}

/// The findings of a README that is a regular file.
fn file_findings(
    name: &str,
    parsed: &Parsed,
    state: &State,
    out: &mut Vec<Finding>,
    finding: impl Fn(Class, String) -> Finding,
) {
    let contract = match parsed {
        Parsed::NotContract(detail) => {
            out.push(finding(Class::NotAContract, format!("{name} {detail}")));
            return;
        }
        Parsed::Invalid { line, detail } => {
            out.push(finding(
                Class::InvalidContract,
                format!("{name}:{line}: {detail}"),
            ));
            return;
        }
        Parsed::Contract(contract) => contract,
    };
    for problem in &contract.problems {
        let detail = format!("{name}:{}: {}", problem.line, problem.detail);
        out.push(finding(problem.class, detail));
    }
    if let (Some(lowered), Some(Declared { value: false, line })) =
        (&state.explicit_true, contract.require)
    {
        let detail = format!(
            "{name}:{line}: `children.require_contract: false` lowers the `true` that \
             {lowered} declares; it has no effect"
        );
        out.push(Finding {
            governed_by: lowered.clone(),
            ..finding(Class::IllegalOverride, detail)
        });
    }
}
