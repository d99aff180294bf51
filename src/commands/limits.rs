//! `structgate limits`: each context's effective limits, bands, where each value came
//! from, and its baseline state. The validator a catalog runs: unknown keys are errors.

use std::path::PathBuf;

use anyhow::Result;

use crate::commands::Workspace;
use crate::terms::Terms;

pub struct Request {
    pub cwd: PathBuf,
    pub contexts: Vec<PathBuf>,
}

pub fn run(request: &Request) -> Result<Terms> {
    let ws = Workspace::open(&request.cwd)?;
    let (terms, _) = ws.terms(&request.cwd, &request.contexts)?;
    terms.refuse_unknown_keys()?;
    Ok(terms)
}
