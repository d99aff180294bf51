//! Listing files of the working tree the way git sees them: `.gitignore` respected,
//! symbolic links not followed, `.git` never entered.

use std::path::Path;

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
