//! A context's `exclude` globs (docs/src/reference/contexts.md): files it owns but doesn't
//! measure, written relative to the repository root in git's glob dialect (`*` and `?`
//! within one path segment, `**` across them), compiled once with globset.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The `exclude` globs of one context, as written and compiled.
#[derive(Debug, Clone, Default)]
pub struct Exclude {
    patterns: Vec<String>,
    set: GlobSet,
}

impl PartialEq for Exclude {
    fn eq(&self, other: &Self) -> bool {
        self.patterns == other.patterns
    }
}

impl Eq for Exclude {}

impl Exclude {
    /// Compiles `patterns`; the first that is no glob comes back with why.
    pub fn new(patterns: Vec<String>) -> Result<Exclude, (String, String)> {
        let mut set = GlobSetBuilder::new();
        for pattern in &patterns {
            let glob = GlobBuilder::new(pattern)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| (pattern.clone(), e.kind().to_string()))?;
            set.add(glob);
        }
        let set = set.build().map_err(|e| (String::new(), e.to_string()))?;
        Ok(Exclude { patterns, set })
    }

    /// The globs as written.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The first glob that matches the repository-relative `path`.
    pub fn matching(&self, path: &str) -> Option<&str> {
        if self.patterns.is_empty() {
            return None;
        }
        let first = self.set.matches(path).into_iter().min()?;
        Some(&self.patterns[first])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_from_the_repository_root_in_gits_dialect() {
        let ex = Exclude::new(vec!["src/media/**".into(), "src/vendor/*.cs".into()]).unwrap();
        assert_eq!(ex.matching("src/media/a/intro.ts"), Some("src/media/**"));
        assert_eq!(ex.matching("src/vendor/Lib.cs"), Some("src/vendor/*.cs"));
        assert_eq!(ex.matching("src/vendor/deep/Lib.cs"), None);
        assert_eq!(ex.matching("lib/src/media/x.ts"), None);
        assert_eq!(Exclude::default().matching("x"), None);
        let bad = Exclude::new(vec!["src/[a".into()]).unwrap_err();
        assert_eq!(bad.0, "src/[a");
    }
}
