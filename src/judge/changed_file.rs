//! What becomes of one changed file at the gate (docs/src/reference/gate.md steps 3–4,
//! docs/src/reference/gate.md#integrity): judged by the context that owns it at the base,
//! left out (and whether that is listed), skipped, or failing as unmeasurable — each
//! [`Fate`] says which, and why. The gate reads and measures; these decide.

use anyhow::Result;

use super::limits_apply;
use crate::git::{Change, ChangeKind};
use crate::measure;
use crate::model::{FileMeasure, Language, LeftOutReason, SkipReason};
use crate::reason::{NotJudgedReason, Unmeasurable};
use crate::terms::{ContextTerms, Terms};

/// How a judged file changed since the base.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum JudgedAs {
    Added,
    Modified,
    Renamed { from: String },
}

impl JudgedAs {
    pub fn of(kind: &ChangeKind) -> JudgedAs {
        match kind {
            ChangeKind::Added => JudgedAs::Added,
            ChangeKind::Renamed { from } => JudgedAs::Renamed { from: from.clone() },
            _ => JudgedAs::Modified,
        }
    }
}

/// What became of one changed file (`--verbose`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fate {
    /// Measured and judged by the terms of `context`.
    Judged {
        how: JudgedAs,
        context: String,
    },
    /// No context owns it at the base.
    NoOwner,
    /// The context that owns it at the base isn't judged.
    ContextNotJudged {
        context: String,
        reason: NotJudgedReason,
    },
    Deleted,
    /// Not of a measured language.
    NotMeasured,
    /// No limit of the owning context applies to its language.
    NoLimitApplies {
        context: String,
    },
    Skipped(SkipReason),
    LeftOut(LeftOutReason),
    /// Fails the gate (docs/src/reference/gate.md#integrity).
    Unmeasurable(Unmeasurable),
}

/// Where a changed file goes before it is read: measured, as the context `owner` owns it
/// at the base (`from`: the path it was renamed from), or a fate decided from its path
/// and kind alone. `renamed` is true when the file counts as renamed (listed as such).
pub struct Route<'t> {
    pub to: Result<(&'t ContextTerms, Option<String>), Fate>,
    pub renamed: Option<(String, String)>,
}

/// The judged context that owns `path` at the base, or what became of the file.
pub fn judged_owner<'t>(terms: &'t Terms, path: &str) -> Result<&'t ContextTerms, Fate> {
    let owner = terms.owner(path).ok_or(Fate::NoOwner)?;
    match super::unjudged(owner) {
        Some(reason) => Err(Fate::ContextNotJudged {
            context: owner.context.name.clone(),
            reason,
        }),
        None => Ok(owner),
    }
}

/// Where `change` goes (docs/src/reference/gate.md step 3): no judged owner (then moved
/// out of every judged context, or unowned, where either applies), deleted, a submodule, a
/// link, no measured language, no limit of its owner applying to its language (a context
/// with only code limits judges no Markdown, docs/src/reference/documents.md, and the
/// reverse), a name that is not UTF-8, left out by its path or by the base's exclude
/// globs (the branch can't exclude its own file); else measured.
pub fn route<'t>(terms: &'t Terms, change: &Change) -> Route<'t> {
    let path = change.path.as_str();
    let fate = |fate| Route {
        to: Err(fate),
        renamed: None,
    };
    let owner = match judged_owner(terms, path) {
        Ok(owner) => owner,
        Err(not) => {
            let unowned = || unowned(terms, change, &not);
            return fate(moved_out(terms, change).or_else(unowned).unwrap_or(not));
        }
    };
    let from = match &change.kind {
        ChangeKind::Deleted => return fate(Fate::Deleted),
        ChangeKind::Renamed { from } => Some(from.clone()),
        ChangeKind::Added | ChangeKind::Modified | ChangeKind::NameNotUtf8 => None,
        ChangeKind::Submodule => return fate(Fate::Skipped(SkipReason::Submodule)),
        ChangeKind::Link => return fate(Fate::LeftOut(LeftOutReason::SymbolicLink)),
    };
    match Language::of_path(path) {
        None => return fate(Fate::NotMeasured),
        Some(l) if !limits_apply(owner.limits.as_ref(), l) => {
            let context = owner.context.name.clone();
            return fate(Fate::NoLimitApplies { context });
        }
        Some(_) => {}
    }
    if change.kind == ChangeKind::NameNotUtf8 {
        return fate(Fate::Skipped(SkipReason::NameNotUtf8));
    }
    let renamed = from.clone().map(|from| (from, path.to_string()));
    let left_out = measure::left_out_by_path(path).or_else(|| owner.context.excluded(path));
    Route {
        to: match left_out {
            Some(reason) => Err(Fate::LeftOut(reason)),
            None => Ok((owner, from)),
        },
        renamed,
    }
}

/// A file renamed out of every judged context's owned directories, from a path one of
/// them judged: left out (`moved-out`), naming both paths.
fn moved_out(terms: &Terms, change: &Change) -> Option<Fate> {
    let ChangeKind::Renamed { from } = &change.kind else {
        return None;
    };
    let old = judged_owner(terms, from).ok()?;
    if !Language::of_path(from).is_some_and(|l| limits_apply(old.limits.as_ref(), l)) {
        return None;
    }
    Some(Fate::LeftOut(LeftOutReason::MovedOut {
        from: from.clone(),
        context: old.context.name.clone(),
    }))
}

/// A changed file of a measured language (Markdown only where some context's terms limit
/// it) that no judged context owns at the base: left out, `unowned`, naming the context
/// that owns it where that one isn't judged (docs/src/reference/gate.md#integrity).
fn unowned(terms: &Terms, change: &Change, fate: &Fate) -> Option<Fate> {
    let counted = matches!(
        change.kind,
        ChangeKind::Added | ChangeKind::Modified | ChangeKind::Renamed { .. }
    );
    let language = Language::of_path(&change.path).filter(|_| counted)?;
    let limited = |l| {
        let limits = terms.contexts.iter().map(|c| c.limits.as_ref());
        limits.into_iter().any(|limits| limits_apply(limits, l))
    };
    if language == Language::Markdown && !limited(language) {
        return None;
    }
    let owner = match fate {
        Fate::ContextNotJudged { context, reason } => Some((context.clone(), *reason)),
        _ => None,
    };
    Some(Fate::LeftOut(LeftOutReason::Unowned { owner }))
}

/// True when a file left out for `reason` is listed: always when the branch added or
/// renamed it; when it modified it, only for the reasons the base did not already show
/// (docs/src/reference/gate.md#integrity).
pub fn lists_left_out(kind: &ChangeKind, reason: &LeftOutReason) -> bool {
    *kind != ChangeKind::Modified || reason.listed_when_modified()
}

/// What the base's version of a changed file came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseVersion {
    /// The base has no such file.
    Absent,
    Measured,
    /// Skipped or left out there.
    NotMeasured,
}

/// A changed file the measurer skipped (`binary`: its bytes look binary): unmeasurable,
/// and failing, when the branch made it so; a binary file the base didn't measure is left
/// out as `binary`; else skipped (docs/src/reference/gate.md#integrity). `at_base` is
/// asked only for a form a branch could give a file so that it isn't measured.
pub fn skipped(
    reason: SkipReason,
    binary: bool,
    at_base: impl FnOnce() -> Result<BaseVersion>,
) -> Result<Fate> {
    if !reason.is_unmeasurable_form() {
        return Ok(Fate::Skipped(reason));
    }
    Ok(match at_base()? {
        BaseVersion::Measured => Fate::Unmeasurable(Unmeasurable::Form(reason)),
        _ if binary => Fate::LeftOut(LeftOutReason::Binary),
        BaseVersion::Absent => Fate::Unmeasurable(Unmeasurable::Form(reason)),
        BaseVersion::NotMeasured => Fate::Skipped(reason),
    })
}

/// Where a measured file holds code the compiler may read differently from the grammar
/// (docs/src/reference/gate.md#integrity): a preprocessor directive inside a C# block
/// comment, or a Java Unicode escape of a comment or literal delimiter.
pub fn hidden_code(m: &FileMeasure) -> Option<Unmeasurable> {
    let directive = m
        .directive_in_comment
        .map(|line| Unmeasurable::DirectiveInComment { line });
    directive.or(m
        .unicode_escape
        .map(|line| Unmeasurable::UnicodeEscape { line }))
}

/// Hidden code in a measured file makes it unmeasurable, unless the base's version held
/// some too (`hidden_at_base`, asked only then): the gate then judges it as before
/// (docs/src/reference/gate.md#integrity).
pub fn unmeasurable_hidden(
    m: &FileMeasure,
    hidden_at_base: impl FnOnce() -> Result<bool>,
) -> Result<Option<Unmeasurable>> {
    let Some(hidden) = hidden_code(m) else {
        return Ok(None);
    };
    Ok((!hidden_at_base()?).then_some(hidden))
}

/// True when a changed file is left out as generated: only by a generated-code header its
/// version at the base carried (`header_at_base`; `None`: the base has no such file). One
/// new on the branch exempts nothing (docs/src/reference/gate.md step 3, #integrity).
pub fn honours_generated_header(header_at_base: Option<bool>) -> bool {
    header_at_base == Some(true)
}

/// True when a judged file new on the branch says it is generated (`claims`): judged
/// anyway, and the claim noted in the report (docs/src/reference/gate.md#integrity).
pub fn generated_claim(header_at_base: Option<bool>, claims: bool) -> bool {
    header_at_base.is_none() && claims
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_the_branch_gave_a_file_fails_and_one_the_base_had_is_skipped() {
        let at = |base| move || Ok(base);
        let rule = |reason, binary, base| skipped(reason, binary, at(base)).unwrap();
        let not_utf8 = Fate::Unmeasurable(Unmeasurable::Form(SkipReason::NotUtf8));
        assert_eq!(
            rule(SkipReason::NotUtf8, false, BaseVersion::Measured),
            not_utf8
        );
        assert_eq!(
            rule(SkipReason::NotUtf8, false, BaseVersion::Absent),
            not_utf8
        );
        let skipped_there = rule(SkipReason::NotUtf8, false, BaseVersion::NotMeasured);
        assert_eq!(skipped_there, Fate::Skipped(SkipReason::NotUtf8));
        let binary = rule(SkipReason::Binary, true, BaseVersion::Absent);
        assert_eq!(binary, Fate::LeftOut(LeftOutReason::Binary));
        // Not a form a branch could hide code in: the base is never asked.
        let never = || -> Result<BaseVersion> { unreachable!("asked the base") };
        let submodule = skipped(SkipReason::Submodule, false, never).unwrap();
        assert_eq!(submodule, Fate::Skipped(SkipReason::Submodule));
    }

    #[test]
    fn only_a_header_the_base_had_leaves_a_file_out_and_a_new_files_claim_is_noted() {
        assert!(honours_generated_header(Some(true)));
        assert!(!honours_generated_header(Some(false)));
        assert!(!honours_generated_header(None));
        assert!(generated_claim(None, true));
        assert!(!generated_claim(Some(false), true));
        assert!(!generated_claim(None, false));
    }

    #[test]
    fn a_modified_file_left_out_is_listed_only_for_reasons_the_base_did_not_show() {
        let generated = LeftOutReason::GeneratedHeader("auto-generated".to_string());
        assert!(lists_left_out(&ChangeKind::Added, &generated));
        assert!(!lists_left_out(&ChangeKind::Modified, &generated));
        assert!(lists_left_out(
            &ChangeKind::Modified,
            &LeftOutReason::Binary
        ));
    }
}
