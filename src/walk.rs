//! Listing files of the working tree the way git sees them: `.gitignore` respected,
//! symbolic links not followed, `.git` never entered.

use std::path::Path;

use anyhow::{anyhow, Result};

/// A walker over `root` that honours git's ignore rules and never follows links.
pub fn builder(root: &Path) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .ignore(false)
        .parents(true)
        .require_git(true)
        .filter_entry(|e| e.file_name() != ".git");
    b
}

/// `path` relative to `root`, with `/` separators.
pub fn rel_path(root: &Path, path: &Path) -> Result<String> {
    let rel = path
        .strip_prefix(root)
        .map_err(|_| anyhow!("{} is outside {}", path.display(), root.display()))?;
    let mut out = String::new();
    for part in rel.components() {
        let part = part.as_os_str().to_str().ok_or_else(|| {
            anyhow!("path {} is not valid UTF-8", path.display())
        })?;
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part);
    }
    Ok(out)
}
