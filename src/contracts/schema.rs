//! A contract's front matter, validated against the closed key list of docs/src/reference/contracts.md: read raw
//! as a flat mapping through `crate::yaml` (which refuses alias bombs and oversized
//! documents), then checked key by key. Lines are README.md lines: the YAML starts on
//! line 2, after the opening `---`.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use super::Class;
use crate::yaml::{self, FlatDoc, FlatEntry, Shallow};

/// The one schema a contract declares.
pub const SCHEMA: &str = "context/v1";

const KEYS: &str = "schema, title, summary, children";

/// A `children.require_contract` a contract declares, with its README.md line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declared {
    pub value: bool,
    pub line: usize,
}

/// A problem inside a contract: `invalid-contract` (a key of the wrong type) or
/// `unknown-key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub class: Class,
    pub line: usize,
    pub detail: String,
}

/// A README.md whose front matter holds `schema: context/v1` (with findings or without).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contract {
    pub require: Option<Declared>,
    pub problems: Vec<Problem>,
}

/// What a README's front matter makes of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// No front matter, or none with a `schema` key (`not-a-contract`); the detail
    /// follows the file's name: `has no front matter`.
    NotContract(String),
    /// Front matter that can't be a contract (`invalid-contract`), with its line.
    Invalid {
        line: usize,
        detail: String,
    },
    Contract(Contract),
}

/// The README.md line of a line of the front matter's YAML.
fn file_line(yaml_line: usize) -> usize {
    yaml_line + 1
}

/// Validates the YAML of a README's front matter.
pub fn parse(text: &str) -> Parsed {
    let entries = match yaml::read_flat(text) {
        Ok(FlatDoc::Mapping(entries)) => entries,
        Ok(FlatDoc::Empty) => {
            return Parsed::NotContract("has front matter without a `schema` key".to_string())
        }
        Ok(FlatDoc::Other(value)) => {
            return Parsed::Invalid {
                line: file_line(yaml::first_content_line(text)),
                detail: format!("the front matter is {value}, not a mapping"),
            }
        }
        Err(e) => {
            let line = e.line.unwrap_or_else(|| yaml::first_content_line(text));
            return Parsed::Invalid {
                line: file_line(line),
                detail: format!("the front matter is not valid YAML: {}", e.message),
            };
        }
    };
    let schemas: Vec<&FlatEntry> = entries.iter().filter(|e| is_key(e, "schema")).collect();
    match schemas.as_slice() {
        [] => Parsed::NotContract("has front matter without a `schema` key".to_string()),
        [one] if one.value == Shallow::Str(SCHEMA.to_string()) => {
            Parsed::Contract(keys(text, &entries))
        }
        [one] => Parsed::Invalid {
            line: file_line(one.line),
            detail: format!("`schema` is {}, expected \"{SCHEMA}\"", one.value),
        },
        [_, again, ..] => Parsed::Invalid {
            line: file_line(again.line),
            detail: "`schema` appears more than once".to_string(),
        },
    }
}

fn is_key(entry: &FlatEntry, key: &str) -> bool {
    matches!(&entry.key, Shallow::Str(k) if k == key)
}

/// Checks every key of a contract's front matter against the closed list.
fn keys(text: &str, entries: &[FlatEntry]) -> Contract {
    let mut contract = Contract::default();
    let mut seen: Vec<&str> = Vec::new();
    for entry in entries {
        let line = file_line(entry.line);
        let mut problem = |class, detail| {
            contract.problems.push(Problem {
                class,
                line,
                detail,
            })
        };
        let Shallow::Str(key) = &entry.key else {
            let detail = format!("key {} is not one of {KEYS}", entry.key);
            problem(Class::UnknownKey, detail);
            continue;
        };
        if seen.contains(&key.as_str()) {
            problem(
                Class::InvalidContract,
                format!("`{key}` appears more than once"),
            );
            continue;
        }
        seen.push(key);
        match key.as_str() {
            "schema" => {}
            "title" | "summary" if !matches!(entry.value, Shallow::Str(_)) => {
                let detail = format!("`{key}` must be a string, found {}", entry.value);
                problem(Class::InvalidContract, detail);
            }
            "title" | "summary" => {}
            "children" if entry.value != Shallow::Mapping => {
                let detail = format!("`children` must be a mapping, found {}", entry.value);
                problem(Class::InvalidContract, detail);
            }
            "children" if entries.iter().filter(|e| is_key(e, "children")).count() == 1 => {
                children(text, entry.line, &mut contract);
            }
            "children" => {}
            _ => problem(
                Class::UnknownKey,
                format!("unknown key `{key}` (the keys are {KEYS})"),
            ),
        }
    }
    contract.problems.sort_by_key(|p| p.line);
    contract
}

/// Reads the `children` mapping: `require_contract` (a boolean) is its only key.
fn children(text: &str, children_line: usize, contract: &mut Contract) {
    let pairs = match yaml::from_str::<ChildrenOnly>(text) {
        Ok(only) => only.children.0,
        Err(e) => {
            contract.problems.push(Problem {
                class: Class::InvalidContract,
                line: file_line(e.line.unwrap_or(children_line)),
                detail: format!("`children`: {}", e.message),
            });
            return;
        }
    };
    for (key, value) in pairs {
        let name = match &key {
            Shallow::Str(k) => k.clone(),
            other => other.to_string(),
        };
        let line = file_line(nested_line(text, children_line, &name));
        let (class, detail) = match (name.as_str(), value) {
            ("require_contract", Shallow::Bool(value)) if contract.require.is_none() => {
                contract.require = Some(Declared { value, line });
                continue;
            }
            ("require_contract", Shallow::Bool(_)) => (
                Class::InvalidContract,
                "`children.require_contract` appears more than once".to_string(),
            ),
            ("require_contract", other) => (
                Class::InvalidContract,
                format!("`children.require_contract` must be true or false, found {other}"),
            ),
            (other, _) => (
                Class::UnknownKey,
                format!("unknown key `children.{other}` (the only key is require_contract)"),
            ),
        };
        contract.problems.push(Problem {
            class,
            line,
            detail,
        });
    }
}

/// The YAML line of `key` inside the block below `children` (its line when the key is
/// written in flow style or can't be found).
fn nested_line(text: &str, children_line: usize, key: &str) -> usize {
    let below = crate::lines::lines(text).enumerate().skip(children_line);
    for (index, line) in below {
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if body.len() == line.len() {
            break;
        }
        let bare = body.trim_start_matches(['"', '\'']);
        if bare.strip_prefix(key).is_some_and(|r| {
            let r = r.trim_start_matches(['"', '\'']).trim_start();
            r.starts_with(':')
        }) {
            return index + 1;
        }
    }
    children_line
}

/// The document read for its `children` mapping only; other keys are skipped unread.
#[derive(Deserialize)]
struct ChildrenOnly {
    children: Pairs,
}

/// A mapping's entries, shallow, in document order.
struct Pairs(Vec<(Shallow, Shallow)>);

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = Pairs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<Shallow, Shallow>()? {
                    pairs.push(pair);
                }
                Ok(Pairs(pairs))
            }
        }
        deserializer.deserialize_map(PairsVisitor)
    }
}
