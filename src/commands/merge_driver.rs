//! `structgate baseline merge %O %A %B [%P]`: git's merge driver for
//! `structure-baseline.tsv`. Reads the three versions, merges them with
//! [`crate::baseline::merge`], and replaces OURS (`%A`) atomically with the result. An
//! input that doesn't parse is an error (exit 2): git then marks the file conflicted and
//! leaves OURS as it was.

use std::path::PathBuf;

use anyhow::{anyhow, Context as _, Result};

use crate::baseline::{merge, tsv, Baseline};

pub struct Request {
    pub base: PathBuf,
    pub ours: PathBuf,
    pub theirs: PathBuf,
    /// The baseline's path in the repository (`%P`), naming it in messages.
    pub name: Option<String>,
}

/// What the merge wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeReport {
    /// How the file is named in messages.
    pub name: String,
    pub entries: usize,
    pub warnings: Vec<String>,
}

pub fn run(request: &Request) -> Result<MergeReport> {
    let name = request
        .name
        .clone()
        .unwrap_or_else(|| request.ours.display().to_string());
    let mut warnings = Vec::new();
    let mut read = |path: &PathBuf, side: &str| -> Result<Baseline> {
        let label = format!("{side} ({})", path.display());
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot merge {name}: cannot read {label}"))?;
        let parsed = tsv::parse(&bytes, &label).map_err(|e| {
            anyhow!(
                "cannot merge {name}: {e}; resolve the conflict by hand, then run \
                 `structgate baseline refresh`"
            )
        })?;
        warnings.extend(parsed.warnings);
        Ok(parsed.baseline)
    };
    let base = read(&request.base, "the common ancestor's version")?;
    let ours = read(&request.ours, "our version")?;
    let theirs = read(&request.theirs, "their version")?;
    let merged = merge::merge(&base, &ours, &theirs);
    for removed in crate::baseline::leftovers::remove_stale_merge_temps(&request.ours) {
        warnings.push(format!(
            "removed {}, left by an interrupted merge",
            removed.display()
        ));
    }
    tsv::write_atomic(&request.ours, tsv::render(&merged).as_bytes())
        .with_context(|| format!("writing the merged {name}"))?;
    Ok(MergeReport {
        name,
        entries: merged.entries.len(),
        warnings,
    })
}
