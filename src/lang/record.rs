//! A language's record: everything structgate knows of one language, in its own file
//! under src/lang/ (docs/dev/adding-a-language.md) — the names people and JSON read, the
//! extensions that choose it, the grammar its files are parsed with (whose roles and
//! naming are its [`Lang`]), the path rule that leaves its test and generated files out
//! (docs/src/reference/measurement.md, docs/src/reference/languages.md) and the project
//! files `init` reads. Every list of languages is [`Language::ALL`], every question about
//! one is asked of its record.

use super::project::ProjectFile;
use super::Lang;
use crate::model::{Language, LeftOutReason};

/// One language, as data.
pub struct Record {
    /// The name a person reads: `C#`, `TypeScript`.
    pub name: &'static str,
    /// The name in JSON output and `init --lang`: `csharp`, `typescript`.
    pub key: &'static str,
    /// The extensions of its files, without the dot, matched in any letter case.
    pub extensions: &'static [&'static str],
    /// The grammar its files are parsed with; `None` for a language without units
    /// (Markdown).
    pub grammar: Option<&'static Lang>,
    /// Another grammar for the files of one extension (TypeScript's `.tsx`, parsed with
    /// TSX), matched in any letter case.
    pub dialects: &'static [(&'static str, &'static Lang)],
    /// The path rule that leaves a file out: the directories of its repository-relative
    /// path and its file name.
    pub left_out: fn(&[&str], &str) -> Option<LeftOutReason>,
    /// The project files `init` reads for where its code lives; a language with none is
    /// no `init --lang` value.
    pub project_files: &'static [ProjectFile],
}

/// No path rule: nothing is left out by its path.
pub fn nothing_left_out(_dirs: &[&str], _file: &str) -> Option<LeftOutReason> {
    None
}

impl Language {
    /// The name a person reads: `C#`, `TypeScript`.
    pub fn name(self) -> &'static str {
        self.record().name
    }

    /// The name used in JSON output (`csharp`, `rust`, `typescript`, `javascript`,
    /// `python`, `go`, `java`, `markdown`).
    pub fn key(self) -> &'static str {
        self.record().key
    }

    /// The extensions of the language's files, without the dot, in the order listed.
    pub fn extensions(self) -> impl Iterator<Item = &'static str> {
        self.record().extensions.iter().copied()
    }

    /// The code languages, named in prose: `C#, Rust, ... and Java`.
    pub fn code_languages() -> String {
        let names: Vec<&str> = Language::ALL
            .iter()
            .filter(|l| l.record().grammar.is_some())
            .map(|l| l.name())
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    /// The language of a path by its extension, in any letter case (`Big.CS` is C#);
    /// `None` for files structgate doesn't measure.
    pub fn of_path(path: &str) -> Option<Language> {
        let name = crate::relpath::file_name(path);
        let (_, ext) = name.rsplit_once('.')?;
        Language::ALL.into_iter().find(|language| {
            language
                .record()
                .extensions
                .iter()
                .any(|known| ext.eq_ignore_ascii_case(known))
        })
    }
}
