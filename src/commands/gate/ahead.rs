//! The changed files the gate will measure, read and measured ahead of judging, in
//! parallel (docs/src/reference/gate.md#integrity "parsers are bounded"): a parse that runs
//! to `--parse-timeout` holds up one thread of several, so slow files wait out their
//! timeouts side by side, not one after another. ChangedFiles then takes each outcome in change
//! order, exactly as if it had measured the file itself.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use anyhow::Result;
use rayon::prelude::*;

use super::branch_tree::BranchTree;
use crate::cache::Cache;
use crate::judge;
use crate::measure::{self, Imports, Options};
use crate::model::{FileOutcome, SkipReason};
use crate::source::{Entry, FileSource};
use crate::terms::Terms;

/// A changed file read from the working tree (the index, with `--staged`) and measured.
pub(super) enum Read {
    /// The working tree holds no file to read there, and why.
    Unread(SkipReason),
    File {
        /// Whether the base's version carried a generated-code header (`None`: the base
        /// has no such file).
        header_at_base: Option<bool>,
        /// Whether the file's own bytes carry one.
        claims_generated: bool,
        /// Whether its bytes look binary (a NUL byte early on).
        binary: bool,
        outcome: Option<Box<FileOutcome>>,
    },
}

/// Outcomes measured ahead, by path, each taken once.
#[derive(Default)]
pub(super) struct Ahead {
    done: Mutex<HashMap<String, Result<Read>>>,
}

impl Ahead {
    /// The outcome measured ahead for `path`, if any (once).
    pub(super) fn take(&self, path: &str) -> Option<Result<Read>> {
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        done.remove(path)
    }

    /// Reads and measures, in parallel, the changed files `wanted` (each a path and the
    /// path it was renamed from), for judging to take.
    pub(super) fn measure(&self, reader: &Reader, wanted: &[(&str, Option<&str>)]) {
        let done: HashMap<String, Result<Read>> = wanted
            .par_iter()
            .map(|&(path, from)| (path.to_string(), reader.read(path, from)))
            .collect();
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = done;
    }
}

/// What reading and measuring a changed file needs, shared by the threads that measure
/// ahead.
pub(super) struct Reader<'j> {
    pub(super) terms: &'j Terms,
    pub(super) base_tree: &'j dyn FileSource,
    pub(super) work: &'j BranchTree,
    pub(super) imports: &'j Imports<'j>,
    pub(super) options: Options,
    pub(super) memo: &'j Cache,
}

impl Reader<'_> {
    /// Reads the changed file at `path` (renamed from `from`) and measures it.
    pub(super) fn read(&self, path: &str, from: Option<&str>) -> Result<Read> {
        let Some(bytes) = self.work.source().read(path)? else {
            return Ok(Read::Unread(self.unread_reason(path)?));
        };
        let header_at_base = self.generated_at_base(from.unwrap_or(path))?;
        let options = Options {
            honour_generated_header: judge::honours_generated_header(header_at_base),
            ..self.options
        };
        let imports = self.terms.reads_imports(path).then_some(self.imports);
        let outcome = measure::measure_file_in(imports, self.memo, path, &bytes, &options);
        Ok(Read::File {
            header_at_base,
            claims_generated: claims_generated(path, &bytes),
            binary: measure::looks_binary(&bytes),
            outcome: outcome.map(Box::new),
        })
    }

    /// Why the working tree holds no file to read at a changed path.
    fn unread_reason(&self, path: &str) -> Result<SkipReason> {
        Ok(match self.work.source().entry(path)? {
            Entry::Missing => SkipReason::NotInWorkTree,
            _ => SkipReason::NotARegularFile,
        })
    }

    /// Whether the file at the base carried a generated-code header; `None` when the base
    /// has no such file. Only a header the base had leaves a file out: one new on the
    /// branch, on a changed file or a new one, exempts nothing (docs/src/reference/gate.md
    /// step 3, #integrity).
    pub(super) fn generated_at_base(&self, base_path: &str) -> Result<Option<bool>> {
        Ok(self
            .base_tree
            .read(base_path)?
            .map(|old| claims_generated(base_path, &old)))
    }
}

/// True when the file's own bytes carry a generated-code header.
pub(super) fn claims_generated(path: &str, bytes: &[u8]) -> bool {
    measure::generated_header(path, &String::from_utf8_lossy(bytes))
}
