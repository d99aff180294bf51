//! The gate's share of document budgets (docs/src/reference/documents.md, docs/src/reference/documents.md#chains): a Markdown document whose eager
//! imports (transitively) changed is judged for `loaded_bytes`, and one whose chain (a
//! namesake above it, or a file they import) changed is judged for `chain_bytes`, even
//! when the document itself did not change, in whichever context owns it; the report
//! names the changed files.

use anyhow::Result;

use super::changed_files::{judge_file, note_changed_imports, ChangedFiles};
use super::{Fate, Sandbox};
use crate::judge;
use crate::measure;
use crate::model::{FileOutcome, Language, Metric, SkipReason};
use crate::reason::FileReason;
use crate::terms::ContextTerms;

/// Judges `loaded_bytes` (`chain_bytes`) of every unchanged Markdown document, owned by a
/// judged context that limits it, whose imports (chain) reach a changed file. The documents are read
/// from the working tree (the index, with `--staged`), through the same measuring path as every other file.
pub(super) fn judge_importers(judging: &ChangedFiles, sb: &mut Sandbox) -> Result<()> {
    let limiting: Vec<&ContextTerms> = judging
        .terms
        .contexts
        .iter()
        .filter(|c| judge::unjudged(c).is_none() && c.limits.as_ref().is_some_and(limits_loaded))
        .collect();
    if limiting.is_empty() || judging.changed.is_empty() {
        return Ok(());
    }
    let mut dirs: Vec<String> = limiting
        .iter()
        .flat_map(|c| c.context.owned.iter().cloned())
        .collect();
    dirs.sort();
    dirs.dedup();
    for path in judging.work.measured_under(&dirs)? {
        let unchanged_doc = Language::of_path(&path) == Some(Language::Markdown)
            && !judging.changed.contains(&path);
        let owner = judging
            .terms
            .owner(&path)
            .filter(|o| limiting.iter().any(|l| l.context.dir == o.context.dir))
            .filter(|o| o.context.excluded(&path).is_none());
        if let (true, Some(owner)) = (unchanged_doc, owner) {
            judge_importer(judging, sb, owner, &path)?;
        }
    }
    Ok(())
}

fn limits_loaded(limits: &crate::limits::Limits) -> bool {
    limits.limit(Metric::LoadedBytes).is_some() || limits.limit(Metric::ChainBytes).is_some()
}

/// Measures one unchanged document and, when it loads a changed file, judges its
/// `loaded_bytes`, and when its chain reaches one, its `chain_bytes` (not its
/// `file_bytes`: the document itself did not change). A document
/// that cannot be measured (too large, not UTF-8) was skipped when it last changed and is
/// passed over here.
fn judge_importer(
    judging: &ChangedFiles,
    sb: &mut Sandbox,
    owner: &ContextTerms,
    path: &str,
) -> Result<()> {
    let Some(bytes) = judging.work.source().read(path)? else {
        return Ok(());
    };
    let outcome = measure::measure_file_in(
        Some(&judging.imports),
        judging.memo,
        path,
        &bytes,
        &judging.options,
    );
    let m = match outcome {
        Some(FileOutcome::Measured(m)) => m,
        // A link the branch made leave the repository on the way to what it loads.
        Some(FileOutcome::Skipped {
            reason: reason @ SkipReason::LinkLeaves { .. },
            ..
        }) => {
            if let Fate::Unmeasurable(why) =
                judging.skipped(path, None, reason, measure::looks_binary(&bytes))?
            {
                sb.unmeasurable.push(FileReason::new(path, why));
            }
            return Ok(());
        }
        _ => return Ok(()),
    };
    let reached = note_changed_imports(judging, sb, owner, &m);
    if reached.is_empty() {
        return Ok(());
    }
    sb.judged.insert(path.to_string());
    sb.warnings
        .extend(m.warnings.iter().map(|w| format!("{path}: {w}")));
    let mut loaded = m.values();
    loaded.retain(|v| reached.contains(&v.metric));
    let loaded = loaded.into_iter().map(|v| (v, None)).collect();
    let mut findings = judge_file(judging.terms, owner, None, false, None, |_| Ok(loaded))?;
    judging.versions.set_base_values(&mut findings, None, &[]);
    sb.findings.extend(findings);
    Ok(())
}
