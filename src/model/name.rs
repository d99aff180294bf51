//! A unit's name ([`Name`]): text that the units of one file read back from the cache
//! share, one buffer for all their names, where a `String` each would cost an allocation
//! and a free per unit on every warm run.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A unit's name: a range of a text shared with the other names of its file, or a text
/// of its own. Reads, compares, hashes and serializes as the `str` it holds.
#[derive(Clone)]
pub struct Name {
    text: Arc<str>,
    start: u32,
    end: u32,
}

impl Name {
    /// The name `text[start..end]`, sharing `text`; `None` where the range lies outside
    /// it or cuts a character.
    fn within(text: &Arc<str>, start: usize, end: usize) -> Option<Name> {
        text.get(start..end)?;
        Some(Name {
            text: Arc::clone(text),
            start: u32::try_from(start).ok()?,
            end: u32::try_from(end).ok()?,
        })
    }

    pub fn as_str(&self) -> &str {
        let range = self.start as usize..self.end as usize;
        self.text.get(range).unwrap_or_default()
    }
}

/// A name of its own. Names are held within `u32` bytes: a file's are bounded far below
/// that (`NAME_BUDGET_BYTES`), and a longer one would read as empty.
impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name {
            end: u32::try_from(text.len()).unwrap_or(0),
            text: Arc::from(text),
            start: 0,
        }
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name::from(text.as_str())
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        String::deserialize(deserializer).map(Name::from)
    }
}

/// A file's units as the cache keeps them ([`super::FileMeasure::units`]): the names of all
/// of them as one text, then each unit with its name's length in bytes, so reading them
/// back takes one allocation for the names of a file rather than one per unit.
pub(super) mod units {
    use std::fmt;
    use std::sync::Arc;

    use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
    use serde::ser::SerializeTuple;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::super::{metric, Unit, UnitKind};
    use super::Name;

    /// A unit past its name: the length of its name within the file's names, then its
    /// fields.
    #[derive(Serialize, Deserialize)]
    struct Record {
        len: u32,
        kind: UnitKind,
        start_line: u32,
        end_line: u32,
        anonymous: bool,
        stored: [u32; metric::STORED_MAX],
    }

    pub fn serialize<S: Serializer>(units: &[Unit], serializer: S) -> Result<S::Ok, S::Error> {
        let names: String = units.iter().map(|u| u.name.as_str()).collect();
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&names)?;
        tuple.serialize_element(&Records(units))?;
        tuple.end()
    }

    struct Records<'a>(&'a [Unit]);

    impl Serialize for Records<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.iter().map(|u| Record {
                len: u32::try_from(u.name.len()).unwrap_or(0),
                kind: u.kind,
                start_line: u.start_line,
                end_line: u.end_line,
                anonymous: u.anonymous,
                stored: u.stored,
            }))
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Unit>, D::Error> {
        deserializer.deserialize_tuple(2, FileUnits)
    }

    /// The names, then the units.
    struct FileUnits;

    impl<'de> Visitor<'de> for FileUnits {
        type Value = Vec<Unit>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a file's unit names, then its units")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Unit>, A::Error> {
            let names = seq.next_element_seed(Names)?;
            let names = names.ok_or_else(|| de::Error::invalid_length(0, &self))?;
            let units = seq.next_element_seed(Units(names))?;
            units.ok_or_else(|| de::Error::invalid_length(1, &self))
        }
    }

    /// The names of a file's units, read into the one buffer they share.
    struct Names;

    impl<'de> DeserializeSeed<'de> for Names {
        type Value = Arc<str>;

        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Arc<str>, D::Error> {
            deserializer.deserialize_str(self)
        }
    }

    impl Visitor<'_> for Names {
        type Value = Arc<str>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a file's unit names")
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Arc<str>, E> {
            Ok(Arc::from(text))
        }
    }

    /// A file's units, each naming the next bytes of the names.
    struct Units(Arc<str>);

    impl<'de> DeserializeSeed<'de> for Units {
        type Value = Vec<Unit>;

        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Unit>, D::Error> {
            deserializer.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for Units {
        type Value = Vec<Unit>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a file's units")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Unit>, A::Error> {
            // A damaged length claims no more than the entry could hold.
            let mut units = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            let mut start = 0usize;
            while let Some(r) = seq.next_element::<Record>()? {
                let end = start.saturating_add(r.len as usize);
                let name = Name::within(&self.0, start, end)
                    .ok_or_else(|| de::Error::custom("a unit name past its file's names"))?;
                units.push(Unit {
                    name,
                    kind: r.kind,
                    start_line: r.start_line,
                    end_line: r.end_line,
                    anonymous: r.anonymous,
                    stored: r.stored,
                });
                start = end;
            }
            if start != self.0.len() {
                return Err(de::Error::custom("unit names left over"));
            }
            Ok(units)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::super::{metric, FileMeasure, FileOutcome, Language, Metric, Unit, UnitKind};
    use super::*;

    fn measured(names: &[&str]) -> FileOutcome {
        let units = names.iter().enumerate().map(|(i, name)| {
            let line = u32::try_from(i).unwrap() * 10 + 1;
            let mut u = Unit::new(name.to_string(), UnitKind::Function, line, line + 4);
            u.set_value(Metric::FunctionParams, 3);
            u.anonymous = name.is_empty();
            u
        });
        FileOutcome::Measured(FileMeasure {
            path: "src/größe.rs".to_string(),
            language: Language::Rust,
            lines: 60,
            types: 0,
            units: units.collect(),
            warnings: vec!["a warning".to_string()],
            syntax_errors: None,
            bytes: 600,
            loaded: None,
            chain: None,
            directive_in_comment: Some(7),
            unicode_escape: None,
        })
    }

    /// A file's units come back from the cache's bytes exactly as they were measured,
    /// names of several bytes a character and an empty one among them, all sharing one
    /// text.
    #[test]
    fn units_read_back_from_the_cache_are_the_units_measured() {
        let outcome = measured(&["Größe::new", "", "<Parser as Iterator>::next", "f"]);
        let bytes = postcard::to_allocvec(&outcome).unwrap();
        let back: FileOutcome = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, outcome);
        let FileOutcome::Measured(m) = back else {
            panic!("measured")
        };
        let names: Vec<&str> = m.units.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["Größe::new", "", "<Parser as Iterator>::next", "f"]);
        assert!(Arc::ptr_eq(&m.units[0].name.text, &m.units[3].name.text));
        assert_eq!(m.units[2].value(Metric::FunctionParams), Some(3));
        assert!(m.units[1].anonymous);
    }

    /// Units whose name lengths run past the names, fall short of them or cut a character
    /// are refused (the cache then measures the file afresh), never misread.
    #[test]
    fn units_whose_names_dont_add_up_are_refused() {
        #[derive(Deserialize)]
        struct Units(#[serde(with = "super::units")] Vec<Unit>);
        let record = |len: u32| {
            (
                len,
                UnitKind::Function,
                1u32,
                2u32,
                false,
                [0u32; metric::STORED_MAX],
            )
        };
        let read = |names: &str, lens: &[u32]| {
            let records: Vec<_> = lens.iter().map(|&len| record(len)).collect();
            let bytes = postcard::to_allocvec(&(names, records)).unwrap();
            let units = postcard::from_bytes::<Units>(&bytes).map(|u| u.0);
            units.map(|u| u.iter().map(|u| u.name.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(read("abé", &[1, 3]).unwrap(), ["a", "bé"]);
        assert!(read("abé", &[1, 4]).is_err(), "past the names");
        assert!(read("abé", &[1, 1]).is_err(), "names left over");
        assert!(read("abé", &[1, 2]).is_err(), "within a character");
    }
}
