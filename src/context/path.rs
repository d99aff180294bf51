//! Stage 0 helper: lexical normalisation of the paths a `context.yaml` names (docs/src/reference/contexts.md).

/// Why a path cannot name a directory of the repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProblem {
    Absolute,
    LeavesRepository,
}

/// `rel` joined to the repository-relative directory `base`, with `.` and `..` resolved
/// lexically, `\` read as `/`, no trailing slash; the root is `""`.
pub fn join(base: &str, rel: &str) -> Result<String, PathProblem> {
    let rel = rel.replace('\\', "/");
    if is_absolute(&rel) {
        return Err(PathProblem::Absolute);
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in base.split('/').chain(rel.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or(PathProblem::LeavesRepository)?;
            }
            name => parts.push(name),
        }
    }
    Ok(parts.join("/"))
}

/// `/x`, `~/x`, `C:` and `C:/x` are absolute here: none can name a directory of the
/// repository portably.
fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    path.starts_with('/') || path == "~" || path.starts_with("~/") || drive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_normalises_lexically() {
        assert_eq!(join("", "."), Ok(String::new()));
        assert_eq!(join("", "./src/App/"), Ok("src/App".to_string()));
        assert_eq!(
            join("services/a", "../b//src/./x"),
            Ok("services/b/src/x".into())
        );
        assert_eq!(join("a", ".."), Ok(String::new()));
        assert_eq!(join("a", "src\\Win"), Ok("a/src/Win".into()));
    }

    #[test]
    fn join_refuses_leaving_and_absolute_paths() {
        assert_eq!(join("a", "../.."), Err(PathProblem::LeavesRepository));
        assert_eq!(join("", "x/../../y"), Err(PathProblem::LeavesRepository));
        for abs in ["/etc", "C:/src", "c:", "~/src", "\\\\server\\share"] {
            assert_eq!(join("a", abs), Err(PathProblem::Absolute), "{abs}");
        }
    }
}
