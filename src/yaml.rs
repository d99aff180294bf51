//! Readers' helper (stages 0 and 1): the one place that parses YAML. serde_yaml is
//! archived, so nothing else names it; swapping the parser touches this file only.
//!
//! Hostile input: serde_yaml bounds nesting (128 levels) and alias replays (100 per
//! event), which stops the exponential "billion laughs". The quadratic variant (many
//! aliases to one large node) is refused before parsing by [`check_aliases`], and so is
//! nesting deeper than 64 levels (`depth`), on which the parser spends quadratic time. Types
//! read through [`from_str`] must stay shallow: read nested content as
//! [`serde::de::IgnoredAny`] (or a [`Shallow`] value), which never follows aliases.

mod depth;

use std::collections::{HashMap, VecDeque};
use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// Larger documents are refused: no configuration structgate reads comes near it, and
/// the parser would spend seconds on a hostile one.
pub const MAX_YAML_BYTES: usize = 1 << 20;

/// Aliases × document bytes above this are refused: the most a shallow read can replay.
pub const MAX_ALIAS_WORK: usize = 16 << 20;

/// A YAML problem; `line` is 1-based within the YAML document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub line: Option<usize>,
    pub message: String,
}

/// Parses one YAML document (empty text is a document holding nothing: read it as an
/// `Option`). Positions are carried in [`YamlError::line`], not in the message.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    from_str_seed(text, std::marker::PhantomData::<T>)
}

/// [`from_str`] with a seed that carries what to read how.
fn from_str_seed<'de, S: de::DeserializeSeed<'de>>(
    text: &'de str,
    seed: S,
) -> Result<S::Value, YamlError> {
    if text.len() > MAX_YAML_BYTES {
        return Err(YamlError {
            line: None,
            message: format!(
                "a YAML document of {} bytes is larger than structgate reads ({} MiB)",
                text.len(),
                MAX_YAML_BYTES >> 20
            ),
        });
    }
    depth::check_depth(text)?;
    check_aliases(text)?;
    seed.deserialize(serde_yaml::Deserializer::from_str(text))
        .map_err(|err| {
            // serde_yaml reads the events before a syntax error first, so a type error
            // there can hide the syntax error: report the syntax error when there is one.
            let syntax = serde_yaml::from_str::<IgnoredAny>(text).err();
            let err = syntax.unwrap_or(err);
            YamlError {
                line: err.location().map(|at| at.line()),
                message: strip_positions(&err.to_string()),
            }
        })
}

/// Refuses a document whose aliases could make a reader replay more than
/// [`MAX_ALIAS_WORK`] bytes. Counts conservatively: any `*` that starts a word and is
/// followed by a name character counts as an alias (also inside strings and comments).
pub fn check_aliases(text: &str) -> Result<(), YamlError> {
    let mut count = 0usize;
    let mut first_line = None;
    for (index, line) in crate::lines::lines(text).enumerate() {
        let hits = alias_like_tokens(line);
        if hits > 0 && first_line.is_none() {
            first_line = Some(index + 1);
        }
        count += hits;
    }
    if count.saturating_mul(text.len()) > MAX_ALIAS_WORK {
        return Err(YamlError {
            line: first_line,
            message: format!(
                "{count} YAML aliases in a document of {} bytes could expand it past {} MiB; \
                 refusing to read it",
                text.len(),
                MAX_ALIAS_WORK >> 20
            ),
        });
    }
    Ok(())
}

fn alias_like_tokens(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut hits = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let starts_word = i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'[' | b'{' | b',');
        let named = bytes
            .get(i + 1)
            .is_some_and(|&n| !matches!(n, b' ' | b'\t' | b'\r' | b'*' | b',' | b']' | b'}'));
        if b == b'*' && starts_word && named {
            hits += 1;
        }
    }
    hits
}

/// Removes serde_yaml's document positions (`at line 3 column 5`, `at position 9`),
/// which would contradict the file lines the callers report.
fn strip_positions(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(" at ") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 4..];
        match position_len(tail) {
            Some(len) => rest = &tail[len..],
            None => {
                out.push_str(" at ");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length of a `line N column M` or `position N` at the start of `text`.
fn position_len(text: &str) -> Option<usize> {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    if let Some(after) = text.strip_prefix("line ") {
        let n = digits(after);
        let after_n = after[n..].strip_prefix(" column ")?;
        let m = digits(after_n);
        (n > 0 && m > 0).then_some(5 + n + 8 + m)
    } else {
        let after = text.strip_prefix("position ")?;
        let n = digits(after);
        (n > 0).then_some(9 + n)
    }
}

/// One YAML value read shallowly: a scalar, or only the kind of a collection.
#[derive(Debug, Clone, PartialEq)]
pub enum Shallow {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    List,
    Mapping,
    /// A value carrying a local tag such as `!env`; the tag without `!`.
    Tagged(String),
}

impl fmt::Display for Shallow {
    /// The value as a message shows it: `-3`, `55.5`, `"55"`, `null`, `a list`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shallow::Null => f.write_str("null"),
            Shallow::Bool(b) => write!(f, "{b}"),
            Shallow::Int(i) => write!(f, "{i}"),
            Shallow::Float(x) => write!(f, "{x:?}"),
            Shallow::Str(s) => write!(f, "{s:?}"),
            Shallow::List => f.write_str("a list"),
            Shallow::Mapping => f.write_str("a mapping"),
            Shallow::Tagged(tag) => write!(f, "a value tagged !{tag}"),
        }
    }
}

struct ShallowVisitor;

impl<'de> Visitor<'de> for ShallowVisitor {
    type Value = Shallow;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Shallow, E> {
        Ok(Shallow::Null)
    }
    fn visit_none<E>(self) -> Result<Shallow, E> {
        Ok(Shallow::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Shallow, E> {
        Ok(Shallow::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Shallow, E> {
        Ok(Shallow::Int(i128::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Shallow, E> {
        Ok(Shallow::Int(i128::from(v)))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Shallow, E> {
        Ok(Shallow::Int(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Shallow, E> {
        // Past i128 a count is absurd anyway; saturate rather than fail.
        Ok(Shallow::Int(i128::try_from(v).unwrap_or(i128::MAX)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Shallow, E> {
        Ok(Shallow::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Shallow, E> {
        Ok(Shallow::Str(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shallow, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Shallow::List)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shallow, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Shallow::Mapping)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Shallow, A::Error> {
        use serde::de::VariantAccess as _;
        let (tag, variant): (String, _) = data.variant()?;
        variant.newtype_variant::<IgnoredAny>()?;
        Ok(Shallow::Tagged(tag))
    }
}

impl<'de> Deserialize<'de> for Shallow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShallowVisitor)
    }
}

/// One YAML value read in full, for the few keys whose value is a list or a mapping
/// (`pinned` and `tiers` of a Limits fence). Depth and aliases are bounded before parsing
/// ([`from_str`]), so reading one in full is bounded too.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(Shallow),
    List(Vec<Node>),
    /// Entries in document order.
    Mapping(Vec<(Shallow, Node)>),
}

impl Node {
    /// The value as [`Shallow`] reads it: a scalar, or only the kind of a collection.
    pub fn shallow(&self) -> Shallow {
        match self {
            Node::Scalar(s) => s.clone(),
            Node::List(_) => Shallow::List,
            Node::Mapping(_) => Shallow::Mapping,
        }
    }
}

/// Reads a [`Node`] at most `0` levels deep: below that, collections are read as
/// [`Shallow`] kinds, so a hostile document cannot make one key expand past a few levels.
#[derive(Clone, Copy)]
struct Depth(usize);

impl<'de> de::DeserializeSeed<'de> for Depth {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        if self.0 == 0 {
            return Shallow::deserialize(deserializer).map(Node::Scalar);
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Depth {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Null))
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Int(i128::from(v))))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Int(i128::from(v))))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Int(v)))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Int(
            i128::try_from(v).unwrap_or(i128::MAX),
        )))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Scalar(Shallow::Str(v.to_string())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Depth(self.0 - 1))? {
            items.push(item);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Shallow>()? {
            entries.push((key, map.next_value_seed(Depth(self.0 - 1))?));
        }
        Ok(Node::Mapping(entries))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Node, A::Error> {
        ShallowVisitor.visit_enum(data).map(Node::Scalar)
    }
}

/// A document read as a top-level mapping of shallow values.
#[derive(Debug, Clone, PartialEq)]
pub enum FlatDoc {
    /// Nothing but blank lines and comments.
    Empty,
    /// A mapping; entries in document order.
    Mapping(Vec<FlatEntry>),
    /// Anything else at the top (`null` written out, a scalar, a list, a tagged value).
    Other(Shallow),
}

/// One top-level entry with the 1-based document line of its key. The line is found by
/// scanning block-style keys at column 0; where that fails (flow style, complex keys)
/// it is the document's first line holding anything.
#[derive(Debug, Clone, PartialEq)]
pub struct FlatEntry {
    pub key: Shallow,
    pub value: Shallow,
    /// The value in full (a list's items, a mapping's entries).
    pub node: Node,
    pub line: usize,
}

enum RawFlat {
    Empty,
    Mapping(Vec<(Shallow, Node)>),
    Other(Shallow),
}

/// Reads the top-level mapping; the values of the `deep` keys as [`Node`]s up to
/// [`DEEP_LEVELS`] levels, every other value shallowly.
struct FlatVisitor<'k> {
    deep: &'k [&'k str],
}

/// How many levels a deep key's value is read: `tiers` → a tier → `paths` → a pattern.
pub const DEEP_LEVELS: usize = 3;

impl<'de> de::DeserializeSeed<'de> for FlatVisitor<'_> {
    type Value = RawFlat;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<RawFlat, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FlatVisitor<'_> {
    type Value = RawFlat;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML document")
    }
    fn visit_none<E>(self) -> Result<RawFlat, E> {
        Ok(RawFlat::Empty)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawFlat, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Shallow>()? {
            let deep = matches!(&key, Shallow::Str(k) if self.deep.contains(&k.as_str()));
            let levels = if deep { DEEP_LEVELS } else { 0 };
            entries.push((key, map.next_value_seed(Depth(levels))?));
        }
        Ok(RawFlat::Mapping(entries))
    }
    fn visit_unit<E>(self) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Int(i128::from(v))))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Int(i128::from(v))))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawFlat, E> {
        Ok(RawFlat::Other(Shallow::Str(v.to_string())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawFlat, A::Error> {
        ShallowVisitor.visit_seq(seq).map(RawFlat::Other)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<RawFlat, A::Error> {
        ShallowVisitor.visit_enum(data).map(RawFlat::Other)
    }
}

/// Reads a document as a flat mapping, with the line of every top-level key.
pub fn read_flat(text: &str) -> Result<FlatDoc, YamlError> {
    read_flat_with(text, &[])
}

/// [`read_flat`], reading the values of the `deep` keys as [`Node`]s (a few levels).
pub fn read_flat_with(text: &str, deep: &[&str]) -> Result<FlatDoc, YamlError> {
    let entries = match from_str_seed(text, FlatVisitor { deep })? {
        RawFlat::Empty => return Ok(FlatDoc::Empty),
        RawFlat::Other(value) => return Ok(FlatDoc::Other(value)),
        RawFlat::Mapping(entries) => entries,
    };
    let fallback = first_content_line(text);
    let mut lines = key_lines(text);
    let positioned = entries
        .into_iter()
        .map(|(key, node)| {
            let line = match &key {
                Shallow::Str(k) => lines.get_mut(k).and_then(VecDeque::pop_front),
                _ => None,
            };
            FlatEntry {
                key,
                value: node.shallow(),
                node,
                line: line.unwrap_or(fallback),
            }
        })
        .collect();
    Ok(FlatDoc::Mapping(positioned))
}

/// The 1-based line of the first line holding something other than a comment.
pub fn first_content_line(text: &str) -> usize {
    crate::lines::lines(text)
        .position(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map_or(1, |i| i + 1)
}

/// Block-style keys at column 0, each with the 1-based lines it appears on.
fn key_lines(text: &str) -> HashMap<String, VecDeque<usize>> {
    let mut out: HashMap<String, VecDeque<usize>> = HashMap::new();
    for (index, line) in crate::lines::lines(text).enumerate() {
        if let Some(key) = column0_key(line) {
            out.entry(key).or_default().push_back(index + 1);
        }
    }
    out
}

/// The key of a `key: value` line starting at column 0 (plain, 'single' or "double"
/// quoted), or `None` for any other line.
fn column0_key(line: &str) -> Option<String> {
    let first = line.chars().next()?;
    if first.is_whitespace() || "#-?[{&!%|>*@`".contains(first) || line.starts_with("...") {
        return None;
    }
    let (key, rest) = match first {
        '"' => quoted_key(&line[1..], '"')?,
        '\'' => quoted_key(&line[1..], '\'')?,
        _ => {
            let colon = plain_key_end(line)?;
            (line[..colon].trim_end().to_string(), &line[colon..])
        }
    };
    let rest = rest.trim_start_matches([' ', '\t']).strip_prefix(':')?;
    let ends_key = rest.is_empty() || rest.starts_with([' ', '\t']);
    ends_key.then_some(key)
}

/// Where a plain key ends: the first `:` followed by a blank or the end of the line.
fn plain_key_end(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len())
        .find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(|&n| n == b' ' || n == b'\t'))
}

/// A quoted key's text (common escapes only) and the rest of the line after the quote.
fn quoted_key(after_quote: &str, quote: char) -> Option<(String, &str)> {
    let mut key = String::new();
    let mut chars = after_quote.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (c, quote) {
            ('\'', '\'') if chars.peek().map(|p| p.1) == Some('\'') => {
                chars.next();
                key.push('\'');
            }
            ('\\', '"') => key.push(chars.next()?.1),
            _ if c == quote => return Some((key, &after_quote[i + 1..])),
            _ => key.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests;
